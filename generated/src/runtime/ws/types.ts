/**
 * The WebSocket transport's public types: what a caller configures
 * (`WebSocketOptions`), what the generator describes (`SubscriptionKind`,
 * `Backfill`, `WsPath`) and what a subscription gives back. They sit below
 * every part of the transport (ws.ts and the modules it is made of), so that
 * each part can name them without importing the transport itself.
 */
import type { ReconnectOptions as StreamReconnectOptions } from "../stream/backoff.js";
import type { ConsumerOptions, StreamBuffer } from "../stream/consumer.js";
import type { RpcMethod, RpcTransport } from "../jsonrpc/jsonrpc.js";
import type { Decoder, Encoder } from "../values/numbers.js";

/** What the transport needs of a WebSocket: the standard browser API, which `ws` (Node) also implements. */
/**
 * What the transport reads of a socket event. `type` is there because every
 * event has one: a type of optional members alone is a "weak type" to
 * TypeScript, which then refuses an event type sharing none of them (the `ws`
 * package's `ErrorEvent`), and with it `ws`'s WebSocket class as a constructor.
 */
export interface WebSocketEventLike {
  readonly type?: string;
  readonly data?: unknown;
  readonly code?: number;
  readonly reason?: string;
}

export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "close" | "error" | "message", listener: (event: WebSocketEventLike) => void): void;
  removeEventListener(type: "open" | "close" | "error" | "message", listener: (event: WebSocketEventLike) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** How a lost connection is made again (stream/backoff.ts, shared with the HTTP event streams). */
export type ReconnectOptions = StreamReconnectOptions;

export interface KeepAliveOptions {
  /** Send a probe when nothing arrived for this long (default 15 s). */
  intervalMs?: number;
  /** A probe unanswered for this long means the socket is half-open: it is dropped and reconnected (default 10 s). */
  timeoutMs?: number;
}

/** A subscription's buffer: the one every stream's consumer has (stream/consumer.ts). */
export type SubscriptionBuffer = StreamBuffer;

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
 * is found by comparing block hashes (see logs.ts).
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

/** A subscription's options: every stream's (`signal`, `onData`, `onError`, `onInvalid`, `buffer`), and its own notices. */
export interface SubscribeOptions<T> extends ConsumerOptions<T> {
  /** After a reconnect, once the gap is backfilled. */
  onReconnect?(info: ReconnectInfo): void;
  /** A delivered block was replaced (found when the chain is stitched after a gap or by parent hash): what was delivered from `number` on is void. */
  onReorg?(info: ReorgInfo): void;
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

/** Where an endpoint's WebSocket form is: `path` below the base URL, or, with `fromOrigin`, below its origin (a document whose base URL is its HTTP endpoint). */
export interface WsPath {
  readonly path: string;
  readonly fromOrigin?: boolean;
}
