/**
 * Which members of an OpenAPI, OpenRPC or JSON Schema document are
 * structure and which are data or names. The loader's reference resolver,
 * the bundler, the validators and the IR all walk documents by these rules,
 * so a `$ref`, `$id` or `$anchor` means the same thing to each of them: one
 * inside an example or an enum is data, and a property called `$ref` is a
 * name, not a reference.
 */
import * as ptr from "./pointer.js";

/** Keys whose values are data, not structure: a `$ref` or `$id` inside them is a value like any other. */
const DATA_KEYS = new Set(["example", "default", "enum", "const", "value"]);

/** Whether a member holds data (examples, defaults, enums, consts, `x-` extensions), not structure. */
export function isDataMember(key: string, value: unknown): boolean {
  // JSON Schema's `examples` is a list of values; OpenAPI's is a map of Example objects (a name map, below)
  return DATA_KEYS.has(key) || key.startsWith("x-") || (key === "examples" && Array.isArray(value));
}

/**
 * Members whose keys are names the author chose (a property may well be
 * called "value", "enum" or "$ref"), each mapping to a schema or another
 * object of the document. `dependencies` is draft-07's, whose entries are
 * schemas or lists of names.
 */
export const NAME_MAPS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas", "parameters", "responses", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems", "examples", "dependentSchemas", "dependencies", "encoding", "content", "variables", "paths", "webhooks", "mapping", "contentDescriptors", "errors", "examplePairingObjects"]);

/** The operations of an OpenAPI path item, by their keys. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * avaspec's own extensions that hold schemas, and where: their `$ref`s are
 * structure like any schema's (a method shared by `$ref` from another
 * document brings them along, and the bundler must follow them).
 */
const SCHEMA_EXTENSIONS: ReadonlyMap<string, readonly (readonly string[])[]> = new Map([
  ["x-avaspec-result-by-param", [["variants", "*", "schema"]]],
  ["x-avaspec-subscriptions", [["kinds", "*", "params", "*", "schema"], ["kinds", "*", "result"]]],
]);

/**
 * avaspec's own extensions whose whole value may be a `$ref` to the same
 * extension in another document (`x-avaspec-limits: { $ref:
 * "./node-cchain-rpc.openrpc.yaml#/x-avaspec-limits" }`): two documents for
 * servers with the same limits declare them once. The bundler copies the
 * target in (only from where `refs.allow` admits), so the checkers and the
 * IR read a declaration like any written in place.
 */
const REF_EXTENSIONS: ReadonlySet<string> = new Set(["x-avaspec-limits"]);

/** Visits the schemas at `path` below `node` (`*`: every item of a list). */
function atPaths(node: unknown, pointer: string, path: readonly string[], visit: (schema: unknown, pointer: string) => void): void {
  if (path.length === 0) return visit(node, pointer);
  const [head, ...rest] = path;
  if (head === "*") {
    if (Array.isArray(node)) node.forEach((v, i) => atPaths(v, ptr.join(pointer, i), rest, visit));
  } else if (isObj(node) && head !== undefined && node[head] !== undefined) atPaths(node[head], ptr.join(pointer, head), rest, visit);
}

/**
 * Calls `visit` for every structural `$ref` under `node` (not those inside
 * examples, defaults, enums or `x-` extensions other than the schemas of
 * avaspec's own and a REF_EXTENSIONS value that is a `$ref` as a whole, nor
 * a property named `$ref`), with the object holding it
 * and the pointer of its `$ref` member.
 */
export function forEachRef(node: unknown, pointer: string, visit: (holder: Record<string, unknown>, ref: string, pointer: string) => void, ownKey = ""): void {
  // only containers are walked into (a scalar holds no $ref): no pointer is made for the many scalars of a big document
  if (Array.isArray(node)) {
    node.forEach((v, i) => {
      if (typeof v === "object" && v !== null) forEachRef(v, ptr.join(pointer, i), visit);
    });
    return;
  }
  const isNameMap = NAME_MAPS.has(ownKey);
  if (!isObj(node)) return;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (key === "$ref" && typeof value === "string" && !isNameMap) {
      visit(node, value, ptr.join(pointer, key));
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    // a Map: a key such as `__proto__` is only a key
    const schemas = isNameMap ? undefined : SCHEMA_EXTENSIONS.get(key);
    if (schemas) {
      for (const path of schemas) atPaths(value, ptr.join(pointer, key), path, (schema, at) => forEachRef(schema, at, visit));
      continue;
    }
    if (!isNameMap && REF_EXTENSIONS.has(key) && isObj(value) && typeof value["$ref"] === "string") {
      visit(value, value["$ref"], ptr.join(pointer, key, "$ref"));
      continue;
    }
    if (!isNameMap && isDataMember(key, value)) continue;
    forEachRef(value, ptr.join(pointer, key), visit, isNameMap ? "" : key);
  }
}

/**
 * Every keyword a schema object may hold in the dialects avaspec reads
 * (JSON Schema 2020-12 and draft-07, OpenAPI 3.0/3.1's additions): a key
 * outside it that is one slip away from one of them (`requried`) is a
 * warning, since JSON Schema ignores unknown keywords and the constraint
 * would silently not apply.
 */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "$schema", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$ref", "$defs", "$comment", "$vocabulary", "definitions",
  "type", "enum", "const", "format", "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
  "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties",
  "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties",
  "items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems",
  "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
  "contentMediaType", "contentEncoding", "contentSchema",
  "nullable", "discriminator", "xml", "externalDocs",
]);
