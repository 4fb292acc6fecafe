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
 * in order, reorgs reported; ws-gaps.ts), logs by block range with the same
 * filter, deduplicated by `(blockHash, logIndex)`, from the fork point of a
 * reorganisation during the outage (ws-logs.ts). Every payload is checked
 * before it is ordered or delivered (ws-payloads.ts). The consumer's side
 * (ws-consumer.ts) runs its callbacks so that what they throw ends that
 * subscription alone, and gives a slow consumer a bounded buffer: an
 * overflow error (default) or the oldest events dropped.
 *
 * No dependency: `globalThis.WebSocket` (browsers, Node ≥ 22) or the
 * constructor given as `WebSocket` (e.g. from the `ws` package on Node 20).
 */
import { AbortError, AvaspecError, NetworkError, TimeoutError, type RequestInfo, type ValidationError } from "../errors/errors.js";
import { overflowError } from "../errors/depth.js";
import { deprecationNotice, requireResults, type ResultChecks } from "../http/http.js";
import { readReply, serializeParams, type BatchResults, type RpcCall, type RpcClientOptions, type RpcMethod, type RpcTransport } from "../jsonrpc/jsonrpc.js";
import type { Decoder, Encoder, Numbers } from "../values/numbers.js";
import { hasOwn } from "../values/validate.js";
import { createConsumer } from "./consumer.js";
import { blockGaps, passThrough, type GapFiller } from "./gaps.js";
import { logGaps } from "./logs.js";
import { payloadGate } from "./payloads.js";

export { SubscriptionCallbackError, SubscriptionOverflowError } from "./consumer.js";

/** What the transport needs of a WebSocket: the standard browser API, which `ws` (Node) also implements. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "close" | "error" | "message", listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
  removeEventListener(type: "open" | "close" | "error" | "message", listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface ReconnectOptions {
  /** Reconnect attempts after a connection is lost (default: unbounded). */
  retries?: number;
  /** First delay, doubled per attempt (default 250 ms). */
  baseDelayMs?: number;
  /** Cap of the delay (default 30 s). Each delay is drawn between half of it and all of it (jitter). */
  maxDelayMs?: number;
}

export interface KeepAliveOptions {
  /** Send a probe when nothing arrived for this long (default 15 s). */
  intervalMs?: number;
  /** A probe unanswered for this long means the socket is half-open: it is dropped and reconnected (default 10 s). */
  timeoutMs?: number;
}

export interface SubscriptionBuffer {
  /** Events kept for a consumer that has not taken them yet (default 10,000). */
  size?: number;
  /** When full: end the subscription with a SubscriptionOverflowError (default), or drop the oldest events. */
  overflow?: "error" | "drop-oldest";
}

export interface WebSocketOptions {
  /** Base URL of the WebSocket endpoints (`wss://host`); default: the client's `baseUrl` with http→ws, https→wss. */
  url?: string;
  /** A WebSocket constructor; default `globalThis.WebSocket`. */
  WebSocket?: WebSocketConstructor;
  keepAlive?: KeepAliveOptions | false;
  reconnect?: ReconnectOptions | false;
  /** Default buffer of every subscription. */
  buffer?: SubscriptionBuffer;
}

/** A spec's `eth_subscribe` kind, as the generator describes it (`x-avaspec-subscriptions`). */
export interface SubscriptionKind<P = any, T = unknown> {
  /** The kind, the first param of the subscribe method (`newHeads`). */
  readonly kind: string;
  /** The JSON-RPC endpoint whose WebSocket form serves it (`/ext/bc/C/rpc`). */
  readonly endpoint: string;
  readonly subscribe: string;
  readonly unsubscribe: string;
  /** Method name of the notifications (`eth_subscription`). */
  readonly notification: string;
  /** Names of the kind's params after the kind, in order. */
  readonly params: readonly string[];
  /** Reads a payload's string-encoded integers as bigints under `numbers: "bigint"`. */
  readonly resultIntegers?: Decoder;
  /** Writes bigints and numbers given in the params in their wire form. */
  readonly paramIntegers?: Encoder;
  /** How to fill a gap after a reconnect. */
  readonly backfill?: Backfill;
  /** Never set: carries the params and payload types. */
  readonly types?: { params: P; payload: T };
}

