/**
 * test/fixtures/streams-31's generated client (issue 31, streams): operations whose 2XX response is
 * text/event-stream or NDJSON return a typed ItemStream, from the client object and the functional form alike,
 * against a real node:http server on 127.0.0.1; bundles of the module's other operations hold no stream code.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFeedsClient, createFeedsCore, isStreamTicksError, streamTicks } from "../fixtures/streams-31/golden/src/api/client.js";
import type { Tick } from "../fixtures/streams-31/golden/src/api/types.js";
import { ValidationError } from "../fixtures/streams-31/golden/src/runtime/errors/errors.js";
import { ROOT_DIR, bundleText } from "../../bench/size/entries.js";

let server: Server;
let base: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.end();
const requests: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => (requests.push(req), handler(req, res)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}
const tick = (seq: number): Tick => ({ seq, symbol: "AVAX", price: 10 + seq });

describe("streamed responses of a generated client", () => {
  it("text/event-stream with an object schema: each event's data as a typed, checked item", async () => {
    handler = (_q, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end([1, 2, 3].map((n) => `id: ${n}\nevent: tick\ndata: ${JSON.stringify(tick(n))}\n\n`).join(""));
    const feeds = createFeedsClient({ baseUrl: base, validateResponse: "strict" });
    const stream = feeds.streamTicks({ symbol: "AVAX" });
    const ticks: Tick[] = await collect(stream);
    expect(ticks).toEqual([tick(1), tick(2), tick(3)]);
    expect(stream.lastEventId).toBe("3");
    expect(requests.at(-1)!.url).toBe("/ticks?symbol=AVAX");
    expect(requests.at(-1)!.headers["accept"]).toBe("text/event-stream");
  });

  it("checks each item against the item schema under validateResponse: strict", async () => {
    handler = (_q, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${JSON.stringify(tick(1))}\n\ndata: {"seq":0,"symbol":"AVAX","price":1}\n\n`);
    const error = await collect(createFeedsClient({ baseUrl: base, validateResponse: "strict" }).streamTicks({ symbol: "AVAX" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]!.path).toBe("/seq");
  });

  it("text/event-stream with a string schema: each event's data as text; NDJSON: one item per line", async () => {
    handler = (req, res) =>
      req.url === "/log"
        ? res.writeHead(200, { "content-type": "text/event-stream" }).end("data: started\n\ndata: {not json}\ndata: two lines\n\n")
        : res.writeHead(200, { "content-type": "application/x-ndjson" }).end(`${JSON.stringify(tick(1))}\n${JSON.stringify(tick(2))}\n`);
    const feeds = createFeedsClient({ baseUrl: base });
    const lines: string[] = await collect(feeds.streamLog());
    expect(lines).toEqual(["started", "{not json}\ntwo lines"]);
    expect(await collect(feeds.streamRows())).toEqual([tick(1), tick(2)]);
    expect(requests.at(-1)!.headers["accept"]).toBe("application/x-ndjson");
  });

  it("the functional form returns the same stream; a declared error status fails it with the typed error", async () => {
    handler = (_q, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${JSON.stringify(tick(7))}\n\n`);
    const core = createFeedsCore({ baseUrl: base });
    expect(await collect(streamTicks(core, { symbol: "AVAX" }))).toEqual([tick(7)]);
    handler = (_q, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"message":"no such symbol"}');
    const error = await collect(streamTicks(core, { symbol: "NOPE" })).catch((e: unknown) => e);
    expect(isStreamTicksError(error) && error.statusCode === 404 && error.body?.message).toBe("no such symbol");
  });

  it("a bundle of a plain operation holds no stream code; one of a streamed operation does", async () => {
    const golden = "./test/fixtures/streams-31/golden/src/api/functions.js";
    const plain = await bundleText(`import { createFeedsCore, listSymbols } from "${golden}"; listSymbols(createFeedsCore()).then(console.log);`, ROOT_DIR);
    const streamed = await bundleText(`import { createFeedsCore, streamTicks } from "${golden}"; streamTicks(createFeedsCore(), { symbol: "A" });`, ROOT_DIR);
    expect(streamed).toContain("last-event-id");
    expect(plain).not.toContain("last-event-id");
    expect(plain).not.toContain("text/event-stream");
  });
});
