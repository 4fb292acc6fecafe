// Typed HTTP streams against a real node:http server on 127.0.0.1: server-sent events resumed after a dropped
// connection with Last-Event-ID, a refused or skipping resume reported as a gap, each item once and in order,
// malformed and oversized events, validation, abort, and JSON Lines.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AbortError, AvaspecError, NetworkError, NotFoundError, ValidationError } from "../../runtime/errors/errors.js";
import { resolveHttpConfig, resultChecks, type HttpClientOptions } from "../../runtime/http/http.js";
import { MalformedEventError, StreamEventTooLargeError, StreamGapError, type StreamGap } from "../../runtime/stream/errors.js";
import { streamHttp, type StreamOperation, type StreamOptions } from "../../runtime/stream/http-stream.js";
import type { Check } from "../../runtime/values/validate.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base: string;
let handler: Handler = (_q, s) => s.end();

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const sse: StreamOperation<Record<string, never>, { n: number }> = { id: "ticks", method: "GET", path: "/ticks", params: [], response: "text", accept: "text/event-stream", idempotent: true, stream: { format: "sse", item: "json" } };
const lines: StreamOperation<Record<string, never>, { n: number }> = { ...sse, id: "lines", accept: "application/jsonl", stream: { format: "jsonl", item: "json" } };
const isTick: Check = (x, p, e) => {
  const ok = typeof x === "object" && x !== null && typeof (x as { n?: unknown }).n === "number";
  if (!ok) e?.push({ path: `${p}/n`, message: "must be a number" });
  return ok;
};
const client = (options: HttpClientOptions = {}) => resolveHttpConfig(options, base, resultChecks([[sse, isTick], [lines, isTick]]));

