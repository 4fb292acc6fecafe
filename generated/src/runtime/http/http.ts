/**
 * HTTP transport: turns an operation descriptor (generated from the spec) and
 * one object of named parameters into a request, sends it with `fetch`, and
 * turns the response into a typed value or a typed error.
 */
import type { ValueWatch } from "../values/values.js";
import { ResponseParseError, UnsendableRequestError, ValidationError, apiError, paramsError, type RequestInfo, type ValidationIssue, isRecord } from "../errors/errors.js";
import { exchange, type ReliabilityOptions, type SendConfig, type SendOptions } from "./send.js";
import { UNSENDABLE_HEADER } from "./unsendable.js";
import { hasOwn, run, type Check } from "../values/validate.js";
import { overflowError } from "../errors/depth.js";
import type { Decoder, Encoder, Numbers } from "../values/numbers.js";
import type { Normalizer } from "../values/wire-forms.js";
import type { OperationLimits } from "../values/limits.js";
import { adviceFor, type ErrorAdvice } from "./advice.js";

export type ParamLocation = "path" | "query" | "querystring" | "header" | "cookie";

export type ParamStyleName = "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

/**
 * Serializes a parameter in a non-default style: the path segment, or the
 * query's `name=value` pairs, already percent-encoded. `text` turns one
 * scalar into a string (or throws a ValidationError naming the parameter).
 */
export type ParamEncoder = (spec: ParamSpec, value: unknown, text: (value: unknown) => string) => string | string[];

/** How one parameter travels, as the spec's `in`, `style` and `explode` say. */
export interface ParamSpec {
  readonly name: string;
  /** Its property in the params object when that is not `name` (two parameters of one name in different locations). */
  readonly key?: string;
  readonly in: ParamLocation;
  readonly required?: boolean;
  /** OpenAPI style; defaults: `simple` for path/header, `form` for query/cookie. */
  readonly style?: ParamStyleName;
  /** Defaults to true for `form`, false otherwise. */
  readonly explode?: boolean;
  /** Query only: reserved characters and `%XX` escapes are sent as they are (RFC 6570 reserved expansion). */
  readonly allowReserved?: boolean;
  /** A parameter given by a media type (`content`): JSON text, or (a querystring) form fields; else the value as text. */
  readonly content?: "json" | "form";
  /**
   * The serializer of a non-default style or explode, or of reserved
   * expansion (`pathStyle`, `queryStyle`), or of a header that may be an
   * object (`headerStyle`); the generator sets it only where the spec asks
   * for one, so bundles of default-style operations do not carry style code.
   */
  readonly encode?: ParamEncoder;
}

/** How one field of a form body is serialized, when its Encoding Object gives a style: as a query parameter of that style. */
export interface FieldStyle {
  readonly style: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  readonly explode: boolean;
  readonly allowReserved?: boolean;
}

/**
 * Turns the params' `body` into what fetch sends, with its content type (none
 * for FormData: fetch sets the boundary); `fields` are the styled fields of a
 * form body.
 */
export type BodyEncoder = (body: unknown, fields?: Readonly<Record<string, FieldStyle>>) => { body: BodyInit; contentType?: string };

declare const operationTypes: unique symbol;

/**
 * Everything the runtime needs to know about one HTTP operation. `P` and `R`
 * are the params and result types (type-level only), so `callHttp` infers them.
 */
