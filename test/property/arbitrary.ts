/**
 * A seeded generator of random, valid API documents for the property test
 * (random-specs.test.ts): OpenAPI 3.0, 3.1 and 3.2 and OpenRPC 1.x (1.4 too), with
 * every parameter location and style, every body and response media type the
 * client knows, every schema keyword of the IR (generator/ir/types.ts), refs,
 * recursion, discriminators, and names drawn from a hostile alphabet.
 *
 * "Valid" means valid by the specifications, not by avaspec: the rules each
 * choice below follows are noted where they are not obvious, and valid.ts
 * checks the result. Defaults and examples are only attached when Ajv (an
 * independent JSON Schema implementation) accepts them against their schema;
 * where Ajv is wrong or avaspec reads a rule its own way, the oracle says so
 * (AJV_PREFIX_ITEMS_CONTAINS, AJV_EMPTY_PROPERTY_NAME, AVASPEC_ONE_WAY_REQUIRED).
 *
 * Everything is a pure function of the seed: document n of seed s is
 * `arbitraryDocument(documentSeed(s, n), kind)`.
 */
import Ajv from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { rng as mulberry32 } from "../../runtime/mock/mock.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type DocKind = "openapi-3.2" | "openapi-3.1" | "openapi-3.0" | "openrpc";

/** Seeded draws over mulberry32 (the generated runtime's own `rng`, runtime/mock/mock.ts). */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error("pick from an empty list");
    return list[this.int(0, list.length - 1)]!;
  }
  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(list: readonly (readonly [number, T])[]): T {
    const total = list.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of list) if ((r -= w) < 0) return v;
    return list.at(-1)![1];
  }
  shuffle<T>(list: readonly T[]): T[] {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/** The seed of document `index` of a run: documents are independent of each other. */
export function documentSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// ---------------------------------------------------------------------------
// The hostile alphabet

/** JavaScript/TypeScript reserved words, Object.prototype members and other names that break naive emitters. */
export const RESERVED_NAMES = [
  "class", "delete", "new", "then", "constructor", "__proto__", "prototype", "toString", "hasOwnProperty", "default", "await", "enum", "let",
  "valueOf", "function", "import", "export", "interface", "typeof", "void", "yield", "static", "super", "this", "null", "undefined", "arguments",
  "eval", "NaN", "Infinity", "async", "get", "set", "of", "in", "as", "any", "never", "unknown", "keyof", "readonly", "type", "module", "declare",
  "namespace", "require", "global", "symbol", "object", "string", "number", "boolean", "isPrototypeOf", "__defineGetter__", "toJSON", "length", "name",
];
/** Names the generated code uses itself (runtime imports, globals, generated suffixes). */
export const GENERATED_NAMES = [
  "T", "Object", "Promise", "Map", "Set", "Record", "Array", "Date", "Error", "JSON", "Symbol", "RegExp", "Check", "run", "fail", "esc", "equal", "hasOwn",
  "standard", "isObject", "callHttp", "resultChecks", "batch", "http", "rpc", "call", "build", "options", "params", "body", "headers", "signal", "fetch",
  "baseUrl", "callOptions", "pageToken", "nextPageToken", "pageSize", "items", "mocks", "validate", "ValidationError", "ApiError", "HttpOperation",
  "RpcMethod", "CallOptions", "createApiClient", "ApiClient", "API_DEFAULT_BASE_URL", "paged", "Params", "Result",
  // global and runtime types the emitted modules name
  "Blob", "ArrayBuffer", "ArrayBufferView", "Uint8Array", "NonNullable", "Omit", "Partial", "Readonly", "Awaited", "Exclude", "Extract", "Function",
  "Boolean", "Number", "BigInt", "Request", "Response", "Headers", "URL", "File", "FormData", "AbortSignal", "PromiseLike", "PagedMethod",
  "BatchResults", "BatchResult", "HttpHandler", "MockTable", "StandardSchemaV1", "ValidationResult", "ValidationIssue", "ResultChecks", "RpcCall",
];
export const DIGIT_NAMES = ["1st", "123", "0", "1e3", "0x10", "-1", "3.14", "007", "9lives", "1_000"];
export const UNICODE_NAMES = ["café", "cafe\u0301", "名前", "😀", "🎉party", "ünïcödé", "Ωmega", "naïve", "İstanbul", "ß", "ǅungla", "اسم", "שם", "a\u200db", "ﬁle", "Ⅻ", "𝒳val", "ŜtraSSe", "ⅰ"];
export const PUNCT_NAMES = [
  "a-b", "a.b", "a b", "*/", "/*", "${x}", "a\\b", 'q"uote', "it's", "back`tick", "<script>", "a/b", "a%20b", "#hash", "?q", "&amp;", "=", "a:b", "@at",
  "~tilde", "~1", "a;b", "//", "line\nbreak", "tab\there", "\u2028", "a,b", "a|b", "a[0]", "x-y_z.w", "--", "-a", "a-", "a--b", "a__b", "\\", "\"",
];
export const CASE_NAMES = ["Pet", "pet", "PET", "pET", "pet_", "Pet2", "Pets", "PetInput", "PetSchema", "isPet", "validatePet", "pet-2", "PET_", "Pet_", "pet2"];
export const EMPTYISH_NAMES = ["", " ", "_", "$", "-", "__", "$$", "0", ".", "_1", "  ", "\t", "_$"];
const PLAIN_NAMES = ["id", "name", "value", "data", "count", "kind", "status", "next", "child", "tags", "limit", "offset", "x", "y", "ok"];

const HOSTILE_POOLS = [RESERVED_NAMES, GENERATED_NAMES, DIGIT_NAMES, UNICODE_NAMES, PUNCT_NAMES, CASE_NAMES, EMPTYISH_NAMES] as const;

function anyName(r: Rng): string {
  return r.bool(0.25) ? r.pick(PLAIN_NAMES) : r.pick(r.pick(HOSTILE_POOLS));
}

/** OpenAPI and OpenRPC: component keys MUST match ^[a-zA-Z0-9.\-_]+$. */
const COMPONENT_KEY = /^[a-zA-Z0-9.\-_]+$/;
const COMPONENT_NAMES = [...new Set([...RESERVED_NAMES, ...GENERATED_NAMES, ...DIGIT_NAMES, ...PUNCT_NAMES, ...CASE_NAMES, ...EMPTYISH_NAMES, ...PLAIN_NAMES, "Node", "Tree", "A", "B", "a", "b"])].filter((n) => COMPONENT_KEY.test(n));

/** Free text for titles, summaries and descriptions: every comment and string context an emitter writes it into. */
const TEXTS = [
  "A plain description.",
  "*/ globalThis.__pwned = 'comment'; /*",
  "line one\nline two",
  "@deprecated not really\n@param x",
  "`${globalThis.__pwned = 'template'}`",
  "<!-- x --> </script>",
  "ends with a backslash \\",
  "\u2028 and \u2029 separators",
  "nul \u0000 and bell \u0007 characters",
  "emoji 😀 and 名前",
  "*/",
  "'\"`",
  "{@link x} and {@inheritDoc}",
  "/** nested */",
  "\r\nCRLF\r\n",
  "",
];

const PAGE = ["pageToken", "nextPageToken"];

/** n distinct names from `gen` (distinct by `key`). */
function distinct(r: Rng, n: number, gen: () => string, key: (s: string) => string = (s) => s): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < n && tries < n * 20; tries++) {
    const s = gen();
    if (seen.has(key(s))) continue;
    seen.add(key(s));
    out.push(s);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Schemas

type Dialect = "3.0" | "3.1" | "07";

/** Patterns with a string they match: simple, safe (no nested quantifiers), but hostile in the contexts they are written to. */
const PATTERNS: { pattern: string; sample: string; es2018?: true }[] = [
  { pattern: "^[a-z]+$", sample: "abc" },
  { pattern: "^[0-9]{3}-[0-9]{4}$", sample: "555-1234" },
  { pattern: "^0x[0-9a-fA-F]*$", sample: "0x1f" },
  { pattern: "^\\d+$", sample: "42" },
  { pattern: "[aeiou]", sample: "hat" },
  { pattern: "^(foo|bar)-\\w+$", sample: "foo-x1" },
  { pattern: "^\\p{L}+$", sample: "café", es2018: true },
  { pattern: "^[^/]*$", sample: "no-slash" },
  { pattern: "^.{2,5}$", sample: "abc" },
  { pattern: "^\\S+@\\S+$", sample: "a@b" },
  { pattern: "^\\$\\{[a-z]+\\}$", sample: "${x}" },
  { pattern: "^\\*/.*$", sample: "*/x" },
  { pattern: "^[\"'`]+$", sample: "\"'`" },
  { pattern: "^a\\/b$", sample: "a/b" },
  { pattern: "^\\\\$", sample: "\\" },
  { pattern: "^(?<year>\\d{4})$", sample: "2024", es2018: true },
  { pattern: "^[a-z]+(?=x)x$", sample: "abx" },
  { pattern: "^[A-Z][a-z]*( [A-Z][a-z]*)*$", sample: "Hello World" },
  { pattern: "^\\u00e9+$", sample: "éé" },
  { pattern: "</script>", sample: "a</script>b" },
];
const FORMATS: { format: string; type: "string" | "integer" | "number"; sample: Json }[] = [
  { format: "date", type: "string", sample: "2024-01-31" },
  { format: "date-time", type: "string", sample: "2024-01-31T12:00:00Z" },
  { format: "time", type: "string", sample: "12:00:00Z" },
  { format: "email", type: "string", sample: "a@example.com" },
  { format: "uuid", type: "string", sample: "123e4567-e89b-12d3-a456-426614174000" },
  { format: "uri", type: "string", sample: "https://example.com/x" },
  { format: "hostname", type: "string", sample: "example.com" },
  { format: "ipv4", type: "string", sample: "192.168.0.1" },
  { format: "ipv6", type: "string", sample: "::1" },
  { format: "byte", type: "string", sample: "aGk=" },
  { format: "password", type: "string", sample: "hunter2" },
  { format: "x-custom */", type: "string", sample: "anything" },
  { format: "int32", type: "integer", sample: 7 },
  { format: "int64", type: "integer", sample: 7 },
  { format: "float", type: "number", sample: 1.5 },
  { format: "double", type: "number", sample: 1.5 },
];

/** OpenAPI 3.0 patterns are ECMA-262 5.1 (no \\p{…}, no named groups); 3.1 and draft-07 take today's ECMA-262. */
function patterns(d: DocState): typeof PATTERNS {
  return d.dialect === "3.0" ? PATTERNS.filter((p) => !p.es2018) : PATTERNS;
}

/** Values for enums and consts: hostile strings, numbers, booleans, null, and now and then an object or an array. */
function enumValues(r: Rng, type: "string" | "integer" | "number" | "any"): Json[] {
  const n = r.int(1, 5);
  const gen = (): Json => {
    switch (type) {
      case "string":
        return anyName(r);
      case "integer":
        return r.pick([0, 1, -1, 2, 42, 1e15, -7, 9007199254740993, 1e21, -1e21]);
      case "number":
        return r.pick([0, 1.5, -0.25, 3, 1e-7, 100, 0.1, 1e300, 5e-324]);
      default:
        return r.weighted<Json>([[4, anyName(r)], [2, r.int(-3, 3)], [1, r.bool()], [1, null], [1, 1.5], [0.5, { k: anyName(r) }], [0.5, [1, "a"]]]);
    }
  };
  const out: Json[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n * 4 && out.length < n; i++) {
    const v = gen();
    const k = JSON.stringify(v);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(v);
  }
  return out;
}

interface SchemaPos {
  /** In-place position (the component root, allOf/anyOf/oneOf/not/if/then/else…): a `$ref` here may only point at an earlier component, so no cycle has nothing in between (JSON Schema forbids schemas that loop on every instance). */
  direct: boolean;
  /** Index of the component being built (Infinity outside components). */
  owner: number;
}

interface DocState {
  r: Rng;
  kind: DocKind;
  dialect: Dialect;
  /** `#/components/schemas/` names, in order. */
  components: string[];
  /** Schema nodes that may get a default or examples once the document is complete. */
  annotate: JsonObject[];
  /** Other things to give an example: parameters, media types, RPC examples. */
  later: (() => void)[];
  /** Refs to schemas that are not components (promoted by the IR builder): only used at non-direct positions. */
  inner: string[];
  /** Anchors of components (3.1 `$anchor`, draft-07 `$id: "#name"`), by component name. */
  anchors: Map<string, string>;
  /** Ajv over the finished document, for defaults and examples. */
  oracle?: Oracle;
}

const MAX_DEPTH = 3;

/** A ref to a component, honouring the no-direct-cycle rule. */
function refTargets(d: DocState, pos: SchemaPos): string[] {
  return pos.direct ? d.components.slice(0, Math.min(pos.owner, d.components.length)) : d.components;
}

function componentRef(name: string): string {
  return `#/components/schemas/${name}`;
}

/** A ref to a component: its pointer, or now and then its anchor (`#name`) when it has one. */
function refTo(d: DocState, name: string): string {
  const anchor = d.anchors.get(name);
  return anchor !== undefined && d.r.bool(0.6) ? `#${anchor}` : componentRef(name);
}

/** A JSON pointer token in a URI fragment: ~ and / escaped (RFC 6901), then percent-encoded (RFC 3986). */
export function fragmentToken(token: string): string {
  return encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));
}

