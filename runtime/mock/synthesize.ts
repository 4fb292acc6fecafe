/**
 * Mock data from a schema: a seeded generator, so one seed always gives the
 * same values, and the synthesis of a value that passes the schema.
 */
import { hasOwn, setOwn } from "../values/validate.js";
import type { MockSchema, MockSchemaObject, PatternSample } from "./types.js";
import { hash, rng } from "./random.js";
export { hash, rng } from "./random.js";

// ---------------------------------------------------------------- synthesis

interface Ctx {
  defs: Record<string, MockSchema>;
  next: () => number;
  /** Whether a schema's own examples (and default) stand for it: what a spec shows is what a reader expects to see. */
  examples: boolean;
}

const int = (c: Ctx, lo: number, hi: number) => lo + Math.floor(c.next() * (hi - lo + 1));
const pick = <T>(c: Ctx, xs: readonly T[]): T => xs[Math.floor(c.next() * xs.length)]!;

function deref(c: Ctx, s: MockSchema, seen = 0): MockSchema {
  while (typeof s === "object" && s.$ref !== undefined && seen++ < 32) {
    const { $ref, ...rest } = s;
    const target = c.defs[$ref] ?? true;
    s = Object.keys(rest).length === 0 ? target : { allOf: [target, rest] };
  }
  return s;
}

