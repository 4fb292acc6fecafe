/**
 * The paging pass: how each HTTP operation pages (`op.paging`), which its
 * client's `.pages()` / `.iterate()` and its mock follow. Declared with
 * `x-avaspec-pagination` (or Speakeasy's `x-speakeasy-pagination`), checked
 * against the operation's parameters and body; otherwise detected by shape.
 *
 * The page is the one JSON body of the 2XX responses (an object, a union of
 * objects whose branches all have the fields named below, or an array). Its
 * items are the one array among the body's properties (every branch's), or
 * the body itself when it is an array. Names are compared without case,
 * `_` and `-`; fields are looked for at the top of the body, then one object
 * down (`pageInfo.endCursor`, `links.next`, `meta.total`). First match wins:
 *
 * 1. cursor: a string or integer query parameter or JSON body field P, and a
 *    field of the same kind named `next`+P or `nextPage`+P (`nextCursor`,
 *    `next_page_token`, `nextPageStartKey`), or, when P is a usual cursor
 *    name (`cursor`, `pageToken`, `after`, `startingAfter`, `marker`…), a
 *    usual next-cursor name (`endCursor`, `nextToken`, `next_cursor`…) or a
 *    bare `next` that is not a URI.
 * 2. url: a string field `nextUrl` / `nextLink` / `next_page_url`…, or
 *    `next` / `nextPage` with a URI format (`uri`, `uri-reference`) or in a
 *    `links` object; or such a field that is an object with a string `href`
 *    (HAL).
 * 3. link: a 2XX response that declares a `Link` header.
 * 4. page: an integer parameter `page` / `page_number` / `pageIndex`, and a
 *    total (`total_pages`/`pageCount`, or `total`/`totalCount`/`count`) or
 *    `hasMore`/`has_more`/`hasNextPage` field (integers and a boolean).
 * 5. offset: an integer parameter `offset` / `skip` / `startAt`, and a total
 *    or `hasMore` field.
 *
 * The page size parameter (`limit`, `per_page`, `pageSize`…) is found the
 * same way. An operation that looks paged (such a parameter, a next / hasMore
 * / total-pages field, a Link header) but matches no rule gets the warning
 * `pagination/unrecognised`, with what to declare.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import { followRefs } from "./resolve.js";
import type { IrDocument, IrHttpOperation, IrPaging, IrPagingDeclaration, IrPagingParam, IrSchema, JsonType } from "./types.js";

type Lookup = (key: string) => IrSchema | undefined;
type Locate = (file: string, pointer: string) => { line: number; col: number };

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
const names = (...list: string[]) => new Set(list);

const CURSOR_PARAMS = names("cursor", "pagetoken", "after", "startkey", "startingafter", "startafter", "continuationtoken", "nexttoken", "pagecursor", "marker", "pagekey");
const NEXT_CURSORS = names("nextcursor", "nextpagetoken", "nexttoken", "endcursor", "nextpagecursor", "nextkey", "nextmarker", "nextpagekey", "continuationtoken", "nextcontinuationtoken", "nextpagestartkey");
const NEXT_URLS = names("next", "nexturl", "nextlink", "nextpage", "nextpageurl", "nexthref", "nextpagelink");
// `next` and `nextPage` may be a cursor as well as a URL: a URL when the schema says so
const MAYBE_URLS = names("next", "nextpage");
const URI_FORMATS = names("uri", "urireference", "iri", "irireference", "url");
const HAS_MORE = names("hasmore", "hasnextpage", "hasnext", "hasmoreitems", "hasmoreresults");
const PAGE_PARAMS = names("page", "pagenumber", "pagenum", "pageindex", "pageno");
const OFFSET_PARAMS = names("offset", "skip", "startindex", "startat");
const SIZE_PARAMS = names("perpage", "pagesize", "limit", "size", "pagelimit", "count", "per", "maxresults", "take", "first");
const TOTALS = names("total", "totalcount", "totalitems", "totalresults", "totalrecords", "totalentries", "totalsize", "count");
const TOTAL_PAGES = names("totalpages", "pagecount", "numpages", "lastpage", "pages", "totalpagecount");

/** A field every branch of the page has, with its schema in each. */
interface Field {
  path: string[];
  schemas: IrSchema[];
}

/** A parameter or JSON body field a paged request may set. */
interface Param extends IrPagingParam {
  schema: IrSchema;
  tokenLifetime?: number;
}

