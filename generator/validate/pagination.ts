/**
 * How an operation declares that it pages: avaspec's `x-avaspec-pagination`,
 * or Speakeasy's `x-speakeasy-pagination` read as the same thing (so a spec
 * written for Speakeasy pages here too). The validator reports a malformed
 * declaration; the IR builder reads the same one (generator/ir/paging.ts then
 * checks it against the operation's parameters and body).
 *
 *   x-avaspec-pagination:
 *     style: cursor            # cursor | page | offset | url | link (default cursor)
 *     param: startKey          # the cursor, page number or offset: a parameter or a JSON body field
 *     next: nextPageStartKey   # cursor: the next cursor; url: the next page's URL (a path: links.next)
 *     items: results           # the items array ("$": the page is the array)
 *     size: limit              # page: the page size parameter
 *     total: meta.total        # the number of items of the whole listing
 *     totalPages: meta.pages   # page: the number of pages
 *     hasMore: has_more        # a boolean, false on the last page
 *     start: 0                 # page: the first page's number (default 1)
 *
 * A list of such objects declares alternative cursor pairs (the first one a
 * page carries is followed); `false` says the operation does not page.
 */
import * as ptr from "../load/pointer.js";
import type { IrPagingDeclaration, PagingStyle } from "../ir/types.js";

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

type Report = (code: string, pointer: string, message: string, hint?: string, severity?: "error" | "warning") => void;
type Way = IrPagingDeclaration["ways"][number];

export const PAGING_STYLES: readonly PagingStyle[] = ["cursor", "page", "offset", "url", "link"];
const PATHS = ["next", "items", "total", "totalPages", "hasMore"] as const;
const KEYS = ["style", "param", "size", "start", ...PATHS];
const HINT = "e.g. { style: cursor, param: cursor, next: next_cursor, items: data }, or false when the operation does not page (the README's Pagination section has the rule)";

/** A property path: `a.b`, or JSONPath's `$.a.b`; `$` is the page itself. Undefined for anything else (filters, indexes, wildcards). */
export function parsePath(v: unknown): string[] | undefined {
  if (typeof v !== "string") return undefined;
  if (v === "$") return [];
  const parts = (v.startsWith("$.") ? v.slice(2) : v).split(".");
  return parts.every((p) => p !== "" && !/[[\]*?@()$]/.test(p)) ? parts : undefined;
}

/** The operation's pagination declaration, when it has one; `report` hears what is wrong with it. */
export function paginationDeclaration(op: Record<string, unknown>, at: string, report: Report): IrPagingDeclaration | undefined {
  if (op["x-avaspec-pagination"] !== undefined) return avaspecDeclaration(op["x-avaspec-pagination"], ptr.join(at, "x-avaspec-pagination"), report);
  if (op["x-speakeasy-pagination"] !== undefined) return speakeasyDeclaration(op["x-speakeasy-pagination"], ptr.join(at, "x-speakeasy-pagination"), report);
  return undefined;
}

function avaspecDeclaration(v: unknown, pointer: string, report: Report): IrPagingDeclaration | undefined {
  const extension = "x-avaspec-pagination";
  if (v === false) return { pointer, extension, off: true, ways: [] };
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0 || !list.every(isObj)) {
    report("extension/pagination", pointer, `x-avaspec-pagination must be an object, a list of objects or false, got ${JSON.stringify(v)}`, HINT);
    return undefined;
  }
  const ways: Way[] = [];
  for (const [i, w] of list.entries()) {
    const at = Array.isArray(v) ? ptr.join(pointer, i) : pointer;
    const way = avaspecWay(w as Record<string, unknown>, at, report);
    if (!way) return undefined;
    if (list.length > 1 && way.style !== "cursor") {
      report("extension/pagination", ptr.join(at, "style"), `a list in x-avaspec-pagination declares alternative cursor pairs, so each entry is style cursor, got ${JSON.stringify(way.style)}`, HINT);
      return undefined;
    }
    ways.push(way);
  }
  return { pointer, extension, ways };
}

