/**
 * IR schemas → JSON Schema (2020-12) for MCP clients: the input schemas of a
 * generated MCP server's tools. Named schemas become `$defs` entries shared by
 * the whole catalog; the server gives each tool the `$defs` its schema reaches
 * (runtime/mcp/catalog.ts), because an MCP client reads each tool alone.
 *
 * Only what a client needs to build a call is kept: types, values, bounds,
 * members, composition, descriptions (shortened) and one example. A request
 * leaves readOnly members out, as the generated request types do. A pattern
 * that JavaScript cannot compile in `u` mode (the mode most JSON Schema
 * validators use) is left out: the server's own validators still check it.
 */
import { BoundedNesting } from "../../nesting.js";
import type { IrNamedSchema, IrSchema, JsonValue } from "../../ir/types.js";

export type JsonSchema = boolean | { [key: string]: JsonValue };

/** Descriptions are for a model choosing arguments: the first sentences, up to this many characters. */
export const DESCRIPTION_CHARS = 240;

/** Text cut at a sentence or word boundary near `max` characters, whitespace collapsed. */
export function shorten(text: string | undefined, max = DESCRIPTION_CHARS): string | undefined {
  if (text === undefined) return undefined;
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return undefined;
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const sentence = cut.lastIndexOf(". ");
  if (sentence > max / 2) return cut.slice(0, sentence + 1);
  const word = cut.lastIndexOf(" ");
  return `${cut.slice(0, word > max / 2 ? word : max)}…`;
}

function compilesInUnicodeMode(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * Formats a strict client validator knows (JSON Schema 2020-12's and
 * OpenAPI's, as ajv-formats has them): another one (`uint64`, a vendor's own)
 * would make such a client refuse the whole tool, so it is left out; the
 * server's validators still apply what the spec means by it.
 */
const KNOWN_FORMATS = new Set(["date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer", "relative-json-pointer", "regex", "int32", "int64", "float", "double", "byte", "binary", "password"]);

const NUMERIC = ["minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "minProperties", "maxProperties"] as const;

export class JsonSchemaWriter {
  /** Named schemas reached so far, by their TypeScript name (unique in a module; qualified by the module across a package). */
  readonly defs = new Map<string, JsonSchema>();
  private readonly byKey: Map<string, IrNamedSchema>;
  private readonly nesting = new BoundedNesting(200);

  /** `prefix` qualifies def names when several modules share one catalog. */
  constructor(schemas: readonly IrNamedSchema[], private readonly prefix: string) {
    this.byKey = new Map(schemas.map((s) => [s.key, s]));
  }

  private named(key: string): string {
    const s = this.byKey.get(key)!;
    const name = `${this.prefix}${s.name}`;
    if (!this.defs.has(name)) {
      this.defs.set(name, true); // claimed first, so a recursive schema refers to itself instead of recursing
      this.nesting.run(() => this.defs.set(name, this.write(s.schema)));
    }
    return name;
  }

  /** The JSON Schema of an IR schema, in the request direction. */
  write(s: IrSchema): JsonSchema {
    if (s.kind === "boolean") return s.value;
    if (s.kind === "ref") return this.byKey.has(s.target) ? withMeta({ $ref: `#/$defs/${this.named(s.target)}` }, s) : true;
    const out: Record<string, JsonValue> = {};
    if (s.types) out["type"] = s.types.length === 1 ? s.types[0]! : s.types;
    if (s.enum) out["enum"] = s.enum;
    if (s.const) out["const"] = s.const.value;
    if (s.format && KNOWN_FORMATS.has(s.format)) out["format"] = s.format;
    if (s.pattern !== undefined && compilesInUnicodeMode(s.pattern)) out["pattern"] = s.pattern;
    for (const k of NUMERIC) if (s[k] !== undefined) out[k] = s[k]!;
    if (s.uniqueItems) out["uniqueItems"] = true;
    const properties = (s.properties ?? []).filter((p) => p.schema.readOnly !== true);
    if (properties.length > 0) {
      const members: Record<string, JsonValue> = {};
      // own data properties: a spec's `__proto__` member stays a member
      for (const p of properties) Object.defineProperty(members, p.name, { value: this.write(p.schema), enumerable: true, writable: true, configurable: true });
      out["properties"] = members;
    }
    const readOnly = new Set((s.properties ?? []).filter((p) => p.schema.readOnly === true).map((p) => p.name));
    const required = (s.required ?? []).filter((r) => !readOnly.has(r));
    if (required.length > 0) out["required"] = required;
    if (s.additionalProperties) out["additionalProperties"] = this.write(s.additionalProperties);
    if (s.items) out["items"] = this.write(s.items);
    if (s.prefixItems) out["prefixItems"] = s.prefixItems.map((x) => this.write(x));
    for (const k of ["allOf", "anyOf", "oneOf"] as const) if (s[k]) out[k] = s[k]!.map((x) => this.write(x));
    if (s.not) out["not"] = this.write(s.not);
    return withMeta(out, s);
  }
}

function withMeta(out: Record<string, JsonValue>, s: IrSchema): Record<string, JsonValue> {
  const description = shorten(s.description ?? s.title);
  if (description) out["description"] = description;
  if (s.deprecated) out["deprecated"] = true;
  if (s.default !== undefined) out["default"] = s.default;
  const example = s.examples?.[0];
  if (example !== undefined && JSON.stringify(example).length <= 120) out["examples"] = [example];
  return out;
}
