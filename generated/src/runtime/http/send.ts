/**
 * Sending one request under the client's reliability policy: a per-attempt
 * timeout combined with the caller's `signal`; retries with exponential
 * backoff and jitter for network errors, timeouts and transient statuses;
 * `Retry-After` honoured up to a cap; `onRequest` / `onResponse` hooks.
 *
 * Only idempotent requests are retried unless the caller opts in, and
 * nothing is retried once the caller aborts. Every wait is a timer that an
 * abort clears at once.
 */
import { AbortError, AvaspecError, NetworkError, TimeoutError, afterAttempts, type RequestInfo } from "../errors/errors.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  retries?: number;
  /** First backoff delay in ms; doubles per retry, with jitter (default 500). */
  baseDelayMs?: number;
  /** Longest computed backoff delay in ms (default 8000). */
  maxDelayMs?: number;
  /** Longest `Retry-After` wait honoured, in ms; a longer one fails at once with the wait in `retryAfterMs` (default 60000). */
  maxRetryAfterMs?: number;
  /** HTTP statuses that are retried (default 408, 429, 500, 502, 503, 504). */
  retryOn?: readonly number[];
  /** JSON-RPC error codes that mean "try again" (default none: an error object is an answer). */
  retryOnRpcCodes?: readonly number[];
  /** Retry requests that are not idempotent too (POST, JSON-RPC methods not marked safe). Default false. */
  unsafe?: boolean;
}

/** What a hook sees of a request. Header values holding the API key read `[redacted]`. */
export interface RequestEvent {
  readonly operationId: string;
  readonly method: string;
  /** The URL without secrets. */
  readonly url: string;
  /** 1 for the first attempt, 2 for the first retry… */
  readonly attempt: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Adds or replaces a header of this attempt (e.g. a trace id). CR, LF and NUL are refused. */
  setHeader(name: string, value: string): void;
}

/** What a hook sees after an attempt: a status, or the error that ended it. */
export interface ResponseEvent {
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly attempt: number;
  readonly durationMs: number;
  readonly status?: number;
  readonly headers?: Headers;
  readonly error?: AvaspecError;
  /** Set when the call will be retried: the wait before the next attempt, in ms. */
  readonly retryInMs?: number;
}

export interface ReliabilityOptions {
  /** Retry policy, or `false` for a single attempt. Defaults: see RetryOptions. */
  retry?: RetryOptions | false;
  /** Per-attempt timeout in ms, covering the response body too (default 30000; 0 turns it off). */
  timeoutMs?: number;
  /** Called before every attempt; may add headers. */
  onRequest?: (event: RequestEvent) => void | Promise<void>;
  /** Called after every attempt, retried or not. */
  onResponse?: (event: ResponseEvent) => void | Promise<void>;
  /**
   * Paces calls under a service's limits (`createBudget`, `./budget.js`):
   * every attempt waits until the budget has its cost, and an answer that
   * says a limit was hit waits and goes again. Clients made with the same
   * budget pool and API key share it.
   */
  budget?: Budget;
}

/**
 * What the transports ask of a budget. A type only, so that a bundle pays
 * for pacing only when it imports `createBudget`.
 */
