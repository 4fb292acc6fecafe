/**
 * How the mocks answer an operation whose response is a stream of items
 * (ADR 0025): a finite, deterministic sequence of items (the spec's example,
 * or items synthesized from the item schema, each with its own salt), written
 * one chunk per item, paced, and, for server-sent events, with ids 1, 2, …
 * so that a client resuming with `Last-Event-ID` gets the items after it,
 * as a real server would.
 */
import type { MockBodies } from "./bodies.js";
import type { MockHttpEntry, MockResponse, MockTable } from "./types.js";

/** Items a streamed operation serves, and the pause before each, unless the service options say otherwise. */
export const STREAM_ITEMS = 5;
export const STREAM_INTERVAL_MS = 20;

interface StreamSpec {
  format: "sse" | "jsonl" | "json-seq";
  item: "json" | "text";
}

/** The stream a descriptor describes, if its response is one. */
export function streamOf(entry: MockHttpEntry): StreamSpec | undefined {
  return (entry.op as { stream?: StreamSpec }).stream;
}

/** One item as its chunk of the stream. */
function chunk(spec: StreamSpec, value: unknown, id: number): string {
  const text = spec.item === "text" && typeof value === "string" ? value : JSON.stringify(value);
  if (spec.format === "jsonl") return `${text}\n`;
  if (spec.format === "json-seq") return `\u001e${text}\n`;
  // a text item with line breaks takes one data line per line
  return `id: ${id}\n${text.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join("")}\n`;
}

/**
 * The streamed answer: `items` items (ids 1…items), those after the request's `Last-Event-ID` when it names one of
 * them, each one chunk. `first` is the item the service would answer as one body (an override's, or item 1).
 */
export function streamedAnswer(init: { entry: MockHttpEntry; table: MockTable; bodies: MockBodies; first: unknown; status: number; headers: Record<string, string> | undefined; lastEventId: string | undefined; items: number; intervalMs: number }): MockResponse {
  const { entry, table, bodies } = init;
  const spec = streamOf(entry)!;
  const after = spec.format === "sse" && init.lastEventId !== undefined && /^\d+$/.test(init.lastEventId) ? Number(init.lastEventId) : 0;
  const chunks: string[] = [];
  for (let id = after + 1; id <= init.items; id++) chunks.push(chunk(spec, id === 1 ? init.first : bodies.body(entry, table, `item${id}`), id));
  const type = entry.op.accept ?? "text/event-stream";
  return { status: init.status, headers: { "content-type": type, "cache-control": "no-cache", ...init.headers }, body: chunks.join(""), chunks, intervalMs: init.intervalMs, handled: entry.op.id };
}