function primitiveSchema(d: DocState, kind: "string" | "integer" | "number" | "boolean"): JsonObject {
  const r = d.r;
  const s: JsonObject = { type: kind };
  if (kind === "string") {
    const choice = r.weighted([[3, "plain"], [1, "pattern"], [1, "format"], [1, "enum"], [1, "length"], [d.dialect === "3.0" ? 0 : 0.5, "const"]] as const);
    if (choice === "pattern") s["pattern"] = r.pick(patterns(d)).pattern;
    if (choice === "format") s["format"] = r.pick(FORMATS.filter((f) => f.type === "string")).format;
    if (choice === "enum") s["enum"] = enumValues(r, "string");
    if (choice === "const") s["const"] = anyName(r);
    if (choice === "length" || (choice === "pattern" && r.bool(0.2))) {
      const min = r.int(0, 3);
      s["minLength"] = min;
      if (r.bool()) s["maxLength"] = min + r.int(0, 20);
    }
  } else if (kind === "integer" || kind === "number") {
    if (r.bool(0.3)) s["format"] = r.pick(FORMATS.filter((f) => f.type === kind)).format;
    if (r.bool(0.2)) s["enum"] = enumValues(r, kind);
    else numericBounds(d, s, kind);
  }
  return s;
}

function numericBounds(d: DocState, s: JsonObject, kind: "integer" | "number"): void {
  const r = d.r;
  const min = r.int(-10, 10);
  const max = min + r.int(1, 1000);
  if (r.bool(0.5)) {
    if (d.dialect === "3.0") {
      s["minimum"] = min;
      if (r.bool(0.4)) s["exclusiveMinimum"] = true;
    } else if (r.bool(0.4)) s["exclusiveMinimum"] = min;
    else s["minimum"] = min;
  }
  if (r.bool(0.5)) {
    if (d.dialect === "3.0") {
      s["maximum"] = max;
      if (r.bool(0.4)) s["exclusiveMaximum"] = r.bool(0.8);
    } else if (r.bool(0.4)) s["exclusiveMaximum"] = max;
    else s["maximum"] = max;
  }
  if (r.bool(0.25)) s["multipleOf"] = kind === "integer" ? r.pick([1, 2, 3, 5]) : r.pick([0.5, 0.25, 2, 0.1]);
}

/** An extension member (`x-…`): any value, refs inside it included, which are data. */
function extension(r: Rng, obj: JsonObject): void {
  put(obj, `x-${r.pick([...PUNCT_NAMES, ...RESERVED_NAMES, "avaspec-unknown", "*/"])}`, r.pick<Json>([true, 1, r.pick(TEXTS), { $ref: "#/nowhere" }, [{ "__proto__": { polluted: true } }], null]));
}

/** Members every spec allows and avaspec needs not read: extensions, external docs, XML hints. */
function noise(d: DocState, obj: JsonObject, where: "schema" | "operation" | "info" | "tag" | "other"): void {
  const r = d.r;
  if (r.bool(0.08)) extension(r, obj);
  if (d.kind === "openrpc" && where === "schema") return;
  if ((where === "operation" || where === "tag" || (where === "schema" && d.kind !== "openrpc")) && r.bool(0.05)) obj["externalDocs"] = { url: "https://example.com/docs", description: r.pick(TEXTS) };
  if (where === "schema" && d.kind !== "openrpc" && r.bool(0.04)) obj["xml"] = { name: r.pick(["item", "a-b", "x:y"]), ...(r.bool() ? { attribute: true } : {}) };
  if (where === "schema" && d.dialect === "3.1" && r.bool(0.04)) obj["$comment"] = r.pick(TEXTS);
}

/** Annotations any schema object may carry. */
function annotations(d: DocState, s: JsonObject): void {
  const r = d.r;
  if (r.bool(0.15)) s["title"] = r.pick(TEXTS);
  if (r.bool(0.2)) s["description"] = r.pick(TEXTS);
  // `deprecated` is OpenAPI (3.0) and JSON Schema 2019+ (3.1); draft-07 has no such keyword
  if (d.dialect !== "07" && r.bool(0.08)) s["deprecated"] = true;
  if (r.bool(0.12)) d.annotate.push(s);
  noise(d, s, "schema");
}