/** The params a subscription kind takes. */
export type SubscriptionParams<K> = K extends SubscriptionKind<infer P, unknown> ? P : never;

/**
 * A gap filler. `blocks`: payloads carry a block `number` and `hash` and
 * `parentHash`; missed numbers are fetched with `method` (by number, with
 * `extra` params after it). `range`: payloads carry a `blockNumber` and
 * `blockHash` and are told apart by `key`; the missed range is fetched with
 * `method` (a filter object, `filterParam` of the kind's params, extended
 * with `fromBlock`/`toBlock`), up to the node's head: the block `block`
 * reads as `latest` (by number, `blockExtra` params after it), or else the
 * number `head` answers. With `block`, a reorganisation during an outage
 * is found by comparing block hashes (see ws-logs.ts).
 */
export type Backfill =
  | { readonly by: "blocks"; readonly method: RpcMethod; readonly extra: readonly unknown[] }
  | { readonly by: "range"; readonly method: RpcMethod; readonly head: RpcMethod; readonly block?: RpcMethod; readonly blockExtra?: readonly unknown[]; readonly filterParam: string | undefined; readonly key: readonly string[] };

/** What a reconnect lost and what came back. */
export interface ReconnectInfo {
  /** Reconnect attempts it took. */
  attempts: number;
  /** The first and last block the subscription missed while disconnected (none: nothing was missed). */
  missedFrom?: bigint;
  missedTo?: bigint;
  /** Events delivered from the backfill. */
  backfilled: number;
}

/** A block the subscription delivered that is no longer on the chain. */
export interface ReorgInfo {
  /** The height where the delivered chain and the node's differ. */
  number: bigint;
  /** The hash delivered before, and the one the node now has. */
  replacedHash: string;
  newHash: string;
}

export interface SubscribeOptions<T> {
  signal?: AbortSignal;
  /** Callback form: each event; no buffering. What it throws ends the subscription (a `SubscriptionCallbackError` to `onError`). */
  onData?(value: T): void;
  /** The subscription failed for good (it has ended). */
  onError?(error: AvaspecError): void;
  /** After a reconnect, once the gap is backfilled. */
  onReconnect?(info: ReconnectInfo): void;
  /** A delivered block was replaced (found when the chain is stitched after a gap or by parent hash): what was delivered from `number` on is void. */
  onReorg?(info: ReorgInfo): void;
  /** A payload was dropped as invalid (the subscription goes on; under `validateResponse: "strict"` it ends instead). Without it, a console warning. */
  onInvalid?(error: ValidationError): void;
  buffer?: SubscriptionBuffer;
}

export interface Subscription<T> extends AsyncIterable<T> {
  /** The server's current subscription id (it changes with each reconnect). */
  readonly id: string | undefined;
  /** Events dropped under `overflow: "drop-oldest"`. */
  readonly dropped: number;
  /** Payloads dropped as invalid. */
  readonly invalid: number;
  unsubscribe(): Promise<void>;
}

export interface WsTransport extends RpcTransport {
  subscribe<P, T>(kind: SubscriptionKind<P, T>, params: P, options?: SubscribeOptions<T>): Subscription<T>;
  /** Closes every socket and ends every subscription; later calls open a new socket. */
  close(): Promise<void>;
}

const OPEN = 1;

interface PendingCall {
  method: RpcMethod;
  numbers: Numbers;
  /** Runs with the result in the message handler itself, before any later message of the same chunk (a subscribe registers its id there). */
  sync?: (value: unknown) => void;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  cleanup(): void;
}

