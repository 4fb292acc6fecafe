/**
 * The official OpenAPI 3.2 schema (openapi-3.2/schema.json, vendored with its
 * licence) compiled by Ajv's JSON Schema 2020-12 validator. Like
 * openrpc-meta.ts, the bundled CLI replaces this module with the validator
 * compiled ahead of time (scripts/build.mjs); running from sources compiles
 * it here, once, on the first 3.2 document.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

/** Where the vendored schema sits beside this module (the build reads it from there too). */
export const OPENAPI_32_SCHEMA_FILE = "openapi-3.2/schema.json";

/** Ajv's options, shared with the ahead-of-time build: formats are not checked (Ajv knows none without ajv-formats), nor is the schema strict-mode clean. */
export const AJV_OPTIONS = { strict: false, logger: false, allErrors: false, validateFormats: false } as const;

/**
 * The schema as Ajv is given it. Its Schema Objects are `$dynamicRef: "#meta"`,
 * an extension point the schema-base variant binds to the OpenAPI dialect;
 * in this variant the only `$dynamicAnchor: meta` is the `schema` definition
 * itself, so a plain `$ref` to it means the same. Ajv needs the plain form:
 * through its `$dynamicRef` the media type's `unevaluatedProperties: false`
 * reaches into the Schema Object and refuses `type` (ajv-validator/ajv#1745).
 */
export function openApi32Schema(text: string): Record<string, unknown> {
  const plain = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(plain);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "$dynamicRef" && v === "#meta") out["$ref"] = "#/$defs/schema";
      else if (k !== "$dynamicAnchor") out[k] = plain(v);
    }
    return out;
  };
  return plain(JSON.parse(text)) as Record<string, unknown>;
}

export function openApi32MetaValidator(): ValidateFunction {
  const Ajv2020 = (require("ajv/dist/2020") as { default: typeof import("ajv/dist/2020.js").default }).default;
  const schema = openApi32Schema(readFileSync(new URL(OPENAPI_32_SCHEMA_FILE, import.meta.url), "utf8"));
  return new Ajv2020(AJV_OPTIONS).compile(schema);
}