/** Any schema, at most MAX_DEPTH levels deep. */
export function schema(d: DocState, depth: number, pos: SchemaPos): Json {
  const r = d.r;
  const targets = refTargets(d, pos);
  if (d.dialect !== "3.0" && depth > 0 && r.bool(0.04)) return r.bool(0.85);
  if (targets.length > 0 && r.bool(depth === 0 ? 0.12 : 0.28)) return refSchema(d, targets);
  if (!pos.direct && d.inner.length > 0 && r.bool(0.05)) return { $ref: r.pick(d.inner) };
  const leaf = depth >= MAX_DEPTH;
  const kind = r.weighted<string>([
    [3, "string"], [2, "integer"], [1, "number"], [1, "boolean"], [1, "enum"], [0.5, "empty"],
    [d.dialect === "3.0" ? 0 : 0.5, "null"],
    [d.dialect === "3.0" ? 0 : 1, "type-array"],
    [d.dialect === "3.0" ? 1 : 0, "nullable"],
    [d.dialect === "3.0" ? 0 : 0.5, "const"],
    [leaf ? 0 : 5, "object"], [leaf ? 0 : 3, "array"], [leaf ? 0 : 1, "map"],
    [leaf ? 0 : 1, "allOf"], [leaf ? 0 : 1.5, "oneOf"], [leaf ? 0 : 1, "anyOf"], [leaf ? 0 : 0.4, "not"],
    [leaf || d.dialect === "3.0" ? 0 : 0.4, "if"],
  ]);
  let s: JsonObject;
  switch (kind) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      s = primitiveSchema(d, kind);
      break;
    case "enum":
      s = { enum: enumValues(r, "any") };
      break;
    case "empty":
      s = {};
      break;
    case "null":
      s = { type: "null" };
      break;
    case "type-array": {
      const types = r.shuffle(["string", "integer", "number", "boolean", "null", "object", "array"]).slice(0, r.int(2, 3));
      s = { type: types };
      if (types.includes("array")) s["items"] = leaf ? { type: "string" } : schema(d, depth + 1, { ...pos, direct: false });
      if (types.includes("object") && !leaf && r.bool()) s["properties"] = { [anyName(r)]: schema(d, depth + 1, { ...pos, direct: false }) };
      if (types.includes("string") && r.bool(0.3)) s["maxLength"] = r.int(1, 30);
      if ((types.includes("integer") || types.includes("number")) && r.bool(0.3)) s["minimum"] = 0;
      break;
    }
    case "nullable": {
      // OpenAPI 3.0: nullable only means something beside `type` (3.0.3/3.0.4); or beside a composition, as real documents write it
      if (!leaf && targets.length > 0 && r.bool(0.3)) {
        s = { nullable: true, allOf: [{ $ref: refTo(d, r.pick(targets)) }] };
      } else {
        s = primitiveSchema(d, r.pick(["string", "integer", "number", "boolean"] as const));
        s["nullable"] = true;
      }
      break;
    }
    case "const":
      s = { const: r.pick(enumValues(r, "any")) };
      break;
    case "object":
      s = objectSchema(d, depth, pos);
      break;
    case "map": {
      s = { type: "object", additionalProperties: schema(d, depth + 1, { ...pos, direct: false }) };
      if (d.dialect !== "3.0" && r.bool(0.4)) s["propertyNames"] = r.bool() ? { pattern: "^[a-z]+$" } : { maxLength: 10 };
      if (r.bool(0.3)) s["minProperties"] = r.int(0, 2);
      if (r.bool(0.3)) s["maxProperties"] = r.int(2, 10);
      break;
    }
    case "array":
      s = arraySchema(d, depth, pos);
      break;
    case "allOf": {
      const parts: Json[] = [];
      const n = r.int(1, 3);
      for (let i = 0; i < n; i++) parts.push(r.bool(0.5) && targets.length > 0 ? { $ref: refTo(d, r.pick(targets)) } : objectSchema(d, depth + 1, { ...pos, direct: true }, true));
      s = { allOf: parts };
      if (r.bool(0.3)) s["type"] = "object";
      break;
    }
    case "oneOf":
    case "anyOf": {
      const n = r.int(1, 4);
      const parts: Json[] = [];
      for (let i = 0; i < n; i++) parts.push(schema(d, depth + 1, { ...pos, direct: true }));
      s = { [kind]: parts };
      break;
    }
    case "not":
      s = { not: schema(d, depth + 1, { ...pos, direct: true }) };
      if (r.bool()) s["type"] = r.pick(["string", "object", "integer"]);
      break;
    default: {
      // if/then/else (3.1, draft-07)
      s = { if: { properties: { [anyName(r)]: { const: "x" } } }, then: schema(d, depth + 1, { ...pos, direct: true }) };
      if (r.bool()) s["else"] = schema(d, depth + 1, { ...pos, direct: true });
      break;
    }
  }
  annotations(d, s);
  return s;
}

function refSchema(d: DocState, targets: string[]): Json {
  const r = d.r;
  const s: JsonObject = { $ref: refTo(d, r.pick(targets)) };
  // 3.1 (JSON Schema 2020-12): $ref has siblings; OpenAPI 3.0 and draft-07 ignore them, so none there
  if (d.dialect === "3.1" && r.bool(0.3)) {
    const sib = r.weighted([[3, "description"], [1, "deprecated"], [1, "readOnly"], [1, "properties"], [1, "type"]] as const);
    if (sib === "description") s["description"] = r.pick(TEXTS);
    if (sib === "deprecated") s["deprecated"] = true;
    if (sib === "readOnly") s["readOnly"] = true;
    if (sib === "properties") s["properties"] = { [anyName(r)]: { type: "string" } };
    if (sib === "type") s["type"] = r.pick(["object", "string", "array"]);
  }
  return s;
}

function objectSchema(d: DocState, depth: number, pos: SchemaPos, forAllOf = false): JsonObject {
  const r = d.r;
  const s: JsonObject = { type: "object" };
  if (forAllOf && r.bool(0.5)) delete s["type"];
  const names = distinct(r, r.int(0, 5), () => anyName(r));
  const properties: JsonObject = {};
  const direction: Record<string, "readOnly" | "writeOnly"> = {};
  for (const name of names) {
    const child = schema(d, depth + 1, { ...pos, direct: false });
    // a property is never both readOnly and writeOnly (OpenAPI); only schema objects carry either
    if (typeof child === "object" && child !== null && !Array.isArray(child) && !("$ref" in child && d.dialect !== "3.1") && r.bool(0.12)) {
      const which = r.bool() ? "readOnly" : "writeOnly";
      if (!(child["readOnly"] === true || child["writeOnly"] === true)) {
        child[which] = true;
        put(direction, name, which);
      }
    }
    put(properties, name, child);
  }
  if (names.length > 0 || r.bool(0.7)) s["properties"] = properties;
  const required = names.filter(() => r.bool(0.45));
  // a required name without a property entry is fine in JSON Schema
  if (r.bool(0.05)) required.push(anyName(r));
  // OpenAPI 3.0's required needs at least one element
  if (required.length > 0 || (d.dialect !== "3.0" && r.bool(0.1))) s["required"] = [...new Set(required)];
  const extra = r.weighted([[4, "none"], [2, "false"], [1, "true"], [2, "schema"], [d.dialect === "3.0" ? 0 : 1, "pattern"], [d.dialect === "3.1" ? 0.5 : 0, "unevaluated"]] as const);
  if (extra === "false") s["additionalProperties"] = false;
  if (extra === "true") s["additionalProperties"] = true;
  if (extra === "schema") s["additionalProperties"] = schema(d, Math.min(depth + 1, MAX_DEPTH), { ...pos, direct: false });
  if (extra === "pattern") s["patternProperties"] = { [r.pick(patterns(d)).pattern]: schema(d, Math.min(depth + 1, MAX_DEPTH), { ...pos, direct: false }) };
  if (extra === "unevaluated") s["unevaluatedProperties"] = r.bool() ? false : { type: "string" };
  if (r.bool(0.1)) s["minProperties"] = r.int(0, 1);
  if (r.bool(0.1)) s["maxProperties"] = r.int(names.length, names.length + 5);
  if (names.length >= 2 && r.bool(0.15)) {
    if (d.dialect === "3.1") s["dependentRequired"] = { [names[0]!]: [names[1]!] };
    else if (d.dialect === "07") s["dependencies"] = { [names[0]!]: [names[1]!] };
  }
  if (names.length >= 1 && d.dialect === "3.1" && r.bool(0.05)) s["dependentSchemas"] = { [names[0]!]: { required: [names[0]!] } };
  // $defs inside the schema, referenced from a property (3.1; draft-07 calls them definitions): the IR promotes the target
  if (d.dialect !== "3.0" && pos.owner !== Infinity && depth === 0 && r.bool(0.15)) {
    const defsKey = d.dialect === "3.1" ? "$defs" : "definitions";
    const defName = anyName(r);
    s[defsKey] = { [defName]: primitiveSchema(d, "string") };
    put(properties, anyName(r) + "Def", { $ref: `${componentRef(d.components[pos.owner]!)}/${defsKey}/${fragmentToken(defName)}` });
    s["properties"] = properties;
  }
  return s;
}

function arraySchema(d: DocState, depth: number, pos: SchemaPos): JsonObject {
  const r = d.r;
  const s: JsonObject = { type: "array" };
  const tuple = d.dialect !== "3.0" && r.bool(0.15);
  const child = () => schema(d, depth + 1, { ...pos, direct: false });
  if (tuple) {
    const items = [child(), child()].slice(0, r.int(1, 2));
    if (d.dialect === "3.1") {
      s["prefixItems"] = items;
      if (r.bool()) s["items"] = r.bool() ? false : child();
    } else {
      s["items"] = items;
      if (r.bool()) s["additionalItems"] = r.bool() ? false : child();
    }
  } else s["items"] = child(); // OpenAPI 3.0: items MUST be present for type array
  if (r.bool(0.3)) s["minItems"] = r.int(0, 2);
  if (r.bool(0.3)) s["maxItems"] = r.int(2, 10);
  if (r.bool(0.2)) s["uniqueItems"] = true;
  if (d.dialect !== "3.0" && r.bool(0.1)) {
    s["contains"] = { type: "string" };
    if (d.dialect === "3.1" && r.bool()) s["minContains"] = 0;
  }
  return s;
}

/** Component schemas: a few random ones, sometimes an explicit mutual recursion and a discriminated union. */
function componentSchemas(d: DocState): JsonObject {
  const r = d.r;
  const names = distinct(r, r.int(0, 6), () => r.pick(COMPONENT_NAMES));
  d.components = names;
  const out: JsonObject = {};
  // anchors (3.1 and draft-07), declared before any schema is built so refs can use them; plain names (^[A-Za-z][-A-Za-z0-9._]*$)
  if (d.dialect !== "3.0") names.forEach((name, i) => r.bool(0.3) && d.anchors.set(name, r.pick(["node", "Pet", "pet", "a.b-c", "x_1", "Then", "constructor", "__x"]).replace(/^_+/, "a") + i));
  names.forEach((name, i) => {
    const s = schema(d, 0, { direct: true, owner: i });
    // component roots get a default or example more often: the property test checks their validators against them
    if (isObj(s) && !("$ref" in s) && !d.annotate.includes(s) && r.bool(0.5)) d.annotate.push(s);
    const anchor = d.anchors.get(name);
    if (anchor === undefined) return put(out, name, s);
    // draft-07 ignores every sibling of $ref, $id too: such a component is wrapped in allOf
    const holder: JsonObject = isObj(s) && !(d.dialect === "07" && "$ref" in s) ? s : { allOf: [s] };
    if (d.dialect === "3.1") holder["$anchor"] = anchor;
    else holder["$id"] = `#${anchor}`;
    put(out, name, holder);
  });
  // mutual recursion A → B → A through a property and array items
  if (r.bool(0.4)) {
    const [a, b] = distinct(r, 2, () => r.pick(COMPONENT_NAMES)).filter((n) => !names.includes(n));
    if (a && b) {
      d.components.push(a, b);
      put(out, a, { type: "object", properties: { [anyName(r)]: { $ref: componentRef(b) }, [anyName(r) + "s"]: { type: "array", items: { $ref: componentRef(a) } } }, ...(r.bool(0.2) ? { required: [] as Json[] } : {}) });
      put(out, b, { type: "array", items: { $ref: componentRef(a) } });
      if (r.bool(0.5)) put(out, b, { type: "object", properties: { back: { $ref: componentRef(a) } }, required: ["back"] });
      if (d.dialect === "3.0" && Array.isArray((out[a] as JsonObject)["required"])) delete (out[a] as JsonObject)["required"];
    }
  }
  if (d.kind !== "openrpc" && r.bool(0.35)) discriminated(d, out);
  return out;
}

