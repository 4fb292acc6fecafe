/**
 * npm run bench:overhead — the client-side cost of one call, with no network:
 * every client gets a stub `fetch` that answers at once with a fresh
 * `Response` (precomputed body, status 200, application/json), so what is
 * timed is the library's own work per call (building the URL, headers and
 * body, its reliability machinery, reading and parsing the reply). avaspec
 * and its peers run in the same process, and the ratio avaspec ÷ peer is
 * printed with its target (≥ 0.95).
 *
 * Groups:
 * - HTTP: the Data API's GET /v1/chains/{chainId} with an API-key header
 *   (x-glacier-api-key), replying with a ChainInfo (the spec's example).
 *   avaspec in its lean form (callHttp + getChainInfoOperation), its
 *   functional form (getChainInfo(core, params)) and as the client object
 *   (createDataApiClient().getChainInfo), all with their
 *   defaults (retries, per-attempt timeout, hooks; response validation off);
 *   peer: openapi-fetch `client.GET(...)`, no schema types needed at run time.
 * - JSON-RPC: eth_getBalance on the C-Chain (/ext/bc/C/rpc). The stub parses
 *   the request and echoes its id, result "0x1bc16d674ec80000". avaspec:
 *   createNodeClient().cChain.eth.getBalance and its functional form
 *   cChainEthGetBalance(core, params); peer: viem's public client over its
 *   http transport (no batching, no retries, cacheTime 0). Both return a
 *   bigint (avaspec's node client reads quantities as bigints by default, its
 *   number policy), so both include the conversion; the check below fails
 *   the bench if either returns anything else.
 *
 * Each group also has a floor row: the same stub called directly, its reply
 * read with res.json() (and, for JSON-RPC, the request stringified and the
 * result turned into a bigint). Creating and reading a Response is about
 * half of every entry's time, so "µs above floor" is each client's own cost.
 * ops/s is tinybench's mean throughput; mean µs its mean latency.
 *
 * Every stub counts its calls; a bench whose stub was called fewer times
 * than the bench ran its function (a cache or a batch skipping requests)
 * is an error (exit 1). Otherwise the exit code is 0 whether or not a target
 * is met: benchmarks report, they do not gate.
 *
 * Rounds (BENCH_ROUNDS, default 3) of BENCH_MS (default 1000) ms per task
 * after a warmup, in rotating order; the table shows the median round per
 * task. The peers are imported from bench/size/node_modules (openapi-fetch)
 * and the root's devDependencies (viem), so the published package depends on
 * neither. Results: .tmp/bench-overhead.json.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { avaspecMode, loadAvaspec } from "./bundled.js";
import { createPublicClient, http } from "viem";

const root = fileURLToPath(new URL("..", import.meta.url));

// avaspec is measured as JavaScript, like the peers (bench/bundled.ts): bench/overhead-avaspec.ts (callHttp,
// resolveHttpConfig, getChainInfoOperation, DATA_API_DEFAULT_BASE_URL, createDataApiClient, createNodeClient from
// generated/src) bundled by esbuild; BENCH_AVASPEC=source imports the TypeScript through tsx instead.
type Avaspec = typeof import("./overhead-avaspec.js");
const loaded = () => loadAvaspec<Avaspec>(new URL("./overhead-avaspec.ts", import.meta.url), "overhead", () => import("./overhead-avaspec.js"));
const { DATA_API_DEFAULT_BASE_URL, cChainEthGetBalance, callHttp, createDataApiClient, createDataApiCore, createNodeClient, createNodeCore, getChainInfo, getChainInfoOperation, resolveHttpConfig } = await loaded();
const sizeDir = new URL("./size/", import.meta.url);
if (!existsSync(new URL("./node_modules/openapi-fetch/package.json", sizeDir))) {
  console.log("bench/size/node_modules is missing: npm ci --prefix bench/size");
  execFileSync("npm", ["ci", "--prefix", "bench/size", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
}

// openapi-fetch, from bench/size (not a dependency of the main package); typed here by the little this bench uses
interface OpenApiFetchClient {
  GET(path: string, init: { params: { path: Record<string, string> } }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}
type CreateOpenApiFetchClient = (options: { baseUrl: string; fetch: typeof fetch; headers: Record<string, string> }) => OpenApiFetchClient;
const openapiFetchPkg = JSON.parse(readFileSync(new URL("./node_modules/openapi-fetch/package.json", sizeDir), "utf8")) as { version: string; exports: { ".": { import: string } } };
const openapiFetchUrl = new URL(`./node_modules/openapi-fetch/${openapiFetchPkg.exports["."].import}`, sizeDir);
const createOpenApiFetchClient = ((await import(pathToFileURL(fileURLToPath(openapiFetchUrl)).href)) as { default: CreateOpenApiFetchClient }).default;
const viemVersion = (JSON.parse(readFileSync(new URL("../node_modules/viem/package.json", import.meta.url), "utf8")) as { version: string }).version;

const API_KEY = "bench-api-key";
const CHAIN_ID = "43114";
const NODE_URL = "http://127.0.0.1:9650";
const ADDRESS = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC" as const;
const BALANCE_HEX = "0x1bc16d674ec80000";
const BALANCE = BigInt(BALANCE_HEX);

// The Data API spec's ChainInfo example (as in generated/src/data-api/mocks.ts), trimmed of the long logo URLs
const CHAIN_INFO_BODY = JSON.stringify({
  chainId: "43114",
  status: "OK",
  chainName: "Avalanche (C-Chain)",
  description: "The Contract Chain on Avalanche's primary network enables the creation of smart contracts.",
  platformChainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5",
  subnetId: "11111111111111111111111111111111LpoYY",
  vmId: "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6",
  vmName: "EVM",
  explorerUrl: "https://subnets.avax.network/c-chain",
  rpcUrl: "https://api.avax.network/ext/bc/C/rpc",
  wsUrl: "wss://api.avax.network/ext/bc/C/ws",
  isTestnet: false,
  utilityAddresses: { multicall: "0xcA11bde05977b3631167028862bE2a173976CA11" },
  networkToken: { name: "Avalanche", symbol: "AVAX", decimals: 18, description: "AVAX is the native utility token of Avalanche." },
  private: false,
  enabledFeatures: ["nftIndexing", "webhooks", "teleporter"],
});
const JSON_HEADERS = { "content-type": "application/json" };

/** A stub fetch that answers every request with a fresh Response, and counts its calls. */
interface Stub {
  readonly fetch: typeof fetch;
  calls: number;
  /** Set only for the checked call before the benches: sees each request. */
  spy?: (input: RequestInfo | URL, init: RequestInit | undefined) => void;
}

