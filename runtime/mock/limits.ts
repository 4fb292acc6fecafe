/**
 * The mock service's limits mode: a service in front of another that
 * enforces what the documents declare (`x-avaspec-limits`, carried by the
 * descriptors in the tables and the generated `…Limits` constants) and
 * refuses as the real services do. A client, a budget or a range splitter
 * can then be tested against the refusals it will meet, on loopback.
 *
 * What it enforces, each only where a figure is declared (or given here):
 * a plan's quotas per API key (the key from a header the operation's
 * API-key schemes name; requests without one draw on the plan marked
 * `apiKey: false`), requests per second per key, a JSON-RPC batch's size,
 * and a ranged method's span and result count. Refusals are the declared
 * signals: the status (and `Retry-After` where declared) for HTTP, the
 * JSON-RPC code and message for a call, a batch refused whole with one
 * error object (id null), as go-ethereum's and Coreth's servers answer.
 *
 * Faults (`faults: { rate, seed }`) refuse a share of the calls at random,
 * seeded so that a test sees the same ones every run: an HTTP request gets
 * the quota status, a ranged JSON-RPC call the range error, any other call
 * the rate error (-32005 "limit exceeded", EIP-1474's, when none is declared).
 * A faulted request costs nothing.
 *
 * Kept apart from service.ts: a package without limits mode ships none of it.
 */
import type { MockRequest, MockResponse, MockRpcEntry, MockService, MockTable } from "./types.js";
import { quotasFault, type DocumentLimits, type LimitSignal, type OperationLimits, type ServiceLimits } from "../values/limits.js";
import { mockRoutes } from "./routes.js";
import { rng } from "./random.js";
import { UsageError } from "../errors/errors.js";

/** A limits-mode option that cannot be served (a plan no document declares): a usage error, found before listening. */
export class MockLimitsOptionError extends UsageError {
  override name = "MockLimitsOptionError";
}

export interface MockLimitsOptions {
  /** The document whose limits every HTTP operation answers by (its plans, default cost and signals), e.g. `dataApiLimits`; over `documents`. */
  http?: ServiceLimits;
  /**
   * Each HTTP table's own document limits, for its operations when `http` is not given: a package of several
   * HTTP APIs, each with its pool and plans (the Data API's and the Metrics API's), charges each call to its own.
   */
  documents?: ReadonlyMap<MockTable, ServiceLimits>;
  /** The document whose limits the JSON-RPC endpoints answer by (batch cap and signals), e.g. `cChainLimits`. */
  rpc?: ServiceLimits;
  /** The URL of the declared server to behave as: its members apply over the document's (`https://api.avax.network/ext/bc/C/rpc`: 40-call batches). */
  server?: string;
  /** The plan of requests that carry an API key (default: the first plan that is not `apiKey: false`). */
  plan?: string;
  /**
   * The budget in figures instead of the plans (`quota` units per `window` seconds, fixed windows), for
   * every request, keyed or not, HTTP and JSON-RPC (documents naming one pool share it per key, as
   * plans are shared): a test sets the same figures as its client's `createBudget(limits, { quotas })`,
   * so the budget binds within seconds where a real plan's minute would take minutes.
   */
  quotas?: readonly { quota: number; window: number }[];
  /** Caps of ranged methods over (or where) the descriptors declare none: no source states the public node's `eth_getLogs` span. */
  range?: { maxSpan?: number; maxResults?: number };
  /** A batch cap over the document's. */
  batch?: { maxItems?: number };
  /** Requests per second per key, over the document's. */
  requestsPerSecond?: number;
  /** Refuses this share of the calls (0–1) at random, the same ones for the same seed (default 1); `only` these operation ids and method names when given. */
  faults?: { rate: number; seed?: number; only?: readonly string[] };
  /** The clock, in Unix milliseconds (default `Date.now`); tests move their own. */
  now?: () => number;
  /**
   * Called for every call the limits mode judged, served or refused, at its own clock: the record a
   * test or bench counts per window (how many 429s fell in the first second) without timing anything
   * itself. A batch's calls are one record each; a batch refused whole is one.
   */
  onCall?: (call: MockLimitCall) => void;
}