/** `oneOf`/`anyOf` of component refs with a discriminator: each variant an object whose discriminating property is a required string. */
function discriminated(d: DocState, out: JsonObject): void {
  const r = d.r;
  const fresh = distinct(r, r.int(3, 5), () => r.pick(COMPONENT_NAMES)).filter((n) => !d.components.includes(n));
  if (fresh.length < 3) return;
  const [union, ...variants] = fresh;
  const property = anyName(r);
  const mapping: JsonObject = {};
  for (const v of variants) {
    const explicit = r.bool(0.5);
    // implicit mapping: the value is the component name
    const value = explicit ? anyName(r) : v;
    if (explicit) {
      if (Object.keys(mapping).includes(value)) continue;
      put(mapping, value, r.bool() ? componentRef(v) : v);
    }
    const props: JsonObject = { [property]: { type: "string", ...(r.bool(0.7) ? { enum: [value] } : {}) } };
    for (const extra of distinct(r, r.int(0, 2), () => anyName(r))) if (extra !== property) put(props, extra, primitiveSchema(d, r.pick(["string", "integer", "boolean"] as const)));
    put(out, v, { type: "object", properties: props, required: [property] });
    d.components.push(v);
  }
  const members = variants.filter((v) => Object.hasOwn(out, v)).map((v) => ({ $ref: componentRef(v) }));
  const disc: JsonObject = { propertyName: property };
  if (Object.keys(mapping).length > 0) disc["mapping"] = mapping;
  put(out, union!, { [r.bool(0.7) ? "oneOf" : "anyOf"]: members, discriminator: disc });
  d.components.push(union!);
}

// ---------------------------------------------------------------------------
// Samples: values for defaults and examples, accepted only when Ajv agrees

const NONE = Symbol("none");
type Sample = Json | typeof NONE;

/** Sets an own property, whatever the key (`obj["__proto__"] = v` would set the prototype instead). */
function put(obj: JsonObject, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObj(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function decodePointer(root: Json, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  if (ref.length > 1 && ref[1] !== "/") return findAnchor(root, decodeURIComponent(ref.slice(1)));
  let cur: Json | undefined = root;
  for (const raw of decodeURIComponent(ref.slice(1)).split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur)) cur = cur[Number(token)];
    else if (isObj(cur)) cur = Object.prototype.hasOwnProperty.call(cur, token) ? cur[token] : undefined;
    else return undefined;
  }
  return cur;
}

/** Members whose keys are names (a property may be called "default"), so none of them is a keyword. */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas", "parameters", "responses", "requestBodies", "headers", "securitySchemes", "examples", "dependentSchemas", "dependencies", "encoding", "content", "paths", "mapping", "contentDescriptors", "errors"]);
const DATA = new Set(["enum", "const", "default", "example", "value"]);

/** The schema with `$anchor: name` (or draft-07 `$id: "#name"`), not looking into data (examples, defaults…). */
export function findAnchor(root: Json, name: string): Json | undefined {
  const stack: { v: Json; inNames: boolean }[] = [{ v: root, inNames: false }];
  while (stack.length > 0) {
    const { v, inNames } = stack.pop()!;
    if (Array.isArray(v)) stack.push(...v.map((x) => ({ v: x, inNames: false })));
    else if (isObj(v)) {
      if (!inNames && (v["$anchor"] === name || v["$id"] === `#${name}`)) return v;
      for (const [k, x] of Object.entries(v)) if (inNames || !(DATA.has(k) || (k === "examples" && Array.isArray(x)))) stack.push({ v: x, inNames: !inNames && NAME_MAPS.has(k) });
    }
  }
  return undefined;
}

function trimLength(s: string, min: number | undefined, max: number | undefined): string {
  let cps = Array.from(s);
  while (min !== undefined && cps.length < min) cps.push("a");
  if (max !== undefined && cps.length > max) cps = cps.slice(0, max);
  return cps.join("");
}

function sample(r: Rng, root: Json, s: Json | undefined, depth: number): Sample {
  if (s === undefined || s === true) return r.pick<Json>(["x", 1, true, null]);
  if (s === false || depth > 6) return NONE;
  if (!isObj(s)) return NONE;
  if ("const" in s) return s["const"]!;
  if (Array.isArray(s["enum"])) return r.pick(s["enum"]);
  if (typeof s["$ref"] === "string") return sample(r, root, decodePointer(root, s["$ref"]), depth + 1);
  if (Array.isArray(s["allOf"])) {
    const parts = s["allOf"].map((p) => sample(r, root, p, depth + 1));
    if (parts.includes(NONE)) return NONE;
    if (parts.every(isObj)) return Object.assign({}, ...(parts as JsonObject[]));
    return parts[0] ?? NONE;
  }
  for (const k of ["oneOf", "anyOf"] as const) if (Array.isArray(s[k]) && s[k].length > 0) return sample(r, root, r.pick(s[k]), depth + 1);
  if (s["nullable"] === true && r.bool(0.2)) return null;
  const declared = s["type"];
  const types = Array.isArray(declared) ? (declared as string[]) : typeof declared === "string" ? [declared] : s["properties"] ? ["object"] : s["items"] || s["prefixItems"] ? ["array"] : s["pattern"] || s["format"] ? ["string"] : ["string", "integer", "boolean"];
  const t = r.pick(types);
  const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
  switch (t) {
    case "null":
      return null;
    case "boolean":
      return r.bool();
    case "integer":
    case "number": {
      const fmt = FORMATS.find((f) => f.format === s["format"] && f.type !== "string");
      let lo = num("minimum") ?? (typeof s["exclusiveMinimum"] === "number" ? s["exclusiveMinimum"] + 1 : -5);
      if (s["exclusiveMinimum"] === true) lo += 1;
      let v = fmt && r.bool() ? (fmt.sample as number) : lo + r.int(0, 5);
      const m = num("multipleOf");
      if (m) v = Math.ceil(v / m) * m;
      return v;
    }
    case "string": {
      const p = PATTERNS.find((x) => x.pattern === s["pattern"]);
      if (p) return p.sample;
      const f = FORMATS.find((x) => x.format === s["format"] && x.type === "string");
      if (f) return f.sample;
      return trimLength(anyName(r), num("minLength"), num("maxLength"));
    }
    case "array": {
      const out: Json[] = [];
      const prefix = Array.isArray(s["prefixItems"]) ? s["prefixItems"] : Array.isArray(s["items"]) ? s["items"] : [];
      for (const p of prefix) {
        const v = sample(r, root, p, depth + 1);
        if (v === NONE) return out.length >= (num("minItems") ?? 0) ? out : NONE;
        out.push(v);
      }
      const items = Array.isArray(s["items"]) ? s["additionalItems"] : prefix.length > 0 ? s["items"] : s["items"];
      const n = Math.max(num("minItems") ?? 0, prefix.length > 0 ? 0 : r.int(0, 2)) - out.length;
      for (let i = 0; i < n; i++) {
        const v = sample(r, root, items as Json, depth + 1);
        if (v === NONE) return NONE;
        out.push(v);
      }
      return out;
    }
    default: {
      const out: JsonObject = {};
      const props = isObj(s["properties"]) ? s["properties"] : {};
      const required = Array.isArray(s["required"]) ? (s["required"] as string[]) : [];
      for (const [k, v] of Object.entries(props)) {
        if (!required.includes(k) && r.bool(0.5)) continue;
        const x = sample(r, root, v, depth + 1);
        if (x === NONE) {
          if (required.includes(k)) return NONE;
          continue;
        }
        put(out, k, x);
      }
      for (const k of required) if (!Object.hasOwn(out, k)) put(out, k, "x");
      return out;
    }
  }
}