function httpStub(): Stub {
  const stub: Stub = {
    calls: 0,
    fetch: async (input, init) => {
      stub.calls++;
      stub.spy?.(input, init);
      return new Response(CHAIN_INFO_BODY, { status: 200, headers: JSON_HEADERS });
    },
  };
  return stub;
}

async function requestBody(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string> {
  if (typeof init?.body === "string") return init.body;
  if (input instanceof Request) return input.text();
  throw new Error(`stub fetch: unexpected request body ${typeof init?.body}`);
}

function rpcStub(): Stub {
  const stub: Stub = {
    calls: 0,
    fetch: async (input, init) => {
      stub.calls++;
      stub.spy?.(input, init);
      const request = JSON.parse(await requestBody(input, init)) as { id: number | string };
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: BALANCE_HEX }), { status: 200, headers: JSON_HEADERS });
    },
  };
  return stub;
}

// ---- the entries -------------------------------------------------------------------------------

interface Entry {
  readonly group: "HTTP" | "JSON-RPC";
  readonly name: string;
  /** The peer of the group; avaspec's entries are compared with it. */
  readonly peer?: true;
  /** The stub alone, called as directly as possible: the part of every entry's time that no client can save. */
  readonly floor?: true;
  readonly stub: Stub;
  readonly run: () => Promise<unknown>;
  /** Throws unless one call's result is what the stub answered. */
  readonly check: (result: unknown) => void;
}

function checkChainInfo(result: unknown): void {
  const r = result as { chainId?: unknown; networkToken?: { symbol?: unknown } } | undefined;
  if (r?.chainId !== CHAIN_ID || r.networkToken?.symbol !== "AVAX") throw new Error(`unexpected ChainInfo: ${JSON.stringify(result)}`);
}
function checkBalance(result: unknown): void {
  if (result !== BALANCE) throw new Error(`unexpected balance: ${String(result)}`);
}

const leanStub = httpStub();
const leanConfig = resolveHttpConfig({ apiKey: API_KEY, fetch: leanStub.fetch }, DATA_API_DEFAULT_BASE_URL);

const clientStub = httpStub();
const dataApi = createDataApiClient({ apiKey: API_KEY, fetch: clientStub.fetch });

const openapiFetchStub = httpStub();
const openapiFetch = createOpenApiFetchClient({ baseUrl: DATA_API_DEFAULT_BASE_URL, fetch: openapiFetchStub.fetch, headers: { "x-glacier-api-key": API_KEY } });

const nodeStub = rpcStub();
const node = createNodeClient({ baseUrl: NODE_URL, fetch: nodeStub.fetch });

const coreStub = httpStub();
const dataCore = createDataApiCore({ apiKey: API_KEY, fetch: coreStub.fetch });

