/**
 * JSON-RPC 2.0 over HTTP: one object of named params in, the method's wire
 * form out (`by-name` object, `by-position` array, or an array holding one
 * object); responses matched by id; explicit and automatic batching.
 */
import type { ValueWatch } from "../values/values.js";
import { AvaspecError, ResponseParseError, jsonText, RpcProtocolError, ValidationError, apiError, isRecord, paramsError, rpcError, type DeclaredRpcError, type RequestInfo, type ValidationIssue } from "../errors/errors.js";
import { checkParams, deprecationNotice, headerProblem, parseJson, requireResults, withoutCredentials, type CallOptions, type HttpClientOptions, type ResponseValidation, type ResultChecks } from "../http/http.js";
import { exchange, type Exchange, type RetryOptions, type SendConfig } from "../http/send.js";
import { hasOwn, setOwn, unwrapped, type Check } from "../values/validate.js";
import type { Decoder, Encoder, Numbers } from "../values/numbers.js";
import type { Normalizer } from "../values/wire-forms.js";
import type { OperationLimits } from "../values/limits.js";
import { overflowError } from "../errors/depth.js";

export type RpcParamForm = "by-name" | "by-position" | "one-object";

declare const methodTypes: unique symbol;

/**
 * Everything the runtime needs to know about one JSON-RPC method. `P` and
 * `R` are the params and result types (type-level only), so calls infer them.
 */
export interface RpcMethod<P = any, R = unknown> {
  /** Method name on the wire. */
  readonly method: string;
  /**
   * Path of the endpoint below the base URL (`/ext/info`), or "". It may
   * hold path variables (`/ext/bc/{blockchainId}/rpc`): such a descriptor is
   * called through `bindEndpoint` (or a client group that takes them).
   */
  readonly endpoint: string;
  /** Where `bindEndpoint` made this descriptor from: the unbound one, whose result check applies. */
  readonly template?: RpcMethod;
  readonly form: RpcParamForm;
  /** A read the spec marks safe to repeat (`x-avaspec-idempotent`), so retried by default. */
  readonly idempotent?: boolean;
  /** Declared params in order (for `one-object`: the object's fields). */
  readonly params: readonly { readonly name: string; readonly required?: boolean }[];
  /** Generated check of the params object; runs before anything is sent. */
  readonly check?: Check;
  /** The params' string-encoded integers: bigints and numbers given for them are sent in their wire form. */
  readonly paramIntegers?: Encoder;
  /** The result's string-encoded integers: read as bigints under `numbers: "bigint"`. */
  readonly resultIntegers?: Decoder;
  /** The result's values servers send in another form than documented (`x-avaspec-wire-form`): converted before it is returned. */
  readonly resultForms?: Normalizer;
  /** Set when the method is deprecated: what the first call warns (see `deprecationWarnings`). */
  readonly deprecated?: string;
  /** Set when its params can carry a value the server no longer takes (`x-avaspec-deprecated-values`): warns once per value, as `deprecated` does. */
  readonly deprecatedValues?: ValueWatch;
  /** Its cost, range caps and limit signals (the spec's `x-avaspec-limits`): what a budget (`createBudget`) charges and recognises. */
  readonly limits?: OperationLimits;
  /**
   * Servers may send the result wrapped, as this one member of an object
   * (`x-avaspec-wire-shape`): the transport unwraps it before checking it.
   */
  readonly wrappedIn?: string;
  /** The error classes the spec declares for the method (its OpenRPC `errors`): an error reply becomes one of them when its code matches. */
  readonly errors?: readonly DeclaredRpcError[];
  /** Never set: carries the params and result types. */
  readonly [methodTypes]?: { params: P; result: R };
}

export interface BatchOptions {
  /** Collect calls made in the same tick into one request (default false). */
  auto?: boolean;
  /** Most calls in one HTTP request; larger batches are split (default 40, the public node's limit). */
  maxSize?: number;
  /** With `auto`: how long to wait for more calls, in ms (default 0: the same tick). */
  wait?: number;
}

export interface RpcClientOptions extends HttpClientOptions {
  batch?: BatchOptions;
}

/** One call's outcome in a batch: a failing call does not fail the others. */
export type BatchResult<T> = { ok: true; value: T } | { ok: false; error: AvaspecError };
export type BatchResults<T extends readonly unknown[]> = { -readonly [K in keyof T]: BatchResult<Awaited<T[K]>> };

export type RpcCall = <P, R>(method: RpcMethod<P, R>, params: P, options?: CallOptions) => Promise<R>;

export interface RpcTransport {
  call: RpcCall;
  /** Runs every call `build` makes as one batch (split into chunks of `maxSize`); results in call order. */
  batch<const T extends readonly Promise<unknown>[]>(build: (call: RpcCall) => T): Promise<BatchResults<T>>;
}

