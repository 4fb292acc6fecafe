/**
 * The MCP catalog of a package: per operation or method of every client, what
 * an agent needs to find it and call it (its path on the client, its wire
 * name, summary and description, a TypeScript signature, one example call, the
 * JSON Schema of its arguments) and what the server needs to police it (its
 * access: read or write, idempotent, destructive). Data only: the package's
 * `src/mcp/catalog.ts` holds it as JSON inside one string literal, written
 * through the escaping choke point (see index.ts), and the runtime
 * (runtime/mcp/) searches it, lists tools from it and calls the clients by it.
 */
import { endpointGroupOf } from "../../ir/endpoints.js";
import { toIdentifier } from "../../ir/naming.js";
import { followRefs, objectWithProperties } from "../../ir/resolve.js";
import { httpResult, schemasOf } from "../../ir/results.js";
import type { IrDocument, IrHttpOperation, IrOperation, IrSchema, JsonValue } from "../../ir/types.js";
import { exampleArgs, inline, type PackageInput } from "../package/examples.js";
import { schemaTypeContext, toTypeNode, typeText, type TypeNode } from "../types/type-node.js";
import { propertyKey } from "../escape.js";
import { accessOf, type McpAccess } from "./access.js";
import { JsonSchemaWriter, shorten, type JsonSchema } from "./json-schema.js";

/** The catalog as the runtime reads it (runtime/mcp/catalog.ts declares the same shape). */
export interface CatalogData {
  package: string;
  clients: { name: string; title: string; description?: string; baseUrl: string; apiKey: boolean; servers: string[] }[];
  operations: CatalogOperation[];
  defs: Record<string, JsonSchema>;
}

export interface CatalogOperation {
  /** The client's name in code mode, then the groups and the method: `["node", "platform", "getHeight"]`. */
  path: string[];
  /** The tools mode tool name (unique, `^[A-Za-z0-9_-]{1,64}$`). */
  tool: string;
  /** `GET /v1/chains`, or the JSON-RPC method and its endpoint. */
  wire: string;
  summary?: string;
  description?: string;
  signature: string;
  example: string;
  input: JsonSchema;
  /** For a group that is a function of its endpoint's variables: how many path members lead to it (after the client), and the variables, which the arguments carry. */
  endpoint?: { depth: number; variables: string[] };
  access: McpAccess;
  tags: string[];
  deprecated?: true;
  /** How it pages: the params that move to the next page and size a page, for the note on a cut result. */
  paging?: { param?: string; size?: string };
  /** Its response is a stream of items: a call returns the items that arrive (runtime/mcp/streams.ts). */
  stream?: true;
}

/** Signatures longer than this are cut: the JSON Schema has the rest. */
const SIGNATURE_CHARS = 700;
const DOC_CHARS = 600;

/** Every comment stripped and whitespace collapsed: one line of type text. */
function compact(t: TypeNode): string {
  const strip = (n: TypeNode): TypeNode => {
    switch (n.k) {
      case "object":
        return { k: "object", members: n.members.map((m) => ({ key: m.key, optional: m.optional, type: strip(m.type) })), ...(n.index ? { index: strip(n.index) } : {}) };
      case "union":
      case "inter":
        return { k: n.k, parts: n.parts.map(strip) };
      case "array":
        return { k: "array", elem: strip(n.elem) };
      case "tuple":
        return { k: "tuple", elems: n.elems.map(strip), ...(n.rest ? { rest: strip(n.rest) } : {}) };
      default:
        return n;
    }
  };
  const text = typeText(strip(t)).replace(/\s+/g, " ").replace(/ & IntegerString<"(decimal|hex)">/g, "");
  return text.length > SIGNATURE_CHARS ? `${text.slice(0, SIGNATURE_CHARS)}…` : text;
}

/** The tool name: the path joined by `_`, characters outside the allowed set replaced, at most 64 (a long one ends in a short hash). */
function toolName(path: string[], taken: Set<string>): string {
  let name = path.join("_").replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length > 64) name = `${name.slice(0, 55)}_${hash(name)}`;
  for (let n = 2; taken.has(name); n++) name = `${name.slice(0, 60)}_${n}`;
  taken.add(name);
  return name;
}

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).padStart(7, "0").slice(0, 8);
}

interface ModuleContext {
  ir: IrDocument;
  client: string;
  writer: JsonSchemaWriter;
  lookup: (key: string) => IrSchema | undefined;
}

