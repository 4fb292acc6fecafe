/**
 * IR schema → a small TypeScript type tree, printed with correct precedence.
 * Every spec string reaches the output through emit/escape.ts.
 */
import { TextWriter } from "../../writer.js";
import { hexPrefixes } from "../validators/pattern.js";
import type { IrNamedSchema, IrObjectLikeSchema, IrSchema, JsonType, JsonValue } from "../../ir/types.js";
import { comment, commentValue, literal, propertyKey } from "../escape.js";

export type TypeNode =
  | { k: "raw"; text: string }
  | { k: "union"; parts: TypeNode[] }
  | { k: "inter"; parts: TypeNode[] }
  | { k: "array"; elem: TypeNode }
  | { k: "tuple"; elems: TypeNode[]; rest?: TypeNode }
  | { k: "object"; members: Member[]; index?: TypeNode };

export interface Member {
  key: string;
  optional: boolean;
  type: TypeNode;
  docs?: string;
  readonly?: boolean;
}

export interface TypeContext {
  /** TypeScript name for a ref target (named schema pointer), possibly qualified. */
  refName(target: string): string;
  /** Which shape: a request leaves readOnly members out, a response writeOnly ones (default: both in). */
  direction?: "request" | "response";
  /**
   * Hears that the output names a runtime type (`IntegerString`, an integer's
   * marker; `HexEncoded`, a hex string's), so its module imports it.
   */
  onMarker?: (name: Marker) => void;
  /**
   * The number policy's type parameter (`N`) when the type is written for a
   * client that reads integers by it: an integer is `Numbered<…, N>`
   * (numbered.ts sets this, with `refName` writing `X<N>`).
   */
  numbers?: string;
  /** The same context without the policy: what it writes where the integer walkers do not go. */
  wire?: TypeContext;
}

/** The runtime types a generated type may name (runtime/values/numbers.ts). */
export type Marker = "IntegerString" | "HexEncoded" | "Numbered" | "Numbers";

/** A named schema's type in a direction: `XInput` for a request when its shapes differ (readOnly/writeOnly), else `X`. */
export function shapeName(s: IrNamedSchema, direction: TypeContext["direction"]): string {
  return (direction === "request" ? s.names.input : undefined) ?? s.name;
}

/**
 * The context that names the named schemas in a direction: as declared in
 * types.ts, or behind a namespace import (`T.Block`) in the modules that
 * import it; `used` hears when a name is taken, so the import is written only then.
 */
export function schemaTypeContext(schemas: readonly IrNamedSchema[], direction: "request" | "response", namespace?: string, used?: () => void, onMarker?: (name: Marker) => void): TypeContext {
  const byKey = new Map(schemas.map((s) => [s.key, s]));
  return {
    direction,
    ...(onMarker ? { onMarker } : {}),
    refName: (target) => {
      const s = byKey.get(target);
      if (!s) return "unknown";
      used?.();
      return namespace === undefined ? shapeName(s, direction) : `${namespace}.${shapeName(s, direction)}`;
    },
  };
}

export const raw = (text: string): TypeNode => ({ k: "raw", text });
export const UNKNOWN = raw("unknown");

function union(parts: TypeNode[]): TypeNode {
  // only raw types can be the same type: a set of their texts keeps this linear in the parts (an enum may have 200,000)
  const flat: TypeNode[] = [];
  const seen = new Set<string>();
  for (const p of parts) {
    for (const q of p.k === "union" ? p.parts : [p]) {
      if (q.k === "raw") {
        if (seen.has(q.text)) continue;
        seen.add(q.text);
      }
      flat.push(q);
    }
  }
  if (flat.some((f) => f.k === "raw" && f.text === "unknown")) return UNKNOWN;
  const nonNever = flat.filter((f) => !(f.k === "raw" && f.text === "never"));
  if (nonNever.length === 0) return raw("never");
  return nonNever.length === 1 ? nonNever[0]! : { k: "union", parts: nonNever };
}

