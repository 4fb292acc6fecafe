/**
 * npm run bench:stream — a typed server-sent events stream against the
 * common hand-written way, on the same loopback server (node:http on
 * 127.0.0.1, same process).
 *
 * - avaspec: test/fixtures/streams-31's generated client (as JavaScript,
 *   bundled by esbuild like the compiled dist/: bench/bundled.ts), `streamTicks`
 *   with `validateResponse: "strict"`: each event parsed by the runtime's
 *   WHATWG parser, its data parsed as JSON, checked by the generated
 *   validator of `Tick`, and handed over by `for await`.
 * - eventsource: the `eventsource` package (bench/stream/, 4.x: the line
 *   that runs on Node 20) and `JSON.parse(event.data)` by hand in
 *   `onmessage`, nothing checked.
 * - avaspec onData: the same typed, validated stream taken through the
 *   `onData` callback instead of `for await` (for what the async iterator's
 *   hand-over costs); the ratios against the target are `for await`'s.
 *
 * Scenarios (the server builds every event's text before the clock starts):
 * - burst: BENCH_STREAM_EVENTS (default 100,000) events as fast as the
 *   server can write them (chunks of 500, yielding between chunks, waiting
 *   for `drain`); items/s = events ÷ time from the request to the last item
 *   delivered. Median of BENCH_ROUNDS (default 5) rounds, in rotating order.
 * - paced: 5,000 events/s for 2 s on a 1 ms timer (at /paced/ticks); latency = delivery time −
 *   the time the server wrote the event (same clock). Each client first has
 *   one paced round that is not counted (the paced path, a consumer waiting
 *   for each item rather than a buffer full of them, is code the burst barely
 *   runs; measured on their own, a client's first paced round had a p99 3–40×
 *   its later rounds' for avaspec and 2–8× for eventsource). p50 and p99 over all the rounds' events ("pooled"), and
 *   the median of the rounds' own p99: on this shared machine one stall of
 *   the process (another tenant, a GC) during one round is enough to set the
 *   pooled p99 of whichever client ran then, as the median of rounds already
 *   keeps it from setting items/s.
 * Ratios: avaspec ÷ eventsource for items/s, eventsource ÷ avaspec for
 * latency (above 1.0× avaspec is ahead either way).
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { avaspecMode, loadAvaspec } from "./bundled.js";

// avaspec runs as JavaScript, like eventsource (bench/bundled.ts); BENCH_AVASPEC=source runs it through tsx
const { createFeedsClient } = await loadAvaspec<typeof import("./stream-avaspec.js")>(new URL("./stream-avaspec.ts", import.meta.url), "stream", () => import("./stream-avaspec.js"));

const EVENTS = Number(process.env["BENCH_STREAM_EVENTS"] ?? 100_000);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);
const PACED_RATE = 5_000;
const PACED_MS = 2_000;

const peers = createRequire(new URL("./stream/package.json", import.meta.url));
const { EventSource } = (await import(pathToFileURL(peers.resolve("eventsource")).href)) as { EventSource: new (url: string) => { onmessage: ((e: { data: string }) => void) | null; onerror: ((e: unknown) => void) | null; close(): void } };

const eventText = (seq: number) => `id: ${seq}\ndata: {"seq":${seq},"symbol":"AVAX","price":${(12 + (seq % 100) / 100).toFixed(2)}}\n\n`;
const prepared = Array.from({ length: EVENTS }, (_, i) => eventText(i + 1));
const pacedTotal = (PACED_RATE * PACED_MS) / 1000;
const pacedPrepared = Array.from({ length: pacedTotal }, (_, i) => eventText(i + 1));
/** When the server wrote each event of the paced run, by seq. */
let sentAt = new Float64Array(pacedTotal + 1);

const write = (res: ServerResponse, text: string) => (res.write(text) ? undefined : new Promise<void>((r) => res.once("drain", () => r())));

async function burst(res: ServerResponse): Promise<void> {
  for (let i = 0; i < prepared.length; i += 500) {
    await write(res, prepared.slice(i, i + 500).join(""));
    await new Promise((r) => setImmediate(r));
  }
  res.end();
}

