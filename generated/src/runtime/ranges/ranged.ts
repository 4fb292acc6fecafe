/**
 * `iterate` on the client members whose descriptor declares a range
 * (`x-avaspec-limits` `range`): `eth_getLogs`, and the Data API listings
 * filtered by blocks or time.
 *
 *   for await (const log of client.cChain.eth.getLogs.iterate({ fromBlock: 0, toBlock: "latest", address })) …
 *
 * The range's ends are read from the params where the declaration says
 * (`filter.fromBlock`), an absent or `latest` end is resolved once (the
 * declared `head` method or operation, the `head` option, or the clock for a
 * range in seconds), and the windows are read by `scanRange`
 * (runtime/ranges/ranges.ts): within the cap, halved on the declared range
 * error, in order, each item once, one window held at a time. A listing
 * that answers newest first (`order: desc`) is read from the newest window
 * back, so the items still come in the listing's order.
 *
 * Kept beside ranges.ts rather than in the transports: only a bundle with a
 * ranged member carries it.
 */
import { AbortError, ValidationError } from "../errors/errors.js";
import { callHttp, type CallOptions, type HttpConfig, type HttpOperation } from "../http/http.js";
import { paged, type PagedMethod, type PageOptions, type Paging } from "../http/paginate.js";
import type { RpcCall, RpcMethod } from "../jsonrpc/jsonrpc.js";
import type { OperationLimits, RangeLimit } from "../values/limits.js";
import { hasOwn, setOwn } from "../values/validate.js";
import { position, quantity, rangeDefaults, scanRange, type RangeProgress, type RangeScan } from "./ranges.js";

export interface RangeIterateOptions extends CallOptions {
  /** The widest window, in the range's unit (default: the declared `maxSpan`; a JSON-RPC range without one: 2,048 blocks). */
  window?: number;
  /** Successes in a row after which a window halved by a refusal doubles back (default 1). */
  growAfter?: number;
  /** Called after each window with blocks (or seconds) done and the total. */
  onProgress?: (progress: RangeProgress) => void;
  /** The latest position, for an absent or `latest` end (default: the declared `head`; a range in seconds: now). */
  head?: () => Promise<number | bigint | string>;
  /** Which end the windows start from (default: the declared `order`, else `asc`): `desc` for a listing that answers newest first. */
  order?: "asc" | "desc";
}

/** A method whose declaration has a range: the call, and every item over any range. */
export interface RangedMethod<P, R> {
  (params: P, options?: CallOptions): Promise<R>;
  /** Every item from the range's start to its end (`latest` or absent: the head, read once), window by window. */
  iterate(params: P, options?: RangeIterateOptions): RangeScan<R extends readonly (infer I)[] ? I : never>;
}

/** A list operation whose declaration has a range: its pages, and `iterate` over windows of the range, each window's pages walked. */
export interface RangedPagedMethod<P, R, I> extends PagedMethod<P, R, I> {
  /**
   * Every item of every page. With a window (the `window` option, or a declared `maxSpan`) the range is
   * read window by window, each window's pages in turn; without one, the pages of the range as given.
   */
  iterate(params: P, options?: PageOptions & RangeIterateOptions): AsyncGenerator<I, void, undefined>;
}

type Params = Record<string, unknown>;

const get = (params: unknown, path: readonly string[]): unknown => path.reduce<unknown>((v, k) => (typeof v === "object" && v !== null && hasOwn(v, k) ? (v as Params)[k] : undefined), params);

/** A copy of `params` with `value` at `path` (objects on the way copied; own keys stay plain data). */
function set(params: unknown, path: readonly string[], value: unknown): Params {
  const copy: Params = {};
  if (typeof params === "object" && params !== null) for (const k of Object.keys(params)) setOwn(copy, k, (params as Params)[k]);
  const [k, ...rest] = path;
  setOwn(copy, k!, rest.length > 0 ? set(copy[k!], rest, value) : value);
  return copy;
}

interface Window<P> {
  /** The params of the range with its ends replaced by `from` … `to` (both included). */
  params(from: number, to: number): P;
  /** The whole range, ends resolved. */
  bounds(): Promise<{ from: number; to: number }>;
  /** The order the params ask for (the declared `orderParam`'s value), if they do. */
  order?: "asc" | "desc";
}

/** Where the range's ends are in `params` and how a window is written back. `inParams`: the declared path without the param's own name (a one-object method's params are that param). */
function windows<P>(range: RangeLimit, params: P, inParams: (path: readonly string[]) => readonly string[], encode: (n: number) => unknown, head: (() => Promise<unknown>) | undefined): Window<P> {
  const fromPath = inParams(range.from);
  const toPath = inParams(range.to);
  const asked = range.orderParam === undefined ? undefined : get(params, inParams([range.orderParam]));
  return {
    order: asked === "asc" || asked === "desc" ? asked : undefined,
    params: (from, to) => set(set(params, fromPath, encode(from)), toPath, encode(range.toExclusive ? to + 1 : to)) as P,
    async bounds() {
      const from = position(get(params, fromPath), fromPath.join(".")) ?? 0;
      if (from === "latest") throw new ValidationError(`range: ${fromPath.join(".")} must be a position, not latest`, { issues: [{ path: `/${fromPath.join("/")}`, message: "must be a position" }] });
      let to = position(get(params, toPath), toPath.join("."));
      if (typeof to === "number") return { from, to: range.toExclusive ? to - 1 : to };
      if (head) to = position(await head(), "the head") as number;
      else if (range.unit === "seconds") to = Math.floor(Date.now() / 1000);
      else throw new ValidationError(`range: ${toPath.join(".")} is absent or latest, and nothing reads the head (the declaration names no head method; pass the head option)`, { issues: [{ path: `/${toPath.join("/")}`, message: "needs a position or a head" }] });
      return { from, to };
    },
  };
}

