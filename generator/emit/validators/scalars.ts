/** The keywords of any instance (const, enum) and of strings and numbers, as check statements on `x`. */
import type { IrObjectLikeSchema } from "../../ir/types.js";
import { literal, stringLiteral } from "../escape.js";
import { INLINE_ENUM, isScalar, type CheckEmitter } from "./emitter.js";
import type { Lines } from "./lines.js";


export function valueKeywords(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  if (s.const) {
    const v = s.const.value;
    const cond = isScalar(v) ? `x !== ${literal(v)}` : (c.helpers.add("equal"), `!equal(x, ${c.hoistValue(v)})`);
    L.block(`if (${cond})`, () => c.failStmt(L, "const", stringLiteral(`must be equal to ${JSON.stringify(v)}`)));
  }
  if (s.enum) {
    let cond: string;
    if (s.enum.length === 0) cond = "true";
    else if (s.enum.every(isScalar) && s.enum.length <= INLINE_ENUM) cond = s.enum.map((v) => `x !== ${literal(v)}`).join(" && ");
    else if (s.enum.every(isScalar)) cond = `!${c.hoist(`new Set([${s.enum.map((v) => literal(v)).join(", ")}])`)}.has(x)`;
    else {
      c.helpers.add("equal");
      const list = c.hoistValue(s.enum);
      cond = `!${list}.some((v) => equal(x, v))`;
    }
    const shown = JSON.stringify(s.enum).slice(0, 200);
    L.block(`if (${cond})`, () => c.failStmt(L, "enum", stringLiteral(`must be one of ${shown}`)));
  }
}

export function stringKeywords(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  const fmt = c.formatFn(s.format);
  if (s.minLength === undefined && s.maxLength === undefined && s.pattern === undefined && !fmt) return;
  const re = s.pattern !== undefined ? c.regex(s.pattern, s.pointer, s.requestPattern) : undefined;
  L.block(`if (typeof x === "string")`, () => {
    if (s.minLength !== undefined || s.maxLength !== undefined) {
      c.helpers.add("length");
      L.line("const n = length(x);");
      if (s.minLength !== undefined) L.block(`if (n < ${s.minLength})`, () => c.failStmt(L, "minLength", stringLiteral(`must have at least ${s.minLength} characters`), String(s.minLength)));
      if (s.maxLength !== undefined) L.block(`if (n > ${s.maxLength})`, () => c.failStmt(L, "maxLength", stringLiteral(`must have at most ${s.maxLength} characters`), String(s.maxLength)));
    }
    if (re) L.block(`if (!${re("x")})`, () => c.failStmt(L, "pattern", stringLiteral(`must match pattern ${s.pattern}`), stringLiteral(s.pattern!)));
    if (fmt) L.block(`if (!${fmt}(x))`, () => c.failStmt(L, "format", stringLiteral(`must be a valid ${s.format}`), stringLiteral(s.format!)));
  });
}

export function numberKeywords(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  const checks: [string | undefined, string, string, number | undefined][] = [
    [s.minimum !== undefined ? `x < ${s.minimum}` : undefined, "minimum", `must be >= ${s.minimum}`, s.minimum],
    [s.maximum !== undefined ? `x > ${s.maximum}` : undefined, "maximum", `must be <= ${s.maximum}`, s.maximum],
    [s.exclusiveMinimum !== undefined ? `x <= ${s.exclusiveMinimum}` : undefined, "exclusiveMinimum", `must be > ${s.exclusiveMinimum}`, s.exclusiveMinimum],
    [s.exclusiveMaximum !== undefined ? `x >= ${s.exclusiveMaximum}` : undefined, "exclusiveMaximum", `must be < ${s.exclusiveMaximum}`, s.exclusiveMaximum],
  ];
  const active = checks.filter((check) => check[0] !== undefined);
  if (active.length === 0 && s.multipleOf === undefined) return;
  // an integer beyond 2^53 may be a bigint (format int64, read exactly): < and > compare it with numbers as they are
  const big = s.integer?.encoding === "number";
  L.block(big ? `if (typeof x === "number" || typeof x === "bigint")` : `if (typeof x === "number")`, () => {
    for (const [cond, kw, msg, exp] of active) L.block(`if (${cond})`, () => c.failStmt(L, kw, stringLiteral(msg), String(exp)));
    if (s.multipleOf !== undefined) {
      c.helpers.add("multipleOf");
      const m = s.multipleOf;
      const test = !big ? `!multipleOf(x, ${m})` : Number.isInteger(m) ? `!(typeof x === "bigint" ? x % ${BigInt(m)}n === 0n : multipleOf(x, ${m}))` : `!multipleOf(Number(x), ${m})`;
      L.block(`if (${test})`, () => c.failStmt(L, "multipleOf", stringLiteral(`must be a multiple of ${m}`), String(m)));
    }
  });
}
