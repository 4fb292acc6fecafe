/**
 * An HTTP operation's wire description, as its descriptor gives it to the
 * runtime (where the request goes, how each parameter and the body are
 * serialized, how the 2XX body is read), and the type of what a call returns.
 * Both come from the same IR answers, so the type is what the runtime returns.
 */
import { apiKeySchemes } from "../../ir/api-keys.js";
import { followRefs } from "../../ir/resolve.js";
import { wireMethod } from "../../load/operations.js";
import { returnedStatuses } from "../../ir/errors.js";
import { httpResult, schemasOf, type HttpResult } from "../../ir/results.js";
import type { IrDocument, IrFieldEncoding, IrHttpOperation, IrParameter, IrSchema } from "../../ir/types.js";
import { comment } from "../escape.js";
import { toTypeNode, type TypeContext, type TypeNode } from "../types/type-node.js";
import { CodeCall, CodeRef } from "../value.js";

/** Where an operation's requests go, for documentation: its own server and path, or its path below the client's base URL. */
export function httpTarget(op: IrHttpOperation): string {
  return op.server !== undefined ? op.server + op.transport.path : op.endpoint + op.transport.path;
}

/**
 * The descriptor's wire fields, in the order they are written, with `rest`
 * (idempotency, checks, walkers…) placed after the response kind. Runtime
 * encoders the descriptor names are added to `encoders` (they are imported).
 */
export function httpDescriptor(ir: IrDocument, op: IrHttpOperation, encoders: Set<string>, rest: { idempotent?: true; deprecated?: string } & Record<string, unknown>, exactBody = false): Record<string, unknown> & { method: string; path: string } {
  const keys = apiKeySchemes(ir, op);
  const returns = returnedStatuses(op);
  const body = op.requestBody?.content[0];
  const result = httpResult(op, schemasOf(ir));
  const { idempotent, deprecated, ...checks } = rest;
  return {
    id: op.id || op.names.method,
    method: wireMethod(op.transport.method),
    // an operation with a server of its own is not below the module's endpoint
    path: op.server !== undefined ? op.transport.path : op.endpoint + op.transport.path,
    server: op.server,
    params: op.parameters.map((p) => paramSpec(p, encoders, schemasOf(ir))),
    body: op.requestBody ? { required: op.requestBody.required, contentType: body?.contentType ?? "application/json", encode: bodyEncoder(body?.contentType, encoders, exactBody), fields: fieldStyles(body?.encoding) } : undefined,
    response: result.kind,
    accept: result.accept,
    stream: result.stream,
    idempotent,
    deprecated,
    apiKeys: keys.length > 0 ? keys.map((k) => ({ scheme: k.id, name: k.name, ...(k.in === "query" ? { in: "query" } : {}) })) : undefined,
    returns: returns.length > 0 ? returns : undefined,
    advice: op.advice,
    ...checks,
  };
}

/** The styled fields of a form body, as the runtime's `FieldStyle`s. */
function fieldStyles(encoding: Record<string, IrFieldEncoding> | undefined): Record<string, unknown> | undefined {
  if (encoding === undefined) return undefined;
  return Object.fromEntries(Object.entries(encoding).map(([field, e]) => [field, { style: e.style, explode: e.explode, allowReserved: e.allowReserved || undefined }]));
}

function paramSpec(p: IrParameter, encoders: Set<string>, lookup: (key: string) => IrSchema | undefined): Record<string, unknown> {
  const encode = encoderOf(p, lookup);
  if (encode) encoders.add(encode);
  return {
    name: p.name,
    key: p.key === p.name ? undefined : p.key,
    in: p.in,
    required: p.required || undefined,
    style: p.style === (p.in === "query" || p.in === "cookie" ? "form" : "simple") ? undefined : p.style,
    explode: p.explode === (p.style === "form") ? undefined : p.explode,
    allowReserved: p.allowReserved || undefined,
    content: p.contentType === undefined ? undefined : /json/i.test(p.contentType) ? "json" : /^application\/x-www-form-urlencoded\b/i.test(p.contentType) ? "form" : undefined,
    encode: encode ? new CodeRef(encode) : undefined,
  };
}