const nodeCoreStub = rpcStub();
const nodeCore = createNodeCore({ baseUrl: NODE_URL, fetch: nodeCoreStub.fetch });

const viemStub = rpcStub();
const viem = createPublicClient({ cacheTime: 0, transport: http(`${NODE_URL}/ext/bc/C/rpc`, { fetchFn: viemStub.fetch, retryCount: 0, batch: false }) });

const httpFloorStub = httpStub();
const rpcFloorStub = rpcStub();
let floorId = 0;

const entries: Entry[] = [
  {
    group: "HTTP",
    name: "floor: stub fetch + res.json()",
    floor: true,
    stub: httpFloorStub,
    run: async () => (await httpFloorStub.fetch(`${DATA_API_DEFAULT_BASE_URL}/v1/chains/${CHAIN_ID}`, { headers: { "x-glacier-api-key": API_KEY } })).json(),
    check: checkChainInfo,
  },
  { group: "HTTP", name: "avaspec callHttp(getChainInfoOperation)", stub: leanStub, run: () => callHttp(leanConfig, getChainInfoOperation, { chainId: CHAIN_ID }), check: checkChainInfo },
  { group: "HTTP", name: "avaspec getChainInfo(core, params)", stub: coreStub, run: () => getChainInfo(dataCore, { chainId: CHAIN_ID }), check: checkChainInfo },
  { group: "HTTP", name: "avaspec createDataApiClient().getChainInfo", stub: clientStub, run: () => dataApi.getChainInfo({ chainId: CHAIN_ID }), check: checkChainInfo },
  {
    group: "HTTP",
    name: `openapi-fetch ${openapiFetchPkg.version} client.GET`,
    peer: true,
    stub: openapiFetchStub,
    run: async () => {
      const { data, error } = await openapiFetch.GET("/v1/chains/{chainId}", { params: { path: { chainId: CHAIN_ID } } });
      if (error !== undefined) throw new Error(`openapi-fetch: ${JSON.stringify(error)}`);
      return data;
    },
    check: checkChainInfo,
  },
  {
    group: "JSON-RPC",
    name: "floor: JSON.stringify + stub fetch + res.json() + BigInt",
    floor: true,
    stub: rpcFloorStub,
    run: async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: ++floorId, method: "eth_getBalance", params: [ADDRESS, "latest"] });
      const reply = (await (await rpcFloorStub.fetch(`${NODE_URL}/ext/bc/C/rpc`, { method: "POST", headers: JSON_HEADERS, body })).json()) as { result: string };
      return BigInt(reply.result);
    },
    check: checkBalance,
  },
  {
    group: "JSON-RPC",
    name: "avaspec createNodeClient().cChain.eth.getBalance",
    stub: nodeStub,
    run: () => node.cChain.eth.getBalance({ address: ADDRESS, block: "latest" }),
    check: checkBalance,
  },
  { group: "JSON-RPC", name: "avaspec cChainEthGetBalance(core, params)", stub: nodeCoreStub, run: () => cChainEthGetBalance(nodeCore, { address: ADDRESS, block: "latest" }), check: checkBalance },
  { group: "JSON-RPC", name: `viem ${viemVersion} getBalance`, peer: true, stub: viemStub, run: () => viem.getBalance({ address: ADDRESS, blockTag: "latest" }), check: checkBalance },
];

// ---- one checked call each: same request on the wire, same answer --------------------------------

for (const e of entries) {
  const seen: { url: string; method: string; headers: Headers }[] = [];
  // look at what the library sends on one call
  e.stub.spy = (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    seen.push({ url: request.url, method: request.method, headers: new Headers(init?.headers ?? request.headers) });
  };
  try {
    e.check(await e.run());
  } finally {
    delete e.stub.spy;
  }
  if (seen.length !== 1) throw new Error(`${e.name}: ${seen.length} fetch calls for one call`);
  const s = seen[0]!;
  if (e.group === "HTTP") {
    if (s.method !== "GET" || s.url !== `${DATA_API_DEFAULT_BASE_URL}/v1/chains/${CHAIN_ID}` || s.headers.get("x-glacier-api-key") !== API_KEY) {
      throw new Error(`${e.name}: unexpected request ${s.method} ${s.url} (x-glacier-api-key: ${s.headers.get("x-glacier-api-key")})`);
    }
  } else if (s.method !== "POST" || s.url !== `${NODE_URL}/ext/bc/C/rpc`) {
    throw new Error(`${e.name}: unexpected request ${s.method} ${s.url}`);
  }
}

// ---- the benches ---------------------------------------------------------------------------------

