/**
 * Pagination: a list operation (a `pageToken` param in, a `nextPageToken`
 * property out) gets `.pages(params)` and `.iterate(params)` beside its call:
 *
 *   for await (const tx of data.listErc20Transactions.iterate({ chainId, address })) …
 *
 * Both stop when a page carries no token, after `maxPages` pages or `limit`
 * items, or when `signal` aborts: the iteration then rejects with an
 * AbortError before the next item, and the next page is never requested.
 */
import { AbortError, ApiError, AvaspecError, PageTokenError } from "./errors.js";
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

/** How a list operation pages, from the spec. */
export interface Paging {
  /** Operation id, for errors. */
  readonly id: string;
  /** The page-token param (`pageToken`). */
  readonly token: string;
  /** The response property holding the next token (`nextPageToken`). */
  readonly nextToken: string;
  /** The response property holding the page's items. */
  readonly items: string;
  /** How long a page token stays valid, in seconds, when the API says. */
  readonly tokenLifetime?: number;
}

function stopIfAborted(id: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(`${id}: iteration aborted by the caller`, undefined, { cause: signal.reason });
}

function lifetime(seconds: number): string {
  return seconds % 3600 === 0 ? `${seconds / 3600} hours` : seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`;
}

/** Adds `pages` and `iterate` to a list operation's call. */
export function paged<P, R, I>(call: (params: P, options?: CallOptions) => Promise<R>, paging: Paging): PagedMethod<P, R, I> {
  const { id, token, nextToken, items, tokenLifetime } = paging;
  /** One page; a token the server rejects on an API whose tokens expire becomes a PageTokenError. */
  async function page(params: P, current: unknown, options: CallOptions): Promise<R> {
    try {
      return await call(params, options);
    } catch (error) {
      if (tokenLifetime === undefined || current === undefined || !(error instanceof ApiError) || ![400, 404, 410].includes(error.statusCode)) throw error;
      throw new PageTokenError(
        `${id}: the server rejected the page token (${error.statusCode} ${error.error}). Page tokens of this API expire ${lifetime(tokenLifetime)} after they are issued: restart the listing from the first page (without ${token}).`,
        error,
      );
    }
  }
  async function* pages(params: P, options: PageOptions = {}): AsyncGenerator<R, void, undefined> {
    const { maxPages = Infinity, limit: _limit, ...callOptions } = options;
    const base = (params ?? {}) as Record<string, unknown>;
    let current: unknown = hasOwn(base, token) ? base[token] : undefined;
    for (let n = 0; n < maxPages; n++) {
      stopIfAborted(id, options.signal);
      // a copy with the token set; own keys such as __proto__ stay plain data
      const result = await page({ ...base, [token]: current } as P, current, callOptions);
      stopIfAborted(id, options.signal);
      yield result;
      const next = (result as Record<string, unknown> | null)?.[nextToken];
      if (next === undefined || next === null || next === "") return;
      if (next === current) throw new AvaspecError(`${id}: the server returned the page token it was given (${String(next).slice(0, 40)}); stopping instead of looping`);
      current = next;
    }
  }
  async function* iterate(params: P, options: PageOptions = {}): AsyncGenerator<I, void, undefined> {
    const limit = options.limit ?? Infinity;
    if (limit <= 0) return;
    let count = 0;
    for await (const result of pages(params, options)) {
      const list = (result as Record<string, unknown> | null)?.[items];
      for (const item of Array.isArray(list) ? (list as I[]) : []) {
        stopIfAborted(id, options.signal);
        yield item;
        if (++count >= limit) return;
      }
    }
  }
  return Object.assign(call, { pages, iterate });
}
