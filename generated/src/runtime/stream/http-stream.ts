/**
 * An HTTP operation whose 2XX response is a stream of items: server-sent
 * events (`text/event-stream`), JSON Lines / NDJSON or JSON text sequences.
 * The call returns at once an `ItemStream`: an async iterable of the items,
 * each read (JSON, or the event's text), checked as the client's
 * `validateResponse` says and decoded as a body is (the number policy), and
 * handed to the same consumer a WebSocket subscription has (consumer.ts:
 * callbacks or an iterator; here the body is read no faster than the
 * consumer takes items, so its buffer never overflows).
 *
 * An event stream whose events carry ids survives a dropped connection: it
 * connects again after the server's `retry:` (else `reconnect.baseDelayMs`),
 * doubled per failed attempt with jitter (backoff.ts, as the WebSocket
 * transport does), sending `Last-Event-ID`. An item whose id was delivered
 * already is not delivered again. A gap, events the server could not send
 * again, goes to `onGap` (or ends the stream with a StreamGapError): the
 * server refused the resume with a status, or the ids count up one by one
 * and the first after the resume skips some. A stream of lines, or of
 * events without ids, cannot be resumed: a dropped connection ends it with a
 * NetworkError. A body that ends cleanly ends the stream, as does a 204.
 */
import { AvaspecError, NetworkError, apiError, type RequestInfo } from "../errors/errors.js";
import { overflowError } from "../errors/depth.js";
import { adviceFor } from "../http/advice.js";
import { buildRequest, headerValue, parseJson, secretsOf, withoutCredentials, type CallOptions, type HttpConfig, type HttpOperation } from "../http/http.js";
import { DEFAULT_RETRY, announce } from "../http/send.js";
import { answers } from "../values/validate.js";
import { reconnectDelay, reconnectPolicy, type ReconnectOptions } from "./backoff.js";
import { createConsumer, type Consumer, type ConsumerOptions } from "./consumer.js";
import { MalformedEventError, StreamGapError, type StreamGap } from "./errors.js";
import { createRecordReader } from "./lines.js";
import { IdLedger } from "./ids.js";
import { createSseParser } from "./sse.js";

/** How the items travel: server-sent events, JSON Lines / NDJSON, or JSON text sequences (RFC 7464). */
export type StreamFormat = "sse" | "jsonl" | "json-seq";

/** The streamed response of an operation, as the generator describes it. */
export interface StreamOperation<P = any, T = unknown> extends HttpOperation<P, T> {
  readonly stream: {
    readonly format: StreamFormat;
    /** An event's data (or a line) is JSON (`json`), or (events only) the text as it came (`text`). */
    readonly item: "json" | "text";
  };
}

/** What a resume cost: how many attempts it took, and the id the stream resumed after. */
export interface StreamReconnectInfo {
  attempts: number;
  lastEventId: string;
}

export interface StreamOptions<T> extends ConsumerOptions<T>, Omit<CallOptions, "signal" | "retry" | "timeoutMs"> {
  /** How a dropped event stream is connected again; `false`: a dropped connection ends it with a NetworkError. */
  reconnect?: ReconnectOptions | false;
  /** Largest event or line, in characters (default 1,048,576): beyond it the stream ends with a StreamEventTooLargeError. */
  maxEventSize?: number;
  /** An event stream's position to start from (sent as `Last-Event-ID`), e.g. one saved from `lastEventId` earlier. */
  lastEventId?: string;
  /** The connection dropped and the stream resumed. */
  onReconnect?(info: StreamReconnectInfo): void;
  /** Events were lost across a resume. Without this callback, the stream ends with a StreamGapError instead. */
  onGap?(gap: StreamGap): void;
}

export interface ItemStream<T> extends AsyncIterable<T> {
  /** The event stream's last event id: where a resume would start. */
  readonly lastEventId: string | undefined;
  /** Items that were dropped as malformed (not JSON). */
  readonly invalid: number;
  /** Stops reading and closes the connection; the iterator is done once the items already read are taken. */
  close(): void;
}

