/**
 * npm run bench:mcp — what the MCP server of @avaspec/client costs an agent.
 *
 * 1. Context: the `tools/list` answer of each server, as an MCP client
 *    receives it (the SDK's `Client` over Streamable HTTP on 127.0.0.1, or
 *    stdio for chainkit), in bytes of JSON and in tokens (gpt-tokenizer's
 *    default encoding, o200k_base, GPT-4o's). Code mode (target ≤ 2,000
 *    tokens for the whole Avalanche API), tools mode (every operation), and
 *    chainkit's MCP server (`@avalanche-sdk/chainkit`, Speakeasy-generated
 *    from the Data and Metrics APIs; bench/mcp/package.json installs it,
 *    `npm ci --prefix bench/mcp`), started offline with `--server-url` at the
 *    same mock server.
 * 2. The questions of bench/mcp/questions.ts, against the package's mock
 *    server: each answered by one code-mode snippet and by its tools-mode
 *    calls. Per question and mode: MCP tool calls (the agent's round trips),
 *    the API requests the mock server answered, the bytes returned to the
 *    agent (the tool results' text), and wall time (median of BENCH_ROUNDS,
 *    default 5).
 *
 * A benchmark reports, it does not gate: the exit code is 0 unless something
 * could not run. Results: .tmp/bench-mcp.json.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer";
import { createMcpServer } from "../generated/src/mcp/index.js";
import { startMockServer } from "../generated/src/mock-server/index.js";
import { serveHttp } from "../generated/src/runtime/mcp/transports.js";
import { QUESTIONS, type Question } from "./mcp/questions.js";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);
const CHAINKIT = fileURLToPath(new URL("./mcp/node_modules/@avalanche-sdk/chainkit/bin/mcp-server.js", import.meta.url));

interface ListCost {
  server: string;
  tools: number;
  bytes: number;
  tokens: number;
}

async function httpClient(make: () => ReturnType<typeof createMcpServer>): Promise<{ client: Client; close(): Promise<void> }> {
  const server = await serveHttp(make, { port: 0 });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return { client, close: async () => (await client.close(), await server.close()) };
}

async function listCost(server: string, client: Client): Promise<ListCost> {
  const { tools } = await client.listTools();
  const text = JSON.stringify({ tools });
  return { server, tools: tools.length, bytes: Buffer.byteLength(text), tokens: encode(text).length };
}

async function chainkitCost(mockUrl: string): Promise<ListCost | string> {
  if (!existsSync(CHAINKIT)) return "not installed (npm ci --prefix bench/mcp)";
  const transport = new StdioClientTransport({ command: process.execPath, args: [CHAINKIT, "start", "--server-url", mockUrl, "--log-level", "error"], stderr: "pipe" });
  const client = new Client({ name: "bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    return await listCost("chainkit 0.3.12 (Data + Metrics APIs)", client);
  } catch (e) {
    return `did not start: ${(e as Error).message}`;
  } finally {
    await client.close();
  }
}

interface Answer {
  calls: number;
  requests: number;
  bytes: number;
  ms: number;
  errors: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function answer(client: Client, calls: [string, Record<string, unknown>][], requests: () => number): Promise<Answer & { texts: string[] }> {
  const before = requests();
  const started = performance.now();
  const texts: string[] = [];
  let errors = 0;
  for (const [name, args] of calls) {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    if (r.isError) errors++;
    texts.push(text);
  }
  return { calls: calls.length, requests: requests() - before, bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0), ms: performance.now() - started, errors, texts };
}

async function questionRows(code: Client, tools: Client, hasExecute: boolean, requests: () => number) {
  const rows: { question: string; code?: Answer & { sample: string }; tools: Answer }[] = [];
  for (const q of QUESTIONS as Question[]) {
    const runs = async (client: Client, calls: [string, Record<string, unknown>][]) => {
      const all = [];
      for (let i = 0; i < ROUNDS; i++) all.push(await answer(client, calls, requests));
      return { ...all[0]!, ms: median(all.map((a) => a.ms)) };
    };
    const t = await runs(tools, q.tools);
    const c = hasExecute ? await runs(code, [["execute", { code: q.snippet }]]) : undefined;
    rows.push({ question: q.question, tools: { calls: t.calls, requests: t.requests, bytes: t.bytes, ms: t.ms, errors: t.errors }, ...(c ? { code: { calls: c.calls, requests: c.requests, bytes: c.bytes, ms: c.ms, errors: c.errors, sample: c.texts[0]!.slice(0, 160) } } : {}) });
  }
  return rows;
}

const fmt = (n: number) => n.toLocaleString("en");

async function main(): Promise<void> {
  let requests = 0;
  const mock = await startMockServer({ port: 0, seed: 1, log: () => void requests++ });
  const code = await httpClient(() => createMcpServer({ clients: { baseUrl: mock.url } }));
  const tools = await httpClient(() => createMcpServer({ mode: "tools", tools: { maxTools: 10_000 }, clients: { baseUrl: mock.url } }));
  try {
    const costs: (ListCost | string)[] = [await listCost("avaspec code mode (all 3 APIs)", code.client), await listCost("avaspec tools mode (all 3 APIs)", tools.client)];
    const dataOnly = await httpClient(() => createMcpServer({ mode: "tools", tools: { include: ["dataApi.**", "metricsApi.**"], maxTools: 10_000 }, clients: { baseUrl: mock.url } }));
    costs.push(await listCost("avaspec tools mode (Data + Metrics APIs)", dataOnly.client));
    await dataOnly.close();
    costs.push(await chainkitCost(mock.url));
    console.log("\ntools/list: what the agent reads before its first call (tokens: gpt-tokenizer, o200k_base)\n");
    console.log("| server | tools | bytes | tokens |\n|---|---:|---:|---:|");
    for (const c of costs) console.log(typeof c === "string" ? `| chainkit | ${c} | | |` : `| ${c.server} | ${c.tools} | ${fmt(c.bytes)} | ${fmt(c.tokens)} |`);

    const hasExecute = (await code.client.listTools()).tools.some((t) => t.name === "execute");
    const rows = await questionRows(code.client, tools.client, hasExecute, () => requests);
    console.log(`\n${rows.length} questions against the mock server (wall time: median of ${ROUNDS} rounds; code mode ${hasExecute ? "by execute" : "not measured: this server has no execute tool"})\n`);
    console.log("| question | code: tool calls | code: API requests | code: bytes | code: ms | tools: tool calls | tools: API requests | tools: bytes | tools: ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      const c = r.code;
      const err = (a: Answer) => (a.errors > 0 ? ` (${a.errors} error${a.errors > 1 ? "s" : ""})` : "");
      console.log(`| ${r.question} | ${c ? `${c.calls}${err(c)}` : "–"} | ${c ? c.requests : "–"} | ${c ? fmt(c.bytes) : "–"} | ${c ? c.ms.toFixed(1) : "–"} | ${r.tools.calls}${err(r.tools)} | ${r.tools.requests} | ${fmt(r.tools.bytes)} | ${r.tools.ms.toFixed(1)} |`);
    }
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
    if (hasExecute) console.log(`| **all ${rows.length}** | ${sum((r) => r.code!.calls)} | ${sum((r) => r.code!.requests)} | ${fmt(sum((r) => r.code!.bytes))} | ${sum((r) => r.code!.ms).toFixed(0)} | ${sum((r) => r.tools.calls)} | ${sum((r) => r.tools.requests)} | ${fmt(sum((r) => r.tools.bytes))} | ${sum((r) => r.tools.ms).toFixed(0)} |`);
    else console.log(`| **all ${rows.length}** | – | – | – | – | ${sum((r) => r.tools.calls)} | ${sum((r) => r.tools.requests)} | ${fmt(sum((r) => r.tools.bytes))} | ${sum((r) => r.tools.ms).toFixed(0)} |`);
    mkdirSync(new URL("../.tmp/", import.meta.url), { recursive: true });
    writeFileSync(new URL("../.tmp/bench-mcp.json", import.meta.url), JSON.stringify({ node: process.version, rounds: ROUNDS, costs, rows }, null, 2) + "\n");
  } finally {
    await code.close();
    await tools.close();
    await mock.close();
  }
}

await main();
