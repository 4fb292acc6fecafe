/**
 * Errors thrown by @avaspec/client. Every error the runtime throws is an
 * `AvaspecError`, so one `instanceof` check catches them all; the subclasses
 * say what went wrong and carry what a caller needs to react to it.
 */

/** Where a failed call was going. The URL never contains credentials. */
export interface RequestInfo {
  operationId: string;
  method: string;
  url: string;
  /** Requests sent for the call so far (0: it failed before anything was sent). */
  attempts?: number;
}

export class AvaspecError extends Error {
  override name = "AvaspecError";
  readonly request: RequestInfo | undefined;
  /** The operation id (HTTP) or method name (JSON-RPC) of the failed call. */
  readonly operationId: string | undefined;
  /** HTTP method of the request (`GET`; `POST` for JSON-RPC). */
  readonly httpMethod: string | undefined;
  /** The request URL, without the API key or any user-info. */
  readonly url: string | undefined;
  /** How many requests were sent for the call, retries included (0 when it failed before sending). */
  readonly attempts: number;
  constructor(message: string, request?: RequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.request = request;
    this.operationId = request?.operationId;
    this.httpMethod = request?.method;
    this.url = request?.url;
    this.attempts = request?.attempts ?? 0;
  }
}

/** " after 3 attempts" when the call was retried, else "". */
export function afterAttempts(request: RequestInfo | undefined): string {
  return request?.attempts !== undefined && request.attempts > 1 ? ` after ${request.attempts} attempts` : "";
}

/** The error body the services send: `message` may be a string or a list of strings. */
export interface ErrorBodyLike {
  message?: string | string[];
  statusCode?: number;
  error?: string;
  [key: string]: unknown;
}

/**
 * The server answered with a non-2XX status. `statusCode`, `error` and
 * `messages` come from the error body when it has them (else from the HTTP
 * status line); `body` is the parsed body, `rawBody` the text received.
 */
export class ApiError<TBody = ErrorBodyLike> extends AvaspecError {
  override name = "ApiError";
  readonly statusCode: number;
  readonly error: string;
  /** The body's `message`, always as a list. */
  readonly messages: string[];
  readonly body: TBody | undefined;
  readonly rawBody: string;
  readonly headers: Headers;
  /** The wait the server asked for in `Retry-After`, in ms, when it sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit<TBody>) {
    const b = (isRecord(init.body) ? init.body : {}) as ErrorBodyLike;
    const messages = normalizeMessages(b.message);
    const error = typeof b.error === "string" && b.error !== "" ? b.error : init.statusText || `HTTP ${init.statusCode}`;
    const detail = messages.length > 0 ? `: ${messages.join("; ")}` : "";
    const hint = hintFor(init.statusCode, init.retryAfterMs);
    const what = `${init.request.operationId} failed with ${init.statusCode} ${error}${afterAttempts(init.request)}${detail}`;
    super(`${what}${/[.!?]$/.test(what) ? "" : "."}${hint ? ` ${hint}` : ""}`, init.request);
    this.statusCode = init.statusCode;
    this.error = error;
    this.messages = messages;
    this.body = init.body;
    this.rawBody = init.rawBody;
    this.headers = init.headers;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export interface ApiErrorInit<TBody = ErrorBodyLike> {
  request: RequestInfo;
  statusCode: number;
  statusText: string;
  body: TBody | undefined;
  rawBody: string;
  headers: Headers;
  retryAfterMs?: number | undefined;
}

function hintFor(status: number, retryAfterMs: number | undefined): string {
  switch (status) {
    case 400:
      return "Check the parameters: the body's message says which one.";
    case 401:
      return "The request needs valid credentials: check the apiKey option.";
    case 403:
      return "The credentials are valid but not allowed to do this.";
    case 404:
      return "Check the ids in the path.";
    case 408:
    case 504:
      return "The server timed out; try again later.";
    case 429:
      return retryAfterMs !== undefined
        ? `Rate limit exceeded: the server asks to wait ${Math.ceil(retryAfterMs / 1000)} s (retryAfterMs).`
        : "Rate limit exceeded: slow down or retry later.";
    default:
      return status >= 500 ? "A server-side problem; try again later." : "";
  }
}

/** 400: invalid or malformed parameters. */
export class BadRequestError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "BadRequestError";
}
/** 401: the request lacks valid credentials. */
export class UnauthorizedError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "UnauthorizedError";
}
/** 403: valid credentials without the privilege for the action. */
export class ForbiddenError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "ForbiddenError";
}
/** 404: no such resource (or a mistyped URL). */
export class NotFoundError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "NotFoundError";
}
/** 429: rate limit exceeded; `retryAfterMs` says how long to wait when the server said. */
export class RateLimitError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "RateLimitError";
}
/** 500: an uncaught server-side error. */
export class InternalServerError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "InternalServerError";
}
/** 502: the gateway got an invalid response from upstream. */
export class BadGatewayError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "BadGatewayError";
}
/** 503: the service (or one of its subnet nodes) is unavailable. */
export class ServiceUnavailableError<TBody = ErrorBodyLike> extends ApiError<TBody> {
  override name = "ServiceUnavailableError";
}