/** OpenAPI 3.0 schema → JSON Schema 2020-12, for Ajv (nullable, boolean exclusive bounds, example). */
function from30(s: Json): Json {
  if (Array.isArray(s)) return s.map(from30);
  if (!isObj(s)) return s;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "properties" && isObj(v)) put(out, k, Object.fromEntries(Object.entries(v).map(([p, x]) => [p, from30(x)])));
    else if (["items", "additionalProperties", "not", "allOf", "oneOf", "anyOf"].includes(k)) put(out, k, from30(v));
    else if (!["nullable", "example", "discriminator", "exclusiveMinimum", "exclusiveMaximum"].includes(k)) put(out, k, v);
  }
  for (const [ex, base] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (s[ex] === true && typeof s[base] === "number") {
      put(out, ex, s[base]);
      delete out[base];
    }
  }
  if (s["nullable"] === true) {
    if (typeof out["type"] === "string") {
      put(out, "type", [out["type"], "null"]);
      if (Array.isArray(out["enum"]) && !out["enum"].includes(null)) put(out, "enum", [...out["enum"], null]);
    } else if (out["type"] === undefined) return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

/**
 * Named divergence AVASPEC_ONE_WAY_REQUIRED (reported, not fixed): avaspec's
 * one validator serves requests and responses, so a required readOnly or
 * writeOnly property is not required there (generator/ir/schema.ts, after
 * OpenAPI 3.0's "required takes effect on the response only"). JSON Schema
 * (3.1, draft-07) keeps it required, and the two disagree under oneOf and
 * not: `oneOf: [{required: [ro]}, {}]` accepts `{}` in JSON Schema and not
 * in avaspec. The oracle takes avaspec's reading, so only values valid under
 * both are attached and checked.
 */
function oneWayNotRequired(s: Json): Json {
  if (Array.isArray(s)) return s.map(oneWayNotRequired);
  if (!isObj(s)) return s;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) put(out, k, DATA.has(k) || (k === "examples" && Array.isArray(v)) ? v : oneWayNotRequired(v));
  const props = isObj(s["properties"]) ? s["properties"] : {};
  const oneWay = Object.entries(props).filter(([, p]) => isObj(p) && (p["readOnly"] === true || p["writeOnly"] === true)).map(([k]) => k);
  if (Array.isArray(out["required"]) && oneWay.length > 0) put(out, "required", out["required"].filter((r) => !oneWay.includes(r as string)));
  return out;
}

/**
 * Works around an Ajv bug (AJV_PREFIX_ITEMS_CONTAINS): beside `prefixItems`,
 * Ajv 8's `contains` accepts an array no longer than the prefix, even empty
 * (`{prefixItems: [{}], contains: {}}` accepts `[]`). `contains` moved into
 * an `allOf` member means the same and Ajv checks it there.
 */
function containsApart(s: Json): Json {
  if (Array.isArray(s)) return s.map(containsApart);
  if (!isObj(s)) return s;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) put(out, k, DATA.has(k) || (k === "examples" && Array.isArray(v)) ? v : containsApart(v));
  if (!("contains" in out) || !("prefixItems" in out)) return out;
  const apart: JsonObject = {};
  for (const k of ["contains", "minContains", "maxContains"]) if (k in out) (put(apart, k, out[k]!), delete out[k]);
  put(out, "allOf", [...(Array.isArray(out["allOf"]) ? out["allOf"] : []), apart]);
  return out;
}

/**
 * Schemas Ajv 8 judges wrongly, so the oracle gives no verdict (no sample)
 * for a document that has them:
 * - AJV_EMPTY_PROPERTY_NAME: a required property named "" is ignored
 *   (`{required: [""]}` accepts `{}`, also through dependencies and
 *   dependentRequired);
 * - AJV_NESTED_CONTAINS: `contains` applied to several items of an array
 *   passes for all once one passed (`{items: {contains: {type: "string"}}}`
 *   accepts `[["x"], []]`); any `contains` in the document, since refs can
 *   put one under `items`;
 * - AJV_PROTO_PROPERTY: a property named `__proto__` is not checked
 *   (`{properties: {__proto__: {type: "string"}}}` accepts
 *   `{"__proto__": -3}`, parsed by JSON.parse as an own property), found by
 *   seed 1149627048, where avaspec's validator rightly refused such a default.
 */
function ajvCannotJudge(s: Json, inNames = false): boolean {
  if (Array.isArray(s)) return s.some((x) => ajvCannotJudge(x));
  if (!isObj(s)) return false;
  if (inNames) return Object.hasOwn(s, "__proto__") || Object.values(s).some((x) => ajvCannotJudge(x));
  if (Array.isArray(s["required"]) && s["required"].includes("")) return true;
  for (const k of ["dependencies", "dependentRequired"]) {
    const deps = s[k];
    if (isObj(deps) && Object.entries(deps).some(([name, v]) => name === "" || (Array.isArray(v) && v.includes("")))) return true;
  }
  if ("contains" in s) return true;
  return Object.entries(s).some(([k, v]) => !(DATA.has(k) || (k === "examples" && Array.isArray(v))) && ajvCannotJudge(v, NAME_MAPS.has(k)));
}

/** The base URI Ajv knows the document's components by. */
const DOC_ID = "https://avaspec.test/document.json";

/** Ajv over one document: does `value` validate against `schema` (refs into the document's components)? */
class Oracle {
  private readonly ajv: Ajv.default | Ajv2020;
  constructor(
    private readonly doc: JsonObject,
    private readonly dialect: Dialect,
  ) {
    // ownProperties: a property named valueOf or constructor is not the instance's inherited member
    const options = { strict: false, logger: false, validateFormats: false, validateSchema: false, ownProperties: true } as const;
    this.ajv = dialect === "07" ? new Ajv.default(options) : new Ajv2020(options);
  }
  private added = false;
  private noVerdict: boolean | undefined;
  private readonly compiled = new Map<string, (value: unknown) => unknown>();
  accepts(schema: Json, value: Json): boolean {
    if ((this.noVerdict ??= ajvCannotJudge(this.doc["components"] ?? null)) || ajvCannotJudge(schema)) return false;
    const convert = (x: Json) => containsApart(oneWayNotRequired(this.dialect === "3.0" ? from30(x) : x));
    try {
      if (!this.added) {
        const components = isObj(this.doc["components"]) ? this.doc["components"] : {};
        const schemas = isObj(components["schemas"]) ? components["schemas"] : {};
        this.ajv.addSchema({ $id: DOC_ID, components: { schemas: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, convert(v)])) } } as object);
        this.added = true;
      }
      const text = JSON.stringify(convert(schema)).replace(/"\$ref":"#/g, `"$ref":"${DOC_ID}#`);
      let validate = this.compiled.get(text);
      if (!validate) this.compiled.set(text, (validate = this.ajv.compile(JSON.parse(text) as object)));
      return validate(value) as boolean;
    } catch {
      return false;
    }
  }
}

/**
 * The defaults and examples of component schemas that Ajv does not accept
 * (the generator attaches only accepted ones; a shrunk document must keep
 * them accepted, or a validator that rejects one would be right to).
 */
export function rejectedSamples(doc: JsonObject, kind: DocKind): string[] {
  const oracle = new Oracle(doc, kind === "openrpc" ? "07" : kind === "openapi-3.0" ? "3.0" : "3.1");
  const schemas = isObj(doc["components"]) && isObj(doc["components"]["schemas"]) ? doc["components"]["schemas"] : {};
  const out: string[] = [];
  for (const [name, s] of Object.entries(schemas)) {
    if (!isObj(s)) continue;
    const values = [...("default" in s ? [s["default"]!] : []), ...("example" in s ? [s["example"]!] : []), ...(Array.isArray(s["examples"]) ? s["examples"] : [])];
    for (const v of values) if (!oracle.accepts(s, v)) out.push(`#/components/schemas/${name}: ${JSON.stringify(v)?.slice(0, 80)} is not valid`);
  }
  return out;
}

/** A value for a schema that Ajv accepts, or NONE after a few tries. */
function validSample(d: DocState, oracle: Oracle, root: JsonObject, s: Json): Sample {
  for (let i = 0; i < 3; i++) {
    const v = sample(d.r, root, s, 0);
    if (v !== NONE && oracle.accepts(s, v)) return v;
  }
  return NONE;
}

/** Defaults and examples on the schema nodes that asked for one. */
function annotateSamples(d: DocState, doc: JsonObject): void {
  const oracle = new Oracle(doc, d.dialect);
  for (const s of d.annotate) {
    const v = validSample(d, oracle, doc, s);
    if (v === NONE) continue;
    if (d.r.bool()) s["default"] = v;
    else if (d.dialect === "3.0") s["example"] = v;
    else s["examples"] = [v];
  }
  d.oracle = oracle;
  for (const f of d.later) f();
}

function exampleFor(d: DocState, doc: JsonObject, s: Json): Sample {
  return validSample(d, d.oracle!, doc, s);
}

// ---------------------------------------------------------------------------
// OpenAPI

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** Methods for 3.2's additionalOperations: WebDAV's and others Node's HTTP parser knows (a method it does not know, it answers 400). */
const EXTRA_METHODS = ["COPY", "MOVE", "LOCK", "UNLOCK", "PURGE", "SEARCH", "MKCOL", "PROPFIND", "REPORT", "LINK"];

/** 3.2 tags: some with a parent among the earlier ones (so never a cycle), a kind, a summary. */
function hierarchicalTags(r: Rng, names: string[]): JsonObject[] {
  return names.map((name, i) => ({
    name,
    ...(i > 0 && r.bool(0.6) ? { parent: names[r.int(0, i - 1)]! } : {}),
    ...(r.bool(0.5) ? { kind: r.pick(["nav", "badge", "audience"]) } : {}),
    ...(r.bool(0.5) ? { summary: r.pick(TEXTS) } : {}),
  }));
}
/** Path segments: RFC 3986 pchar only (OpenAPI 3.1.1 path templating ABNF: path-literal = 1*pchar). */
const LITERALS = ["pets", "items", "a-b", "a.b", "~x", "caf%C3%A9", "%E5%90%8D", "@me", "a:b", "1st", "$x", "a!b", "a'b", "a(b)", "a*b", "a+b", "a,b", "a;b", "a=b", "v1", "_", "-", "class", "__proto__", "constructor", "then", ".well-known", "x%2Fy"];

/** Template parameter names: anything but { and } (OpenAPI 3.1.1 ABNF). "/" is left out too: a name holding one would make the segments ambiguous. */
function templateName(r: Rng): string {
  for (;;) {
    const n = anyName(r);
    if (n !== "" && !/[{}/]/.test(n)) return n;
  }
}

