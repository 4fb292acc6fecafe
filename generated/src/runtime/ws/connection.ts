/**
 * What the parts of the WebSocket transport share: the state of one
 * connection (the socket to one WebSocket path, the calls waiting on it, the
 * subscriptions it carries) and the transport's settings and state (`WsCore`).
 *
 * The parts, lowest first: socket.ts opens, loses, reopens and idles the
 * socket; calls.ts sends calls and matches replies by id; keep-alive.ts
 * probes a quiet socket; subscriptions.ts makes subscriptions and remakes
 * them after a reconnect; ws.ts puts them together. The socket layer does
 * not import the layers above it: what the socket brings (a message, an
 * opening, a reopening) reaches them through the core's hooks.
 */
import type { AvaspecError, RequestInfo } from "../errors/errors.js";
import type { ResponseValidation, ResultChecks } from "../http/http.js";
import type { RpcMethod } from "../jsonrpc/jsonrpc.js";
import type { Numbers } from "../values/numbers.js";
import type { SubscriptionKind, WebSocketLike, WebSocketOptions } from "./types.js";

/** `WebSocket.OPEN`. */
export const OPEN = 1;

export interface PendingCall {
  method: RpcMethod;
  numbers: Numbers;
  /** Runs with the result in the message handler itself, before any later message of the same chunk (a subscribe registers its id there). */
  sync?: (value: unknown) => void;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  cleanup(): void;
}

/** A live subscription, as the connection that carries it sees it. */
export interface Active {
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
export interface Connection {
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

export function newConnection(): Connection {
  return { socket: undefined, ready: undefined, pending: new Map(), subs: new Set(), byServerId: new Map(), lastMessage: 0, keepAlive: undefined, probing: false, reconnectTimer: undefined, attempts: 0, detach: undefined };
}

/** The transport's settings (its options with their defaults applied), its state, and the hooks by which the socket layer reaches the layers above. */
export interface WsCore {
  readonly options: WebSocketOptions;
  /** Base URL of the WebSocket endpoints, without a trailing slash. */
  readonly base: string;
  readonly checks: ResultChecks | undefined;
  readonly validateResponse: ResponseValidation;
  readonly numbers: Numbers;
  readonly timeoutMs: number;
  readonly keepAlive: { readonly intervalMs: number; readonly timeoutMs: number } | undefined;
  readonly reconnect: { readonly retries: number; readonly baseDelayMs: number; readonly maxDelayMs: number } | undefined;
  /** The cheap call keep-alive sends. */
  readonly probe: RpcMethod | undefined;
  readonly warnDeprecated: (message: string | undefined) => void;
  /** The id of the next message sent: calls and unsubscribes draw from one sequence. */
  nextId: number;
  /** Set while `close()` runs: nothing reconnects. */
  closed: boolean;
  /** The socket opened (keep-alive starts). */
  opened(path: string, c: Connection): void;
  /** A message arrived (replies and notifications are matched). */
  receive(c: Connection, url: string, data: unknown): void;
  /** The socket was reopened after `attempts` reconnect attempts (the subscriptions are made again). */
  resume(path: string, c: Connection, attempts: number): Promise<void>;
}

export const request = (method: string, url: string): RequestInfo => ({ operationId: method, method: "WS", url });

export function stopKeepAlive(c: Connection): void {
  if (c.keepAlive !== undefined) clearInterval(c.keepAlive);
  c.keepAlive = undefined;
}