interface Context {
  op: IrHttpOperation;
  lookup: Lookup;
  /** The page's branches (one unless the body is a union); undefined when the operation has no single JSON 2XX body. */
  branches: IrSchema[] | undefined;
  fields: Field[];
  params: Param[];
}

type Problem = { pointer: string; message: string };

/** Sets `paging` on every HTTP operation that pages, and reports declarations that do not fit and operations that look paged but match no rule. */
export function resolvePaging(ir: IrDocument, diagnostics: Diagnostic[], locate: Locate): void {
  const byKey = new Map(ir.schemas.map((s) => [s.key, s.schema]));
  const lookup: Lookup = (key) => byKey.get(key);
  for (const op of ir.operations) {
    if (op.protocol !== "http") continue;
    const ctx = context(op, lookup);
    const declared = op.pagingDeclared;
    const report = (severity: "error" | "warning", code: string, p: Problem, hint?: string) => diagnostics.push({ code, severity, message: p.message, file: op.file, pointer: p.pointer, ...locate(op.file, p.pointer), ...(hint ? { hint } : {}) });
    if (declared?.off) continue;
    if (declared) {
      const found = fromDeclaration(ctx, declared);
      if ("paging" in found) op.paging = found.paging;
      else report(declared.extension === "x-avaspec-pagination" ? "error" : "warning", "extension/pagination", found, declared.extension === "x-speakeasy-pagination" ? "avaspec ignores the declaration, so the operation has no .pages(); declare x-avaspec-pagination beside it" : undefined);
      continue;
    }
    const detected = detect(ctx);
    if (detected) {
      op.paging = detected;
      continue;
    }
    const signs = signsOfPaging(ctx);
    if (signs.length > 0) {
      const why = ctx.branches === undefined ? "; it has no single JSON 2XX body" : items(ctx) === undefined ? `; its 2XX body has no single array of items${arraysNote(ctx)}` : "";
      report("warning", "pagination/unrecognised", { pointer: op.pointer, message: `${op.id || op.names.method} looks paged (${signs.slice(0, 3).join(", ")}) but matches no pagination rule${why}, so it has no .pages() or .iterate()` }, "declare how it pages, e.g. x-avaspec-pagination: { style: cursor, param: cursor, next: next_cursor, items: data } (see the README's Pagination section), or x-avaspec-pagination: false when it does not page");
    }
  }
}

function context(op: IrHttpOperation, lookup: Lookup): Context {
  const params: Param[] = op.parameters.filter((p) => p.in === "query" || p.in === "header").map((p) => ({ key: p.key, name: p.name, schema: p.schema, ...(p.tokenLifetime ? { tokenLifetime: p.tokenLifetime } : {}) }));
  const body = op.requestBody?.content.find((c) => /json/i.test(c.contentType));
  for (const [name, schema] of (body && props(body.schema, lookup, "readOnly")) ?? []) params.push({ key: "body", name, inBody: true, schema });
  const branches = pageBranches(op, lookup);
  return { op, lookup, branches, fields: branches ? fieldsOf(branches, [], lookup, 1) : [], params };
}

/** The page's branches: the one JSON schema of the 2XX bodies, split into its anyOf / oneOf alternatives. */
function pageBranches(op: IrHttpOperation, lookup: Lookup): IrSchema[] | undefined {
  const oks = op.responses.filter((r) => r.success && r.content.length > 0);
  const first = oks[0]?.content[0]?.schema;
  // beside another 2XX body (a 202 of its own shape) a result is not always a page
  const same = (s: IrSchema | undefined) => s === first || (s?.kind === "ref" && first?.kind === "ref" && s.target === first.target);
  if (!first || !oks.every((r) => same(r.content[0]?.schema))) return undefined;
  const json = oks[0]!.content.find((c) => /json/i.test(c.contentType))?.schema;
  if (!json) return undefined;
  const split = (s: IrSchema, depth: number): IrSchema[] => {
    const t = followRefs(s, lookup);
    const alternatives = t?.kind === "schema" && !t.properties ? (t.anyOf ?? t.oneOf) : undefined;
    return alternatives && depth < 4 ? alternatives.flatMap((a) => split(a, depth + 1)) : [s];
  };
  return split(json, 0);
}

/**
 * The named properties of an object schema, with those of its allOf members,
 * as one direction sees them: a response leaves writeOnly members out (the
 * default), a request body readOnly ones, as the generated types do.
 */
