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

/**
 * An option or argument the caller got wrong (a plan no document declares, a
 * quota that is not a positive number), found before anything is sent or
 * served. One class for every such error, so that a command can tell a
 * usage error (exit 2, with its usage text) from a failure by `instanceof`,
 * whichever optional module threw it.
 */
export class UsageError extends AvaspecError {
  override name = "UsageError";
}

/** " after 3 attempts" when the call was retried, else "". */
export function afterAttempts(request: RequestInfo | undefined): string {
  return request?.attempts !== undefined && request.attempts > 1 ? ` after ${request.attempts} attempts` : "";
}

/** An error body of a common shape: `message` (one string or a list), `statusCode`, `error`; each may be missing. */
export interface ErrorBodyLike {
  message?: string | string[];
  statusCode?: number;
  error?: string;
  [key: string]: unknown;
}

/**
 * The server answered with a non-2XX status. `error` is the body's `error`
 * when it is a string, else the HTTP status text; `messages` is what the body
 * says, in the shapes APIs use (`bodyMessages`); `body` is the parsed JSON
 * body, `rawBody` the text received. `TStatus` narrows `statusCode`: an
 * operation's declared errors are a union of these, one per status (or
 * range), each with its own body type (see the generated `…Error` types and
 * `is…Error` guards).
 */
export class ApiError<TBody = ErrorBodyLike, TStatus extends number = number> extends AvaspecError {
  override name = "ApiError";
  readonly statusCode: TStatus;
  readonly error: string;
  /** What the body says (RFC 9457 `title`, `detail` and `errors[]`, `message`…), as a list; empty when it says nothing readable. */
  readonly messages: string[];
  readonly body: TBody | undefined;
  readonly rawBody: string;
  readonly headers: Headers;
  /** The wait the server asked for in `Retry-After`, in ms, when it sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit<TBody>) {
    const b = (isRecord(init.body) ? init.body : {}) as ErrorBodyLike;
    const messages = bodyMessages(b);
    const error = typeof b.error === "string" && b.error !== "" ? b.error : init.statusText || `HTTP ${init.statusCode}`;
    const what = `${init.request.operationId} failed with ${init.statusCode} ${error}${afterAttempts(init.request)}${messages.length > 0 ? `: ${messages.join("; ")}` : ""}`;
    const wait = init.retryAfterMs === undefined ? "" : ` The server asks to wait ${Math.ceil(init.retryAfterMs / 1000)} s (retryAfterMs).`;
    super(`${what}${/[.!?]$/.test(what) ? "" : "."}${init.advice ? ` ${init.advice}` : ""}${wait}`, init.request);
    this.statusCode = init.statusCode as TStatus;
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
  /** What to do about it, from the spec (`x-avaspec-advice`) or the client's `errorAdvice`: the message's last sentence. */
  advice?: string | undefined;
}

/** 400: invalid or malformed parameters. */
export class BadRequestError<TBody = ErrorBodyLike> extends ApiError<TBody, 400> {
  override name = "BadRequestError";
}
/** 401: the request lacks valid credentials. */
export class UnauthorizedError<TBody = ErrorBodyLike> extends ApiError<TBody, 401> {
  override name = "UnauthorizedError";
}
/** 403: valid credentials without the privilege for the action. */
export class ForbiddenError<TBody = ErrorBodyLike> extends ApiError<TBody, 403> {
  override name = "ForbiddenError";
}
/** 404: no such resource (or a mistyped URL). */
export class NotFoundError<TBody = ErrorBodyLike> extends ApiError<TBody, 404> {
  override name = "NotFoundError";
}
/** 429: rate limit exceeded; `retryAfterMs` says how long to wait when the server said. */
export class RateLimitError<TBody = ErrorBodyLike> extends ApiError<TBody, 429> {
  override name = "RateLimitError";
}
/** 500: an uncaught server-side error. */
export class InternalServerError<TBody = ErrorBodyLike> extends ApiError<TBody, 500> {
  override name = "InternalServerError";
}
/** 502: the gateway got an invalid response from upstream. */
export class BadGatewayError<TBody = ErrorBodyLike> extends ApiError<TBody, 502> {
  override name = "BadGatewayError";
}
/** 503: the service (or one of its subnet nodes) is unavailable. */
export class ServiceUnavailableError<TBody = ErrorBodyLike> extends ApiError<TBody, 503> {
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

/**
 * What an error body says, in the shapes APIs send: RFC 9457 problem details
 * (`title`, `detail`, `errors[]`), `message` (one string or a list),
 * OAuth's `error_description`, an `error`
 * object's `message`, and each `errors[]` item's `detail` or `message`
 * after its `pointer`, `field` or `path`. A string `error` is the error's
 * name (ApiError's `error`), not a message. Each text once, in that order.
 */
export function bodyMessages(body: unknown): string[] {
  const out: string[] = [];
  const add = (text: unknown, where?: unknown): void => {
    if (Array.isArray(text)) text.forEach((t) => add(t));
    else if (isRecord(text)) add(text["detail"] ?? text["message"], text["pointer"] ?? text["field"] ?? text["path"]);
    else if (typeof text === "string" && text !== "") {
      const line = typeof where === "string" && where !== "" ? `${where}: ${text}` : text;
      if (!out.includes(line)) out.push(line);
    }
  };
  if (isRecord(body)) for (const text of [body["title"], body["detail"], body["message"], body["error_description"], isRecord(body["error"]) && body["error"], body["errors"]]) add(text);
  return out;
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
