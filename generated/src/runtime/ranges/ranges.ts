/**
 * Range splitting: a read over any block range (`eth_getLogs` from … to, or
 * to `latest`) as a series of windows each within the server's cap, so that
 * a range no single call may span is read whole. The window starts at the
 * cap and shrinks when the server answers with its range error (the declared
 * signal: Coreth's -32000 "requested too many blocks", or a result-count
 * refusal).
 *
 * The same error also comes for reasons that have nothing to do with the
 * window's size (a provider's load shedding, a node behind a balancer with a
 * smaller cap for one request), so a refusal is judged by what already
 * worked: a window no wider than one that succeeded is first read again as
 * it is (`repeats` times), and only a refusal that repeats, or of a window
 * wider than any that succeeded, halves it. A window wider than the widest
 * success is always halved, so a real span cap is found as before. Each
 * halving leaves a ceiling (the refused width, less one) that growth does
 * not pass until `ceilingLife` windows in a row have succeeded; below a
 * ceiling the window grows by bisection between the widest success and the
 * ceiling, so a cap between two powers of two is approached rather than
 * refused every other window, and above none it doubles; after a halving it
 * goes straight back to the widest width still trusted.
 *
 * Windows are read one after another and yielded as they come: the scan
 * holds one window's items at a time, so memory stays flat over any range,
 * and the items come in block order, each once (windows never overlap).
 * Progress is a property (`scan.progress`) and a callback (`onProgress`).
 */
import { AvaspecError, ValidationError } from "../errors/errors.js";
import { signalMatches, type LimitSignal, type OperationLimits } from "../values/limits.js";

export interface RangeProgress {
  /** Blocks read so far. */
  readonly done: number;
  /** Blocks in the range (known once `latest` is read). */
  readonly total: number;
  /** The current window's size. */
  readonly window: number;
  /** Windows read; `retries` requests were refused and their window read again (`repeats` of them as it was, the rest smaller). */
  readonly windows: number;
  readonly retries: number;
  readonly repeats: number;
}

export interface ScanRangeOptions {
  /** The widest window (default: the declared `maxSpan`, else 2,048, Coreth's usual `api-max-blocks-per-request`). */
  maxSpan?: number;
  /**
   * Successes in a row after which the window grows back towards `maxSpan` (default 1: a refusal's
   * cause may be a few dense or slow blocks, and the next window is past them; more keeps a dense stretch
   * from being refused every other window).
   */
  growAfter?: number;
  /**
   * How many times a refused window no wider than one that already succeeded is read again as it is
   * before it is halved (default 1): such a refusal is more likely transient than a cap. 0 halves at once.
   */
  repeats?: number;
  /** Windows in a row that must succeed before a width that was refused is tried again (default 32). */
  ceilingLife?: number;
  /** Whether an error is the server refusing the window's size (default: the declared range and results signals). */
  isRangeError?: (error: unknown) => boolean;
  /** Called after each window with the scan's progress. */
  onProgress?: (progress: RangeProgress) => void;
  signal?: AbortSignal;
}

/** The blocks `from` … `to`, both included; `to` may be `latest`, read once when the scan starts. */
export interface BlockRange {
  from: number | bigint;
  to: number | bigint | "latest";
}

/** A scan in progress: iterate it for the items; `progress` says how far it is. */
export interface RangeScan<T> extends AsyncIterable<T> {
  readonly progress: RangeProgress;
  /** The most items the scan has held at once (one window's): what a memory check reads. */
  readonly peakHeld: number;
}

const DEFAULT_SPAN = 2048;

/** Whether a thrown `error` is a refusal `signal` describes (`signalMatches`): an ApiError by its status, an RpcError by its code and the server's message. */
export function matchesSignal(error: unknown, signal: LimitSignal | undefined): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; statusCode?: unknown; rpcMessage?: unknown; message?: unknown };
  const rpc = typeof e.code === "number" ? { code: e.code, message: e.rpcMessage ?? e.message } : undefined;
  return signalMatches(signal, typeof e.statusCode === "number" ? e.statusCode : undefined, rpc);
}

