/**
 * Streamed responses: a 2XX body whose media type is a sequence of items
 * (server-sent events, JSON Lines / NDJSON, JSON text sequences). The item
 * schema is OpenAPI 3.2's `itemSchema`, or, in a 3.0 or 3.1 document (or a
 * 3.2 one without it), the media type's `schema`, which those documents use
 * to describe one item. An event's data is JSON when the item schema
 * describes objects or arrays, and text otherwise (ADR 0025).
 */
import { followRefs } from "./resolve.js";
import type { IrMediaContent, IrOperation, IrSchema } from "./types.js";

export type StreamFormat = "sse" | "jsonl" | "json-seq";

export interface StreamedResult {
  kind: "text";
  /** The schemas of one item (empty: a text item whose schema does not describe strings). */
  schemas: IrSchema[];
  accept: string;
  stream: { format: StreamFormat; item: "json" | "text" };
}

const FORMATS: Readonly<Record<string, StreamFormat>> = { "text/event-stream": "sse", "application/jsonl": "jsonl", "application/x-ndjson": "jsonl", "application/x-jsonlines": "jsonl", "application/json-seq": "json-seq" };

/** The media type without parameters, in lower case (`text/event-stream`). */
const bare = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

/** The stream format of a media type, if it is one. */
export function streamFormat(contentType: string): StreamFormat | undefined {
  const type = bare(contentType);
  return Object.prototype.hasOwnProperty.call(FORMATS, type) ? FORMATS[type] : undefined;
}

/** Whether an HTTP operation's 2XX response is a stream of items: its first 2XX media type is a stream format. */
export function isStreamed(op: IrOperation): boolean {
  if (op.protocol !== "http") return false;
  const content = op.responses.find((r) => r.success && r.content.length > 0)?.content[0];
  return content !== undefined && streamFormat(content.contentType) !== undefined;
}

/** The streamed result of a 2XX media type, or undefined when it is not a stream. */
export function streamedResult(content: IrMediaContent | undefined, lookup: (key: string) => IrSchema | undefined): StreamedResult | undefined {
  const format = content && streamFormat(content.contentType);
  if (!content || !format) return undefined;
  const item = content.itemSchema ?? content.schema;
  const accept = bare(content.contentType);
  if (format !== "sse" || describesStructures(item, lookup)) return { kind: "text", schemas: [item], accept, stream: { format, item: "json" } };
  return { kind: "text", schemas: describesStrings(item, lookup) ? [item] : [], accept, stream: { format, item: "text" } };
}

/** A schema of JSON objects or arrays: its `type` says so, or it has properties or items. */
function describesStructures(s: IrSchema, lookup: (key: string) => IrSchema | undefined): boolean {
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema") return false;
  if (t.types !== undefined) return t.types.length > 0 && t.types.every((x) => x === "object" || x === "array");
  if (t.properties !== undefined || t.items !== undefined || t.prefixItems !== undefined) return true;
  return [t.allOf, t.oneOf, t.anyOf].some((list) => list !== undefined && list.length > 0 && list.every((x) => describesStructures(x, lookup)));
}

/** A schema every value of which is a string (not bytes): `type: string`, or an enum/const of strings. */
export function describesStrings(s: IrSchema, lookup: (key: string) => IrSchema | undefined): boolean {
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema" || t.format === "binary") return false;
  if (t.types !== undefined) return t.types.length > 0 && t.types.every((x) => x === "string");
  const values = t.const !== undefined ? [t.const.value] : t.enum;
  return values !== undefined && values.length > 0 && values.every((v) => typeof v === "string");
}
