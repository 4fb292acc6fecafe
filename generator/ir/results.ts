/**
 * What an HTTP call resolves to: how the runtime reads a 2XX body (its
 * `response` kind) and the schemas the returned value is typed and checked
 * by. The client's result types, the result checks and the naming pass all
 * read this one answer, so a type never claims more than the call returns.
 */
import { followRefs, namedSchema } from "./resolve.js";
import { describesStrings, streamedResult, type StreamedResult } from "./streams.js";
import type { IrDocument, IrHttpOperation, IrSchema } from "./types.js";

/**
 * How a 2XX body is read: parsed JSON; text (`text/*`, XML); bytes, returned
 * as a Blob (any other media type, or a binary schema); `any` for `*∕*`
 * (parsed when the response says it is JSON, else text); or nothing.
 */
export type ResponseKind = "json" | "text" | "binary" | "any" | "none";

export interface HttpResult {
  kind: ResponseKind;
  /**
   * The schemas of the value a call returns, which type it and which
   * `validateResponse` checks: the JSON bodies (for `any`, the value when the
   * response is JSON); a text body's schemas only when they describe strings.
   * Empty when the kind alone types the value (`string`, `Blob`, `void`).
   */
  schemas: IrSchema[];
  /** What to ask for in `Accept` when the runtime's default for the kind would not say it (`text/event-stream`). */
  accept?: string;
  /**
   * Set when the 2XX body is a stream of items (streams.ts): the call returns
   * them one by one, and `schemas` are the schemas of an item, not of the body.
   */
  stream?: StreamedResult["stream"];
}

type Lookup = (key: string) => IrSchema | undefined;

/** Looks named schemas up by key in a module. */
export const schemasOf =
  (ir: Pick<IrDocument, "schemas">): Lookup =>
  (key) =>
    namedSchema(ir, key)?.schema;

const isJson = (type: string) => /json/i.test(type);

/** The first media type of the first 2XX response that has a body (JSON is listed first where offered). */
function firstSuccessContent(op: IrHttpOperation) {
  return op.responses.find((r) => r.success && r.content.length > 0)?.content[0];
}

export function responseKind(op: IrHttpOperation, lookup: Lookup): ResponseKind {
  const c = firstSuccessContent(op);
  if (!c) return "none";
  if (isJson(c.contentType)) return "json";
  // any media type: bytes when the schema says so, else JSON or text as the response says
  if (/^\*\/\*(\s*;|$)/.test(c.contentType)) return isBinary(c.schema, lookup) ? "binary" : "any";
  return /^text\/|xml/i.test(c.contentType) ? "text" : "binary";
}

/** The distinct schemas of an operation's 2XX bodies (first media type each). */
export function successBodies(op: IrHttpOperation): IrSchema[] {
  const out: IrSchema[] = [];
  for (const r of op.responses) {
    const c = r.success ? r.content[0] : undefined;
    if (c && !out.some((s) => s.kind === "ref" && c.schema.kind === "ref" && s.target === c.schema.target)) out.push(c.schema);
  }
  return out;
}

export function httpResult(op: IrHttpOperation, lookup: Lookup): HttpResult {
  const streamed = streamedResult(firstSuccessContent(op), lookup);
  if (streamed) return streamed;
  const kind = responseKind(op, lookup);
  if (kind === "none" || kind === "binary") return { kind, schemas: [] };
  const bodies = successBodies(op);
  if (kind !== "text") return { kind, schemas: bodies };
  // a text body is a string: a schema of something else (an event stream's events, a count) describes its content, not the value
  const type = firstSuccessContent(op)!.contentType.split(";")[0]!.trim().toLowerCase();
  return { kind, schemas: bodies.every((s) => describesStrings(s, lookup)) ? bodies : [], ...(type === "text/plain" ? {} : { accept: type }) };
}

/** Raw bytes: `format: binary` (3.0), or a 3.1 `contentMediaType` (the schema builder spells it the same). */
function isBinary(s: IrSchema, lookup: Lookup): boolean {
  const t = followRefs(s, lookup);
  return t?.kind === "schema" && t.format === "binary";
}