/** One call the limits mode judged: when (its clock, ms), whose key, which operation or method, the outcome, and the units it cost (0 when refused). */
export interface MockLimitCall {
  readonly at: number;
  readonly key: string | undefined;
  readonly id: string;
  readonly outcome: keyof MockLimitCounts;
  readonly cost: number;
}

/** What the limits mode refused, by kind; `served` counts the calls it let through. */
export interface MockLimitCounts {
  served: number;
  quota: number;
  rate: number;
  batch: number;
  range: number;
  results: number;
  faults: number;
}

export interface LimitedMockService {
  handle(request: MockRequest): Promise<MockResponse | undefined>;
  /** Counts since the service was made (or `resetLimits`). */
  readonly counts: Readonly<MockLimitCounts>;
  /** Forgets every key's spending and the counts (the faults' sequence goes on). */
  resetLimits(): void;
}

/** Coreth's answer when a batch is over its cap (go-ethereum's `errMsgBatchTooLarge`, code -32600). */
const DEFAULT_BATCH: LimitSignal = { codes: [-32600], messages: ["batch too large"] };
const DEFAULT_RATE: LimitSignal = { status: [429], codes: [-32005], messages: ["limit exceeded"] };
const REASONS: Record<number, string> = { 429: "Too Many Requests", 413: "Payload Too Large", 503: "Service Unavailable" };

type Refusal = { kind: keyof MockLimitCounts; signal: LimitSignal; detail?: string; retryAfter?: number };

/** The members in force: the root's, with the emulated server's over them. */
function effective(doc: ServiceLimits | undefined, server: string | undefined): DocumentLimits {
  if (!doc) return {};
  const own = server === undefined ? undefined : doc.servers?.find((s) => s.url === server)?.limits;
  return { ...doc, ...own, signals: { ...doc.signals, ...own?.signals } };
}

/** A pattern's text when it is plain (no regular-expression syntax): what a server would say. */
const literal = (pattern: string | undefined, fallback: string) => (pattern !== undefined && !/[\\^$.*+?()[\]{}|]/.test(pattern) ? pattern : fallback);

/** The JSON-RPC error a signal makes, with a detail after its message when one is known. */
function rpcFailure(signal: LimitSignal, fallbackCode: number, fallbackMessage: string, detail?: string): { code: number; message: string } {
  const message = literal(signal.messages?.[0], fallbackMessage);
  return { code: signal.codes?.[0] ?? fallbackCode, message: detail ? `${message} ${detail}` : message };
}