export interface HttpOperation<P = any, R = unknown> {
  readonly id: string;
  readonly method: string;
  /** Path template, e.g. `/v1/chains/{chainId}`. */
  readonly path: string;
  /**
   * The operation's own base URL (its or its path's `servers` in the spec),
   * used instead of the client's `baseUrl`; a relative one is resolved
   * against the client's base URL. `operationServers` overrides it.
   */
  readonly server?: string;
  readonly params: readonly ParamSpec[];
  /** The request body: JSON unless `encode` says otherwise (`formBody`, `multipartBody`); raw bytes and text go as given. */
  readonly body?: { readonly required: boolean; readonly contentType: string; readonly encode?: BodyEncoder; readonly fields?: Readonly<Record<string, FieldStyle>> };
  /**
   * What a 2XX body is: JSON, text, bytes (returned as a Blob), nothing, or
   * `any` (the spec's `*∕*`): parsed as JSON when the response's content type
   * is JSON, else returned as text.
   */
  readonly response: "json" | "text" | "binary" | "any" | "none";
  /** The `Accept` header when the response kind's default would not say it (`text/event-stream`). */
  readonly accept?: string;
  /**
   * The API-key schemes the operation accepts (header or query): the
   * client's `apiKey` goes under the first, `apiKeys` under each scheme it names.
   */
  readonly apiKeys?: readonly ApiKeyPlace[];
  /** Safe to repeat, so retried by default (the generator sets it for GET, HEAD, OPTIONS, PUT, DELETE and `x-avaspec-idempotent`). */
  readonly idempotent?: boolean;
  /** Set when the operation is deprecated: what the first call warns (see `deprecationWarnings`). */
  readonly deprecated?: string;
  /** Set when its params can carry a value the server no longer takes (`x-avaspec-deprecated-values`): warns once per value, as `deprecated` does. */
  readonly deprecatedValues?: ValueWatch;
  /** Non-2XX statuses whose body is the result, not an error (a health check's 503). */
  readonly returns?: readonly number[];
  /** What an error's message advises, by status (the spec's `x-avaspec-advice`). */
  readonly advice?: ErrorAdvice;
  /** Its cost, caps and limit signals (the spec's `x-avaspec-limits`): what a budget (`createBudget`) charges and recognises. */
  readonly limits?: OperationLimits;
  /** Generated check of the params object; runs before anything is sent. */
  readonly check?: Check;
  /** The params' string-encoded integers: bigints and numbers given for them are sent in their wire form. */
  readonly paramIntegers?: Encoder;
  /** The result's integers: read as bigints under `numbers: "bigint"` (JSON numbers beyond 2^53 from the text). */
  readonly resultIntegers?: Decoder;
  /** The result's values servers send in another form than documented (`x-avaspec-wire-form`): converted before it is returned. */
  readonly resultForms?: Normalizer;
  /** Never set: carries the params and result types. */
  readonly [operationTypes]?: { params: P; result: R };
}

/** Where one API-key scheme puts the key: its name in the spec (`apiKeys` names it), and the header (the default) or query parameter. */
export interface ApiKeyPlace {
  readonly scheme: string;
  readonly name: string;
  readonly in?: "query";
}

/**
 * A module's response validation: the check of each descriptor's 2XX body
 * (the generated `…Results`). Kept apart from the descriptors, so that a
 * bundle which does not validate responses carries neither the validators
 * nor this code.
 */
export interface ResultChecks {
  /** The check of one descriptor's result. */
  get(descriptor: object): Check | undefined;
  /** Applies a `validateResponse` mode to one result: nothing, a warning, or a ValidationError (`rawBody` is read only then). */
  apply(mode: ResponseValidation, request: RequestInfo, descriptor: object, value: unknown, statusCode: number, rawBody: string | (() => string)): void;
}

/** `[descriptor, check]` pairs, or a function returning them (read on first use). */
export type ResultPairs = readonly (readonly [object, Check])[] | (() => readonly (readonly [object, Check])[]);

/**
 * Builds a module's ResultChecks from `[descriptor, check]` pairs (generated
 * code calls it). Generated modules pass a function declaration: TypeScript
 * analyses the references inside a function body against the function alone,
 * where a module-level list of thousands would have each reference walk back
 * over every declaration before it.
 */
export function resultChecks(entries: ResultPairs): ResultChecks {
  let checks: Map<object, Check> | undefined;
  const checkOf = (descriptor: object) => (checks ??= new Map(typeof entries === "function" ? entries() : entries)).get(descriptor);
  return {
    get: checkOf,
    apply(mode, request, descriptor, value, statusCode, rawBody) {
      const check = checkOf(descriptor);
      if (mode === "off" || check === undefined) return;
      const result = run(check, value, true);
      if (result.ok) return;
      const { issues } = result;
      const message = `${request.operationId}: the ${statusCode} response does not match the spec: ${issues[0]!.path || "/"} ${issues[0]!.message}`;
      if (mode === "strict") throw new ValidationError(message, { request, issues, statusCode, rawBody: typeof rawBody === "string" ? rawBody : rawBody() });
      console.warn(`[avaspec] ${message}`);
    },
  };
}

/**
 * What to do with a response that does not match the spec: nothing (the
 * default: servers add fields and values faster than specs follow), log a
 * warning, or throw a ValidationError carrying the status, issues and body.
 */
export type ResponseValidation = "off" | "warn" | "strict";

