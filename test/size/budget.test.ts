/**
 * Size budgets of the lean forms (`npm run bench:size` prints them next to
 * peer libraries). Measured here with the root's esbuild, without the peers:
 * the same bundle settings as the benchmark (minified, tree-shaken, ESM,
 * browser; gzip level 9).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AVASPEC_DATA_FUNCTION, AVASPEC_DATA_OP, AVASPEC_ENTRIES, AVASPEC_RPC_FUNCTION, AVASPEC_RPC_METHOD, AVASPEC_WHOLE_PACKAGE, BUDGETS, FUNCTION_BUDGET, ROOT_DIR, bundleText, measure, type SizeResult } from "../../bench/size/entries.js";

const entry = (name: string) => {
  const e = AVASPEC_ENTRIES.find((x) => x.name === name);
  if (!e) throw new Error(`no size entry named "${name}"`);
  return e;
};

/** A method whose params can carry a deprecated value (the C-Chain's block tag `accepted`). */
const GET_BALANCE_FUNCTION = "avaspec: eth_getBalance, functional form (params checked)";
const sizes = new Map<string, SizeResult>();
const texts = new Map<string, string>();

beforeAll(async () => {
  for (const name of [AVASPEC_DATA_OP, AVASPEC_RPC_METHOD, AVASPEC_DATA_FUNCTION, AVASPEC_RPC_FUNCTION, AVASPEC_WHOLE_PACKAGE, GET_BALANCE_FUNCTION]) {
    sizes.set(name, await measure(entry(name).code, ROOT_DIR));
    texts.set(name, await bundleText(entry(name).code, ROOT_DIR));
  }
});

/**
 * Issue 7 asks for at most 2.0 KB gzip (one Data API operation) and 3.0 KB
 * (one JSON-RPC method incl. batching). Those budgets are not met: in the
 * same run openapi-fetch alone, with no retries, timeouts or validation, is
 * 2.6 KB (see `npm run bench:size`). Until that is decided, these ceilings
 * hold today's sizes (5.15 KB and 5.22 KB gzip, about 3% headroom) so that the
 * lean forms cannot grow unnoticed; `bench:size` still prints the budgets.
 * The JSON-RPC ceiling rose by 100 B (issue 15) for RpcServerError,
 * RpcProtocolError and the checks that tell a reply breaking JSON-RPC 2.0
 * from an error object (5,503 B with them). It rose again by 150 B (issue
 * 15) for declared errors: the method's error classes its descriptor names
 * and the runtime's choice among them (5,665 B with them). It rose by 150 B
 * (issue 16) for the one-time deprecation warning (`deprecationWarnings`) and
 * the declared wire shape (`wrappedIn`, `unwrapped`): 5,805 B with them.
 * Issue 17 moved them both: the number policy (parameters given as bigint or
 * number written in the wire form, a ValidationError naming the one that
 * cannot be; per-call `numbers`) costs the Data API operation about 50 B
 * (5,460 B); the JSON-RPC entry's info.getNodeVersion reads its decimal
 * rpcProtocolVersion as a bigint, which brings that result's integer walker
 * and the reading leaf (6,093 B; an operation without parameters no longer
 * carries a generated params check, which the runtime's object check makes
 * redundant).
 * Issue 26 raised the Data API ceiling by 350 B (5,809 B): every HTTP
 * operation now honours a server of its own and `operationServers` (a
 * relative server resolved against the base URL), refuses before sending what
 * fetch can never send (a TRACE, a body on GET, a header such as
 * Transfer-Encoding: `UnsendableRequestError`, not a retried NetworkError),
 * writes cookies in their style and asks for a text body's own media type.
 * Header objects and reserved expansion stay in the style encoders.
 * Issue 26 (14) raised both again, by 100 B and 160 B (6,002 B and 6,356 B):
 * a value nested deeper than the stack (a 20,000-deep recursive body) fails
 * the call with a ValidationError instead of a raw RangeError. The guard
 * sits at the transports' entry points (depth.ts `overflowError`), not
 * around each recursive walk, which cost more than twice as much.
 * Issue 27 raised the Data API ceiling by 50 B (6,096 B, functional form
 * 6,144 B): an operation lists every API-key scheme it accepts, and the
 * request takes `apiKeys` (by scheme name) beside `apiKey`, so that the key
 * reaches the header the real service reads; a result that holds values
 * servers send in another JSON type converts them (`resultForms`). A
 * request-only pattern's RegExp is built by a pure call from its source, so
 * that bundlers drop it with the checks that use it.
 *
 * The functional form (issue 17, 7) has the issue's budget, 6 KB (6,144 B)
 * for one operation, asserted as is: the Data API operation (about 5,510 B)
 * and the JSON-RPC method (eth_chainId alone and an automatically batched
 * pair, viem's job in `bench:size`: about 6,100 B, of which the six JSON-RPC
 * error classes every eth_ method declares are some 200 B). The JSON-RPC
 * method is over that budget since issue 26 (14): 6,367 B with the depth
 * guard above. Issue 27 sets 7.5 KB for one JSON-RPC method; until then it
 * has a ceiling like the descriptor forms, so that it cannot grow unnoticed.
 * Issue 27 adds to each transport the call of a descriptor's watch of
 * deprecated values (`x-avaspec-deprecated-values`): about 15 B in each
 * entry (6,017 B, 6,370 B, 6,070 B and 6,380 B); the watch itself and its
 * notice come only with a method whose params can carry such a value.
 * Issue 30 gave errors what their bodies say (RFC 9457 problem details and
 * the other common shapes) and moved the runtime's advice texts, which were
 * in every bundle, into the specs (`x-avaspec-advice`): the client objects
 * pass them, the functional form and descriptor calls take them as
 * `errorAdvice`. Net: 6,082 B, 6,270 B, 6,123 B and 6,275 B (+5, -91, -2,
 * -92). `withResponse` and the generated error guards are in none of these
 * bundles (the tests below).
 * After issue 32, a status an operation returns as its result (a health
 * check's 503) is an answer, not retried: the check sits in send.ts, which
 * every transport shares (6,097 B, 6,416 B, 6,142 B and 6,434 B: +11, +8,
 * +12, +7); the JSON-RPC functional form's ceiling rises by 10 B.
 */