/** Puts `service` in limits mode over `tables` (the same tables it serves). */
export function limitMockService(service: Pick<MockService, "handle">, tables: readonly MockTable[], options: MockLimitsOptions = {}): LimitedMockService {
  const now = options.now ?? (() => Date.now());
  const routes = mockRoutes(tables);
  const http = effective(options.http, options.server);
  // each table's document, unless the caller named one for all of them
  const byTable = new Map([...(options.http ? [] : (options.documents ?? []))].map(([table, doc]) => [table, effective(doc, options.server)]));
  const docOf = (table: MockTable) => byTable.get(table) ?? http;
  const rpc = effective(options.rpc, options.server);
  const known = [...new Set([http, rpc, ...byTable.values()].flatMap((d) => Object.keys(d.plans ?? {})))];
  if (options.plan !== undefined && !known.includes(options.plan)) throw new MockLimitsOptionError(`no plan "${options.plan}" is declared (known: ${known.join(", ") || "none"})`);
  const fault = options.quotas === undefined ? undefined : quotasFault(options.quotas);
  if (fault) throw new MockLimitsOptionError(fault.message);
  const random = options.faults && options.faults.rate > 0 ? rng(options.faults.seed ?? 1) : undefined;
  const only = options.faults?.only && new Set(options.faults.only);
  const faulted = (id: string) => random !== undefined && (!only || only.has(id)) && random() < options.faults!.rate;
  const counts: MockLimitCounts = { served: 0, quota: 0, rate: 0, batch: 0, range: 0, results: 0, faults: 0 };
  const { charge, pace, clear } = budgets(options, now);
  const tally = (outcome: keyof MockLimitCounts, key: string | undefined, id: string, cost = 0) => {
    counts[outcome]++;
    options.onCall?.({ at: now(), key, id, outcome, cost });
  };

  const refuseHttp = (r: Refusal, key: string | undefined, handled: string): MockResponse => {
    tally(r.kind, key, handled);
    const status = r.signal.status?.[0] ?? 429;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (r.signal.retryAfter && r.retryAfter !== undefined) headers["retry-after"] = String(r.retryAfter);
    return { status, headers, body: JSON.stringify({ message: REASONS[status] ?? "Error", statusCode: status, error: REASONS[status] ?? "Error" }), handled: `${handled} refused: ${r.kind}` };
  };

  const handleHttp = async (request: MockRequest, url: URL): Promise<MockResponse | undefined> => {
    const found = routes.http(request.method.toUpperCase(), url.pathname);
    if (!found) return service.handle(request);
    const op = found.route.entry.op;
    const doc = docOf(found.route.table);
    const key = apiKeyOf(op.apiKeys, request, url);
    if (faulted(op.id)) return refuseHttp({ kind: "faults", signal: doc.signals?.quota ?? DEFAULT_RATE, retryAfter: 1 }, key, op.id);
    const cost = op.limits?.cost ?? doc.cost ?? 1;
    const refusal = pace(doc, key) ?? charge(doc, key, cost);
    if (refusal) return refuseHttp(refusal, key, op.id);
    tally("served", key, op.id, cost);
    return service.handle(request);
  };

  const handleRpc = async (request: MockRequest, url: URL, methods: Map<string, { entry: MockRpcEntry }>): Promise<MockResponse | undefined> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(request.body ?? "");
    } catch {
      return service.handle(request);
    }
    const max = options.batch?.maxItems ?? rpc.batch?.maxItems;
    const json = (value: unknown, handled: string, status = 200, headers: Record<string, string> = {}): MockResponse => ({ status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value), handled });
    const key = headerKey(request);
    if (Array.isArray(parsed) && max !== undefined && parsed.length > max) {
      tally("batch", key, `batch of ${parsed.length}`);
      return json({ jsonrpc: "2.0", id: null, error: rpcFailure(rpc.signals?.batch ?? DEFAULT_BATCH, -32600, "batch too large") }, `batch of ${parsed.length} refused: batch`);
    }
    const limited = pace(rpc, key);
    if (limited) {
      tally("rate", key, Array.isArray(parsed) ? `batch of ${parsed.length}` : String((parsed as { method?: unknown } | null)?.method));
      const status = limited.signal.status?.[0];
      return json({ jsonrpc: "2.0", id: null, error: rpcFailure(limited.signal, -32005, "limit exceeded") }, "refused: rate", status ?? 200, status && limited.signal.retryAfter ? { "retry-after": "1" } : {});
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const replies: unknown[] = [];
    const handled: string[] = [];
    for (const call of calls) {
      const c = (typeof call === "object" && call !== null ? call : {}) as Record<string, unknown>;
      const found = typeof c["method"] === "string" ? methods.get(c["method"]) : undefined;
      const refusal = found ? await checkCall(found.entry, c, url, key) : undefined;
      if (refusal) {
        handled.push(`${String(c["method"])} refused: ${refusal.kind}`);
        replies.push({ jsonrpc: "2.0", id: c["id"] ?? null, error: refusal.error });
        continue;
      }
      const r = await service.handle({ ...request, body: JSON.stringify(call) });
      const capped = found && r && !r.networkError && !Array.isArray(parsed) ? capAnswer(found.entry, r, options) : undefined;
      if (found) tally(capped ? "results" : "served", key, found.entry.method.method, capped ? 0 : (found.entry.method.limits?.cost ?? rpc.cost ?? 1));
      if (!r || r.networkError || Array.isArray(parsed) === false) return capped ?? r;
      handled.push(r.handled);
      if (r.body !== "") replies.push(JSON.parse(r.body));
    }
    if (!Array.isArray(parsed)) return json(replies[0], handled.join(","));
    return replies.length === 0 ? { status: 204, headers: {}, body: "", handled: handled.join(",") } : json(replies, handled.join(","));
  };

  /** Whether one call passes: faults, the key's quota, the range's span. */
  const checkCall = async (entry: MockRpcEntry, call: Record<string, unknown>, url: URL, key: string | undefined): Promise<{ kind: string; error: { code: number; message: string } } | undefined> => {
    const limits = entry.method.limits;
    const ranged = limits?.range !== undefined;
    if (faulted(entry.method.method)) {
      tally("faults", key, entry.method.method);
      return { kind: "fault", error: ranged ? rpcFailure(limits?.signals?.range ?? DEFAULT_RATE, -32005, "limit exceeded") : rpcFailure(rpc.signals?.rate ?? DEFAULT_RATE, -32005, "limit exceeded") };
    }
    const quota = charge(rpc, key, limits?.cost ?? rpc.cost ?? 1);
    if (quota) {
      tally("quota", key, entry.method.method);
      return { kind: "quota", error: rpcFailure(quota.signal, -32005, "limit exceeded") };
    }
    const span = ranged ? await spanOf(entry, limits!, call, url) : undefined;
    const maxSpan = options.range?.maxSpan ?? limits?.range?.maxSpan;
    if (span && maxSpan !== undefined && span.to - span.from + 1 > maxSpan) {
      tally("range", key, entry.method.method);
      // Coreth's wording: "requested too many blocks from 0 to 5000, maximum is set to 2048"
      return { kind: "range", error: rpcFailure(limits!.signals?.range ?? DEFAULT_RATE, -32005, "limit exceeded", `from ${span.from} to ${span.to}, maximum is set to ${maxSpan}`) };
    }
    return undefined;
  };

  const spanOf = (entry: MockRpcEntry, limits: OperationLimits, call: Record<string, unknown>, url: URL) => rangeSpan(service, entry, limits, call, url);

  return {
    async handle(request) {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return service.handle(request);
      }
      const methods = request.method.toUpperCase() === "POST" ? routes.rpc(url.pathname) : undefined;
      return methods ? handleRpc(request, url, methods) : handleHttp(request, url);
    },
    counts,
    resetLimits() {
      clear();
      for (const k of Object.keys(counts) as (keyof MockLimitCounts)[]) counts[k] = 0;
    },
  };
}