function inter(parts: TypeNode[]): TypeNode {
  const kept = parts.filter((p) => !(p.k === "raw" && p.text === "unknown"));
  if (kept.length === 0) return UNKNOWN;
  return kept.length === 1 ? kept[0]! : { k: "inter", parts: kept };
}

const isScalar = (v: JsonValue): boolean => v === null || typeof v !== "object";

/** The TypeScript type of a schema. */
export function toTypeNode(s: IrSchema, ctx: TypeContext): TypeNode {
  if (s.kind === "ref") return raw(ctx.refName(s.target));
  if (s.kind === "boolean") return raw(s.value ? "unknown" : "never");
  if (s.const && isScalar(s.const.value)) return raw(literal(s.const.value));
  if (s.enum && s.enum.length > 0 && s.enum.every(isScalar)) return union(s.enum.map((v) => raw(literal(v))));
  const parts: TypeNode[] = [];
  const shape = s.knownValues?.every(isScalar) ? openEnumNode(s, s.knownValues, ctx) : shapeNode(s, ctx);
  if (shape) parts.push(shape);
  for (const p of s.allOf ?? []) parts.push(toTypeNode(p, ctx));
  for (const list of [s.oneOf, s.anyOf]) {
    if (!list) continue;
    // Variants that only add constraints (e.g. `{ required: [a] }`) say nothing about the type.
    const variants = list.filter(informative).map((v) => toTypeNode(v, ctx));
    if (variants.length > 0 && variants.length === list.length) parts.push(union(variants));
  }
  return inter(parts);
}

/** Whether a schema constrains the type at all (as opposed to only adding validation rules). */
function informative(s: IrSchema): boolean {
  if (s.kind !== "schema") return true;
  return !!(s.types || s.enum || s.knownValues || s.const || s.properties || s.additionalProperties || s.items || s.prefixItems || s.allOf?.some(informative) || s.oneOf?.some(informative) || s.anyOf?.some(informative));
}

function inferredTypes(s: IrObjectLikeSchema): string[] | undefined {
  if (s.types) return s.types;
  if (s.properties || s.additionalProperties || s.patternProperties) return ["object"];
  if (s.items || s.prefixItems) return ["array"];
  return undefined;
}

const valueType = (v: JsonValue): string => (v === null ? "null" : typeof v);

/**
 * An open enumeration: its known values, then any other value of its type as
 * `string & {}` (or `number & {}`), which keeps the literals from being
 * absorbed into `string`, so editors still complete them.
 */
function openEnumNode(s: IrObjectLikeSchema, known: JsonValue[], ctx: TypeContext): TypeNode {
  const types = inferredTypes(s) ?? [...new Set(known.map(valueType))];
  const rest = types.map((t) => {
    if (t === "string" && s.format !== "binary") return raw("(string & {})");
    if (t === "number" || t === "integer") return raw("(number & {})");
    return shapeNode({ ...s, types: [t as JsonType] }, ctx) ?? UNKNOWN;
  });
  return union([...known.map((v) => raw(literal(v))), ...rest]);
}

/**
 * A string whose pattern starts with a `0x` prefix is hex: typed as
 * `` `0x${string}` & HexEncoded `` (viem's `Hex` and `Address` accept it,
 * and take it back: the marker's one property is optional), which catches a
 * missing prefix at compile time and keeps literals beside it in a union
 * (block tags next to a quantity) from being absorbed into `string`. The
 * marker also keeps a named hex type's name in hovers and errors (`Hash32`):
 * TypeScript prints a bare template literal alias as its template. A pattern
 * that also accepts `0X` (the node reads either case) keeps its check, but
 * the type is the lower-case form, which servers write and viem expects.
 */
function hexTemplate(pattern: string | undefined): TypeNode | undefined {
  const prefixes = pattern === undefined ? undefined : hexPrefixes(pattern);
  return prefixes && raw(`\`${prefixes.includes("0x") ? "0x" : "0X"}\${string}\``);
}