const CEILINGS = { dataOp: 6_110, rpcMethod: 6_420, rpcFunction: 6_440 };

describe("bundle size ceilings (gzip)", () => {
  it("the issue's budgets are the ones the benchmark reports", () => {
    expect(BUDGETS["data-op"]!.gzip).toBe(2048);
    expect(BUDGETS["rpc-method"]!.gzip).toBe(3072);
  });

  it(`one Data API operation (callHttp + one descriptor) stays within ${CEILINGS.dataOp} B gzip`, () => {
    const { gzip, min } = sizes.get(AVASPEC_DATA_OP)!;
    expect(gzip, `one Data API operation: ${gzip} B gzip (${min} B minified), ceiling ${CEILINGS.dataOp} B, budget 2048 B`).toBeLessThanOrEqual(CEILINGS.dataOp);
  });

  it(`one JSON-RPC method incl. batching stays within ${CEILINGS.rpcMethod} B gzip`, () => {
    const { gzip, min } = sizes.get(AVASPEC_RPC_METHOD)!;
    expect(gzip, `one JSON-RPC method incl. batching: ${gzip} B gzip (${min} B minified), ceiling ${CEILINGS.rpcMethod} B, budget 3072 B`).toBeLessThanOrEqual(CEILINGS.rpcMethod);
  });
});

