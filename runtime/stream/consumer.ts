/**
 * The consumer's side of a stream of items, one abstraction for both
 * transports that push: a WebSocket subscription (ws/subscriptions.ts) and
 * an HTTP stream of server-sent events or JSON lines (stream/http-stream.ts).
 * Either reaches its consumer through callbacks (`onData`, `onInvalid`,
 * `onError`, and the transport's own notices: `onReorg`, `onReconnect`,
 * `onGap`), or through an async iterator with a bounded buffer.
 *
 * The consumer's code runs inside the transport (in the handler of a socket
 * message, of a backfill, or of a chunk of a response body). What it throws must not escape there: it
 * would be an uncaught exception, or leave the socket's reader half-way
 * through a message so that every other subscription and call on it stops.
 * So each callback runs guarded, and an exception ends that subscription
 * alone, through `onError`, as a `SubscriptionCallbackError` whose `cause`
 * is what was thrown.
 */
import { overflowError } from "../errors/depth.js";
import { AvaspecError, type RequestInfo, type ValidationError } from "../errors/errors.js";

/** How many items a consumer that has not taken them yet may leave behind, and what happens beyond. */
export interface StreamBuffer {
  /** Events kept for a consumer that has not taken them yet (default 10,000). */
  size?: number;
  /** When full: end the stream with a SubscriptionOverflowError (default), or drop the oldest events. */
  overflow?: "error" | "drop-oldest";
}

/** What every stream's consumer can pass, whatever the transport. */
export interface ConsumerOptions<T> {
  signal?: AbortSignal;
  /** Callback form: each item; no buffering. What it throws ends the stream (a `SubscriptionCallbackError` to `onError`). */
  onData?(value: T): void;
  /** The stream failed for good (it has ended). */
  onError?(error: AvaspecError): void;
  /** An item was dropped as invalid (the stream goes on; under `validateResponse: "strict"` it ends instead). Without it, a console warning. */
  onInvalid?(error: ValidationError): void;
  buffer?: StreamBuffer;
}

/** The option names of a transport's own notices (`onReorg`, `onGap`…): callbacks of one argument. */
type NoticeName<O> = { [K in keyof O]-?: K extends "onData" | "onError" | "onInvalid" ? never : NonNullable<O[K]> extends (info: any) => void ? K : never }[keyof O];
type NoticeInfo<O, K extends keyof O> = NonNullable<O[K]> extends (info: infer I) => void ? I : never;

/** A subscription's own callback threw (`cause`): that subscription ended, the others and the socket go on. */
export class SubscriptionCallbackError extends AvaspecError {
  override name = "SubscriptionCallbackError";
}

/** A subscription's consumer fell behind and its buffer filled up. */
export class SubscriptionOverflowError extends AvaspecError {
  override name = "SubscriptionOverflowError";
}

export interface Consumer<T, O extends ConsumerOptions<T> = ConsumerOptions<T>> {
  /** Hands one event (wire form) over: to `onData`, to a waiting `next()`, or to the buffer. */
  deliver(payload: unknown): void;
  /** Tells the consumer of a reorg or a reconnect; what the callback throws ends the subscription. */
  notify<K extends NoticeName<O>>(name: K, info: NoticeInfo<O, K>): void;
  /** A payload was dropped as invalid: `onInvalid`, else a console warning; counted. */
  invalid(error: ValidationError): void;
  /** Ends the subscription with an error: `onError`, and the iterator throws it once the buffered events are taken. */
  fail(error: AvaspecError): void;
  /** Ends the subscription: the iterator is done once the buffered events are taken. */
  end(): void;
  readonly ended: boolean;
  /** Events dropped under `overflow: "drop-oldest"`. */
  readonly dropped: number;
  /** Payloads dropped as invalid. */
  readonly rejected: number;
  readonly iterator: AsyncIterator<T>;
  /**
   * Undefined while the buffer has room; otherwise a promise that settles once the consumer has taken half of it
   * (or the stream ended). A transport that can pause (an HTTP body) waits on it instead of overflowing.
   */
  room(): Promise<void> | undefined;
  /** The buffer is full (what `room()` tells, without making a promise): a transport that can pause keeps the item back. */
  readonly full: boolean;
}

