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
 * in order, reorgs reported), logs by block range with the same filter,
 * deduplicated by `(blockHash, logIndex)`. A slow consumer gets a bounded
 * buffer: an overflow error (default) or the oldest events dropped.
 *
 * No dependency: `globalThis.WebSocket` (browsers, Node ≥ 22) or the
 * constructor given as `WebSocket` (e.g. from the `ws` package on Node 20).
 */
import { AbortError, AvaspecError, NetworkError, TimeoutError, type RequestInfo } from "./errors.js";
import { deprecationNotice, requireResults, type ResultChecks } from "./http.js";
import { readReply, serializeParams, type BatchResults, type RpcCall, type RpcClientOptions, type RpcMethod, type RpcTransport } from "./jsonrpc.js";
import type { Decoder, Encoder, Numbers } from "./numbers.js";
import { hasOwn } from "./validate.js";

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
 * `extra` params after it). `range`: payloads carry a `blockNumber` and are
 * told apart by `key`; the missed range is fetched with `method` (a filter
 * object, `filterParam` of the kind's params, extended with `fromBlock`/
 * `toBlock`), up to the head `head` answers.
 */
export type Backfill =
  | { readonly by: "blocks"; readonly method: RpcMethod; readonly extra: readonly unknown[] }
  | { readonly by: "range"; readonly method: RpcMethod; readonly head: RpcMethod; readonly filterParam: string | undefined; readonly key: readonly string[] };

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
  /** Callback form: each event; no buffering. */
  onData?(value: T): void;
  /** The subscription failed for good (it has ended). */
  onError?(error: AvaspecError): void;
  /** After a reconnect, once the gap is backfilled. */
  onReconnect?(info: ReconnectInfo): void;
  /** A delivered block was replaced (found when the chain is stitched after a gap or by parent hash). */
  onReorg?(info: ReorgInfo): void;
  buffer?: SubscriptionBuffer;
}

export interface Subscription<T> extends AsyncIterable<T> {
  /** The server's current subscription id (it changes with each reconnect). */
  readonly id: string | undefined;
  /** Events dropped under `overflow: "drop-oldest"`. */
  readonly dropped: number;
  unsubscribe(): Promise<void>;
}

