// The SSE parser against the WHATWG standard's own examples, and differentially against eventsource-parser on
// random streams cut into random chunks; the JSON Lines and json-seq record readers.
import fc from "fast-check";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { createSseParser, type SseEvent } from "../../runtime/stream/sse.js";
import { createRecordReader } from "../../runtime/stream/lines.js";
import { StreamEventTooLargeError } from "../../runtime/stream/errors.js";

type Out = { event: { type: string; data: string; id: string | undefined } } | { retry: number } | { comment: string };

function ours(chunks: readonly string[]): { out: Out[]; events: SseEvent[] } {
  const out: Out[] = [];
  const events: SseEvent[] = [];
  const parser = createSseParser({
    event: (e) => (events.push(e), out.push({ event: { type: e.type, data: e.data, id: e.id } })),
    retry: (ms) => out.push({ retry: ms }),
    comment: (text) => out.push({ comment: text }),
  });
  for (const c of chunks) parser.feed(c);
  parser.end();
  return { out, events };
}

/** eventsource-parser, behind the UTF-8 decoding an EventSource does first (it drops one leading BOM). */
function theirs(chunks: readonly string[]): Out[] {
  const out: Out[] = [];
  const parser = createParser({
    onEvent: (e) => out.push({ event: { type: e.event ?? "message", data: e.data, id: e.id } }),
    onRetry: (ms) => out.push({ retry: ms }),
    onComment: (text) => out.push({ comment: text }),
  });
  // A CR ends a line at once (the standard's end-of-line is CRLF, LF or CR). eventsource-parser holds a CR that ends a
  // chunk until a later chunk with a line break arrives (a chunk without one is only buffered), so the line it ends
  // may wait forever. Here a chunk's trailing CR goes with the next chunk, and one that ends the stream is followed by
  // an LF: the same line end either way, which lets it see every line the stream completes.
  let first = true;
  let carry = "";
  for (let c of chunks) {
    if (first && c !== "") {
      first = false;
      if (c.charCodeAt(0) === 0xfeff) c = c.slice(1);
    }
    c = carry + c;
    carry = c.endsWith("\r") ? "\r" : "";
    if (carry) c = c.slice(0, -1);
    if (c !== "") parser.feed(c);
  }
  if (carry) parser.feed("\r\n");
  return out;
}

const data = (events: SseEvent[]) => events.map((e) => [e.type, e.data, e.lastEventId]);

describe("SSE parser: the standard's examples", () => {
  it("joins data lines with LF", () => {
    expect(data(ours(["data: YHOO\ndata: +2\ndata: 10\n\n"]).events)).toEqual([["message", "YHOO\n+2\n10", ""]]);
  });
  it("keeps the last event id until an id line replaces it; an event the stream ends inside is dropped", () => {
    const { events } = ours([": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"]);
    expect(data(events)).toEqual([
      ["message", "first event", "1"],
      ["message", "second event", ""],
    ]);
  });
  it("dispatches empty data, not a block without data lines", () => {
    expect(data(ours(["data\n\ndata\ndata\n\ndata:"]).events)).toEqual([
      ["message", "", ""],
      ["message", "\n", ""],
    ]);
  });
  it("removes one space after the colon, not more", () => {
    expect(data(ours(["data:test\n\ndata: test\n\ndata:  test\n\n"]).events).map((e) => e[1])).toEqual(["test", "test", " test"]);
  });
  it("ends lines at CR, LF and CRLF, a CRLF split across chunks included; drops one leading BOM", () => {
    const { events } = ours(["\uFEFFevent: a\rdata: 1\r", "\nid: x\r\n\r", "\ndata: 2\n\n\uFEFFdata: 3\n\n"]);
    expect(data(events)).toEqual([
      ["a", "1", "x"],
      ["message", "2", "x"],
    ]);
  });
  it("an id with NUL is ignored, a data-less block still sets the last event id, retry must be digits", () => {
    const retries: number[] = [];
    const events: SseEvent[] = [];
    const p = createSseParser({ event: (e) => events.push(e), retry: (ms) => retries.push(ms) });
    p.feed("id: 7\n\nid: 8\0\ndata: a\n\nretry: 1500\nretry: 15x\nretry:\nretry: -1\n\n");
    expect(p.lastEventId).toBe("7");
    expect(events.map((e) => [e.data, e.id, e.lastEventId])).toEqual([["a", undefined, "7"]]);
    expect(retries).toEqual([1500]);
  });
  it("starts from a given last event id (a resumed stream)", () => {
    expect(data(ours([]).events)).toEqual([]);
    const events: SseEvent[] = [];
    createSseParser({ event: (e) => events.push(e) }, { lastEventId: "41" }).feed("data: x\n\n");
    expect(events[0]!.lastEventId).toBe("41");
  });
  it("throws a StreamEventTooLargeError once an event outgrows maxEventSize", () => {
    const p = createSseParser({ event: () => undefined }, { maxEventSize: 10 });
    p.feed("data: 12345\n\n");
    expect(() => p.feed("data: 12345\ndata: 67890\n")).toThrow(StreamEventTooLargeError);
  });
});

const TOKENS = ["data", "data:", "data: ", "data:x", "data: héllo", "id", "id:", "id: 1", "id: 2", "id: a\0b", "event", "event:", "event: up", "event:x", "retry", "retry: 100", "retry:7", "retry: 1x", "retry:", ":", ": c", ":x", "x", "x:", "dat", "datum: 1", " ", "\t", "é", "😀", ":: ", "\r", "\n", "\r\n", "\n\n", "\r\r", "\0"];

const stream = fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 })).map(([bom, t]) => (bom ? "\uFEFF" : "") + t.join(""));
const chunked = stream.chain((text) => fc.tuple(fc.constant(text), fc.uniqueArray(fc.integer({ min: 0, max: text.length }), { maxLength: 12 })));

function cut(text: string, at: number[]): string[] {
  const points = [0, ...[...at].sort((a, b) => a - b), text.length];
  return points.slice(1).map((p, i) => text.slice(points[i], p));
}

describe("SSE parser: differential against eventsource-parser", () => {
  it("gives the same events, retries and comments on random streams cut into random chunks", () => {
    fc.assert(
      fc.property(chunked, ([text, at]) => {
        const chunks = cut(text, at);
        const mine = ours(chunks).out;
        expect(mine).toEqual(theirs(chunks));
        // and the cut never matters
        expect(mine).toEqual(ours([text]).out);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("JSON record readers", () => {
  it("JSON Lines: LF or CRLF, blank lines skipped, a last line without LF kept", () => {
    const got: string[] = [];
    const r = createRecordReader("jsonl", (t) => got.push(t));
    for (const c of ['{"a":1}\r', '\n\n{"a"', ':2}\n3', "4"]) r.feed(c);
    r.end();
    expect(got).toEqual(['{"a":1}', '{"a":2}', "34"]);
  });
  it("json-seq: records start with RS", () => {
    const got: string[] = [];
    const r = createRecordReader("json-seq", (t) => got.push(t));
    r.feed('\u001e{"a":1}\n\u001e[2');
    r.feed("]\n");
    r.end();
    expect(got).toEqual(['{"a":1}', "[2]"]);
  });
  it("a record over the limit is a StreamEventTooLargeError", () => {
    const r = createRecordReader("jsonl", () => undefined, 4);
    expect(() => r.feed("123456")).toThrow(StreamEventTooLargeError);
  });
});
