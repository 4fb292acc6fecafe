/** The small OpenRPC fixtures' golden clients, called against the JSON-RPC loopback server. */
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";

let server: RpcTestServer;
beforeAll(async () => {
  server = await startRpcServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.answer(() => ({ result: "0x1" }));
});

const load = async (fixture: string) => (await import(join(ROOT, `test/fixtures/${fixture}/golden/src/api/client.ts`))) as Record<string, any>;

describe("by-position fixture", () => {
  it.each([
    ["getBalance", { address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latest" }, ["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", "latest"]],
    ["getBalance", { address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC" }, ["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"]],
    ["blockNumber", undefined, []],
    ["sendTx", { from: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", to: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", value: "0x3" }, [{ from: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", to: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", value: "0x3" }]],
    ["getLogs", {}, [{}]],
  ])("demo.%s(%j) sends params %j", async (method, args, params) => {
    const api = (await load("rpc-by-position")).createApiClient({ baseUrl: server.url });
    await api.demo[method](args);
    const env = server.requests[0]!.body as Envelope;
    expect(env.method).toBe(`demo_${method}`);
    expect(env.params).toEqual(params);
    expect(server.requests[0]!.path).toBe("/");
  });
});

describe("params are validated before sending", () => {
  it("a value that breaks the schema is a ValidationError naming the param, and nothing is sent", async () => {
    const { ValidationError } = await import(join(ROOT, "test/fixtures/rpc-by-position/golden/src/runtime/errors/errors.ts"));
    const api = (await load("rpc-by-position")).createApiClient({ baseUrl: server.url });
    const err = await api.demo.getBalance({ address: "0xabc" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('demo_getBalance: parameter "address" must match pattern ^0x[0-9a-fA-F]{40}$');
    expect(err.issues[0]).toMatchObject({ path: "/address", keyword: "pattern" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("by-name fixture", () => {
  it("sends named params, leaving out absent optional ones, and no params member for a method without params", async () => {
    const api = (await load("rpc-by-name")).createApiClient({ baseUrl: server.url });
    await api.calc.add({ a: 1, b: 2 });
    await api.calc.ping();
    expect(server.requests.map((r) => [(r.body as Envelope).method, (r.body as Envelope).params])).toEqual([
      ["calc.add", { a: 1, b: 2 }],
      ["calc.ping", undefined],
    ]);
    expect(Object.keys(server.requests[1]!.body as object)).not.toContain("params");
  });
});
