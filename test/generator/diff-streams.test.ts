// `avaspec diff` rules for streamed responses (issue 31, ADR 0025): a response that becomes or stops being a stream,
// a stream format that changes, event data read as JSON or as text, and 3.2 item schemas compared like bodies.
// 3.0/3.1 documents go through the real front end; a 3.2 document (whose version check is another part of the issue)
// through the IR builder, which reads itemSchema whatever the version.
import { describe, expect, it } from "vitest";
import { diffModules, type Change, type DiffSide } from "../../generator/diff/index.js";
import { buildOpenApiIr } from "../../generator/ir/build-openapi.js";
import { loadText } from "../../generator/load/load.js";
import { diffSides, type Doc } from "../helpers/diff-sides.js";

const { side } = diffSides("avaspec-diff-streams-");
let n = 0;

function side32(doc: Doc): DiffSide {
  const file = `doc-${++n}.json`;
  const loaded = loadText(file, JSON.stringify(doc, null, 2)).document!;
  return { ir: buildOpenApiIr(loaded, []), locate: (_f, pointer) => loaded.locate(pointer), file };
}
const rules = (changes: Change[]) => changes.map((c) => [c.rule, c.class]);

const TICK = { type: "object", required: ["n"], properties: { n: { type: "integer" } } };
function doc(content: Doc, version = "3.1.0"): Doc {
  return { openapi: version, info: { title: "t", version: "1.0.0" }, paths: { "/ticks": { get: { operationId: "ticks", responses: { "200": { description: "d", content } } } } } };
}

describe("avaspec diff: streamed responses", () => {
  it("one JSON body becoming a stream of events breaks code; and back", () => {
    const body = doc({ "application/json": { schema: TICK } });
    const stream = doc({ "text/event-stream": { schema: TICK } });
    expect(rules(diffModules(side(body), side(stream)))).toContainEqual(["response-became-stream", "breaking-code"]);
    expect(rules(diffModules(side(stream), side(body)))).toContainEqual(["response-no-longer-stream", "breaking-code"]);
  });

  it("a stream's format changing breaks the wire; its event data turning from JSON to text breaks code", () => {
    const sse = doc({ "text/event-stream": { schema: TICK } });
    expect(rules(diffModules(side(sse), side(doc({ "application/x-ndjson": { schema: TICK } }))))).toContainEqual(["stream-format-changed", "breaking-wire"]);
    expect(rules(diffModules(side(sse), side(doc({ "text/event-stream": { schema: { type: "string" } } }))))).toContainEqual(["stream-item-kind-changed", "breaking-code"]);
    expect(diffModules(side(sse), side(doc({ "text/event-stream": { schema: TICK } })))).toEqual([]);
  });

  it("3.2 itemSchema: compared like a response body (a required item property removed breaks the wire)", () => {
    const before = doc({ "application/jsonl": { itemSchema: { ...TICK, properties: { n: { type: "integer" }, at: { type: "string" } }, required: ["n", "at"] } } }, "3.2.0");
    const after = doc({ "application/jsonl": { itemSchema: TICK } }, "3.2.0");
    const changes = diffModules(side32(before), side32(after));
    expect(changes.some((c) => c.class === "breaking-wire" && /200 item/.test(c.message))).toBe(true);
  });

  it("3.2: moving the item schema from schema to itemSchema is reported, and the schemas in force are compared", () => {
    const before = doc({ "application/jsonl": { schema: TICK } }, "3.2.0");
    const after = doc({ "application/jsonl": { itemSchema: { ...TICK, properties: { n: { type: "string" } } } } }, "3.2.0");
    const changes = diffModules(side32(before), side32(after));
    expect(rules(changes)).toContainEqual(["item-schema-added", "documentation"]);
    expect(changes.some((c) => c.class === "breaking-wire" && /200 item/.test(c.message))).toBe(true);
  });
});
