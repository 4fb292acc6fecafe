/**
 * The diff rules for streamed responses (ADR 0025): an operation that starts
 * or stops answering with a stream of items (its call returns an ItemStream,
 * or one body), a stream whose format changes (server-sent events, JSON
 * Lines, json-seq), event data that is now read as JSON or as text, and the
 * item schemas of OpenAPI 3.2 (`itemSchema`), compared like bodies.
 */
import { schemasOf } from "../ir/results.js";
import { streamedResult, streamFormat } from "../ir/streams.js";
import type { IrHttpOperation, IrMediaContent } from "../ir/types.js";
import { sides, type ChangeList } from "./changes.js";
import type { SchemaRules } from "./schema-rules.js";

const firstSuccess = (op: IrHttpOperation) => op.responses.find((r) => r.success && r.content.length > 0);
const FORMAT_NAMES = { sse: "server-sent events", jsonl: "JSON Lines", "json-seq": "JSON text sequences" } as const;

export function compareStreams(changes: ChangeList, schemas: SchemaRules, o: IrHttpOperation, n: IrHttpOperation, operation: string, files: [string, string]): void {
  const or = firstSuccess(o);
  const nr = firstSuccess(n);
  const oc = or?.content[0];
  const nc = nr?.content[0];
  const of = oc && streamFormat(oc.contentType);
  const nf = nc && streamFormat(nc.contentType);
  const at = sides(operation, or ? [files[0], or.pointer] : [files[0], o.pointer], nr ? [files[1], nr.pointer] : [files[1], n.pointer]);
  if (!of && nf) changes.add("response-became-stream", "breaking-code", `${operation}: the ${nr!.status} response is now a stream of items (${nc!.contentType}): the call returns an ItemStream instead of one body`, at);
  else if (of && !nf) changes.add("response-no-longer-stream", "breaking-code", `${operation}: the ${nr?.status ?? "success"} response is no longer a stream of items: the call returns one body instead of an ItemStream`, at);
  else if (of && nf && of !== nf) changes.add("stream-format-changed", "breaking-wire", `${operation}: the stream is now ${FORMAT_NAMES[nf]} (was ${FORMAT_NAMES[of]})`, at);
  else if (of === "sse" && nf === "sse") {
    const oi = streamedResult(oc, schemasOf(changes.oldSide.ir))!.stream.item;
    const ni = streamedResult(nc, schemasOf(changes.newSide.ir))!.stream.item;
    if (oi !== ni) changes.add("stream-item-kind-changed", "breaking-code", `${operation}: each event's data is now ${ni === "json" ? "parsed as JSON" : "text"} (was ${oi === "json" ? "parsed as JSON" : "text"})`, at);
  }
  // item schemas: 3.2's itemSchema of each media type both sides have (the loop over responses compares `schema`)
  for (const r of o.responses) {
    const s = n.responses.find((x) => x.status === r.status);
    for (const c of s ? r.content : []) {
      const d = s!.content.find((x) => x.contentType === c.contentType);
      if (d && (c.itemSchema || d.itemSchema)) compareItems(changes, schemas, c, d, operation, files, `${r.status} item`);
    }
  }
}

function compareItems(changes: ChangeList, schemas: SchemaRules, c: IrMediaContent, d: IrMediaContent, operation: string, files: [string, string], where: string): void {
  if (c.itemSchema && d.itemSchema) return schemas.compare(c.itemSchema, d.itemSchema, "response", operation, files, where);
  const at = sides(operation, [files[0], (c.itemSchema ?? c.schema).pointer], [files[1], (d.itemSchema ?? d.schema).pointer]);
  if (d.itemSchema) changes.add("item-schema-added", "documentation", `${operation}: the ${c.contentType} items are described by an itemSchema now`, at);
  else changes.add("item-schema-removed", "documentation", `${operation}: the ${c.contentType} items lost their itemSchema`, at);
  // the item schema in force before and after: itemSchema, else schema (ADR 0025)
  schemas.compare(c.itemSchema ?? c.schema, d.itemSchema ?? d.schema, "response", operation, files, where);
}
