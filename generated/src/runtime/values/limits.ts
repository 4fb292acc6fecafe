/**
 * The limits a service declares (`x-avaspec-limits` in its spec), as the
 * generated descriptors and `…Limits` constants carry them. A budget made
 * from them (`createBudget`, runtime/http/budget.ts) paces calls by cost and
 * sizes batches; a caller can read them to split ranges.
 */

/** The limits a server can say were hit. */
export type LimitKind = "quota" | "rate" | "batch" | "range" | "results" | "responseSize";

/** How the server says a limit was hit: an error answer with any of these. */
export interface LimitSignal {
  /** HTTP statuses. */
  readonly status?: readonly number[];
  /** JSON-RPC error codes. */
  readonly codes?: readonly number[];
  /** Regular expressions (case-insensitive) the error message matches. */
  readonly messages?: readonly string[];
  /** The answer carries `Retry-After`. */
  readonly retryAfter?: true;
  /** Response headers that report the budget (`RateLimit`, `RateLimit-Policy`, `X-RateLimit-Remaining`…). */
  readonly headers?: readonly string[];
}

export type LimitSignals = { readonly [K in LimitKind]?: LimitSignal };

/**
 * Whether an answer is one `signal` describes: its HTTP status is listed, or it carries a JSON-RPC error whose code
 * is listed (when codes are) and whose message matches a pattern (when patterns are). The one reading of a signal,
 * for the budget (answers) and the range scan (errors) alike.
 */
export function signalMatches(signal: LimitSignal | undefined, status: number | undefined, error: { readonly code?: unknown; readonly message?: unknown } | undefined): boolean {
  if (!signal) return false;
  if (status !== undefined && signal.status?.includes(status)) return true;
  if (!error || (!signal.codes && !signal.messages)) return false;
  const code = signal.codes ? signal.codes.includes(error.code as number) : true;
  return code && (!signal.messages || signal.messages.length === 0 || signal.messages.some((m) => new RegExp(m, "i").test(String(error.message ?? ""))));
}

/** A read over a range the server caps. */
export interface RangeLimit {
  /** Where the range's ends are: a param, then the fields inside it (`["filter", "fromBlock"]`). */
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly unit: "blocks" | "seconds";
  /** The most units one request may span, both ends included. */
  readonly maxSpan?: number;
  /** The most items one answer may hold. */
  readonly maxResults?: number;
  /** The `to` end is the first position after the range (the Data API's `endBlock`), not its last. */
  readonly toExclusive?: true;
  /** The order an answer lists its items in: `desc` (newest first) has windows read from the end back. */
  readonly order?: "asc" | "desc";
  /** A param whose value (`asc` or `desc`) says the order instead, when given (`sortOrder`). */
  readonly orderParam?: string;
  /** The method or operation whose result is the latest position (`eth_blockNumber`), for an absent or `latest` end. */
  readonly head?: string;
}

/** What an operation's descriptor carries: its own declaration. */
export interface OperationLimits {
  /** What one call costs, in its document's unit. */
  readonly cost?: number;
  readonly requestsPerSecond?: number;
  readonly range?: RangeLimit;
  readonly signals?: LimitSignals;
}

/** A plan's budget: each `quota` units per `window` seconds (the IETF RateLimit-Policy's `q` and `w`). */
export interface LimitPlan {
  readonly quotas: readonly { readonly quota: number; readonly window: number }[];
  /** The budget of requests without an API key. */
  readonly apiKey?: false;
}

/**
 * The first fault of a list of quotas given as an option (`createBudget`'s,
 * the mock's limits mode's): its path (`quotas`, `quotas[0].window`) and a
 * message; undefined when it is a non-empty list of positive numbers.
 */
export function quotasFault(quotas: unknown): { readonly field: string; readonly message: string } | undefined {
  if (!Array.isArray(quotas) || quotas.length === 0) return { field: "quotas", message: `quotas must be a non-empty list of { quota, window }, not ${JSON.stringify(quotas)}` };
  for (const [i, q] of quotas.entries())
    for (const name of ["quota", "window"] as const) {
      const v = (q as Record<string, unknown> | null)?.[name];
      if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) return { field: `quotas[${i}].${name}`, message: `quotas[${i}].${name} must be a positive number, not ${JSON.stringify(v)}` };
    }
  return undefined;
}

/** The members a document (or one of its servers) declares. */
export interface DocumentLimits {
  /** The budget the costs draw from: documents naming the same pool share it, per API key. */
  readonly pool?: string;
  /** What costs and quotas count; requests when absent. */
  readonly unit?: string;
  /** The cost of an operation that declares none. */
  readonly cost?: number;
  readonly plans?: { readonly [plan: string]: LimitPlan };
  readonly requestsPerSecond?: number;
  readonly batch?: { readonly maxItems?: number; readonly maxResponseBytes?: number };
  readonly signals?: LimitSignals;
}

/** A document's declaration: its root's, and the members each server that declares some sets over them. */
export interface ServiceLimits extends DocumentLimits {
  readonly servers?: readonly { readonly url: string; readonly limits: DocumentLimits }[];
}
