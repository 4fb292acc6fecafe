/**
 * What bench/ws.ts takes from avaspec: a newHeads subscription over
 * `createWsTransport` (generated/src/runtime/ws/ws.ts, copied from runtime/ws/ws.ts
 * by `npm run generate`), behind one function so the bench treats avaspec and
 * viem alike. The runtime module is loaded by URL, not by a static import, so
 * this file type-checks and the bench runs (skipping avaspec) before the
 * module exists; the contract it relies on is typed here.
 *
 * The bench bundles the module with esbuild (plain JavaScript, as the
 * published dist/ is) and passes the bundle's URL to loadWsRuntime;
 * BENCH_AVASPEC=source imports the TypeScript through tsx instead.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WebSocket as WsWebSocket } from "ws";

/** The transport's contract, as far as the bench uses it. */
export interface WsSubscription<T> extends AsyncIterable<T> {
  onData?(fn: (data: T) => void): unknown;
  unsubscribe(): Promise<void>;
}
export interface WsTransport {
  subscribe(kind: Record<string, unknown>, params: unknown, options?: { onData?(value: unknown): void }): WsSubscription<Record<string, unknown>>;
  close(): Promise<void>;
}
export interface WsRuntime {
  createWsTransport(options: { webSocket: { url: string; WebSocket: unknown; keepAlive: false } }, defaultBaseUrl: string, paths: Record<string, { path: string }>, probe: undefined): WsTransport;
}

/**
 * newHeads as the generated node client describes it (cChainNewHeadsSubscription), minus the
 * backfill and the bigint reading: the bench compares transports, and viem's transport.subscribe
 * hands over the raw header too.
 */
const NEW_HEADS = { kind: "newHeads", endpoint: "/ext/bc/C/rpc", subscribe: "eth_subscribe", unsubscribe: "eth_unsubscribe", notification: "eth_subscription", params: [] };

/**
 * generated/src/runtime/ws/ws.ts, the module the adapter drives; BENCH_WS_RUNTIME
 * (a path) points the bench at another copy, e.g. runtime/ws/ws.ts before `npm run generate`.
 */
export const WS_RUNTIME_SOURCE = process.env.BENCH_WS_RUNTIME ? pathToFileURL(resolve(process.env.BENCH_WS_RUNTIME)) : new URL("../generated/src/runtime/ws/ws.ts", import.meta.url);
export const wsRuntimeAvailable = (): boolean => existsSync(fileURLToPath(WS_RUNTIME_SOURCE));

let runtime: WsRuntime | undefined;

/** Loads the runtime (the TypeScript source through tsx, or a bundle of it at `href`). */
export async function loadWsRuntime(href: string = WS_RUNTIME_SOURCE.href): Promise<WsRuntime> {
  const mod = (await import(href)) as Partial<WsRuntime>;
  if (typeof mod.createWsTransport !== "function") throw new Error(`${href} does not export createWsTransport`);
  runtime = mod as WsRuntime;
  return runtime;
}

/** Node ≥ 22 has a global WebSocket; Node 20 takes ws's (which is also what viem's isows picks there). */
const WebSocketImpl: unknown = (globalThis as { WebSocket?: unknown }).WebSocket ?? WsWebSocket;

/**
 * Subscribes to newHeads at `url`, calling onData with each header (through
 * sub.onData when the subscription has it, else by iterating it); returns a
 * function that unsubscribes and closes the transport. The subscription may
 * be established later: the bench waits for the server to count it.
 */
export async function avaspecSubscribe(url: string, onData: (header: Record<string, unknown>) => void): Promise<() => Promise<void>> {
  const rt = runtime ?? (await loadWsRuntime());
  // the server's URL is the WebSocket endpoint itself: the base is its origin, the path its path
  const { origin, pathname } = new URL(url);
  const t = rt.createWsTransport({ webSocket: { url: origin, WebSocket: WebSocketImpl, keepAlive: false } }, origin.replace(/^ws/, "http"), { "/ext/bc/C/rpc": { path: pathname } }, undefined);
  const sub = t.subscribe(NEW_HEADS, {}, { onData: (h) => onData(h as Record<string, unknown>) });
  return async () => {
    await sub.unsubscribe();
    await t.close();
  };
}