interface Active {
  kind: SubscriptionKind;
  params: unknown[];
  id: string | undefined;
  /** Receives each notification's payload (wire form). */
  push(payload: unknown): void;
  /** Called before resubscribing after a reconnect (notifications from then on wait for the backfill). */
  resuming(attempts: number): void;
  /** Called once resubscribed after a reconnect. */
  resumed(): void;
  fail(error: AvaspecError): void;
}

/** A connection to one WebSocket path. */
interface Connection {
  socket: WebSocketLike | undefined;
  ready: Promise<void> | undefined;
  pending: Map<number, PendingCall>;
  subs: Set<Active>;
  byServerId: Map<string, Active>;
  lastMessage: number;
  keepAlive: ReturnType<typeof setInterval> | undefined;
  probing: boolean;
  reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  attempts: number;
  detach: (() => void) | undefined;
}

const request = (method: string, url: string): RequestInfo => ({ operationId: method, method: "WS", url });

/**
 * Keeps a socket the transport let go of from raising an error nobody
 * listens to: closing one that is still connecting makes it emit "error"
 * (ws: "closed before the connection was established"), an uncaught
 * exception once the transport's own listeners are gone.
 */
const quiet = (socket: WebSocketLike) => socket.addEventListener("error", () => undefined);

/** Ends a socket that is (or may be) dead at once: `terminate()` where the implementation has it (ws on Node), else `close()`. */
function drop(socket: WebSocketLike): void {
  quiet(socket);
  try {
    const terminate = (socket as { terminate?: () => void }).terminate;
    if (typeof terminate === "function") terminate.call(socket);
    else if (socket.readyState <= OPEN) socket.close();
  } catch {
    // already closing
  }
}

/** The gap filler of a subscription kind (ws-gaps.ts, ws-logs.ts). */
function fillerOf(kind: SubscriptionKind, params: readonly unknown[]): GapFiller {
  const b = kind.backfill;
  if (b?.by === "blocks") return blockGaps(b);
  if (b?.by === "range") return logGaps(kind, b, params);
  return passThrough();
}

/** Where an endpoint's WebSocket form is: `path` below the base URL, or, with `fromOrigin`, below its origin (a document whose base URL is its HTTP endpoint). */
export interface WsPath {
  readonly path: string;
  readonly fromOrigin?: boolean;
}

/**
 * A WebSocket JSON-RPC transport. `paths` maps each JSON-RPC endpoint that
 * has a WebSocket form to where it is (`{ "/ext/bc/C/rpc": { path:
 * "/ext/bc/C/ws" } }`); `probe` is the cheap call keep-alive sends.
 */