/** The default options of a method from its declaration (`x-avaspec-limits`). */
export function rangeDefaults(limits: OperationLimits | undefined): Pick<ScanRangeOptions, "maxSpan" | "isRangeError"> {
  const signals = limits?.signals;
  return {
    ...(limits?.range?.maxSpan !== undefined ? { maxSpan: limits.range.maxSpan } : {}),
    isRangeError: (e) => matchesSignal(e, signals?.range) || matchesSignal(e, signals?.results),
  };
}

/** The most windows a confirmed ceiling is trusted for before it is probed again: one probe per this many windows against a real cap. */
const MAX_CEILING_LIFE = 1024;

/**
 * What a scan has learned about the widths the server takes, and the next
 * window's width after each answer (the module's comment says why).
 */
class Widths {
  /** The widest window that succeeded and is still trusted (0: none). */
  private good = 0;
  /** The widest window not refused for real since it was set (Infinity: none refused). */
  private ceiling = Infinity;
  /** Successes since the ceiling was set, and how many it lasts before the width above it is tried once. */
  private age = 0;
  private life: number;
  private probing = false;
  private streak = 0;
  private repeated = 0;

  constructor(
    private readonly max: number,
    private readonly growAfter: number,
    private readonly repeats: number,
    private readonly ceilingLife: number,
  ) {
    this.life = ceilingLife;
  }

  /** A window `size` wide was refused: undefined to read it again as it is, else the width to read it at. */
  refused(size: number): number | undefined {
    this.streak = 0;
    // no wider than a window that worked: more likely a passing refusal than a cap
    if (size <= this.good && this.repeated < this.repeats) {
      this.repeated++;
      return undefined;
    }
    this.repeated = 0;
    // refused again at a width that had worked: these blocks are denser (a result cap), so nothing as wide is trusted
    if (size <= this.good) this.good = 0;
    // the width above an old ceiling refused again: the cap is real, so probe it less often
    if (this.probing) this.life = Math.min(MAX_CEILING_LIFE, this.life * 2);
    this.probing = false;
    this.ceiling = Math.min(this.ceiling, size - 1);
    this.age = 0;
    return Math.max(1, Math.floor(size / 2), Math.min(this.good, this.ceiling));
  }

  /** A window `size` wide succeeded, read at `current`: the next window's width. */
  succeeded(size: number, current: number): number {
    this.repeated = 0;
    this.good = Math.max(this.good, size);
    if (this.good > this.ceiling) {
      // the width above the ceiling passed: whatever refused it has gone
      this.ceiling = Infinity;
      this.probing = false;
      this.life = this.ceilingLife;
    } else if (this.ceiling !== Infinity && ++this.age >= this.life) this.probing = true;
    const limit = Math.min(this.max, this.probing ? this.ceiling + 1 : this.ceiling);
    if (++this.streak < this.growAfter || current >= limit) return Math.min(current, limit);
    this.streak = 0;
    // straight back to the widest trusted width; past it, bisect towards a known ceiling, else double
    if (current < this.good) return Math.min(limit, this.good);
    if (this.ceiling !== Infinity) return current + Math.ceil((limit - current) / 2);
    return Math.min(limit, current * 2);
  }
}

/** A range's refusal of its own input: an AvaspecError that names the bound. */
const invalid = (what: string, message: string) => new ValidationError(`range: ${what} ${message}`, { issues: [{ path: `/${what}`, message }] });

/**
 * A range's bound as params hold it or a node answers it: a number, a bigint, a hex quantity or decimal digits,
 * `earliest` (0); `latest`, and an absent bound, as such. Anything else is a ValidationError naming `what`.
 */
export function position(v: unknown, what: string): number | "latest" | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === "latest") return "latest";
  if (v === "earliest") return 0;
  const n = typeof v === "bigint" ? Number(v) : typeof v === "string" && /^(0x[0-9a-f]+|\d+)$/i.test(v) ? Number(v) : v;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) return n;
  throw invalid(what, `must be a position (a non-negative integer) or "latest", not ${String(v)}`);
}