function props(s: IrSchema | undefined, lookup: Lookup, skip: "readOnly" | "writeOnly" = "writeOnly", depth = 0): Map<string, IrSchema> | undefined {
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema" || (t.types && !t.types.includes("object")) || depth > 8) return undefined;
  const out = new Map<string, IrSchema>();
  for (const p of t.properties ?? []) if (p.schema[skip] !== true) out.set(p.name, p.schema);
  for (const m of t.allOf ?? []) for (const [k, v] of props(m, lookup, skip, depth + 1) ?? []) if (!out.has(k)) out.set(k, v);
  return out.size > 0 ? out : undefined;
}

/** The fields every branch has: top level first, then `levels` objects down. */
function fieldsOf(branches: IrSchema[], prefix: string[], lookup: Lookup, levels: number): Field[] {
  const maps = branches.map((b) => props(b, lookup));
  if (maps.some((m) => m === undefined)) return [];
  const common = [...maps[0]!.keys()].filter((k) => maps.every((m) => m!.has(k)));
  const top = common.map((k) => ({ path: [...prefix, k], schemas: maps.map((m) => m!.get(k)!) }));
  return levels === 0 ? top : [...top, ...top.flatMap((f) => fieldsOf(f.schemas, f.path, lookup, levels - 1))];
}

/** The JSON types a schema allows besides null (an integer sent as a string counts as an integer); undefined when it does not say. */
function typesOf(s: IrSchema, lookup: Lookup, depth = 0): Set<JsonType> | undefined {
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema" || depth > 8) return undefined;
  if (t.integer) return new Set(["integer"]);
  if (t.types) return new Set(t.types.filter((x) => x !== "null"));
  const members = t.allOf ?? t.anyOf ?? t.oneOf;
  if (!members) return undefined;
  const out = new Set<JsonType>();
  for (const m of members) {
    const inner = typesOf(m, lookup, depth + 1);
    if (!inner) return undefined;
    inner.forEach((x) => out.add(x));
  }
  return out;
}

/** Whether every schema allows only these types (an integer is a number). */
function only(schemas: IrSchema[], lookup: Lookup, ...want: JsonType[]): boolean {
  return schemas.every((s) => {
    const t = typesOf(s, lookup);
    return t !== undefined && t.size > 0 && [...t].every((x) => want.includes(x) || (x === "integer" && want.includes("number")) || (x === "number" && want.includes("integer") && want.includes("number")));
  });
}

const isCount = (schemas: IrSchema[], lookup: Lookup) => only(schemas, lookup, "integer", "number");

/** The items' path: the page itself when it is an array, else its one array field at the top. */
function items(ctx: Context): string[] | undefined {
  const { branches, lookup } = ctx;
  if (!branches) return undefined;
  if (only(branches, lookup, "array")) return [];
  const arrays = ctx.fields.filter((f) => f.path.length === 1 && only(f.schemas, lookup, "array"));
  return arrays.length === 1 ? arrays[0]!.path : undefined;
}

function arraysNote(ctx: Context): string {
  const arrays = ctx.fields.filter((f) => f.path.length === 1 && only(f.schemas, ctx.lookup, "array")).map((f) => f.path[0]);
  return arrays.length > 1 ? ` (it has ${arrays.join(", ")}: declare items)` : "";
}

const field = (ctx: Context, set: Set<string>, test: (f: Field) => boolean) => ctx.fields.find((f) => set.has(norm(f.path.at(-1)!)) && test(f));
const byName = (ctx: Context, set: Set<string>, test: (p: Param) => boolean) => ctx.params.find((p) => !p.inBody && set.has(norm(p.name)) && test(p));

/** A cursor field for a cursor parameter: same kind (a string parameter takes an integer cursor too), named after it or as next cursors usually are. */
function cursorField(ctx: Context, p: Param): Field | undefined {
  const { lookup } = ctx;
  if (!only([p.schema], lookup, "string", "integer")) return undefined;
  const stringParam = only([p.schema], lookup, "string");
  const n = norm(p.name);
  return ctx.fields.find((f) => {
    const fn = norm(f.path.at(-1)!);
    // a bare `next` beside a cursor parameter is its cursor, unless it is a URL
    const named = fn === `next${n}` || fn === `nextpage${n}` || (CURSOR_PARAMS.has(n) && (NEXT_CURSORS.has(fn) || (fn === "next" && !uriFormat(f.schemas, lookup))));
    return named && (stringParam ? only(f.schemas, lookup, "string", "integer") : isCount(f.schemas, lookup));
  });
}