export interface HttpClientOptions extends ReliabilityOptions {
  /**
   * Base URL of the service; the spec's first server is the default. An
   * operation whose path or operation declares servers of its own goes to
   * the first of those instead (a relative one below this base URL): set
   * `operationServers` to move it.
   */
  baseUrl?: string;
  /**
   * Base URLs of single HTTP operations, by operation id (the spec's
   * `operationId`, or the method name when it has none): each replaces the
   * server the operation would use, its own or the client's base URL.
   */
  operationServers?: Readonly<Record<string, string>>;
  /** A fetch implementation; defaults to the global `fetch` at call time. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Check response bodies against the spec (default "off"). */
  validateResponse?: ResponseValidation;
  /**
   * The first call of a deprecated operation (one the spec marks `deprecated`,
   * or deprecated or removed in a release) warns once: with `console.warn`,
   * once per process (default); with this function, once per client; never
   * with `false`.
   */
  deprecationWarnings?: boolean | ((message: string) => void);
  /**
   * How integers the spec sends as strings (`x-avaspec-integer`, string
   * formats int64/uint64) come back: `bigint`, or the wire's `string`. The
   * generated factory's default follows its family (`string` for HTTP APIs,
   * `bigint` for JSON-RPC), and the result types follow this option.
   * Parameters take a bigint, a number or a string either way. `JSON.stringify`
   * cannot write a bigint: convert (or use a replacer) before serialising results.
   */
  numbers?: Numbers;
  /**
   * What error messages advise, by status (`"401"`), range (`"5XX"`) or
   * `"default"`: said after what went wrong, before the spec's own advice
   * for the same status (an empty text silences it).
   */
  errorAdvice?: ErrorAdvice;
}

/** Messages `console.warn` has shown already in this process. */
const warnedInProcess = new Set<string>();

/** A function that warns about each deprecation message once, as `deprecationWarnings` says. */
export function deprecationNotice(option: HttpClientOptions["deprecationWarnings"]): (message: string | undefined) => void {
  if (option === false) return () => {};
  const seen = typeof option === "function" ? new Set<string>() : warnedInProcess;
  return (message) => {
    if (message === undefined || seen.has(message)) return;
    seen.add(message);
    if (typeof option === "function") option(message);
    else console.warn(`avaspec: ${message}`);
  };
}

/** Options for one call: the signal, extra headers, and overrides of the client's retry and timeout. */
export interface CallOptions extends SendOptions {
  /** Extra headers for this call only. */
  headers?: Record<string, string>;
  /** The client's `numbers` for this call only (types do not follow it: meant for code that passes values through, like an EIP-1193 provider). */
  numbers?: Numbers;
}

/** A client's settled configuration. */
export interface HttpConfig extends SendConfig {
  readonly baseUrl: string;
  /** Base URLs of single operations, by operation id (the `operationServers` option). */
  readonly operationServers?: Readonly<Record<string, string>> | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly apiKey: string | undefined;
  /** Keys by security scheme name (the `apiKeys` option); an empty one is not sent. */
  readonly apiKeys?: Readonly<Record<string, string | undefined>> | undefined;
  readonly validateResponse: ResponseValidation;
  readonly results: ResultChecks | undefined;
  /** Called with an operation's deprecation message before each call. */
  readonly warnDeprecated?: (message: string | undefined) => void;
  /** How string-encoded integers come back (default "string"). */
  readonly numbers?: Numbers;
  /** The `errorAdvice` option. */
  readonly errorAdvice?: ErrorAdvice | undefined;
  /** The spec's advice (`x-avaspec-advice` at its root), after the option's and the operation's. */
  readonly documentAdvice?: ErrorAdvice | undefined;
}

/** The checks `validateResponse` needs, or a clear error when they were not given. */
export function requireResults(validateResponse: ResponseValidation | undefined, results: ResultChecks | undefined): ResultChecks | undefined {
  if (validateResponse && validateResponse !== "off" && !results) throw new TypeError(`validateResponse "${validateResponse}" needs the module's …Results: pass them as \`results\``);
  return results;
}

/**
 * Settles client options into a config for `callHttp`. `results` (the
 * generated `…Results` map) is needed only when `validateResponse` is on;
 * `documentAdvice` is the spec's (the generated `…ErrorAdvice`), which the
 * client factories pass.
 */
