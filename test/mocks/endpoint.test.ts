/**
 * A JSON-RPC document whose server URL is the endpoint itself (the usual
 * case outside this repo's node config: the method descriptors' endpoint is
 * "") is served at the mock server's root, through its real HTTP server.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient } from "../fixtures/rpc-by-name/golden/src/api/index.js";
import { startMockServer } from "../fixtures/rpc-by-name/golden/src/mock-server/index.js";
import type { RunningMockServer } from "../fixtures/rpc-by-name/golden/src/runtime/mock/server.js";

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 1, log: null });
});
afterAll(() => server.close());

it.each(["", "/"])("answers calls at the root (base URL %j after the origin)", async (suffix) => {
  const client = createApiClient({ baseUrl: server.url + suffix, validateResponse: "strict", retry: false });
  expect(await client.calc.ping()).toBe("pong");
  expect(typeof (await client.calc.add({ a: 1, b: 2 }))).toBe("number");
});

it("still refuses a path no endpoint serves", async () => {
  const res = await fetch(`${server.url}/elsewhere`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "calc.ping" }) });
  expect(res.status).toBe(404);
});
