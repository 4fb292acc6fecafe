/**
 * Issue 27: what real servers send otherwise than their document says, on
 * any spec (the wire-forms-31 fixture: an OpenAPI and an OpenRPC document),
 * against loopback servers, MSW's real setupServer and the real mock server:
 *
 * - several alternative API-key schemes: `apiKey` goes under the scheme
 *   marked `x-avaspec-preferred: true`, else under the first an operation
 *   lists; `apiKeys` sends keys by scheme name; no key ever shows in an
 *   error, a hook or a warning;
 * - `x-avaspec-wire-form`: a value servers send as another JSON type passes
 *   response validation (strict included) and comes back in the documented
 *   type; mocks serve that form when asked;
 * - `x-avaspec-response-pattern: false`: the pattern checks what is sent,
 *   never what servers answer;
 * - malformed extension values: diagnostics at their pointers.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createShopClient } from "../fixtures/wire-forms-31/golden/src/api/client.js";
import { ItemSchema, isCode, isItem, validateCode, validateGetItemParams, validateGetItemResponse, validateItem } from "../fixtures/wire-forms-31/golden/src/api/validators.js";
import { createLedgerClient } from "../fixtures/wire-forms-31/golden/src/rpc/client.js";
import { validateLedgerBalanceResult } from "../fixtures/wire-forms-31/golden/src/rpc/validators.js";
import { createMocks } from "../fixtures/wire-forms-31/golden/src/mocks/index.js";
import { startMockServer, type MockServer } from "../fixtures/wire-forms-31/golden/src/mock-server/index.js";
import { ApiError, ValidationError } from "../fixtures/wire-forms-31/golden/src/runtime/errors/errors.js";
import { useMsw } from "../helpers/msw.js";
import { startRpcServer, type RpcTestServer } from "../helpers/rpc-server.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { parseDiagnostics, runCli } from "../helpers/cli.js";

let server: TestServer;
let rpcServer: RpcTestServer;
beforeAll(async () => {
  server = await startServer();
  rpcServer = await startRpcServer();
});
afterAll(async () => {
  await server.close();
  await rpcServer.close();
});
afterEach(() => vi.restoreAllMocks());

const last = () => server.requests.at(-1)!;
/** Answers with JSON text exactly as written (a number's own digits, an exponent). */
const answerText = (text: string) => server.reply(() => ({ body: text, headers: { "content-type": "application/json" } }));
const documentedItem = { code: "ABC", price: { currency: "EUR", amount: "12.5" }, rank: 3, stock: "7", weights: ["0.5", "1.25"] };