interface Pending {
  method: RpcMethod;
  numbers: Numbers;
  envelope: { jsonrpc: "2.0"; id: number; method: string; params?: unknown };
  resolve(value: unknown): void;
  reject(error: AvaspecError | unknown): void;
}


function invalid(m: RpcMethod, url: string, path: string, message: string): ValidationError {
  return new ValidationError(`${m.method}: ${message}`, { request: { operationId: m.method, method: "POST", url }, issues: [{ path, message }] });
}

/** The params member of the envelope, per the method's wire form. Throws ValidationError. */
export function serializeParams(m: RpcMethod, params: object | undefined, url = m.endpoint): unknown {
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) throw invalid(m, url, "", "params must be an object");
  let given = (params ?? {}) as Record<string, unknown>;
  if (m.paramIntegers) given = m.paramIntegers(given, m.method, "POST", url);
  if (m.check) checkParams(m.method, "POST", url, m.check, given);
  const value = (name: string) => (hasOwn(given, name) ? given[name] : undefined);
  for (const p of m.params) {
    if (p.required && (value(p.name) === undefined || value(p.name) === null)) throw invalid(m, url, `/${p.name}`, `missing required param "${p.name}"`);
  }
  switch (m.form) {
    case "by-name": {
      // a method without params leaves the member out (JSON-RPC 2.0 allows it): `{}` is refused by servers that read
      // params by position, such as go-ethereum, and a server reading them by name takes a missing member as none
      if (m.params.length === 0) return undefined;
      const out: Record<string, unknown> = {};
      for (const p of m.params) if (value(p.name) !== undefined) setOwn(out, p.name, value(p.name));
      return out;
    }
    case "by-position": {
      let last = -1;
      m.params.forEach((p, i) => {
        if (value(p.name) !== undefined) last = i;
      });
      // positional params can only be left out from the end; a gap is sent as null
      return m.params.slice(0, last + 1).map((p) => value(p.name) ?? null);
    }
    case "one-object": {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(given)) if (given[k] !== undefined) setOwn(out, k, given[k]);
      return [out];
    }
  }
}

/** How a transport reads a reply: its result checks, whether to apply them, and the number policy. */
export interface ReplyReading {
  readonly checks: ResultChecks | undefined;
  readonly validateResponse: ResponseValidation;
  readonly numbers: Numbers;
}

/**
 * The result of one JSON-RPC reply object, or the typed error it stands for
 * (thrown): a declared error class for an error object, RpcProtocolError for
 * a reply breaking JSON-RPC 2.0, ResponseParseError for a reply that is not
 * one; the result unwrapped (`wrappedIn`), checked as `validateResponse`
 * says and its integers read as `numbers` says. Shared by the HTTP and
 * WebSocket transports.
 */
export function readReply(m: RpcMethod, reply: unknown, request: RequestInfo, status: number, reading: ReplyReading): unknown {
  if (!isRecord(reply)) {
    throw new ResponseParseError(`${m.method}: the response is not a JSON-RPC response object`, { request, statusCode: status, rawBody: jsonText(reply), contentType: "application/json" });
  }
  if (isRecord(reply["error"]) && hasOwn(reply, "result")) throw new RpcProtocolError(`${m.method}: the JSON-RPC reply has both "result" and "error"`, { request, statusCode: status, reply });
  if (isRecord(reply["error"]) && !Number.isInteger(reply["error"]["code"])) {
    throw new RpcProtocolError(`${m.method}: the JSON-RPC error's code ${jsonText(reply["error"]["code"]) || "(missing)"} is not an integer`, { request, statusCode: status, reply });
  }
  if (isRecord(reply["error"])) {
    const e = reply["error"];
    throw rpcError({ request, method: m.method, code: e["code"] as number, message: typeof e["message"] === "string" ? e["message"] : "", data: e["data"], statusCode: status }, m.errors);
  }
  if (!hasOwn(reply, "result")) {
    throw new ResponseParseError(`${m.method}: the JSON-RPC response has neither "result" nor "error"`, { request, statusCode: status, rawBody: jsonText(reply), contentType: "application/json" });
  }
  const result = m.wrappedIn === undefined ? reply["result"] : unwrapped(reply["result"], m.wrappedIn);
  const rawBody = () => jsonText(reply);
  if (reading.checks && reading.validateResponse !== "off") reading.checks.apply(reading.validateResponse, { ...request, operationId: m.method }, m.template ?? m, result, status, rawBody);
  const value = m.resultForms ? m.resultForms(result) : result;
  const decode = m.resultIntegers;
  return decode ? decode(value, reading.numbers, undefined, request) : value;
}