async function paced(res: ServerResponse): Promise<void> {
  const start = performance.now();
  let sent = 0;
  while (sent < pacedTotal) {
    // the events due by now: a late timer is caught up, so the average rate holds
    const due = Math.min(pacedTotal, Math.floor(((performance.now() - start) * PACED_RATE) / 1000));
    if (due > sent) {
      const now = performance.now();
      for (let seq = sent + 1; seq <= due; seq++) sentAt[seq] = now;
      const text = pacedPrepared.slice(sent, due).join("");
      sent = due;
      await write(res, text);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  res.end();
}

async function startServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    void (req.url?.startsWith("/paced/") ? paced(res) : burst(res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

type Client = (url: string, expect: number, onItem: (seq: number) => void) => Promise<void>;

const avaspec: Client = async (url, expect, onItem) => {
  const feeds = createFeedsClient({ baseUrl: url, validateResponse: "strict" });
  let n = 0;
  for await (const tick of feeds.streamTicks({ symbol: "AVAX" }, { reconnect: false })) {
    onItem(tick.seq);
    if (++n === expect) break;
  }
};

/** The same stream taken through `onData`, the callback form: each item is handed over inside the parser, as `onmessage` is. */
const avaspecOnData: Client = (url, expect, onItem) =>
  new Promise<void>((resolve, reject) => {
    const feeds = createFeedsClient({ baseUrl: url, validateResponse: "strict" });
    let n = 0;
    const stream = feeds.streamTicks(
      { symbol: "AVAX" },
      {
        reconnect: false,
        onError: reject,
        onData(tick) {
          onItem(tick.seq);
          if (++n === expect) {
            stream.close();
            resolve();
          }
        },
      },
    );
  });

const eventsource: Client = (url, expect, onItem) =>
  new Promise((resolve, reject) => {
    const source = new EventSource(`${url}/ticks?symbol=AVAX`);
    let n = 0;
    source.onmessage = (event) => {
      const tick = JSON.parse(event.data) as { seq: number };
      onItem(tick.seq);
      if (++n === expect) {
        source.close();
        resolve();
      }
    };
    source.onerror = (e) => {
      if (n < expect) {
        source.close();
        reject(new Error(`eventsource failed after ${n} events: ${String((e as { message?: string }).message ?? e)}`));
      }
    };
  });

const CLIENTS: [string, Client][] = [
  ["avaspec (typed, validated)", avaspec],
  ["eventsource + JSON.parse", eventsource],
  ["avaspec onData (typed, validated)", avaspecOnData],
];

async function runBurst(client: Client): Promise<number> {
  const { server, url } = await startServer();
  let last = 0;
  let inOrder = true;
  const started = performance.now();
  await client(url, EVENTS, (seq) => {
    if (seq !== last + 1) inOrder = false;
    last = seq;
  });
  const seconds = (performance.now() - started) / 1000;
  server.closeAllConnections();
  server.close();
  if (!inOrder || last !== EVENTS) throw new Error(`burst: events out of order or missing (last ${last})`);
  return EVENTS / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main(): Promise<void> {
  console.log(`npm run bench:stream: ${EVENTS.toLocaleString("en-US")} events per burst round, ${ROUNDS} rounds; paced ${PACED_RATE}/s for ${PACED_MS / 1000} s; Node ${process.version}; avaspec ${avaspecMode}`);
  const rates = new Map<string, number[]>(CLIENTS.map(([name]) => [name, []]));
  const lat = new Map<string, number[]>(CLIENTS.map(([name]) => [name, []]));
  const roundP99 = new Map<string, number[]>(CLIENTS.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = CLIENTS.map((_, i) => CLIENTS[(i + round) % CLIENTS.length]!);
    for (const [name, client] of order) rates.get(name)!.push(await runBurst(client));
    // not counted: see "paced" above
    if (round === 0) for (const [, client] of order) await pacedRound(client, []);
    for (const [name, client] of order) {
      const own: number[] = [];
      await pacedRound(client, own);
      roundP99.get(name)!.push(pct(own, 99));
      lat.get(name)!.push(...own);
    }
  }
  const rows = CLIENTS.map(([name]) => ({ name, rate: median(rates.get(name)!), p50: pct(lat.get(name)!, 50), p99: pct(lat.get(name)!, 99), rounds: roundP99.get(name)!, p99m: median(roundP99.get(name)!) }));
  console.log("");
  console.log("| client | items/s (burst, median) | p50 latency (paced) | p99 latency (paced, pooled) | p99 (median of rounds) | p99 of each round |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const r of rows) console.log(`| ${r.name} | ${Math.round(r.rate).toLocaleString("en-US")} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.p99m.toFixed(2)} ms | ${r.rounds.map((x) => x.toFixed(2)).join(", ")} |`);
  const [a, e, d] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
  console.log("");
  console.log(`avaspec ÷ eventsource: ${(a.rate / e.rate).toFixed(2)}× items/s; eventsource ÷ avaspec p99 latency: ${(e.p99 / a.p99).toFixed(2)}× pooled, ${(e.p99m / a.p99m).toFixed(2)}× median of rounds (target ≥ 1.0×)`);
  console.log(`avaspec onData ÷ eventsource: ${(d.rate / e.rate).toFixed(2)}× items/s; eventsource ÷ avaspec onData p99 latency: ${(e.p99 / d.p99).toFixed(2)}× pooled, ${(e.p99m / d.p99m).toFixed(2)}× median of rounds`);
}

/** One paced round: every event delivered once, in order; each latency recorded. */
async function pacedRound(client: Client, latencies: number[]): Promise<void> {
  const { server, url } = await startServer();
  sentAt = new Float64Array(pacedTotal + 1);
  let last = 0;
  await client(`${url}/paced`, pacedTotal, (seq) => {
    if (seq !== last + 1) throw new Error(`paced: event ${seq} after ${last}`);
    last = seq;
    latencies.push(performance.now() - sentAt[seq]!);
  });
  server.closeAllConnections();
  server.close();
}

await main();
