/**
 * JSON-RPC 2.0 over WebSocket, with subscriptions that survive the network.
 *
 * One socket per WebSocket path (`/ext/bc/C/ws`), opened on first use and
 * closed when nothing is pending and nothing is subscribed. Calls and batches
 * are multiplexed by id, with the same params, results, typed errors, number
 * policy, timeouts and abort as over HTTP (`readReply`). A method whose
 * endpoint has no WebSocket form is refused before anything is sent.
 *
 * Subscriptions (`eth_subscribe` kinds, described by the spec) are async
 * iterators with an onData/onError form; they end with `unsubscribe()`,
 * `break` or an AbortSignal. The transport keeps the socket alive with a
 * cheap call when it has been quiet, treats an unanswered probe as a
 * half-open socket, reconnects with capped exponential backoff and jitter,
 * resubscribes, and backfills the gap: heads by number (every missed block,
 * in order, reorgs reported; gaps.ts), logs by block range with the same
 * filter, deduplicated by `(blockHash, logIndex)`, from the fork point of a
 * reorganisation during the outage (logs.ts). Every payload is checked
 * before it is ordered or delivered (payloads.ts). The consumer's side
 * (consumer.ts) runs its callbacks so that what they throw ends that
 * subscription alone, and gives a slow consumer a bounded buffer: an
 * overflow error (default) or the oldest events dropped.
 *
 * No dependency: `globalThis.WebSocket` (browsers, Node ≥ 22) or the
 * constructor given as `WebSocket` (e.g. from the `ws` package on Node 20).
 *
 * This file puts the transport together from its parts (connection.ts lists
 * them): the options with their defaults, which socket serves an endpoint,
 * calls, batches, subscriptions and `close()`.
 */
import { AbortError, AvaspecError, NetworkError } from "../errors/errors.js";
import { deprecationNotice, requireResults, type ResultChecks } from "../http/http.js";
import type { BatchResults, RpcCall, RpcClientOptions, RpcMethod } from "../jsonrpc/jsonrpc.js";
import { reconnectPolicy } from "../stream/backoff.js";
import type { Numbers } from "../values/numbers.js";
import { hasOwn } from "../values/validate.js";
import { newConnection, request, type Connection, type WsCore } from "./connection.js";
import { receive, send } from "./calls.js";
import { startKeepAlive } from "./keep-alive.js";
import { lost, open } from "./socket.js";
import { resume, subscribe } from "./subscriptions.js";
import type { WebSocketOptions, WsPath, WsTransport } from "./types.js";

export { SubscriptionCallbackError, SubscriptionOverflowError } from "../stream/consumer.js";

/**
 * A WebSocket JSON-RPC transport. `paths` maps each JSON-RPC endpoint that
 * has a WebSocket form to where it is (`{ "/ext/bc/C/rpc": { path:
 * "/ext/bc/C/ws" } }`); `probe` is the cheap call keep-alive sends.
 */