describe("several API-key schemes", () => {
  const shop = (options: Parameters<typeof createShopClient>[0] = {}) => createShopClient({ baseUrl: server.url, retry: false, ...options });
  const keyHeaders = () => ({ current: last().headers["x-api-key"], legacy: last().headers["x-legacy-key"], url: last().url });

  it("apiKey goes under the scheme marked x-avaspec-preferred, though the operation lists another first", async () => {
    server.reply(() => ({ body: documentedItem }));
    await shop({ apiKey: "k1" }).getItem({ code: "ABC" });
    expect(keyHeaders()).toEqual({ current: "k1", legacy: undefined, url: "/items/ABC" });
  });

  it("without a preferred scheme among an operation's, apiKey goes under the first it lists (here a query parameter)", async () => {
    server.reply(() => ({ body: { entries: [] } }));
    await shop({ apiKey: "k1" }).listEntries();
    expect(keyHeaders()).toEqual({ current: undefined, legacy: undefined, url: "/entries?key=k1" });
  });

  it("apiKeys sends a key under each named scheme the operation takes, and wins over apiKey for its scheme", async () => {
    server.reply(() => ({ body: documentedItem }));
    await shop({ apiKeys: { LegacyKey: "old" } }).getItem({ code: "ABC" });
    expect(keyHeaders()).toEqual({ current: undefined, legacy: "old", url: "/items/ABC" });
    await shop({ apiKey: "k1", apiKeys: { LegacyKey: "old", QueryKey: "q" } }).getItem({ code: "ABC" });
    // getItem does not take QueryKey: that key is not sent there
    expect(keyHeaders()).toEqual({ current: "k1", legacy: "old", url: "/items/ABC" });
    await shop({ apiKey: "k1", apiKeys: { CurrentKey: "c", QueryKey: "" } }).getItem({ code: "ABC" });
    expect(keyHeaders()).toEqual({ current: "c", legacy: undefined, url: "/items/ABC" });
    server.reply(() => ({ body: { entries: [] } }));
    await shop({ apiKey: "k1", apiKeys: { QueryKey: "q", LegacyKey: "old" } }).listEntries();
    expect(keyHeaders()).toEqual({ current: undefined, legacy: "old", url: "/entries?key=q" });
  });

  it("an operation that takes no key gets none", async () => {
    server.reply(() => ({ body: [] }));
    await shop({ apiKey: "k1", apiKeys: { LegacyKey: "old", QueryKey: "q" } }).quote({ body: { amounts: [] } });
    expect(keyHeaders()).toEqual({ current: undefined, legacy: undefined, url: "/prices" });
  });

  it("no key shows in an error, a hook event or a warning, whichever scheme carried it", async () => {
    const events: unknown[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const client = shop({ apiKey: "sekrit-1", apiKeys: { LegacyKey: "sekrit-2" }, validateResponse: "warn", onRequest: (e) => void events.push(e), onResponse: (e) => void events.push(e) });
    server.reply(() => ({ status: 401, body: { message: "no" } }));
    const errors = [await client.getItem({ code: "ABC" }).catch((e: unknown) => e), await client.listEntries().catch((e: unknown) => e)];
    expect(server.requests.at(-1)!.url).toBe("/entries?key=sekrit-1");
    server.reply(() => ({ body: { entries: "not a list" } }));
    await client.listEntries();
    expect(warn).toHaveBeenCalledTimes(1);
    for (const e of errors) expect(e).toBeInstanceOf(ApiError);
    const shown = JSON.stringify(errors.map((e) => ({ ...(e as object), message: (e as Error).message }))) + JSON.stringify(events) + JSON.stringify(warn.mock.calls);
    expect(events.length).toBeGreaterThanOrEqual(6);
    expect(shown).toContain("/entries");
    expect(shown).not.toContain("sekrit");
  });
});

describe("x-avaspec-wire-form: values servers send as another JSON type", () => {
  const strict = (numbers?: "bigint") => createShopClient({ baseUrl: server.url, retry: false, validateResponse: "strict", ...(numbers ? { numbers } : {}) });
  // a number for a decimal string (beside a $ref and in array items), decimal text for an integer, a JSON integer for an integer string
  const wireText = '{"code":"ABC","price":{"currency":"EUR","amount":1e21},"rank":"42","stock":7,"weights":[0.30000000000000004,1.5e-7,-0,12.5]}';
  const documented = { code: "ABC", price: { currency: "EUR", amount: "1000000000000000000000" }, rank: 42, stock: "7", weights: ["0.30000000000000004", "0.00000015", "0", "12.5"] };

  it("pass strict validation and come back in the documented types, in plain decimal digits", async () => {
    answerText(wireText);
    await expect(strict().getItem({ code: "ABC" })).resolves.toEqual(documented);
    // then the number policy: the integer string read as a bigint
    answerText(wireText);
    await expect(strict("bigint").getItem({ code: "ABC" })).resolves.toEqual({ ...documented, stock: 7n });
    // the documented form passes as it is
    server.reply(() => ({ body: documentedItem }));
    await expect(strict().getItem({ code: "ABC" })).resolves.toEqual(documentedItem);
  });

  it("are converted with validation off too (the types promise the documented form), and warn mode does not warn", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    answerText(wireText);
    await expect(createShopClient({ baseUrl: server.url, retry: false }).getItem({ code: "ABC" })).resolves.toEqual(documented);
    answerText(wireText);
    await expect(createShopClient({ baseUrl: server.url, retry: false, validateResponse: "warn" }).getItem({ code: "ABC" })).resolves.toEqual(documented);
    expect(warn).not.toHaveBeenCalled();
  });

  it("a value in neither form is refused at its field; a converted value must pass the documented schema", async () => {
    for (const [rank, message] of [
      // not of the wire form's pattern: the documented check's issue
      ['"4.5"', /must be integer/],
      ["true", /must be integer/],
      // "200" on the wire converts to 200, which the documented maximum refuses: the converted value's issue
      ['"200"', /must be <= 100/],
    ] as const) {
      answerText(wireText.replace('"rank":"42"', `"rank":${rank}`));
      const e = await strict().getItem({ code: "ABC" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).issues.map((i) => [i.path, i.message])).toEqual([["/rank", expect.stringMatching(message)]]);
    }
  });

  it("in a union, the branch the server's value is of is converted", async () => {
    server.reply(() => ({ body: { entries: [{ text: "hello" }, JSON.parse(wireText)] } }));
    await expect(strict().listEntries()).resolves.toEqual({ entries: [{ text: "hello" }, documented] });
  });

  it("validateX and XSchema read a value as servers send it and give the documented form; isX asks for the documented form", () => {
    const wire = JSON.parse(wireText);
    const copy = structuredClone(wire);
    expect(validateItem(wire)).toEqual({ ok: true, value: documented });
    expect(validateGetItemResponse(wire)).toEqual({ ok: true, value: documented });
    expect(validateItem(wire, { numbers: "bigint" })).toEqual({ ok: true, value: { ...documented, stock: 7n } });
    expect(ItemSchema["~standard"].validate(wire)).toEqual({ value: documented });
    // the input is left as it was
    expect(wire).toEqual(copy);
    expect(isItem(wire)).toBe(false);
    expect(isItem(documented)).toBe(true);
    expect(validateItem({ ...wire, rank: "x" }).ok).toBe(false);
  });

  it("a JSON-RPC result: checked and converted the same way", async () => {
    rpcServer.answer(() => ({ result: { account: "acct-7", amount: 1e-7 } }));
    const ledger = createLedgerClient({ baseUrl: rpcServer.url, retry: false, validateResponse: "strict" });
    await expect(ledger.ledger.balance({ account: "acct-7" })).resolves.toEqual({ account: "acct-7", amount: "0.0000001" });
    expect(validateLedgerBalanceResult({ account: "acct-7", amount: 3 })).toEqual({ ok: true, value: { account: "acct-7", amount: "3" } });
  });
});

