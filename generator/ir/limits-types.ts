/**
 * `x-avaspec-limits` in the IR (validate/limits.ts reads and checks it):
 * what a service enforces, per document, per server and per operation.
 * Re-exported by types.ts.
 */

/** The limits a server can say were hit. */
export type LimitKind = "quota" | "rate" | "batch" | "range" | "results" | "responseSize";

/** How the server says a limit was hit: any of these on an error answer. */
export interface IrLimitSignal {
  /** HTTP statuses. */
  status?: number[];
  /** JSON-RPC error codes. */
  codes?: number[];
  /** Regular expressions (case-insensitive) the error message matches. */
  messages?: string[];
  /** The answer carries `Retry-After`. */
  retryAfter?: true;
  /** Response headers that report the budget (`RateLimit`, `RateLimit-Policy`, `X-RateLimit-Remaining`…). */
  headers?: string[];
}

export interface IrLimitPlan {
  name: string;
  /** Each `quota` units per `window` seconds (IETF RateLimit-Policy's `q` and `w`). */
  quotas: { quota: number; window: number }[];
  /** The budget of requests without an API key. */
  apiKey?: false;
}

/** A read over a range the server caps: where its ends are among the params, and the caps. */
export interface IrLimitRange {
  /** A param and the fields inside it (`["filter", "fromBlock"]`). */
  from: string[];
  to: string[];
  unit: "blocks" | "seconds";
  /** The most units one request may span, ends included. */
  maxSpan?: number;
  /** The most items one answer may hold. */
  maxResults?: number;
  /** The `to` end is the first position after the range, not its last. */
  toExclusive?: true;
  /** The order answers list their items in (`desc`: newest first). */
  order?: "asc" | "desc";
  /** A param whose value (`asc` or `desc`) says the order when given. */
  orderParam?: string;
  /** The method (OpenRPC) or operation id (OpenAPI) whose result is the latest position. */
  head?: string;
}

/** One `x-avaspec-limits` value: a document's or server's members, or an operation's. */
export interface IrLimits {
  pool?: string;
  unit?: string;
  cost?: number;
  plans?: IrLimitPlan[];
  requestsPerSecond?: number;
  batch?: { maxItems?: number; maxResponseBytes?: number };
  range?: IrLimitRange;
  signals?: Partial<Record<LimitKind, IrLimitSignal>>;
}

/** A document's declaration: its root's, and each server's that has one. */
export interface IrDocumentLimits {
  kind: "limits";
  file: string;
  pointer: string;
  /** Set by the module pass: the document's group. */
  group: string[];
  limits: IrLimits;
  servers: { url: string; limits: IrLimits }[];
  /** Assigned by the naming pass: the exported constant (`dataApiLimits`, `cChainLimits`). */
  name?: string;
}