export function createWsTransport(options: RpcClientOptions & { webSocket?: WebSocketOptions }, defaultBaseUrl: string, paths: Readonly<Record<string, WsPath>>, probe: RpcMethod | undefined, results?: ResultChecks, defaultNumbers: Numbers = "string"): WsTransport {
  const ws = options.webSocket ?? {};
  const base = (ws.url ?? (options.baseUrl ?? defaultBaseUrl).replace(/^http(s?):/i, "ws$1:")).replace(/\/+$/, "");
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(base)?.[0] ?? base;
  const maxSize = Math.max(1, Math.floor(options.batch?.maxSize ?? 40));
  const t: WsCore = {
    options: ws,
    base,
    checks: requireResults(options.validateResponse, results),
    validateResponse: options.validateResponse ?? "off",
    numbers: options.numbers ?? defaultNumbers,
    timeoutMs: options.timeoutMs ?? 30_000,
    keepAlive: ws.keepAlive === false ? undefined : { intervalMs: ws.keepAlive?.intervalMs ?? 15_000, timeoutMs: ws.keepAlive?.timeoutMs ?? 10_000 },
    reconnect: ws.reconnect === false ? undefined : reconnectPolicy(ws.reconnect),
    probe,
    warnDeprecated: deprecationNotice(options.deprecationWarnings),
    nextId: 1,
    closed: false,
    opened: (path, c) => startKeepAlive(t, path, c),
    receive: (c, url, data) => receive(t, c, url, data),
    resume: (path, c, attempts) => resume(t, path, c, attempts),
  };
  const connections = new Map<string, Connection>();

  /** The WebSocket URL of an endpoint (connections are keyed by it). */
  function pathOf(endpoint: string, name: string): string {
    const where = hasOwn(paths, endpoint) ? paths[endpoint] : undefined;
    if (where === undefined) {
      const served = Object.keys(paths);
      throw new AvaspecError(`${name}: ${endpoint || "/"} has no WebSocket endpoint${served.length > 0 ? ` (WebSocket serves ${served.map((e) => `${e || "/"} as ${paths[e]!.path}`).join(", ")})` : ""}; call it over HTTP`, request(name, base + endpoint));
    }
    return (where.fromOrigin && ws.url === undefined ? origin : base) + where.path;
  }

  function connection(path: string): Connection {
    let c = connections.get(path);
    if (!c) {
      c = newConnection();
      connections.set(path, c);
    }
    return c;
  }

  const call: RpcCall = <P, R>(m: RpcMethod<P, R>, params: P, callOptions?: { signal?: AbortSignal; timeoutMs?: number; numbers?: Numbers }) => {
    try {
      const path = pathOf(m.endpoint, m.method);
      return send(t, path, connection(path), m, params, callOptions?.numbers ?? t.numbers, callOptions?.timeoutMs ?? t.timeoutMs, callOptions?.signal) as Promise<R>;
    } catch (error) {
      return Promise.reject(error);
    }
  };

  async function batch<const T extends readonly Promise<unknown>[]>(build: (call: RpcCall) => T): Promise<BatchResults<T>> {
    const byPath = new Map<string, { envelope: unknown }[]>();
    const collect: RpcCall = <P, R>(m: RpcMethod<P, R>, params: P, callOptions?: { numbers?: Numbers }) => {
      try {
        const path = pathOf(m.endpoint, m.method);
        const list = byPath.get(path) ?? [];
        byPath.set(path, list);
        return send(t, path, connection(path), m, params, callOptions?.numbers ?? t.numbers, t.timeoutMs, undefined, list) as Promise<R>;
      } catch (error) {
        return Promise.reject(error);
      }
    };
    const calls = build(collect);
    for (const [path, list] of byPath) {
      const c = connection(path);
      open(t, path, c).then(
        () => {
          for (let i = 0; i < list.length; i += maxSize) c.socket?.send(JSON.stringify(list.slice(i, i + maxSize).map((x) => x.envelope)));
        },
        () => {
          // each call's reject ran in lost()/open(): nothing was pending on a socket that never opened
          for (const [id, p] of c.pending) {
            c.pending.delete(id);
            p.cleanup();
            p.reject(new NetworkError(`${p.method.method}: could not connect to ${path}`, request(p.method.method, path)));
          }
        },
      );
    }
    const settled = await Promise.allSettled(calls);
    return settled.map((s) => (s.status === "fulfilled" ? { ok: true, value: s.value } : { ok: false, error: s.reason instanceof AvaspecError ? s.reason : new AvaspecError(String(s.reason), undefined, { cause: s.reason }) })) as unknown as BatchResults<T>;
  }

  async function close(): Promise<void> {
    t.closed = true;
    for (const [path, c] of connections) {
      for (const s of [...c.subs]) s.fail(new AbortError(`${s.kind.kind}: the transport was closed`, request(s.kind.subscribe, path)));
      if (c.reconnectTimer !== undefined) clearTimeout(c.reconnectTimer);
      c.reconnectTimer = undefined;
      const socket = c.socket;
      if (socket) lost(t, path, c, socket, "the transport was closed");
    }
    connections.clear();
    t.closed = false;
  }

  return {
    call,
    batch,
    subscribe: (kind, params, subOptions) => {
      const path = pathOf(kind.endpoint, kind.subscribe);
      return subscribe(t, path, connection(path), kind, params, subOptions);
    },
    close,
  };
}
