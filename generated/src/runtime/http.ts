/**
 * HTTP transport: turns an operation descriptor (generated from the spec) and
 * one object of named parameters into a request, sends it with `fetch`, and
 * turns the response into a typed value or a typed error.
 */
import { ResponseParseError, ValidationError, apiError, type RequestInfo, type ValidationIssue, isRecord } from "./errors.js";
import { exchange, type ReliabilityOptions, type SendConfig, type SendOptions } from "./send.js";
import { hasOwn, type Check } from "./validate.js";

export type ParamLocation = "path" | "query" | "header" | "cookie";

/** How one parameter travels, as the spec's `in`, `style` and `explode` say. */
export interface ParamSpec {
  readonly name: string;
  readonly in: ParamLocation;
  readonly required?: boolean;
  /** OpenAPI style; defaults: `simple` for path/header, `form` for query/cookie. */
  readonly style?: "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  /** Defaults to true for `form`, false otherwise. */
  readonly explode?: boolean;
}

/** Everything the runtime needs to know about one HTTP operation. */
export interface HttpOperation {
  readonly id: string;
  readonly method: string;
  /** Path template, e.g. `/v1/chains/{chainId}`. */
  readonly path: string;
  readonly params: readonly ParamSpec[];
  readonly body?: { readonly required: boolean; readonly contentType: string };
  /** What a 2XX body is: JSON, text, or nothing. */
  readonly response: "json" | "text" | "none";
  /** The API-key scheme the operation accepts, if any. */
  readonly apiKey?: { readonly name: string; readonly in: "header" | "query" };
  /** Safe to repeat, so retried by default (the generator sets it for GET, HEAD, OPTIONS, PUT, DELETE and `x-avaspec-idempotent`). */
  readonly idempotent?: boolean;
  /** Non-2XX statuses whose body is the result, not an error (a health check's 503). */
  readonly returns?: readonly number[];
  /** Generated check of the params object; runs before anything is sent. */
  readonly check?: Check;
  /** Generated check of the 2XX body; runs when response validation is on. */
  readonly result?: Check;
}

/**
 * What to do with a response that does not match the spec: nothing (the
 * default: servers add fields and values faster than specs follow), log a
 * warning, or throw a ValidationError carrying the status, issues and body.
 */
export type ResponseValidation = "off" | "warn" | "strict";

export interface HttpClientOptions extends ReliabilityOptions {
  /** Base URL of the service; the spec's first server is the default. */
  baseUrl?: string;
  /** A fetch implementation; defaults to the global `fetch` at call time. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Check response bodies against the spec (default "off"). */
  validateResponse?: ResponseValidation;
}

/** Options for one call: the signal, extra headers, and overrides of the client's retry and timeout. */
export interface CallOptions extends SendOptions {
  /** Extra headers for this call only. */
  headers?: Record<string, string>;
}

/** A client's settled configuration. */
export interface HttpConfig extends SendConfig {
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly apiKey: string | undefined;
  readonly validateResponse: ResponseValidation;
}