/** allOf as one schema: properties and requirements add up, bounds and types narrow. */
function merge(c: Ctx, parts: MockSchema[]): MockSchemaObject {
  const out: MockSchemaObject = {};
  for (const raw of parts) {
    const p = deref(c, raw);
    if (typeof p === "boolean") continue;
    const flat = p.allOf ? { ...merge(c, p.allOf), ...withoutAllOf(p) } : p;
    for (const [k, v] of Object.entries(flat) as [keyof MockSchemaObject, unknown][]) {
      if (k === "properties") out.properties = { ...out.properties, ...(v as Record<string, MockSchema>) };
      else if (k === "required") out.required = [...new Set([...(out.required ?? []), ...(v as string[])])];
      else if (k === "type") out.type = out.type ? out.type.filter((t) => (v as string[]).includes(t) || (t === "integer" && (v as string[]).includes("number"))) : (v as string[]);
      else if (k === "minimum" || k === "minLength" || k === "minItems" || k === "exclusiveMinimum") out[k] = Math.max(out[k] ?? -Infinity, v as number);
      else if (k === "maximum" || k === "maxLength" || k === "maxItems" || k === "exclusiveMaximum") out[k] = Math.min(out[k] ?? Infinity, v as number);
      else (out as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

function withoutAllOf(s: MockSchemaObject): MockSchemaObject {
  const { allOf: _, ...rest } = s;
  return rest;
}

/** A value for `schema`; depth bounds recursion (deep optional parts are left out, arrays kept short). */
export function synthesize(schema: MockSchema, defs: Record<string, MockSchema>, next: () => number, examples = true): unknown {
  return synth({ defs, next, examples }, schema, 0);
}

/** Deeper than this, a schema can only be recursing through required members: it has no finite value. */
const MAX_DEPTH = 64;

/** Thrown when a schema has no finite value to synthesize (a required member leads back to itself). */
export class UnsatisfiableSchemaError extends Error {
  override name = "UnsatisfiableSchemaError";
}

function synth(c: Ctx, raw: MockSchema, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new UnsatisfiableSchemaError(`no finite value: the schema recurses more than ${MAX_DEPTH} levels through required properties or minimum item counts`);
  let s = deref(c, raw);
  if (s === true) return "mock";
  if (s === false) return null;
  if (s.allOf) s = merge(c, [withoutAllOf(s), ...s.allOf]);
  if (s.pattern !== undefined && s.examples && s.examples.length > 0) return structuredClone(pick(c, s.examples));
  if (hasOwn(s, "const")) return structuredClone(s.const);
  if (s.enum) return structuredClone(pick(c, s.enum));
  // a property's examples: its value, as the spec shows it (set aside when a body made with them does not pass its check)
  if (c.examples && s.examples && s.examples.length > 0) return structuredClone(pick(c, s.examples));
  const branches = s.oneOf ?? s.anyOf;
  if (branches && branches.length > 0) {
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    const branch = pick(c, branches);
    return synth(c, Object.keys(rest).length > 0 ? merge(c, [rest, branch]) : branch, depth + 1);
  }
  let types = s.type ?? inferType(s);
  if (types.length > 1 && types.includes("null")) types = c.next() < 0.85 ? types.filter((t) => t !== "null") : ["null"];
  switch (pick(c, types)) {
    case "null":
      return null;
    case "boolean":
      return c.next() < 0.5;
    case "integer":
      return integer(c, s);
    case "number":
      return c.next() < 0.5 ? integer(c, s) : number(c, s);
    case "string":
      return string(c, s);
    case "array":
      return array(c, s, depth);
    default:
      return object(c, s, depth);
  }
}

function inferType(s: MockSchemaObject): string[] {
  if (s.properties || s.required || s.additionalProperties !== undefined) return ["object"];
  if (s.items !== undefined || s.prefixItems) return ["array"];
  if (s.sample || s.format || s.minLength !== undefined || s.maxLength !== undefined) return ["string"];
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return ["number"];
  return ["string"];
}

function bounds(s: MockSchemaObject, integral: boolean): [number, number] {
  const step = integral ? 1 : 0.5;
  // the tighter of the inclusive and the (stepped-in) exclusive bound
  const defined = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
  const lows = defined([s.minimum, s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + step]);
  const highs = defined([s.maximum, s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - step]);
  let lo = lows.length > 0 ? Math.max(...lows) : undefined;
  let hi = highs.length > 0 ? Math.min(...highs) : undefined;
  lo ??= hi !== undefined ? hi - 1000 : 0;
  hi ??= lo + 1000;
  return [integral ? Math.ceil(lo) : lo, integral ? Math.floor(hi) : hi];
}

function integer(c: Ctx, s: MockSchemaObject): number {
  const [lo, hi] = bounds(s, true);
  if (s.multipleOf) {
    const first = Math.ceil(lo / s.multipleOf);
    const last = Math.floor(hi / s.multipleOf);
    return Math.max(first, Math.min(last, int(c, first, Math.min(last, first + 50)))) * s.multipleOf;
  }
  return int(c, lo, Math.min(hi, lo + 1_000_000));
}

function number(c: Ctx, s: MockSchemaObject): number {
  if (s.multipleOf) return integer(c, s);
  const [lo, hi] = bounds(s, false);
  return Math.round((lo + c.next() * Math.min(hi - lo, 1_000_000)) * 100) / 100;
}

const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";

function chars(c: Ctx, alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(c.next() * alphabet.length)];
  return out;
}

function string(c: Ctx, s: MockSchemaObject): string {
  if (s.sample) return fromSample(c, s.sample);
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 24);
  const pad = (v: string) => (v.length < min ? v + chars(c, ALNUM, min - v.length) : v.length > max ? v.slice(0, max) : v);
  const day = int(c, 0, 2000);
  const date = new Date(Date.UTC(2022, 0, 1) + day * 86_400_000 + int(c, 0, 86_399) * 1000).toISOString();
  switch (s.format) {
    case "date-time":
      return date.replace(/\.\d+Z$/, "Z");
    case "date":
      return date.slice(0, 10);
    case "time":
      return date.slice(11, 19) + "Z";
    case "uuid":
      return `${chars(c, HEX, 8)}-${chars(c, HEX, 4)}-4${chars(c, HEX, 3)}-8${chars(c, HEX, 3)}-${chars(c, HEX, 12)}`;
    case "email":
      return `${chars(c, "abcdefghijklmnopqrstuvwxyz", 6)}@example.com`;
    case "uri":
    case "url":
    case "uri-reference":
      return `https://example.com/${chars(c, ALNUM, 8)}`;
    case "hostname":
      return `${chars(c, "abcdefghijklmnopqrstuvwxyz", 8)}.example.com`;
    case "ipv4":
      return [int(c, 1, 254), int(c, 0, 255), int(c, 0, 255), int(c, 1, 254)].join(".");
    case "ipv6":
      return `2001:db8::${chars(c, HEX, 4)}`;
  }
  return pad(`mock-${chars(c, ALNUM, Math.max(0, Math.min(max, 12) - 5))}`);
}

function fromSample(c: Ctx, alternatives: PatternSample): string {
  let out = "";
  for (const [unit, min, max] of pick(c, alternatives)) {
    const n = int(c, min, Math.min(max, min + 6));
    for (let i = 0; i < n; i++) out += typeof unit === "string" ? unit[Math.floor(c.next() * unit.length)] : fromSample(c, unit);
  }
  return out;
}

function array(c: Ctx, s: MockSchemaObject, depth: number): unknown[] {
  const min = s.minItems ?? 0;
  const max = s.maxItems ?? Infinity;
  const want = depth > 6 ? min : Math.min(max, Math.max(min, int(c, 1, 3)));
  const out: unknown[] = [];
  for (let i = 0; i < want; i++) {
    const item = s.prefixItems?.[i] ?? s.items ?? true;
    if (item === false) break;
    out.push(synth(c, item, depth + 1));
  }
  return out;
}

function object(c: Ctx, s: MockSchemaObject, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => setOwn(out, k, v);
  const required = new Set(s.required ?? []);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    if (required.has(k) || (depth < 5 && c.next() < 0.7)) set(k, synth(c, sub, depth + 1));
  }
  for (const k of required) if (!hasOwn(out, k)) set(k, synth(c, true, depth + 1));
  // map-like objects: keys that satisfy propertyNames (or a patternProperties pattern), values from their schema
  if (depth < 5 && (!s.properties || Object.keys(s.properties).length === 0)) {
    const key = (i: number) => (s.propertyNames !== undefined ? String(synth(c, s.propertyNames, depth + 1)) : `key${i + 1}`);
    for (const pp of s.patternProperties ?? []) set(String(synth(c, pp.key, depth + 1)), synth(c, pp.schema, depth + 1));
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== false) {
      const n = Math.max(s.minProperties ?? 0, int(c, 1, 2));
      for (let i = 0; i < n; i++) set(key(i), synth(c, extra, depth + 1));
    }
  }
  return out;
}