/** Whether every schema is a string with a URI format (uri, uri-reference, iri…). */
function uriFormat(schemas: IrSchema[], lookup: Lookup): boolean {
  return schemas.every((s) => {
    const t = followRefs(s, lookup);
    return t?.kind === "schema" && t.format !== undefined && URI_FORMATS.has(norm(t.format));
  });
}

/**
 * Where a next-page URL field holds the URL: the field, a string, or its
 * string `href` (HAL). A `next` or `nextPage` string is a URL when it has a
 * URI format or sits in `links` / `_links`; declared, any string is.
 */
function urlPath(ctx: Context, f: Field, declared = false): string[] | undefined {
  if (only(f.schemas, ctx.lookup, "string")) {
    const sure = declared || !MAYBE_URLS.has(norm(f.path.at(-1)!)) || uriFormat(f.schemas, ctx.lookup) || (f.path.length > 1 && ["links", "_links"].includes(f.path.at(-2)!.toLowerCase()));
    return sure ? f.path : undefined;
  }
  const hrefs = f.schemas.map((s) => props(s, ctx.lookup)?.get("href"));
  return hrefs.every((h) => h !== undefined && only([h], ctx.lookup, "string")) ? [...f.path, "href"] : undefined;
}

function urlField(ctx: Context): string[] | undefined {
  for (const f of ctx.fields) {
    const path = NEXT_URLS.has(norm(f.path.at(-1)!)) ? urlPath(ctx, f) : undefined;
    if (path) return path;
  }
  return undefined;
}

/** The fields that tell the last page, where the page has them. */
function ends(ctx: Context): Pick<IrPaging, "hasMore" | "total" | "totalPages"> {
  const hasMore = field(ctx, HAS_MORE, (f) => only(f.schemas, ctx.lookup, "boolean"))?.path;
  const total = field(ctx, TOTALS, (f) => isCount(f.schemas, ctx.lookup))?.path;
  const totalPages = field(ctx, TOTAL_PAGES, (f) => isCount(f.schemas, ctx.lookup))?.path;
  return { ...(hasMore ? { hasMore } : {}), ...(total ? { total } : {}), ...(totalPages ? { totalPages } : {}) };
}

const paramOf = (p: Param): IrPagingParam => ({ key: p.key, name: p.name, ...(p.inBody ? { inBody: true as const } : {}) });

function sizeOf(ctx: Context, declared?: Param): IrPaging["size"] {
  const p = declared ?? byName(ctx, SIZE_PARAMS, (q) => isCount([q.schema], ctx.lookup));
  if (!p) return undefined;
  const t = followRefs(p.schema, ctx.lookup);
  return { ...paramOf(p), ...(t?.kind === "schema" && typeof t.default === "number" ? { default: t.default } : {}) };
}

/** The first page's number: the parameter's minimum or default when it is 0 or 1, else 1. */
function firstPage(ctx: Context, p: Param): number {
  const t = followRefs(p.schema, ctx.lookup);
  const zeroOrOne = (v: unknown) => (v === 0 || v === 1 ? v : undefined);
  return (t?.kind === "schema" ? (zeroOrOne(t.minimum) ?? zeroOrOne(t.default)) : undefined) ?? 1;
}

function detect(ctx: Context): IrPaging | undefined {
  const list = items(ctx);
  if (list === undefined) return undefined;
  // the page size: the mock cuts its pages by it, the client tells a page style's last page by it
  const size = sizeOf(ctx);
  const base = { declared: false, items: list, ...(size ? { size } : {}) };
  for (const p of ctx.params) {
    const next = cursorField(ctx, p);
    if (next) return { ...base, style: "cursor", cursors: [{ param: paramOf(p), next: next.path }], ...pick(ends(ctx), "hasMore"), ...(p.tokenLifetime ? { tokenLifetime: p.tokenLifetime } : {}) };
  }
  const next = urlField(ctx);
  if (next) return { ...base, style: "url", next, ...pick(ends(ctx), "hasMore") };
  if (ctx.op.responses.some((r) => r.success && r.headers?.includes("link"))) return { ...base, style: "link" };
  for (const style of ["page", "offset"] as const) {
    const p = byName(ctx, style === "page" ? PAGE_PARAMS : OFFSET_PARAMS, (q) => isCount([q.schema], ctx.lookup));
    const end = ends(ctx);
    if (!p || (end.hasMore ?? end.total ?? (style === "page" ? end.totalPages : undefined)) === undefined) continue;
    return { ...base, style, param: paramOf(p), start: style === "page" ? firstPage(ctx, p) : 0, ...(style === "page" ? end : pick(end, "hasMore", "total")) };
  }
  return undefined;
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Pick<T, K>;
}

