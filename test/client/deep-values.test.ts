/**
 * Issue 26 (14): values nested deeper than the stack. The generated
 * validators and integer walkers recurse once per level, as do
 * JSON.stringify and structuredClone; a 20,000-deep recursive body made
 * each of them throw a raw RangeError. Every runtime entry point now reports
 * it as an AvaspecError (a ValidationError with an issue of keyword "depth"
 * saying the value nests too deep, or holds itself), or answers the mock's
 * 400 / -32602:
 * responses under validateResponse "strict" and their integers read as
 * bigints (real loopback servers), params before sending, the exported
 * validateX / isX / Standard Schema validators, and the mocks' request
 * checks and overrides (the real mock server). Fixture: recursive-31, a
 * recursive Category (HTTP) and Node (JSON-RPC) with int64 strings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AvaspecError, RpcProtocolError, ValidationError } from "../fixtures/recursive-31/golden/src/index.js";
import { CategorySchema, createApiClient, isCategory, validateCategory, validateGetCategoryResponse } from "../fixtures/recursive-31/golden/src/api/index.js";
import { createTreeClient, isNode, validateNode } from "../fixtures/recursive-31/golden/src/rpc/index.js";
import { startMockServer, type MockServer } from "../fixtures/recursive-31/golden/src/mock-server/index.js";
import { startRpcServer, type RpcTestServer } from "../helpers/rpc-server.js";
import { startServer, type TestServer } from "../helpers/server.js";

const DEPTH = 20_000;

/** A category (or node) tree DEPTH levels deep, as JSON text: 2 × DEPTH + 1 levels of objects and arrays. */
const deepCategoryText = (depth = DEPTH) => '{"name":"n","items":"1","children":['.repeat(depth) + '{"name":"n","items":"1","children":[]}' + "]}".repeat(depth);
const deepNodeText = (depth = DEPTH) => '{"label":"n","weight":"1","children":['.repeat(depth) + '{"label":"n","weight":"1","children":[]}' + "]}".repeat(depth);
const deepCategory = () => JSON.parse(deepCategoryText()) as { name: string; items: string; children: unknown[] };
const deepNode = () => JSON.parse(deepNodeText()) as { label: string; weight: string; children: unknown[] };

/** The rejection of `p`, which must be an AvaspecError: a RangeError fails the test with its own name. */
async function rejection(p: Promise<unknown>): Promise<AvaspecError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call must fail").toBeDefined();
  expect((error as Error).name).not.toBe("RangeError");
  expect(error).toBeInstanceOf(AvaspecError);
  return error as AvaspecError;
}

const DEPTH_MESSAGE = /^nests deeper than can be \w+ here, or holds itself$/;
const depthIssue = (path = "") => expect.objectContaining({ path, keyword: "depth", message: expect.stringMatching(DEPTH_MESSAGE) });
const OVERFLOW = /^\w+: a value nests deeper than can be checked, read or written, or holds itself$/;

let http: TestServer;
let rpc: RpcTestServer;
beforeAll(async () => {
  http = await startServer();
  rpc = await startRpcServer();
});
afterAll(async () => {
  await http.close();
  await rpc.close();
});
beforeEach(() => {
  http.requests.length = 0;
  rpc.requests.length = 0;
});

