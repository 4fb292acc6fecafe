/**
 * `x-avaspec-limits`: the limits a service enforces, declared beside what
 * they limit, so that a client can stay under them instead of learning them
 * from refusals. The shape (docs/extensions/x-avaspec-limits.schema.json is
 * its JSON Schema, for other tools):
 *
 *   # at the document's root, or on one server object (its members win for that server)
 *   x-avaspec-limits:
 *     pool: avacloud            # the budget the costs draw from: documents naming one pool share it per API key
 *     unit: compute-units       # what costs and quotas count ("requests" when left out)
 *     cost: 1                   # the cost of an operation that declares none
 *     plans:                    # budgets by plan name; each quota is `quota` units per `window` seconds
 *       free: { quotas: [{ quota: 8000, window: 60 }, { quota: 2000000, window: 86400 }] }
 *       unauthenticated: { apiKey: false, quotas: [...] }
 *     requestsPerSecond: 10     # requests, whatever they cost
 *     batch: { maxItems: 40, maxResponseBytes: 25000000 }   # JSON-RPC batches
 *     signals:                  # how the server says a limit was hit, by limit
 *       quota: { status: [429], retryAfter: true, headers: [RateLimit, RateLimit-Policy] }
 *       batch: { codes: [-32600], messages: ["batch too large"] }
 *
 *   # on an operation or method
 *   x-avaspec-limits:
 *     cost: 200
 *     requestsPerSecond: 5
 *     range: { from: filter.fromBlock, to: filter.toBlock, unit: blocks, maxSpan: 2048, maxResults: 10000, head: eth_blockNumber }
 *     # toExclusive: true (the `to` end is the first position after the range), order: desc (answers list newest
 *     # first), orderParam: sortOrder (a param whose asc/desc says the order when given)
 *     signals: { range: { codes: [-32000], messages: ["requested too many blocks"] } }
 *
 * The quota/window pair is the IETF RateLimit-Policy's `q` and `w`; a
 * signal's `headers` name the response headers that report the budget
 * (`RateLimit`, `RateLimit-Policy`, `X-RateLimit-Remaining`…). The checker
 * here is what the validator runs (every problem a diagnostic at its
 * pointer) and what the IR builders read (the same function, reporting to
 * nobody), so the two cannot disagree.
 */
import * as ptr from "../load/pointer.js";
import type { IrLimitSignal, IrLimits, LimitKind } from "../ir/limits-types.js";

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

type Report = (code: string, pointer: string, message: string, hint?: string) => void;

export const LIMITS_KEY = "x-avaspec-limits";
export const LIMIT_KINDS: readonly LimitKind[] = ["quota", "rate", "batch", "range", "results", "responseSize"];
const SIGNAL_KEYS = ["status", "codes", "messages", "retryAfter", "headers"] as const;
const PLAN_KEYS = ["quotas", "apiKey", "description"] as const;
const RANGE_KEYS = ["from", "to", "unit", "maxSpan", "maxResults", "toExclusive", "order", "orderParam", "head"] as const;
const RANGE_UNITS = ["blocks", "seconds"] as const;
/** What each place takes: a document (or server) declares the budget, an operation its own cost and caps. */
const PLACES = {
  document: ["pool", "unit", "cost", "plans", "requestsPerSecond", "batch", "signals"],
  operation: ["cost", "requestsPerSecond", "range", "signals"],
} as const;
const HINT = "see the README's Service limits section: e.g. { cost: 20 } on an operation, { plans: { free: { quotas: [{ quota: 8000, window: 60 }] } } } at the root";
// an HTTP field name (RFC 9110 token)
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// a plan, pool or unit name: letters, digits, - _ . (it may become a property key or a string the runtime compares)
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;
const whole = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;

/**
 * The checked `x-avaspec-limits` of a document root, server object or
 * operation: its well-formed members (undefined when there is none);
 * `report` hears every member that is not.
 */
