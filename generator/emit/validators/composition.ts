/** allOf, anyOf, oneOf, not and if/then/else, as check statements on `x`. */
import type { IrObjectLikeSchema, IrSchema, JsonValue } from "../../ir/types.js";
import { append } from "../../append.js";
import { stringLiteral } from "../escape.js";
import { isScalar, type CheckEmitter } from "./emitter.js";
import type { Lines } from "./lines.js";

export function composition(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  for (const part of s.allOf ?? []) c.sub(L, c.check(part), "x", "p");
  if (s.anyOf) {
    const checks = s.anyOf.map((v) => c.check(v));
    if (!checks.includes("$true")) L.block(`if (!(${checks.map((check) => `${check}(x, p, null)`).join(" || ")}))`, () => c.failStmt(L, "anyOf", stringLiteral(`must match a schema in anyOf${allowed(c, s.anyOf!)}`)));
  }
  if (s.oneOf) {
    const checks = s.oneOf.map((v) => c.check(v));
    L.line("let matches = 0;");
    for (const check of checks) L.line(`if (${check}(x, p, null)) matches++;`);
    L.block("if (matches !== 1)", () => c.failStmt(L, "oneOf", `(matches === 0 ? ${stringLiteral(`must match a schema in oneOf${allowed(c, s.oneOf!)}`)} : "must match exactly one schema in oneOf")`));
  }
  if (s.not) {
    const check = c.check(s.not);
    L.block(`if (${check}(x, p, null))`, () => c.failStmt(L, "not", stringLiteral("must not match the schema in not")));
  }
  if (s.if && (s.then || s.else)) {
    const cond = c.check(s.if);
    const then = s.then ? c.check(s.then) : undefined;
    const els = s.else ? c.check(s.else) : undefined;
    L.block(`if (${cond}(x, p, null))`, () => {
      if (then) c.sub(L, then, "x", "p");
    });
    if (els) L.block(`if (!${cond}(x, p, null))`, () => c.sub(L, els, "x", "p"));
  }
}

/**
 * What the branches of an anyOf/oneOf allow, for its message, when some
 * are literal values (a block tag beside a quantity):
 * `: one of "latest", "safe", or a string matching ^0x…$`; "" otherwise.
 */
function allowed(c: CheckEmitter, branches: IrSchema[]): string {
  const literals: JsonValue[] = [];
  const others = new Set<string>();
  const visit = (b: IrSchema, depth: number): void => {
    let t: IrSchema | undefined = b;
    for (let hops = 0; t?.kind === "ref" && hops < 8; hops++) t = c.resolve(t.target);
    if (!t || t.kind !== "schema" || depth > 4) return void others.add("another value");
    if (t.const && isScalar(t.const.value)) literals.push(t.const.value);
    else if (t.enum && t.enum.every(isScalar)) append(literals, t.enum);
    else if ((t.anyOf || t.oneOf) && !t.types) for (const sub of t.anyOf ?? t.oneOf ?? []) visit(sub, depth + 1);
    else if (t.pattern !== undefined) others.add(`a string matching ${t.pattern}`);
    else if (t.types) others.add(`a value of type ${t.types.join(" | ")}`);
    else others.add("another value");
  };
  for (const b of branches) visit(b, 0);
  if (literals.length === 0) return "";
  const text = `: one of ${[...new Set(literals.map((v) => JSON.stringify(v)))].join(", ")}${others.size > 0 ? `, or ${[...others].join(", or ")}` : ""}`;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