describe("a 20,000-deep response from a real server", () => {
  it("HTTP, validateResponse strict: a ValidationError saying the body nests too deep", async () => {
    http.reply(() => ({ status: 200, headers: { "content-type": "application/json" }, body: Buffer.from(deepCategoryText()) }));
    const client = createApiClient({ baseUrl: http.url, validateResponse: "strict", retry: false });
    const error = await rejection(client.getCategory({ id: "root" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([depthIssue()]);
    expect(error.message).toMatch(/^getCategory: the 200 response does not match the spec: \/ nests deeper than can be checked here/);
    expect((error as ValidationError).statusCode).toBe(200);
  });

  it("HTTP, integers read as bigints: the walker's overflow is a ValidationError too", async () => {
    http.reply(() => ({ status: 200, headers: { "content-type": "application/json" }, body: Buffer.from(deepCategoryText()) }));
    const client = createApiClient({ baseUrl: http.url, numbers: "bigint", retry: false });
    const error = await rejection(client.getCategory({ id: "root" }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(OVERFLOW);
    expect((error as ValidationError).issues).toEqual([depthIssue()]);
    expect(error.operationId).toBe("getCategory");
  });

  it("JSON-RPC, validateResponse strict and the default bigints: ValidationErrors of the call", async () => {
    rpc.raw(() => ({ status: 200, body: `{"jsonrpc":"2.0","id":1,"result":${deepNodeText()}}` }));
    const strict = await rejection(createTreeClient({ baseUrl: rpc.url, validateResponse: "strict", retry: false }).tree.get({ id: "root" }));
    expect(strict).toBeInstanceOf(ValidationError);
    expect((strict as ValidationError).issues).toEqual([depthIssue()]);
    // the reply's raw body is written out only for the error, and too deep to write it says so
    expect((strict as ValidationError).rawBody).toBe("(a JSON value too deep to write out)");
    const decoded = await rejection(createTreeClient({ baseUrl: rpc.url, retry: false }).tree.get({ id: "root" }));
    expect(decoded).toBeInstanceOf(ValidationError);
    expect(decoded.operationId).toBe("tree_get");
    expect(decoded.message).toMatch(OVERFLOW);
  });

  it("JSON-RPC, a deep reply that breaks the protocol: RpcProtocolError, its raw body described", async () => {
    rpc.raw(() => ({ status: 200, body: `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"},"result":${deepNodeText()}}` }));
    const error = await rejection(createTreeClient({ baseUrl: rpc.url, retry: false }).tree.get({ id: "root" }));
    expect(error).toBeInstanceOf(RpcProtocolError);
  });
});

describe("20,000-deep params: refused before anything is sent", () => {
  it("HTTP body: a ValidationError naming the parameter", async () => {
    const client = createApiClient({ baseUrl: http.url, retry: false });
    const error = await rejection(client.putCategory({ id: "root", body: deepCategory() as never }));
    expect(error).toBeInstanceOf(ValidationError);
    // the integer encoder meets it first (the body holds int64 strings), then the check would, then JSON.stringify
    expect(error.message).toMatch(/^putCategory: (params nests deeper than can be sent here, or holds itself|a value nests deeper than can be checked, read or written, or holds itself)$/);
    expect((error as ValidationError).issues).toEqual([depthIssue()]);
    expect(http.requests).toHaveLength(0);
  });

  it("JSON-RPC param, alone and in a batch whose other call still goes", async () => {
    rpc.raw(undefined);
    rpc.answer(() => ({ result: { label: "r", weight: "1", children: [] } }));
    const client = createTreeClient({ baseUrl: rpc.url, retry: false });
    // tree_put takes one object, the tree itself
    const error = await rejection(client.tree.put(deepNode() as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/^tree_put: (params nests deeper than can be sent here, or holds itself|a value nests deeper than can be checked, read or written, or holds itself)$/);
    expect(rpc.requests).toHaveLength(0);
    const [bad, good] = await client.batch((c) => [c.tree.put(deepNode() as never), c.tree.get({ id: "root" })] as const);
    expect(bad.ok ? undefined : bad.error).toBeInstanceOf(ValidationError);
    expect(good).toEqual({ ok: true, value: { label: "r", weight: 1n, children: [] } });
  });
});

describe("the exported validators", () => {
  it("validateX answers issues, isX false, the Standard Schema issues: no exception", () => {
    const tree = deepCategory();
    expect(validateCategory(tree)).toEqual({ ok: false, issues: [depthIssue()] });
    expect(validateCategory(tree, { numbers: "bigint" })).toEqual({ ok: false, issues: [depthIssue()] });
    expect(validateGetCategoryResponse(tree)).toMatchObject({ ok: false });
    expect(isCategory(tree)).toBe(false);
    expect(CategorySchema["~standard"].validate(tree)).toEqual({ issues: [{ message: expect.stringMatching(DEPTH_MESSAGE), path: [] }] });
    expect(validateNode(deepNode())).toMatchObject({ ok: false, issues: [{ keyword: "depth" }] });
    expect(isNode(deepNode())).toBe(false);
  });

  it("a value that holds itself gets the same issue", () => {
    const loop: { name: string; items: string; children: unknown[] } = { name: "n", items: "1", children: [] };
    loop.children.push(loop);
    expect(validateCategory(loop)).toEqual({ ok: false, issues: [{ path: "", keyword: "depth", message: "nests deeper than can be checked here, or holds itself" }] });
  });

  it("shallow values are judged as before", () => {
    expect(validateCategory({ name: "n", items: "1", children: [{ name: 5, items: "2", children: [] }] })).toMatchObject({ ok: false, issues: [{ path: "/children/0/name", keyword: "type" }] });
    expect(isCategory({ name: "n", items: "1", children: [] })).toBe(true);
  });
});

describe("the mock server, through real requests", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, log: null });
  });
  afterAll(() => server.close());

  it("a 20,000-deep request body answers 400 with the depth issue, not a 500", async () => {
    const res = await fetch(`${server.url}/categories/root`, { method: "PUT", headers: { "content-type": "application/json" }, body: deepCategoryText() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, error: "Bad Request", message: ["params nests deeper than can be checked here, or holds itself"] });
  });

  it("20,000-deep JSON-RPC params answer -32602 with the depth issue", async () => {
    const res = await fetch(`${server.url}/`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"jsonrpc":"2.0","id":7,"method":"tree_put","params":[${deepNodeText()}]}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Invalid params", data: [{ path: "", message: "nests deeper than can be checked here, or holds itself" }] } });
  });

  it("an override body too deep to serve is refused when it is set", () => {
    expect(() => server.override("getCategory", { body: deepCategory() as never })).toThrow(ValidationError);
    expect(() => server.override("getCategory", { body: deepCategory() as never })).toThrow(/^avaspec mock: the override body of getCategory at \/ nests deeper than can be served here, or holds itself$/);
  });
});

it("a JSON-RPC error whose code is a 20,000-deep value: RpcProtocolError, the code described", async () => {
  rpc.raw(() => ({ status: 200, body: `{"jsonrpc":"2.0","id":1,"error":{"code":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)},"message":"x"}}` }));
  const error = await rejection(createTreeClient({ baseUrl: rpc.url, retry: false }).tree.get({ id: "root" }));
  expect(error).toBeInstanceOf(RpcProtocolError);
  expect(error.message).toBe("tree_get: the JSON-RPC error's code (a JSON value too deep to write out) is not an integer. Check the base URL: something other than the API (a proxy, a captive portal) may have answered; rawBody holds what arrived.");
});
