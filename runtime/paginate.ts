/**
 * Pagination: a list operation (a `pageToken` param in, a `nextPageToken`
 * property out) gets `.pages(params)` and `.iterate(params)` beside its call:
 *
 *   for await (const tx of data.listErc20Transactions.iterate({ chainId, address })) …
 *
 * Both stop when a page carries no token, after `maxPages` pages or `limit`
 * items, or when `signal` aborts: the iteration then rejects with the abort
 * reason before the next item, and the next page is never requested.
 */
import { AvaspecError } from "./errors.js";
import type { CallOptions } from "./http.js";
import { hasOwn } from "./validate.js";

export interface PageOptions extends CallOptions {
  /** Most pages to request (default: until the last page). */
  maxPages?: number;
  /** Most items to yield (`iterate` only). */
  limit?: number;
}

/** A list operation: call it for one page, or walk every page or item. */
export interface PagedMethod<P, R, I> {
  (params: P, options?: CallOptions): Promise<R>;
  /** Every page in order, starting at `params.pageToken` when given. */
  pages(params: P, options?: PageOptions): AsyncGenerator<R, void, undefined>;
  /** Every item of every page, in order. */
  iterate(params: P, options?: PageOptions): AsyncGenerator<I, void, undefined>;
}

function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Adds `pages` and `iterate` to a list operation's call. */
export function paged<P, R, I>(call: (params: P, options?: CallOptions) => Promise<R>, id: string, token: string, nextToken: string, items: string): PagedMethod<P, R, I> {
  async function* pages(params: P, options: PageOptions = {}): AsyncGenerator<R, void, undefined> {
    const { maxPages = Infinity, limit: _limit, ...callOptions } = options;
    const base = (params ?? {}) as Record<string, unknown>;
    let current: unknown = hasOwn(base, token) ? base[token] : undefined;
    for (let n = 0; n < maxPages; n++) {
      stopIfAborted(options.signal);
      // a copy with the token set; own keys such as __proto__ stay plain data
      const page = await call({ ...base, [token]: current } as P, callOptions);
      stopIfAborted(options.signal);
      yield page;
      const next = (page as Record<string, unknown> | null)?.[nextToken];
      if (next === undefined || next === null || next === "") return;
      if (next === current) throw new AvaspecError(`${id}: the server returned the page token it was given (${String(next).slice(0, 40)}); stopping instead of looping`);
      current = next;
    }
  }
  async function* iterate(params: P, options: PageOptions = {}): AsyncGenerator<I, void, undefined> {
    const limit = options.limit ?? Infinity;
    if (limit <= 0) return;
    let count = 0;
    for await (const page of pages(params, options)) {
      const list = (page as Record<string, unknown> | null)?.[items];
      for (const item of Array.isArray(list) ? (list as I[]) : []) {
        stopIfAborted(options.signal);
        yield item;
        if (++count >= limit) return;
      }
    }
  }
  return Object.assign(call, { pages, iterate });
}
