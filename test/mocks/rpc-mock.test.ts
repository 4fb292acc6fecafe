/**
 * JSON-RPC mocks as a JSON-RPC server behaves: a call the mock cannot answer
 * is a -32603 error for that call alone (its batch keeps the other replies),
 * and a call whose params equal one of the method's examples gets that
 * example's result, while any other call gets a result synthesized from the
 * schema, seeded by its params (issue 26 (16): it got the first example's,
 * so `calc.add(1, 2)` answered the 3.8 of `calc.add(1.25, 2.5, 1)`), as
 * @open-rpc/mock-server does. Through the generated rpc-by-position and
 * rpc-by-name packages' real mock servers, and the service on hand-made
 * tables.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient } from "../fixtures/rpc-by-position/golden/src/api/index.js";
import { startMockServer } from "../fixtures/rpc-by-position/golden/src/mock-server/index.js";
import type { RunningMockServer } from "../fixtures/rpc-by-position/golden/src/runtime/mock/server.js";
import { startMockServer as startByName } from "../fixtures/rpc-by-name/golden/src/mock-server/index.js";
import { createApiClient as createByName } from "../fixtures/rpc-by-name/golden/src/api/index.js";
import { createMockService, type MockTable } from "../../runtime/mock/mock.js";
import { jsonRpcMocks } from "../../runtime/mock/rpc.js";

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 1, log: null });
});
afterAll(() => server.close());

it("answers each example's params with that example's result, and other params with a valid synthesized one", async () => {
  const client = createApiClient({ baseUrl: server.url, validateResponse: "strict", retry: false });
  const address = "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc";
  expect(await client.demo.getBalance({ address })).toBe("0x1bc16d674ec80000");
  expect(await client.demo.getBalance({ address, block: "0x10d4f" })).toBe("0xde0b6b3a7640000");
  // no example has these params: neither example's result, but a Quantity (strict validation passed), the same each time
  const other = await client.demo.getBalance({ address, block: "0x1" });
  expect(other).toMatch(/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/);
  expect(["0x1bc16d674ec80000", "0xde0b6b3a7640000"]).not.toContain(other);
  expect(await client.demo.getBalance({ address, block: "0x1" })).toBe(other);
});

it("a method with one example answers it only for that example's params (rpc-by-name calc.add, as curl sends it)", async () => {
  const rpc = await startByName({ port: 0, seed: 1, log: null });
  const add = async (params: Record<string, number>) => {
    const res = await fetch(`${rpc.url}/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "calc.add", params }) });
    return ((await res.json()) as { result: unknown }).result;
  };
  try {
    expect(await add({ a: 1.25, b: 2.5, precision: 1 })).toBe(3.8);
    const sum = await add({ a: 1, b: 2 });
    expect(typeof sum).toBe("number");
    expect(sum).not.toBe(3.8);
    expect(await add({ a: 1, b: 2 })).toBe(sum);
    // another seed synthesizes another result; the example stays the example
    const reseeded = await startByName({ port: 0, seed: 2, log: null });
    try {
      const other = await createByName({ baseUrl: reseeded.url, validateResponse: "strict", retry: false }).calc.add({ a: 1, b: 2 });
      expect(other).not.toBe(sum);
      expect(await createByName({ baseUrl: reseeded.url, retry: false }).calc.add({ a: 1.25, b: 2.5, precision: 1 })).toBe(3.8);
    } finally {
      await reseeded.close();
    }
  } finally {
    await rpc.close();
  }
});

it("--synthesize (examples: false) sets the examples aside for matching params too", async () => {
  const rpc = await startByName({ port: 0, seed: 1, examples: false, log: null });
  try {
    expect(await createByName({ baseUrl: rpc.url, validateResponse: "strict", retry: false }).calc.add({ a: 1.25, b: 2.5, precision: 1 })).not.toBe(3.8);
  } finally {
    await rpc.close();
  }
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
  rpc: jsonRpcMocks,
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

it("a table with JSON-RPC methods that hands over no JSON-RPC side is refused, naming what to give it", () => {
  const { rpc: _, ...bare } = table;
  expect(() => createMockService([bare])).toThrow(/a table has JSON-RPC methods \(x_node, …\) but no `rpc` to answer them: give it `rpc: jsonRpcMocks`/);
});
