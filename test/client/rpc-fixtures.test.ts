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
    ["getBalance", { address: "0xabc", block: "latest" }, ["0xabc", "latest"]],
    ["getBalance", { address: "0xabc" }, ["0xabc"]],
    ["blockNumber", undefined, []],
    ["sendTx", { from: "0x1", to: "0x2", value: "0x3" }, [{ from: "0x1", to: "0x2", value: "0x3" }]],
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

describe("by-name fixture", () => {
  it("sends named params, leaving out absent optional ones", async () => {
    const api = (await load("rpc-by-name")).createApiClient({ baseUrl: server.url });
    await api.calc.add({ a: 1, b: 2 });
    await api.calc.ping();
    expect(server.requests.map((r) => [(r.body as Envelope).method, (r.body as Envelope).params])).toEqual([
      ["calc.add", { a: 1, b: 2 }],
      ["calc.ping", {}],
    ]);
  });
});
