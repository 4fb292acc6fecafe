/**
 * Pagination: a list operation gets `.pages(params)` and `.iterate(params)`
 * beside its call:
 *
 *   for await (const tx of data.listErc20Transactions.iterate({ chainId, address })) …
 *
 * How the next page is asked for is the operation's `Paging` (the generator
 * reads it from the spec, by shape or from `x-avaspec-pagination`):
 *
 * - `cursor`: a value in the page (`nextPageToken`, `pageInfo.endCursor`) is
 *   sent back as a parameter or a request body field (`pageToken`, `after`);
 *   several (param, next) pairs may be declared, and the first one a page
 *   carries is followed. Ends when no page carries one, or `hasMore` is false.
 * - `page` / `offset`: the page number goes up by one, the offset by the
 *   number of items the page held. Ends at an empty page, or when the page's
 *   totals (`total_pages`, `total`) or `hasMore` say it was the last.
 * - `url` / `link`: the next request is the URL a page's body (`next`,
 *   `links.next`) or its RFC 8288 `Link: <…>; rel="next"` header gives,
 *   resolved against the request's URL. It must be on the origin of the
 *   request that returned it (so, by induction, of the base URL): the server's
 *   answer is untrusted, and the request carries the API key.
 *
 * Both stop after `maxPages` pages or `limit` items, and when `signal`
 * aborts: the iteration then rejects with an AbortError before the next item,
 * and the next page is never requested. Every page request gets the retry
 * policy. A server that hands back a cursor or URL it already gave raises an
 * AvaspecError instead of looping.
 */
import { AbortError, ApiError, AvaspecError, PageTokenError } from "../errors/errors.js";
import { callHttp, type CallOptions, type HttpConfig, type HttpOperation } from "./http.js";
import type { ResponseEvent } from "./send.js";
import { callHttpWithResponse, type ApiResponse, type HttpMethod } from "./with-response.js";
import { hasOwn, setOwn } from "../values/validate.js";

export interface PageOptions extends CallOptions {
  /** Most pages to request (default: until the last page). */
  maxPages?: number;
  /** Most items to yield (`iterate` only). */
  limit?: number;
}

/** A list operation: call it for one page (`withResponse`: with its status and headers), or walk every page or item. */
export interface PagedMethod<P, R, I> extends HttpMethod<P, R> {
  /** Every page in order, starting at the page `params` asks for (its cursor, page number or offset), else the first. */
  pages(params: P, options?: PageOptions): AsyncGenerator<R, void, undefined>;
  /** Every item of every page, in order. */
  iterate(params: P, options?: PageOptions): AsyncGenerator<I, void, undefined>;
}

/** A path of property names into a params object or a page; empty: the value itself. */
export type PagePath = readonly string[];

/** How a list operation pages, from the spec (see the module comment for each style). */
export interface Paging {
  /** Operation id, for errors. */
  readonly id: string;
  readonly style: "cursor" | "page" | "offset" | "url" | "link";
  /** Where a page holds its items (empty: the page is the array). */
  readonly items: PagePath;
  /** `cursor`: where each cursor goes in the params (`["pageToken"]`, `["body", "pageToken"]`) and where a page carries the next one, tried in order. */
  readonly cursors?: readonly { readonly param: PagePath; readonly next: PagePath }[];
  /** `page` / `offset`: the page number or offset in the params. */
  readonly param?: PagePath;
  /** `page`: the first page's number (default 1); `offset`: the first offset (default 0). */
  readonly start?: number;
  /** `page`: the page size in the params (to tell the last page from `total`). */
  readonly size?: PagePath;
  /** `url`: where a page carries the next page's URL. */
  readonly next?: PagePath;
  /** A boolean in the page: false on the last one. */
  readonly hasMore?: PagePath;
  /** The number of items of the whole listing. */
  readonly total?: PagePath;
  /** The number of pages of the whole listing (`page`). */
  readonly totalPages?: PagePath;
  /** `cursor`: how long a cursor stays valid, in seconds, when the API says. */
  readonly tokenLifetime?: number;
}

type Params = Record<string, unknown>;

function stopIfAborted(id: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(`${id}: iteration aborted by the caller`, undefined, { cause: signal.reason });
}

