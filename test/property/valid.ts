/**
 * Checks of a document against the rules of its specification that are easy
 * to state, independent of avaspec: the property test holds every generated
 * document to them (so a failure is avaspec's, not the generator's), and the
 * shrinker keeps a shrunk document to them (so it stays valid).
 *
 * OpenRPC documents get the official meta-schema (@open-rpc/meta-schema,
 * through Ajv; 1.4.x by its 1.3 rules) and the rules the meta-schema cannot
 * state; OpenAPI 3.2 documents the official 3.2 schema (the copy avaspec
 * vendors, read by Ajv's 2020-12 validator); OpenAPI documents
 * the required members, unique operationIds, path templates that match their
 * path parameters, parameters unique by name and location, and refs that
 * resolve. Schema keywords whose arrays must not be empty are checked in both.
 */
import { createRequire } from "node:module";
import Ajv, { type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { openApi32Schema } from "../../generator/validate/openapi32-meta.js";
import { findAnchor, type DocKind, type Json, type JsonObject } from "./arbitrary.js";

const require = createRequire(import.meta.url);
const isObj = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const HTTP = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

let meta: ValidateFunction | undefined;
function openRpcMeta(): ValidateFunction {
  if (meta) return meta;
  const openrpc = { ...(require("@open-rpc/meta-schema") as { default: Record<string, unknown> }).default };
  const mod = require("@json-schema-tools/meta-schema") as { default?: Record<string, unknown> } & Record<string, unknown>;
  const jsonSchema = { ...(mod.default ?? mod) };
  delete openrpc["$schema"];
  delete jsonSchema["$schema"];
  // the package lists versions up to 1.3.2; OpenRPC 1.4 relaxed only the version
  const props = openrpc["properties"] as Record<string, Record<string, unknown>>;
  openrpc["properties"] = { ...props, openrpc: { type: "string", anyOf: [{ enum: props["openrpc"]!["enum"] }, { pattern: "^1\\.4\\.\\d+$" }] } };
  const ajv = new Ajv.default({ strict: false, logger: false, allErrors: false, validateFormats: false });
  ajv.addSchema(jsonSchema, "https://meta.json-schema.tools");
  return (meta = ajv.compile(openrpc));
}

let meta32: ValidateFunction | undefined;
function openApi32Meta(): ValidateFunction {
  return (meta32 ??= new Ajv2020.default({ strict: false, logger: false, allErrors: false, validateFormats: false }).compile(openApi32Schema(readFileSync(new URL("../../generator/validate/openapi-3.2/schema.json", import.meta.url), "utf8"))));
}

/** The value at a local `$ref` (`#/a/b%20c/~1d`), or undefined. */
export function resolveRef(root: Json, ref: string): Json | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return root;
  if (!fragment.startsWith("/")) return findAnchor(root, fragment);
  let cur: Json | undefined = root;
  for (const raw of fragment.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur) && /^(0|[1-9]\d*)$/.test(token)) cur = cur[Number(token)];
    else if (isObj(cur) && Object.hasOwn(cur, token)) cur = cur[token];
    else return undefined;
  }
  return cur;
}

const deref = (root: JsonObject, v: Json | undefined): Json | undefined => {
  for (let i = 0; i < 32 && isObj(v) && typeof v["$ref"] === "string"; i++) v = resolveRef(root, v["$ref"]);
  return v;
};