/**
 * What makes a list operation (its page is an array, or has one) look paged:
 * its parameters named as paging ones are, its fields named and typed as
 * paging ones are (a next cursor or URL string, a boolean hasMore, a number
 * of pages), a Link header. A linked list's `next` object is not one.
 */
function signsOfPaging(ctx: Context): string[] {
  const { lookup } = ctx;
  const list = ctx.branches !== undefined && (only(ctx.branches, lookup, "array") || ctx.fields.some((f) => f.path.length === 1 && only(f.schemas, lookup, "array")));
  if (!list) return [];
  const out: string[] = [];
  for (const p of ctx.params) if ([CURSOR_PARAMS, PAGE_PARAMS, OFFSET_PARAMS].some((s) => s.has(norm(p.name)))) out.push(`${p.inBody ? "body field" : "parameter"} ${JSON.stringify(p.name)}`);
  for (const f of ctx.fields) {
    const n = norm(f.path.at(-1)!);
    const typed = ((NEXT_CURSORS.has(n) || NEXT_URLS.has(n)) && only(f.schemas, lookup, "string", "integer")) || (HAS_MORE.has(n) && only(f.schemas, lookup, "boolean")) || (TOTAL_PAGES.has(n) && isCount(f.schemas, lookup));
    if (typed) out.push(`field ${JSON.stringify(f.path.join("."))}`);
  }
  if (ctx.op.responses.some((r) => r.success && r.headers?.includes("link"))) out.push("a Link header");
  return out;
}

