/// <reference types="node" />
/**
 * The `mcp` command of a generated package (`npx <package> mcp`, its bin) and
 * of avaspec (`avaspec mcp --dir <package>`): options from the command line,
 * base URLs and API keys also from environment variables (an API key only
 * from there, so it stays out of process lists), then the server on stdio or
 * Streamable HTTP until SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServerOptions } from "./server.js";
import type { McpClientSettings } from "./settings.js";
import { closeSandbox } from "./sandbox-pool.js";
import { serveHttp, serveStdio, type RunningMcpServer } from "./transports.js";

/** A package's server factory (`createMcpServer` of its `mcp` entry). */
export type CreateMcpServer = (options: McpServerOptions & { clients?: McpClientSettings }) => Server;

export function mcpUsage(name: string, clients: readonly string[]): string {
  const env = (c: string) => c.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
  return `usage: ${name} mcp [--mode code|tools] [--allow-writes] [--allow <pattern>]… [--http <port> [--host <addr>]]
          [--base-url [<client>=]<url>]… [--include <pattern>]… [--exclude <pattern>]… [--max-tools <n>]

An MCP server over the package's clients (${clients.join(", ")}), on stdio unless --http.
  --mode code        two tools: search (signatures of every operation) and execute (a snippet
                     calling the clients, in a sandbox); the default
  --mode tools       one tool per operation
  --allow-writes     allow operations that write, spend or sign (refused by default)
  --allow <pattern>  allow the writes matching it: a dotted path (node.platform.issueTx), with *
                     within a segment and ** across them, a tool name or a tag; repeatable
  --include, --exclude <pattern>
                     tools mode: the operations listed (same patterns); repeatable
  --max-tools <n>    tools mode: refuse to start with more tools than this (default 100)
  --http <port>      Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio (0: a free port)
  --host <addr>      the interface for --http (default 127.0.0.1)
  --base-url [<client>=]<url>
                     where the clients call (default: the spec's servers); repeatable
  --timeout-ms <n>   per request attempt
  --result-bytes <n> the largest result returned to the agent (default 24000); longer ones are cut
  --stream-items <n>, --stream-ms <n>
                     a streamed operation's call returns the items that arrive, at most this many
                     (default 100) within this many milliseconds (default 5000), then closes the stream

Environment: AVASPEC_MCP_BASE_URL, AVASPEC_MCP_BASE_URL_<CLIENT> (e.g. ${env(clients[0] ?? "dataApi")}); AVASPEC_MCP_API_KEY,
AVASPEC_MCP_API_KEY_<CLIENT>. The command line wins over the environment; API keys come from the environment only.`;
}

/** Thrown for a command line that cannot be served; the message says what to change. */
export class McpUsageError extends Error {}

/** How long a stdio server whose input closed waits for the answers to what it was asked before it stops. */
const STDIO_DRAIN_MS = 30_000;

const envName = (client: string) => client.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();