/**
 * The runtime encoder of a parameter whose style is not the location's
 * default (path `simple`; query and cookie `form` exploded), or that keeps
 * reserved characters, or a header that may be an object, or a query
 * parameter given by a media type (`content`): bundles of
 * operations without them carry no style code.
 */
function encoderOf(p: IrParameter, lookup: (key: string) => IrSchema | undefined): "pathStyle" | "queryStyle" | "headerStyle" | "contentQuery" | undefined {
  // a query parameter or querystring given by a media type: serialized as that type says, not by a style
  if (p.in === "querystring" || (p.in === "query" && p.contentType !== undefined)) return "contentQuery";
  if (p.in === "path") return p.style !== "simple" || p.explode ? "pathStyle" : undefined;
  if (p.in === "query" || p.in === "cookie") return p.style !== "form" || !p.explode || p.allowReserved ? "queryStyle" : undefined;
  const t = followRefs(p.schema, lookup);
  const scalarOrArray = t?.kind === "schema" && t.types !== undefined && !t.types.includes("object");
  return scalarOrArray ? undefined : "headerStyle";
}

/**
 * The runtime encoder of a request body that is neither JSON nor raw (form
 * fields, multipart parts), or of a JSON body that may hold integers beyond
 * 2^53 (`exact`: written with all their digits, which JSON.stringify cannot).
 */
function bodyEncoder(contentType: string | undefined, runtime: Set<string>, exact: boolean): CodeRef | CodeCall | undefined {
  const name = contentType === undefined ? undefined : /^application\/x-www-form-urlencoded\b/i.test(contentType) ? "formBody" : /^multipart\/form-data\b/i.test(contentType) ? "multipartBody" : undefined;
  if (name) runtime.add(name);
  if (name) return new CodeRef(name);
  if (!exact || contentType === undefined || !/json/i.test(contentType)) return undefined;
  runtime.add("exactBody");
  return new CodeCall(new CodeRef("exactBody"), [contentType]);
}

const raw = (text: string): TypeNode => ({ k: "raw", text });

/** The type of what a call returns, and the sentence documenting it. */
export function httpResultType(ir: IrDocument, op: IrHttpOperation, ctx: TypeContext): { type: TypeNode; docs: string } {
  const result = httpResult(op, schemasOf(ir));
  const parts = result.schemas.map((s) => toTypeNode(s, ctx));
  const union = (list: TypeNode[]): TypeNode => (list.length === 1 ? list[0]! : { k: "union", parts: list });
  const head = `Successful (2XX) response body of \`${comment(op.names.method)}\``;
  if (result.stream) return streamItemType(op, result, union(parts.length > 0 ? parts : [raw(result.stream.item === "json" ? "unknown" : "string")]));
  switch (result.kind) {
    case "none":
      return { type: raw("void"), docs: `${head}.` };
    case "binary":
      // bytes arrive as a Blob, whatever the schema says about them
      return { type: raw("Blob"), docs: `${head}.` };
    case "any":
      return { type: union([...parts, raw("string")]), docs: `${head}, declared for any media type (${comment("`*/*`")}): the parsed JSON when the response's content type is JSON, else the body as text.` };
    case "text":
      return parts.length > 0 ? { type: union(parts), docs: `${head}.` } : { type: raw("string"), docs: `${head}: the text as received${textNote(result)}.` };
    default:
      return { type: union(parts), docs: `${head}.` };
  }
}

/** The type of one item of a streamed response, and its sentence. */
function streamItemType(op: IrHttpOperation, result: HttpResult, type: TypeNode): { type: TypeNode; docs: string } {
  const what = result.stream!.format === "sse" ? (result.stream!.item === "json" ? "the data of one server-sent event, parsed as JSON" : "the data of one server-sent event, as text") : "one JSON item of the stream";
  return { type, docs: `One item of \`${comment(op.names.method)}\`'s streamed (2XX) response (${comment(result.accept ?? "")}): ${what}. The call returns them one by one as an \`ItemStream\`.` };
}

/** What the schema of a text body describes, which the client does not parse. */
function textNote(result: HttpResult): string {
  return result.accept === "text/event-stream" ? ", the whole event stream once the server ends it (the schema describes each event's data; the events are not parsed)" : " (the schema describes its content, which is not parsed)";
}
