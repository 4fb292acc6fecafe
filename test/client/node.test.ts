import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, ResponseParseError, RpcError, ValidationError } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { clientMethod, methodCases, nodeSpecs } from "../helpers/node-specs.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";

let server: RpcTestServer;
let node: NodeClient;
const cases = methodCases();
const resultFor = new Map(cases.map((c) => [`${c.spec.endpoint} ${c.wire}`, c.result]));

beforeAll(async () => {
  server = await startRpcServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.raw(undefined);
  server.order(undefined);
  server.answer((env, path) => ({ result: resultFor.get(`${path} ${env.method}`) ?? null }));
  // one response per call here: retries have their own suite (reliability.test.ts); the warnings of deprecated methods
  // are captured (deprecations have their own checks in fidelity-helicon.test.ts), so stderr stays clean
  node = createNodeClient({ baseUrl: server.url, retry: false, deprecationWarnings: (m) => deprecationWarnings.push(m) });
});

const deprecationWarnings: string[] = [];

const single = (i = -1) => server.requests.at(i)!.body as Envelope;

describe("every node method through the generated client", () => {
  it("has cases for every method of every OpenRPC document", () => {
    const total = nodeSpecs().reduce((n, s) => n + (s.doc.methods?.length ?? 0), 0);
    expect(cases).toHaveLength(total);
    expect(total).toBeGreaterThan(100);
  });

  afterAll(() => {
    // every deprecated or removed method warned (once: each test has its own client)
    const deprecated = cases.filter((c) => c.method.deprecated === true || c.method["x-avaspec-removed-in"] !== undefined || c.method["x-avaspec-deprecated-in"] !== undefined);
    expect(deprecated.length).toBeGreaterThan(20);
    for (const c of deprecated) expect(deprecationWarnings.some((w) => w.startsWith(`${c.wire} `)), c.wire).toBe(true);
  });

  describe.each(cases.map((c) => [`node.${c.path.join(".")} (${c.wire} @ ${c.spec.endpoint})`, c] as const))("%s", (_name, c) => {
    it("sends the exact envelope and returns the typed result", async () => {
      const result = await clientMethod(node, c)(c.args);
      expect(server.requests).toHaveLength(1);
      const req = server.requests[0]!;
      expect(req.path).toBe(c.spec.endpoint);
      expect(req.headers["content-type"]).toBe("application/json");
      const env = req.body as Envelope;
      expect(env.jsonrpc).toBe("2.0");
      expect(Number.isInteger(env.id)).toBe(true);
      expect(env.method).toBe(c.wire);
      expect(env.params).toEqual(c.wireParams);
      expectDecoded(result, c.result ?? null);
    });
  });

  it("the default client (numbers: bigint) turned some of the cases' results into bigints", () => {
    expect(decodedSeen).toBeGreaterThan(20);
  });
});

let decodedSeen = 0;

/**
 * The default client's result against the wire's: equal, except that each
 * bigint stands where the wire has the same integer as a decimal or 0x-hex
 * string (the number policy, issue 17).
 */
function expectDecoded(actual: unknown, wire: unknown, path = ""): void {
  if (typeof actual === "bigint") {
    decodedSeen++;
    expect(typeof wire, `${path}: a bigint where the wire has ${JSON.stringify(wire)}`).toBe("string");
    expect(BigInt(wire as string), path).toBe(actual);
  } else if (Array.isArray(actual) && Array.isArray(wire)) {
    expect(actual.length, path).toBe(wire.length);
    actual.forEach((v, i) => expectDecoded(v, wire[i], `${path}/${i}`));
  } else if (actual !== null && wire !== null && typeof actual === "object" && typeof wire === "object") {
    expect(Object.keys(actual).sort(), path).toEqual(Object.keys(wire).sort());
    for (const k of Object.keys(actual)) expectDecoded((actual as Record<string, unknown>)[k], (wire as Record<string, unknown>)[k], `${path}/${k}`);
  } else expect(actual, path).toEqual(wire);
}