/** A subscription's consumer fell behind and its buffer filled up. */
export class SubscriptionOverflowError extends AvaspecError {
  override name = "SubscriptionOverflowError";
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

/** The unsubscribe call of a subscription kind (its id, by position). */
const unsubscribeMethod = (k: SubscriptionKind): RpcMethod => ({ method: k.unsubscribe, endpoint: k.endpoint, form: "by-position", params: [{ name: "id", required: true }] });

/** Ends a socket that is (or may be) dead at once: `terminate()` where the implementation has it (ws on Node), else `close()`. */
function drop(socket: WebSocketLike): void {
  try {
    const terminate = (socket as { terminate?: () => void }).terminate;
    if (typeof terminate === "function") terminate.call(socket);
    else if (socket.readyState <= OPEN) socket.close();
  } catch {
    // already closing
  }
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
              s.resumed();
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
        p.reject(error);
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
      return Promise.reject(error);
    }
    warnDeprecated(m.deprecated);
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
      // unsubscribed meanwhile: tell the server too
      void send(path, c, unsubscribeMethod(k), { id }, "string").catch(() => undefined);
      return;
    }
    s.id = id;
    c.byServerId.set(id, s);
  }

  function subscribe<P, T>(kind: SubscriptionKind<P, T>, params: P, subOptions: SubscribeOptions<T> = {}): Subscription<T> {
    const path = pathOf(kind.endpoint, kind.subscribe);
    const c = connection(path);
    const size = Math.max(1, subOptions.buffer?.size ?? ws.buffer?.size ?? 10_000);
    const overflow = subOptions.buffer?.overflow ?? ws.buffer?.overflow ?? "error";
    const decode = (v: unknown) => (numbers === "bigint" && kind.resultIntegers ? kind.resultIntegers(v) : v) as T;
    const queue: T[] = [];
    let waiter: { resolve(r: IteratorResult<T>): void; reject(e: unknown): void } | undefined;
    let failure: AvaspecError | undefined;
    let ended = false;
    let dropped = 0;
    const paramList = Array.isArray(params) ? (params as unknown[]) : kind.params.map((name) => (params as Record<string, unknown> | undefined)?.[name]);
    const gap = gapFiller(kind, paramList);

    const deliver = (payload: unknown) => {
      if (ended) return;
      const value = decode(payload);
      if (subOptions.onData) {
        subOptions.onData(value);
        return;
      }
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w.resolve({ value, done: false });
        return;
      }
      if (queue.length >= size) {
        if (overflow === "drop-oldest") {
          queue.shift();
          dropped++;
        } else {
          fail(new SubscriptionOverflowError(`${kind.kind}: the consumer fell ${size} events behind (buffer.size); the subscription ended`, request(kind.subscribe, path)));
          return;
        }
      }
      queue.push(value);
    };

    const finish = () => {
      if (ended) return;
      ended = true;
      c.subs.delete(active);
      if (active.id !== undefined) {
        c.byServerId.delete(active.id);
        const id = active.id;
        active.id = undefined;
        if (c.socket?.readyState === OPEN) {
          void send(path, c, unsubscribeMethod(kind), { id }, "string")
            .catch(() => undefined)
            .finally(() => idle(path, c));
        }
      }
      subOptions.signal?.removeEventListener("abort", onAbort);
      if (c.subs.size === 0 && c.reconnectTimer !== undefined) {
        clearTimeout(c.reconnectTimer);
        c.reconnectTimer = undefined;
        c.attempts = 0;
      }
      queueMicrotask(() => idle(path, c));
    };

    const fail = (error: AvaspecError) => {
      if (ended) return;
      failure = error;
      finish();
      subOptions.onError?.(error);
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        w.reject(error);
      }
    };

    const active: Active = {
      kind: kind as SubscriptionKind,
      params: paramList,
      id: undefined,
      push: (payload) => gap.push(payload),
      resuming: (attempts) => gap.resuming(attempts),
      resumed: () => gap.resumed(),
      fail,
    };
    gap.bind({
      deliver,
      fetch: (m, p) => send(path, c, m, p, "string"),
      reorg: (info) => subOptions.onReorg?.(info),
      reconnected: (info) => subOptions.onReconnect?.(info),
      fail: (error) => fail(error instanceof AvaspecError ? error : new AvaspecError(String(error), undefined, { cause: error })),
    });

    const onAbort = () => finish();
    if (subOptions.signal?.aborted) ended = true;
    else {
      subOptions.signal?.addEventListener("abort", onAbort, { once: true });
      c.subs.add(active);
      open(path, c)
        .then(() => gap.starting())
        .then(() => resubscribe(path, c, active))
        .then(() => gap.started(), (error: unknown) => {
          if (ended) return;
          // the first connection failed: retry like a lost one, unless reconnecting is off
          if (error instanceof NetworkError && reconnect && !closed) scheduleReconnect(path, c, error.message);
          else fail(error instanceof AvaspecError ? error : new AvaspecError(String(error), undefined, { cause: error }));
        });
    }

    const iterator: AsyncIterator<T> = {
      next() {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
        if (failure) return Promise.reject(failure);
        if (ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (waiter = { resolve, reject }));
      },
      return() {
        finish();
        if (waiter) {
          const w = waiter;
          waiter = undefined;
          w.resolve({ value: undefined, done: true });
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
    const endWaiter = () => {
      if (waiter && ended && queue.length === 0) {
        const w = waiter;
        waiter = undefined;
        if (failure) w.reject(failure);
        else w.resolve({ value: undefined, done: true });
      }
    };
    return {
      get id() {
        return active.id;
      },
      get dropped() {
        return dropped;
      },
      async unsubscribe() {
        finish();
        endWaiter();
      },
      [Symbol.asyncIterator]: () => iterator,
    };
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

// ---- gap filling -------------------------------------------------------------------------------

interface GapSink {
  deliver(payload: unknown): void;
  fetch(m: RpcMethod, params: unknown): Promise<unknown>;
  reorg(info: ReorgInfo): void;
  reconnected(info: ReconnectInfo): void;
  fail(error: unknown): void;
}

interface GapFiller {
  bind(sink: GapSink): void;
  /** A notification's payload (wire form). */
  push(payload: unknown): void;
  /** Before the first subscribe: where the subscription begins (notifications wait from now). */
  starting(): Promise<void>;
  /** The first subscribe succeeded: cover what happened between `starting` and it, then let notifications through. */
  started(): void;
  /** About to resubscribe after `attempts` reconnect attempts: notifications wait from now. */
  resuming(attempts: number): void;
  /** Resubscribed: fill what was missed, then let the waiting notifications through. */
  resumed(): void;
}

/** A backfill that failed because the connection dropped again waits for the next reconnect; other failures end the subscription. */
const retryLater = (sink: GapSink) => (error: unknown) => {
  if (!(error instanceof NetworkError) && !(error instanceof TimeoutError)) sink.fail(error);
};

const toBig = (v: unknown): bigint | undefined => {
  if (typeof v !== "string" || !/^(0[xX][0-9a-fA-F]+|[0-9]+)$/.test(v)) return undefined;
  return BigInt(v);
};
const hex = (n: bigint) => `0x${n.toString(16)}`;

function gapFiller(kind: SubscriptionKind, params: readonly unknown[]): GapFiller {
  const b = kind.backfill;
  if (b?.by === "blocks") return blockGaps(b);
  if (b?.by === "range") return rangeGaps(kind, b, params);
  // nothing to fill: events pass through
  let sink: GapSink | undefined;
  let attempts = 0;
  return {
    bind: (s) => (sink = s),
    push: (p) => sink?.deliver(p),
    starting: () => Promise.resolve(),
    started: () => undefined,
    resuming: (n) => (attempts = n),
    resumed: () => sink?.reconnected({ attempts, backfilled: 0 }),
  };
}

/**
 * Heads: delivered in number order, each once (by hash). A head that skips
 * numbers is preceded by the missed blocks, fetched by number; a head (or
 * fetched block) whose parent hash is not the hash delivered at the number
 * before, or a second hash for a number already delivered, is a reorg.
 */
function blockGaps(b: Extract<Backfill, { by: "blocks" }>): GapFiller {
  let sink!: GapSink;
  let last: bigint | undefined;
  const hashes = new Map<bigint, string>();
  let busy: Promise<void> = Promise.resolve();
  let resumeAttempts: number | undefined;
  const remember = (n: bigint, hash: string) => {
    hashes.set(n, hash);
    for (const k of hashes.keys()) if (k < n - 256n) hashes.delete(k);
  };
  const fetchHeader = async (k: bigint | "latest"): Promise<Record<string, unknown> | undefined> => {
    const args: Record<string, unknown> = { [b.method.params[0]?.name ?? "block"]: typeof k === "bigint" ? hex(k) : k };
    b.extra.forEach((v, i) => (args[b.method.params[i + 1]?.name ?? String(i + 1)] = v));
    const block = (await sink.fetch(b.method, args)) as Record<string, unknown> | null;
    if (block === null || typeof block !== "object") return undefined;
    const { transactions: _t, uncles: _u, size: _s, ...header } = block;
    return header;
  };
  const deliver = (block: Record<string, unknown>, n: bigint, hash: string) => {
    remember(n, hash);
    last = n;
    sink.deliver(block);
  };
  /**
   * The block before `block` is not the one delivered at its number: walk
   * back by number until the node's chain meets the delivered one, report
   * the reorg at the lowest replaced height, and deliver the node's blocks
   * from there (so the consumer ends on the canonical chain).
   */
  const repair = async (below: bigint): Promise<number> => {
    const replacement: Record<string, unknown>[] = [];
    let k = below;
    for (; hashes.has(k); k--) {
      const header = await fetchHeader(k);
      if (!header || header["hash"] === hashes.get(k)) break;
      replacement.unshift(header);
    }
    if (replacement.length === 0) return 0;
    const first = replacement[0]!;
    const at = toBig(first["number"])!;
    sink.reorg({ number: at, replacedHash: hashes.get(at)!, newHash: String(first["hash"]) });
    for (const key of [...hashes.keys()]) if (key >= at) hashes.delete(key);
    for (const header of replacement) deliver(header, toBig(header["number"])!, String(header["hash"]));
    return replacement.length;
  };
  /** Delivers a head or fetched block in order; false for one delivered already. */
  const accept = async (block: Record<string, unknown>): Promise<number> => {
    const n = toBig(block["number"]);
    const hash = block["hash"];
    if (n === undefined || typeof hash !== "string") {
      sink.deliver(block);
      return 1;
    }
    const known = hashes.get(n);
    if (known === hash) return 0; // delivered already
    let repaired = 0;
    if (known !== undefined || (last !== undefined && n <= last)) {
      // the node went back: a second hash for a height already delivered
      repaired = await repair(n);
      if (hashes.get(n) === hash) return repaired;
    } else if (last !== undefined && n === last + 1n && typeof block["parentHash"] === "string" && hashes.has(last) && block["parentHash"] !== hashes.get(last)) {
      repaired = await repair(last);
    }
    deliver(block, n, hash);
    return repaired + 1;
  };
  /** A head (a notification, or after a reconnect the node's latest block, `missed`): the gap before it filled first. */
  const handle = async (payload: unknown, missed = false) => {
    if (typeof payload !== "object" || payload === null) return sink.deliver(payload);
    const head = payload as Record<string, unknown>;
    const n = toBig(head["number"]);
    const attempts = resumeAttempts;
    let backfilled = 0;
    const from = last === undefined ? undefined : last + 1n;
    if (n !== undefined && from !== undefined && n > from) {
      for (let k = from; k < n; k++) {
        const header = await fetchHeader(k);
        if (!header) break;
        backfilled += await accept(header);
      }
    }
    resumeAttempts = undefined;
    const delivered = await accept(head);
    backfilled += Math.max(0, delivered - (missed ? 0 : 1));
    const to = n === undefined ? undefined : missed ? n : n - 1n;
    if (attempts !== undefined) sink.reconnected({ attempts, ...(from !== undefined && to !== undefined && to >= from ? { missedFrom: from, missedTo: to } : {}), backfilled });
  };
  return {
    bind: (s) => (sink = s),
    push: (payload) => {
      busy = busy.then(() => handle(payload)).catch(retryLater(sink));
    },
    starting: () => Promise.resolve(),
    started: () => undefined,
    resuming: (attempts) => (resumeAttempts = attempts),
    // the node's latest block stands for the first head after the reconnect: the gap up to it is filled now,
    // not when the next block comes (its notification, if it is the same block, is then a duplicate)
    resumed: () => {
      busy = busy
        .then(async () => {
          const latest = await fetchHeader("latest");
          if (latest) await handle(latest, true);
        })
        .catch(retryLater(sink));
    },
  };
}

/**
 * Logs (and other block-numbered events): delivered each once, by key. A
 * reconnect fetches the range from the last block delivered (or the head at
 * subscription time) to the current head with the subscription's filter;
 * notifications arriving meanwhile wait, and duplicates are skipped.
 */
function rangeGaps(kind: SubscriptionKind, b: Extract<Backfill, { by: "range" }>, params: readonly unknown[]): GapFiller {
  let sink!: GapSink;
  let cursor: bigint | undefined;
  const seen = new Map<bigint, Set<string>>();
  const blockHashes = new Map<bigint, string>();
  let busy: Promise<void> = Promise.resolve();
  let held: unknown[] | undefined;
  let attempts = 0;
  /** Whether events of block `cursor` were delivered one by one (it may be incomplete): the next range starts there, else after it. */
  let partial = false;
  const keyOf = (e: Record<string, unknown>) => b.key.map((k) => String(e[k])).join("|");
  const accept = (event: unknown): boolean => {
    if (typeof event !== "object" || event === null) {
      sink.deliver(event);
      return true;
    }
    const e = event as Record<string, unknown>;
    const n = toBig(e["blockNumber"]);
    if (n === undefined) {
      sink.deliver(e);
      return true;
    }
    if (e["removed"] !== true) {
      const keys = seen.get(n) ?? new Set<string>();
      const key = keyOf(e);
      if (keys.has(key)) return false;
      keys.add(key);
      seen.set(n, keys);
      const hash = e["blockHash"];
      const known = blockHashes.get(n);
      if (typeof hash === "string") {
        if (known !== undefined && known !== hash) sink.reorg({ number: n, replacedHash: known, newHash: hash });
        blockHashes.set(n, hash);
      }
    }
    if (cursor === undefined || n > cursor) {
      cursor = n;
      partial = true;
    } else if (n === cursor) partial = true;
    for (const k of seen.keys()) if (k < n - 64n) (seen.delete(k), blockHashes.delete(k));
    sink.deliver(e);
    return true;
  };
  const filterIndex = b.filterParam === undefined ? -1 : kind.params.indexOf(b.filterParam);
  const filter = (filterIndex >= 0 && typeof params[filterIndex] === "object" && params[filterIndex] !== null ? params[filterIndex] : {}) as Record<string, unknown>;
  /** Fetches the range from the cursor to the current head, delivers it, then lets the held notifications through. */
  const catchUp = async (): Promise<ReconnectInfo> => {
    const head = toBig(await sink.fetch(b.head, {}));
    let info: ReconnectInfo = { attempts, backfilled: 0 };
    if (cursor === undefined) cursor = head;
    const from = cursor === undefined ? undefined : partial ? cursor : cursor + 1n;
    if (head !== undefined && from !== undefined && head >= from) {
      const events = (await sink.fetch(b.method, rangeParams({ ...filter, fromBlock: hex(from), toBlock: hex(head) }))) as unknown[];
      let backfilled = 0;
      for (const e of Array.isArray(events) ? events : []) if (accept(e)) backfilled++;
      // the range is complete up to the head
      cursor = head;
      partial = false;
      info = { attempts, missedFrom: from, missedTo: head, backfilled };
    }
    const waiting = held ?? [];
    held = undefined;
    for (const e of waiting) accept(e);
    return info;
  };
  // the range call's params: the filter itself (one-object form, as eth_getLogs) or under its param name
  const rangeParams = (f: Record<string, unknown>) => (b.method.form === "one-object" ? f : { [b.method.params[0]?.name ?? "filter"]: f });
  return {
    bind: (s) => (sink = s),
    push: (payload) => {
      if (held) held.push(payload);
      else busy = busy.then(() => void accept(payload)).catch(retryLater(sink));
    },
    starting: async () => {
      // where the subscription begins: events of later blocks are its own
      held ??= [];
      if (cursor === undefined) {
        const head = toBig(await sink.fetch(b.head, {}));
        if (head !== undefined) cursor = head;
      }
    },
    started: () => {
      // blocks made between the head above and the subscribe: fetched, so the stream starts without a gap
      busy = busy
        .then(async () => {
          await catchUp();
        })
        .catch(retryLater(sink));
    },
    resuming: (n) => {
      attempts = n;
      held ??= [];
    },
    resumed: () => {
      busy = busy
        .then(async () => {
          sink.reconnected(await catchUp());
        })
        .catch(retryLater(sink));
    },
  };
}
