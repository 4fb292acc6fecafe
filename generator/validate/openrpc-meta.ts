/**
 * The OpenRPC meta-schema (@open-rpc/meta-schema, which refers to the JSON
 * Schema meta-schema of json-schema.tools) compiled by Ajv. Compiling costs
 * about 70 ms a run, so the bundled CLI replaces this module with the same
 * validator compiled ahead of time by Ajv's standalone code (scripts/build.mjs);
 * running from sources compiles it here.
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

/**
 * The two meta-schemas as Ajv reads them; both declare a `$schema` Ajv does
 * not know, and their content is draft-07. @open-rpc/meta-schema lists the
 * versions up to 1.3.2; 1.4.x documents are read by the same rules.
 */
export function metaSchemas(): { openrpc: Record<string, unknown>; jsonSchema: Record<string, unknown> } {
  const openrpc = { ...(require("@open-rpc/meta-schema") as { default: Record<string, unknown> }).default };
  const jsonSchemaMod = require("@json-schema-tools/meta-schema") as { default?: Record<string, unknown> } & Record<string, unknown>;
  const jsonSchema = { ...(jsonSchemaMod.default ?? jsonSchemaMod) };
  delete openrpc["$schema"];
  delete jsonSchema["$schema"];
  // OpenRPC 1.4 changed no rule but the version's: 1.3's meta-schema, with 1.4.x among the versions it names
  const properties = openrpc["properties"] as Record<string, Record<string, unknown>>;
  const version = properties["openrpc"]!;
  openrpc["properties"] = { ...properties, openrpc: { title: version["title"], type: "string", anyOf: [{ enum: version["enum"] }, { pattern: "^1\\.4\\.\\d+$" }] } };
  return { openrpc, jsonSchema };
}

/** Ajv's options for the meta-schema, shared with the ahead-of-time build. */
export const AJV_OPTIONS = { strict: false, logger: false, allErrors: false, validateFormats: false } as const;
export const JSON_SCHEMA_META_ID = "https://meta.json-schema.tools";

export function openRpcMetaValidator(): ValidateFunction {
  const Ajv = (require("ajv") as { default: typeof import("ajv").default }).default;
  const { openrpc, jsonSchema } = metaSchemas();
  const ajv = new Ajv(AJV_OPTIONS);
  ajv.addSchema(jsonSchema, JSON_SCHEMA_META_ID);
  return ajv.compile(openrpc);
}