function lifetime(seconds: number): string {
  return seconds % 3600 === 0 ? `${seconds / 3600} hours` : seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`;
}

/** The value at a path, through own properties only. */
function get(value: unknown, path: PagePath | undefined): unknown {
  let cur = value;
  for (const k of path ?? []) {
    if (typeof cur !== "object" || cur === null || !hasOwn(cur, k)) return undefined;
    cur = (cur as Params)[k];
  }
  return cur;
}

/** A copy of `params` with the value at `path` replaced (undefined: not sent); objects on the way are copied, own keys such as __proto__ stay plain data. */
function set(params: unknown, path: PagePath, value: unknown): Params {
  const copy: Params = {};
  if (typeof params === "object" && params !== null) for (const k of Object.keys(params)) setOwn(copy, k, (params as Params)[k]);
  const [k, ...rest] = path;
  setOwn(copy, k!, rest.length > 0 ? set(copy[k!], rest, value) : value);
  return copy;
}

/** A count in a page: a number, or an integer the spec sends as a string (read as a bigint or a string). */
function count(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "bigint" || (typeof value === "string" && /^\d+$/.test(value)) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

const absent = (v: unknown) => v === undefined || v === null || v === "";

/** The target of the `rel="next"` link of an RFC 8288 `Link` header (`<…>; rel="next"`), if there is one. */
export function nextLink(header: string | null | undefined): string | undefined {
  for (const m of (header ?? "").matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2]!);
    if (rel && (rel[1] ?? rel[2])!.toLowerCase().split(/\s+/).includes("next")) return m[1];
  }
  return undefined;
}

// the base of a relative base URL ("/api" in a browser): its origin is never a real one
const RELATIVE = "http://relative.invalid";

/**
 * One walk through the pages: `fetch` requests the current page, `advance`
 * reads a page and moves to the next one (false after the last).
 */
interface Walk<R> {
  fetch(options: CallOptions): Promise<R>;
  advance(page: R): boolean;
}

function walk<R>(config: HttpConfig, op: HttpOperation, paging: Paging, params: Params): Walk<R> {
  const { id, style } = paging;
  let request = params;
  if (style === "cursor") {
    const cursors = paging.cursors ?? [];
    // the cursors given and returned so far: one handed back again would loop
    const seen = new Set(cursors.map((c) => get(params, c.param)).filter((v) => !absent(v)));
    return {
      async fetch(options) {
        const sent = cursors.filter((c) => !absent(get(request, c.param))).map((c) => c.param.join("."));
        try {
          return (await callHttp(config, op, request, options)) as R;
        } catch (error) {
          if (paging.tokenLifetime === undefined || sent.length === 0 || !(error instanceof ApiError) || ![400, 404, 410].includes(error.statusCode)) throw error;
          throw new PageTokenError(`${id}: the server rejected the page token (${error.statusCode} ${error.error}). Page tokens of this API expire ${lifetime(paging.tokenLifetime)} after they are issued: restart the listing from the first page (without ${sent.join(" or ")}).`, error);
        }
      },
      advance(page) {
        if (get(page, paging.hasMore) === false) return false;
        for (const c of cursors) {
          const next = get(page, c.next);
          if (absent(next)) continue;
          if (seen.has(next)) throw new AvaspecError(`${id}: the server returned a page token it had given before (${String(next).slice(0, 40)}); stopping instead of looping`);
          seen.add(next);
          // this pair's cursor, and none of the others' (a stale one would be sent beside it)
          for (const o of cursors) request = set(request, o.param, o === c ? next : undefined);
          return true;
        }
        return false;
      },
    };
  }
  if (style === "page" || style === "offset") {
    const start = paging.start ?? (style === "page" ? 1 : 0);
    let position = count(get(params, paging.param)) ?? start;
    let size = count(get(params, paging.size));
    return {
      fetch: (options) => callHttp(config, op, request, options) as Promise<R>,
      advance(page) {
        const list = get(page, paging.items);
        const n = Array.isArray(list) ? list.length : 0;
        const total = count(get(page, paging.total));
        if (n === 0 || get(page, paging.hasMore) === false) return false;
        if (style === "offset") {
          position += n;
          if (total !== undefined && position >= total) return false;
        } else {
          // without a size in the params, the server's: the first page's length (a last, shorter page ends it anyway)
          size ??= n;
          const done = position - start + 1;
          const pages = count(get(page, paging.totalPages));
          if ((pages !== undefined && done >= pages) || (total !== undefined && done * size >= total)) return false;
          position += 1;
        }
        request = set(request, paging.param!, position);
        return true;
      },
    };
  }
  return urlWalk(config, op, paging, params);
}

/** `url` and `link`: each next page is the URL the previous one gave, on the same origin. */
function urlWalk<R>(config: HttpConfig, op: HttpOperation, paging: Paging, params: Params): Walk<R> {
  const { id } = paging;
  // what the last page's request was (its URL without secrets) and what came back with it
  let sent: string | undefined;
  let headers: Headers | undefined;
  let target: URL | undefined;
  const seen = new Set<string>();
  const hook = config.onResponse;
  const onResponse = (e: ResponseEvent) => {
    if (e.status !== undefined) [sent, headers] = [e.url, e.headers];
    return hook?.(e);
  };
  return {
    fetch(options) {
      if (target === undefined) return callHttp({ ...config, onResponse }, op, params, options) as Promise<R>;
      const { results } = config;
      // the next page's request: its URL as the server gave it, the operation's headers, body and checks
      const next: HttpConfig = {
        ...config,
        onResponse,
        baseUrl: target.origin === RELATIVE ? "" : target.origin,
        operationServers: undefined,
        // the result check is found by the operation's own descriptor
        results: results && { get: () => results.get(op), apply: (mode, request, _d, value, status, raw) => results.apply(mode, request, op, value, status, raw) },
      };
      const path = (target.pathname + target.search).replace(/[{}]/g, encodeURIComponent);
      const d: HttpOperation = { ...op, server: undefined, path, params: op.params.filter((p) => p.in === "header" || p.in === "cookie"), check: undefined, paramIntegers: undefined };
      return callHttp(next, d, params, options) as Promise<R>;
    },
    advance(page) {
      const link = paging.style === "link" ? nextLink(headers?.get("link")) : get(page, paging.next);
      if (absent(link) || get(page, paging.hasMore) === false) return false;
      const base = new URL(sent!, RELATIVE);
      let url: URL;
      try {
        if (typeof link !== "string") throw new TypeError("not a string");
        url = new URL(link, base);
      } catch (cause) {
        throw new AvaspecError(`${id}: the next page's URL ${JSON.stringify(link).slice(0, 80)} is not a URL`, undefined, { cause });
      }
      if (url.origin !== base.origin || url.username !== "" || url.password !== "") {
        throw new AvaspecError(`${id}: the server sent the next page's URL on another origin (${url.origin}) than the request's (${base.origin}); refusing to follow it: only the API's own origin gets the request and its credentials`);
      }
      url.hash = "";
      // the API key goes where the operation puts it, once
      for (const place of op.apiKeys ?? []) if (place.in === "query" && url.searchParams.has(place.name)) url.searchParams.delete(place.name);
      seen.add(base.href.replace(/#.*/, ""));
      if (seen.has(url.href)) throw new AvaspecError(`${id}: the server sent a next page URL it had given before (${url.pathname}${url.search.slice(0, 40)}); stopping instead of looping`);
      seen.add(url.href);
      target = url;
      return true;
    },
  };
}

