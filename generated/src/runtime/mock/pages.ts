/**
 * The pages of a mocked list operation, in every style the client follows
 * (runtime/paginate.ts): a finite, deterministic sequence of `pages` pages
 * (the service's `pages` option) cut from one body per page, whose last page
 * ends the iteration.
 *
 * - cursor: stateless tokens (this service's and operation's hash, then the
 *   page number; an integer cursor is the page number itself); a token the
 *   service did not issue is answered 400.
 * - page / offset: `size` items a page (the size parameter, else its
 *   default), `pages × size` in all; the totals the page declares say so,
 *   and a page past the end is empty.
 * - url / link: the next page's URL is the request's own, at the origin and
 *   path the client called, with the mock's token in a query parameter; in
 *   the body's field, or in a `Link: <…>; rel="next"` header.
 *
 * `hasMore` fields are true on every page but the last.
 */
import { hash } from "./random.js";

/** How a list operation pages, for its mock: paths into the params (wire names; `body` then a field) and into the page. */
export interface MockPaging {
  style: "cursor" | "page" | "offset" | "url" | "link";
  items: string[];
  /** Where each cursor is read from in the params, and where a page carries the next one (the first pair's); `nullable`: the last page says null. */
  cursors?: { param: string[]; next: string[]; nullable?: true }[];
  /** page / offset: the page number or offset; url / link: the query parameter the mock's next URLs carry its token in. */
  param?: string[];
  /** page: the first page's number (default 1). */
  start?: number;
  /** The page size param and the size when it is not given (its bounds are the params check's). */
  size?: { param: string[]; default: number };
  /** url: where the next page's URL goes; `nextNullable`: the last page says null. */
  next?: string[];
  nextNullable?: true;
  hasMore?: string[];
  total?: string[];
  totalPages?: string[];
}

/** A page as served: its body, and its headers (a Link header). */
export interface MockPage {
  body: unknown;
  headers?: Record<string, string>;
}

type Json = Record<string, unknown>;

function get(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const k of path) cur = typeof cur === "object" && cur !== null && Object.prototype.hasOwnProperty.call(cur, k) ? (cur as Json)[k] : undefined;
  return cur;
}

/** A copy of `value` with `path` set (undefined: removed); the objects on the way are copied. */
function setAt(value: unknown, path: readonly string[], to: unknown): unknown {
  if (path.length === 0) return to;
  const [k, ...rest] = path;
  const copy: Json = typeof value === "object" && value !== null && !Array.isArray(value) ? { ...(value as Json) } : {};
  const inner = setAt(copy[k!], rest, to);
  if (inner === undefined) delete copy[k!];
  else Object.defineProperty(copy, k!, { value: inner, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * The page `params` (and, for url and link, the request's URL) ask for;
 * undefined for a cursor the service did not issue, or a page before the first. `base(n)` is the body
 * page n is cut from; `types` are the params' JSON types.
 */
export function cutPage(paging: MockPaging, base: (n: number) => unknown, params: Json, url: string, options: { seed: string; pages: number; types: Record<string, string> }): MockPage | undefined {
  const { style } = paging;
  const { pages } = options;
  const prefix = hash(options.seed).toString(16).padStart(8, "0");
  const token = (n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, "0")}`;
  /** The page number a token names, or undefined when this service did not issue it. */
  const read = (raw: unknown, integer: boolean): number | undefined => {
    const m = typeof raw === "string" && !integer ? /^([0-9a-f]{8})-0000-4000-8000-(\d{12})$/.exec(raw) : undefined;
    const n = integer ? raw : m && m[1] === prefix ? Number(m[2]) : undefined;
    return typeof n === "number" && Number.isInteger(n) && n >= 1 && n < pages ? n : undefined;
  };
  let n = 0;
  let offset: number | undefined;
  const integerCursor = (p: string[]) => p.length === 1 && ["integer", "number"].includes(options.types[p[0]!] ?? "");
  if (style === "cursor") {
    const given = paging.cursors!.find((c) => get(params, c.param) !== undefined);
    if (given) {
      const k = read(get(params, given.param), integerCursor(given.param));
      if (k === undefined) return undefined;
      n = k;
    }
  } else if (style === "url" || style === "link") {
    const raw = new URL(url).searchParams.get(paging.param![0]!);
    if (raw !== null) {
      const k = read(raw, false);
      if (k === undefined) return undefined;
      n = k;
    }
  } else {
    const v = get(params, paging.param!);
    if (style === "page") n = (typeof v === "number" ? v : (paging.start ?? 1)) - (paging.start ?? 1);
    else offset = typeof v === "number" ? v : 0;
  }
  if (n < 0 || (offset ?? 0) < 0) return undefined;
  const requested = paging.size ? get(params, paging.size.param) : undefined;
  const first = base(0);
  const source = get(first, paging.items);
  const list = Array.isArray(source) ? source : [];
  const size = typeof requested === "number" ? requested : (paging.size?.default ?? list.length);
  const total = pages * size;
  if (offset !== undefined) n = size > 0 ? Math.floor(offset / size) : 0;
  const from = offset ?? n * size;
  // each page from its own body, so that pages differ beyond their items
  const own = n === 0 ? first : base(Math.min(n, pages));
  const items: unknown[] = [];
  for (let i = from; i < Math.min(from + size, total) && list.length > 0; i++) items.push(structuredClone(list[i % list.length]));
  const last = from + size >= total;
  let body = setAt(own, paging.items, items);
  const headers: Record<string, string> = {};
  if (style === "cursor") {
    for (const c of paging.cursors!) body = setAt(body, c.next, undefined);
    const c = paging.cursors![0]!;
    if (!last) body = setAt(body, c.next, integerCursor(c.param) ? n + 1 : token(n + 1));
    else if (c.nullable) body = setAt(body, c.next, null);
  } else if (style === "url" || style === "link") {
    const next = new URL(url);
    next.searchParams.set(paging.param![0]!, token(n + 1));
    if (style === "link" && !last) headers["link"] = `<${next.href}>; rel="next"`;
    if (style === "url") body = setAt(body, paging.next!, last ? (paging.nextNullable ? null : undefined) : next.href);
  }
  if (paging.items.length > 0) {
    if (paging.hasMore) body = setAt(body, paging.hasMore, !last);
    if (paging.total) body = setAt(body, paging.total, total);
    if (paging.totalPages) body = setAt(body, paging.totalPages, pages);
  }
  return Object.keys(headers).length > 0 ? { body, headers } : { body };
}