export function resolveHttpConfig(options: HttpClientOptions & { apiKey?: string; apiKeys?: Readonly<Record<string, string | undefined>> }, defaultBaseUrl: string, results?: ResultChecks, defaultNumbers: Numbers = "string", documentAdvice?: ErrorAdvice): HttpConfig {
  return {
    // what passes as given: operationServers, fetch, apiKeys, retry, timeoutMs, the hooks, budget, errorAdvice
    ...options,
    numbers: options.numbers ?? defaultNumbers,
    baseUrl: (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, ""),
    headers: { ...options.headers },
    apiKey: options.apiKey || undefined,
    validateResponse: options.validateResponse ?? "off",
    results: requireResults(options.validateResponse, results),
    warnDeprecated: deprecationNotice(options.deprecationWarnings),
    documentAdvice,
  };
}

/** A URL fit for errors and logs: user-info (`user:pass@`) removed. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#@]*@/, "$1");
}

type Params = Record<string, unknown>;

/** Own-property read: `__proto__` and friends are plain keys, never the prototype. */
function read(params: Params | undefined, key: string): unknown {
  return params !== undefined && hasOwn(params, key) ? params[key] : undefined;
}

function fail(op: HttpOperation, url: string, path: string, message: string): never {
  throw new ValidationError(`${op.id}: ${message}`, {
    request: { operationId: op.id, method: op.method, url },
    issues: [{ path, message }],
  });
}