/** The paging a declaration describes, checked against the operation; or what does not fit, and where. */
function fromDeclaration(ctx: Context, decl: IrPagingDeclaration): { paging: IrPaging } | Problem {
  const { lookup } = ctx;
  const ext = decl.extension;
  const first = decl.ways[0]!;
  const style = first.style ?? "cursor";
  const at = (pointer: string, key: string) => `${pointer}/${key}`;
  const problem = (pointer: string, message: string): Problem => ({ pointer, message: `${ext} of ${ctx.op.id || ctx.op.names.method}: ${message}` });
  if (!ctx.branches) return problem(decl.pointer, "the operation has no single JSON 2XX body to page through");
  const fieldAt = (path: string[]) => ctx.fields.find((f) => f.path.join("\0") === path.join("\0")) ?? deepField(ctx, path);
  const paramNamed = (name: string, inBody?: true) => ctx.params.find((p) => p.name === name && (inBody ? p.inBody : true));
  // a path the body must have, of the kind the rule needs
  const check = (pointer: string, key: string, path: string[] | undefined, kind: JsonType[], what: string): string[] | Problem | undefined => {
    if (!path) return undefined;
    const f = fieldAt(path);
    if (!f) return problem(at(pointer, key), `${key} names ${JSON.stringify(path.join("."))}, which the 2XX body does not have${ctx.branches!.length > 1 ? " in every branch" : ""}`);
    const found = key === "next" && style === "url" ? urlPath(ctx, f, true) : only(f.schemas, lookup, ...kind) ? path : undefined;
    return found ?? problem(at(pointer, key), `${key} names ${JSON.stringify(path.join("."))}, which is not ${what}`);
  };
  let list: string[] | undefined;
  if (first.items) {
    if (first.items.length === 0) {
      if (!only(ctx.branches, lookup, "array")) return problem(at(first.pointer, "items"), 'items is "$", but the 2XX body is not an array');
      list = [];
    } else {
      const c = check(first.pointer, "items", first.items, ["array"], "an array");
      if (c && !Array.isArray(c)) return c;
      list = c as string[];
    }
  } else list = items(ctx);
  if (list === undefined) return problem(decl.pointer, `declare items: the 2XX body has no single array of items${arraysNote(ctx)}`);
  const checked = <K extends "hasMore" | "total" | "totalPages">(key: K, kind: JsonType[], what: string): Problem | Partial<Record<K, string[]>> => {
    const c = check(first.pointer, key, first[key], kind, what);
    if (c && !Array.isArray(c)) return c;
    const path = (c as string[] | undefined) ?? ends(ctx)[key];
    return path ? ({ [key]: path } as Partial<Record<K, string[]>>) : {};
  };
  const hasMore = checked("hasMore", ["boolean"], "a boolean");
  if ("pointer" in hasMore) return hasMore;
  const sizeParam = first.size ? paramNamed(first.size) : undefined;
  if (first.size && (!sizeParam || sizeParam.inBody || !isCount([sizeParam.schema], lookup))) return problem(at(first.pointer, "size"), `size names ${JSON.stringify(first.size)}, which is not an integer parameter of the operation`);
  const size = sizeOf(ctx, sizeParam);
  const base = { declared: true, items: list, ...hasMore, ...(size ? { size } : {}) };

  if (style === "cursor") {
    const cursors: NonNullable<IrPaging["cursors"]> = [];
    let tokenLifetime: number | undefined;
    for (const way of decl.ways) {
      if (!way.param) return problem(way.pointer, "a cursor declaration names its param (the parameter or JSON body field the cursor goes in)");
      const p = paramNamed(way.param, way.paramInBody);
      if (!p) return problem(at(way.pointer, "param"), `param names ${JSON.stringify(way.param)}, which is neither a query or header parameter nor a field of the JSON request body`);
      const next = way.next ? check(way.pointer, "next", way.next, ["string", "integer"], "a string or an integer") : cursorField(ctx, p)?.path;
      if (next && !Array.isArray(next)) return next;
      if (!next) return problem(way.pointer, `declare next: no field of the 2XX body is named as the next ${way.param} (next${way.param[0]!.toUpperCase()}${way.param.slice(1)})`);
      cursors.push({ param: paramOf(p), next: next as string[] });
      tokenLifetime ??= p.tokenLifetime;
    }
    return { paging: { ...base, style, cursors, ...(tokenLifetime ? { tokenLifetime } : {}) } };
  }
  if (style === "url") {
    const next = first.next ? check(first.pointer, "next", first.next, ["string"], "a string (a URL) or an object with a string href") : urlField(ctx);
    if (next && !Array.isArray(next)) return next;
    if (!next) return problem(first.pointer, "declare next: no field of the 2XX body is named as a next page's URL is (next, nextUrl, links.next)");
    return { paging: { ...base, style, next: next as string[] } };
  }
  if (style === "link") return { paging: { ...base, style } };
  // page and offset
  const named = first.param ? paramNamed(first.param) : byName(ctx, style === "page" ? PAGE_PARAMS : OFFSET_PARAMS, () => true);
  if (!named) return problem(first.param ? at(first.pointer, "param") : first.pointer, first.param ? `param names ${JSON.stringify(first.param)}, which is not a parameter of the operation` : `declare param: no parameter is named as a ${style} ${style === "page" ? "number" : ""} is`);
  if (named.inBody || !isCount([named.schema], lookup)) return problem(first.param ? at(first.pointer, "param") : first.pointer, `the ${style} parameter ${JSON.stringify(named.name)} must be an integer query parameter`);
  const total = checked("total", ["integer", "number"], "a number");
  if ("pointer" in total) return total;
  const totalPages = style === "page" ? checked("totalPages", ["integer", "number"], "a number") : {};
  if ("pointer" in totalPages) return totalPages;
  return { paging: { ...base, style, param: paramOf(named), start: first.start ?? (style === "page" ? firstPage(ctx, named) : 0), ...total, ...totalPages } };
}

/** A declared path deeper than detection looks (`data.meta.page.next`): the schemas along it in every branch. */
function deepField(ctx: Context, path: string[]): Field | undefined {
  let schemas = ctx.branches!;
  for (const k of path) {
    const next = schemas.map((s) => props(s, ctx.lookup)?.get(k));
    if (next.some((s) => s === undefined)) return undefined;
    schemas = next as IrSchema[];
  }
  return { path, schemas };
}

/** Whether the page's field at `path` may be null: a mock's last page writes null there instead of leaving the field out. */
export function mayBeNull(op: IrHttpOperation, path: string[], lookup: Lookup): boolean {
  const branches = pageBranches(op, lookup);
  if (!branches) return false;
  const nullable = (s: IrSchema, depth = 0): boolean => {
    const t = followRefs(s, lookup);
    return t?.kind === "schema" && depth < 8 && ((t.types?.includes("null") ?? false) || [...(t.anyOf ?? []), ...(t.oneOf ?? [])].some((m) => nullable(m, depth + 1)));
  };
  return deepField({ op, lookup, branches, fields: [], params: [] }, path)?.schemas.some((s) => nullable(s)) ?? false;
}
