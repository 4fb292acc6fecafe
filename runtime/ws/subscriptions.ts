/**
 * Subscriptions over a connection: made with the kind's subscribe method
 * (the server's id is registered as its reply is read, since notifications
 * may follow in the same network chunk), made again after each reconnect,
 * and ended on the node when the consumer lets go. Between the
 * notifications, the kind's gap filler (gaps.ts, logs.ts) orders, checks
 * (payloads.ts) and backfills what the consumer (consumer.ts) receives.
 */
import { AvaspecError, NetworkError } from "../errors/errors.js";
import type { RpcMethod } from "../jsonrpc/jsonrpc.js";
import { OPEN, request, type Active, type Connection, type WsCore } from "./connection.js";
import { createConsumer } from "../stream/consumer.js";
import { blockGaps, passThrough, type GapFiller } from "./gaps.js";
import { logGaps } from "./logs.js";
import { payloadGate } from "./payloads.js";
import { send } from "./calls.js";
import { idle, open, scheduleReconnect } from "./socket.js";
import type { SubscribeOptions, Subscription, SubscriptionKind } from "./types.js";

/** The gap filler of a subscription kind (gaps.ts, logs.ts). */
function fillerOf(kind: SubscriptionKind, params: readonly unknown[]): GapFiller {
  const b = kind.backfill;
  if (b?.by === "blocks") return blockGaps(b);
  if (b?.by === "range") return logGaps(kind, b, params);
  return passThrough();
}

async function resubscribe(t: WsCore, path: string, c: Connection, s: Active): Promise<void> {
  if (!c.subs.has(s)) return;
  const k = s.kind;
  const m: RpcMethod = { method: k.subscribe, endpoint: k.endpoint, form: "by-position", params: [{ name: "kind", required: true }, ...k.params.map((name) => ({ name }))] };
  let given: Record<string, unknown> = {};
  k.params.forEach((name, i) => {
    if (s.params[i] !== undefined) given[name] = s.params[i];
  });
  if (k.paramIntegers) given = k.paramIntegers(given, k.subscribe, "WS", path);
  // the id is registered as the reply is read: notifications may follow in the same network chunk
  const id = await send(t, path, c, m, { kind: k.kind, ...given }, "string", t.timeoutMs, undefined, undefined, (value) => {
    if (typeof value === "string" && c.subs.has(s)) {
      s.id = value;
      c.byServerId.set(value, s);
    }
  });
  if (typeof id !== "string") throw new AvaspecError(`${k.subscribe}: the subscription id ${JSON.stringify(id)} is not a string`, request(k.subscribe, path));
  if (!c.subs.has(s)) {
    // unsubscribed meanwhile: tell the server too, and close the socket if nothing else needs it
    forget(t, c, k, id);
    idle(c);
    return;
  }
  s.id = id;
  c.byServerId.set(id, s);
}

/** After a reconnect: each subscription waits for its backfill, is made again on the node, then fills what it missed. */
export async function resume(t: WsCore, path: string, c: Connection, attempts: number): Promise<void> {
  for (const s of [...c.subs]) {
    try {
      s.resuming(attempts);
      await resubscribe(t, path, c, s);
      if (c.subs.has(s)) s.resumed();
    } catch (error) {
      if (c.subs.has(s)) s.fail(error instanceof AvaspecError ? error : new AvaspecError(String(error), undefined, { cause: error }));
    }
  }
}

/** A subscription of `kind` on the connection to `path`: made once the socket is open, and ended by the consumer (`unsubscribe()`, `break`, the signal) or by a failure. */
export function subscribe<P, T>(t: WsCore, path: string, c: Connection, kind: SubscriptionKind<P, T>, params: P, subOptions: SubscribeOptions<T> = {}): Subscription<T> {
  const where = request(kind.subscribe, path);
  const paramList = Array.isArray(params) ? (params as unknown[]) : kind.params.map((name) => (params as Record<string, unknown> | undefined)?.[name]);
  const consumer = createConsumer<T, SubscribeOptions<T>>({
    kind: kind.kind,
    request: where,
    options: subOptions,
    buffer: { size: Math.max(1, subOptions.buffer?.size ?? t.options.buffer?.size ?? 10_000), overflow: subOptions.buffer?.overflow ?? t.options.buffer?.overflow ?? "error" },
    decode: (v) => (kind.resultIntegers ? kind.resultIntegers(v, t.numbers) : v) as T,
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
    admit: payloadGate({ kind: kind as SubscriptionKind, mode: t.validateResponse, checks: t.checks, request: where, drop: (e) => consumer.invalid(e), fail: (e) => consumer.fail(e) }),
    deliver: (payload) => consumer.deliver(payload),
    fetch: (m, p) => send(t, path, c, m, p, "string"),
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
      forget(t, c, kind as SubscriptionKind, active.id);
      active.id = undefined;
    }
    subOptions.signal?.removeEventListener("abort", onAbort);
    if (c.subs.size === 0 && c.reconnectTimer !== undefined) {
      clearTimeout(c.reconnectTimer);
      c.reconnectTimer = undefined;
      c.attempts = 0;
    }
    queueMicrotask(() => idle(c));
  }

  const onAbort = () => consumer.end();
  if (subOptions.signal?.aborted) consumer.end();
  else {
    subOptions.signal?.addEventListener("abort", onAbort, { once: true });
    c.subs.add(active);
    // each step only while the subscription lives: one ended meanwhile is never made on the node
    open(t, path, c)
      .then(() => (consumer.ended ? undefined : gap.starting()))
      .then(() => resubscribe(t, path, c, active))
      .then(() => consumer.ended || gap.started(), (error: unknown) => {
        if (consumer.ended) return;
        // the first connection failed: retry like a lost one, unless reconnecting is off
        if (error instanceof NetworkError && t.reconnect && !t.closed) scheduleReconnect(t, path, c, error.message);
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
function forget(t: WsCore, c: Connection, k: SubscriptionKind, id: string): void {
  if (c.socket?.readyState !== OPEN) return;
  try {
    c.socket.send(JSON.stringify({ jsonrpc: "2.0", id: t.nextId++, method: k.unsubscribe, params: [id] }));
  } catch {
    // the socket is closing: the node ends the subscription with it
  }
}
