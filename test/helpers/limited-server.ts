/**
 * A real node:http server on 127.0.0.1 that enforces a budget the way the
 * services do: units per window per API key (a sliding window counted at
 * arrival, or a fixed window that starts at the first request after the last
 * one ended), a 429 with `Retry-After` when a request does not fit, and a
 * JSON-RPC batch cap answered with -32600 "batch too large". It answers any
 * JSON-RPC envelope with a result and any other request with `{}`, and
 * records what it served and refused with its own timestamps.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface LimitedServerOptions {
  /** Units per window, each window in ms; all must fit. */
  quotas: { quota: number; windowMs: number }[];
  /** "sliding": no more than `quota` in any `windowMs`; "fixed": windows start at the first request after the last ended. */
  mode: "sliding" | "fixed";
  /** What a request costs (default 1). */
  cost?: (path: string, body: string) => number;
  /** The most calls a JSON-RPC batch may carry. */
  batchCap?: number;
}

export interface LimitedServer {
  url: string;
  /** Answered requests (status 200): arrival times in ms. */
  served: number[];
  /** Refused requests: arrival time, and the index of the first quota's window it fell in (fixed mode; 1 is the first). */
  refused: { at: number; window: number }[];
  /** Batches refused for their size, and the sizes of the batches answered. */
  batchesRefused: number[];
  batchesServed: number[];
  close(): Promise<void>;
}

interface Ledger {
  quota: number;
  windowMs: number;
  /** sliding: [at, units] oldest first; fixed: the window's start and its units. */
  log: [number, number][];
  sum: number;
  start: number;
  index: number;
}

export async function startLimitedServer(options: LimitedServerOptions): Promise<LimitedServer> {
  const ledgers = new Map<string, Ledger[]>();
  const served: number[] = [];
  const refused: { at: number; window: number }[] = [];
  const batchesRefused: number[] = [];
  const batchesServed: number[] = [];
  const ledgersOf = (key: string) => {
    let found = ledgers.get(key);
    if (!found) ledgers.set(key, (found = options.quotas.map((q) => ({ ...q, log: [], sum: 0, start: 0, index: 0 }))));
    return found;
  };
  /** How long until `units` fit in every window (0: they fit now, and are counted). */
  const admit = (key: string, units: number, now: number): number => {
    const list = ledgersOf(key);
    let wait = 0;
    for (const l of list) {
      if (options.mode === "fixed") {
        if (l.index === 0 || now >= l.start + l.windowMs) (l.start = now), (l.sum = 0), l.index++;
        if (l.sum + units > l.quota) wait = Math.max(wait, l.start + l.windowMs - now);
      } else {
        while (l.log.length > 0 && l.log[0]![0] + l.windowMs <= now) l.sum -= l.log.shift()![1];
        if (l.sum + units > l.quota) wait = Math.max(wait, (l.log[0]?.[0] ?? now) + l.windowMs - now);
      }
    }
    if (wait > 0) return wait;
    for (const l of list) {
      l.sum += units;
      if (options.mode === "sliding") l.log.push([now, units]);
    }
    return 0;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      const key = String(req.headers["x-glacier-api-key"] ?? "");
      let parsed: unknown;
      try {
        parsed = body ? JSON.parse(body) : undefined;
      } catch {
        parsed = undefined;
      }
      const calls = Array.isArray(parsed) ? parsed : parsed && typeof parsed === "object" && "method" in parsed ? [parsed] : undefined;
      if (Array.isArray(parsed) && options.batchCap !== undefined && parsed.length > options.batchCap) {
        batchesRefused.push(parsed.length);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `batch too large: ${parsed.length} calls, at most ${options.batchCap}` } }));
      }
      const units = (calls?.length ?? 1) * (options.cost?.(req.url ?? "", body) ?? 1);
      const wait = admit(key, units, now);
      if (wait > 0) {
        refused.push({ at: now, window: ledgersOf(key)[0]!.index });
        res.writeHead(429, { "content-type": "application/json", "retry-after": String(Math.ceil(wait / 1000)) });
        return res.end(JSON.stringify({ message: "rate limit exceeded" }));
      }
      served.push(now);
      res.writeHead(200, { "content-type": "application/json" });
      if (!calls) return res.end("{}");
      if (Array.isArray(parsed)) batchesServed.push(parsed.length);
      const answers = calls.map((c) => ({ jsonrpc: "2.0", id: (c as { id?: unknown }).id ?? null, result: "0xa86a" }));
      res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    refused,
    batchesRefused,
    batchesServed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `total` calls through `workers` loops that each await one call at a time; resolves with how many failed. */
export async function runLoop(total: number, workers: number, call: (i: number) => Promise<unknown>): Promise<unknown[]> {
  let next = 0;
  const failures: unknown[] = [];
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < total) {
        const i = next++;
        await call(i).catch((error: unknown) => failures.push(error));
      }
    }),
  );
  return failures;
}