export function createWsTransport(options: RpcClientOptions & { webSocket?: WebSocketOptions }, defaultBaseUrl: string, paths: Readonly<Record<string, WsPath>>, probe: RpcMethod | undefined, results?: ResultChecks, defaultNumbers: Numbers = "string"): WsTransport {
  const ws = options.webSocket ?? {};
  const checks = requireResults(options.validateResponse, results);
  const validateResponse = options.validateResponse ?? "off";
  const numbers = options.numbers ?? defaultNumbers;
  const base = (ws.url ?? (options.baseUrl ?? defaultBaseUrl).replace(/^http(s?):/i, "ws$1:")).replace(/\/+$/, "");
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(base)?.[0] ?? base;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const keepAlive = ws.keepAlive === false ? undefined : { intervalMs: ws.keepAlive?.intervalMs ?? 15_000, timeoutMs: ws.keepAlive?.timeoutMs ?? 10_000 };
  const reconnect = ws.reconnect === false ? undefined : { retries: ws.reconnect?.retries ?? Infinity, baseDelayMs: ws.reconnect?.baseDelayMs ?? 250, maxDelayMs: ws.reconnect?.maxDelayMs ?? 30_000 };
  const maxSize = Math.max(1, Math.floor(options.batch?.maxSize ?? 40));
  const warnDeprecated = deprecationNotice(options.deprecationWarnings);
  const connections = new Map<string, Connection>();
  let nextId = 1;
  let closed = false;

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
      c = { socket: undefined, ready: undefined, pending: new Map(), subs: new Set(), byServerId: new Map(), lastMessage: 0, keepAlive: undefined, probing: false, reconnectTimer: undefined, attempts: 0, detach: undefined };
      connections.set(path, c);
    }
    return c;
  }

  function constructor(): WebSocketConstructor {
    const ctor = ws.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!ctor) throw new AvaspecError("no WebSocket implementation: this runtime has no globalThis.WebSocket (Node < 22); pass one as webSocket.WebSocket (e.g. from the ws package)", request("connect", base));
    return ctor;
  }

  /** Opens the socket (once per attempt); resolves when it is open. */
  function open(path: string, c: Connection): Promise<void> {
    if (c.ready) return c.ready;
    const url = path;
    c.ready = new Promise<void>((resolve, reject) => {
      let socket: WebSocketLike;
      try {
        socket = new (constructor())(url);
      } catch (error) {
        c.ready = undefined;
        reject(error instanceof AvaspecError ? error : new NetworkError(`could not open ${url}: ${String(error)}`, request("connect", url), { cause: error }));
        return;
      }
      c.socket = socket;
      let opened = false;
      const onOpen = () => {
        opened = true;
        c.lastMessage = Date.now();
        startKeepAlive(path, c);
        resolve();
      };
      const onMessage = (event: { data?: unknown }) => {
        c.lastMessage = Date.now();
        receive(c, url, event.data);
      };
      const onClose = (event: { code?: number; reason?: string }) => lost(path, c, socket, opened ? `the WebSocket closed (${event.code ?? "no code"}${event.reason ? `: ${event.reason}` : ""})` : `could not connect to ${url}`, reject);
      const onError = () => {
        if (!opened) lost(path, c, socket, `could not connect to ${url}`, reject);
      };
      socket.addEventListener("open", onOpen);
      socket.addEventListener("message", onMessage);
      socket.addEventListener("close", onClose);
      socket.addEventListener("error", onError);
      c.detach = () => {
        socket.removeEventListener("open", onOpen);
        socket.removeEventListener("message", onMessage);
        socket.removeEventListener("close", onClose);
        socket.removeEventListener("error", onError);
      };
    });
    return c.ready;
  }

  /** The socket is gone (closed, failed, or declared half-open): fail what waits on it, and reconnect if anything is subscribed. */
  function lost(path: string, c: Connection, socket: WebSocketLike, why: string, rejectOpen?: (error: unknown) => void): void {
    if (c.socket !== socket) return;
    c.detach?.();
    c.detach = undefined;
    c.socket = undefined;
    c.ready = undefined;
    stopKeepAlive(c);
    drop(socket);
    const url = path;
    rejectOpen?.(new NetworkError(why, request("connect", url)));
    for (const [id, p] of c.pending) {
      c.pending.delete(id);
      p.cleanup();
      p.reject(new NetworkError(`${p.method.method}: ${why} before the reply`, request(p.method.method, url)));
    }
    c.byServerId.clear();
    for (const s of c.subs) s.id = undefined;
    if (c.subs.size > 0 && !closed) scheduleReconnect(path, c, why);
  }

  function scheduleReconnect(path: string, c: Connection, why: string): void {
    if (c.reconnectTimer !== undefined) return;
    if (!reconnect || c.attempts >= reconnect.retries) {
      const error = new NetworkError(`${why}; ${reconnect ? `gave up after ${c.attempts} reconnect attempts` : "reconnecting is off"}`, request("connect", path));
      for (const s of [...c.subs]) s.fail(error);
      return;
    }
    c.attempts++;
    const ceiling = Math.min(reconnect.maxDelayMs, reconnect.baseDelayMs * 2 ** (c.attempts - 1));
    const delay = ceiling / 2 + (Math.random() * ceiling) / 2;
    c.reconnectTimer = setTimeout(() => {
      c.reconnectTimer = undefined;
      if (closed || c.subs.size === 0) return;
      open(path, c).then(
        async () => {
          const attempts = c.attempts;
          c.attempts = 0;
          for (const s of [...c.subs]) {
            try {
              s.resuming(attempts);
              await resubscribe(path, c, s);
              if (c.subs.has(s)) s.resumed();
            } catch (error) {
              if (c.subs.has(s)) s.fail(error instanceof AvaspecError ? error : new AvaspecError(String(error), undefined, { cause: error }));
            }
          }
        },
        () => {
          // lost() scheduled the next attempt (or gave up)
        },
      );
    }, delay);
  }

  function startKeepAlive(path: string, c: Connection): void {
    if (!keepAlive || !probe) return;
    stopKeepAlive(c);
    c.keepAlive = setInterval(() => {
      const socket = c.socket;
      if (!socket || c.probing || Date.now() - c.lastMessage < keepAlive.intervalMs) return;
      c.probing = true;
      send(path, c, probe, {}, numbers, keepAlive.timeoutMs).then(
        () => (c.probing = false),
        () => {
          c.probing = false;
          // no answer in time: half-open; drop it (lost() reconnects)
          if (c.socket === socket) lost(path, c, socket, `no answer to the keep-alive probe within ${keepAlive.timeoutMs} ms (half-open connection)`);
        },
      );
    }, Math.max(50, Math.min(keepAlive.intervalMs, keepAlive.timeoutMs)));
  }

  function stopKeepAlive(c: Connection): void {
    if (c.keepAlive !== undefined) clearInterval(c.keepAlive);
    c.keepAlive = undefined;
  }

  /** Closes the socket when nothing waits on it and nothing is subscribed. */
  function idle(path: string, c: Connection): void {
    if (c.pending.size > 0 || c.subs.size > 0 || !c.socket) return;
    const socket = c.socket;
    c.detach?.();
    c.detach = undefined;
    c.socket = undefined;
    c.ready = undefined;
    stopKeepAlive(c);
    quiet(socket);
    try {
      socket.close(1000, "idle");
    } catch {
      // already closing
    }
  }

  function receive(c: Connection, url: string, data: unknown): void {
    const text = typeof data === "string" ? data : data instanceof ArrayBuffer ? new TextDecoder().decode(data) : ArrayBuffer.isView(data) ? new TextDecoder().decode(data) : String(data);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not JSON: nothing to match it to
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof message !== "object" || message === null) continue;
      const m = message as Record<string, unknown>;
      if (typeof m["method"] === "string" && m["id"] === undefined) {
        const params = m["params"] as Record<string, unknown> | undefined;
        const sub = typeof params?.["subscription"] === "string" ? c.byServerId.get(params["subscription"]) : undefined;
        if (sub && m["method"] === sub.kind.notification) sub.push(params!["result"]);
        continue;
      }
      const id = m["id"];
      const p = typeof id === "number" ? c.pending.get(id) : undefined;
      if (!p) continue;
      c.pending.delete(id as number);
      p.cleanup();
      let value: unknown;
      try {
        value = readReply(p.method, m, request(p.method.method, url), 101, { checks, validateResponse, numbers: p.numbers });
      } catch (error) {
        p.reject(overflowError(error, request(p.method.method, url)));
        continue;
      }
      p.sync?.(value);
      p.resolve(value);
    }
  }

  /** Sends one call (or, with `into`, adds it to a batch being built) and waits for its reply. */
  function send(path: string, c: Connection, m: RpcMethod, params: unknown, callNumbers: Numbers, callTimeout = timeoutMs, signal?: AbortSignal, into?: { envelope: unknown }[], sync?: (value: unknown) => void): Promise<unknown> {
    const url = path;
    const id = nextId++;
    let envelope: unknown;
    let text: string;
    try {
      envelope = { jsonrpc: "2.0", id, method: m.method, params: serializeParams(m, params as object | undefined, url) };
      text = JSON.stringify(envelope);
    } catch (error) {
      return Promise.reject(overflowError(error, request(m.method, url)));
    }
    warnDeprecated(m.deprecated);
    m.deprecatedValues?.(params, warnDeprecated);
    return new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortError(`${m.method}: aborted by the caller`, request(m.method, url), { cause: signal.reason }));
      const onAbort = () => {
        c.pending.delete(id);
        cleanup();
        reject(new AbortError(`${m.method}: aborted by the caller`, request(m.method, url), { cause: signal?.reason }));
      };
      const timer =
        callTimeout > 0 && Number.isFinite(callTimeout)
          ? setTimeout(() => {
              c.pending.delete(id);
              cleanup();
              reject(new TimeoutError(`${m.method}: no reply within ${callTimeout} ms`, request(m.method, url), callTimeout));
            }, callTimeout)
          : undefined;
      const cleanup = () => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      c.pending.set(id, { method: m, numbers: callNumbers, resolve, reject, timer, cleanup, ...(sync ? { sync } : {}) });
      if (into) into.push({ envelope });
      else
        open(path, c).then(
          () => c.socket?.send(text),
          (error: unknown) => {
            if (c.pending.delete(id)) {
              cleanup();
              reject(error);
            }
          },
        );
    });
  }

  const call: RpcCall = <P, R>(m: RpcMethod<P, R>, params: P, callOptions?: { signal?: AbortSignal; timeoutMs?: number; numbers?: Numbers }) => {
    try {
      const path = pathOf(m.endpoint, m.method);
      return send(path, connection(path), m, params, callOptions?.numbers ?? numbers, callOptions?.timeoutMs ?? timeoutMs, callOptions?.signal) as Promise<R>;
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
        return send(path, connection(path), m, params, callOptions?.numbers ?? numbers, timeoutMs, undefined, list) as Promise<R>;
      } catch (error) {
        return Promise.reject(error);
      }
    };
    const calls = build(collect);
    for (const [path, list] of byPath) {
      const c = connection(path);
      open(path, c).then(
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

  async function resubscribe(path: string, c: Connection, s: Active): Promise<void> {
    if (!c.subs.has(s)) return;
    const k = s.kind;
    const m: RpcMethod = { method: k.subscribe, endpoint: k.endpoint, form: "by-position", params: [{ name: "kind", required: true }, ...k.params.map((name) => ({ name }))] };
    let given: Record<string, unknown> = {};
    k.params.forEach((name, i) => {
      if (s.params[i] !== undefined) given[name] = s.params[i];
    });
    if (k.paramIntegers) given = k.paramIntegers(given, k.subscribe, "WS", path);
    // the id is registered as the reply is read: notifications may follow in the same network chunk
    const id = await send(path, c, m, { kind: k.kind, ...given }, "string", timeoutMs, undefined, undefined, (value) => {
      if (typeof value === "string" && c.subs.has(s)) {
        s.id = value;
        c.byServerId.set(value, s);
      }
    });
    if (typeof id !== "string") throw new AvaspecError(`${k.subscribe}: the subscription id ${JSON.stringify(id)} is not a string`, request(k.subscribe, path));
    if (!c.subs.has(s)) {
      // unsubscribed meanwhile: tell the server too, and close the socket if nothing else needs it
      forget(c, k, id);
      idle(path, c);
      return;
    }
    s.id = id;
    c.byServerId.set(id, s);
  }

  function subscribe<P, T>(kind: SubscriptionKind<P, T>, params: P, subOptions: SubscribeOptions<T> = {}): Subscription<T> {
    const path = pathOf(kind.endpoint, kind.subscribe);
    const c = connection(path);
    const where = request(kind.subscribe, path);
    const paramList = Array.isArray(params) ? (params as unknown[]) : kind.params.map((name) => (params as Record<string, unknown> | undefined)?.[name]);
    const consumer = createConsumer<T>({
      kind: kind.kind,
      request: where,
      options: subOptions,
      buffer: { size: Math.max(1, subOptions.buffer?.size ?? ws.buffer?.size ?? 10_000), overflow: subOptions.buffer?.overflow ?? ws.buffer?.overflow ?? "error" },
      decode: (v) => (numbers === "bigint" && kind.resultIntegers ? kind.resultIntegers(v) : v) as T,
      release,
    });
    const gap = fillerOf(kind as SubscriptionKind, paramList);
    const active: Active = {
      kind: kind as SubscriptionKind,
      params: paramList,
      id: undefined,
      push: (payload) => gap.push(payload),
      resuming: (attempts) => gap.resuming(attempts),
      resumed: () => gap.resumed(),
      fail: (error) => consumer.fail(error),
    };
    const fail = (error: unknown) => consumer.fail(error instanceof AvaspecError ? error : new AvaspecError(String(error), undefined, { cause: error }));
    gap.bind({
      admit: payloadGate({ kind: kind as SubscriptionKind, mode: validateResponse, checks, request: where, drop: (e) => consumer.invalid(e), fail: (e) => consumer.fail(e) }),
      deliver: (payload) => consumer.deliver(payload),
      fetch: (m, p) => send(path, c, m, p, "string"),
      reorg: (info) => consumer.notify("onReorg", info),
      reconnected: (info) => consumer.notify("onReconnect", info),
      fail,
      get ended() {
        return consumer.ended;
      },
    });

    /** The subscription ended (any way): the transport lets go of it, and tells the node. */
    function release(): void {
      c.subs.delete(active);
      if (active.id !== undefined) {
        c.byServerId.delete(active.id);
        forget(c, kind as SubscriptionKind, active.id);
        active.id = undefined;
      }
      subOptions.signal?.removeEventListener("abort", onAbort);
      if (c.subs.size === 0 && c.reconnectTimer !== undefined) {
        clearTimeout(c.reconnectTimer);
        c.reconnectTimer = undefined;
        c.attempts = 0;
      }
      queueMicrotask(() => idle(path, c));
    }

    const onAbort = () => consumer.end();
    if (subOptions.signal?.aborted) consumer.end();
    else {
      subOptions.signal?.addEventListener("abort", onAbort, { once: true });
      c.subs.add(active);
      // each step only while the subscription lives: one ended meanwhile is never made on the node
      open(path, c)
        .then(() => (consumer.ended ? undefined : gap.starting()))
        .then(() => resubscribe(path, c, active))
        .then(() => consumer.ended || gap.started(), (error: unknown) => {
          if (consumer.ended) return;
          // the first connection failed: retry like a lost one, unless reconnecting is off
          if (error instanceof NetworkError && reconnect && !closed) scheduleReconnect(path, c, error.message);
          else fail(error);
        });
    }

    return {
      get id() {
        return active.id;
      },
      get dropped() {
        return consumer.dropped;
      },
      get invalid() {
        return consumer.rejected;
      },
      async unsubscribe() {
        consumer.end();
      },
      [Symbol.asyncIterator]: () => consumer.iterator,
    };
  }

  /**
   * Tells the node a subscription is over, without waiting for its answer:
   * the reply, if any, matches nothing and is ignored. Waiting would keep
   * the socket (and its timers) open for the whole call timeout when the
   * node never answers; the socket closes once nothing else needs it, which
   * ends the subscription on the node anyway.
   */
  function forget(c: Connection, k: SubscriptionKind, id: string): void {
    if (c.socket?.readyState !== OPEN) return;
    try {
      c.socket.send(JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: k.unsubscribe, params: [id] }));
    } catch {
      // the socket is closing: the node ends the subscription with it
    }
  }

  async function close(): Promise<void> {
    closed = true;
    for (const [path, c] of connections) {
      for (const s of [...c.subs]) s.fail(new AbortError(`${s.kind.kind}: the transport was closed`, request(s.kind.subscribe, path)));
      if (c.reconnectTimer !== undefined) clearTimeout(c.reconnectTimer);
      c.reconnectTimer = undefined;
      const socket = c.socket;
      if (socket) lost(path, c, socket, "the transport was closed");
    }
    connections.clear();
    closed = false;
  }

  return { call, batch, subscribe, close };
}
