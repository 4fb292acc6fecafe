/**
 * A real JSON-RPC 2.0 server over node:http on 127.0.0.1. It records every
 * HTTP request (path and parsed body) and answers each envelope through a
 * script, so tests can assert exactly what went over the wire.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Envelope {
  jsonrpc: string;
  id: number | string | null;
  method: string;
  params?: unknown;
}

export interface RecordedRpc {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body: one envelope or a batch array. */
  body: Envelope | Envelope[];
  raw: string;
}

/** How to answer one envelope: a result, an error object, or nothing (no reply for it). */
export type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | { none: true };

export interface RpcTestServer {
  url: string;
  requests: RecordedRpc[];
  /** Per-envelope answers (default: result null). */
  answer(fn: (env: Envelope, path: string) => Answer): void;
  /** Replaces the whole HTTP response (status and raw body) for the next requests. */
  raw(fn: ((req: RecordedRpc) => { status: number; body: string } | undefined) | undefined): void;
  /** Reorders the replies of a batch before they are sent. */
  order(fn: ((replies: unknown[]) => unknown[]) | undefined): void;
  close(): Promise<void>;
}

export async function startRpcServer(): Promise<RpcTestServer> {
  const requests: RecordedRpc[] = [];
  let answer: (env: Envelope, path: string) => Answer = () => ({ result: null });
  let raw: ((req: RecordedRpc) => { status: number; body: string } | undefined) | undefined;
  let order: ((replies: unknown[]) => unknown[]) | undefined;
  const reply = (env: Envelope, path: string): unknown => {
    const a = answer(env, path);
    if ("none" in a) return undefined;
    return { jsonrpc: "2.0", id: env.id, ...a };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: Envelope | Envelope[];
      try {
        body = JSON.parse(text) as Envelope | Envelope[];
      } catch {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
        return;
      }
      const rec: RecordedRpc = { path: req.url ?? "", headers: req.headers, body, raw: text };
      requests.push(rec);
      const override = raw?.(rec);
      if (override) {
        res.writeHead(override.status, { "content-type": "application/json" });
        res.end(override.body);
        return;
      }
      let out: unknown;
      if (Array.isArray(body)) {
        const replies = body.map((e) => reply(e, rec.path)).filter((r) => r !== undefined);
        out = order ? order(replies) : replies;
      } else out = reply(body, rec.path);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(out === undefined ? "" : JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(fn) {
      answer = fn;
    },
    raw(fn) {
      raw = fn;
    },
    order(fn) {
      order = fn;
    },
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