export const DEFAULT_MAX_EVENT_SIZE = 1_048_576;

/** A client object's member for a streamed operation: the call returns its stream at once. */
export type StreamMethod<P, T> = (params: P, options?: StreamOptions<T>) => ItemStream<T>;

/** The member of a client object that streams an operation's items. */
export function streamMethod<P, T>(config: HttpConfig, op: StreamOperation<P, T>): StreamMethod<P, T> {
  return (params, options) => streamHttp(config, op, params, options);
}

type StreamConsumer<T> = Consumer<T, StreamOptions<T>>;

/** Opens a stream of the operation's items. Nothing throws here: a bad parameter fails the stream (its iterator and `onError`). */
export function streamHttp<P, T>(config: HttpConfig, op: StreamOperation<P, T>, params: P, options: StreamOptions<T> = {}): ItemStream<T> {
  const safe = withoutCredentials(config.baseUrl + op.path);
  const request: RequestInfo = { operationId: op.id, method: op.method, url: safe };
  let connection: AbortController | undefined;
  let wake: (() => void) | undefined;
  const onAbort = () => consumer.end();
  const consumer: StreamConsumer<T> = createConsumer<T, StreamOptions<T>>({
    kind: op.id,
    noun: "stream",
    request,
    options,
    buffer: { size: Math.max(1, options.buffer?.size ?? 10_000), overflow: "error" },
    // items arrive decoded (itemReader)
    decode: (value) => value as T,
    release() {
      connection?.abort();
      wake?.();
      options.signal?.removeEventListener("abort", onAbort);
    },
  });
  const state: RunState = { lastEventId: options.lastEventId, ids: new IdLedger(), retryMs: undefined };
  if (options.signal?.aborted) consumer.end();
  else {
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const hooks: RunHooks = {
      connection: (c) => (connection = c),
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => ((wake = undefined), resolve()), ms);
          wake = () => (clearTimeout(timer), (wake = undefined), resolve());
        }),
    };
    run(config, op, params, options, consumer, state, hooks).catch((thrown: unknown) => {
      // an item nested deeper than the checks' stack is a ValidationError (depth.ts)
      const error = overflowError(thrown, request);
      if (!consumer.ended) consumer.fail(error instanceof AvaspecError ? error : new NetworkError(`${op.id}: the stream failed: ${String(error)}`, request, { cause: error }));
    });
  }
  return {
    get lastEventId() {
      return state.lastEventId;
    },
    get invalid() {
      return consumer.rejected;
    },
    close: () => consumer.end(),
    [Symbol.asyncIterator]: () => consumer.iterator,
  };
}

interface RunState {
  lastEventId: string | undefined;
  ids: IdLedger;
  /** The server's `retry:`, in ms. */
  retryMs: number | undefined;
}

interface RunHooks {
  connection(controller: AbortController): void;
  sleep(ms: number): Promise<void>;
}