/** A bound that must be a number here (a start; a head as the node answered it). */
const toNumber = (v: unknown, what: string): number => {
  const n = position(v, what);
  if (typeof n !== "number") throw invalid(what, `must be a position (a non-negative integer), not ${String(v)}`);
  return n;
};

/**
 * Reads `range` window by window with `read(from, to)` (both included);
 * `head()` answers the latest block when `range.to` is `latest`.
 */
export function scanRange<T>(read: (from: number, to: number) => Promise<readonly T[]>, range: BlockRange, options: ScanRangeOptions & { head?: () => Promise<number | bigint | string> } = {}): RangeScan<T> {
  const maxSpan = Math.max(1, Math.floor(options.maxSpan ?? DEFAULT_SPAN));
  const growAfter = Math.max(1, options.growAfter ?? 1);
  const repeats = Math.max(0, Math.floor(options.repeats ?? 1));
  const ceilingLife = Math.max(1, Math.floor(options.ceilingLife ?? 32));
  const isRangeError = options.isRangeError ?? (() => false);
  const progress = { done: 0, total: 0, window: maxSpan, windows: 0, retries: 0, repeats: 0 };
  let peakHeld = 0;

  async function* run(): AsyncGenerator<T> {
    const from = toNumber(range.from, "from");
    let to: number;
    if (range.to === "latest") {
      if (!options.head) throw invalid("to", "is latest but the scan has no way to read the head");
      to = toNumber(await options.head(), "the head");
    } else to = toNumber(range.to, "to");
    progress.total = Math.max(0, to - from + 1);
    const width = new Widths(maxSpan, growAfter, repeats, ceilingLife);
    let next = from;
    while (next <= to) {
      options.signal?.throwIfAborted();
      const end = Math.min(to, next + progress.window - 1);
      const size = end - next + 1;
      let items: readonly T[];
      try {
        items = await read(next, end);
      } catch (error) {
        // a one-block window the server refuses cannot be split
        if (!isRangeError(error) || end === next) throw error;
        progress.retries++;
        const again = width.refused(size);
        if (again === undefined) progress.repeats++;
        else progress.window = again;
        continue;
      }
      peakHeld = Math.max(peakHeld, items.length);
      progress.windows++;
      progress.done += end - next + 1;
      next = end + 1;
      progress.window = width.succeeded(size, progress.window);
      options.onProgress?.({ ...progress });
      yield* items;
    }
  }

  return {
    [Symbol.asyncIterator]: () => run(),
    get progress() {
      return { ...progress };
    },
    get peakHeld() {
      return peakHeld;
    },
  };
}

/** A filter's block bounds as a ranged method sends them: hex quantities. */
export const quantity = (n: number) => "0x" + n.toString(16);

/**
 * Scans a ranged JSON-RPC method (its descriptor's `limits.range`, such as
 * `eth_getLogs`'s `filter.fromBlock` … `filter.toBlock`): `call` sends one
 * window's filter, `head` reads the latest block for `to: "latest"`.
 */
export function scanFilter<F extends object, R extends readonly unknown[]>(limits: OperationLimits | undefined, filter: F, call: (filter: F) => Promise<R>, head: () => Promise<number | bigint | string>, options: ScanRangeOptions = {}): RangeScan<R[number]> {
  const range = limits?.range;
  if (!range || range.from.length < 2 || range.to.length < 2) throw new AvaspecError("range: the method declares no block range to split");
  const fromKey = range.from[range.from.length - 1]!;
  const toKey = range.to[range.to.length - 1]!;
  const src = filter as Record<string, unknown>;
  const blocks: BlockRange = { from: toNumber(src[fromKey], fromKey), to: position(src[toKey], toKey) ?? "latest" };
  return scanRange<R[number]>((from, to) => call({ ...filter, [fromKey]: quantity(from), [toKey]: quantity(to) }), blocks, { ...rangeDefaults(limits), ...options, head });
}
