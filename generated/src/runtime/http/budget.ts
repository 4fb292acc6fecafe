/**
 * Pacing calls under a service's declared limits (`x-avaspec-limits`, the
 * generated `…Limits` constants): `createBudget` makes the object a client
 * takes as its `budget` option. It lives apart from the transports so that a
 * bundle pays for it only when it imports it.
 *
 * With a plan (or explicit quotas) every attempt waits until each of the
 * plan's windows has room for its cost. The room comes back one window after
 * the answer arrived, not after the request left: the server counted the
 * request at some moment in between, so freeing it later can never let two
 * windows' worth reach the server within one of its windows, whether it
 * counts in fixed windows, sliding windows or a token bucket.
 *
 * Without a plan the budget is learned: concurrency grows additively and
 * halves on a refusal; the first refusal that says when to come back
 * (`Retry-After`, `RateLimit`) becomes a quota (what the server took, over the
 * time until it lets us go again), and a `RateLimit-Policy` header is taken as
 * the plan itself. Budgets are shared per pool and API key across clients.
 */
import { AbortError, AvaspecError, UsageError, type RequestInfo } from "../errors/errors.js";
import { quotasFault, signalMatches, type DocumentLimits, type LimitSignal, type ServiceLimits } from "../values/limits.js";
import type { Attempt, Budget, Outgoing } from "./send.js";

/** A budget option that cannot be used (an unknown plan, a quota that is not a positive number): thrown by `createBudget`, before any request. */
export class BudgetOptionError extends UsageError {
  override name = "BudgetOptionError";
  /** The option at fault, as a path (`plan`, `quotas[0].window`). */
  readonly field: string;
  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

/** `quota` units (the document's unit: compute units, or requests) per `window` seconds. */
export interface Quota {
  readonly quota: number;
  readonly window: number;
}

export interface BudgetOptions {
  /** A plan the document declares (`free`, `pro`…): its quotas are the budget. */
  plan?: string;
  /** The budget in figures, instead of a plan. */
  quotas?: readonly Quota[];
  /**
   * Whose budget it is. Budgets with the same pool and key are one budget,
   * whichever client (HTTP or JSON-RPC) draws on it. Default: the API key
   * each request carries (none: the pool's keyless budget).
   */
  key?: string;
  /** Adaptive concurrency when the budget is unknown: where it starts (default 4) and its ceiling (default 64). */
  concurrency?: { initial?: number; max?: number };
  /** How many times a call refused for a limit is sent again, beyond the retry policy (default 8). */
  limitedRetries?: number;
}

interface Window {
  readonly quota: number;
  readonly ms: number;
  /** Answered attempts still inside the window: [answered at, units, first answer of the entry], oldest first. */
  spent: [number, number, number][];
  spentSum: number;
}

interface Waiter {
  cost: number;
  go(): void;
  fail(error: unknown): void;
}

/** The state one pool and key share: windows, concurrency and the queue of attempts waiting for them. */
class Lane {
  windows: Window[] = [];
  /** Units of attempts sent and not yet answered: in every window, whichever windows there were when they left. */
  pending = 0;
  /** Whether the windows come from a plan (not learned). */
  planned = false;
  limit: number;
  active = 0;
  pausedUntil = 0;
  /** When the budget last shrank: refusals of attempts sent before it say nothing new. */
  shrunkAt = 0;
  /** Units the server took since the learning began (adaptive only). */
  taken = 0;
  since = 0;
  queue: Waiter[] = [];
  timer: ReturnType<typeof setTimeout> | undefined;
  batchCaps = new Map<string, number>();

  constructor(
    quotas: readonly Quota[] | undefined,
    readonly maxConcurrency: number,
    initial: number,
  ) {
    this.limit = quotas ? Infinity : initial;
    if (quotas) this.plan(quotas, true);
  }

  plan(quotas: readonly Quota[], planned: boolean): void {
    // what was spent stays spent: a new figure must not reopen a window the server still counts
    const old = this.windows.reduce<Window | undefined>((a, w) => (a && a.ms >= w.ms ? a : w), undefined);
    this.windows = quotas.map((q) => ({ quota: q.quota, ms: q.window * 1000, spent: old ? old.spent.map(([at, units, first]) => [at, units, first] as [number, number, number]) : [], spentSum: old?.spentSum ?? 0 }));
    this.planned = planned;
    if (!planned) this.limit = Math.max(this.limit, 1);
  }

  /** The first moment the head of the queue may go, or 0 when it may go now; Infinity when only a release can free it. */
  private readyAt(cost: number, now: number): number {
    let at = this.pausedUntil > now ? this.pausedUntil : 0;
    if (this.active >= this.limit) at = Math.max(at, Infinity);
    for (const w of this.windows) {
      while (w.spent.length > 0 && w.spent[0]![0] + w.ms <= now) w.spentSum -= w.spent.shift()![1];
      let used = this.pending + w.spentSum;
      if (used + cost <= w.quota) continue;
      // the moment enough answered units leave the window
      let free = Infinity;
      for (const [answered, units] of w.spent) {
        used -= units;
        if (used + cost <= w.quota) {
          free = answered + w.ms;
          break;
        }
      }
      at = Math.max(at, free);
    }
    return at;
  }

  pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const now = Date.now();
      const at = this.readyAt(head.cost, now);
      if (at === 0) {
        this.queue.shift();
        this.active++;
        this.pending += head.cost;
        head.go();
        continue;
      }
      // a timer that does not keep the process alive: only a waiting call does, and it holds its own promise
      if (at !== Infinity) {
        this.timer = setTimeout(() => this.pump(), Math.max(1, at - now));
        (this.timer as { unref?: () => void }).unref?.();
      }
      return;
    }
  }

  /** Waits until the budget has `cost`; takes it. */
  acquire(cost: number, signal: AbortSignal | undefined, request: RequestInfo): Promise<void> {
    return new Promise((resolve, reject) => {
      const aborted = () => new AbortError(`${request.operationId}: aborted by the caller while waiting for the budget`, request, { cause: signal!.reason });
      if (signal?.aborted) return reject(aborted());
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(aborted());
        this.pump();
      };
      const waiter: Waiter = {
        cost,
        go: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        fail: reject,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      if (this.since === 0) this.since = Date.now();
      this.pump();
    });
  }

  /** Returns the cost to the windows as spent now (or as never spent, for an attempt that did not reach a server). */
  release(cost: number, reached: boolean): void {
    const now = Date.now();
    this.active--;
    this.pending -= cost;
    if (reached) for (const w of this.windows) {
      const last = w.spent[w.spent.length - 1];
      // answers within a thousandth of the window of an entry's first share it, dated by the latest: freed a
      // little late, never early (measured from the latest, a steady stream of answers would chain into one entry
      // freed a window after the last of them)
      if (last && now - last[2] < w.ms / 1000) {
        last[0] = now;
        last[1] += cost;
      } else w.spent.push([now, cost, now]);
      w.spentSum += cost;
    }
    this.pump();
  }

  succeeded(cost: number): void {
    this.taken += cost;
    if (!this.planned && this.limit < this.maxConcurrency) this.limit = Math.min(this.maxConcurrency, this.limit + 1 / this.limit);
  }

  /** A refusal of an attempt taken at `sentAt`: pause everyone until `waitMs` has passed, and shrink what is not a plan. */
  refused(sentAt: number, waitMs: number, told: boolean): void {
    const now = Date.now();
    this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
    if (this.planned || sentAt < this.shrunkAt) return;
    this.shrunkAt = now;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    if (this.windows.length === 0) {
      // the server took `taken` units from `since` until it lets us go again: that is one of its windows, at least
      if (told && this.taken > 0) this.plan([{ quota: this.taken, window: (now + waitMs - this.since) / 1000 }], false);
    } else this.plan(this.windows.map((w) => ({ quota: Math.max(1, Math.floor(w.quota * 0.75)), window: w.ms / 1000 })), false);
  }
}

/** Lanes by pool and key: every client drawing on one budget shares its lane. */
const lanes = new Map<string, Lane>();

function pickPlan(limits: DocumentLimits, options: BudgetOptions): readonly Quota[] | undefined {
  if (options.quotas !== undefined) {
    const fault = quotasFault(options.quotas);
    if (fault) throw new BudgetOptionError(`budget: ${fault.message}`, fault.field);
    return options.quotas;
  }
  if (options.plan === undefined) return undefined;
  const plans = limits.plans ?? {};
  const plan = Object.prototype.hasOwnProperty.call(plans, options.plan) ? plans[options.plan] : undefined;
  if (!plan) {
    const known = Object.keys(plans);
    throw new BudgetOptionError(`budget: plan "${options.plan}" is not one the document declares (${known.length > 0 ? known.map((k) => `"${k}"`).join(", ") : "it declares none"})`, "plan");
  }
  return plan.quotas;
}

function matches(signal: LimitSignal | undefined, status: number, text: string, rpc: unknown[] | undefined): boolean {
  if (signalMatches(signal, status, undefined)) return true;
  // a JSON-RPC answer is refused when every reply in it is an error the signal names
  return !!rpc && rpc.length > 0 && rpc.every((reply) => signalMatches(signal, undefined, (reply as { error?: { code?: unknown; message?: unknown } } | null)?.error));
}

function rpcReplies(text: string): unknown[] | undefined {
  const t = text.trimStart();
  if (!t.startsWith("{") && !t.startsWith("[")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return undefined;
  }
}