/** Connects, reads, and connects again while the stream can be resumed. */
async function run<P, T>(config: HttpConfig, op: StreamOperation<P, T>, params: P, options: StreamOptions<T>, consumer: StreamConsumer<T>, state: RunState, hooks: RunHooks): Promise<void> {
  const { url, safeUrl, init } = buildRequest(config, op, params as Record<string, unknown> | undefined, options);
  config.warnDeprecated?.(op.deprecated);
  const request: RequestInfo = { operationId: op.id, method: init.method ?? "GET", url: safeUrl };
  const policy = options.reconnect === false ? undefined : reconnectPolicy(options.reconnect);
  const doFetch = config.fetch ?? globalThis.fetch;
  const sse = op.stream.format === "sse";
  // what the hooks see of the call; they never see a key
  const call = { request, secrets: secretsOf(config) };
  let attempts = 0;
  let connections = 0;
  let resuming = false;
  for (;;) {
    if (consumer.ended) return;
    const headers = { ...init.headers };
    const from = sse ? state.lastEventId : undefined;
    if (from !== undefined) headers["last-event-id"] = from;
    // the hooks see each connection as an attempt of the call: the first, then each resume
    const attempt = ++connections;
    await announce(config, call, attempt, headers, (name, value) => headerValue(op, name, value));
    if (consumer.ended) return;
    const controller = new AbortController();
    hooks.connection(controller);
    const event = { ...request, attempt };
    const started = Date.now();
    let heard = false;
    let why: string;
    try {
      const response = await doFetch(url, { ...init, headers, signal: controller.signal });
      heard = true;
      await config.onResponse?.({ ...event, durationMs: Date.now() - started, status: response.status, headers: response.headers });
      if (consumer.ended) return void controller.abort();
      if (response.status === 204) return consumer.end();
      if (response.status < 200 || response.status > 299) {
        const error = await statusError(config, op, request, response);
        if (from === undefined) throw error;
        // a status that means "not now" is retried; any other refuses the resume: the stream starts afresh, after reporting the gap
        if (!DEFAULT_RETRY.retryOn.includes(response.status)) {
          if (!gap(consumer, options, request, { lastEventId: from, reason: "refused", status: response.status })) return;
          state.lastEventId = undefined;
          state.ids.afterGap();
          continue;
        }
        why = error.message;
      } else {
        if (resuming) consumer.notify("onReconnect", { attempts, lastEventId: from ?? "" });
        if (from !== undefined) state.ids.resumed();
        resuming = false;
        const read = await readBody(config, response, op, options, consumer, state, request, () => (attempts = 0));
        if (read === "done") return consumer.end();
        why = read;
      }
    } catch (error) {
      if (consumer.ended) return;
      if (!(error instanceof TypeError) && error instanceof Error && error.name !== "AbortError") throw error;
      why = error instanceof Error ? error.message : String(error);
      if (!heard) await config.onResponse?.({ ...event, durationMs: Date.now() - started, error: new NetworkError(`${op.id}: request to ${request.url} failed: ${why}`, request, { cause: error }) });
    }
    if (consumer.ended) return;
    if (!sse || state.lastEventId === undefined || !policy) {
      throw new NetworkError(`${op.id}: the stream's connection dropped (${why}); ${!policy ? "reconnecting is off" : sse ? "no event carried an id to resume from" : "a stream of lines cannot be resumed"}`, request);
    }
    if (attempts >= policy.retries) throw new NetworkError(`${op.id}: the stream's connection dropped (${why}); gave up after ${attempts} reconnect attempts`, request);
    attempts++;
    resuming = true;
    await hooks.sleep(reconnectDelay({ baseDelayMs: state.retryMs ?? policy.baseDelayMs, maxDelayMs: policy.maxDelayMs }, attempts));
  }
}

/** The ApiError for a status the stream cannot read items from. */
async function statusError(config: HttpConfig, op: HttpOperation, request: RequestInfo, response: Response): Promise<AvaspecError> {
  const text = await response.text().catch(() => "");
  const parsed = text.trim() === "" ? undefined : parseJson(text);
  return apiError({ request, statusCode: response.status, statusText: response.statusText, body: parsed?.ok ? parsed.value : undefined, rawBody: text, headers: response.headers, advice: adviceFor(response.status, config.errorAdvice, op.advice, config.documentAdvice) });
}

/** Reports a gap: true when the stream goes on (`onGap` heard it), false when it ended with a StreamGapError. */
function gap<T>(consumer: StreamConsumer<T>, options: StreamOptions<T>, request: RequestInfo, info: StreamGap): boolean {
  if (consumer.ended) return false;
  if (typeof options.onGap === "function") {
    consumer.notify("onGap", info);
    return !consumer.ended;
  }
  const what = info.reason === "refused" ? `the server refused to resume after event ${info.lastEventId} (${info.status})` : `events after ${info.lastEventId} were skipped (the next is ${info.nextEventId})`;
  consumer.fail(new StreamGapError(`${request.operationId}: ${what}; pass onGap to go on past a gap`, info, request));
  return false;
}

/**
 * Reads one response's body into the consumer, waiting whenever its buffer is full. "done" when the body ended
 * cleanly (or the consumer stopped), else why it broke off.
 */
