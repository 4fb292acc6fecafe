/**
 * JSON-RPC mocks as a JSON-RPC server behaves: a call the mock cannot answer
 * is a -32603 error for that call alone (its batch keeps the other replies),
 * and a call whose params equal one of the method's examples gets that
 * example's result (as @open-rpc/mock-server does). Through the generated
 * rpc-by-position package's real mock server, and the service on hand-made
 * tables.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient } from "../fixtures/rpc-by-position/golden/src/api/index.js";
import { startMockServer } from "../fixtures/rpc-by-position/golden/src/mock-server/index.js";
import type { RunningMockServer } from "../fixtures/rpc-by-position/golden/src/runtime/mock-server.js";
import { createMockService, type MockTable } from "../../runtime/mock.js";

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 1, log: null });
});
afterAll(() => server.close());

it("answers each example's params with that example's result, and other params with the first example", async () => {
  const client = createApiClient({ baseUrl: server.url, validateResponse: "strict", retry: false });
  const address = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc";
  expect(await client.demo.getBalance({ address })).toBe("0x1bc16d674ec80000");
  expect(await client.demo.getBalance({ address, block: "0x10d4f" })).toBe("0xde0b6b3a7640000");
  expect(await client.demo.getBalance({ address, block: "0x1" })).toBe("0x1bc16d674ec80000");
});

// a method whose result schema has no finite value and no example
const method = { method: "x_node", endpoint: "", form: "by-name" as const, params: [] };
const ok = { method: "x_ok", endpoint: "", form: "by-name" as const, params: [] };
const table: MockTable = {
  defs: { Node: { type: ["object"], required: ["child"], properties: { child: { $ref: "Node" } } } },
  entries: [
    { kind: "rpc", method, schema: { $ref: "Node" } },
    { kind: "rpc", method: ok, schema: { type: ["string"], enum: ["fine"] } },
  ],
};
const post = (body: unknown) => ({ method: "POST", url: "http://mock/", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

it("a call the mock cannot answer is a -32603 JSON-RPC error, alone and in a batch that keeps the other replies", async () => {
  const service = createMockService([table], { examples: false });
  const single = await service.handle(post({ jsonrpc: "2.0", id: 1, method: "x_node" }));
  expect(single!.status).toBe(200);
  expect(JSON.parse(single!.body)).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error", data: { reason: expect.stringContaining("no finite value") } } });
  const batch = await service.handle(post([{ jsonrpc: "2.0", id: 1, method: "x_ok" }, { jsonrpc: "2.0", id: 2, method: "x_node" }, { jsonrpc: "2.0", id: 3, method: "x_ok" }]));
  expect(batch!.status).toBe(200);
  expect(JSON.parse(batch!.body)).toEqual([
    { jsonrpc: "2.0", id: 1, result: "fine" },
    { jsonrpc: "2.0", id: 2, error: expect.objectContaining({ code: -32603 }) },
    { jsonrpc: "2.0", id: 3, result: "fine" },
  ]);
});