describe("x-avaspec-response-pattern: false: a pattern checks what is sent, not what servers answer", () => {
  it("a response value that breaks it passes strict validation; a request value that breaks it is refused before sending", async () => {
    const shop = createShopClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });
    server.reply(() => ({ body: { ...documentedItem, code: "not-a-code", price: { currency: "usd", amount: "1e5" } } }));
    await expect(shop.getItem({ code: "ABC" })).resolves.toMatchObject({ code: "not-a-code", price: { currency: "usd", amount: "1e5" } });
    const before = server.requests.length;
    const refused = await shop.getItem({ code: "abc" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).issues[0]).toMatchObject({ path: "/code", keyword: "pattern" });
    const body = await shop.quote({ body: { amounts: ["1e5"] } }).catch((e: unknown) => e);
    expect((body as ValidationError).issues[0]).toMatchObject({ path: "/body/amounts/0", keyword: "pattern" });
    expect(server.requests.length).toBe(before);
  });

  it("validators: a schema's and a result's validator read a response; a params validator and a guard check what is sent", () => {
    expect(validateCode("abc").ok).toBe(true);
    expect(validateGetItemResponse({ ...documentedItem, code: "abc" }).ok).toBe(true);
    expect(isCode("abc")).toBe(false);
    expect(isCode("ABC")).toBe(true);
    expect(validateGetItemParams({ code: "abc" }).ok).toBe(false);
    expect(validateGetItemParams({ code: "ABC" }).ok).toBe(true);
  });

  it("JSON-RPC: the same for params and result", async () => {
    rpcServer.answer(() => ({ result: { account: "savings", amount: "12.5" } }));
    const ledger = createLedgerClient({ baseUrl: rpcServer.url, retry: false, validateResponse: "strict" });
    await expect(ledger.ledger.balance({ account: "acct-1" })).resolves.toEqual({ account: "savings", amount: "12.5" });
    await expect(ledger.ledger.balance({ account: "savings" })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("mocks serve the servers' forms when asked (wireShapes: \"server\", --server-shapes)", () => {
  const BASE = "http://shop.test/v1";
  const RPC = "http://ledger.test/ext/ledger";
  const documented = createMocks({ baseUrls: { api: BASE, rpc: RPC } });
  const real = createMocks({ baseUrls: { api: `${BASE}-real`, rpc: `${RPC}-real` }, wireShapes: "server" });
  useMsw(documented, real);
  const raw = async (url: string) => (await (await fetch(url)).json()) as Record<string, unknown>;

  it("MSW: the documented form by default, the servers' form when asked; the strict client reads both as documented", async () => {
    expect(await raw(`${BASE}/items/ABC`)).toEqual(documentedItem);
    expect(await raw(`${BASE}-real/items/ABC`)).toEqual({ code: "ABC", price: { currency: "EUR", amount: 12.5 }, rank: "3", stock: 7, weights: [0.5, 1.25] });
    for (const baseUrl of [BASE, `${BASE}-real`]) {
      await expect(createShopClient({ baseUrl, retry: false, validateResponse: "strict" }).getItem({ code: "ABC" })).resolves.toEqual(documentedItem);
    }
  });

  it("MSW, JSON-RPC: the result in the servers' form; an override is served as given", async () => {
    const call = async (url: string) => {
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ledger.balance", params: { account: "acct-1" } }) });
      return ((await r.json()) as { result: { amount: unknown } }).result;
    };
    expect(typeof (await call(RPC)).amount).toBe("string");
    expect(typeof (await call(`${RPC}-real`)).amount).toBe("number");
    real.override("getItem", { body: documentedItem });
    expect(await raw(`${BASE}-real/items/ABC`)).toEqual(documentedItem);
  });
});

describe("the real mock server, --server-shapes (wireShapes: \"server\")", () => {
  const raw = async (url: string) => (await (await fetch(url)).json()) as Record<string, unknown>;
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 1, log: null, wireShapes: "server" });
  });
  afterAll(() => mock.close());

  it("answers in the servers' forms, which the strict client reads as documented", async () => {
    expect((await raw(`${mock.url}/v1/items/ABC`))["rank"]).toBe("3");
    const shop = createShopClient({ baseUrl: `${mock.url}/v1`, retry: false, validateResponse: "strict" });
    await expect(shop.getItem({ code: "ABC" })).resolves.toEqual(documentedItem);
    const entries = await shop.listEntries();
    expect(entries.entries.length).toBeGreaterThan(0);
  });
});

