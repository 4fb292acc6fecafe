/// <reference types="node" />
/**
 * The MCP server's transports: stdio (what agents start as a command) and
 * Streamable HTTP on one path (`/mcp`), bound to 127.0.0.1 unless told
 * otherwise. HTTP is stateless: each request gets a server of its own from
 * `make` (the SDK connects a server to one transport), so nothing an agent did
 * in one request lasts into the next. Requests whose Host is not the address
 * the server listens on are refused (DNS rebinding), and bodies are limited.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { protoKeyAt, protoRefusal } from "./host.js";

export interface RunningMcpServer {
  /** `http://127.0.0.1:3000/mcp`, or `stdio`. */
  readonly url: string;
  /** Resolves once every request received so far is answered, or after `maxMs`, whichever is first (stdio only). */
  answered?(maxMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Puts `handle` in front of the message handler the server sets on the
 * transport: the server connects (setting `onmessage`), then starts the
 * transport, so the wrap goes on at start. `pass` hands the message on.
 */
function beforeIncoming(transport: Transport, handle: (message: JSONRPCMessage, pass: () => void) => void): void {
  const start = transport.start.bind(transport);
  transport.start = () => {
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => handle(message, () => inner?.(message, extra));
    return start();
  };
}

/**
 * A tool call whose arguments hold a `__proto__` key is answered here, as a
 * tool error saying why, before the SDK reads it: the SDK's schema parsing
 * drops such a key without a word, and the agent should know its arguments
 * were not taken as sent.
 */
export function guardArguments<T extends Transport>(transport: T): T {
  beforeIncoming(transport, (message, pass) => {
    const m = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    const at = m.method === "tools/call" && m.id !== undefined ? protoKeyAt(m.params?.arguments) : undefined;
    if (at === undefined) return pass();
    void transport.send({ jsonrpc: "2.0", id: m.id as string | number, result: { content: [{ type: "text", text: protoRefusal(at) }], isError: true } });
  });
  return transport;
}

/**
 * Counts the requests a transport received and has not answered yet: what
 * an stdio server waits for when its input closes (a client may write its
 * last request and close at once, as `echo … | command` does).
 */
function pendingRequests(transport: Transport): { answered(maxMs: number): Promise<void> } {
  const open = new Set<string | number>();
  let settle: (() => void) | undefined;
  const idOf = (message: JSONRPCMessage) => {
    const id = (message as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  };
  beforeIncoming(transport, (message, pass) => {
    const id = idOf(message);
    if ("method" in message && id !== undefined) open.add(id);
    pass();
  });
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      return await send(message, options);
    } finally {
      // an answer (a result or an error, not a request of the server's own) closes its request
      const id = idOf(message);
      if (!("method" in message) && id !== undefined && open.delete(id) && open.size === 0) settle?.();
    }
  };
  return {
    answered: (maxMs) =>
      open.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, maxMs);
            settle = () => (clearTimeout(timer), resolve());
          }),
  };
}

/** Serves one server over stdin and stdout (stderr stays free for messages). */
export async function serveStdio(server: Server): Promise<RunningMcpServer> {
  const transport = guardArguments(new StdioServerTransport());
  const pending = pendingRequests(transport);
  await server.connect(transport);
  return { url: "stdio", answered: pending.answered, close: () => server.close() };
}

export interface HttpOptions {
  /** Port (0 picks a free one). */
  port: number;
  /** Interface (default 127.0.0.1). */
  host?: string;
  /** The largest request body accepted, in bytes (default 1 MiB). */
  maxBody?: number;
}

const MCP_PATH = "/mcp";

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Serves Streamable HTTP at `/mcp`: a new server from `make` for each request. */
export function serveHttp(make: () => Server, options: HttpOptions): Promise<RunningMcpServer> {
  const host = options.host ?? "127.0.0.1";
  const max = options.maxBody ?? 1024 * 1024;
  let allowedHosts: string[] = [];
  const http = createServer((req, res) => {
    // the server's own failure (a tools selection over its cap, say): its message, for whoever runs it
    void answer(req, res).catch((e: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `Internal error: ${(e as Error)?.message ?? String(e)}`);
      else res.end();
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if ((req.url ?? "/").split("?")[0] !== MCP_PATH) return jsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (req.method !== "POST") return jsonRpcError(res, 405, -32000, "Method not allowed: this server is stateless, POST each message");
    if (!allowedHosts.includes(req.headers.host ?? "")) return jsonRpcError(res, 403, -32000, "Forbidden: the Host header is not this server's address");
    const text = await readBody(req, max);
    if (text === undefined) return jsonRpcError(res, 413, -32600, `Request body over ${max} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return jsonRpcError(res, 400, -32700, "Parse error: the body is not JSON");
    }
    const server = make();
    const transport = guardArguments(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
  const sockets = new Set<import("node:net").Socket>();
  http.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, host, () => {
      const address = http.address();
      const port = typeof address === "object" && address ? address.port : options.port;
      const shown = host.includes(":") ? `[${host}]` : host;
      allowedHosts = [`${shown}:${port}`, ...(["127.0.0.1", "::1", "localhost"].includes(host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : [])];
      resolve({
        url: `http://${shown}:${port}${MCP_PATH}`,
        close: () =>
          new Promise<void>((done) => {
            http.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}
