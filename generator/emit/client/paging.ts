/**
 * What the client emitter writes for a list operation: its `Paging` (plain
 * data for runtime/http/paginate.ts), the type of one item, and what its
 * function's documentation says about the next page.
 */
import type { IrPaging, IrPagingParam } from "../../ir/types.js";
import { comment, stringLiteral } from "../escape.js";
import { InlineList } from "../value.js";

/** Where a parameter goes in the params object: its key, or `body` then the field. */
export const clientPath = (p: IrPagingParam): string[] => (p.inBody ? ["body", p.name] : [p.key]);

/** The runtime's `Paging` of an operation, as data for writeValue (paths on one line each). */
export function pagingValue(id: string, p: IrPaging): Record<string, unknown> {
  const path = (x: string[] | undefined) => (x ? new InlineList(x) : undefined);
  return {
    id,
    style: p.style,
    items: path(p.items),
    cursors: p.cursors?.map((c) => ({ param: path(clientPath(c.param)), next: path(c.next) })),
    param: path(p.param && clientPath(p.param)),
    start: p.style === "page" && p.start !== 1 ? p.start : undefined,
    size: path(p.style === "page" && p.size ? clientPath(p.size) : undefined),
    next: path(p.next),
    hasMore: path(p.hasMore),
    total: path(p.total),
    totalPages: path(p.totalPages),
    tokenLifetime: p.tokenLifetime,
  };
}

/** The type of one item of a page typed `result`: `NonNullable<R["a"]>[number]`, one step per property of the items' path. */
export function itemType(result: string, p: IrPaging): string {
  return `${p.items.reduce((t, k) => `NonNullable<${t}[${stringLiteral(k)}]>`, result)}[number]`;
}

const dotted = (path: string[]) => path.join(".");

/** How to ask for the next page by hand (the tree-shakable functions return one page). */
export function nextPageDoc(p: IrPaging): string {
  switch (p.style) {
    case "cursor":
      return `One page: pass ${p.cursors!.map((c) => `its \`${comment(dotted(c.next))}\` as \`${comment(dotted(clientPath(c.param)))}\``).join(", or ")} for the next`;
    case "page":
    case "offset":
      return `One page: raise \`${comment(dotted(clientPath(p.param!)))}\` (${p.style === "page" ? "by one" : "by the number of items"}) for the next`;
    case "url":
      return `One page: its \`${comment(dotted(p.next!))}\` is the URL of the next`;
    case "link":
      return "One page: its `Link` header's `rel=\"next\"` is the URL of the next";
  }
}

/** How a list operation asks for its next page, in words for a README comment. */
export function howItPages(p: IrPaging): string {
  // spec names in a line comment: any but plain ones as string literals (no line break can end the comment)
  const named = (path: string[]) => path.map((k) => (/^[\w$-]+$/.test(k) ? k : stringLiteral(k))).join(".");
  switch (p.style) {
    case "cursor":
      return `following ${p.cursors!.map((c) => named(c.next)).join(" or ")}`;
    case "page":
      return "page numbers, up to the last page";
    case "offset":
      return "offsets, up to the total";
    case "url":
      return `following the URL in ${named(p.next!)}`;
    case "link":
      return `following the Link header's rel="next"`;
  }
}
