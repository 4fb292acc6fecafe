/** The array keywords (items, prefixItems, bounds, uniqueItems, contains), as check statements on `x`. */
import type { IrObjectLikeSchema } from "../../ir/types.js";
import { stringLiteral } from "../escape.js";
import type { CheckEmitter } from "./emitter.js";
import type { Lines } from "./lines.js";

/** `known`: the caller already tested that `x` is an array. */
export function arrayKeywords(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema, known: boolean): void {
  const any = s.items || s.prefixItems || s.minItems !== undefined || s.maxItems !== undefined || s.uniqueItems || s.contains;
  if (!any) return;
  L.blockIf(known, "if (Array.isArray(x))", () => {
    if (s.minItems !== undefined) L.block(`if (x.length < ${s.minItems})`, () => c.failStmt(L, "minItems", stringLiteral(`must have at least ${s.minItems} items`), String(s.minItems)));
    if (s.maxItems !== undefined) L.block(`if (x.length > ${s.maxItems})`, () => c.failStmt(L, "maxItems", stringLiteral(`must have at most ${s.maxItems} items`), String(s.maxItems)));
    if (s.uniqueItems) {
      c.helpers.add("unique");
      L.block("if (!unique(x))", () => c.failStmt(L, "uniqueItems", stringLiteral("must not contain duplicate items")));
    }
    const prefix = s.prefixItems ?? [];
    prefix.forEach((item, i) => {
      const check = c.check(item);
      if (check !== "$true") L.block(`if (x.length > ${i})`, () => c.sub(L, check, `x[${i}]`, `p + "/${i}"`));
    });
    if (s.items && !(s.items.kind === "boolean" && s.items.value)) {
      if (s.items.kind === "boolean") {
        L.block(`if (x.length > ${prefix.length})`, () => c.failStmt(L, "items", stringLiteral(`must have at most ${prefix.length} items`), String(prefix.length)));
      } else {
        const items = s.items;
        L.block(`for (let i = ${prefix.length}; i < x.length; i++)`, () => c.subSchema(L, items, "x[i]", 'p + "/" + i'));
      }
    }
    if (s.contains) contains(c, L, s);
  });
}

function contains(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  const check = c.check(s.contains!);
  const min = s.minContains ?? 1;
  L.line("let found = 0;");
  L.line(`for (const item of x) if (${check}(item, p, null)) found++;`);
  if (min > 0) L.block(`if (found < ${min})`, () => c.failStmt(L, "contains", stringLiteral(min === 1 ? "must contain a matching item" : `must contain at least ${min} matching items`), String(min)));
  if (s.maxContains !== undefined) L.block(`if (found > ${s.maxContains})`, () => c.failStmt(L, "maxContains", stringLiteral(`must contain at most ${s.maxContains} matching items`), String(s.maxContains)));
}