export function resolveHttpConfig(options: HttpClientOptions & { apiKey?: string }, defaultBaseUrl: string): HttpConfig {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k] = v;
  return {
    baseUrl: (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, ""),
    fetch: options.fetch,
    headers,
    apiKey: options.apiKey === "" ? undefined : options.apiKey,
    validateResponse: options.validateResponse ?? "off",
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    onRequest: options.onRequest,
    onResponse: options.onResponse,
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

function entriesOf(value: Record<string, unknown>): [string, unknown][] {
  return Object.keys(value).filter((k) => value[k] !== undefined).map((k) => [k, value[k]]);
}

const enc = encodeURIComponent;

function pathValue(op: HttpOperation, spec: ParamSpec, value: unknown): string {
  const style = spec.style ?? "simple";
  const explode = spec.explode ?? false;
  const prefix = style === "label" ? "." : style === "matrix" ? `;${enc(spec.name)}=` : "";
  let out: string;
  if (Array.isArray(value)) {
    const parts = value.map((v) => enc(scalar(op, spec.name, v)));
    out = style === "matrix" && explode ? parts.map((p) => `;${enc(spec.name)}=${p}`).join("") : prefix + parts.join(explode && style === "label" ? "." : ",");
  } else if (isRecord(value)) {
    const kv = entriesOf(value).map(([k, v]) => [enc(k), enc(scalar(op, spec.name, v))] as const);
    out = prefix + (explode ? kv.map(([k, v]) => `${k}=${v}`).join(",") : kv.map(([k, v]) => `${k},${v}`).join(","));
  } else {
    const s = scalar(op, spec.name, value);
    // A whole segment of dots would be removed by URL normalisation and change the target.
    if (s === "" || s === "." || s === "..") fail(op, op.path, `/${spec.name}`, `path parameter "${spec.name}" must not be ${s === "" ? "empty" : `"${s}"`}`);
    out = prefix + enc(s);
  }
  return out;
}

function queryPairs(op: HttpOperation, spec: ParamSpec, value: unknown): string[] {
  const style = spec.style ?? "form";
  const explode = spec.explode ?? style === "form";
  const name = enc(spec.name);
  if (Array.isArray(value)) {
    const parts = value.map((v) => enc(scalar(op, spec.name, v)));
    if (explode) return parts.map((p) => `${name}=${p}`);
    const sep = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [`${name}=${parts.join(sep)}`];
  }
  if (isRecord(value)) {
    const kv = entriesOf(value);
    if (style === "deepObject") return kv.map(([k, v]) => `${name}%5B${enc(k)}%5D=${enc(scalar(op, spec.name, v))}`);
    if (explode) return kv.map(([k, v]) => `${enc(k)}=${enc(scalar(op, spec.name, v))}`);
    return [`${name}=${kv.map(([k, v]) => `${enc(k)},${enc(scalar(op, spec.name, v))}`).join(",")}`];
  }
  return [`${name}=${enc(scalar(op, spec.name, value))}`];
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header cannot be sent as is, or undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `${JSON.stringify(name)} is not a valid HTTP header name`;
  // CR, LF or NUL in a header value would split or corrupt the request.
  if (/[\r\n\0]/.test(value)) return `header "${name}" must not contain CR, LF or NUL characters`;
  return undefined;
}

function headerValue(op: HttpOperation, name: string, value: string): string {
  const problem = headerProblem(name, value);
  if (problem) fail(op, op.path, `/${name}`, problem);
  return value;
}

/** Builds the URL, headers and body of a call; throws ValidationError before anything is sent. */
export function buildRequest(config: HttpConfig, op: HttpOperation, params: Params | undefined, options?: CallOptions): { url: string; safeUrl: string; init: RequestInit & { headers: Record<string, string> } } {
  if (params !== undefined && !isRecord(params)) fail(op, op.path, "", `parameters must be an object, got ${describe(params)}`);
  if (op.check) checkParams(op.id, op.method, op.path, op.check, params ?? {});
  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [k, v] of Object.entries(config.headers)) headers[k.toLowerCase()] = headerValue(op, k, v);
  for (const spec of op.params) {
    const value = read(params, spec.name);
    if (value === undefined || value === null) {
      if (spec.required) fail(op, op.path, `/${spec.name}`, `missing required ${spec.in} parameter "${spec.name}"`);
      continue;
    }
    switch (spec.in) {
      case "path":
        pathValues.set(spec.name, pathValue(op, spec, value));
        break;
      case "query":
        query.push(...queryPairs(op, spec, value));
        break;
      case "header":
        headers[spec.name.toLowerCase()] = headerValue(op, spec.name, Array.isArray(value) ? value.map((v) => scalar(op, spec.name, v)).join(",") : scalar(op, spec.name, value));
        break;
      case "cookie":
        cookies.push(`${enc(spec.name)}=${enc(scalar(op, spec.name, value))}`);
        break;
    }
  }
  if (cookies.length > 0) headers["cookie"] = cookies.join("; ");
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = pathValues.get(name);
    if (v === undefined) fail(op, op.path, `/${name}`, `missing required path parameter "${name}"`);
    return v;
  });
  let url = config.baseUrl + path;
  const safeUrl = withoutCredentials(url) + (query.length > 0 ? `?${query.join("&")}` : "");
  if (op.apiKey && config.apiKey !== undefined) {
    if (op.apiKey.in === "header") headers[op.apiKey.name.toLowerCase()] = headerValue(op, op.apiKey.name, config.apiKey);
    else query.push(`${enc(op.apiKey.name)}=${enc(config.apiKey)}`);
  }
  if (query.length > 0) url += `?${query.join("&")}`;
  for (const [k, v] of Object.entries(options?.headers ?? {})) headers[k.toLowerCase()] = headerValue(op, k, v);
  headers["accept"] ??= op.response === "text" ? "text/plain" : "application/json";
  const init: RequestInit & { headers: Record<string, string> } = { method: op.method.toUpperCase(), headers };
  const body = read(params, "body");
  if (op.body) {
    if (body === undefined) {
      if (op.body.required) fail(op, safeUrl, "/body", "missing required request body \"body\"");
    } else {
      headers["content-type"] = op.body.contentType;
      init.body = op.body.contentType.includes("json") ? JSON.stringify(body) : (body as BodyInit);
    }
  }
  return { url, safeUrl, init };
}