describe("malformed extension values", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "avaspec-wire-forms-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let runs = 0;
  // each document into a folder of its own: a package written by an earlier case would bring its release ledger
  const generate = (doc: unknown) => {
    writeFileSync(join(dir, "doc.json"), JSON.stringify(doc, null, 2));
    const r = runCli(["generate", "--input", "doc.json", "--out", `out-${++runs}`, "--lenient-versions"], dir);
    return { status: r.status, found: parseDiagnostics(r.stderr).map((d) => [d.code, d.pointer, d.warning, d.message] as const) };
  };
  const AT = "#/paths/~1x/get/responses/200/content/application~1json/schema";
  const apiDoc = (schema: unknown, components: Record<string, unknown> = {}) => ({ openapi: "3.1.0", info: { title: "M", version: "1" }, paths: { "/x": { get: { operationId: "x", responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } } }, components });

  it.each([
    ["a wire form that is not a schema", { type: "string", "x-avaspec-wire-form": "number" }, /x-avaspec-wire-form must be a schema whose type is string, number or integer, got "number"/],
    ["a wire form of another type than string, number or integer", { type: "string", "x-avaspec-wire-form": { type: "boolean" } }, /x-avaspec-wire-form must be a schema whose type is string, number or integer/],
    ["a wire form of the documented type", { type: "string", "x-avaspec-wire-form": { type: "string" } }, /a string on the wire cannot stand for type string: avaspec converts a number to decimal text and decimal text to a number/],
    ["a number for a documented integer", { type: "integer", "x-avaspec-wire-form": { type: "number" } }, /a number on the wire cannot stand for type integer/],
    ["a wire form of an object", { type: "object", "x-avaspec-wire-form": { type: "string" } }, /a string on the wire cannot stand for a schema without one string, number or integer type/],
  ])("%s: extension/wire-form at its pointer; nothing is written", (_what, schema, message) => {
    const r = generate(apiDoc(schema));
    expect(r.status).toBe(1);
    expect(r.found).toEqual([["extension/wire-form", `${AT}/x-avaspec-wire-form`, false, expect.stringMatching(message)]]);
  });

  it("a wire form beside a $ref is checked against the referenced schema's type", () => {
    const r = generate(apiDoc({ $ref: "#/components/schemas/Flag", "x-avaspec-wire-form": { type: "string" } }, { schemas: { Flag: { type: "boolean" } } }));
    expect(r.found).toEqual([["extension/wire-form", `${AT}/x-avaspec-wire-form`, false, expect.stringMatching(/cannot stand for a schema without one string/)]]);
  });

  it("x-avaspec-response-pattern: must be a boolean; false needs a pattern beside it (a warning)", () => {
    const bad = generate(apiDoc({ type: "string", pattern: "^a$", "x-avaspec-response-pattern": "no" }));
    expect(bad.status).toBe(1);
    expect(bad.found).toEqual([["extension/response-pattern", `${AT}/x-avaspec-response-pattern`, false, 'x-avaspec-response-pattern must be true or false, got "no"']]);
    const lone = generate(apiDoc({ $ref: "#/components/schemas/A", "x-avaspec-response-pattern": false }, { schemas: { A: { type: "string", pattern: "^a$" } } }));
    expect(lone.status).toBe(0);
    expect(lone.found).toEqual([["extension/response-pattern", `${AT}/x-avaspec-response-pattern`, true, "x-avaspec-response-pattern: false needs a pattern beside it (the one responses are not held to)"]]);
  });

  it("x-avaspec-preferred: a boolean, on an API-key scheme, one per document", () => {
    const schemes = (extra: Record<string, unknown>) => apiDoc({ type: "string" }, { securitySchemes: { A: { type: "apiKey", in: "header", name: "a", ...extra }, B: { type: "apiKey", in: "header", name: "b", "x-avaspec-preferred": true }, C: { type: "http", scheme: "bearer", ...extra } } });
    const notBool = generate(schemes({ "x-avaspec-preferred": "yes" }));
    expect(notBool.status).toBe(1);
    expect(notBool.found).toEqual([
      ["extension/preferred", "#/components/securitySchemes/A/x-avaspec-preferred", false, 'x-avaspec-preferred must be true or false, got "yes"'],
      ["extension/preferred", "#/components/securitySchemes/C/x-avaspec-preferred", false, 'x-avaspec-preferred must be true or false, got "yes"'],
    ]);
    const twice = generate(schemes({ "x-avaspec-preferred": true }));
    expect(twice.found).toEqual([
      ["extension/preferred", "#/components/securitySchemes/B/x-avaspec-preferred", false, 'only one security scheme of a document may be preferred; "A" already is'],
      ["extension/preferred", "#/components/securitySchemes/C/x-avaspec-preferred", false, expect.stringMatching(/this scheme is not one/)],
    ]);
  });
});
