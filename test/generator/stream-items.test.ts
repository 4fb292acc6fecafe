// Which responses are streams, and what their item schema is (issue 31, ADR 0025): OpenAPI 3.2's itemSchema on any
// media type object, or the media type's schema in a 3.0 or 3.1 document. Built through the IR builder directly:
// the document check of 3.2 is another part of the issue (oas32), and the IR reads itemSchema whatever the version.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../generator/load/diagnostics.js";
import { loadText } from "../../generator/load/load.js";
import { buildOpenApiIr } from "../../generator/ir/build-openapi.js";
import { httpResult, schemasOf } from "../../generator/ir/results.js";
import type { IrHttpOperation } from "../../generator/ir/types.js";

function results(version: string, content: Record<string, unknown>) {
  const doc = {
    openapi: version,
    info: { title: "t", version: "1" },
    paths: { "/s": { get: { operationId: "s", responses: { "200": { description: "d", content } } } } },
    components: { schemas: { Tick: { type: "object", properties: { n: { type: "integer" } } } } },
  };
  const diagnostics: Diagnostic[] = [];
  const ir = buildOpenApiIr(loadText("doc.json", JSON.stringify(doc)).document!, diagnostics);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return httpResult(ir.operations[0] as IrHttpOperation, schemasOf(ir));
}
const ref = (r: { schemas: unknown[] }) => (r.schemas[0] as { kind: string; target?: string } | undefined)?.target ?? (r.schemas[0] as { kind?: string } | undefined)?.kind;

describe("streamed responses in the IR", () => {
  it("3.2: itemSchema is the item schema, of events and of JSON Lines alike", () => {
    const sse = results("3.2.0", { "text/event-stream": { itemSchema: { $ref: "#/components/schemas/Tick" } } });
    expect(sse.stream).toEqual({ format: "sse", item: "json" });
    expect(ref(sse)).toMatch(/Tick$/);
    expect(sse.accept).toBe("text/event-stream");
    const lines = results("3.2.0", { "application/jsonl": { itemSchema: { $ref: "#/components/schemas/Tick" } } });
    expect(lines.stream).toEqual({ format: "jsonl", item: "json" });
    expect(ref(lines)).toMatch(/Tick$/);
  });

  it("3.0 and 3.1: the media type's schema is the item schema; NDJSON and json-seq are streams too", () => {
    for (const version of ["3.0.3", "3.1.0"]) {
      expect(results(version, { "text/event-stream": { schema: { $ref: "#/components/schemas/Tick" } } }).stream).toEqual({ format: "sse", item: "json" });
      expect(results(version, { "application/x-ndjson": { schema: { $ref: "#/components/schemas/Tick" } } }).stream).toEqual({ format: "jsonl", item: "json" });
      expect(results(version, { "application/json-seq": { schema: { type: "object" } } }).stream).toEqual({ format: "json-seq", item: "json" });
    }
  });

  it("an event whose schema is not an object or array is text: typed by a string schema, else untyped", () => {
    const text = results("3.1.0", { "text/event-stream": { schema: { type: "string" } } });
    expect(text.stream).toEqual({ format: "sse", item: "text" });
    expect(text.schemas).toHaveLength(1);
    const number = results("3.1.0", { "text/event-stream": { schema: { type: "integer" } } });
    expect(number.stream).toEqual({ format: "sse", item: "text" });
    expect(number.schemas).toEqual([]);
  });

  it("JSON offered first wins: the response is one body", () => {
    const r = results("3.1.0", { "application/json": { schema: { $ref: "#/components/schemas/Tick" } }, "text/event-stream": { schema: { $ref: "#/components/schemas/Tick" } } });
    expect(r.stream).toBeUndefined();
    expect(r.kind).toBe("json");
  });
});