function stringNode(s: IrObjectLikeSchema, ctx: TypeContext): TypeNode {
  // raw bytes (format: binary, or a 3.1 contentMediaType): what fetch can send
  // these global names are reserved by the naming pass (BINARY_TYPE_NAMES), so no schema shadows them
  if (s.format === "binary") return raw("Blob | ArrayBuffer | ArrayBufferView | string");
  const hex = hexTemplate(s.pattern);
  if (s.integer && s.integer.encoding !== "number") return integerNode(hex ?? raw("string"), s.integer.encoding, ctx);
  if (!hex) return raw("string");
  ctx.onMarker?.("HexEncoded");
  return inter([hex, raw("HexEncoded")]);
}

/**
 * An integer the number policy reads, marked so that `Encodable<…>` also
 * takes a bigint and a number for it; under the policy (`ctx.numbers`)
 * `Numbered<…, N>`, a bigint under "bigint".
 */
function integerNode(wireType: TypeNode, encoding: string, ctx: TypeContext): TypeNode {
  ctx.onMarker?.("IntegerString");
  const wire = inter([wireType, raw(`IntegerString<${literal(encoding)}>`)]);
  if (ctx.numbers === undefined) return wire;
  ctx.onMarker?.("Numbered");
  return raw(`Numbered<${typeText(wire)}, ${ctx.numbers}>`);
}

function shapeNode(s: IrObjectLikeSchema, ctx: TypeContext): TypeNode | undefined {
  const types = inferredTypes(s);
  if (!types) return undefined;
  return union(
    types.map((t) => {
      switch (t) {
        case "integer":
        case "number":
          // a JSON number that may pass 2^53, read from the text (format int64, x-avaspec-integer)
          return s.integer?.encoding === "number" ? integerNode(raw("number"), "number", ctx) : raw("number");
        case "string":
          return stringNode(s, ctx);
        case "boolean":
        case "null":
          return raw(t);
        case "array":
          return arrayNode(s, ctx);
        default:
          return objectNode(s, ctx);
      }
    }),
  );
}

function arrayNode(s: IrObjectLikeSchema, ctx: TypeContext): TypeNode {
  const item = s.items ? toTypeNode(s.items, ctx) : UNKNOWN;
  if (s.prefixItems && s.prefixItems.length > 0) {
    const noRest = s.items?.kind === "boolean" && !s.items.value;
    return { k: "tuple", elems: s.prefixItems.map((p) => toTypeNode(p, ctx)), ...(noRest ? {} : { rest: item }) };
  }
  return { k: "array", elem: item };
}

export function objectMembers(s: IrObjectLikeSchema, ctx: TypeContext): { members: Member[]; index?: TypeNode } {
  const skip = ctx.direction === "request" ? "readOnly" : ctx.direction === "response" ? "writeOnly" : undefined;
  const members: Member[] = (s.properties ?? []).filter((p) => skip === undefined || p.schema[skip] !== true).map((p) => {
    const docs = jsDoc(p.schema);
    return { key: propertyKey(p.name), optional: !p.required, type: toTypeNode(p.schema, ctx), ...(docs ? { docs } : {}) };
  });
  const listed = new Set((s.properties ?? []).map((p) => p.name));
  // `required` names without a `properties` entry are still required keys.
  for (const name of s.required ?? []) {
    if (!listed.has(name)) members.push({ key: propertyKey(name), optional: false, type: s.additionalProperties ? toTypeNode(s.additionalProperties, ctx) : UNKNOWN });
  }
  const extra: TypeNode[] = [];
  if (s.additionalProperties && !(s.additionalProperties.kind === "boolean" && !s.additionalProperties.value)) extra.push(toTypeNode(s.additionalProperties, ctx));
  // pattern properties are not walked, so their integers stay as the wire has them
  for (const pp of s.patternProperties ?? []) extra.push(toTypeNode(pp.schema, ctx.wire ?? ctx));
  if (extra.length === 0 && members.length === 0 && !(s.additionalProperties?.kind === "boolean" && !s.additionalProperties.value)) extra.push(UNKNOWN);
  if (extra.length === 0) return { members };
  // An index signature must admit every listed property's type too.
  const index = union([...extra, ...members.map((m) => (m.optional ? union([m.type, raw("undefined")]) : m.type))]);
  return { members, index };
}