function scalar(op: HttpOperation, name: string, value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      if (!Number.isFinite(value)) fail(op, op.path, `/${name}`, `parameter "${name}" must be a finite number`);
      return String(value);
    case "boolean":
    case "bigint":
      return String(value);
    default:
      return fail(op, op.path, `/${name}`, `parameter "${name}" must be a string, number or boolean, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

const enc = encodeURIComponent;

/**
 * Whether an encoded path segment is empty or all dots (`.`, `..`): URL
 * normalisation would remove it and change the target. The rule of every
 * value the runtime puts in a path (path parameters, endpoint variables).
 */
export const dotSegment = (encoded: string): boolean => /^\.{0,2}$/.test(encoded);

/** Keys and values of an object parameter, percent-encoded (by `encode`), undefined values left out. */
export function encodedEntries(value: Record<string, unknown>, text: (v: unknown) => string, encode: (s: string) => string = enc): [string, string][] {
  return Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .map((k) => [encode(k), encode(text(value[k]))]);
}

/**
 * Default styles: path `simple` (`a,b`, `k,v`); query and cookie `form`
 * exploded, as `name=value` pairs (`n=a`, `n=b`; `k=v`), which a query joins
 * with `&` and a cookie header with `; `.
 */
function defaultEncode(spec: ParamSpec, value: unknown, text: (v: unknown) => string): string | string[] {
  const query = spec.in === "query" || spec.in === "cookie";
  if (Array.isArray(value)) {
    const parts = value.map((v) => enc(text(v)));
    return query ? parts.map((p) => `${enc(spec.name)}=${p}`) : parts.join(",");
  }
  if (isRecord(value)) {
    const kv = encodedEntries(value, text);
    return query ? kv.map(([k, v]) => `${k}=${v}`) : kv.flat().join(",");
  }
  const s = text(value);
  return query ? [`${enc(spec.name)}=${enc(s)}`] : enc(s);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header cannot be sent as is, or undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `${JSON.stringify(name)} is not a valid HTTP header name`;
  // CR, LF or NUL in a header value would split or corrupt the request.
  if (/[\r\n\0]/.test(value)) return `header "${name}" must not contain CR, LF or NUL characters`;
  return undefined;
}

/**
 * The base URL of an operation's requests: `operationServers` for it, else
 * its own server (a relative one resolved against the client's base URL),
 * else the client's base URL.
 */
function baseUrlOf(config: HttpConfig, op: HttpOperation): string {
  const chosen = config.operationServers;
  return (chosen !== undefined && hasOwn(chosen, op.id) ? chosen[op.id]! : op.server === undefined ? config.baseUrl : serverBase(op.server, config.baseUrl)).replace(/\/+$/, "");
}

/** An operation's own server as a base URL: an absolute one as it is, a relative one resolved against the client's base URL. */
export function serverBase(server: string, baseUrl: string): string {
  try {
    return /^[a-z][a-z\d+.-]*:/i.test(server) ? server : new URL(server, `${baseUrl}/`).href;
  } catch {
    // a relative base URL too (a browser's same-origin "/api"): the server's path as it is
    return server;
  }
}

/**
 * Refuses a request fetch could never send, before anything is: fetch's own
 * error would read as a network failure, and be retried.
 */
function refuse(op: HttpOperation, reason: string): never {
  throw new UnsendableRequestError(`${op.id}: fetch cannot send ${reason}, so the request was not sent`, { operationId: op.id, method: op.method, url: op.path });
}

/** A header value a call may send (CR, LF and NUL refused, and headers the HTTP stack writes): a ValidationError naming it otherwise. */
export function headerValue(op: HttpOperation, name: string, value: string): string {
  const problem = headerProblem(name, value);
  if (problem) fail(op, op.path, `/${name}`, problem);
  if (UNSENDABLE_HEADER.test(name)) refuse(op, `the header "${name}" (the HTTP stack writes it)`);
  return value;
}

/** Every key the client was given, whichever scheme carries it: what hooks, errors and warnings never show. */
export const secretsOf = (config: HttpConfig): (string | undefined)[] => [config.apiKey, ...Object.values(config.apiKeys ?? {})];

/** Builds the URL, headers and body of a call; throws ValidationError before anything is sent. */
export function buildRequest(config: HttpConfig, op: HttpOperation, params: Params | undefined, options?: CallOptions): { url: string; safeUrl: string; init: RequestInit & { headers: Record<string, string> } } {
  if (params !== undefined && !isRecord(params)) fail(op, op.path, "", `parameters must be an object, got ${describe(params)}`);
  if (op.paramIntegers && params !== undefined) params = op.paramIntegers(params, op.id, op.method, op.path);
  if (op.check) checkParams(op.id, op.method, op.path, op.check, params ?? {});
  // the methods the Fetch standard forbids, in any case (3.2's additionalOperations may name CONNECT or TRACK)
  if (/^(trace|track|connect)$/i.test(op.method)) refuse(op, `a ${op.method} request`);
  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [k, v] of Object.entries(config.headers)) headers[k.toLowerCase()] = headerValue(op, k, v);
  for (const spec of op.params) {
    const key = spec.key ?? spec.name;
    const value = read(params, key);
    if (value === undefined || value === null) {
      if (spec.required) fail(op, op.path, `/${key}`, `missing required ${spec.in} parameter "${key}"`);
      continue;
    }
    const text = (v: unknown) => scalar(op, spec.name, v);
    // a header is passed through without percent-encoding, as OpenAPI asks; an object one has an encoder (`headerStyle`)
    if (spec.in === "header") headers[spec.name.toLowerCase()] = headerValue(op, spec.name, spec.encode ? (spec.encode(spec, value, text) as string) : Array.isArray(value) ? value.map(text).join(",") : text(value));
    else if (spec.in === "cookie") cookies.push(...(spec.encode ?? defaultEncode)(spec, value, text));
    else {
      const encoded = (spec.encode ?? defaultEncode)(spec, value, text);
      if (typeof encoded !== "string") query.push(...encoded);
      else if (dotSegment(encoded)) fail(op, op.path, `/${spec.name}`, `path parameter "${spec.name}" must not be ${encoded === "" ? "empty" : `"${decodeURIComponent(encoded)}"`}`);
      else pathValues.set(spec.name, encoded);
    }
  }
  if (cookies.length > 0) headers["cookie"] = cookies.join("; ");
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = pathValues.get(name);
    if (v === undefined) fail(op, op.path, `/${name}`, `missing required path parameter "${name}"`);
    return v;
  });
  let url = baseUrlOf(config, op) + path;
  // a path with a query of its own: the next page's URL a server gave (paginate.ts)
  const sep = path.includes("?") ? "&" : "?";
  const safeUrl = withoutCredentials(url) + (query.length > 0 ? sep + query.join("&") : "");
  // under each scheme, the key apiKeys names for it, else (none, or an empty one) apiKey under the first scheme
  op.apiKeys?.forEach((place, i) => {
    const key = (config.apiKeys && hasOwn(config.apiKeys, place.scheme) && config.apiKeys[place.scheme]) || (!i && config.apiKey);
    if (!key) return;
    if (place.in === "query") query.push(`${enc(place.name)}=${enc(key)}`);
    else headers[place.name.toLowerCase()] = headerValue(op, place.name, key);
  });
  if (query.length > 0) url += sep + query.join("&");
  for (const [k, v] of Object.entries(options?.headers ?? {})) headers[k.toLowerCase()] = headerValue(op, k, v);
  headers["accept"] ??= op.accept ?? (op.response === "text" ? "text/plain" : op.response === "binary" || op.response === "any" ? "*/*" : "application/json");
  const init: RequestInit & { headers: Record<string, string> } = { method: op.method, headers };
  const body = read(params, "body");
  if (op.body) {
    if (body !== undefined && (op.method === "GET" || op.method === "HEAD")) refuse(op, `a body with ${op.method}`);
    if (body === undefined) {
      if (op.body.required) fail(op, safeUrl, "/body", "missing required request body \"body\"");
    } else {
      if (op.body.encode) {
        const encoded = op.body.encode(body, op.body.fields);
        if (encoded.contentType) headers["content-type"] = encoded.contentType;
        init.body = encoded.body;
      } else {
        headers["content-type"] = op.body.contentType;
        init.body = op.body.contentType.includes("json") ? JSON.stringify(body) : (body as BodyInit);
      }
    }
  }
  return { url, safeUrl, init };
}

/** Throws a ValidationError naming the first bad parameter when the params object does not match the spec. */
export function checkParams(operationId: string, method: string, url: string, check: Check, params: object): void {
  if (check(params, "", null)) return;
  const issues: ValidationIssue[] = [];
  check(params, "", issues);
  throw paramsError(operationId, method, url, issues);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Sends one call and returns the typed 2XX body (or a body the spec lists in `returns`); throws a typed error otherwise. */
export function callHttp<P, R>(config: HttpConfig, op: HttpOperation<P, R>, params: P, options?: CallOptions): Promise<R> {
  // a value too deep for the recursive walks (body writing, result checks and decoding) is a ValidationError (depth.ts)
  return sendHttp(config, op, params, options).catch((error: unknown) => {
    throw overflowError(error, { operationId: op.id, method: op.method, url: withoutCredentials(config.baseUrl + op.path) });
  });
}

async function sendHttp<P, R>(config: HttpConfig, op: HttpOperation<P, R>, params: P, options?: CallOptions): Promise<R> {
  const { url, safeUrl, init } = buildRequest(config, op, params as Params | undefined, options);
  const warn = config.warnDeprecated;
  if (warn) {
    warn(op.deprecated);
    op.deprecatedValues?.(params, warn);
  }
  const method = init.method ?? "GET";
  const { response, text, bytes, request, retryAfterMs } = await exchange(
    config,
    {
      request: { operationId: op.id, method, url: safeUrl },
      url,
      init,
      idempotent: op.idempotent === true,
      secrets: secretsOf(config),
      binary: op.response === "binary",
      cost: op.limits?.cost,
      results: op.returns,
    },
    options,
    (name, value) => headerValue(op, name, value),
  );
  const contentType = response.headers.get("content-type");
  if ((response.status < 200 || response.status > 299) && !op.returns?.includes(response.status)) {
    const parsed = text.trim() === "" ? undefined : parseJson(text);
    throw apiError({
      request,
      statusCode: response.status,
      statusText: response.statusText,
      body: parsed?.ok ? parsed.value : undefined,
      rawBody: text,
      headers: response.headers,
      retryAfterMs,
      advice: adviceFor(response.status, config.errorAdvice, op.advice, config.documentAdvice),
    });
  }
  if (op.response === "none" || response.status === 204 || response.status === 205) return undefined as R;
  if (op.response === "binary") return new Blob(bytes ? [bytes] : [], { type: contentType ?? "application/octet-stream" }) as R;
  if (op.response === "text") {
    config.results?.apply(config.validateResponse, request, op, text, response.status, text);
    return text as R;
  }
  // any media type: what is not JSON comes back as the text it is (the result type includes string)
  if (op.response === "any" && !/[/+]json\b/i.test(contentType ?? "")) return text as R;
  if (text.trim() === "") {
    throw new ResponseParseError(`${op.id}: expected a JSON body but the ${response.status} response was empty`, { request, statusCode: response.status, rawBody: text, contentType });
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    throw new ResponseParseError(`${op.id}: expected a JSON body but the ${response.status} response (${contentType ?? "no content-type"}) is not valid JSON`, { request, statusCode: response.status, rawBody: text, contentType, cause: parsed.error });
  }
  config.results?.apply(config.validateResponse, request, op, parsed.value, response.status, text);
  const value = op.resultForms?.(parsed.value) ?? parsed.value;
  // the text too: integers beyond 2^53 (format int64) are read from it (values/exact.ts)
  return (op.resultIntegers ? op.resultIntegers(value, options?.numbers ?? config.numbers, text, request) : value) as R;
}