/** Whether every reply in a body is an error object whose code the policy calls transient. */
function allTransient(text: string, policy: Required<RetryOptions>): boolean {
  if (policy.retryOnRpcCodes.length === 0) return false;
  const parsed = parseJson(text);
  if (!parsed.ok) return false;
  const replies = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  return replies.length > 0 && replies.every((r) => isRecord(r) && isRecord(r["error"]) && policy.retryOnRpcCodes.includes(r["error"]["code"] as number));
}

/**
 * Settles every call of one request from the response: each with the reply
 * of its id, or with the error object of null id that answers the whole
 * request; all with one error when the response stands for none of them (a
 * body that is not JSON, an HTTP error status without JSON-RPC errors).
 */
function settleAll(items: Pending[], sent: Exchange, checks: ResultChecks | undefined, validateResponse: ResponseValidation): void {
  const { response, text, request } = sent;
  const failAll = (error: unknown) => items.forEach((i) => i.reject(error));
  const status = response.status;
  const contentType = response.headers.get("content-type");
  const parsed = text.trim() === "" ? undefined : parseJson(text);
  const ok = status >= 200 && status <= 299;
  if (!parsed?.ok) {
    if (!ok) return failAll(apiError({ request, statusCode: status, statusText: response.statusText, body: undefined, rawBody: text, headers: response.headers, retryAfterMs: sent.retryAfterMs }));
    return failAll(new ResponseParseError(`${request.operationId}: expected a JSON-RPC response but the ${status} body was ${parsed ? "not valid JSON" : "empty"}`, { request, statusCode: status, rawBody: text, contentType }));
  }
  const body = parsed.value;
  const replies = Array.isArray(body) ? body : [body];
  const byId = new Map<unknown, unknown>();
  for (const r of replies) if (isRecord(r) && hasOwn(r, "id")) byId.set(r["id"], r);
  // One error object with a null id answers the whole request (parse error, invalid request).
  const whole = !Array.isArray(body) && isRecord(body) && body["id"] === null && isRecord(body["error"]) ? body : undefined;
  if (!ok && !whole && !replies.some((r) => isRecord(r) && isRecord(r["error"]))) {
    return failAll(apiError({ request, statusCode: status, statusText: response.statusText, body, rawBody: text, headers: response.headers, retryAfterMs: sent.retryAfterMs }));
  }
  for (const item of items) {
    const reply = byId.get(item.envelope.id) ?? whole;
    if (reply === undefined) {
      item.reject(new ResponseParseError(`${item.method.method}: the response has no reply for request id ${item.envelope.id}`, { request, statusCode: status, rawBody: text, contentType }));
      continue;
    }
    try {
      item.resolve(readReply(item.method, reply, request, status, { checks, validateResponse, numbers: item.numbers }));
    } catch (error) {
      item.reject(overflowError(error, { ...request, operationId: item.method.method }));
    }
  }
}

/**
 * A JSON-RPC transport for the given options. `results` (the generated
 * `…Results` map) is needed only when `validateResponse` is on;
 * `defaultNumbers` applies when the options do not say `numbers`.
 */