const byStatus: Record<number, new (init: ApiErrorInit<unknown>) => ApiError<unknown>> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  429: RateLimitError,
  500: InternalServerError,
  502: BadGatewayError,
  503: ServiceUnavailableError,
};

/** The ApiError subclass for the status (`NotFoundError` for 404…), or ApiError itself. */
export function apiError(init: ApiErrorInit<unknown>): ApiError {
  // a status is a number, never an inherited key such as "constructor"
  const Class = byStatus[init.statusCode] ?? ApiError;
  return new Class(init) as ApiError;
}

/** A 2XX response whose body is not what the operation declares (empty, or not JSON). */
export class ResponseParseError extends AvaspecError {
  override name = "ResponseParseError";
  readonly statusCode: number;
  readonly rawBody: string;
  readonly contentType: string | null;
  constructor(message: string, init: { request: RequestInfo; statusCode: number; rawBody: string; contentType: string | null; cause?: unknown }) {
    super(`${message}. Check the base URL: something other than the API (a proxy, a captive portal) may have answered; rawBody holds what arrived.`, init.request, { cause: init.cause });
    this.statusCode = init.statusCode;
    this.rawBody = init.rawBody;
    this.contentType = init.contentType;
  }
}

/**
 * A JSON-RPC error object answered for one call: `code`, `message` and
 * `data` as the server sent them, and the method that failed.
 */
export class RpcError extends AvaspecError {
  override name = "RpcError";
  readonly code: number;
  readonly data: unknown;
  readonly method: string;
  /** The error object's `message` as the server sent it. */
  readonly rpcMessage: string;
  /** HTTP status of the response that carried the error object. */
  readonly statusCode: number;
  constructor(init: RpcErrorInit) {
    super(`${init.method} failed with JSON-RPC error ${init.code}: ${init.message}`, init.request);
    this.code = init.code;
    this.data = init.data;
    this.method = init.method;
    this.rpcMessage = init.message;
    this.statusCode = init.statusCode;
  }
}

export interface RpcErrorInit {
  request: RequestInfo;
  method: string;
  code: number;
  message: string;
  data?: unknown;
  statusCode: number;
}

/** A JSON-RPC error in the range -32000 to -32099, which JSON-RPC 2.0 reserves for the server's own errors. */
export class RpcServerError extends RpcError {
  override name = "RpcServerError";
}

/**
 * An error class a method's spec declares (generated from its OpenRPC
 * `errors`): the code it answers to and the message the spec gives it.
 */
export interface DeclaredRpcError {
  new (init: RpcErrorInit): RpcError;
  readonly code: number;
  readonly rpcMessage: string;
}

/**
 * The error for a JSON-RPC error object: the method's declared error with
 * that code (when several share the code, the one whose message the server's
 * message equals or starts with, ignoring case; the longest such), else
 * `RpcServerError` for -32000…-32099, else `RpcError`.
 */