/** The API key a request carries under one of the operation's schemes. */
function apiKeyOf(places: readonly { name: string; in?: "query" }[] | undefined, request: MockRequest, url: URL): string | undefined {
  for (const p of places ?? []) {
    const v = p.in === "query" ? url.searchParams.get(p.name) : headerOf(request, p.name);
    if (v) return v;
  }
  return undefined;
}

const headerOf = (request: MockRequest, name: string) => Object.entries(request.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

/** A JSON-RPC request's key: AvaCloud's RPC endpoints take the Data API's header. */
const headerKey = (request: MockRequest) => headerOf(request, "x-glacier-api-key") ?? headerOf(request, "x-api-key");

/** Each key's spending per plan quota (fixed windows aligned to the clock) and its requests per second. */
function budgets(options: MockLimitsOptions, now: () => number) {
  const spent = new Map<string, { start: number; used: number }[]>();
  const seconds = new Map<string, { second: number; count: number }>();
  /** Charges `cost` to `key`'s plan, or says which quota refuses it and for how long. */
  const charge = (doc: DocumentLimits, key: string | undefined, cost: number): Refusal | undefined => {
    const plans = doc.plans ?? {};
    const names = Object.keys(plans);
    const name = options.quotas ? "" : key === undefined ? names.find((n) => plans[n]!.apiKey === false) : (options.plan ?? names.find((n) => plans[n]!.apiKey !== false));
    const quotas = options.quotas ?? (name === undefined ? undefined : plans[name]?.quotas);
    if (!quotas) return undefined;
    const id = `${doc.pool ?? ""}\u0000${name}\u0000${key ?? ""}`;
    // whole milliseconds: a window of 0.2 s starts where integer arithmetic says, not where a float lands
    const t = now();
    const windows = spent.get(id) ?? quotas.map(() => ({ start: -1, used: 0 }));
    spent.set(id, windows);
    for (const [i, q] of quotas.entries()) {
      const w = windows[i]!;
      const ms = Math.max(1, Math.round(q.window * 1000));
      const start = Math.floor(t / ms) * ms;
      if (w.start !== start) Object.assign(w, { start, used: 0 });
      if (w.used + cost > q.quota) return { kind: "quota", signal: doc.signals?.quota ?? DEFAULT_RATE, retryAfter: Math.max(1, Math.ceil((start + ms - t) / 1000)) };
    }
    for (const w of windows) w.used += cost;
    return undefined;
  };

  /** Counts a request against `key`'s requests per second. */
  const pace = (doc: DocumentLimits, key: string | undefined): Refusal | undefined => {
    const rps = options.requestsPerSecond ?? doc.requestsPerSecond;
    if (rps === undefined) return undefined;
    const second = Math.floor(now() / 1000);
    const s = seconds.get(key ?? "") ?? { second, count: 0 };
    if (s.second !== second) Object.assign(s, { second, count: 0 });
    seconds.set(key ?? "", s);
    if (s.count >= rps) return { kind: "rate", signal: doc.signals?.rate ?? doc.signals?.quota ?? DEFAULT_RATE, retryAfter: 1 };
    s.count++;
    return undefined;
  };

  const clear = () => {
    spent.clear();
    seconds.clear();
  };
  return { charge, pace, clear };
}

/** The blocks a ranged call spans, its tags read against the endpoint's head. */
async function rangeSpan(service: Pick<MockService, "handle">, entry: MockRpcEntry, limits: OperationLimits, call: Record<string, unknown>, url: URL): Promise<{ from: number; to: number } | undefined> {
  const range = limits.range!;
  const params = call["params"];
  const arg = (path: readonly string[]): unknown => {
    // the first name is the param: the one object of a one-object method, else by name or position
    const i = entry.method.params.findIndex((p) => p.name === path[0]);
    let v: unknown = entry.method.form === "one-object" ? (Array.isArray(params) ? params[0] : undefined) : Array.isArray(params) ? params[i] : (params as Record<string, unknown> | undefined)?.[path[0]!];
    if (entry.method.form === "one-object" && i >= 0) v = (v as Record<string, unknown> | undefined)?.[path[0]!];
    for (const p of path.slice(1)) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[p] : undefined;
    return v;
  };
  const block = async (tag: unknown): Promise<number | undefined> => {
    if (typeof tag === "string" && /^0x[0-9a-f]+$/i.test(tag)) return parseInt(tag, 16);
    if (typeof tag === "number") return tag;
    if (tag === "earliest") return 0;
    return headOf(service, url, entry.method.endpoint);
  };
  const from = await block(arg(range.from));
  const to = await block(arg(range.to));
  return from === undefined || to === undefined ? undefined : { from, to };
}

/** The endpoint's head, as the service behind answers `eth_blockNumber`. */
async function headOf(service: Pick<MockService, "handle">, url: URL, endpoint: string): Promise<number | undefined> {
  const r = await service.handle({ method: "POST", url: new URL(endpoint, url).href, headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":0,"method":"eth_blockNumber"}' });
  const result = r && r.status === 200 ? (JSON.parse(r.body) as { result?: unknown }).result : undefined;
  return typeof result === "string" && /^0x[0-9a-f]+$/i.test(result) ? parseInt(result, 16) : undefined;
}

/** The refusal of an answer holding more items than the method's result cap; undefined when it is within it. */
function capAnswer(entry: MockRpcEntry, r: MockResponse, options: MockLimitsOptions): MockResponse | undefined {
  const max = options.range?.maxResults ?? entry.method.limits?.range?.maxResults;
  if (max === undefined || r.status !== 200) return undefined;
  const reply = JSON.parse(r.body) as { id?: unknown; result?: unknown };
  if (!Array.isArray(reply.result) || reply.result.length <= max) return undefined;
  const signal = entry.method.limits?.signals?.results ?? entry.method.limits?.signals?.range ?? DEFAULT_RATE;
  return { ...r, body: JSON.stringify({ jsonrpc: "2.0", id: reply.id ?? null, error: rpcFailure(signal, -32005, "limit exceeded", `(more than ${max} results)`) }), handled: `${entry.method.method} refused: results` };
}
