/**
 * npm run bench:ws — newHeads over the C-Chain's WebSocket endpoint
 * (/ext/bc/C/ws), served by the test chain server (test/helpers/chain-server.ts:
 * a real `ws` server on 127.0.0.1, same process), consumed by avaspec's
 * WebSocket transport (bench/ws-avaspec.ts over createWsTransport from
 * generated/src/runtime/ws/ws.ts) and by viem's `webSocket` transport
 * (`client.transport.subscribe({ params: ["newHeads"], onData })`), each with
 * its defaults and the same WebSocket class (ws's on Node 20, the global one
 * on Node ≥ 22, as viem's isows chooses). The server builds and serialises
 * every block before the clock starts (prepare), so in the run it only
 * frames and writes; that cost and the socket's are in every row, as is the
 * floor row's: ws's own client with JSON.parse and nothing else, so the
 * distance to the floor is each client's own cost. Every run gets a fresh
 * server, so no client reuses another's socket.
 *
 * Scenarios:
 * - burst: the server produces BENCH_WS_BURST (default 20,000) heads as fast
 *   as it can (in chunks of 500, yielding to the event loop between chunks so
 *   the client reads while the server writes); events/s = heads ÷ time from
 *   the first send to the last head handed to the consumer. Its latencies are
 *   mostly queueing. Median of BENCH_ROUNDS (default 5) rounds per client, in
 *   rotating order.
 * - paced: 10,000 heads/s for 3 s on a 1 ms timer (the server catches up on
 *   timer lag, so the average rate holds); passes when every produced head is
 *   delivered, once, in order ("no loss"). Its p50/p99 latencies are the
 *   steady-state figures.
 * Latency: the server's onNotify hook stores performance.now() just before
 * each head is written to the socket (same process, same clock); the consumer
 * subtracts it on delivery.
 *
 * The table shows avaspec ÷ viem for burst throughput (target ≥ 1.0) and for
 * latency (lower is better). When generated/src/runtime/ws/ws.ts does not exist
 * yet the avaspec rows are skipped (BENCH_WS_RUNTIME=path/to/ws.ts benches
 * another copy, e.g. runtime/ws/ws.ts before `npm run generate`). The exit code is 0 whether or not a
 * target is met: benchmarks report, they do not gate; a client that loses or
 * reorders heads is reported as such. Results: .tmp/bench-ws.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { createPublicClient, webSocket } from "viem";
import { WebSocket as WsWebSocket } from "ws";
import { startChainServer, type ChainServer } from "../test/helpers/chain-server.js";
import { WS_RUNTIME_SOURCE, avaspecSubscribe, loadWsRuntime, wsRuntimeAvailable } from "./ws-avaspec.js";

const BURST = Number(process.env.BENCH_WS_BURST ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PACED_RATE = 10_000;
const PACED_SECONDS = 3;
const TARGET = 1.0;
const DELIVERY_TIMEOUT_MS = 30_000;

type Header = Record<string, unknown>;
type Subscribe = (url: string, onHeader: (header: Header) => void) => Promise<() => Promise<void>>;
interface Client {
  name: string;
  subscribe: Subscribe;
}

const viemVersion = (JSON.parse(readFileSync(new URL("../node_modules/viem/package.json", import.meta.url), "utf8")) as { version: string }).version;
const wsVersion = (JSON.parse(readFileSync(new URL("../node_modules/ws/package.json", import.meta.url), "utf8")) as { version: string }).version;

const viemSubscribe: Subscribe = async (url, onHeader) => {
  const client = createPublicClient({ transport: webSocket(url) });
  // onData is typed RpcResponse but receives the notification's params: { subscription, result }
  const { unsubscribe } = await client.transport.subscribe({
    params: ["newHeads"],
    onData: (data) => onHeader((data as unknown as { result: Header }).result),
    onError: (error) => console.error("viem subscription error:", error),
  });
  return async () => {
    await unsubscribe();
    (await client.transport.getRpcClient()).close();
  };
};

// floor: ws's own client, the notification JSON.parse'd and handed over; no RPC client around it
const floorSubscribe: Subscribe = async (url, onHeader) => {
  const ws = new WsWebSocket(url);
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString()) as { method?: string; params?: { result: Header } };
    if (msg.method === "eth_subscription") onHeader(msg.params!.result);
  });
  ws.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
  return async () => ws.terminate();
};

// avaspec, bundled by esbuild like bench/overhead.ts does (BENCH_AVASPEC=source: the TypeScript through tsx)
const avaspecMode = process.env.BENCH_AVASPEC === "source" ? "source (tsx)" : "bundled (esbuild)";
const clients: Client[] = [
  { name: "viem webSocket", subscribe: viemSubscribe },
  { name: "floor (ws + JSON.parse)", subscribe: floorSubscribe },
];
let avaspecNote = "";
if (!wsRuntimeAvailable()) {
  avaspecNote = "avaspec: runtime/ws/ws.ts not available yet";
  console.log(`${avaspecNote} (${fileURLToPath(WS_RUNTIME_SOURCE)} is missing: add runtime/ws/ws.ts and npm run generate, or point BENCH_WS_RUNTIME at it); skipping the avaspec rows\n`);
} else {
  try {
    if (process.env.BENCH_AVASPEC === "source") await loadWsRuntime();
    else {
      const outfile = fileURLToPath(new URL("../.tmp/bench-ws/ws-runtime.mjs", import.meta.url));
      await build({ entryPoints: [fileURLToPath(WS_RUNTIME_SOURCE)], outfile, bundle: true, format: "esm", platform: "node", target: "es2022", logLevel: "warning" });
      await loadWsRuntime(pathToFileURL(outfile).href);
    }
    clients.unshift({ name: "avaspec createWsTransport", subscribe: avaspecSubscribe });
  } catch (e) {
    avaspecNote = `avaspec: loading generated/src/runtime/ws/ws.ts failed: ${e instanceof Error ? e.message : String(e)}`;
    console.log(`${avaspecNote}; skipping the avaspec rows\n`);
  }
}

const blockNumber = (h: Header): number => {
  const n = h.number;
  return typeof n === "bigint" ? Number(n) : typeof n === "number" ? n : parseInt(String(n), 16);
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const tick = () => new Promise<void>((r) => setImmediate(r));
const percentile = (sorted: Float64Array, p: number): number => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!);

interface RunResult {
  produced: number;
  delivered: number;
  inOrder: boolean;
  /** ms from the first send to the last delivery */
  elapsedMs: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  error?: string;
}