describe("param structures, by hand", () => {
  it("node-level APIs send a named object", async () => {
    await node.platform.getCurrentValidators({ subnetID: "11111111111111111111111111111111LpoYY", nodeIDs: ["NodeID-A"] });
    expect(single()).toMatchObject({ method: "platform.getCurrentValidators", params: { subnetID: "11111111111111111111111111111111LpoYY", nodeIDs: ["NodeID-A"] } });
    expect(server.requests[0]!.path).toBe("/ext/bc/P");
  });

  it("a method without params leaves the params member out (go-ethereum refuses `{}`) and takes no argument", async () => {
    await node.info.getNodeVersion();
    expect(single()).toMatchObject({ method: "info.getNodeVersion" });
    expect(Object.keys(single())).not.toContain("params");
  });

  it("C-Chain Ethereum methods send positional arrays, omitting trailing optionals only", async () => {
    await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latest" });
    expect(single()).toMatchObject({ method: "eth_getBalance", params: ["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", "latest"] });
    await node.cChain.eth.baseFee();
    expect(single()).toMatchObject({ method: "eth_baseFee", params: [] });
    expect(server.requests.at(-1)!.path).toBe("/ext/bc/C/rpc");
  });

  it("C-Chain admin and native methods send an array holding one object", async () => {
    await node.cChain.admin.setLogLevel({ level: "debug" });
    expect(single()).toMatchObject({ method: "admin_setLogLevel", params: [{ level: "debug" }] });
    expect(server.requests.at(-1)!.path).toBe("/ext/bc/C/admin");
    await node.cChain.native.getAtomicTxStatus({ txID: "2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD" });
    expect(single()).toMatchObject({ method: "native.getAtomicTxStatus", params: [{ txID: "2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD" }] });
    expect(server.requests.at(-1)!.path).toBe("/ext/bc/C/native");
  });

  it("each indexer endpoint has its own group and path", async () => {
    const paths: string[] = [];
    for (const [group, path] of [["cBlock", "/ext/index/C/block"], ["pBlock", "/ext/index/P/block"], ["xTx", "/ext/index/X/tx"], ["xBlock", "/ext/index/X/block"], ["xVtx", "/ext/index/X/vtx"]] as const) {
      await node.index[group].getLastAccepted({ encoding: "hex" });
      paths.push(server.requests.at(-1)!.path);
      expect(path).toBe(server.requests.at(-1)!.path);
    }
    expect(new Set(paths).size).toBe(5);
    expect(single()).toMatchObject({ method: "index.getLastAccepted", params: { encoding: "hex" } });
  });

  it("a missing required param is a ValidationError naming it, and nothing is sent", async () => {
    // @ts-expect-error: chain is required
    const err = await node.info.isBootstrapped({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]!.path).toBe("/chain");
    expect(server.requests).toHaveLength(0);
  });

  it("__proto__ in params is a key like any other: refused as an unknown param, nothing polluted, nothing sent", async () => {
    const err = (await node.cChain.admin.setLogLevel(JSON.parse('{"level":"info","__proto__":{"polluted":true}}')).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toMatchObject({ path: "/__proto__", keyword: "additionalProperties" });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  it("a param of the wrong type is refused before sending, naming it", async () => {
    // @ts-expect-error: height is an integer or a decimal string
    const err = (await node.platform.getBlockByHeight({ height: true }).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toMatch(/^platform\.getBlockByHeight: parameter "height" /);
    expect(server.requests).toHaveLength(0);
  });
});

describe("JSON-RPC errors", () => {
  it.each([
    [-32601, "the method does not exist/is not available", undefined],
    [-32602, "invalid params", undefined],
    [-32000, "couldn't get validator set", { reason: "not bootstrapped", height: 12 }],
  ])("error %i becomes an RpcError with code, message, data and method", async (code, message, data) => {
    server.answer(() => ({ error: { code, message, ...(data ? { data } : {}) } }));
    const err = (await node.info.getNetworkName().catch((e: unknown) => e)) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect([err.code, err.data, err.method]).toEqual([code, data, "info.getNetworkName"]);
    expect(err.message).toContain(message);
  });

  it("malformed JSON is a ResponseParseError carrying the body", async () => {
    server.raw(() => ({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":' }));
    const err = (await node.info.getNetworkName().catch((e: unknown) => e)) as ResponseParseError;
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err.rawBody).toBe('{"jsonrpc":"2.0","id":1,"result":');
  });

  it("an empty body is a ResponseParseError", async () => {
    server.raw(() => ({ status: 200, body: "" }));
    await expect(node.info.getNetworkName()).rejects.toBeInstanceOf(ResponseParseError);
  });

  it("an HTTP 500 without a JSON-RPC body is an ApiError with status and body", async () => {
    server.raw(() => ({ status: 500, body: "internal error" }));
    const err = (await node.info.getNetworkName().catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.statusCode, err.rawBody]).toEqual([500, "internal error"]);
  });

  it("a reply for another id is an error for the call", async () => {
    server.raw((req) => ({ status: 200, body: JSON.stringify({ jsonrpc: "2.0", id: (req.body as Envelope).id as number + 1000, result: "x" }) }));
    await expect(node.info.getNetworkName()).rejects.toBeInstanceOf(ResponseParseError);
  });
});

describe("batching", () => {
  it("95 calls go out as 3 HTTP requests of at most 40, results in call order", async () => {
    server.answer((env) => ({ result: { networkName: `n${env.id}` } }));
    const results = await node.batch((n) => Array.from({ length: 95 }, () => n.info.getNetworkName()));
    expect(server.requests.map((r) => (r.body as Envelope[]).length)).toEqual([40, 40, 15]);
    const ids = server.requests.flatMap((r) => (r.body as Envelope[]).map((e) => e.id));
    expect(results.map((r) => (r.ok ? r.value.networkName : "x"))).toEqual(ids.map((id) => `n${id}`));
  });

  it("the chunk size is configurable", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, batch: { maxSize: 10 } });
    await client.batch((n) => Array.from({ length: 25 }, () => n.info.getNodeID()));
    expect(server.requests.map((r) => (r.body as Envelope[]).length)).toEqual([10, 10, 5]);
  });

  it("matches replies by id when they arrive in reverse order", async () => {
    server.order((replies) => [...replies].reverse());
    server.answer((env) => (env.method === "info.getNetworkID" ? { result: { networkID: "1" } } : { result: { networkName: "mainnet" } }));
    const [a, b, c] = await node.batch((n) => [n.info.getNetworkID(), n.info.getNetworkName(), n.info.getNetworkID()] as const);
    expect([a, b, c]).toEqual([
      { ok: true, value: { networkID: 1n } },
      { ok: true, value: { networkName: "mainnet" } },
      { ok: true, value: { networkID: 1n } },
    ]);
  });

  it("one failing item does not fail the others", async () => {
    server.answer((env) => (env.method === "info.getNodeIP" ? { error: { code: -32000, message: "node-specific" } } : { result: { networkName: "fuji" } }));
    const [ok1, bad, ok2] = await node.batch((n) => [n.info.getNetworkName(), n.info.getNodeIP(), n.info.getNetworkName()] as const);
    expect(ok1).toEqual({ ok: true, value: { networkName: "fuji" } });
    expect(ok2).toEqual({ ok: true, value: { networkName: "fuji" } });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error instanceof RpcError && bad.error.code).toBe(-32000);
  });

  it("a reply with an unknown id is ignored and the unanswered call fails alone", async () => {
    server.order((replies) => [...replies.slice(1), { jsonrpc: "2.0", id: 999999, result: "stray" }]);
    server.answer(() => ({ result: { networkName: "fuji" } }));
    const [first, second] = await node.batch((n) => [n.info.getNetworkName(), n.info.getNetworkName()] as const);
    expect(first.ok).toBe(false);
    expect(!first.ok && first.error).toBeInstanceOf(ResponseParseError);
    expect(second).toEqual({ ok: true, value: { networkName: "fuji" } });
  });

  it("an HTTP 500 on the batch fails every call in it with ApiError", async () => {
    server.raw(() => ({ status: 500, body: "upstream exploded" }));
    const results = await node.batch((n) => [n.info.getNetworkName(), n.info.getNodeVersion()]);
    expect(results.every((r) => !r.ok && r.error instanceof ApiError && r.error.statusCode === 500)).toBe(true);
  });

  it("a batch spanning endpoints sends one request per endpoint", async () => {
    await node.batch((n) => [n.info.getNetworkName(), n.platform.getBlockchainStatus({ blockchainID: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" }), n.info.getNodeVersion()]);
    expect(server.requests.map((r) => [r.path, (r.body as Envelope[]).length]).sort()).toEqual([["/ext/bc/P", 1], ["/ext/info", 2]]);
  });

  it("automatic batching collects the calls of one tick into one request", async () => {
    const client = createNodeClient({ baseUrl: server.url, batch: { auto: true } });
    server.answer((env) => ({ result: { networkName: String(env.id) } }));
    const results = await Promise.all([client.info.getNetworkName(), client.info.getNetworkName(), client.info.getNetworkName()]);
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as Envelope[]).map((e) => String(e.id))).toEqual(results.map((r) => r.networkName));
  });

  it("automatic batching sends a lone call as a plain envelope", async () => {
    const client = createNodeClient({ baseUrl: server.url, batch: { auto: true } });
    await client.info.getNetworkName();
    expect(Array.isArray(server.requests[0]!.body)).toBe(false);
  });

  it("a whole-request error (id null) fails every call with that RpcError", async () => {
    server.raw(() => ({ status: 200, body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "too many requests in batch" } }) }));
    const results = await node.batch((n) => [n.info.getNetworkName(), n.info.getNetworkID()]);
    expect(results.map((r) => !r.ok && r.error instanceof RpcError && r.error.code)).toEqual([-32600, -32600]);
  });
});