export interface Budget {
  /** Sends one attempt when the budget allows it; sends again (after waiting) while the answer says a limit was hit. */
  run(out: Outgoing, send: () => Promise<Attempt>, signal: AbortSignal | undefined, request: RequestInfo): Promise<Attempt>;
  /** The most calls one JSON-RPC batch to `url` may carry. */
  batchCap(url: string): number;
  /** Whether an answer (its status and body) refused a batch of `size` for its size; the cap for `url` then falls below `size`. */
  batchRefused(url: string, size: number, status: number, text: string): boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = Object.freeze({
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  retryOn: Object.freeze([408, 429, 500, 502, 503, 504]),
  retryOnRpcCodes: Object.freeze([]),
  unsafe: false,
});

/** A client's settled transport configuration. */
export interface SendConfig extends ReliabilityOptions {
  readonly fetch?: typeof fetch | undefined;
}

/** Per-call overrides. */
export interface SendOptions {
  signal?: AbortSignal;
  retry?: RetryOptions | false;
  timeoutMs?: number;
}

/** One request, ready to send. */
export interface Outgoing {
  /** Names the call in errors and hooks; its URL carries no secrets. */
  request: RequestInfo;
  url: string;
  init: RequestInit & { headers: Record<string, string> };
  /** Safe to repeat (GET, or a JSON-RPC method marked idempotent). */
  idempotent: boolean;
  /** Values hooks must not see (the API keys given; an unset one is skipped). */
  secrets: readonly (string | undefined)[];
  /** Read a 2XX body as bytes (`bytes`), not text. */
  binary?: boolean;
  /** What one attempt costs (`limits.cost`), for a budget; the budget's default when unset. */
  cost?: number | undefined;
  /** Statuses the operation returns as its result (`returns`, e.g. a health check's 503): answers, never retried. */
  results?: readonly number[] | undefined;
  /** Whether a 2XX body is itself a transient failure (JSON-RPC error codes); checked only when retries remain. */
  transient?: (text: string, policy: Required<RetryOptions>) => boolean;
}

export interface Exchange {
  response: Response;
  /** The body as text ("" for a 2XX read as bytes). */
  text: string;
  /** The 2XX body, when the request asked for bytes. */
  bytes?: ArrayBuffer;
  /** The request info with the attempt count. */
  request: RequestInfo;
  /** The server's Retry-After, in ms, when it sent one. */
  retryAfterMs: number | undefined;
}

/** The retry policy for a call: per-call options over client options over defaults; undefined when retries are off. */
function retryPolicy(client: RetryOptions | false | undefined, call: RetryOptions | false | undefined): Required<RetryOptions> | undefined {
  if (call === false || (call === undefined && client === false)) return undefined;
  const merged = { ...DEFAULT_RETRY, ...(client || {}), ...(call || {}) };
  merged.retries = Math.max(0, Math.floor(merged.retries));
  return merged;
}

/** Exponential backoff with equal jitter: a delay in [d/2, d] for d = min(maxDelayMs, baseDelayMs · 2^(retry-1)). */
function backoffDelay(policy: Required<RetryOptions>, retry: number): number {
  const d = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(d / 2 + (Math.random() * d) / 2);
}

/** A `Retry-After` value (delta-seconds or HTTP-date) in ms from now; undefined when absent or unreadable. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // an HTTP-date always names a weekday and GMT; anything else is not one
  if (!/^[A-Za-z]{3},? .*GMT$/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function abortError(request: RequestInfo, signal: AbortSignal): AbortError {
  return new AbortError(`${request.operationId}: aborted by the caller${afterAttempts(request)}`, request, { cause: signal.reason });
}

/** Waits `ms`, or rejects with an AbortError as soon as the signal aborts (the timer is cleared). */
function sleep(ms: number, signal: AbortSignal | undefined, request: RequestInfo): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(request, signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(request, signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export type Attempt = { ok: true; response: Response; text: string; bytes?: ArrayBuffer } | { ok: false; timedOut: boolean; cause: unknown };

/**
 * One attempt: fetch and read the whole body under a signal that aborts on
 * the caller's signal or after `timeoutMs`. Settles even when a custom fetch
 * ignores its signal.
 */
async function attemptOnce(doFetch: typeof fetch, url: string, init: RequestInit, signal: AbortSignal | undefined, timeoutMs: number, binary: boolean): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  let stop: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  const abort = (reason: unknown) => {
    controller.abort(reason);
    stop(reason);
  };
  const timer = timeoutMs > 0 && Number.isFinite(timeoutMs) ? setTimeout(() => ((timedOut = true), abort(new Error(`no response within ${timeoutMs} ms`))), timeoutMs) : undefined;
  const onAbort = () => abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const work = (async () => {
      const response = await doFetch(url, { ...init, signal: controller.signal });
      if (binary && response.ok) return { ok: true as const, response, text: "", bytes: await response.arrayBuffer() };
      return { ok: true as const, response, text: await response.text() };
    })();
    return await Promise.race([work, stopped]);
  } catch (cause) {
    return { ok: false, timedOut, cause };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Runs the `onRequest` hook for one attempt of a call: the hook sees the headers without the call's secrets, and what it sets goes into `headers`. */
export function announce(config: SendConfig, out: Pick<Outgoing, "request" | "secrets">, attempt: number, headers: Record<string, string>, checkHeader?: (name: string, value: string) => void): void | Promise<void> {
  const hook = config.onRequest;
  if (!hook) return;
  // a header that carries a secret is shown redacted
  const visible: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) visible[k] = out.secrets.some((s) => !!s && v.includes(s)) ? "[redacted]" : v;
  return hook({
    ...out.request,
    attempt,
    headers: visible,
    setHeader(name, value) {
      checkHeader?.(name, value);
      headers[name.toLowerCase()] = value;
      visible[name.toLowerCase()] = value;
    },
  });
}

/**
 * Sends a request, retrying as the policy allows, and returns the last
 * response with its whole body. Throws AbortError, TimeoutError or
 * NetworkError when no response is left to return; statuses are the
 * caller's to interpret.
 */
export async function exchange(config: SendConfig, out: Outgoing, options: SendOptions = {}, checkHeader?: (name: string, value: string) => void): Promise<Exchange> {
  const doFetch = config.fetch ?? globalThis.fetch;
  const policy = retryPolicy(config.retry, options.retry);
  const timeoutMs = options.timeoutMs ?? config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = options.signal;
  const maxAttempts = policy && (out.idempotent || policy.unsafe) ? policy.retries + 1 : 1;
  for (let attempt = 1; ; attempt++) {
    const request: RequestInfo = { ...out.request, attempts: attempt };
    if (signal?.aborted) throw abortError({ ...request, attempts: attempt - 1 }, signal);
    const headers = { ...out.init.headers };
    await announce(config, out, attempt, headers, checkHeader);
    const started = Date.now();
    const send = () => attemptOnce(doFetch, out.url, { ...out.init, headers }, signal, timeoutMs, out.binary === true);
    const result = await (config.budget ? config.budget.run(out, send, signal, request) : send());
    if (signal?.aborted) throw abortError(request, signal);
    const last = attempt >= maxAttempts;
    let error: AvaspecError | undefined;
    let retryAfterMs: number | undefined;
    let retryable: boolean;
    if (!result.ok) {
      retryable = true;
      const cause = result.cause instanceof Error ? result.cause.message : String(result.cause);
      error = result.timedOut
        ? new TimeoutError(`${request.operationId}: no response from ${request.url} within ${timeoutMs} ms${afterAttempts(request)}. Raise timeoutMs or try again later.`, request, timeoutMs)
        : new NetworkError(`${request.operationId}: request to ${request.url} failed${afterAttempts(request)}: ${cause}. Check the base URL and your connection.`, request, { cause: result.cause });
    } else {
      const status = result.response.status;
      retryAfterMs = parseRetryAfter(result.response.headers.get("retry-after"));
      retryable = policy !== undefined && ((policy.retryOn.includes(status) && !out.results?.includes(status)) || (!last && status >= 200 && status <= 299 && out.transient?.(result.text, policy) === true));
    }
    let retryInMs: number | undefined;
    if (retryable && !last && policy) {
      // Retry-After replaces the computed backoff; one beyond the cap is not waited for.
      if (retryAfterMs === undefined) retryInMs = backoffDelay(policy, attempt);
      else if (retryAfterMs <= policy.maxRetryAfterMs) retryInMs = retryAfterMs;
    }
    await config.onResponse?.({
      operationId: request.operationId,
      method: request.method,
      url: request.url,
      attempt,
      durationMs: Date.now() - started,
      ...(result.ok ? { status: result.response.status, headers: result.response.headers } : { error: error! }),
      ...(retryInMs !== undefined ? { retryInMs } : {}),
    });
    if (retryInMs === undefined) {
      if (!result.ok) throw error!;
      return { response: result.response, text: result.text, ...(result.bytes ? { bytes: result.bytes } : {}), request, retryAfterMs };
    }
    await sleep(retryInMs, signal, request);
  }
}