export function createRpcTransport(options: RpcClientOptions, defaultBaseUrl: string, results?: ResultChecks, defaultNumbers: Numbers = "string"): RpcTransport {
  const numbers = options.numbers ?? defaultNumbers;
  const validateResponse = options.validateResponse ?? "off";
  const checks = requireResults(options.validateResponse, results);
  const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "");
  const maxSize = Math.max(1, Math.floor(options.batch?.maxSize ?? 40));
  const auto = options.batch?.auto ?? false;
  const wait = options.batch?.wait ?? 0;
  // the options are the send config: fetch, retry, timeoutMs, the hooks and the budget
  const config: SendConfig = options;
  const baseHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.headers ?? {})) baseHeaders[k.toLowerCase()] = v;
  let nextId = 1;
  let queue: Pending[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const urlOf = (m: RpcMethod) => baseUrl + m.endpoint;
  const warnDeprecated = deprecationNotice(options.deprecationWarnings);

  function headersFor(m: RpcMethod, extra?: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...baseHeaders };
    for (const [k, v] of Object.entries(extra ?? {})) h[k.toLowerCase()] = v;
    for (const [k, v] of Object.entries(h)) {
      const problem = headerProblem(k, v);
      if (problem) throw invalid(m, urlOf(m), `/${k}`, problem);
    }
    h["content-type"] = "application/json";
    h["accept"] = "application/json";
    return h;
  }

  function prepare(m: RpcMethod, params: object | undefined, resolve: Pending["resolve"], reject: Pending["reject"], callNumbers?: Numbers): Pending {
    let envelope;
    try {
      envelope = { jsonrpc: "2.0" as const, id: nextId++, method: m.method, params: serializeParams(m, params, urlOf(m)) };
    } catch (error) {
      // params too deep for the check or the integer walk (depth.ts)
      throw overflowError(error, { operationId: m.method, method: "POST", url: withoutCredentials(urlOf(m)) });
    }
    warnDeprecated(m.deprecated);
    m.deprecatedValues?.(params, warnDeprecated);
    return { method: m, numbers: callNumbers ?? numbers, envelope, resolve, reject };
  }

  /** Sends items to one endpoint, as one envelope or as a batch array, and settles every item. */
  async function send(items: Pending[], asBatch: boolean, callOptions?: CallOptions): Promise<void> {
    const m = items[0]!.method;
    const url = urlOf(m);
    const budget = config.budget;
    // a batch beyond what the budget knows the server takes goes in parts
    if (asBatch && budget && items.length > budget.batchCap(url)) return inParts(items, budget.batchCap(url), callOptions);
    const failAll = (error: unknown) => items.forEach((i) => i.reject(error));
    let headers: Record<string, string>;
    try {
      headers = headersFor(m, callOptions?.headers);
    } catch (error) {
      return failAll(error);
    }
    let payload: string;
    try {
      payload = JSON.stringify(asBatch ? items.map((i) => i.envelope) : items[0]!.envelope);
    } catch (error) {
      // params the check let through that are nested deeper than JSON.stringify can follow
      return failAll(overflowError(error, { operationId: m.method, method: "POST", url: withoutCredentials(url) }));
    }
    let sent;
    try {
      sent = await exchange(
        config,
        {
          request: { operationId: asBatch ? `batch of ${items.length}` : m.method, method: "POST", url: withoutCredentials(url) },
          url,
          init: { method: "POST", headers, body: payload },
          idempotent: items.every((i) => i.method.idempotent === true),
          secrets: [],
          cost: budget && items.reduce<number | undefined>((n, i) => (i.method.limits?.cost === undefined ? n : (n ?? 0) + i.method.limits.cost), undefined),
          transient: allTransient,
        },
        callOptions,
        (name, value) => {
          const problem = headerProblem(name, value);
          if (problem) throw invalid(m, url, `/${name}`, problem);
        },
      );
    } catch (error) {
      return failAll(error);
    }
    // refused for its size: the halves go again, and the budget remembers the smaller size
    if (asBatch && budget?.batchRefused(url, items.length, sent.response.status, sent.text)) return inParts(items, Math.ceil(items.length / 2), callOptions);
    settleAll(items, sent, checks, validateResponse);
  }

  async function inParts(items: Pending[], size: number, callOptions?: CallOptions): Promise<void> {
    const parts: Promise<void>[] = [];
    for (let i = 0; i < items.length; i += size) parts.push(send(items.slice(i, i + size), true, callOptions));
    await Promise.all(parts);
  }

  /** Groups by endpoint and splits into chunks of at most maxSize. */
  function dispatch(items: Pending[], forceBatch: boolean): void {
    const byEndpoint = new Map<string, Pending[]>();
    for (const i of items) {
      const list = byEndpoint.get(i.method.endpoint) ?? [];
      list.push(i);
      byEndpoint.set(i.method.endpoint, list);
    }
    for (const list of byEndpoint.values()) {
      if (list.length === 1 && !forceBatch) void send(list, false);
      else for (let i = 0; i < list.length; i += maxSize) void send(list.slice(i, i + maxSize), true);
    }
  }

  function flush(): void {
    timer = undefined;
    const items = queue;
    queue = [];
    dispatch(items, false);
  }

  const call: RpcCall = <P, R>(m: RpcMethod<P, R>, params: P, callOptions?: CallOptions) =>
    new Promise<R>((resolve, reject) => {
      const item = prepare(m, params as object | undefined, resolve as Pending["resolve"], reject, callOptions?.numbers);
      // a call with its own signal, headers, retry or timeout goes alone
      if (!auto || (callOptions !== undefined && Object.entries(callOptions).some(([k, v]) => k !== "numbers" && v !== undefined))) {
        void send([item], false, callOptions);
        return;
      }
      queue.push(item);
      timer ??= setTimeout(flush, wait);
    });

  async function batch<const T extends readonly Promise<unknown>[]>(build: (call: RpcCall) => T): Promise<BatchResults<T>> {
    const collected: Pending[] = [];
    const collect: RpcCall = <P, R>(m: RpcMethod<P, R>, params: P, callOptions?: CallOptions) =>
      new Promise<R>((resolve, reject) => {
        collected.push(prepare(m, params as object | undefined, resolve as Pending["resolve"], reject, callOptions?.numbers));
      });
    const calls = build(collect);
    if (collected.length > 0) dispatch(collected, true);
    const settled = await Promise.allSettled(calls);
    return settled.map((s) =>
      s.status === "fulfilled"
        ? { ok: true, value: s.value }
        : { ok: false, error: s.reason instanceof AvaspecError ? s.reason : new AvaspecError(String(s.reason), undefined, { cause: s.reason }) },
    ) as unknown as BatchResults<T>;
  }

  return { call, batch };
}