/** What breaks a rule, one line each (`<pointer>: <what>`); empty for a valid document. */
export function documentProblems(doc: JsonObject, kind: DocKind): string[] {
  const out: string[] = [];
  if (kind === "openrpc") {
    if (typeof doc["openrpc"] !== "string") out.push("no openrpc version");
    else if (!openRpcMeta()(doc)) out.push(`OpenRPC meta-schema: ${openRpcMeta().errors?.map((e) => `${e.instancePath} ${e.message}`).join("; ")}`);
  } else {
    if (typeof doc["openapi"] !== "string") out.push("no openapi version");
    const info = doc["info"];
    if (!isObj(info) || typeof info["title"] !== "string" || typeof info["version"] !== "string") out.push("info needs title and version");
    if (kind === "openapi-3.2" && !openApi32Meta()(doc)) out.push(`OpenAPI 3.2 schema: ${openApi32Meta().errors?.map((e) => `${e.instancePath} ${e.message}`).join("; ")}`);
  }
  // every $ref resolves
  const walkRefs = (v: Json, at: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walkRefs(x, `${at}/${i}`));
    if (!isObj(v)) return;
    if (typeof v["$ref"] === "string" && resolveRef(doc, v["$ref"]) === undefined) out.push(`${at}: $ref ${v["$ref"]} does not resolve`);
    // data: examples, defaults, enums, consts, extensions (a ref in there is no reference)
    for (const [k, x] of Object.entries(v)) if (!["example", "examples", "default", "const", "enum", "value"].includes(k) && !k.startsWith("x-")) walkRefs(x, `${at}/${k}`);
  };
  walkRefs(doc, "#");
  // schema keywords whose arrays must not be empty
  const is30 = kind === "openapi-3.0";
  const walkSchemas = (v: Json, at: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walkSchemas(x, `${at}/${i}`));
    if (!isObj(v)) return;
    for (const k of ["enum", "allOf", "anyOf", "oneOf", "prefixItems", "type", ...(is30 ? ["required"] : [])]) if (Array.isArray(v[k]) && (v[k] as Json[]).length === 0) out.push(`${at}: empty ${k}`);
    if (is30 && v["type"] === "array" && v["items"] === undefined) out.push(`${at}: OpenAPI 3.0 array without items`);
    if (isObj(v["discriminator"]) && typeof v["discriminator"]["propertyName"] !== "string") out.push(`${at}: discriminator without propertyName`);
    // data, and security requirements (scheme name → scopes, so `{ "type": [] }` is no schema)
    for (const [k, x] of Object.entries(v)) if (!["example", "examples", "default", "const", "enum", "value", "security"].includes(k) && !k.startsWith("x-")) walkSchemas(x, `${at}/${k}`);
  };
  walkSchemas(doc, "#");
  if (kind === "openrpc") {
    const names = new Set<string>();
    for (const m of Array.isArray(doc["methods"]) ? doc["methods"] : []) {
      const method = deref(doc, m);
      if (!isObj(method) || typeof method["name"] !== "string") continue;
      if (names.has(method["name"])) out.push(`method ${JSON.stringify(method["name"])} twice`);
      names.add(method["name"]);
      if (method["name"].startsWith("rpc.")) out.push(`method ${JSON.stringify(method["name"])}: rpc. is reserved`);
      const params = (Array.isArray(method["params"]) ? method["params"] : []).map((p) => deref(doc, p)).filter(isObj);
      const pnames = params.map((p) => p["name"]);
      if (new Set(pnames).size !== pnames.length) out.push(`method ${JSON.stringify(method["name"])}: param names repeat`);
      if (method["paramStructure"] === "by-position") {
        const firstOptional = params.findIndex((p) => p["required"] !== true);
        if (firstOptional >= 0 && params.slice(firstOptional).some((p) => p["required"] === true)) out.push(`method ${JSON.stringify(method["name"])}: required param after an optional one`);
      }
    }
    return out;
  }
  const response = (r: Json | undefined, at: string) => {
    const v = deref(doc, r);
    if (isObj(v) && typeof v["description"] !== "string") out.push(`${at}: response without description`);
  };
  const parameter = (p: Json | undefined, at: string): JsonObject | undefined => {
    const v = deref(doc, p);
    if (!isObj(v)) return undefined;
    if (typeof v["name"] !== "string" || !["path", "query", "header", "cookie"].includes(String(v["in"]))) out.push(`${at}: parameter needs name and in`);
    if ((v["schema"] === undefined) === (v["content"] === undefined)) out.push(`${at}: parameter needs schema or content, not both`);
    if (v["in"] === "path" && v["required"] !== true) out.push(`${at}: path parameter not required`);
    return v;
  };
  const ids = new Set<string>();
  const shapes = new Set<string>();
  const paths = isObj(doc["paths"]) ? doc["paths"] : {};
  for (const [path, item] of Object.entries(paths)) {
    const at = `#/paths/${path}`;
    if (!path.startsWith("/")) out.push(`${at}: path must start with /`);
    const shape = path.replace(/\{[^}]*\}/g, "{}");
    if (shapes.has(shape)) out.push(`${at}: same path as another up to template names`);
    shapes.add(shape);
    if (!isObj(item)) continue;
    const templates = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
    if (new Set(templates).size !== templates.length) out.push(`${at}: a template name repeats`);
    const itemParams = (Array.isArray(item["parameters"]) ? item["parameters"] : []).map((p, i) => parameter(p, `${at}/parameters/${i}`));
    const extra = kind === "openapi-3.2" && isObj(item["additionalOperations"]) ? item["additionalOperations"] : {};
    const operations: [string, Json | undefined][] = [...[...HTTP, ...(kind === "openapi-3.2" ? ["query"] : [])].map((m): [string, Json | undefined] => [m, item[m]]), ...Object.entries(extra).map(([m, op]): [string, Json | undefined] => [`additionalOperations/${m}`, op])];
    for (const [method, op] of operations) {
      if (!isObj(op)) continue;
      const opAt = `${at}/${method}`;
      if (op["operationId"] !== undefined) {
        if (typeof op["operationId"] !== "string") out.push(`${opAt}: operationId not a string`);
        else if (ids.has(op["operationId"])) out.push(`${opAt}: operationId ${JSON.stringify(op["operationId"])} twice`);
        else ids.add(op["operationId"]);
      }
      if (!isObj(op["responses"]) || Object.keys(op["responses"]).length === 0) out.push(`${opAt}: no responses`);
      for (const [status, r] of Object.entries(isObj(op["responses"]) ? op["responses"] : {})) response(r, `${opAt}/responses/${status}`);
      const body = deref(doc, op["requestBody"]);
      if (op["requestBody"] !== undefined && (!isObj(body) || !isObj(body["content"]))) out.push(`${opAt}: request body without content`);
      const opParams = (Array.isArray(op["parameters"]) ? op["parameters"] : []).map((p, i) => parameter(p, `${opAt}/parameters/${i}`));
      for (const list of [itemParams, opParams]) {
        const keys = list.filter((p): p is JsonObject => p !== undefined).map((p) => `${String(p["in"])}:${p["in"] === "header" ? String(p["name"]).toLowerCase() : String(p["name"])}`);
        if (new Set(keys).size !== keys.length) out.push(`${opAt}: a parameter repeats (name and location)`);
      }
      const merged = new Map<string, JsonObject>();
      for (const p of [...itemParams, ...opParams]) if (p) merged.set(`${String(p["in"])}:${String(p["name"])}`, p);
      const pathParams = [...merged.values()].filter((p) => p["in"] === "path").map((p) => String(p["name"]));
      for (const t of templates) if (!pathParams.includes(t)) out.push(`${opAt}: {${t}} not declared`);
      for (const p of pathParams) if (!templates.includes(p)) out.push(`${opAt}: path parameter ${JSON.stringify(p)} not in the path`);
    }
  }
  const components = isObj(doc["components"]) ? doc["components"] : {};
  for (const [k, r] of Object.entries(isObj(components["responses"]) ? components["responses"] : {})) response(r, `#/components/responses/${k}`);
  for (const [k, p] of Object.entries(isObj(components["parameters"]) ? components["parameters"] : {})) parameter(p, `#/components/parameters/${k}`);
  for (const kindKey of Object.keys(components)) for (const name of Object.keys(isObj(components[kindKey]) ? components[kindKey] : {})) if (!/^[a-zA-Z0-9.\-_]+$/.test(name)) out.push(`#/components/${kindKey}/${name}: component key not ^[a-zA-Z0-9.-_]+$`);
  return out;
}
