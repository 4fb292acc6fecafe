/**
 * Issue 29: the MCP server of a package generated from a one-off OpenRPC
 * document (the rpc-by-name fixture, which nothing here was written for),
 * over Streamable HTTP, against that package's mock server: code mode's
 * search and tools mode's tools, classified by method name.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMcpServer } from "../fixtures/rpc-by-name/golden/src/mcp/index.js";
import { startMockServer } from "../fixtures/rpc-by-name/golden/src/mock-server/index.js";
import type { RunningMockServer } from "../fixtures/rpc-by-name/golden/src/runtime/mock/server.js";
import { call, connectHttp, type Connected } from "./helpers.js";

let mock: RunningMockServer;
let code: Connected;
let tools: Connected;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 1, log: null });
  code = await connectHttp(() => createMcpServer({ clients: { baseUrl: mock.url } }));
  tools = await connectHttp(() => createMcpServer({ mode: "tools", clients: { baseUrl: mock.url } }));
});
afterAll(async () => {
  await code?.close();
  await tools?.close();
  await mock?.close();
});

it("code mode: search shows a JSON-RPC method's signature and example", async () => {
  expect(code.client.getServerVersion()).toMatchObject({ name: "@fixtures/rpc-by-name" });
  const { text } = await call(code.client, "search", { query: "subtract" });
  expect(text.split("\n")[0]).toBe("## api.calc.subtract — calc.subtract (JSON-RPC at /); read-only; deprecated");
  expect(text).toMatch(/api\.calc\.subtract\(params: \{ a: number; b: number \}\): Promise<number>/);
});

it("tools mode: one tool per method; reads answer, names that write are refused", async () => {
  const { tools: listed } = await tools.client.listTools();
  expect(listed.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
    ["api_calc_ping", true],
    ["api_calc_add", false],
    ["api_kv_put", false],
    ["api_calc_subtract", true],
  ]);
  expect(await call(tools.client, "api_calc_ping")).toEqual({ isError: false, text: '"pong"' });
  const difference = await call(tools.client, "api_calc_subtract", { a: 5, b: 2 });
  expect(difference.isError, difference.text).toBe(false);
  const put = await call(tools.client, "api_kv_put", { key: "a", value: "b" });
  expect(put.isError).toBe(true);
  expect(put.text).toContain("--allow api.kv.put");
});