const event = (n: number) => `id: ${n}\ndata: {"n":${n}}\n\n`;
const eventsFrom = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i)).join("");
const headers = { "content-type": "text/event-stream", "cache-control": "no-cache" };

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}
const ns = (items: { n: number }[]) => items.map((i) => i.n);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("server-sent events", () => {
  it("delivers 100,000 events in order, once each", async () => {
    handler = (_q, res) => {
      res.writeHead(200, headers);
      for (let i = 1; i <= 100_000; i += 1000) res.write(eventsFrom(i, i + 999));
      res.end();
    };
    const items = await collect(streamHttp(client({ validateResponse: "strict" }), sse, {}));
    expect(items.length).toBe(100_000);
    expect(items.every((item, i) => item.n === i + 1)).toBe(true);
  });

  it("resumes a dropped connection from Last-Event-ID after the server's retry, and drops what it replays", async () => {
    const seen: (string | undefined)[] = [];
    handler = (req, res) => {
      const last = req.headers["last-event-id"] as string | undefined;
      seen.push(last);
      res.writeHead(200, headers);
      if (last === undefined) {
        // half an event, then the connection breaks
        res.write(`retry: 5\n\n${eventsFrom(1, 50)}id: 51\ndata: {"n"`);
        setTimeout(() => res.destroy(), 20);
      } else res.end(eventsFrom(Number(last) - 5, 100)); // replays five it had sent
    };
    const reconnects: unknown[] = [];
    const items = await collect(streamHttp(client(), sse, {}, { onReconnect: (info) => reconnects.push(info) }));
    expect(ns(items)).toEqual(range(1, 100));
    expect(seen).toEqual([undefined, "50"]);
    expect(reconnects).toEqual([{ attempts: 1, lastEventId: "50" }]);
  });

  it("reports a gap when the server refuses to resume, then goes on from a fresh stream", async () => {
    handler = (req, res) => {
      if (req.headers["last-event-id"] !== undefined) return void res.writeHead(412).end();
      res.writeHead(200, headers);
      if (!refusedOnce) {
        refusedOnce = true;
        res.write(`retry: 5\n\n${eventsFrom(1, 10)}`);
        setTimeout(() => res.destroy(), 20);
      } else res.end(eventsFrom(1, 10) + eventsFrom(31, 40)); // starts over, then goes on live
    };
    let refusedOnce = false;
    const gaps: StreamGap[] = [];
    const items = await collect(streamHttp(client(), sse, {}, { onGap: (g) => gaps.push(g) }));
    expect(gaps).toEqual([{ lastEventId: "10", reason: "refused", status: 412 }]);
    expect(ns(items)).toEqual([...range(1, 10), ...range(31, 40)]);
  });

  it("without onGap, a refused resume ends the stream with a StreamGapError", async () => {
    handler = (req, res) => {
      if (req.headers["last-event-id"] !== undefined) return void res.writeHead(410).end();
      res.writeHead(200, headers);
      res.write(`retry: 5\n\n${eventsFrom(1, 3)}`);
      setTimeout(() => res.destroy(), 20);
    };
    const items: number[] = [];
    const error = await (async () => {
      for await (const item of streamHttp(client(), sse, {})) items.push(item.n);
    })().catch((e: unknown) => e);
    expect(items).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(StreamGapError);
    expect(error).toBeInstanceOf(AvaspecError);
    expect((error as StreamGapError).gap).toEqual({ lastEventId: "3", reason: "refused", status: 410 });
  });

  it("reports a gap when the ids count up and the resumed stream skips some", async () => {
    handler = (req, res) => {
      res.writeHead(200, headers);
      if (req.headers["last-event-id"] === undefined) {
        res.write(`retry: 5\n\n${eventsFrom(1, 5)}`);
        setTimeout(() => res.destroy(), 20);
      } else res.end(eventsFrom(9, 12));
    };
    const gaps: StreamGap[] = [];
    const items = await collect(streamHttp(client(), sse, {}, { onGap: (g) => gaps.push(g) }));
    expect(gaps).toEqual([{ lastEventId: "5", reason: "skipped", nextEventId: "9" }]);
    expect(ns(items)).toEqual([1, 2, 3, 4, 5, 9, 10, 11, 12]);
  });

  it("a stream whose events carry no id cannot resume: the drop is a NetworkError", async () => {
    handler = (_q, res) => {
      res.writeHead(200, headers);
      res.write('data: {"n":1}\n\n');
      setTimeout(() => res.destroy(), 20);
    };
    const error = await collect(streamHttp(client(), sse, {})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/no event carried an id/);
  });

  it("drops a malformed event through onInvalid and goes on; under strict validation it ends the stream", async () => {
    handler = (_q, res) => res.writeHead(200, headers).end(`${event(1)}id: 2\ndata: {"n":\n\n${event(3)}`);
    const invalid: ValidationError[] = [];
    const stream = streamHttp(client(), sse, {}, { onInvalid: (e) => invalid.push(e) });
    expect(ns(await collect(stream))).toEqual([1, 3]);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toBeInstanceOf(MalformedEventError);
    expect(invalid[0]!.rawBody).toBe('{"n":');
    expect(stream.invalid).toBe(1);
    const strict = await collect(streamHttp(client({ validateResponse: "strict" }), sse, {})).catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(MalformedEventError);
  });

  it("hands each item over as it is read: those before a bad one in the same chunk arrive before strict validation ends the stream", async () => {
    // one write: the four events reach the client as one chunk of the body
    handler = (_q, res) => res.writeHead(200, headers).end(`${eventsFrom(1, 2)}id: 3\ndata: {"n":\n\n${event(4)}`);
    const items: number[] = [];
    const error = await (async () => {
      for await (const item of streamHttp(client({ validateResponse: "strict" }), sse, {})) items.push(item.n);
    })().catch((e: unknown) => e);
    expect(items).toEqual([1, 2]);
    expect(error).toBeInstanceOf(MalformedEventError);
  });

  it("onData sees the stream's position at each item's own event id, not at the end of its chunk", async () => {
    let done!: () => void;
    const ended = new Promise<void>((r) => (done = r));
    handler = (_q, res) => res.writeHead(200, headers).end(eventsFrom(1, 3));
    const positions: (string | undefined)[] = [];
    const stream = streamHttp(client(), sse, {}, { onData: () => positions.push(stream.lastEventId), reconnect: false });
    // the body's end ends the stream; its iterator then reports done
    void stream[Symbol.asyncIterator]().next().then(done);
    await ended;
    expect(positions).toEqual(["1", "2", "3"]);
  });

  it("checks each item against its schema as the client's validateResponse says", async () => {
    handler = (_q, res) => res.writeHead(200, headers).end(`${event(1)}id: 2\ndata: {"n":"two"}\n\n${event(3)}`);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(ns(await collect(streamHttp(client({ validateResponse: "warn" }), sse, {})))).toEqual([1, "two", 3] as never);
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(["[avaspec] ticks: the 200 response does not match the spec: /n must be a number"]);
    } finally {
      warn.mockRestore();
    }
    const error = await collect(streamHttp(client({ validateResponse: "strict" }), sse, {})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
  });

  it("an event over maxEventSize ends the stream with a StreamEventTooLargeError", async () => {
    handler = (_q, res) => res.writeHead(200, headers).end(`${event(1)}data: "${"x".repeat(5000)}"\n\n${event(3)}`);
    const items: number[] = [];
    const error = await (async () => {
      for await (const item of streamHttp(client(), sse, {}, { maxEventSize: 1000 })) items.push(item.n);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamEventTooLargeError);
    expect((error as StreamEventTooLargeError).limit).toBe(1000);
  });

  it("a status before the first event is the operation's ApiError", async () => {
    handler = (_q, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"message":"no such feed"}');
    const error = await collect(streamHttp(client(), sse, {})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it("the caller's signal ends the stream and closes the connection; onData gets each item", async () => {
    let closed!: () => void;
    const gone = new Promise<void>((r) => (closed = r));
    handler = (_q, res) => {
      res.writeHead(200, headers);
      res.write(eventsFrom(1, 3));
      res.on("close", closed);
    };
    const controller = new AbortController();
    const got: number[] = [];
    const options: StreamOptions<{ n: number }> = { signal: controller.signal, onData: (t) => (got.push(t.n), t.n === 3 && controller.abort()) };
    const stream = streamHttp(client(), sse, {}, options);
    await gone;
    expect(got).toEqual([1, 2, 3]);
    expect(stream.lastEventId).toBe("3");
    expect(controller.signal.aborted).toBe(true);
    void AbortError;
  });

  it("reads no faster than the consumer takes items: a small buffer never overflows", async () => {
    handler = (_q, res) => res.writeHead(200, headers).end(eventsFrom(1, 2000));
    const items: number[] = [];
    for await (const item of streamHttp(client(), sse, {}, { buffer: { size: 4 } })) {
      items.push(item.n);
      if (item.n % 100 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    expect(items).toEqual(range(1, 2000));
  });
});

  it("runs the client's onRequest and onResponse hooks for each connection, a resume included: a header set there is sent", async () => {
    const auth: (string | undefined)[] = [];
    let first = true;
    handler = (req, res) => {
      auth.push(req.headers["authorization"] as string | undefined);
      res.writeHead(200, headers);
      if (first) {
        first = false;
        res.write(`retry: 5\n\n${eventsFrom(1, 3)}`);
        setTimeout(() => res.destroy(), 20);
      } else res.end(eventsFrom(4, 6));
    };
    const events: string[] = [];
    const config = client({
      onRequest(e) {
        events.push(`request ${e.attempt} ${e.headers["last-event-id"] ?? "-"}`);
        e.setHeader("authorization", `Bearer t${e.attempt}`);
      },
      onResponse(e) {
        events.push(`response ${e.attempt} ${e.status}`);
      },
    });
    expect(ns(await collect(streamHttp(config, sse, {})))).toEqual(range(1, 6));
    expect(auth).toEqual(["Bearer t1", "Bearer t2"]);
    expect(events).toEqual(["request 1 -", "response 1 200", "request 2 3", "response 2 200"]);
    // a header the hook may not send is refused before the connection, as for any other call
    const bad = client({ onRequest: (e) => e.setHeader("x-trace", "a\r\nb") });
    await expect(collect(streamHttp(bad, sse, {}))).rejects.toBeInstanceOf(ValidationError);
  });

  it("tells onResponse of a connection that failed before any answer", async () => {
    const seen: { attempt: number; error?: string }[] = [];
    const config = resolveHttpConfig({ onResponse: (e) => void seen.push({ attempt: e.attempt, ...(e.error ? { error: e.error.name } : {}) }) }, "http://127.0.0.1:1", resultChecks([[sse, isTick]]));
    await expect(collect(streamHttp(config, sse, {}))).rejects.toBeInstanceOf(NetworkError);
    expect(seen).toEqual([{ attempt: 1, error: "NetworkError" }]);
  });

describe("the consumer WebSocket subscriptions share", () => {
  it("what onData throws ends the stream alone, through onError, as a SubscriptionCallbackError", async () => {
    let closed!: () => void;
    const gone = new Promise<void>((r) => (closed = r));
    handler = (_q, res) => {
      res.writeHead(200, headers);
      res.write(eventsFrom(1, 3));
      res.on("close", closed);
    };
    const errors: AvaspecError[] = [];
    const got: number[] = [];
    streamHttp(client(), sse, {}, {
      onData: (t) => {
        got.push(t.n);
        if (t.n === 2) throw new Error("boom");
      },
      onError: (e) => errors.push(e),
    });
    await gone;
    expect(got).toEqual([1, 2]);
    expect(errors.map((e) => [e.name, e.message])).toEqual([["SubscriptionCallbackError", "ticks: onData threw (Error: boom); the stream ended"]]);
  });
});

describe("JSON Lines", () => {
  it("reads one item per line, CRLF and blank lines included", async () => {
    handler = (_q, res) => res.writeHead(200, { "content-type": "application/jsonl" }).end('{"n":1}\r\n\n{"n":2}\n{"n":3}');
    expect(ns(await collect(streamHttp(client(), lines, {})))).toEqual([1, 2, 3]);
  });
  it("a dropped connection ends it with a NetworkError (lines have no ids to resume from)", async () => {
    handler = (_q, res) => {
      res.writeHead(200, { "content-type": "application/jsonl" });
      res.write('{"n":1}\n');
      setTimeout(() => res.destroy(), 20);
    };
    const items: number[] = [];
    const error = await (async () => {
      for await (const item of streamHttp(client(), lines, {})) items.push(item.n);
    })().catch((e: unknown) => e);
    expect(items).toEqual([1]);
    expect(error).toBeInstanceOf(NetworkError);
  });
});
