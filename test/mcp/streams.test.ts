/**
 * A streamed operation through the generated MCP server (the streams-31
 * fixture's package), over Streamable HTTP, against a node:http server on
 * 127.0.0.1: a call answers with the items that arrived, at most the server's
 * `stream.maxItems` within `stream.maxMs`, and closes the stream, so no
 * connection outlives the call; a stream that ends by itself is `complete`;
 * the package's `mcp` command sets the limits by its flags.
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createMcpServer } from "../fixtures/streams-31/golden/src/mcp/index.js";
import { McpUsageError, mcpUsage, parseMcpCommand } from "../fixtures/streams-31/golden/src/runtime/mcp/command.js";
import { call, connectHttp, type Connected } from "./helpers.js";

const tick = (seq: number) => `id: ${seq}\ndata: {"seq":${seq},"symbol":"AVAX","price":12.5}\n\n`;
let http: HttpServer;
let base: string;
let open = 0;
let closed = 0;
/** /ticks never ends (a tick every 5 ms); /rows sends three lines and ends. */
function answer(req: IncomingMessage, res: import("node:http").ServerResponse): void {
  if (req.url?.startsWith("/rows")) {
    res.writeHead(200, { "content-type": "application/jsonl" });
    return void res.end([1, 2, 3].map((n) => `{"seq":${n},"symbol":"AVAX","price":1}\n`).join(""));
  }
  open++;
  res.writeHead(200, { "content-type": "text/event-stream" });
  let seq = 0;
  const timer = setInterval(() => res.write(tick(++seq)), 5);
  res.on("close", () => {
    clearInterval(timer);
    closed++;
  });
}

let tools: Connected;
let code: Connected;
beforeAll(async () => {
  http = createServer(answer);
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  tools = await connectHttp(() => createMcpServer({ mode: "tools", clients: { baseUrl: base }, stream: { maxItems: 4, maxMs: 60_000 } }));
  code = await connectHttp(() => createMcpServer({ clients: { baseUrl: base }, stream: { maxItems: 1_000, maxMs: 200 } }));
});
afterAll(async () => {
  await tools?.close();
  await code?.close();
  http?.closeAllConnections();
  await new Promise((r) => http?.close(r));
});

const until = async (done: () => boolean) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
};

it("tools mode: an endless stream answers with its first maxItems items and is closed", async () => {
  const { tools: listed } = await tools.client.listTools();
  const tool = listed.find((t) => t.name === "api_streamTicks")!;
  expect(tool.description).toMatch(/A stream: returns the items that arrive/);
  const before = closed;
  const { text, isError } = await call(tools.client, "api_streamTicks", { symbol: "AVAX" });
  expect(isError).toBe(false);
  const result = JSON.parse(text) as { items: { seq: number }[]; complete: boolean };
  expect(result.items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
  expect(result.complete).toBe(false);
  await until(() => closed > before);
  expect(closed).toBe(open);
});

it("a stream that ends by itself is complete", async () => {
  const { text } = await call(tools.client, "api_streamRows");
  expect(JSON.parse(text)).toEqual({ items: [1, 2, 3].map((seq) => ({ seq, symbol: "AVAX", price: 1 })), complete: true });
});

it("code mode: the time limit ends the call with what arrived, and search shows the result's shape", async () => {
  const { text: found } = await call(code.client, "search", { query: "ticks" });
  expect(found).toContain("api.streamTicks(params: { symbol: string }): Promise<{ items: Array<Tick");
  const before = closed;
  const { text, isError } = await call(code.client, "execute", { code: `const r = await api.streamTicks({ symbol: "AVAX" }); return { n: r.items.length, complete: r.complete, first: r.items[0].seq };` });
  expect(isError).toBe(false);
  const result = JSON.parse(text) as { n: number; complete: boolean; first: number };
  expect(result.first).toBe(1);
  expect(result.n).toBeGreaterThan(0);
  expect(result.n).toBeLessThan(1_000);
  expect(result.complete).toBe(false);
  await until(() => closed > before);
  expect(closed).toBe(open);
});

it("the command's --stream-items and --stream-ms set the limits; a bad value is a usage error naming the flag", async () => {
  const parsed = parseMcpCommand(["--mode", "tools", "--stream-items", "3", "--stream-ms", "60000", "--base-url", base], {}, ["api"]);
  expect(parsed.options.stream).toEqual({ maxItems: 3, maxMs: 60_000 });
  expect(parseMcpCommand([], {}, ["api"]).options.stream).toBeUndefined();
  expect(() => parseMcpCommand(["--stream-items", "0"], {}, ["api"])).toThrow(new McpUsageError('--stream-items must be a whole number of at least 1, got "0"'));
  expect(() => parseMcpCommand(["--stream-ms", "soon"], {}, ["api"])).toThrow(McpUsageError);
  expect(mcpUsage("client", ["api"])).toContain("--stream-items <n>, --stream-ms <n>");
  const served = await connectHttp(() => createMcpServer(parsed.options));
  try {
    const { text } = await call(served.client, "api_streamTicks", { symbol: "AVAX" });
    expect((JSON.parse(text) as { items: { seq: number }[] }).items.map((i) => i.seq)).toEqual([1, 2, 3]);
  } finally {
    await served.close();
  }
});
