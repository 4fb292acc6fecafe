/**
 * Builds IR schemas from JSON Schema dialects: OpenAPI 3.0 (`nullable`,
 * boolean `exclusiveMinimum`), OpenAPI 3.1 / 2020-12 and draft-07. References
 * to `components.schemas` (and to any other local schema, which is promoted to
 * a named schema so recursion stays finite) become `ref` nodes.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import { BoundedNesting } from "../nesting.js";
import * as ptr from "../load/pointer.js";
import { SCHEMA_KEYWORDS } from "../load/vocabulary.js";
import { closest } from "../suggest.js";
import { newerRegExpSyntax, patternFlags } from "./resolve.js";
import type { SchemaResources } from "../load/resources.js";
import { readResponsePattern, readWireForm, settleWireForm } from "./wire-forms.js";
import { fitsTypes, type IrIntegerString, type IrNamedSchema, type IrObjectLikeSchema, type IrSchema, type IrSchemaMeta, type JsonType, type JsonValue } from "./types.js";

export type Dialect = "openapi-3.0" | "openapi-3.1" | "draft-07";

const JSON_TYPES = new Set<JsonType>(["string", "number", "integer", "boolean", "null", "array", "object"]);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export class SchemaBuilder {
  /** Named schemas by key (file + pointer); insertion order is output order. */
  readonly named = new Map<string, IrNamedSchema>();

  /** The document being built (a `$ref` may lead into another one). */
  private doc: LoadedDocument;

  constructor(
    doc: LoadedDocument,
    private readonly dialect: Dialect,
    private readonly diagnostics: Diagnostic[],
    /** Pointer prefix of the document's named schemas, e.g. `#/components/schemas`. */
    private readonly namedPrefix: string,
    /** Resolution across preloaded documents (the JSON-Schema-Test-Suite's remotes); without it each document resolves its own refs (the same resolver, over that document alone). */
    private readonly resources?: SchemaResources<LoadedDocument>,
  ) {
    this.doc = doc;
  }

  private report(code: string, pointer: string, message: string, severity: "error" | "warning" = "error", hint?: string): void {
    const { line, col } = this.doc.locate(pointer);
    this.diagnostics.push({ code, severity, message, file: this.doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  }

  /** Registers every schema under the named prefix, then builds their bodies. */
  buildNamedSchemas(): void {
    const tokens = ptr.parse(this.namedPrefix)!;
    const r = ptr.get(this.doc.root, tokens);
    if (!r.found || !isObj(r.value)) return;
    for (const key of Object.keys(r.value)) this.register(ptr.join(this.namedPrefix, key), key);
    for (const key of Object.keys(r.value)) this.ensureBuilt(ptr.join(this.namedPrefix, key));
  }

  private keyOf(pointer: string, doc = this.doc): string {
    return `${doc.file}${pointer}`;
  }

  private register(pointer: string, id: string): IrNamedSchema {
    const key = this.keyOf(pointer);
    let n = this.named.get(key);
    if (!n) {
      n = { kind: "named-schema", key, id, name: "", names: { validate: "", standard: "", guard: "" }, pointer, schema: { kind: "boolean", value: true, pointer } };
      this.named.set(key, n);
    }
    return n;
  }

  private readonly built = new Set<string>();
  /** A ref needs only its target's key: bodies are built one after the other (depth 1), never one inside the other. */
  private readonly nesting = new BoundedNesting(1);

  private ensureBuilt(pointer: string): void {
    const key = this.keyOf(pointer);
    if (this.built.has(key)) return;
    this.built.add(key);
    const doc = this.doc;
    this.nesting.run(() => {
      const back = this.doc;
      this.doc = doc;
      try {
        this.named.get(key)!.schema = this.build(doc.at(pointer)?.value, pointer);
      } finally {
        this.doc = back;
      }
    });
  }

  /** Id of a named schema for a ref target, promoting non-component targets. */
  private refTarget(ref: string, at: string): string | undefined {
    const owner = at.slice(0, at.lastIndexOf("/"));
    const local = this.resources ? undefined : this.doc.resolve(ref, owner);
    const found = this.resources ? this.resources.resolve(this.doc, owner, ref) : local && { doc: this.doc, pointer: local.pointer };
    if (!found) {
      this.report("ref/dangling", at, `$ref ${JSON.stringify(ref)} does not resolve`);
      return undefined;
    }
    // a target in another document is registered and built in that document's context
    const back = this.doc;
    this.doc = found.doc;
    try {
      return this.namedAt(found.pointer, back === found.doc);
    } finally {
      this.doc = back;
    }
  }

  /**
   * The schema at a pointer as a named schema of its own, built now: a ref
   * when it is one, else the schema itself named from `id` (a webhook's
   * inline payload gets a type of its own this way).
   */
  nameAt(pointer: string, id: string): IrSchema {
    const node = this.doc.at(pointer)?.value;
    if (isObj(node) && typeof node["$ref"] === "string" && Object.keys(node).every((k) => k === "$ref" || ANNOTATIONS.has(k) || k.startsWith("x-"))) return this.build(node, pointer);
    const n = this.named.get(this.keyOf(pointer)) ?? this.register(pointer, id);
    this.ensureBuilt(pointer);
    return { kind: "ref", target: n.key, pointer };
  }

  /** The named schema at a pointer of the current document, promoted and built on first use. */
  private namedAt(pointer: string, sameDocument: boolean): string {
    let n = this.named.get(this.keyOf(pointer));
    if (!n) {
      // A schema referenced from elsewhere (e.g. `#/$defs/x`, `#/components/schemas/A/properties/b`):
      // give it a name of its own, so a cycle through it is a cycle of names.
      const tokens = ptr.parse(pointer)!;
      const isComponent = sameDocument && pointer.startsWith(this.namedPrefix + "/") && tokens.length === ptr.parse(this.namedPrefix)!.length + 1;
      n = this.register(pointer, isComponent ? tokens.at(-1)! : sameDocument ? pointer : `${this.doc.file}${pointer}`);
    }
    this.ensureBuilt(pointer);
    return n.key;
  }

  build(node: unknown, pointer: string): IrSchema {
    if (typeof node === "boolean") return { kind: "boolean", value: node, pointer };
    if (!isObj(node)) {
      this.report("schema/type", pointer, "a schema must be an object or a boolean");
      return { kind: "boolean", value: true, pointer };
    }
    const meta = this.meta(node, pointer);
    const ref = str(node["$ref"]);
    if (ref !== undefined) {
      const target = this.refTarget(ref, ptr.join(pointer, "$ref"));
      if (target === undefined) return { kind: "boolean", value: true, pointer };
      const refNode: IrSchema = { kind: "ref", target, ...meta };
      // OpenAPI 3.0 and draft-07 ignore $ref siblings; 3.1 and draft 2019+ apply them alongside.
      const siblings = Object.keys(node).filter((k) => k !== "$ref" && !ANNOTATIONS.has(k) && !k.startsWith("x-"));
      if (this.dialect === "openapi-3.0" || this.dialect === "draft-07" || siblings.length === 0) {
        // the pattern is the target's: said so (a warning), or a malformed value is an error
        if (node["x-avaspec-response-pattern"] !== undefined) readResponsePattern(node, pointer, (code, at, message, severity, hint) => this.report(code, at, message, severity, hint));
        return this.withWireForm(refNode, node);
      }
      // one node: the ref is an in-place applicator beside the other keywords (so unevaluated* sees it)
      const rest = { ...node };
      delete rest["$ref"];
      const own = this.build(rest, pointer);
      const applied: IrSchema = { kind: "ref", target, pointer: ptr.join(pointer, "$ref") };
      if (own.kind !== "schema") return { ...meta, kind: "schema", allOf: [applied, own] };
      return { ...own, allOf: [applied, ...(own.allOf ?? [])] };
    }
    const built = this.withWireForm(this.buildNode(node, pointer, meta), node);
    // OpenAPI 3.0 `nullable` beside a composition (no `type`), e.g. `{ nullable: true, allOf: [{ $ref }] }`: null or the rest.
    if (this.dialect === "openapi-3.0" && node["nullable"] === true && built.types === undefined) {
      return { ...meta, kind: "schema", anyOf: [{ ...built, description: undefined, pointer }, { kind: "schema", types: ["null"], pointer: ptr.join(pointer, "nullable") }] } as IrObjectLikeSchema;
    }
    return built;
  }

  /** A key that is no keyword but one slip away from one (`requried`): JSON Schema would ignore it, so the constraint silently would not apply. */
  private checkKeywords(node: Record<string, unknown>, pointer: string): void {
    for (const key of Object.keys(node)) {
      // a key of two or three letters is near too many keywords to guess (draft-04's `id` is not `if`)
      if (SCHEMA_KEYWORDS.has(key) || key.startsWith("x-") || key.length < 4) continue;
      const near = closest(key, SCHEMA_KEYWORDS);
      if (near !== undefined) this.report("schema/unknown-keyword", ptr.join(pointer, key), `${JSON.stringify(key)} is not a schema keyword and is ignored`, "warning", `did you mean \`${near}\`? (an extension of your own starts with x-)`);
    }
  }

  /** Schemas that declare a wire form, settled once every named schema is built. */
  private readonly wireForms: IrSchema[] = [];

  /** `s` with the wire form its node declares (`x-avaspec-wire-form`), if any. */
  private withWireForm<S extends IrSchema>(s: S, node: Record<string, unknown>): S {
    const form = readWireForm(node, s.pointer, (n, at) => this.build(n, at), (code, at, message, severity, hint) => this.report(code, at, message, severity, hint));
    if (form) {
      s.wireForm = form;
      this.wireForms.push(s);
    }
    return s;
  }

  /**
   * Decides each declared wire form's conversion against its documented
   * type: call once the document's schemas are all built (a `$ref` may
   * name one built later).
   */
  settleWireForms(): void {
    const lookup = (key: string) => this.named.get(key)?.schema;
    for (const s of this.wireForms.splice(0)) settleWireForm(s, lookup, (code, at, message, severity, hint) => this.report(code, at, message, severity, hint));
  }

  /** OpenAPI 3.0 takes one type per schema; a list is 3.1's form (read as 3.1 reads it, with a warning and the 3.0 way to say it). */
  private typeListIn30(types: JsonType[], at: string): void {
    const others = types.filter((x) => x !== "null");
    const hint = types.includes("null") && others.length === 1 ? `write \`type: ${others[0]}\` with \`nullable: true\`` : `write one type, or a oneOf of one schema per type${types.includes("null") ? " with `nullable: true`" : ""}`;
    this.report("schema/type-list", at, `a list of types is OpenAPI 3.1; in OpenAPI 3.0 \`type\` is one type (read as ${types.join(" | ") || "no type"})`, "warning", `${hint}, or declare the document \`openapi: 3.1.0\``);
  }

  private meta(node: Record<string, unknown>, pointer: string): IrSchemaMeta {
    const m: IrSchemaMeta = { pointer };
    if (typeof node["title"] === "string") m.title = node["title"];
    if (typeof node["description"] === "string") m.description = node["description"];
    if (node["deprecated"] === true) m.deprecated = true;
    if (node["readOnly"] === true) m.readOnly = true;
    if (node["writeOnly"] === true) m.writeOnly = true;
    if ("default" in node) m.default = node["default"] as JsonValue;
    if (Array.isArray(node["examples"])) m.examples = node["examples"] as JsonValue[];
    else if ("example" in node) m.examples = [node["example"] as JsonValue];
    return m;
  }

  /** A pattern JavaScript cannot compile (with or without the u flag) would give broken validators. */
  private checkPattern(pattern: string, pointer: string): void {
    if (patternFlags(pattern) !== undefined) return;
    const { line, col } = this.doc.locate(pointer);
    const newer = newerRegExpSyntax(pattern);
    if (newer) {
      this.diagnostics.push({ code: "schema/pattern", severity: "error", message: `pattern ${JSON.stringify(pattern)} uses ${newer}, which Node 20 and 22 cannot compile`, file: this.doc.file, pointer, line, col, hint: "the generated validators must load on every supported Node: write the pattern without it (e.g. [Aa][Bb] for (?i:ab))" });
      return;
    }
    this.diagnostics.push({ code: "schema/pattern", severity: "error", message: `pattern ${JSON.stringify(pattern)} is not a valid regular expression`, file: this.doc.file, pointer, line, col, hint: "JSON Schema patterns are ECMA-262 regular expressions" });
  }

  private sub(node: Record<string, unknown>, key: string, pointer: string): IrSchema | undefined {
    return key in node ? this.build(node[key], ptr.join(pointer, key)) : undefined;
  }

  private subList(node: Record<string, unknown>, key: string, pointer: string): IrSchema[] | undefined {
    const v = node[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) {
      this.report("schema/keyword", ptr.join(pointer, key), `"${key}" must be an array of schemas`);
      return undefined;
    }
    return v.map((s, i) => this.build(s, ptr.join(pointer, key, i)));
  }

  /**
   * An open enumeration's known values: `enum` beside `x-avaspec-open-enum:
   * true`, or Zalando's `x-extensible-enum` list (which has no `enum`).
   */
  private openEnum(node: Record<string, unknown>, pointer: string): { values: JsonValue[]; pointer: string } | undefined {
    const flag = node["x-avaspec-open-enum"];
    const flagAt = ptr.join(pointer, "x-avaspec-open-enum");
    if (flag !== undefined && typeof flag !== "boolean") {
      this.report("extension/open-enum", flagAt, `x-avaspec-open-enum must be true or false, got ${JSON.stringify(flag)}`);
      return undefined;
    }
    if (flag === true) {
      if (Array.isArray(node["enum"]) && node["enum"].length > 0) return { values: [...(node["enum"] as JsonValue[])], pointer: ptr.join(pointer, "enum") };
      this.report("extension/open-enum", flagAt, "x-avaspec-open-enum needs an enum beside it (the known values)", "warning");
      return undefined;
    }
    const extensible = node["x-extensible-enum"];
    if (extensible === undefined || flag === false) return undefined;
    const at = ptr.join(pointer, "x-extensible-enum");
    if (!Array.isArray(extensible) || extensible.length === 0 || !extensible.every((v) => v === null || typeof v !== "object")) {
      this.report("extension/open-enum", at, "x-extensible-enum must be a non-empty list of values");
      return undefined;
    }
    if (Array.isArray(node["enum"])) {
      this.report("extension/open-enum", at, "x-extensible-enum beside enum: the enum closes the value set, so the list is ignored", "warning", "drop one of them");
      return undefined;
    }
    return { values: [...(extensible as JsonValue[])], pointer: at };
  }

  /**
   * A schema that holds an integer the number policy reads: a string with
   * `x-avaspec-integer` ("decimal", "hex", or `{ encoding, signed, bits }`)
   * or with the integer formats OpenAPI documents use for 64-bit values sent
   * as strings (int64, uint64, int32, uint32); or a JSON number that may pass
   * 2^53 (`format: int64 | uint64`, or `x-avaspec-integer: true | { signed,
   * bits }`), which JSON.parse would round: its encoding is "number".
   */
  private integerString(node: Record<string, unknown>, pointer: string, types: JsonType[] | undefined): IrIntegerString | undefined {
    const at = ptr.join(pointer, "x-avaspec-integer");
    const ext = node["x-avaspec-integer"];
    const stringOnly = types !== undefined && types.includes("string") && types.every((t) => t === "string" || t === "null");
    const numeric = types !== undefined && types.some((t) => t === "integer" || t === "number") && types.every((t) => t === "integer" || t === "number" || t === "null");
    if (ext === undefined || ext === false) {
      const format = typeof node["format"] === "string" ? node["format"] : "";
      // 32-bit integers fit a double: only 64-bit ones need reading from the text
      const m = stringOnly ? /^(u?)int(32|64)$/.exec(format) : numeric ? /^(u?)int(64)$/.exec(format) : null;
      return m ? { encoding: stringOnly ? "decimal" : "number", signed: m[1] === "", bits: Number(m[2]) } : undefined;
    }
    const bad = (message: string) => {
      this.report("extension/integer", at, message, "error", numeric ? "on a JSON number write true, or { signed: boolean, bits: 1…4096 }" : 'write "decimal", "hex", or { encoding: decimal | hex, signed: boolean, bits: 1…4096 }');
      return undefined;
    };
    if (numeric) return this.numberInteger(ext, bad);
    if (!stringOnly) return bad(`x-avaspec-integer needs type: string (the integer travels as text) or type: integer (a JSON number), got ${types === undefined ? "no type" : `type ${types.join(" | ")}`}`);
    if (ext === "decimal" || ext === "hex") return { encoding: ext, signed: false };
    if (!isObj(ext)) return bad(`x-avaspec-integer must be "decimal", "hex" or an object, got ${JSON.stringify(ext)}`);
    const unknown = Object.keys(ext).filter((k) => !["encoding", "signed", "bits"].includes(k));
    if (unknown.length > 0) return bad(`x-avaspec-integer has unknown member${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")}`);
    if (ext["encoding"] !== "decimal" && ext["encoding"] !== "hex") return bad(`x-avaspec-integer.encoding must be "decimal" or "hex", got ${JSON.stringify(ext["encoding"])}`);
    if (ext["signed"] !== undefined && typeof ext["signed"] !== "boolean") return bad(`x-avaspec-integer.signed must be true or false, got ${JSON.stringify(ext["signed"])}`);
    if (ext["signed"] === true && ext["encoding"] === "hex") return bad("x-avaspec-integer: a hex quantity has no sign; signed needs encoding decimal");
    const bits = ext["bits"];
    if (bits !== undefined && !(typeof bits === "number" && Number.isInteger(bits) && bits >= 1 && bits <= 4096)) return bad(`x-avaspec-integer.bits must be an integer from 1 to 4096, got ${JSON.stringify(bits)}`);
    return { encoding: ext["encoding"], signed: ext["signed"] === true, ...(bits === undefined ? {} : { bits: bits as number }) };
  }

  /** `x-avaspec-integer` on a JSON number: `true`, or `{ signed, bits }` (signed unless it says otherwise: a JSON number has its sign). */
  private numberInteger(ext: unknown, bad: (message: string) => undefined): IrIntegerString | undefined {
    if (ext === true) return { encoding: "number", signed: true };
    if (!isObj(ext)) return bad(`x-avaspec-integer on a JSON number must be true or { signed, bits }, got ${JSON.stringify(ext)} (a JSON number has no text encoding)`);
    const unknown = Object.keys(ext).filter((k) => !["encoding", "signed", "bits"].includes(k));
    if (unknown.length > 0) return bad(`x-avaspec-integer has unknown member${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")}`);
    if (ext["encoding"] !== undefined && ext["encoding"] !== "number") return bad(`x-avaspec-integer.encoding on a JSON number must be "number" or left out, got ${JSON.stringify(ext["encoding"])}`);
    if (ext["signed"] !== undefined && typeof ext["signed"] !== "boolean") return bad(`x-avaspec-integer.signed must be true or false, got ${JSON.stringify(ext["signed"])}`);
    const bits = ext["bits"];
    if (bits !== undefined && !(typeof bits === "number" && Number.isInteger(bits) && bits >= 1 && bits <= 4096)) return bad(`x-avaspec-integer.bits must be an integer from 1 to 4096, got ${JSON.stringify(bits)}`);
    return { encoding: "number", signed: ext["signed"] !== false, ...(bits === undefined ? {} : { bits: bits as number }) };
  }

  private checkEnumTypes(values: JsonValue[], types: JsonType[] | undefined, pointer: string, open = false): void {
    const misfits = types && types.length > 0 ? values.filter((v) => !fitsTypes(v, types)) : [];
    if (misfits.length === 0) return;
    const none = !open && misfits.length === values.length;
    this.report("schema/enum-type", pointer, `enum value${misfits.length === 1 ? "" : "s"} ${misfits.slice(0, 5).map((v) => JSON.stringify(v)).join(", ")}${misfits.length > 5 ? ", …" : ""} ${misfits.length === 1 ? "is" : "are"} not of type ${types!.join(" | ")}, so ${none ? "no value can match this schema" : `${misfits.length === 1 ? "it" : "they"} can never match`}`, "warning", `quote the values (${misfits.slice(0, 2).map((v) => JSON.stringify(String(v))).join(", ")}) if the API sends strings, or fix the type`);
  }

  private buildNode(node: Record<string, unknown>, pointer: string, meta: IrSchemaMeta): IrObjectLikeSchema {
    this.checkKeywords(node, pointer);
    const s: IrObjectLikeSchema = { ...meta, kind: "schema" };
    // which groups of less common keywords the node has: the loops below look up only those (a schema has a few keywords of dozens)
    let present = 0;
    for (const k of Object.keys(node)) present |= KEYWORD_GROUPS.get(k) ?? 0;
    // type: string | string[]; 3.0 `nullable` adds null
    const t = node["type"];
    if (t !== undefined) {
      const list = Array.isArray(t) ? t : [t];
      const types: JsonType[] = [];
      list.forEach((x, i) => {
        if (typeof x === "string" && JSON_TYPES.has(x as JsonType)) {
          if (!types.includes(x as JsonType)) types.push(x as JsonType);
        } else this.report("schema/type", ptr.join(pointer, "type", ...(Array.isArray(t) ? [i] : [])), `unknown type ${JSON.stringify(x)}`);
      });
      s.types = types;
      if (Array.isArray(t) && this.dialect === "openapi-3.0") this.typeListIn30(types, ptr.join(pointer, "type"));
    }
    const nullable = this.dialect === "openapi-3.0" && node["nullable"] === true;
    if (nullable && s.types && !s.types.includes("null")) s.types.push("null");
    const open = this.openEnum(node, pointer);
    if (open) {
      s.knownValues = open.values;
      this.checkEnumTypes(open.values, s.types, open.pointer, true);
    } else if (Array.isArray(node["enum"])) {
      s.enum = [...(node["enum"] as JsonValue[])];
      if (nullable && !s.enum.includes(null)) s.enum.push(null);
      this.checkEnumTypes(s.enum, s.types, ptr.join(pointer, "enum"));
    }
    if ("const" in node) {
      s.const = { value: node["const"] as JsonValue };
      if (s.types && s.types.length > 0 && !fitsTypes(s.const.value, s.types)) {
        this.report("schema/enum-type", ptr.join(pointer, "const"), `const ${JSON.stringify(s.const.value)} is not of type ${s.types.join(" | ")}, so no value can match this schema`, "warning", "quote the value if the API sends a string, or fix the type");
      }
    }
    if (typeof node["format"] === "string") s.format = node["format"];
    const integer = this.integerString(node, pointer, s.types);
    if (integer) s.integer = integer;
    // 3.1 spells raw bytes as contentMediaType (3.0: format: binary); base64 text (contentEncoding) stays a string
    const media = node["contentMediaType"];
    if (s.format === undefined && typeof media === "string" && node["contentEncoding"] === undefined && !/^text\/|json|xml/i.test(media)) s.format = "binary";
    if (present & NUMERIC) for (const k of NUMERIC_KEYWORDS) {
      const v = num(node[k]);
      if (v !== undefined) s[k] = v;
    }
    if (typeof node["pattern"] === "string") {
      s.pattern = node["pattern"];
      this.checkPattern(s.pattern, ptr.join(pointer, "pattern"));
    }
    if (node["x-avaspec-response-pattern"] !== undefined && readResponsePattern(node, pointer, (code, at, message, severity, hint) => this.report(code, at, message, severity, hint))) s.requestPattern = true;
    // exclusive bounds: draft-04 / OpenAPI 3.0 booleans modify minimum/maximum
    if (present & EXCLUSIVE) for (const [ex, base] of EXCLUSIVE_BOUNDS) {
      const v = node[ex];
      if (typeof v === "number") s[ex] = v;
      else if (v === true && s[base] !== undefined) {
        s[ex] = s[base];
        delete s[base];
      }
    }
    if (node["uniqueItems"] === true) s.uniqueItems = true;
    // objects
    if (isObj(node["properties"])) {
      const required = Array.isArray(node["required"]) ? (node["required"] as unknown[]).filter((r): r is string => typeof r === "string") : [];
      s.properties = Object.keys(node["properties"]).map((name) => ({
        name,
        schema: this.build((node["properties"] as Record<string, unknown>)[name], ptr.join(pointer, "properties", name)),
        required: required.includes(name),
      }));
    }
    if (Array.isArray(node["required"])) {
      // OpenAPI: a required readOnly property is required in responses only, a writeOnly one in requests only.
      // One validator checks both directions, so neither is required there; the types keep the direction
      // (property.required), each shape with its own members.
      const oneWay = new Set((s.properties ?? []).filter((p) => p.schema.readOnly === true || p.schema.writeOnly === true).map((p) => p.name));
      s.required = (node["required"] as unknown[]).filter((r): r is string => typeof r === "string" && !oneWay.has(r));
    }
    const ap = this.sub(node, "additionalProperties", pointer);
    if (ap) s.additionalProperties = ap;
    if (isObj(node["patternProperties"])) {
      for (const pattern of Object.keys(node["patternProperties"])) this.checkPattern(pattern, ptr.join(pointer, "patternProperties", pattern));
      s.patternProperties = Object.keys(node["patternProperties"]).map((pattern) => ({
        pattern,
        schema: this.build((node["patternProperties"] as Record<string, unknown>)[pattern], ptr.join(pointer, "patternProperties", pattern)),
      }));
    }
    const pn = this.sub(node, "propertyNames", pointer);
    if (pn) s.propertyNames = pn;
    const up = this.sub(node, "unevaluatedProperties", pointer);
    if (up) s.unevaluatedProperties = up;
    if (isObj(node["dependentRequired"])) s.dependentRequired = node["dependentRequired"] as Record<string, string[]>;
    // draft-07 `dependencies` splits into the two 2019+ keywords
    if (present & DEPENDENCIES) {
      const deps = isObj(node["dependencies"]) ? node["dependencies"] : {};
      const depSchemas = { ...(isObj(node["dependentSchemas"]) ? node["dependentSchemas"] : {}) };
      for (const [k, v] of Object.entries(deps)) {
        if (Array.isArray(v)) (s.dependentRequired ??= {})[k] = v as string[];
        else depSchemas[k] = v;
      }
      if (Object.keys(depSchemas).length > 0) {
        s.dependentSchemas = {};
        for (const [k, v] of Object.entries(depSchemas)) s.dependentSchemas[k] = this.build(v, ptr.join(pointer, k in deps ? "dependencies" : "dependentSchemas", k));
      }
    }
    // arrays: draft-07 `items: [..]` is 2020-12 `prefixItems`, its `additionalItems` is `items`
    if (Array.isArray(node["items"])) {
      s.prefixItems = this.subList(node, "items", pointer);
      const ai = this.sub(node, "additionalItems", pointer);
      if (ai) s.items = ai;
    } else {
      const it = this.sub(node, "items", pointer);
      if (it) s.items = it;
      const pi = this.subList(node, "prefixItems", pointer);
      if (pi) s.prefixItems = pi;
    }
    if (present & SINGLE) for (const k of SINGLE_SUBSCHEMAS) {
      const v = this.sub(node, k, pointer);
      if (v) s[k] = v;
    }
    if (present & LISTS) for (const k of SUBSCHEMA_LISTS) {
      const v = this.subList(node, k, pointer);
      if (v) s[k] = v;
    }
    if (isObj(node["discriminator"]) && typeof node["discriminator"]["propertyName"] === "string") {
      const d = node["discriminator"];
      const mapping: { value: string; target: string }[] = [];
      if (isObj(d["mapping"])) {
        for (const [value, ref] of Object.entries(d["mapping"])) {
          if (typeof ref !== "string") continue;
          const full = ref.startsWith("#") ? ref : ptr.join(this.namedPrefix, ref);
          const target = this.refTarget(full, ptr.join(pointer, "discriminator", "mapping", value));
          if (target) mapping.push({ value, target });
        }
      }
      // implicit mapping: a variant's component name is its discriminator value
      for (const v of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
        if (v.kind === "ref" && !mapping.some((m) => m.target === v.target)) {
          const id = this.named.get(v.target)!.id;
          if (!id.startsWith("#")) mapping.push({ value: id, target: v.target });
        }
      }
      s.discriminator = { propertyName: d["propertyName"] as string, mapping };
    }
    return s;
  }
}

const NUMERIC_KEYWORDS = ["minLength", "maxLength", "minimum", "maximum", "multipleOf", "minProperties", "maxProperties", "minItems", "maxItems", "minContains", "maxContains"] as const;
const EXCLUSIVE_BOUNDS = [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const;
const SINGLE_SUBSCHEMAS = ["contains", "unevaluatedItems", "not", "if", "then", "else"] as const;
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf"] as const;
const [NUMERIC, EXCLUSIVE, DEPENDENCIES, SINGLE, LISTS] = [1, 2, 4, 8, 16];
/** Keyword → its group's bit, for buildNode's check of which groups a schema has. */
const KEYWORD_GROUPS = new Map<string, number>([
  ...NUMERIC_KEYWORDS.map((k) => [k, NUMERIC] as const),
  ...EXCLUSIVE_BOUNDS.map(([k]) => [k, EXCLUSIVE] as const),
  ["dependencies", DEPENDENCIES],
  ["dependentSchemas", DEPENDENCIES],
  ...SINGLE_SUBSCHEMAS.map((k) => [k, SINGLE] as const),
  ...SUBSCHEMA_LISTS.map((k) => [k, LISTS] as const),
]);
const ANNOTATIONS = new Set(["title", "description", "deprecated", "readOnly", "writeOnly", "default", "examples", "example", "$comment", "summary"]);