function avaspecWay(w: Record<string, unknown>, at: string, report: Report): Way | undefined {
  const bad = (key: string, message: string) => {
    report("extension/pagination", ptr.join(at, key), `x-avaspec-pagination: ${message}`, HINT);
    return undefined;
  };
  const unknown = Object.keys(w).find((k) => !KEYS.includes(k));
  if (unknown !== undefined) return bad(unknown, `unknown key ${JSON.stringify(unknown)} (known: ${KEYS.join(", ")})`);
  const style = w["style"] ?? "cursor";
  if (!PAGING_STYLES.includes(style as PagingStyle)) return bad("style", `style must be one of ${PAGING_STYLES.join(", ")}, got ${JSON.stringify(style)}`);
  const way: Way = { pointer: at, style: style as PagingStyle };
  for (const key of ["param", "size"] as const) {
    const p = w[key];
    if (p === undefined) continue;
    if (typeof p !== "string" || p === "") return bad(key, `${key} must name a parameter (or a field of the JSON request body), got ${JSON.stringify(p)}`);
    way[key] = p;
  }
  for (const key of PATHS) {
    if (w[key] === undefined) continue;
    const path = parsePath(w[key]);
    if (!path || (path.length === 0 && key !== "items")) return bad(key, `${key} must be a property path such as "links.next" (or "$" for items: the page itself), got ${JSON.stringify(w[key])}`);
    way[key] = path;
  }
  const start = w["start"];
  if (start !== undefined) {
    if (!Number.isInteger(start) || (start as number) < 0) return bad("start", `start must be the first page's number (0 or more), got ${JSON.stringify(start)}`);
    way.start = start as number;
  }
  return way;
}

/**
 * Speakeasy's `x-speakeasy-pagination`: `type` cursor, offsetLimit or url,
 * `inputs` (name, `in`: parameters or requestBody, type cursor, page, offset
 * or limit) and `outputs` (results, nextCursor, numPages, nextUrl as dotted
 * JSONPaths). What avaspec cannot follow is a warning: the operation then
 * does not page, as if it declared nothing.
 */
function speakeasyDeclaration(v: unknown, pointer: string, report: Report): IrPagingDeclaration | undefined {
  const ignore = (message: string) => {
    report("extension/pagination", pointer, `x-speakeasy-pagination ${message}; avaspec ignores it, so the operation has no .pages()`, "avaspec reads type cursor, offsetLimit and url, with outputs as plain paths ($.data.items); declare x-avaspec-pagination beside it for anything else", "warning");
    return undefined;
  };
  if (!isObj(v)) return ignore(`must be an object, got ${JSON.stringify(v)}`);
  const inputs = (Array.isArray(v["inputs"]) ? v["inputs"] : []).filter(isObj);
  const outputs = isObj(v["outputs"]) ? v["outputs"] : {};
  const input = (type: string) => inputs.find((i) => i["type"] === type && typeof i["name"] === "string");
  const way: Way = { pointer };
  for (const [key, output] of [["items", "results"], ["next", v["type"] === "url" ? "nextUrl" : "nextCursor"], ["totalPages", "numPages"]] as const) {
    if (outputs[output] === undefined) continue;
    const path = parsePath(outputs[output]);
    if (!path) return ignore(`has outputs.${output} ${JSON.stringify(outputs[output])}, which is not a plain path`);
    way[key] = path;
  }
  const limit = input("limit");
  if (limit && limit["in"] !== "requestBody") way.size = limit["name"] as string;
  if (v["type"] === "cursor") {
    const cursor = input("cursor");
    if (!cursor || !way.next) return ignore("of type cursor needs an input of type cursor and outputs.nextCursor");
    Object.assign(way, { style: "cursor", param: cursor["name"] }, cursor["in"] === "requestBody" ? { paramInBody: true } : {});
  } else if (v["type"] === "offsetLimit") {
    const at = input("page") ?? input("offset");
    if (!at || at["in"] === "requestBody") return ignore("of type offsetLimit needs a page or offset input among the parameters");
    Object.assign(way, { style: at["type"] === "page" ? "page" : "offset", param: at["name"] });
  } else if (v["type"] === "url") {
    if (!way.next) return ignore("of type url needs outputs.nextUrl");
    way.style = "url";
  } else return ignore(`has type ${JSON.stringify(v["type"])}`);
  return { pointer, extension: "x-speakeasy-pagination", ways: [way] };
}