export function rpcError(init: RpcErrorInit, declared: readonly DeclaredRpcError[] | undefined): RpcError {
  let match: DeclaredRpcError | undefined;
  const sameCode = declared?.filter((d) => d.code === init.code) ?? [];
  if (sameCode.length === 1) match = sameCode[0];
  else {
    const got = init.message.toLowerCase();
    for (const d of sameCode) {
      const want = d.rpcMessage.toLowerCase();
      if (want !== "" && got.startsWith(want) && (match === undefined || want.length > match.rpcMessage.length)) match = d;
    }
  }
  const Class = match ?? (init.code <= -32000 && init.code >= -32099 ? RpcServerError : RpcError);
  return new Class(init);
}

/**
 * A reply that breaks JSON-RPC 2.0: both `result` and `error`, or an error
 * object whose `code` is not an integer. `reply` is the reply as received.
 */
export class RpcProtocolError extends ResponseParseError {
  override name = "RpcProtocolError";
  readonly reply: unknown;
  constructor(message: string, init: { request: RequestInfo; statusCode: number; reply: unknown }) {
    super(message, { request: init.request, statusCode: init.statusCode, rawBody: jsonText(init.reply), contentType: "application/json" });
    this.reply = init.reply;
  }
}

/** The request could not be sent or no response arrived (DNS, refused connection, reset…). */
export class NetworkError extends AvaspecError {
  override name = "NetworkError";
}

/** No complete response arrived within the per-attempt timeout (`timeoutMs`), on every attempt. */
export class TimeoutError extends AvaspecError {
  override name = "TimeoutError";
  readonly timeoutMs: number;
  constructor(message: string, request: RequestInfo, timeoutMs: number) {
    super(message, request);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A request `fetch` can never send: the TRACE method, a body on GET or HEAD,
 * a header the HTTP stack writes itself (Transfer-Encoding, Connection, Host…).
 * Thrown before anything is sent (`attempts` is 0) and never retried, since
 * no attempt could succeed; the generator warns about operations that
 * describe such requests.
 */
export class UnsendableRequestError extends AvaspecError {
  override name = "UnsendableRequestError";
}

/** The caller's `signal` aborted the call; `cause` is the signal's reason. */
export class AbortError extends AvaspecError {
  override name = "AbortError";
}

/**
 * The server rejected a page token that an earlier page returned or the
 * caller passed, on an API whose tokens expire: restart the listing from the
 * first page. `cause` is the ApiError.
 */
export class PageTokenError extends AvaspecError {
  override name = "PageTokenError";
  readonly statusCode: number;
  constructor(message: string, cause: ApiError) {
    super(message, cause.request, { cause });
    this.statusCode = cause.statusCode;
  }
}

/** One problem found in a value, at a JSON-pointer-like path. */
export interface ValidationIssue {
  path: string;
  message: string;
  keyword?: string;
  expected?: unknown;
}

/**
 * A call parameter (or, when response validation is on, a response) does not
 * match the spec. Thrown before anything is sent for parameters.
 */
export class ValidationError extends AvaspecError {
  override name = "ValidationError";
  readonly issues: ValidationIssue[];
  readonly statusCode: number | undefined;
  readonly rawBody: string | undefined;
  constructor(message: string, init: { request?: RequestInfo; issues: ValidationIssue[]; statusCode?: number; rawBody?: string }) {
    super(message, init.request);
    this.issues = init.issues;
    this.statusCode = init.statusCode;
    this.rawBody = init.rawBody;
  }
}

function normalizeMessages(message: unknown): string[] {
  if (typeof message === "string") return message === "" ? [] : [message];
  if (Array.isArray(message)) return message.filter((m): m is string => typeof m === "string");
  return [];
}

/** A reply as JSON text for `rawBody`; one nested deeper than JSON.stringify can follow is described instead. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "(a JSON value too deep to write out)";
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The ValidationError of a call's first bad parameter (`issues[0]`): `op: parameter "name" message`. */
export function paramsError(operationId: string, method: string, url: string, issues: ValidationIssue[]): ValidationError {
  const first = issues[0]!;
  const segments = first.path.split("/");
  const name = segments[1]?.replace(/~1/g, "/").replace(/~0/g, "~");
  const where = name === undefined ? "params" : `parameter "${name}"${segments.length > 2 ? ` at ${first.path}` : ""}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? "s" : ""})` : "";
  return new ValidationError(`${operationId}: ${where} ${first.message}${more}`, { request: { operationId, method, url }, issues });
}