const idle: RangeProgress = { done: 0, total: 0, window: 0, windows: 0, retries: 0, repeats: 0 };

/**
 * Scans `params`' range with `read(windowParams)`; `order: desc` reads the
 * windows from the end back (each window's items as the server lists them).
 */
function scanParams<P, I>(id: string, limits: OperationLimits, w: Window<P>, read: (params: P) => Promise<readonly I[]>, options: RangeIterateOptions, maxSpan: number | undefined): RangeScan<I> {
  let inner: RangeScan<I> | undefined;
  const { signal, onProgress, growAfter } = options;
  const desc = (options.order ?? w.order ?? limits.range?.order) === "desc";
  async function* run(): AsyncGenerator<I> {
    const { from, to } = await w.bounds();
    // an empty range (an exclusive end at its start): nothing to read
    if (to < from) return;
    // descending: the scan walks offsets from the end, mapped back onto the range
    inner = scanRange((a, b) => read(desc ? w.params(to - (b - from), to - (a - from)) : w.params(a, b)), { from, to }, { ...rangeDefaults(limits), ...(maxSpan !== undefined ? { maxSpan } : {}), growAfter, onProgress, signal });
    try {
      yield* inner;
    } catch (error) {
      if (signal?.aborted) throw new AbortError(`${id}: iteration aborted by the caller`, undefined, { cause: signal.reason });
      throw error;
    }
  }
  return {
    [Symbol.asyncIterator]: () => run(),
    get progress() {
      return inner?.progress ?? idle;
    },
    get peakHeld() {
      return inner?.peakHeld ?? 0;
    },
  };
}

/** The call options of one window's requests: the iteration's own options left out. */
const callOptions = ({ window: _w, growAfter: _g, onProgress: _p, head: _h, order: _o, ...rest }: RangeIterateOptions & PageOptions): CallOptions => rest;

/** A ranged JSON-RPC method on a client object (`getLogs`): `head` reads the latest block. */
export function rangedCall<P, R>(call: RpcCall, method: RpcMethod<P, R>, head?: RpcMethod): RangedMethod<P, R> {
  const range = method.limits!.range!;
  const inParams = (path: readonly string[]) => (method.form === "one-object" ? path.slice(1) : path);
  const iterate = (params: P, options: RangeIterateOptions = {}) => {
    const own = callOptions(options);
    const latest = options.head ?? (head && (() => call(head, undefined, own) as Promise<number | bigint | string>));
    // a JSON-RPC range is written as the node's hex quantities
    const w = windows(range, params, inParams, quantity, latest);
    return scanParams(method.method, method.limits!, w, (p) => call(method, p, own) as Promise<readonly never[]>, options, options.window);
  };
  return Object.assign((params: P, options?: CallOptions) => call(method, params, options), { iterate }) as RangedMethod<P, R>;
}

/**
 * A ranged list operation on a client object: `paged`'s call and pages, and
 * `iterate` over windows when a window is given or declared. Without one the
 * range is the caller's, read as `paged` reads it (no source states a cap for
 * the Data API's ranges).
 */
export function rangedPaged<P, R, I>(config: HttpConfig, op: HttpOperation, paging: Paging, head?: HttpOperation): RangedPagedMethod<P, R, I> {
  const method = paged<P, R, I>(config, op, paging);
  const range = op.limits!.range!;
  const pageIterate = method.iterate;
  async function* iterate(params: P, options: PageOptions & RangeIterateOptions = {}): AsyncGenerator<I, void, undefined> {
    const span = options.window ?? range.maxSpan;
    if (span === undefined) return yield* pageIterate(params, options);
    const { limit = Infinity, maxPages, ...rest } = options;
    const own = callOptions(rest);
    const latest = options.head ?? (head && (() => callHttp(config, head, undefined, own) as Promise<number | bigint | string>));
    const w = windows(range, params, (path) => path, (n) => n, latest);
    // one window's items, every page of it
    const read = async (windowParams: P) => {
      const items: I[] = [];
      for await (const item of pageIterate(windowParams, { ...own, maxPages })) items.push(item);
      return items;
    };
    let n = 0;
    if (limit <= 0) return;
    for await (const item of scanParams(paging.id, op.limits!, w, read, options, span)) {
      yield item;
      if (++n >= limit) return;
    }
  }
  return Object.assign(method, { iterate });
}
