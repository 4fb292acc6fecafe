/**
 * A list operation's paging as its mock follows it (runtime/mock/pages.ts):
 * parameters by their wire names (the mock reads a request's params by
 * name), and whether the last page writes null where a next cursor or URL
 * would be.
 */
import { mayBeNull } from "../../ir/paging.js";
import type { IrHttpOperation, IrPaging, IrPagingParam, IrSchema } from "../../ir/types.js";

const wire = (p: IrPagingParam) => (p.inBody ? ["body", p.name] : [p.name]);

export function mockPaging(op: IrHttpOperation, p: IrPaging, lookup: (key: string) => IrSchema | undefined): Record<string, unknown> {
  const taken = new Set(op.parameters.filter((q) => q.in === "query").map((q) => q.name));
  // the mock's next URLs carry its page token in a query parameter of its own
  let own = "cursor";
  while (taken.has(own)) own = `_${own}`;
  return {
    style: p.style,
    items: p.items,
    ...(p.cursors ? { cursors: p.cursors.map((c) => ({ param: wire(c.param), next: c.next, ...(mayBeNull(op, c.next, lookup) ? { nullable: true } : {}) })) } : {}),
    ...(p.param ? { param: wire(p.param) } : p.style === "url" || p.style === "link" ? { param: [own] } : {}),
    ...(p.style === "page" && p.start !== undefined && p.start !== 1 ? { start: p.start } : {}),
    ...(p.size ? { size: { param: wire(p.size), default: p.size.default ?? 10 } } : {}),
    ...(p.next ? { next: p.next, ...(mayBeNull(op, p.next, lookup) ? { nextNullable: true } : {}) } : {}),
    ...(p.hasMore ? { hasMore: p.hasMore } : {}),
    ...(p.total ? { total: p.total } : {}),
    ...(p.totalPages ? { totalPages: p.totalPages } : {}),
  };
}