/** The arguments' members and which are required, as JSON Schema, with the endpoint variables a group takes. */
function inputSchema(m: ModuleContext, op: IrOperation, variables: { name: string; enum?: string[]; description?: string }[]): JsonSchema {
  let properties: [string, JsonSchema][] = [];
  let required: string[] = [];
  if (op.protocol === "http") {
    for (const p of op.parameters) {
      const s = m.writer.write(p.schema);
      const description = shorten(p.description);
      properties.push([p.key, typeof s === "object" && description && !("description" in s) ? { ...s, description } : s]);
      if (p.required) required.push(p.key);
    }
    const body = op.requestBody?.content[0];
    if (body) {
      properties.push(["body", m.writer.write(body.schema)]);
      if (op.requestBody!.required) required.push("body");
    }
  } else if (op.transport.form === "one-object") {
    // callers pass the one object's fields: its schema is the arguments'
    const object = m.writer.write(op.params[0]!.schema);
    return typeof object === "object" ? { type: "object", ...object } : { type: "object" };
  } else {
    for (const p of op.params) {
      const s = m.writer.write(p.schema);
      const description = shorten(p.description);
      properties.push([p.name, typeof s === "object" && description && !("description" in s) ? { ...s, description } : s]);
      if (p.required) required.push(p.name);
    }
  }
  const own = new Set(properties.map(([k]) => k));
  const extra = variables.filter((v) => !own.has(v.name));
  properties = [...extra.map((v): [string, JsonSchema] => [v.name, { type: "string", ...(v.enum ? { enum: v.enum } : {}), ...(v.description ? { description: shorten(v.description)! } : {}) }]), ...properties];
  required = [...extra.map((v) => v.name), ...required];
  const members: Record<string, JsonValue> = {};
  for (const [k, v] of properties) Object.defineProperty(members, k, { value: v, enumerable: true, writable: true, configurable: true });
  return { type: "object", properties: members, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** `name(params: { … }): Promise<Result>` with the result's own members one level down when it is a named object. */
function signature(m: ModuleContext, op: IrOperation, path: string[], variables: string[], stream: boolean): string {
  const request = schemaTypeContext(m.ir.schemas, "request");
  const response = schemaTypeContext(m.ir.schemas, "response");
  const members: string[] = variables.map((v) => `${propertyKey(v)}: string`);
  let optional = variables.length === 0;
  if (op.protocol === "http") {
    for (const p of op.parameters) members.push(`${propertyKey(p.key)}${p.required ? "" : "?"}: ${compact(toTypeNode(p.schema, request))}`);
    const body = op.requestBody?.content[0];
    if (body) members.push(`body${op.requestBody!.required ? "" : "?"}: ${compact(toTypeNode(body.schema, request))}`);
    optional &&= !op.parameters.some((p) => p.required) && !op.requestBody?.required;
  } else if (op.transport.form === "one-object") {
    const object = objectWithProperties(op.params[0]?.schema, m.lookup);
    for (const p of object?.properties ?? []) members.push(`${propertyKey(p.name)}${p.required ? "" : "?"}: ${compact(toTypeNode(p.schema, request))}`);
    optional &&= !(object?.properties ?? []).some((p) => p.required);
  } else {
    for (const p of op.params) members.push(`${propertyKey(p.name)}${p.required ? "" : "?"}: ${compact(toTypeNode(p.schema, request))}`);
    optional &&= !op.params.some((p) => p.required);
  }
  const params = members.length === 0 ? "" : `params${optional ? "?" : ""}: { ${members.join("; ")} }`;
  // a stream answers with the items that arrived (runtime/mcp/streams.ts `CollectedStream`)
  const result = stream ? `{ items: Array<${resultText(m, op, response)}>; complete: boolean; error?: string }` : resultText(m, op, response);
  return `${path.join(".")}(${params}): Promise<${result}>`;
}

const streamed = (m: ModuleContext, op: IrOperation): boolean => op.protocol === "http" && httpResult(op, m.lookup).stream !== undefined;

function resultText(m: ModuleContext, op: IrOperation, ctx: ReturnType<typeof schemaTypeContext>): string {
  const schemas = op.protocol === "http" ? httpResult(op, m.lookup).schemas : op.result ? [op.result.schema] : [];
  if (schemas.length === 0) return op.protocol === "http" && httpResult(op, m.lookup).kind === "none" ? "void" : "unknown";
  const named = schemas.map((s) => compact(toTypeNode(s, ctx))).join(" | ");
  // a named object's members, so a snippet knows what to read from it
  const [only] = schemas;
  if (schemas.length === 1 && only!.kind === "ref") {
    const target = followRefs(only, m.lookup);
    if (target?.kind === "schema" && (target.properties || target.allOf || target.oneOf || target.anyOf)) return `${named} /* = ${compact(toTypeNode(target, ctx))} */`;
  }
  return named;
}

function example(m: ModuleContext, op: IrOperation, path: string[], variables: { name: string; default: string }[]): string {
  const args = { ...Object.fromEntries(variables.map((v) => [v.name, v.default])), ...(exampleArgs(m.ir, op) ?? {}) };
  return `await ${path.join(".")}(${Object.keys(args).length > 0 ? inline(args) : ""})`;
}

function doc(op: IrOperation): { summary?: string; description?: string } {
  const summary = shorten(op.summary, DOC_CHARS);
  const description = shorten(op.description, DOC_CHARS);
  return { ...(summary ? { summary } : {}), ...(description && description !== summary ? { description } : {}) };
}

function wire(op: IrOperation): string {
  return op.protocol === "http" ? `${op.transport.method.toUpperCase()} ${op.endpoint}${op.transport.path}` : `${op.transport.method} (JSON-RPC at ${op.endpoint || "/"})`;
}

function paging(op: IrHttpOperation): CatalogOperation["paging"] {
  const param = op.paging?.param?.key ?? op.paging?.cursors?.[0]?.param.key;
  const size = op.paging?.size?.key;
  return { ...(param ? { param } : {}), ...(size ? { size } : {}) };
}

/** The catalog of every client of the package; undefined when no input has a client. */
export function buildCatalog(packageName: string, inputs: readonly PackageInput[]): CatalogData | undefined {
  const clients = inputs.filter((i) => i.targets.has("client"));
  if (clients.length === 0) return undefined;
  const data: CatalogData = { package: packageName, clients: [], operations: [], defs: {} };
  const names = new Set<string>();
  const tools = new Set<string>();
  for (const i of clients) {
    let client = toIdentifier(i.output, "camel");
    for (let n = 2; names.has(client); n++) client = `${toIdentifier(i.output, "camel")}${n}`;
    names.add(client);
    const m: ModuleContext = { ir: i.ir, client, writer: new JsonSchemaWriter(i.ir.schemas, clients.length > 1 ? `${client}.` : ""), lookup: schemasOf(i.ir) };
    const servers = [...new Set(i.ir.operations.flatMap((op) => (op.protocol === "http" && op.server !== undefined ? [op.server] : [])))].sort();
    const description = shorten(i.ir.info.description, 400);
    data.clients.push({ name: client, title: i.ir.info.title, ...(description ? { description } : {}), baseUrl: i.ir.defaultBaseUrl, apiKey: i.ir.securitySchemes.length > 0, servers });
    for (const op of i.ir.operations) {
      if (op.mcp?.exclude) continue;
      const group = endpointGroupOf(i.ir, op.group);
      const variables = group?.variables ?? [];
      const path = [client, ...op.group, op.names.method];
      const own = new Set(op.protocol === "http" ? op.parameters.map((p) => p.key) : op.params.map((p) => p.name));
      const carried = variables.filter((v) => !own.has(v.name));
      const stream = streamed(m, op);
      data.operations.push({
        path,
        tool: toolName(path, tools),
        wire: wire(op),
        ...doc(op),
        signature: signature(m, op, path, carried.map((v) => v.name), stream),
        example: example(m, op, path, carried),
        input: inputSchema(m, op, carried),
        ...(group ? { endpoint: { depth: group.group.length, variables: carried.map((v) => v.name) } } : {}),
        access: accessOf(op),
        tags: op.tags,
        ...(op.deprecated ? { deprecated: true as const } : {}),
        ...(op.protocol === "http" && op.paging ? { paging: paging(op) } : {}),
        ...(stream ? { stream: true as const } : {}),
      });
    }
    for (const [name, schema] of m.writer.defs) Object.defineProperty(data.defs, name, { value: schema, enumerable: true, writable: true, configurable: true });
  }
  return data;
}