/**
 * A list operation's call with `pages` and `iterate`. The types come from
 * where it is used (the client's interface): a generated descriptor types
 * optional params as `P | undefined`, the interface as `P | void`.
 */
export function paged<P, R, I>(config: HttpConfig, op: HttpOperation, paging: Paging): PagedMethod<P, R, I> {
  const { id, items } = paging;
  const call = (params: P, options?: CallOptions) => callHttp(config, op, params, options) as Promise<R>;
  async function* pages(params: P, options: PageOptions = {}): AsyncGenerator<R, void, undefined> {
    const { maxPages = Infinity, limit: _limit, ...callOptions } = options;
    const w = walk<R>(config, op, paging, (params ?? {}) as Params);
    for (let n = 0; n < maxPages; n++) {
      stopIfAborted(id, options.signal);
      const result = await w.fetch(callOptions);
      stopIfAborted(id, options.signal);
      yield result;
      if (!w.advance(result)) return;
    }
  }
  async function* iterate(params: P, options: PageOptions = {}): AsyncGenerator<I, void, undefined> {
    const limit = options.limit ?? Infinity;
    if (limit <= 0) return;
    let n = 0;
    for await (const result of pages(params, options)) {
      const list = get(result, items);
      for (const item of Array.isArray(list) ? (list as I[]) : []) {
        stopIfAborted(id, options.signal);
        yield item;
        if (++n >= limit) return;
      }
    }
  }
  const withResponse = (params: P, options?: CallOptions) => callHttpWithResponse(config, op, params, options) as Promise<ApiResponse<R>>;
  return Object.assign(call, { pages, iterate, withResponse });
}