function objectNode(s: IrObjectLikeSchema, ctx: TypeContext): TypeNode {
  const { members, index } = objectMembers(s, ctx);
  return { k: "object", members, ...(index ? { index } : {}) };
}

/** JSDoc text for a schema: description, deprecation, default, format, bounds, example. */
export function jsDoc(s: IrSchema, lead?: string): string | undefined {
  const lines: string[] = [];
  const text = lead ?? s.description ?? s.title;
  if (text) lines.push(comment(text));
  if (s.deprecated) lines.push("@deprecated");
  if (s.kind === "schema") {
    if (s.knownValues) lines.push("An open enumeration: the server may send values not listed here.");
    if (s.format) lines.push(`@format ${comment(s.format)}`);
    for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"] as const) {
      if (s[k] !== undefined) lines.push(`@${k} ${s[k]}`);
    }
    if (s.pattern !== undefined) lines.push(`@pattern ${comment(s.pattern)}`);
  }
  if (s.default !== undefined) lines.push(`@default ${commentValue(s.default)}`);
  if (s.examples && s.examples.length > 0 && isScalar(s.examples[0]!)) lines.push(`@example ${commentValue(s.examples[0])}`);
  return lines.length > 0 ? lines.join("\n") : undefined;
}

const PREC = { union: 1, inter: 2, array: 3 } as const;

/** A type as text, for the places that build a line around it. */
export function typeText(t: TypeNode): string {
  const w = new TextWriter();
  printType(w, t);
  return w.toString();
}

export function printType(w: TextWriter, t: TypeNode, outer = 0): void {
  switch (t.k) {
    case "raw":
      w.write(t.text);
      return;
    case "union":
    case "inter": {
      const p = PREC[t.k];
      if (outer > p) w.write("(");
      t.parts.forEach((part, i) => {
        if (i > 0) w.write(t.k === "union" ? " | " : " & ");
        printType(w, part, p + (t.k === "inter" ? 0 : 0.5));
      });
      if (outer > p) w.write(")");
      return;
    }
    case "array":
      printType(w, t.elem, PREC.array);
      w.write("[]");
      return;
    case "tuple":
      w.write("[");
      t.elems.forEach((e, i) => {
        if (i > 0) w.write(", ");
        printType(w, e);
      });
      if (t.rest) {
        if (t.elems.length > 0) w.write(", ");
        w.write("...");
        printType(w, t.rest, PREC.array);
        w.write("[]");
      }
      w.write("]");
      return;
    case "object":
      if (t.members.length === 0 && !t.index) {
        w.write("{}");
        return;
      }
      w.write("{").newLine();
      w.indent(() => {
        for (const m of t.members) writeMember(w, m);
        if (t.index) {
          w.write("[key: string]: ");
          printType(w, t.index);
          w.write(";").newLine();
        }
      });
      w.write("}");
      return;
  }
}

export function writeDocs(w: TextWriter, docs: string): void {
  const lines = docs.split("\n");
  if (lines.length === 1) {
    w.writeLine(`/** ${lines[0]} */`);
    return;
  }
  w.writeLine("/**");
  for (const l of lines) w.writeLine(l === "" ? " *" : ` * ${l}`);
  w.writeLine(" */");
}

export function writeMember(w: TextWriter, m: Member): void {
  if (m.docs) writeDocs(w, m.docs);
  w.write(`${m.readonly ? "readonly " : ""}${m.key}${m.optional ? "?" : ""}: `);
  printType(w, m.type);
  w.write(";").newLine();
}