/** `t=` of a `RateLimit` header with `r=0`, or `Retry-After`, in ms; undefined when neither says. */
function waitOf(headers: Headers): number | undefined {
  const after = headers.get("retry-after")?.trim();
  if (after && /^\d+$/.test(after)) return Number(after) * 1000;
  if (after) {
    const at = Date.parse(after);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  const left = headers.get("ratelimit");
  const r = left && /(?:^|;)\s*r=(\d+)/.exec(left);
  const t = left && /(?:^|;)\s*t=(\d+)/.exec(left);
  return r && t && r[1] === "0" ? Number(t[1]) * 1000 : undefined;
}

/** `q` and `w` of a `RateLimit-Policy` header (IETF draft): the server's own figures. */
function policyOf(headers: Headers): Quota | undefined {
  const policy = headers.get("ratelimit-policy");
  const q = policy && /(?:^|;)\s*q=(\d+)/.exec(policy);
  const w = policy && /(?:^|;)\s*w=(\d+)/.exec(policy);
  return q && w && Number(q[1]) > 0 && Number(w[1]) > 0 ? { quota: Number(q[1]), window: Number(w[1]) } : undefined;
}

/**
 * A budget for clients of the document `limits` declares (its `…Limits`
 * constant): `createBudget(dataApiLimits, { plan: "free" })`, explicit
 * `quotas`, or nothing to learn it. Throws BudgetOptionError for an option it
 * cannot use, before any request.
 */
export function createBudget(limits: ServiceLimits = {}, options: BudgetOptions = {}): Budget {
  const quotas = pickPlan(limits, options);
  const initial = options.concurrency?.initial ?? 4;
  const max = options.concurrency?.max ?? 64;
  for (const [field, v] of [["concurrency.initial", initial], ["concurrency.max", max], ["limitedRetries", options.limitedRetries ?? 8]] as const) {
    if (typeof v !== "number" || !(v >= (field === "limitedRetries" ? 0 : 1))) throw new BudgetOptionError(`budget: ${field} must be a number of at least ${field === "limitedRetries" ? 0 : 1}, not ${JSON.stringify(v)}`, field);
  }
  const limitedRetries = options.limitedRetries ?? 8;
  const pool = limits.pool ?? "";
  const lane = (out: Outgoing): Lane => {
    const key = options.key ?? out.secrets.find((s) => !!s) ?? "";
    const id = `${pool}\u0000${key}`;
    let found = lanes.get(id);
    if (!found) lanes.set(id, (found = new Lane(quotas, max, initial)));
    // a plan given later for a lane that was learning replaces what it learned
    else if (quotas && !found.planned) found.plan(quotas, true), (found.limit = Infinity);
    return found;
  };
  const serverOf = (url: string): DocumentLimits => ({ ...limits, ...limits.servers?.find((s) => url.startsWith(s.url))?.limits });
  const signalsOf = (url: string) => ({ ...limits.signals, ...serverOf(url).signals });
  const quotaSignal = (url: string): LimitSignal => {
    const s = signalsOf(url);
    return { status: [429, ...(s.quota?.status ?? []), ...(s.rate?.status ?? [])], codes: [...(s.quota?.codes ?? []), ...(s.rate?.codes ?? [])], messages: [...(s.quota?.messages ?? []), ...(s.rate?.messages ?? [])] };
  };
  return {
    async run(out, send, signal, request) {
      const l = lane(out);
      const cost = out.cost ?? limits.cost ?? 1;
      const largest = Math.min(...l.windows.map((w) => w.quota));
      if (cost > largest) throw new AvaspecError(`${request.operationId}: costs ${cost}, more than the budget's smallest quota (${largest}): it can never be sent under this budget`, { ...request, attempts: 0 });
      const signalNow = quotaSignal(out.url);
      for (let tries = 0; ; tries++) {
        await l.acquire(cost, signal, request);
        const sentAt = Date.now();
        let result: Attempt;
        try {
          result = await send();
        } catch (error) {
          l.release(cost, false);
          throw error;
        }
        l.release(cost, result.ok);
        if (!result.ok) return result;
        const { status, headers } = result.response;
        const policy = policyOf(headers);
        if (policy && !l.planned && (l.windows.length !== 1 || l.windows[0]!.quota !== policy.quota || l.windows[0]!.ms !== policy.window * 1000)) l.plan([policy], false);
        const wait = waitOf(headers);
        const limited = matches(signalNow, status, result.text, status === 200 ? rpcReplies(result.text) : undefined);
        if (!limited) {
          l.succeeded(cost);
          // the last unit spent: wait for the reset the server named
          if (wait !== undefined) l.pausedUntil = Math.max(l.pausedUntil, Date.now() + wait);
          return result;
        }
        l.refused(sentAt, wait ?? Math.min(30_000, 500 * 2 ** tries), wait !== undefined);
        if (tries >= limitedRetries) return result;
      }
    },
    batchCap(url) {
      const l = lanes.get(`${pool}\u0000${options.key ?? ""}`);
      return Math.min(l?.batchCaps.get(url) ?? Infinity, serverOf(url).batch?.maxItems ?? Infinity);
    },
    batchRefused(url, size, status, text) {
      if (size < 2) return false;
      const signal = serverOf(url).signals?.batch ?? limits.signals?.batch;
      if (status !== 413 && !matches(signal, status, text, status === 200 ? rpcReplies(text) : undefined)) return false;
      const id = `${pool}\u0000${options.key ?? ""}`;
      let l = lanes.get(id);
      if (!l) lanes.set(id, (l = new Lane(quotas, max, initial)));
      l.batchCaps.set(url, Math.min(l.batchCaps.get(url) ?? Infinity, Math.max(1, Math.floor(size / 2))));
      return true;
    },
  };
}
