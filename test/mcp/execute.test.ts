/**
 * Issue 29: code mode's `execute` through the MCP server of @avaspec/client
 * (the SDK's `Client` over Streamable HTTP, the package's mock server behind
 * the clients): a snippet's calls go through the same host as tools mode
 * (policy, arguments, typed errors), and the hostile snippets of the issue are
 * refused or contained, each result saying why, the server serving on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "@avaspec/client/mcp";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { call, connectHttp, type Connected } from "./helpers.js";

const KEY = "glacier-test-key-77c0e1";
let mock: MockServer;
let code: Connected;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 1, log: null });
  code = await connectHttp(() => createMcpServer({ clients: { baseUrl: mock.url, apiKey: KEY }, limits: { timeMs: 3000, memoryBytes: 32 * 2 ** 20 } }));
});
afterAll(async () => {
  await code?.close();
  await mock?.close();
});

const execute = (snippet: string) => call(code.client, "execute", { code: snippet });

describe("execute", () => {
  it("is listed beside search, read-only, naming the clients", async () => {
    const { tools } = await code.client.listTools();
    const tool = tools.find((t) => t.name === "execute")!;
    expect(tool.description).toContain("with the clients dataApi, metricsApi, node in scope");
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("runs several calls of several clients in one snippet and returns only the answer", async () => {
    const r = await execute(`
      const [p, c] = await Promise.all([node.platform.getHeight(), node.cChain.eth.blockNumber()]);
      const { chains } = await dataApi.supportedChains({});
      const typed: number = Number(BigInt(c));
      return { p: p.height, c: typed, chains: chains.length };`);
    expect(r.isError, r.text).toBe(false);
    const answer = JSON.parse(r.text);
    expect(Object.keys(answer)).toEqual(["p", "c", "chains"]);
    expect(answer.c).toBeGreaterThan(0);
  });

  it("a write inside a snippet is refused by the same policy, as an error the snippet can catch", async () => {
    const r = await execute(`try { await node.platform.issueTx({ tx: "0x00" }); return "sent"; } catch (e) { return e.message; }`);
    expect(JSON.parse(r.text)).toContain("this MCP server is read-only. Whoever runs the server can allow it: restart it with --allow node.platform.issueTx");
  });

  it("a typed error of a call reaches the snippet as its message; uncaught, the tool error says so", async () => {
    mock.override("platform.getHeight", { rpcError: { code: -32000, message: "node is bootstrapping" } });
    try {
      const r = await execute(`await node.platform.getHeight();`);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^runtime: .*platform\.getHeight failed with JSON-RPC error -32000: node is bootstrapping/);
      expect(r.text).not.toMatch(/\n\s+at /);
    } finally {
      mock.reset();
    }
  });
});

describe("hostile snippets are refused or contained, and the server keeps serving", () => {
  it.each([
    ["process", "return process.env;", /^refused: process is not available in the sandbox: snippets run in QuickJS with no process, modules, file system or network/],
    ["require", `return require("fs").readFileSync("/etc/passwd", "utf8");`, /^refused: require is not available in the sandbox/],
    ["import()", `return await import("node:fs");`, /^refused: import\(\) is not available in the sandbox \(could not load module 'node:fs'\)/],
    ["the Function constructor", `return globalThis.constructor.constructor("return process")();`, /^refused: process is not available in the sandbox/],
    ["fetch to another host", `return await fetch("http://169.254.169.254/latest/meta-data/");`, /^refused: fetch is not available in the sandbox/],
    ["an infinite loop", "while (true) {}", /^timeout: the snippet ran past its time limit of 3000 ms/],
    ["a memory bomb", `const a = []; for (;;) a.push("x".repeat(1 << 20));`, /^memory: the snippet went over its memory limit of 32 MiB/],
    ["a 100 MB result", `return "x".repeat(100 * 1024 * 1024);`, /^(memory|result-size): /],
    ["a result over the sandbox's result limit", `return "x".repeat(300 * 1024);`, /^result-size: /],
  ])("%s", async (_name, snippet, why) => {
    const r = await execute(snippet);
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(why);
    expect(r.text).not.toMatch(/\n\s+at /);
    const ok = await execute("return 1 + 1;");
    expect(ok).toEqual({ isError: false, text: "2" });
  });

  it("the API key is not reachable from a snippet, and is redacted when a server echoes it", async () => {
    const asked = await execute(`return [typeof process, typeof globalThis.process, Object.keys(globalThis).filter((k) => /key|env|secret/i.test(k))];`);
    expect(JSON.parse(asked.text)).toEqual(["undefined", "undefined", []]);
    mock.override("supportedChains", { body: { chains: [], note: `key=${KEY}` } as never });
    try {
      const echoed = await execute(`const r = await dataApi.supportedChains({}); console.log(r.note); return r.note;`);
      expect(echoed.text).toContain("key=[redacted]");
      expect(echoed.text).not.toContain(KEY);
    } finally {
      mock.reset();
    }
  });
});