export function readLimits(node: Record<string, unknown>, at: string, place: keyof typeof PLACES, report: Report, paramNames?: readonly string[], heads?: readonly string[]): IrLimits | undefined {
  const v = node[LIMITS_KEY];
  if (v === undefined) return undefined;
  const where = ptr.join(at, LIMITS_KEY);
  const bad = (pointer: string, message: string) => report("extension/limits", pointer, `${LIMITS_KEY}: ${message}`, HINT);
  if (!isObj(v)) return bad(where, `must be an object, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const out: IrLimits = {};
  const allowed: readonly string[] = PLACES[place];
  for (const [key, value] of Object.entries(v)) {
    const at = ptr.join(where, key);
    if (key === "$ref") {
      // the bundler copies in a declaration from another file; one of this document is not followed
      bad(at, `a $ref here must name another file's declaration that the input's refs.allow admits (it is copied in); got ${JSON.stringify(value)}`);
      continue;
    }
    if (!allowed.includes(key)) {
      const other = place === "document" ? "an operation's" : "a document's or server's";
      bad(at, (PLACES.document as readonly string[]).includes(key) || (PLACES.operation as readonly string[]).includes(key) ? `${key} belongs in ${other} ${LIMITS_KEY}` : `unknown member ${JSON.stringify(key)} (known here: ${allowed.join(", ")})`);
      continue;
    }
    switch (key) {
      case "pool":
      case "unit":
        if (typeof value === "string" && NAME.test(value)) out[key] = value;
        else bad(at, `${key} must be a name (letters, digits, "-", "_", "."), got ${JSON.stringify(value)}`);
        break;
      case "cost":
        if (positive(value)) out.cost = value;
        else bad(at, `cost must be a number above 0 (in the document's unit), got ${JSON.stringify(value)}`);
        break;
      case "requestsPerSecond":
        if (positive(value)) out.requestsPerSecond = value;
        else bad(at, `requestsPerSecond must be a number above 0, got ${JSON.stringify(value)}`);
        break;
      case "plans": {
        const plans = readPlans(value, at, bad);
        if (plans) out.plans = plans;
        break;
      }
      case "batch": {
        const batch = readBatch(value, at, bad);
        if (batch) out.batch = batch;
        break;
      }
      case "range": {
        const range = readRange(value, at, bad, paramNames, heads);
        if (range) out.range = range;
        break;
      }
      case "signals": {
        const signals = readSignals(value, at, bad);
        if (signals) out.signals = signals;
        break;
      }
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

type Bad = (pointer: string, message: string) => void;

function readPlans(v: unknown, at: string, bad: Bad): IrLimits["plans"] {
  if (!isObj(v) || Object.keys(v).length === 0) return bad(at, `plans must map plan names to { quotas: [{ quota, window }] }, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const plans: NonNullable<IrLimits["plans"]> = [];
  for (const [name, plan] of Object.entries(v)) {
    const here = ptr.join(at, name);
    if (!NAME.test(name)) {
      bad(here, `plan name ${JSON.stringify(name)} must be letters, digits, "-", "_" or "."`);
      continue;
    }
    if (!isObj(plan)) {
      bad(here, `plan ${name} must be an object { quotas: [{ quota, window }], apiKey? }, got ${JSON.stringify(plan)?.slice(0, 120)}`);
      continue;
    }
    const unknown = Object.keys(plan).find((k) => !(PLAN_KEYS as readonly string[]).includes(k));
    if (unknown !== undefined) {
      bad(ptr.join(here, unknown), `plan ${name} has no member ${JSON.stringify(unknown)} (known: ${PLAN_KEYS.join(", ")})`);
      continue;
    }
    const quotas = readQuotas(plan["quotas"], ptr.join(here, "quotas"), bad);
    if (plan["apiKey"] !== undefined && typeof plan["apiKey"] !== "boolean") bad(ptr.join(here, "apiKey"), `apiKey must be true or false (false: the budget of requests without a key), got ${JSON.stringify(plan["apiKey"])}`);
    if (plan["description"] !== undefined && typeof plan["description"] !== "string") bad(ptr.join(here, "description"), `description must be a string`);
    if (!quotas) continue;
    plans.push({ name, quotas, ...(plan["apiKey"] === false ? { apiKey: false as const } : {}) });
  }
  return plans.length > 0 ? plans : undefined;
}

function readQuotas(v: unknown, at: string, bad: Bad): { quota: number; window: number }[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return bad(at, `quotas must be a non-empty list of { quota, window }, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const quotas: { quota: number; window: number }[] = [];
  for (const [i, q] of v.entries()) {
    const here = ptr.join(at, i);
    if (!isObj(q) || Object.keys(q).some((k) => k !== "quota" && k !== "window")) return bad(here, `a quota is { quota: <units>, window: <seconds> }, got ${JSON.stringify(q)?.slice(0, 120)}`), undefined;
    if (!positive(q["quota"])) return bad(ptr.join(here, "quota"), `quota must be a number of units above 0, got ${JSON.stringify(q["quota"])}`), undefined;
    if (!whole(q["window"])) return bad(ptr.join(here, "window"), `window must be whole seconds above 0 (60: a minute, 86400: a day), got ${JSON.stringify(q["window"])}`), undefined;
    if (quotas.some((o) => o.window === q["window"])) return bad(ptr.join(here, "window"), `two quotas for a window of ${q["window"]} s`), undefined;
    quotas.push({ quota: q["quota"], window: q["window"] as number });
  }
  return quotas;
}

function readBatch(v: unknown, at: string, bad: Bad): IrLimits["batch"] {
  if (!isObj(v)) return bad(at, `batch must be { maxItems?, maxResponseBytes? }, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const batch: NonNullable<IrLimits["batch"]> = {};
  for (const [key, value] of Object.entries(v)) {
    if (key !== "maxItems" && key !== "maxResponseBytes") bad(ptr.join(at, key), `batch has no member ${JSON.stringify(key)} (known: maxItems, maxResponseBytes)`);
    else if (!whole(value)) bad(ptr.join(at, key), `batch.${key} must be a whole number above 0, got ${JSON.stringify(value)}`);
    else batch[key] = value;
  }
  return Object.keys(batch).length > 0 ? batch : undefined;
}

/** A path to a param or a field inside one: `fromBlock`, `filter.fromBlock`. */
function readPath(v: unknown, at: string, bad: Bad, paramNames: readonly string[] | undefined): string[] | undefined {
  const parts = typeof v === "string" ? v.split(".") : [];
  if (parts.length === 0 || parts.some((p) => p === "")) return bad(at, `must name a param, or a field inside one as param.field, got ${JSON.stringify(v)}`), undefined;
  if (paramNames && !paramNames.includes(parts[0]!)) return bad(at, `${JSON.stringify(parts[0])} is not a param of this operation (its params: ${paramNames.join(", ") || "none"})`), undefined;
  return parts;
}

/** `heads`: the document's method names or operation ids, which `head` must name one of (unchecked when not given). */
function readRange(v: unknown, at: string, bad: Bad, paramNames: readonly string[] | undefined, heads: readonly string[] | undefined): IrLimits["range"] {
  if (!isObj(v)) return bad(at, `range must be { from, to, unit, maxSpan?, maxResults?, toExclusive?, order?, head? }, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const unknown = Object.keys(v).find((k) => !(RANGE_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) return bad(ptr.join(at, unknown), `range has no member ${JSON.stringify(unknown)} (known: ${RANGE_KEYS.join(", ")})`), undefined;
  const from = readPath(v["from"], ptr.join(at, "from"), bad, paramNames);
  const to = readPath(v["to"], ptr.join(at, "to"), bad, paramNames);
  const unit = v["unit"];
  if (!(RANGE_UNITS as readonly unknown[]).includes(unit)) return bad(ptr.join(at, "unit"), `range.unit must be ${RANGE_UNITS.join(" or ")}, got ${JSON.stringify(unit)}`), undefined;
  for (const key of ["maxSpan", "maxResults"] as const) if (v[key] !== undefined && !whole(v[key])) return bad(ptr.join(at, key), `range.${key} must be a whole number above 0, got ${JSON.stringify(v[key])}`), undefined;
  if (v["toExclusive"] !== undefined && typeof v["toExclusive"] !== "boolean") return bad(ptr.join(at, "toExclusive"), `range.toExclusive must be true (the to end is the first position after the range) or false, got ${JSON.stringify(v["toExclusive"])}`), undefined;
  if (v["order"] !== undefined && v["order"] !== "asc" && v["order"] !== "desc") return bad(ptr.join(at, "order"), `range.order must be asc or desc (the order answers list their items in), got ${JSON.stringify(v["order"])}`), undefined;
  const orderParam = v["orderParam"];
  if (orderParam !== undefined && (typeof orderParam !== "string" || (paramNames !== undefined && !paramNames.includes(orderParam)))) return bad(ptr.join(at, "orderParam"), `range.orderParam must name a param of this operation whose value is asc or desc, got ${JSON.stringify(orderParam)?.slice(0, 120)}`), undefined;
  const head = v["head"];
  if (head !== undefined && (typeof head !== "string" || (heads !== undefined && !heads.includes(head)))) return bad(ptr.join(at, "head"), `range.head must name a method or operation of this document whose result is the latest position, got ${JSON.stringify(head)?.slice(0, 120)}`), undefined;
  if (!from || !to) return undefined;
  return {
    from,
    to,
    unit: unit as (typeof RANGE_UNITS)[number],
    ...(v["maxSpan"] !== undefined ? { maxSpan: v["maxSpan"] as number } : {}),
    ...(v["maxResults"] !== undefined ? { maxResults: v["maxResults"] as number } : {}),
    ...(v["toExclusive"] === true ? { toExclusive: true as const } : {}),
    ...(v["order"] !== undefined ? { order: v["order"] as "asc" | "desc" } : {}),
    ...(typeof orderParam === "string" ? { orderParam } : {}),
    ...(typeof head === "string" ? { head } : {}),
  };
}

function readSignals(v: unknown, at: string, bad: Bad): IrLimits["signals"] {
  if (!isObj(v) || Object.keys(v).length === 0) return bad(at, `signals must map limits (${LIMIT_KINDS.join(", ")}) to how the server says they were hit, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const signals: NonNullable<IrLimits["signals"]> = {};
  for (const [kind, s] of Object.entries(v)) {
    const here = ptr.join(at, kind);
    if (!(LIMIT_KINDS as readonly string[]).includes(kind)) {
      bad(here, `signals has no limit ${JSON.stringify(kind)} (known: ${LIMIT_KINDS.join(", ")})`);
      continue;
    }
    const signal = readSignal(s, here, bad);
    if (signal) signals[kind as LimitKind] = signal;
  }
  return Object.keys(signals).length > 0 ? signals : undefined;
}

function readSignal(v: unknown, at: string, bad: Bad): IrLimitSignal | undefined {
  if (!isObj(v) || Object.keys(v).length === 0) return bad(at, `a signal is { status?, codes?, messages?, retryAfter?, headers? }, got ${JSON.stringify(v)?.slice(0, 120)}`), undefined;
  const signal: IrLimitSignal = {};
  const list = (key: string, ok: (x: unknown) => boolean, what: string): unknown[] | undefined => {
    const value = v[key];
    if (!Array.isArray(value) || value.length === 0) return bad(ptr.join(at, key), `${key} must be a non-empty list of ${what}, got ${JSON.stringify(value)?.slice(0, 120)}`), undefined;
    const i = value.findIndex((x) => !ok(x));
    if (i >= 0) return bad(ptr.join(at, key, i), `${key} holds ${what}, got ${JSON.stringify(value[i])?.slice(0, 120)}`), undefined;
    return value;
  };
  for (const key of Object.keys(v)) {
    if (!(SIGNAL_KEYS as readonly string[]).includes(key)) {
      bad(ptr.join(at, key), `a signal has no member ${JSON.stringify(key)} (known: ${SIGNAL_KEYS.join(", ")})`);
      continue;
    }
    if (key === "status") {
      const s = list(key, (x) => Number.isInteger(x) && (x as number) >= 400 && (x as number) <= 599, "HTTP error statuses (400–599)");
      if (s) signal.status = s as number[];
    } else if (key === "codes") {
      const s = list(key, (x) => Number.isInteger(x), "JSON-RPC error codes (integers)");
      if (s) signal.codes = s as number[];
    } else if (key === "messages") {
      const s = list(key, (x) => typeof x === "string" && x !== "" && compiles(x), "regular expressions matched against the error message (case-insensitive)");
      if (s) signal.messages = s as string[];
    } else if (key === "headers") {
      const s = list(key, (x) => typeof x === "string" && TOKEN.test(x), "HTTP header names");
      if (s) signal.headers = s as string[];
    } else if (v[key] !== true) bad(ptr.join(at, key), `retryAfter must be true (the server sends Retry-After with it) or left out, got ${JSON.stringify(v[key])}`);
    else signal.retryAfter = true;
  }
  return Object.keys(signal).length > 0 ? signal : undefined;
}

function compiles(source: string): boolean {
  try {
    new RegExp(source, "i");
    return true;
  } catch {
    return false;
  }
}

/** A document's own declarations: its root's and each of its servers' (`servers` lists them the same way in OpenAPI and OpenRPC). */
export function checkDocumentLimits(root: Record<string, unknown>, report: Report): void {
  readLimits(root, "#", "document", report);
  const servers = root["servers"];
  if (Array.isArray(servers)) servers.forEach((s, i) => isObj(s) && readLimits(s, ptr.join("#/servers", i), "document", report));
}