interface ParamSpec {
  name: string;
  in: "path" | "query" | "header" | "cookie";
}

function paramSchema(d: DocState, shape: "primitive" | "array" | "object"): JsonObject {
  const r = d.r;
  const prim = () => {
    const s = primitiveSchema(d, r.pick(["string", "string", "integer", "number", "boolean"] as const));
    if (d.r.bool(0.2)) d.annotate.push(s);
    return s;
  };
  if (shape === "array") return { type: "array", items: prim(), ...(r.bool(0.2) ? { minItems: 1 } : {}) };
  if (shape === "object") {
    const props: JsonObject = {};
    for (const k of distinct(r, r.int(1, 3), () => anyName(r))) put(props, k, prim());
    return { type: "object", properties: props };
  }
  return prim();
}

/** A parameter object: style, explode and schema as the style table of the spec allows them for its location. */
function parameter(d: DocState, doc: JsonObject, p: ParamSpec): JsonObject {
  const r = d.r;
  const out: JsonObject = { name: p.name, in: p.in };
  if (p.in === "path" || r.bool(0.4)) put(out, "required", true);
  let shape: "primitive" | "array" | "object" = r.weighted([[5, "primitive"], [2, "array"], [1, "object"]] as const);
  if (p.in === "path") {
    const style = r.pick(["simple", "simple", "label", "matrix"]);
    if (style !== "simple" || r.bool(0.3)) put(out, "style", style);
    if (r.bool(0.4)) put(out, "explode", r.bool());
  } else if (p.in === "query") {
    const style = r.weighted([[4, "form"], [1, "spaceDelimited"], [1, "pipeDelimited"], [1, "deepObject"]] as const);
    if (style === "deepObject") {
      shape = "object";
      put(out, "style", style);
      put(out, "explode", true);
    } else if (style !== "form") {
      // space- and pipe-delimited: arrays and objects, explode false (the spec's style table)
      if (shape === "primitive") shape = "array";
      put(out, "style", style);
      if (r.bool()) put(out, "explode", false);
    } else {
      if (r.bool(0.3)) put(out, "style", "form");
      if (r.bool(0.4)) put(out, "explode", r.bool());
    }
    if (r.bool(0.1)) put(out, "allowReserved", true);
    if (r.bool(0.05)) put(out, "allowEmptyValue", true);
  } else if (p.in === "header") {
    if (r.bool(0.2)) put(out, "style", "simple");
    if (r.bool(0.3)) put(out, "explode", r.bool());
  } else {
    if (r.bool(0.2)) put(out, "style", "form");
    if (r.bool(0.3)) put(out, "explode", r.bool());
  }
  if (r.bool(0.2)) put(out, "description", r.pick(TEXTS));
  if (r.bool(0.08)) put(out, "deprecated", true);
  const schemaNode: Json = shape === "primitive" && r.bool(0.15) && d.components.length > 0 && p.in !== "path" ? { $ref: refTo(d, r.pick(d.components)) } : paramSchema(d, shape);
  if (p.in !== "path" && !out["style"] && out["explode"] === undefined && !out["allowReserved"] && r.bool(0.08)) {
    // a parameter may be described by `content` (one media type) instead of a schema
    put(out, "content", { "application/json": { schema: schemaNode } });
  } else put(out, "schema", schemaNode);
  if (r.bool(0.25)) {
    d.later.push(() => {
      const v = exampleFor(d, doc, schemaNode);
      if (v === NONE) return;
      if (r.bool()) put(out, "example", v);
      else put(out, "examples", { [r.pick(COMPONENT_NAMES)]: { value: v, summary: r.pick(TEXTS) } });
    });
  }
  return out;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

function binarySchema(d: DocState): JsonObject {
  // OpenAPI 3.0: format binary; 3.1: contentMediaType (format binary still reads the same)
  return d.dialect === "3.0" || d.r.bool(0.3) ? { type: "string", format: "binary" } : { type: "string", contentMediaType: d.r.pick(["application/octet-stream", "image/png"]) };
}

function mediaSchema(d: DocState, type: string): Json | undefined {
  const r = d.r;
  if (/json/.test(type)) return schema(d, 0, { direct: false, owner: Infinity });
  if (FORM_TYPES.includes(type)) {
    const props: JsonObject = {};
    for (const k of distinct(r, r.int(0, 4), () => anyName(r))) {
      put(props, k, type === "multipart/form-data" && r.bool(0.4) ? (r.bool(0.8) ? binarySchema(d) : { type: "array", items: binarySchema(d) }) : paramSchema(d, r.weighted([[4, "primitive"], [1, "array"]] as const)));
    }
    const s: JsonObject = { type: "object", properties: props };
    const req = Object.keys(props).filter(() => r.bool(0.4));
    if (req.length > 0) s["required"] = req;
    return s;
  }
  if (type.startsWith("text/")) return r.bool(0.8) ? { type: "string", ...(r.bool(0.2) ? { maxLength: 100 } : {}) } : undefined;
  // bytes: octet-stream, images
  return r.bool(0.7) ? binarySchema(d) : d.dialect === "3.1" && r.bool() ? {} : undefined;
}

function mediaObject(d: DocState, doc: JsonObject, type: string): JsonObject {
  const r = d.r;
  const out: JsonObject = {};
  const s = mediaSchema(d, type);
  if (s !== undefined) put(out, "schema", s);
  if (s !== undefined && /json/.test(type) && r.bool(0.3)) {
    d.later.push(() => {
      const v = exampleFor(d, doc, s);
      if (v === NONE) return;
      if (r.bool()) put(out, "example", v);
      else put(out, "examples", { [anyName(r) || "e"]: { value: v } });
    });
  }
  if (type === "multipart/form-data" && isObj(s) && isObj(s["properties"]) && Object.keys(s["properties"]).length > 0 && r.bool(0.3)) {
    put(out, "encoding", { [r.pick(Object.keys(s["properties"]))]: { contentType: r.pick(["image/png", "application/json", "text/plain"]) } });
  }
  return out;
}

const REQUEST_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data", "application/octet-stream", "text/plain", "application/merge-patch+json", "application/vnd.api+json", "image/png"];
const RESPONSE_TYPES = ["application/json", "application/json", "text/plain", "application/octet-stream", "application/problem+json", "image/png", "application/xml", "text/csv", "text/html; charset=utf-8"];
const STATUSES = ["200", "200", "201", "202", "204", "206", "2XX", "301", "304", "400", "401", "403", "404", "409", "422", "429", "4XX", "500", "503", "5XX", "default"];

function requestBody(d: DocState, doc: JsonObject): JsonObject {
  const r = d.r;
  const types = r.shuffle(REQUEST_TYPES).slice(0, r.weighted([[5, 1], [2, 2], [1, 3]] as const));
  const body: JsonObject = { content: Object.fromEntries(types.map((t) => [t, mediaObject(d, doc, t)])) };
  if (r.bool(0.6)) body["required"] = true;
  if (r.bool(0.2)) body["description"] = r.pick(TEXTS);
  return body;
}

function response(d: DocState, doc: JsonObject, status: string): JsonObject {
  const r = d.r;
  const out: JsonObject = { description: r.pick(TEXTS) };
  if (status === "204" || status === "304") return out;
  const n = r.weighted([[1, 0], [5, 1], [1, 2]] as const);
  const types = [...new Set(Array.from({ length: n }, () => r.pick(RESPONSE_TYPES)))];
  if (types.length > 0) put(out, "content", Object.fromEntries(types.map((t) => [t, mediaObject(d, doc, t)])));
  if (r.bool(0.15)) put(out, "headers", { [templateName(r)]: { schema: primitiveSchema(d, "integer"), description: r.pick(TEXTS) } });
  return out;
}

/** Paths: literal pchar segments and template expressions, none identical up to template names (OpenAPI). */
function paths(d: DocState): { path: string; params: string[] }[] {
  const r = d.r;
  const out: { path: string; params: string[] }[] = [];
  const shapes = new Set<string>();
  const n = r.int(1, 5);
  for (let i = 0; i < n * 3 && out.length < n; i++) {
    if (r.bool(0.05)) {
      if (!shapes.has("/")) (shapes.add("/"), out.push({ path: "/", params: [] }));
      continue;
    }
    const params: string[] = [];
    const segs: string[] = [];
    for (let k = r.int(1, 3); k > 0; k--) {
      if (r.bool(0.4)) {
        const name = templateName(r);
        if (params.includes(name)) continue;
        params.push(name);
        const mixed = r.bool(0.1);
        segs.push(mixed ? `${r.pick(["v", "x-", "a."])}{${name}}` : `{${name}}`);
      } else segs.push(r.pick(LITERALS));
    }
    if (segs.length === 0) continue;
    const path = "/" + segs.join("/") + (r.bool(0.05) ? "/" : "");
    const shape = path.replace(/\{[^}]*\}/g, "{}");
    if (shapes.has(shape)) continue;
    shapes.add(shape);
    out.push({ path, params });
  }
  return out;
}

/**
 * Constructs left out because avaspec refuses them on purpose, though the
 * specification allows them (reported, not fixed). Only these are left out.
 *
 * - AVASPEC_BLANK_OPERATION_ID: an operationId that is empty or only
 *   whitespace ("", " ", "\t") is an error (operation/id), though OpenAPI
 *   only asks for a unique string.
 */
export const AVASPEC_EXCLUSIONS = {
  AVASPEC_BLANK_OPERATION_ID: (operationId: string) => operationId.trim() === "",
};

function operationIds(r: Rng, n: number): string[] {
  return distinct(r, n, () => (r.bool(0.2) ? `${anyName(r)}_${anyName(r)}` : anyName(r))).filter((s) => !AVASPEC_EXCLUSIONS.AVASPEC_BLANK_OPERATION_ID(s));
}