/** Throws a ValidationError naming the first bad parameter when the params object does not match the spec. */
export function checkParams(operationId: string, method: string, url: string, check: Check, params: object): void {
  if (check(params, "", null)) return;
  const issues: ValidationIssue[] = [];
  check(params, "", issues);
  const first = issues[0]!;
  const name = first.path.split("/")[1]?.replace(/~1/g, "/").replace(/~0/g, "~");
  const where = name === undefined ? "params" : `parameter "${name}"${first.path.split("/").length > 2 ? ` at ${first.path}` : ""}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? "s" : ""})` : "";
  throw new ValidationError(`${operationId}: ${where} ${first.message}${more}`, { request: { operationId, method, url }, issues });
}

/** Applies the response-validation setting to a parsed body. */
export function checkResult(mode: ResponseValidation, request: RequestInfo, check: Check | undefined, value: unknown, statusCode: number, rawBody: string): void {
  if (mode === "off" || !check || check(value, "", null)) return;
  const issues: ValidationIssue[] = [];
  check(value, "", issues);
  const message = `${request.operationId}: the ${statusCode} response does not match the spec: ${issues[0]!.path || "/"} ${issues[0]!.message}`;
  if (mode === "strict") throw new ValidationError(message, { request, issues, statusCode, rawBody });
  console.warn(`[avaspec] ${message}`);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Sends one call and returns the typed 2XX body (or a body the spec lists in `returns`); throws a typed error otherwise. */
export async function callHttp<T>(config: HttpConfig, op: HttpOperation, params: Params | undefined, options?: CallOptions): Promise<T> {
  const { url, safeUrl, init } = buildRequest(config, op, params, options);
  const method = init.method ?? "GET";
  const { response, text, request, retryAfterMs } = await exchange(
    config,
    {
      request: { operationId: op.id, method, url: safeUrl },
      url,
      init,
      idempotent: op.idempotent === true,
      secrets: config.apiKey === undefined ? [] : [config.apiKey],
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
    });
  }
  if (op.response === "none" || response.status === 204 || response.status === 205) return undefined as T;
  if (op.response === "text") {
    checkResult(config.validateResponse, request, op.result, text, response.status, text);
    return text as T;
  }
  if (text.trim() === "") {
    throw new ResponseParseError(`${op.id}: expected a JSON body but the ${response.status} response was empty`, { request, statusCode: response.status, rawBody: text, contentType });
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    throw new ResponseParseError(`${op.id}: expected a JSON body but the ${response.status} response (${contentType ?? "no content-type"}) is not valid JSON`, { request, statusCode: response.status, rawBody: text, contentType, cause: parsed.error });
  }
  checkResult(config.validateResponse, request, op.result, parsed.value, response.status, text);
  return parsed.value as T;
}