/** The server options and client settings a command line and an environment give. */
export function parseMcpCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, clients: readonly string[]): { options: McpServerOptions & { clients: McpClientSettings }; http?: { port: number; host: string }; help: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      mode: { type: "string", default: "code" },
      "allow-writes": { type: "boolean", default: false },
      allow: { type: "string", multiple: true, default: [] },
      include: { type: "string", multiple: true, default: [] },
      exclude: { type: "string", multiple: true, default: [] },
      "max-tools": { type: "string" },
      http: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      "base-url": { type: "string", multiple: true, default: [] },
      "timeout-ms": { type: "string" },
      "result-bytes": { type: "string" },
      "stream-items": { type: "string" },
      "stream-ms": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.mode !== "code" && values.mode !== "tools") throw new McpUsageError(`--mode must be code or tools, got ${JSON.stringify(values.mode)}`);
  const count = (flag: string, v: string | undefined, min: number): number | undefined => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min) throw new McpUsageError(`--${flag} must be a whole number of at least ${min}, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  const settings: { baseUrl?: string; baseUrls: Record<string, string>; apiKey?: string; apiKeys: Record<string, string>; timeoutMs?: number } = { baseUrls: {}, apiKeys: {} };
  if (env["AVASPEC_MCP_BASE_URL"]) settings.baseUrl = env["AVASPEC_MCP_BASE_URL"];
  if (env["AVASPEC_MCP_API_KEY"]) settings.apiKey = env["AVASPEC_MCP_API_KEY"];
  for (const c of clients) {
    const url = env[`AVASPEC_MCP_BASE_URL_${envName(c)}`];
    const key = env[`AVASPEC_MCP_API_KEY_${envName(c)}`];
    if (url) settings.baseUrls[c] = url;
    if (key) settings.apiKeys[c] = key;
  }
  for (const given of values["base-url"]) {
    const m = given.match(/^([A-Za-z_$][\w$]*)=(.+)$/);
    const url = m ? m[2]! : given;
    if (m && !clients.includes(m[1]!)) throw new McpUsageError(`--base-url names no client ${JSON.stringify(m[1])}; the clients are ${clients.join(", ")}`);
    if (!/^https?:\/\/[^/]/.test(url)) throw new McpUsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(url)}`);
    if (m) settings.baseUrls[m[1]!] = url;
    else settings.baseUrl = url;
  }
  const timeoutMs = count("timeout-ms", values["timeout-ms"], 1);
  if (timeoutMs !== undefined) settings.timeoutMs = timeoutMs;
  const maxTools = count("max-tools", values["max-tools"], 1);
  const resultBytes = count("result-bytes", values["result-bytes"], 256);
  const streamItems = count("stream-items", values["stream-items"], 1);
  const streamMs = count("stream-ms", values["stream-ms"], 1);
  const stream = { ...(streamItems !== undefined ? { maxItems: streamItems } : {}), ...(streamMs !== undefined ? { maxMs: streamMs } : {}) };
  const port = count("http", values.http, 0);
  if (port !== undefined && port > 65535) throw new McpUsageError(`--http must be a port, 0–65535`);
  return {
    options: {
      mode: values.mode,
      policy: { allowWrites: values["allow-writes"], allow: values.allow.flatMap((a) => a.split(",")).filter(Boolean) },
      tools: { include: values.include, exclude: values.exclude, ...(maxTools !== undefined ? { maxTools } : {}) },
      ...(resultBytes !== undefined ? { resultBytes } : {}),
      ...(Object.keys(stream).length > 0 ? { stream } : {}),
      clients: settings,
    },
    ...(port !== undefined ? { http: { port, host: values.host } } : {}),
    help: values.help,
  };
}

/**
 * Runs the command: resolves with the exit code (0 after a clean stop; 1 when
 * the server cannot start; 2 for a usage error). Messages go to stderr: on
 * stdio, stdout carries the protocol.
 */
export async function mcpCommand(name: string, create: CreateMcpServer, clients: readonly string[], argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseMcpCommand(argv, env, clients);
  } catch (e) {
    process.stderr.write(`${name} mcp: ${(e as Error).message}\n\n${mcpUsage(name, clients)}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${mcpUsage(name, clients)}\n`);
    return 0;
  }
  let running: RunningMcpServer;
  try {
    // made once here so that a bad selection (too many tools) stops the command before it serves
    const first = create(parsed.options);
    running = parsed.http ? await serveHttp(() => create(parsed.options), parsed.http) : await serveStdio(first);
  } catch (e) {
    process.stderr.write(`${name} mcp: ${(e as Error).message}\n`);
    return 1;
  }
  const writes = parsed.options.policy?.allowWrites ? "writes allowed" : parsed.options.policy?.allow.length ? `read-only but ${parsed.options.policy.allow.join(", ")}` : "read-only";
  process.stderr.write(`${name} mcp: ${parsed.options.mode} mode, ${writes}, on ${running.url}\n`);
  await new Promise<void>((resolve) => {
    // the sandbox's idle workers go too: their captured output streams would keep the process alive after its input closed
    const stop = () => void running.close().then(closeSandbox).then(resolve, resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    // an agent ends a stdio server by closing its input; what it asked before is answered first
    if (!parsed.http) process.stdin.once("end", () => void (running.answered?.(STDIO_DRAIN_MS) ?? Promise.resolve()).then(stop));
  });
  return 0;
}