export function openApiDocument(seed: number, spec: "3.0" | "3.1" | "3.2"): JsonObject {
  const r = new Rng(seed);
  // 3.2 reads schemas as 3.1 does (JSON Schema 2020-12); what it adds is in its path items, tags and $self
  const is32 = spec === "3.2";
  const version = is32 ? "3.1" : spec;
  const d: DocState = { r, kind: `openapi-${spec}`, dialect: version, components: [], annotate: [], later: [], inner: [], anchors: new Map() };
  const doc: JsonObject = {
    openapi: spec === "3.0" ? r.pick(["3.0.0", "3.0.3", "3.0.4"]) : is32 ? r.pick(["3.2.0", "3.2.0"]) : r.pick(["3.1.0", "3.1.1"]),
    info: { title: r.pick(TEXTS) || "API", version: r.pick(["1.0.0", "2.1.3-beta.1", "0.0.1", "2024-01-01", "v2", "1.0.0\"; x", "名前"]), ...(r.bool(0.3) ? { description: r.pick(TEXTS) } : {}) },
  };
  if (r.bool(0.7)) {
    doc["servers"] = [
      r.pick<Json>([
        { url: "https://api.example.com/v1" },
        { url: "/relative/base" },
        { url: "https://{host}.example.com/{base}", variables: { host: { default: "api", enum: ["api", "sandbox"] }, base: { default: "v1" } } },
        { url: "http://localhost:8080", description: r.pick(TEXTS) },
      ]),
    ];
  }
  const components: JsonObject = {};
  const schemas = componentSchemas(d);
  if (Object.keys(schemas).length > 0) components["schemas"] = schemas;
  // refs into component schemas (promoted to names of their own by the IR), with escaped pointer tokens
  if (d.dialect === "3.1") {
    for (const [name, s] of Object.entries(schemas)) {
      if (isObj(s) && isObj(s["properties"])) for (const p of Object.keys(s["properties"])) if (r.bool(0.3)) d.inner.push(`${componentRef(name)}/properties/${fragmentToken(p)}`);
    }
  }
  // security: apiKey schemes, used document-wide or per operation
  const schemes: string[] = [];
  if (r.bool(0.3)) {
    const sec: JsonObject = {};
    for (const key of distinct(r, r.int(1, 2), () => r.pick(COMPONENT_NAMES))) {
      put(sec, key, r.bool(0.85) ? { type: "apiKey", name: templateName(r), in: r.pick(["header", "query", "cookie"]), ...(r.bool(0.3) ? { description: r.pick(TEXTS) } : {}) } : { type: "http", scheme: "bearer" });
      schemes.push(key);
    }
    components["securitySchemes"] = sec;
    if (r.bool(0.5)) doc["security"] = [{ [r.pick(schemes)]: [] }, ...(r.bool(0.3) ? [{}] : [])];
  }
  const sharedParams: JsonObject = {};
  const sharedResponses: JsonObject = {};
  const sharedBodies: JsonObject = {};
  const pathItems: JsonObject = {};
  const allPaths = paths(d);
  const ids = operationIds(r, allPaths.length * 3);
  const tagNames = is32 && r.bool(0.4) ? distinct(r, r.int(1, 4), () => anyName(r)) : [];
  for (const { path, params } of allPaths) {
    const item: JsonObject = {};
    const methods: string[] = r.shuffle<string>(is32 ? [...HTTP_METHODS, "query"] : [...HTTP_METHODS]).slice(0, r.weighted([[5, 1], [3, 2], [1, 3]] as const));
    // 3.2: any other method under additionalOperations, keyed as it is sent (those Node's HTTP parser knows, so the mock server can answer them)
    const additional = is32 && r.bool(0.3) ? distinct(r, r.int(1, 2), () => r.pick(EXTRA_METHODS)) : [];
    // path parameters at the path item (shared by its operations) or on each operation
    const atItem = r.bool(0.3);
    const pathParams = () => params.map((name) => parameter(d, doc, { name, in: "path" }));
    if (atItem && params.length > 0) item["parameters"] = pathParams();
    for (const method of [...methods, ...additional]) {
      const op: JsonObject = {};
      if (r.bool(0.85) && ids.length > 0) op["operationId"] = ids.pop()!;
      if (r.bool(0.3)) op["summary"] = r.pick(TEXTS);
      if (r.bool(0.2)) op["description"] = r.pick(TEXTS);
      if (r.bool(0.3)) op["tags"] = tagNames.length > 0 ? distinct(r, r.int(1, tagNames.length), () => r.pick(tagNames)) : distinct(r, r.int(1, 3), () => anyName(r));
      if (r.bool(0.08)) op["deprecated"] = true;
      if (schemes.length > 0 && r.bool(0.4)) op["security"] = r.bool(0.8) ? [{ [r.pick(schemes)]: [] }] : [];
      if (r.bool(0.04)) op["x-avaspec-idempotent"] = r.bool();
      const list: Json[] = atItem ? [] : pathParams();
      // other parameters: (name, in) unique; header names are case-insensitive (RFC 9110), so unique ignoring case there
      const taken = new Set(params.map((p) => `path:${p}`));
      const paging = r.bool(0.08);
      if (paging) {
        list.push({ name: "pageToken", in: "query", schema: { type: "string" } });
        taken.add("query:pageToken");
        if (r.bool()) (list.push({ name: "pageSize", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } }), taken.add("query:pageSize"));
      }
      for (let k = r.weighted([[2, 0], [3, 1], [2, 2], [1, 4]] as const); k > 0; k--) {
        const where = r.pick(["query", "query", "header", "cookie"] as const);
        const name = r.bool(0.1) ? r.pick(PAGE) : anyName(r);
        const key = `${where}:${where === "header" ? name.toLowerCase() : name}`;
        if (taken.has(key)) continue;
        taken.add(key);
        const p = parameter(d, doc, { name, in: where });
        if (r.bool(0.1)) {
          const id = r.pick(COMPONENT_NAMES);
          if (!Object.hasOwn(sharedParams, id)) {
            put(sharedParams, id, p);
            list.push({ $ref: `#/components/parameters/${id}` });
            continue;
          }
        }
        list.push(p);
      }
      // a path-item parameter overridden by the operation (same name and location)
      if (atItem && params.length > 0 && r.bool(0.2)) list.push(parameter(d, doc, { name: r.pick(params), in: "path" }));
      if (list.length > 0) op["parameters"] = list;
      // OpenAPI 3.0: request bodies only where RFC 7231 defines body semantics (POST, PUT, PATCH); 3.1 allows them anywhere
      const bodyOk = ["post", "put", "patch"].includes(method) || (version === "3.1" && method === "delete") || (is32 && (method === "query" || additional.includes(method)));
      if (bodyOk && r.bool(0.7)) {
        const body = requestBody(d, doc);
        const id = r.pick(COMPONENT_NAMES);
        if (r.bool(0.1) && !Object.hasOwn(sharedBodies, id)) {
          put(sharedBodies, id, body);
          op["requestBody"] = { $ref: `#/components/requestBodies/${id}` };
        } else op["requestBody"] = body;
      }
      const responses: JsonObject = {};
      const statuses = [...new Set([r.pick(STATUSES.slice(0, 7)), ...Array.from({ length: r.int(0, 3) }, () => r.pick(STATUSES))])];
      for (const status of statuses) {
        const id = r.pick(COMPONENT_NAMES);
        if (r.bool(0.1) && !Object.hasOwn(sharedResponses, id)) {
          put(sharedResponses, id, response(d, doc, status));
          put(responses, status, { $ref: `#/components/responses/${id}` });
        } else put(responses, status, response(d, doc, status));
      }
      if (paging) {
        const itemsKey = r.pick(["items", "data", "results", anyName(r)]);
        if (itemsKey !== "nextPageToken") put(responses, "200", { description: "a page", content: { "application/json": { schema: { type: "object", properties: { [itemsKey]: { type: "array", items: schema(d, 1, { direct: false, owner: Infinity }) }, nextPageToken: { type: "string" } } } } } });
      }
      // callbacks (OpenAPI): path items of their own, with operations the client does not call
      if (r.bool(0.05)) op["callbacks"] = { [anyName(r) || "cb"]: { "{$request.body#/callbackUrl}": { post: { requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: { "200": { description: r.pick(TEXTS) } } } } } };
      // links from a response to an operation of the document
      const linked = Object.values(responses).find(isObj);
      if (linked && linked["$ref"] === undefined && op["operationId"] !== undefined && r.bool(0.05)) linked["links"] = { [anyName(r) || "self"]: { operationId: op["operationId"]!, description: r.pick(TEXTS) } };
      op["responses"] = responses;
      noise(d, op, "operation");
      if (additional.includes(method)) item["additionalOperations"] = { ...(isObj(item["additionalOperations"]) ? item["additionalOperations"] : {}), [method]: op };
      else item[method] = op;
    }
    if (r.bool(0.1)) item["summary"] = r.pick(TEXTS);
    put(pathItems, path, item);
  }
  // OpenAPI 3.1 documents may have no paths when they have components (or webhooks)
  if (version === "3.0" || Object.keys(pathItems).length > 0 || r.bool(0.5) || Object.keys(components).length === 0) doc["paths"] = pathItems;
  if (Object.keys(sharedParams).length > 0) components["parameters"] = sharedParams;
  if (Object.keys(sharedBodies).length > 0) components["requestBodies"] = sharedBodies;
  if (Object.keys(sharedResponses).length > 0) components["responses"] = sharedResponses;
  if (Object.keys(components).length > 0) doc["components"] = components;
  if (tagNames.length > 0) doc["tags"] = hierarchicalTags(r, tagNames);
  else if (r.bool(0.2)) doc["tags"] = distinct(r, r.int(1, 3), () => anyName(r)).map((name) => ({ name, ...(r.bool() ? { description: r.pick(TEXTS) } : {}) }));
  // 3.2's $self: the base URI refs are read against (they stay fragments here, which it leaves alone)
  if (is32 && r.bool(0.3)) doc["$self"] = r.pick(["https://api.example.com/openapi.yaml", "/apis/openapi.json", "https://example.com/a%20b/spec"]);
  for (const t of Array.isArray(doc["tags"]) ? doc["tags"] : []) if (isObj(t)) noise(d, t, "tag");
  const info = doc["info"] as JsonObject;
  if (r.bool(0.1)) info["contact"] = { name: r.pick(TEXTS), email: "a@example.com", url: "https://example.com" };
  if (r.bool(0.1)) info["license"] = version === "3.1" && r.bool() ? { name: "MIT", identifier: "MIT" } : { name: r.pick(TEXTS) || "MIT", url: "https://opensource.org/licenses/MIT" };
  if (version === "3.1" && r.bool(0.1)) info["summary"] = r.pick(TEXTS);
  noise(d, info, "info");
  noise(d, doc, "other");
  // webhooks (3.1): operations the API calls, not the client
  if (version === "3.1" && r.bool(0.08)) doc["webhooks"] = { [anyName(r) || "hook"]: { post: { requestBody: { content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } } } }, responses: { "200": { description: r.pick(TEXTS) } } } } };
  if (version === "3.1" && r.bool(0.05)) doc["jsonSchemaDialect"] = "https://spec.openapis.org/oas/3.1/dialect/base";
  annotateSamples(d, doc);
  return doc;
}