const TARGET = 0.95;
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const time = Number(process.env.BENCH_MS ?? 1000);
const warmupTime = Number(process.env.BENCH_WARMUP_MS ?? 250);
console.log(`node ${process.version}; stub fetch, no network; avaspec ${avaspecMode}; openapi-fetch ${openapiFetchPkg.version}, viem ${viemVersion}; median of ${rounds} round(s) of ${time} ms per task (warmup ${warmupTime} ms)\n`);

interface Sample {
  hz: number;
  meanMs: number;
  runs: number;
  fetchCalls: number;
}
const samples = new Map<Entry, Sample[]>(entries.map((e) => [e, []]));
const shortfalls: string[] = [];
for (let r = 0; r < rounds; r++) {
  const bench = new Bench({ time, warmupTime, throws: true });
  const before = new Map(entries.map((e) => [e, e.stub.calls]));
  for (let i = 0; i < entries.length; i++) {
    const e = entries[(i + r) % entries.length]!;
    bench.add(e.name, e.run);
  }
  await bench.run();
  for (const e of entries) {
    const task = bench.getTask(e.name)!;
    const result = task.result as { throughput: { mean: number }; latency: { mean: number } } | undefined;
    const fetchCalls = e.stub.calls - before.get(e)!;
    // warmup calls count too, so a bench that really sends every call makes more fetch calls than runs
    if (fetchCalls < task.runs) shortfalls.push(`${e.name}, round ${r + 1}: ${fetchCalls} fetch calls for ${task.runs} runs`);
    samples.get(e)!.push({ hz: result?.throughput.mean ?? 0, meanMs: result?.latency.mean ?? Number.NaN, runs: task.runs, fetchCalls });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
interface Row {
  group: Entry["group"];
  name: string;
  peer: boolean;
  floor: boolean;
  /** Median over the rounds of tinybench's mean throughput. */
  opsPerSec: number;
  /** Median over the rounds of the mean latency, µs. */
  meanMicros: number;
  /** opsPerSec ÷ the group peer's opsPerSec (avaspec entries only). */
  ratio?: number;
  /** meanMicros minus the group floor's: the client's own time per call. */
  aboveFloorMicros?: number;
  rounds: Sample[];
}
const rows: Row[] = entries.map((e) => {
  const s = samples.get(e)!;
  return { group: e.group, name: e.name, peer: e.peer === true, floor: e.floor === true, opsPerSec: median(s.map((x) => x.hz)), meanMicros: median(s.map((x) => x.meanMs)) * 1000, rounds: s };
});
for (const row of rows) {
  const peer = rows.find((p) => p.peer && p.group === row.group);
  if (!row.peer && !row.floor && peer && peer.opsPerSec > 0) row.ratio = row.opsPerSec / peer.opsPerSec;
  const floor = rows.find((f) => f.floor && f.group === row.group);
  if (!row.floor && floor) row.aboveFloorMicros = row.meanMicros - floor.meanMicros;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const head = ["group", "entry", "ops/s", "mean µs", "µs above floor", "ops/s ÷ peer"];
const cells = (r: Row) => [r.group, r.name, fmt(r.opsPerSec), r.meanMicros.toFixed(1), r.aboveFloorMicros === undefined ? "-" : r.aboveFloorMicros.toFixed(1), r.peer ? "peer" : r.ratio === undefined ? "-" : `${r.ratio.toFixed(2)}×`];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => cells(r)[i]!.length)));
const line = (c: string[]) => c.map((x, i) => (i < 2 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join("  ");
console.log(line(head));
for (const r of rows) console.log(line(cells(r)));

console.log("");
const targets = rows
  .filter((r) => r.ratio !== undefined)
  .map((r) => {
    const peer = rows.find((p) => p.peer && p.group === r.group)!;
    const met = r.ratio! >= TARGET;
    console.log(`${r.group}: ${r.name} ÷ ${peer.name} = ${r.ratio!.toFixed(3)} (target ≥ ${TARGET}): ${met ? "met" : "NOT met"}`);
    return { group: r.group, entry: r.name, peer: peer.name, ratio: r.ratio!, target: TARGET, met };
  });

mkdirSync(new URL("../.tmp", import.meta.url), { recursive: true });
const out = new URL("../.tmp/bench-overhead.json", import.meta.url);
writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, avaspec: avaspecMode, peers: { "openapi-fetch": openapiFetchPkg.version, viem: viemVersion }, rounds, timeMs: time, warmupMs: warmupTime, entries: rows, targets, shortfalls }, null, 2) + "\n");
console.log(`\nresults: ${fileURLToPath(out)}`);

if (shortfalls.length > 0) {
  // a cache or batch skipped requests: the figures above do not measure one call each
  for (const s of shortfalls) console.error(`error: ${s}`);
  process.exit(1);
}