async function readBody<T>(config: HttpConfig, response: Response, op: StreamOperation, options: StreamOptions<T>, consumer: StreamConsumer<T>, state: RunState, request: RequestInfo, progressed: () => void): Promise<"done" | string> {
  if (!response.body) return "done";
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const max = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  // items the consumer had no room for yet; while it has room, each item is handed over as soon as it is read, not
  // after the rest of its chunk is parsed and checked (a chunk can hold many events), and one that passed reaches
  // the consumer even when a later one in the same chunk ends the stream
  const batch: unknown[] = [];
  let arrived = false;
  const accept = itemReader(config, op, options, consumer, request, (item) => {
    arrived = true;
    if (batch.length === 0 && !consumer.full) consumer.deliver(item);
    else batch.push(item);
  });
  const feed =
    op.stream.format === "sse"
      ? createSseParser(
          {
            event(e) {
              if (e.id !== undefined) {
                const previous = state.ids.previous ?? "";
                const verdict = state.ids.admit(e.id);
                if (verdict === "seen") return;
                if (verdict === "skipped" && !gap(consumer, options, request, { lastEventId: previous, reason: "skipped", nextEventId: e.id })) return;
              }
              // the item may reach `onData` now, before the rest of its chunk is read: the position is its own
              state.lastEventId = e.lastEventId === "" ? undefined : e.lastEventId;
              accept(e.data);
            },
            retry: (ms) => (state.retryMs = ms),
          },
          { lastEventId: state.lastEventId ?? "", maxEventSize: max },
        )
      : createRecordReader(op.stream.format, accept, max);
  const sse = feed as { lastEventId?: string };
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        return error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : String(error);
      }
      if (consumer.ended) return "done";
      if (chunk.done) {
        feed.feed(decoder.decode());
        feed.end();
      } else feed.feed(decoder.decode(chunk.value, { stream: true }));
      if (sse.lastEventId !== undefined && sse.lastEventId !== "") state.lastEventId = sse.lastEventId;
      else if (sse.lastEventId === "" && state.lastEventId !== undefined) state.lastEventId = undefined;
      if (arrived) progressed();
      arrived = false;
      for (let i = 0; i < batch.length; i++) {
        const room = consumer.room();
        if (room) await room;
        if (consumer.ended) return "done";
        consumer.deliver(batch[i]);
      }
      batch.length = 0;
      if (chunk.done || consumer.ended) return "done";
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Reads one event's data or record and hands it to `take`: JSON parsed, checked as the client's `validateResponse` says for a
 * body ("warn": a console warning, "strict": a ValidationError ends the stream), and decoded as a body is (wire
 * forms, the number policy; integers beyond 2^53 from the text). Data that is not JSON cannot
 * be delivered: it is dropped and reported (`onInvalid`, else a console warning), or ends the stream under "strict".
 */
function itemReader<T>(config: HttpConfig, op: StreamOperation, options: StreamOptions<T>, consumer: StreamConsumer<T>, request: RequestInfo, take: (item: unknown) => void): (text: string) => void {
  const numbers = options.numbers ?? config.numbers;
  const mode = config.validateResponse;
  // the check alone answers for an item that passes; the results' apply reports one that does not
  const check = mode === "off" ? undefined : config.results?.get(op);
  const json = op.stream.item === "json";
  return (text) => {
    let value: unknown = text;
    if (json) {
      try {
        value = JSON.parse(text);
      } catch (cause) {
        const strict = mode === "strict";
        const error = new MalformedEventError(`${op.id}: an item that is not valid JSON${strict ? "" : " was dropped"}: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`, { request, issues: [{ path: "", message: "is not valid JSON" }], rawBody: text, cause });
        if (strict) throw error;
        return consumer.invalid(error);
      }
    }
    if (check && !answers(check, value)) config.results!.apply(mode, request, op, value, 200, text);
    const formed = op.resultForms?.(value) ?? value;
    take(op.resultIntegers ? op.resultIntegers(formed, numbers, text, request) : formed);
  };
}
