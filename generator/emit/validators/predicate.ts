/**
 * An inline boolean expression equivalent to the check of a leaf schema
 * (type, enum, const, string and number bounds only), or undefined. Call
 * sites test it first and call the full check only to collect issues.
 */
import { fitsTypes, type IrSchema } from "../../ir/types.js";
import { literal } from "../escape.js";
import { INLINE_ENUM, isScalar, type CheckEmitter } from "./emitter.js";

const LEAF_KEYS = new Set(["types", "enum", "const", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"]);
const META_KEYS = new Set(["kind", "pointer", "title", "description", "deprecated", "readOnly", "writeOnly", "default", "examples", "integer", "knownValues", "requestPattern", "wireForm"]);

export function predicate(c: CheckEmitter, s: IrSchema, v: string, depth = 0): string | undefined {
  // a value in a server's wire form fails the documented predicate and still passes: the full check decides
  if (depth > 8 || s.wireForm) return undefined;
  if (s.kind === "boolean") return s.value ? "true" : "false";
  if (s.kind === "ref") {
    const target = c.resolve(s.target);
    return target ? predicate(c, target, v, depth + 1) : undefined;
  }
  // an integer that may be a bigint (format int64, read exactly): its own check tests both
  if (s.integer?.encoding === "number") return undefined;
  for (const k of Object.keys(s)) if (!LEAF_KEYS.has(k) && !META_KEYS.has(k) && (s as unknown as Record<string, unknown>)[k] !== undefined) return undefined;
  const parts: string[] = [];
  if (s.types && s.types.length > 0) {
    const types = s.types.includes("number") ? s.types.filter((t) => t !== "integer") : s.types;
    parts.push(`(${c.typeTest(types, v, s.format)})`);
  }
  // a value the type test rules out can never match; comparing with it would not type-check after the narrowing (TS2367)
  const possible = (x: unknown) => !s.types || s.types.length === 0 || fitsTypes(x, s.types);
  if (s.const) {
    if (!isScalar(s.const.value)) return undefined;
    parts.push(possible(s.const.value) ? `${v} === ${literal(s.const.value)}` : "false");
  }
  if (s.enum) {
    if (!s.enum.every(isScalar) || s.enum.length > INLINE_ENUM) return undefined;
    const values = s.enum.filter(possible);
    parts.push(values.length === 0 ? "false" : `(${values.map((x) => `${v} === ${literal(x)}`).join(" || ")})`);
  }
  const str: string[] = [];
  if (s.minLength !== undefined) (c.helpers.add("length"), str.push(`length(${v}) >= ${s.minLength}`));
  if (s.maxLength !== undefined) (c.helpers.add("length"), str.push(`length(${v}) <= ${s.maxLength}`));
  if (s.pattern !== undefined) {
    const re = c.regex(s.pattern, s.pointer, s.requestPattern);
    if (!re) return undefined;
    str.push(re(v));
  }
  const fmt = c.formatFn(s.format);
  if (fmt) str.push(`${fmt}(${v})`);
  if (str.length > 0) parts.push(`(typeof ${v} !== "string" || (${str.join(" && ")}))`);
  const num: string[] = [];
  if (s.minimum !== undefined) num.push(`${v} >= ${s.minimum}`);
  if (s.maximum !== undefined) num.push(`${v} <= ${s.maximum}`);
  if (s.exclusiveMinimum !== undefined) num.push(`${v} > ${s.exclusiveMinimum}`);
  if (s.exclusiveMaximum !== undefined) num.push(`${v} < ${s.exclusiveMaximum}`);
  if (s.multipleOf !== undefined) (c.helpers.add("multipleOf"), num.push(`multipleOf(${v}, ${s.multipleOf})`));
  if (num.length > 0) parts.push(`(typeof ${v} !== "number" || (${num.join(" && ")}))`);
  return parts.length === 0 ? "true" : parts.join(" && ");
}