describe("the functional form (issue 17)", () => {
  it(`one Data API operation through getChainInfo(core, params) is within the ${FUNCTION_BUDGET} B budget`, () => {
    const { gzip, min } = sizes.get(AVASPEC_DATA_FUNCTION)!;
    expect(gzip, `one Data API operation, functional form: ${gzip} B gzip (${min} B minified), budget ${FUNCTION_BUDGET} B`).toBeLessThanOrEqual(FUNCTION_BUDGET);
  });

  it(`one JSON-RPC method through cChainEthChainId(core) stays within ${CEILINGS.rpcFunction} B gzip`, () => {
    const { gzip, min } = sizes.get(AVASPEC_RPC_FUNCTION)!;
    expect(gzip, `one JSON-RPC method, functional form: ${gzip} B gzip (${min} B minified), ceiling ${CEILINGS.rpcFunction} B, budget ${FUNCTION_BUDGET} B`).toBeLessThanOrEqual(CEILINGS.rpcFunction);
  });

  it("the functional form holds the one operation, not the client objects", () => {
    const bundle = texts.get(AVASPEC_DATA_FUNCTION)!;
    expect(bundle).toContain("getChainInfo");
    for (const marker of ["listErc20Transactions", "getNativeBalance", "transactions:listErc20"]) expect(bundle.includes(marker), `"${marker}" in the functional one-op bundle`).toBe(false);
  });
});

describe("deprecated values (issue 27)", () => {
  // the notice's text stands for the watch: the runtime's valueNotices is minified beyond recognition
  const notice = "(BlockTag) is removed in Helicon";

  it("a method whose params can carry one bundles its notice and watch; methods without such values carry neither", () => {
    expect(texts.get(GET_BALANCE_FUNCTION)).toContain(notice);
    for (const name of [AVASPEC_RPC_METHOD, AVASPEC_RPC_FUNCTION, AVASPEC_DATA_OP, AVASPEC_DATA_FUNCTION]) expect(texts.get(name)!.includes(notice), `the deprecated value's notice in "${name}"`).toBe(false);
    expect(texts.get(AVASPEC_WHOLE_PACKAGE)).toContain(notice);
  });
});

describe("typed errors and responses cost nothing unused (issue 30)", () => {
  // withResponse's member name, the Data API's advice (its 429 text) and its operations' guard statuses
  const markers = ["withResponse", "raises the limits", "[400,401,403,404,429,500,502,503]"];

  it("the whole package holds the markers", () => {
    for (const marker of markers) expect(texts.get(AVASPEC_WHOLE_PACKAGE)!.includes(marker), `"${marker}" in the whole package's bundle`).toBe(true);
  });

  it("one Data API operation, functional or by descriptor, holds neither withResponse, the spec's advice nor the error guards", () => {
    for (const name of [AVASPEC_DATA_OP, AVASPEC_DATA_FUNCTION]) for (const marker of markers) expect(texts.get(name)!.includes(marker), `"${marker}" in "${name}"`).toBe(false);
  });
});

describe("tree-shaking", () => {
  // Markers of code the one-op entry must not hold. Each must be in the whole
  // package's bundle, or its absence from the one-op bundle proves nothing.
  const otherOperations = ["listErc20Transactions", "transactions:listErc20", "getNativeBalance", "balances:getNative"];
  const styleCode = ["deepObject", "pipeDelimited", "%5B"];

  it("the markers are in the whole package's bundle", () => {
    const whole = texts.get(AVASPEC_WHOLE_PACKAGE)!;
    for (const marker of [...otherOperations, ...styleCode]) expect(whole.includes(marker), `"${marker}" in the whole package's bundle`).toBe(true);
  });

  it("one Data API operation holds neither other operations nor non-default parameter styles", () => {
    const one = texts.get(AVASPEC_DATA_OP)!;
    expect(one).toContain("getChainInfo");
    for (const marker of otherOperations) expect(one.includes(marker), `"${marker}" (another operation) in the one-op bundle`).toBe(false);
    for (const marker of styleCode) expect(one.includes(marker), `"${marker}" (parameter style code) in the one-op bundle`).toBe(false);
  });

  it("the whole package is larger than one operation", () => {
    const one = sizes.get(AVASPEC_DATA_OP)!;
    const whole = sizes.get(AVASPEC_WHOLE_PACKAGE)!;
    expect(whole.min).toBeGreaterThan(one.min);
    expect(whole.gzip, `whole package ${whole.gzip} B gzip vs one operation ${one.gzip} B`).toBeGreaterThan(one.gzip);
  });
});
