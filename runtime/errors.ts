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
}

export class AvaspecError extends Error {
  override name = "AvaspecError";
  readonly operationId: string | undefined;
  readonly request: RequestInfo | undefined;
  constructor(message: string, request?: RequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.request = request;
    this.operationId = request?.operationId;
  }
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
  constructor(init: {
    request: RequestInfo;
    statusCode: number;
    statusText: string;
    body: TBody | undefined;
    rawBody: string;
    headers: Headers;
  }) {
    const b = (isRecord(init.body) ? init.body : {}) as ErrorBodyLike;
    const messages = normalizeMessages(b.message);
    const error = typeof b.error === "string" && b.error !== "" ? b.error : init.statusText || `HTTP ${init.statusCode}`;
    const detail = messages.length > 0 ? `: ${messages.join("; ")}` : "";
    super(`${init.request.operationId} failed with ${init.statusCode} ${error}${detail}`, init.request);
    this.statusCode = init.statusCode;
    this.error = error;
    this.messages = messages;
    this.body = init.body;
    this.rawBody = init.rawBody;
    this.headers = init.headers;
  }
}

/** A 2XX response whose body is not what the operation declares (empty, or not JSON). */
export class ResponseParseError extends AvaspecError {
  override name = "ResponseParseError";
  readonly statusCode: number;
  readonly rawBody: string;
  readonly contentType: string | null;
  constructor(message: string, init: { request: RequestInfo; statusCode: number; rawBody: string; contentType: string | null; cause?: unknown }) {
    super(message, init.request, { cause: init.cause });
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
  /** HTTP status of the response that carried the error object. */
  readonly statusCode: number;
  constructor(init: { request: RequestInfo; method: string; code: number; message: string; data?: unknown; statusCode: number }) {
    super(`${init.method} failed with JSON-RPC error ${init.code}: ${init.message}`, init.request);
    this.code = init.code;
    this.data = init.data;
    this.method = init.method;
    this.statusCode = init.statusCode;
  }
}

/** The request could not be sent or no response arrived (DNS, refused connection, reset…). */
export class NetworkError extends AvaspecError {
  override name = "NetworkError";
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
