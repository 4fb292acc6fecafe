/**
 * The mocks of test/fixtures/streams-31 stream their items (issue 31): the standalone mock server and MSW's real
 * setupServer answer a streamed operation with a finite, deterministic, paced sequence of items, with ids, so that
 * the generated client reads them typed and checked, and resumes against the mock after a dropped connection.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFeedsClient } from "../fixtures/streams-31/golden/src/api/client.js";
import type { Tick } from "../fixtures/streams-31/golden/src/api/types.js";
import { startMockServer, type MockServer } from "../fixtures/streams-31/golden/src/mock-server/index.js";
import { createMocks } from "../fixtures/streams-31/golden/src/mocks/index.js";
import { useMsw } from "../helpers/msw.js";

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** A fetch whose first streamed response breaks off after `keep` bytes of its body, as a dropped connection does. */
function dropping(keep: number, seen: (string | null)[]): typeof fetch {
  let dropped = false;
  return async (input, init) => {
    seen.push(new Headers(init?.headers).get("last-event-id"));
    const response = await fetch(input, init);
    if (dropped || !response.body) return response;
    dropped = true;
    const reader = response.body.getReader();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (sent + value.length > keep) {
          controller.enqueue(value.slice(0, keep - sent));
          void reader.cancel();
          return controller.error(new TypeError("terminated"));
        }
        sent += value.length;
        controller.enqueue(value);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

describe("the mock server streams", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, stream: { items: 6, intervalMs: 2 } });
  });
  afterAll(() => server.close());

  it("a finite sequence of valid items with ids; the same one each time (deterministic)", async () => {
    const feeds = createFeedsClient({ baseUrl: server.url, validateResponse: "strict" });
    const stream = feeds.streamTicks({ symbol: "AVAX" });
    const ticks: Tick[] = await collect(stream);
    expect(ticks).toHaveLength(6);
    expect(ticks[0]).toEqual({ seq: 1, symbol: "AVAX", price: 12.5 }); // the spec's example first
    expect(stream.lastEventId).toBe("6");
    expect(await collect(feeds.streamTicks({ symbol: "AVAX" }))).toEqual(ticks);
    expect(await collect(feeds.streamRows())).toHaveLength(6);
    expect((await collect(feeds.streamLog())).every((line) => typeof line === "string")).toBe(true);
  });

  it("answers Last-Event-ID with the items after it, so a client resumes a dropped stream against the mock", async () => {
    const whole = await collect(createFeedsClient({ baseUrl: server.url }).streamTicks({ symbol: "AVAX" }));
    expect(await collect(createFeedsClient({ baseUrl: server.url }).streamTicks({ symbol: "AVAX" }, { lastEventId: "4" }))).toEqual(whole.slice(4));
    const seen: (string | null)[] = [];
    const reconnects: unknown[] = [];
    const feeds = createFeedsClient({ baseUrl: server.url, fetch: dropping(120, seen) });
    const items = await collect(feeds.streamTicks({ symbol: "AVAX" }, { reconnect: { baseDelayMs: 1 }, onReconnect: (info) => reconnects.push(info) }));
    expect(items).toEqual(whole);
    expect(seen[0]).toBeNull();
    expect(seen).toHaveLength(2);
    expect(Number(seen[1])).toBeGreaterThan(0);
    expect(reconnects).toHaveLength(1);
  });
});

describe("the MSW handlers stream", () => {
  const mocks = createMocks({ stream: { items: 4, intervalMs: 1 } });
  useMsw(mocks);

  it("through setupServer: items typed and checked, resumable by Last-Event-ID", async () => {
    const feeds = createFeedsClient({ validateResponse: "strict" });
    const ticks = await collect(feeds.streamTicks({ symbol: "AVAX" }));
    expect(ticks).toHaveLength(4);
    expect(await collect(feeds.streamTicks({ symbol: "AVAX" }, { lastEventId: "2" }))).toEqual(ticks.slice(2));
    expect(await collect(feeds.streamRows())).toHaveLength(4);
  });
});