export interface ConsumerInit<T, O extends ConsumerOptions<T> = ConsumerOptions<T>> {
  /** What the stream is, for messages (a subscription kind, `newHeads`; an operation id). */
  kind: string;
  /** What messages call it (default "subscription"). */
  noun?: "subscription" | "stream";
  request: RequestInfo;
  options: O;
  buffer: Required<StreamBuffer>;
  /** Reads a payload (wire form) as the consumer gets it (the number policy). */
  decode(payload: unknown): T;
  /** Called once when the subscription ends, for whatever reason: the transport lets go of it. */
  release(): void;
}

export function createConsumer<T, O extends ConsumerOptions<T> = ConsumerOptions<T>>(init: ConsumerInit<T, O>): Consumer<T, O> {
  const { kind, options } = init;
  const noun = init.noun ?? "subscription";
  const queue: T[] = [];
  let waiter: { resolve(r: IteratorResult<T>): void; reject(e: unknown): void } | undefined;
  let failure: AvaspecError | undefined;
  let ended = false;
  let dropped = 0;
  let rejected = 0;
  let roomy: (() => void) | undefined;
  /** Lets a paused reader go on: once half the buffer is free, or the stream ended. */
  const freed = () => {
    if (roomy && (ended || queue.length <= init.buffer.size / 2)) {
      const r = roomy;
      roomy = undefined;
      r();
    }
  };

  /** A waiting `next()` once the subscription has ended (the buffer is empty, or it would not wait). */
  const settle = () => {
    if (!waiter || !ended) return;
    const w = waiter;
    waiter = undefined;
    if (failure) w.reject(failure);
    else w.resolve({ value: undefined, done: true });
  };
  const stop = (error?: AvaspecError) => {
    if (ended) return false;
    ended = true;
    failure = error;
    init.release();
    freed();
    return true;
  };
  const fail = (error: AvaspecError) => {
    if (!stop(error)) return;
    try {
      options.onError?.(error);
    } catch (thrown) {
      // nowhere left to report it: the console, rather than an exception in the socket's handler
      console.error(`[avaspec] the onError callback of the ${kind} subscription threw:`, thrown);
    }
    settle();
  };
  /** Runs a consumer callback; what it throws ends this subscription. */
  const guarded = (name: string, run: () => void) => {
    try {
      run();
    } catch (thrown) {
      fail(new SubscriptionCallbackError(`${kind}: ${name} threw (${String(thrown)}); the ${noun} ended`, init.request, { cause: thrown }));
    }
  };

  const iterator: AsyncIterator<T> = {
    next() {
      if (queue.length > 0) {
        const value = queue.shift()!;
        freed();
        return Promise.resolve({ value, done: false });
      }
      if (failure) return Promise.reject(failure);
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
    return() {
      stop();
      settle();
      return Promise.resolve({ value: undefined, done: true });
    },
  };

  return {
    deliver(payload) {
      if (ended) return;
      let value: T;
      try {
        value = init.decode(payload);
      } catch (error) {
        // a payload too deep for the integer walk ends the subscription with a ValidationError (depth.ts)
        return fail(overflowError(error, init.request) as AvaspecError);
      }
      const onData = options.onData;
      if (onData) return guarded("onData", () => onData(value));
      if (waiter) {
        const w = waiter;
        waiter = undefined;
        return w.resolve({ value, done: false });
      }
      if (queue.length >= init.buffer.size) {
        if (init.buffer.overflow === "error") return fail(new SubscriptionOverflowError(`${kind}: the consumer fell ${init.buffer.size} events behind (buffer.size); the ${noun} ended`, init.request));
        queue.shift();
        dropped++;
      }
      queue.push(value);
    },
    notify(name, info) {
      const callback = options[name] as unknown as ((i: typeof info) => void) | undefined;
      if (!ended && callback) guarded(String(name), () => callback(info));
    },
    invalid(error) {
      if (ended) return;
      rejected++;
      const onInvalid = options.onInvalid;
      if (onInvalid) guarded("onInvalid", () => onInvalid(error));
      else console.warn(`[avaspec] ${error.message}`);
    },
    fail,
    end() {
      stop();
      settle();
    },
    get ended() {
      return ended;
    },
    get dropped() {
      return dropped;
    },
    get rejected() {
      return rejected;
    },
    iterator,
    get full() {
      return !ended && queue.length >= init.buffer.size;
    },
    room() {
      if (ended || queue.length < init.buffer.size) return undefined;
      return new Promise<void>((resolve) => (roomy = resolve));
    },
  };
}