// ---------------------------------------------------------------------------
// OpenRPC

/** Method names: non-empty (meta-schema minLength 1), unique, never `rpc.` (reserved by JSON-RPC 2.0); often namespaced (`eth_call`, `a.b`). */
function methodNames(r: Rng, n: number): string[] {
  return distinct(r, n, () => {
    const base = anyName(r);
    const name = r.bool(0.4) ? `${r.pick(["eth", "net", "then", "constructor", "__proto__", "a", "A", "class", "batch", "Pet", "pet"])}${r.pick(["_", "."])}${base}` : base;
    return name;
  }).filter((s) => s !== "" && !s.startsWith("rpc."));
}

function contentDescriptor(d: DocState, name: string, required: boolean | undefined): JsonObject {
  const r = d.r;
  const out: JsonObject = { name, schema: schema(d, 0, { direct: false, owner: Infinity }) };
  if (required !== undefined) put(out, "required", required);
  if (r.bool(0.2)) put(out, "description", r.pick(TEXTS));
  if (r.bool(0.1)) put(out, "summary", r.pick(TEXTS));
  if (r.bool(0.08)) put(out, "deprecated", true);
  return out;
}

/** Content descriptor and example names: strings of at least one character (meta-schema). */
function nonEmptyName(r: Rng): string {
  for (;;) {
    const n = anyName(r);
    if (n !== "") return n;
  }
}

export function openRpcDocument(seed: number): JsonObject {
  const r = new Rng(seed);
  const d: DocState = { r, kind: "openrpc", dialect: "07", components: [], annotate: [], later: [], inner: [], anchors: new Map() };
  const doc: JsonObject = {
    openrpc: r.pick(["1.3.2", "1.3.2", "1.2.6", "1.0.0", "1.4.0", "1.4.1"]),
    info: { title: r.pick(TEXTS), version: r.pick(["1.0.0", "0.1.0-rc.1", "v1", "\u2028"]), ...(r.bool(0.3) ? { description: r.pick(TEXTS) } : {}) },
  };
  const notifications = doc["openrpc"] === "1.3.2" || String(doc["openrpc"]).startsWith("1.4.");
  if (r.bool(0.7)) doc["servers"] = [r.pick<Json>([{ name: "local", url: "http://localhost:8545" }, { name: "sub", url: "https://node.example.com/ext/bc/C/rpc" }, { name: "rel", url: "/rpc" }])];
  const components: JsonObject = {};
  const schemas = componentSchemas(d);
  if (Object.keys(schemas).length > 0) components["schemas"] = schemas;
  for (const [name, s] of Object.entries(schemas)) {
    if (isObj(s) && isObj(s["properties"])) for (const p of Object.keys(s["properties"])) if (r.bool(0.2)) d.inner.push(`${componentRef(name)}/properties/${fragmentToken(p)}`);
  }
  const sharedErrors: JsonObject = {};
  const sharedDescriptors: JsonObject = {};
  // x-error-data-schema (open-rpc/spec#392, read by avaspec): every error's data is a schema, which types the error class's data
  const dataSchemas = r.bool(0.3);
  if (dataSchemas) doc["x-error-data-schema"] = true;
  const methods: Json[] = [];
  for (const name of methodNames(r, r.int(1, 6))) {
    const m: JsonObject = { name };
    const structure = r.pick([undefined, "by-name", "by-position", "either"]);
    if (structure) m["paramStructure"] = structure;
    const names = distinct(r, r.weighted([[1, 0], [3, 1], [2, 2], [1, 4]] as const), () => nonEmptyName(r));
    // by-position: required params come first (positional params can only be omitted from the end)
    let optionalSeen = false;
    const params: Json[] = names.map((pn) => {
      let required: boolean | undefined = r.bool(0.6) ? true : r.bool() ? false : undefined;
      if (structure === "by-position") {
        if (optionalSeen) required = false;
        if (required !== true) optionalSeen = true;
      }
      const cd = contentDescriptor(d, pn, required);
      const id = r.pick(COMPONENT_NAMES);
      if (r.bool(0.1) && !Object.hasOwn(sharedDescriptors, id)) {
        put(sharedDescriptors, id, cd);
        return { $ref: `#/components/contentDescriptors/${id}` };
      }
      return cd;
    });
    // one required object param, by position: the "one-object" form
    if (structure === "by-position" && r.bool(0.25)) {
      params.splice(0, params.length, contentDescriptor(d, nonEmptyName(r), true));
      const p = params[0] as JsonObject;
      p["schema"] = objectSchema(d, 1, { direct: false, owner: Infinity });
    }
    m["params"] = params;
    // a method without a result is a notification (OpenRPC 1.3); before 1.3 result was required
    if (!notifications || r.bool(0.85)) {
      const res = contentDescriptor(d, nonEmptyName(r), undefined);
      const id = r.pick(COMPONENT_NAMES);
      if (r.bool(0.1) && !Object.hasOwn(sharedDescriptors, id)) {
        put(sharedDescriptors, id, res);
        m["result"] = { $ref: `#/components/contentDescriptors/${id}` };
      } else m["result"] = res;
    }
    if (r.bool(0.4)) {
      const codes = distinct(r, r.int(1, 3), () => String(r.pick([-32000, -32001, -32602, 1, 2, 42, 3, -1, 0, 4001])));
      m["errors"] = codes.map((c) => {
        const e: JsonObject = { code: Number(c), message: r.pick(TEXTS) };
        if (dataSchemas) {
          if (r.bool(0.6)) e["data"] = schema(d, 0, { direct: false, owner: Infinity });
        } else if (r.bool(0.3)) e["data"] = r.pick<Json>([r.pick(TEXTS), { k: 1 }, 5]);
        const id = r.pick(COMPONENT_NAMES);
        if (r.bool(0.2) && !Object.hasOwn(sharedErrors, id)) {
          put(sharedErrors, id, e);
          return { $ref: `#/components/errors/${id}` };
        }
        return e;
      });
    }
    if (r.bool(0.3)) m["tags"] = distinct(r, r.int(1, 2), () => nonEmptyName(r)).map((t) => ({ name: t }));
    if (r.bool(0.3)) m["summary"] = r.pick(TEXTS);
    if (r.bool(0.2)) m["description"] = r.pick(TEXTS);
    if (r.bool(0.08)) m["deprecated"] = true;
    if (r.bool(0.05)) m["x-avaspec-idempotent"] = true;
    noise(d, m, "operation");
    if (r.bool(0.35)) {
      // an example pairing: values for the params (all required ones, some optional) and the result
      d.later.push(() => {
        const resolve = (x: Json): JsonObject => (isObj(x) && typeof x["$ref"] === "string" ? (decodePointer(doc, x["$ref"]) as JsonObject) : (x as JsonObject));
        const values: Json[] = [];
        for (const p of params.map(resolve)) {
          if (p["required"] !== true && r.bool()) break;
          const v = exampleFor(d, doc, p["schema"]!);
          if (v === NONE) {
            if (p["required"] === true) return;
            break;
          }
          values.push({ name: p["name"]!, value: v });
        }
        const pairing: JsonObject = { name: nonEmptyName(r), params: values };
        if (m["result"] !== undefined) {
          const res = resolve(m["result"]);
          const v = exampleFor(d, doc, res["schema"]!);
          if (v !== NONE) pairing["result"] = { name: String(res["name"]), value: v };
        }
        if (r.bool(0.3)) pairing["description"] = r.pick(TEXTS);
        m["examples"] = [pairing];
      });
    }
    methods.push(m);
  }
  doc["methods"] = methods;
  noise(d, doc["info"] as JsonObject, "info");
  if (Object.keys(sharedErrors).length > 0) components["errors"] = sharedErrors;
  if (Object.keys(sharedDescriptors).length > 0) components["contentDescriptors"] = sharedDescriptors;
  if (Object.keys(components).length > 0) doc["components"] = components;
  annotateSamples(d, doc);
  return doc;
}

export function arbitraryDocument(seed: number, kind: DocKind): JsonObject {
  return kind === "openrpc" ? openRpcDocument(seed) : openApiDocument(seed, kind === "openapi-3.0" ? "3.0" : kind === "openapi-3.2" ? "3.2" : "3.1");
}