/** One client against a fresh server: subscribe, produce `count` heads (burst or paced), collect. */
async function run(client: Client, count: number, mode: "burst" | { rate: number }): Promise<RunResult> {
  const FIRST = 1;
  const sentAt = new Float64Array(count + 2);
  const latency = new Float64Array(count);
  let server: ChainServer | undefined;
  let delivered = 0;
  let inOrder = true;
  let expected = FIRST + 1; // the chain starts with block FIRST; produced heads follow it
  let lastAt = 0;
  let done: () => void = () => {};
  const allDelivered = new Promise<void>((r) => (done = r));
  let stop: (() => Promise<void>) | undefined;
  try {
    server = await startChainServer({
      seed: `bench-ws-${client.name}`,
      startBlock: FIRST,
      initialBlocks: 1,
      logsPerBlock: 0,
      onNotify: (_kind, result) => {
        sentAt[blockNumber(result as Header) - FIRST] = performance.now();
      },
    });
    stop = await client.subscribe(server.url, (h) => {
      const now = performance.now();
      const n = blockNumber(h);
      if (n !== expected) inOrder = false;
      expected = n + 1;
      if (delivered < count) latency[delivered] = now - sentAt[n - FIRST]!;
      delivered++;
      lastAt = now;
      if (delivered === count) done();
    });
    server.prepare(count); // blocks built and serialised before the clock starts: the server's cost in the run is sending
    const t0 = performance.now();
    while (server.subscriptions === 0) {
      if (performance.now() - t0 > 5000) throw new Error("no subscription reached the server in 5 s");
      await sleep(1);
    }
    const start = performance.now();
    if (mode === "burst") {
      for (let left = count; left > 0; left -= 500) {
        server.produce(Math.min(500, left));
        await tick();
      }
    } else await server.start(mode.rate, { count, tickMs: 1 });
    await Promise.race([allDelivered, sleep(mode === "burst" ? DELIVERY_TIMEOUT_MS : 2000)]);
    const elapsedMs = lastAt - start;
    const sorted = latency.slice(0, Math.min(delivered, count)).sort();
    return { produced: count, delivered, inOrder, elapsedMs, eventsPerSecond: (Math.min(delivered, count) / elapsedMs) * 1000, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
  } catch (e) {
    return { produced: count, delivered, inOrder, elapsedMs: NaN, eventsPerSecond: NaN, p50Ms: NaN, p99Ms: NaN, error: e instanceof Error ? e.message : String(e) };
  } finally {
    await stop?.().catch(() => {});
    await server?.close();
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

console.log(`node ${process.version}; ws ${wsVersion}; viem ${viemVersion}; avaspec ${clients.some((c) => c.name.startsWith("avaspec")) ? avaspecMode : "skipped"}; burst ${BURST} heads, median of ${ROUNDS} round(s); paced ${PACED_RATE}/s for ${PACED_SECONDS} s\n`);

// warmup: a short burst per client (JIT, module loading, first connection)
for (const c of clients) await run(c, 2000, "burst");

const burst = new Map<string, RunResult[]>(clients.map((c) => [c.name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < clients.length; i++) {
    const c = clients[(i + r) % clients.length]!;
    burst.get(c.name)!.push(await run(c, BURST, "burst"));
  }
}
const paced = new Map<string, RunResult>();
for (const c of clients) paced.set(c.name, await run(c, PACED_RATE * PACED_SECONDS, { rate: PACED_RATE }));

interface Entry {
  client: string;
  burst: { eventsPerSecond: number; p50Ms: number; p99Ms: number; allDelivered: boolean; rounds: RunResult[] };
  paced: RunResult & { noLoss: boolean };
}
const entries: Entry[] = clients.map((c) => {
  const rounds = burst.get(c.name)!;
  const p = paced.get(c.name)!;
  return {
    client: c.name,
    burst: {
      eventsPerSecond: median(rounds.map((x) => x.eventsPerSecond)),
      p50Ms: median(rounds.map((x) => x.p50Ms)),
      p99Ms: median(rounds.map((x) => x.p99Ms)),
      allDelivered: rounds.every((x) => x.delivered === x.produced && x.inOrder && !x.error),
      rounds,
    },
    paced: { ...p, noLoss: p.delivered === p.produced && p.inOrder && !p.error },
  };
});

const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "–");
const head = ["client", "burst ev/s", "burst p50 ms", "burst p99 ms", "paced delivered", "in order", "no loss", "paced p50 ms", "paced p99 ms"];
const cells = (e: Entry) => [
  e.client,
  f(e.burst.eventsPerSecond) + (e.burst.allDelivered ? "" : " (lost)"),
  f(e.burst.p50Ms, 2),
  f(e.burst.p99Ms, 2),
  `${f(e.paced.delivered)}/${f(e.paced.produced)}`,
  e.paced.inOrder ? "yes" : "NO",
  e.paced.noLoss ? "yes" : "NO",
  f(e.paced.p50Ms, 3),
  f(e.paced.p99Ms, 3),
];
const widths = head.map((h, i) => Math.max(h.length, ...entries.map((e) => cells(e)[i]!.length)));
const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join("  ");
console.log(line(head));
for (const e of entries) console.log(line(cells(e)));
for (const e of entries) {
  const errors = [...e.burst.rounds.map((r) => r.error), e.paced.error].filter(Boolean);
  if (errors.length) console.log(`${e.client}: ${errors.join("; ")}`);
}
console.log("");

const avaspec = entries.find((e) => e.client.startsWith("avaspec"));
const viem = entries.find((e) => e.client.startsWith("viem"))!;
let ratios: { burstThroughput: number; burstP50: number; pacedP50: number; pacedP99: number } | undefined;
if (avaspec) {
  ratios = {
    burstThroughput: avaspec.burst.eventsPerSecond / viem.burst.eventsPerSecond,
    burstP50: avaspec.burst.p50Ms / viem.burst.p50Ms,
    pacedP50: avaspec.paced.p50Ms / viem.paced.p50Ms,
    pacedP99: avaspec.paced.p99Ms / viem.paced.p99Ms,
  };
  const met = ratios.burstThroughput >= TARGET;
  console.log(`burst throughput avaspec ÷ viem = ${ratios.burstThroughput.toFixed(3)} (target ≥ ${TARGET.toFixed(1)}): ${met ? "met" : "NOT met"}`);
  console.log(`latency avaspec ÷ viem (lower is better): burst p50 ${ratios.burstP50.toFixed(3)}, paced p50 ${ratios.pacedP50.toFixed(3)}, paced p99 ${ratios.pacedP99.toFixed(3)}`);
  console.log(`no loss at ${PACED_RATE}/s for ${PACED_SECONDS} s: avaspec ${avaspec.paced.noLoss ? "yes" : "NO"}, viem ${viem.paced.noLoss ? "yes" : "NO"}`);
} else console.log(avaspecNote);

const out = new URL("../.tmp/bench-ws.json", import.meta.url);
mkdirSync(new URL(".", out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      ws: wsVersion,
      viem: viemVersion,
      avaspec: avaspec ? avaspecMode : null,
      note: avaspecNote || undefined,
      burst: BURST,
      rounds: ROUNDS,
      paced: { rate: PACED_RATE, seconds: PACED_SECONDS },
      entries,
      ratios,
      target: { burstThroughput: TARGET },
    },
    null,
    2,
  ) + "\n",
);
console.log(`\nresults: ${fileURLToPath(out)}`);
process.exit(0);
