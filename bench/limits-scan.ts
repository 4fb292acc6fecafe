/**
 * npm run bench:limits-scan — issue 32's 1,000,000-block eth_getLogs scan
 * against the mock server in limits mode (runtime/mock/limits.ts, on
 * node:http at 127.0.0.1, same process): a 2,048-block range cap and
 * seeded random range errors (5 % of eth_getLogs calls, seed 1), over a
 * sparse log source (one block in 50 has a log, the synthetic chain's log
 * for that block), so the scan moves 20,000 logs.
 *
 * Rows:
 * - avaspec: `scanFilter` (runtime/ranges/ranges.ts) over the generated node
 *   client, windows from the cap; a refused window no wider than one that
 *   worked is read again as it is, a wider one halved.
 * - viem: `createPublicClient({ transport: http(url) }).getLogs` with a fixed
 *   window of 2,048 blocks; viem does not split a refused range, so the
 *   window is sent again until it passes (its own retries left on).
 * - avaspec against a node whose real span cap (1,000) is below the scan's
 *   2,048-block start, the same faults on top: the windows must shrink to the
 *   cap and stay near it. A fixed 2,048-block window never passes there, so
 *   viem has no such row.
 *
 * "Of the limit" is the blocks each request covered on average, as a share
 * of the blocks the node's cap allows (1.0: every request as wide as allowed;
 * the refused requests count). Requests and blocks/s are printed beside it;
 * the wall-clock figures depend on the machine, the share does not (the
 * faults are seeded: BENCH_SCAN_SEED, default 1). Every scan is checked: each
 * log once, in block order. Results: .tmp/bench-limits-scan.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createPublicClient, http } from "viem";
import { createNodeClient } from "../generated/src/node/index.js";
import { cChainEthGetLogsMethod, cChainLimits } from "../generated/src/node/client.js";
import { createMockService, mockTables } from "../generated/src/mocks/index.js";
import { serveMocks } from "../generated/src/runtime/mock/server.js";
import { limitMockService } from "../generated/src/runtime/mock/limits.js";
import { syntheticChain } from "../generated/src/runtime/mock/chain.js";
import { scanFilter } from "../generated/src/runtime/ranges/ranges.js";
import type { MockRequest, MockService, MockTable } from "../generated/src/runtime/mock/types.js";

const CAP = 2048;
const LOW_CAP = 1000;
const SEED = Number(process.env["BENCH_SCAN_SEED"] ?? 1);
const FROM = 70_000_000;
const BLOCKS = Number(process.env["BENCH_SCAN_BLOCKS"] ?? 1_000_000);
const TO = FROM + BLOCKS - 1;
const keep = (n: number) => n % 50 === 7;
const expected = Array.from({ length: BLOCKS }, (_, i) => FROM + i).filter(keep).length;

/** The generated mock service, with eth_getLogs and eth_blockNumber answered from a sparse log source. */
function sparseNode(inner: MockService) {
  const chain = syntheticChain({ now: () => Date.UTC(2026, 0, 1) });
  return {
    async handle(request: MockRequest) {
      const call = request.method === "POST" && request.body ? (JSON.parse(request.body) as { id?: unknown; method?: string; params?: unknown[] }) : undefined;
      if (call && !Array.isArray(call) && call.method === "eth_getLogs") {
        const f = (call.params?.[0] ?? {}) as { fromBlock: string; toBlock: string };
        const logs: unknown[] = [];
        for (let n = parseInt(f.fromBlock, 16); n <= parseInt(f.toBlock, 16); n++) {
          if (keep(n)) logs.push(...(chain.answer("/ext/bc/C/rpc", "eth_getLogs", [{ fromBlock: "0x" + n.toString(16), toBlock: "0x" + n.toString(16) }]) as { result: unknown[] }).result);
        }
        return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: call.id, result: logs }), handled: "eth_getLogs" };
      }
      return inner.handle(request);
    },
  };
}

async function serve(cap = CAP) {
  const tables = Object.values(mockTables) as unknown as MockTable[];
  const limited = limitMockService(sparseNode(createMockService(tables as never) as unknown as MockService), tables, { rpc: cChainLimits, range: { maxSpan: cap }, faults: { rate: 0.05, seed: SEED, only: ["eth_getLogs"] } });
  const server = await serveMocks(limited, { port: 0, log: null });
  return { server, limited };
}

/** Checks a scan's block numbers: each kept block once, in order. */
function check(blocks: number[]): string {
  if (blocks.length !== expected) return `${blocks.length} logs, ${expected} expected`;
  for (let i = 1; i < blocks.length; i++) if (blocks[i]! <= blocks[i - 1]!) return `out of order at ${i}`;
  return "every log once, in order";
}

async function avaspec(cap = CAP) {
  const { server, limited } = await serve(cap);
  const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
  const blocks: number[] = [];
  const t0 = performance.now();
  const scan = scanFilter(cChainEthGetLogsMethod.limits, { fromBlock: FROM, toBlock: TO }, (f) => client.cChain.eth.getLogs(f), () => client.cChain.eth.blockNumber());
  for await (const log of scan) blocks.push(parseInt(String((log as { blockNumber: string }).blockNumber), 16));
  const ms = performance.now() - t0;
  await server.close();
  const requests = limited.counts.served + limited.counts.faults + limited.counts.range;
  return { client: cap === CAP ? "avaspec scanFilter" : `avaspec, node cap ${cap.toLocaleString("en")}`, cap, requests, refused: limited.counts.faults + limited.counts.range, ms, check: check(blocks) };
}

async function viem() {
  const { server, limited } = await serve();
  const client = createPublicClient({ transport: http(`${server.url}/ext/bc/C/rpc`) });
  const blocks: number[] = [];
  const t0 = performance.now();
  for (let from = FROM; from <= TO; from += CAP) {
    const to = Math.min(TO, from + CAP - 1);
    for (;;) {
      try {
        const logs = await client.getLogs({ fromBlock: BigInt(from), toBlock: BigInt(to) });
        for (const l of logs) blocks.push(Number(l.blockNumber));
        break;
      } catch {
        // a refused window: viem does not split it; sent again
      }
    }
  }
  const ms = performance.now() - t0;
  await server.close();
  const requests = limited.counts.served + limited.counts.faults + limited.counts.range;
  return { client: "viem http, fixed 2,048", cap: CAP, requests, refused: limited.counts.faults + limited.counts.range, ms, check: check(blocks) };
}

const rows = [];
for (const run of [() => avaspec(), viem, () => avaspec(LOW_CAP)]) {
  const r = await run();
  const share = BLOCKS / r.requests / r.cap;
  rows.push({ ...r, ofLimit: Number(share.toFixed(3)), blocksPerSecond: Math.round(BLOCKS / (r.ms / 1000)) });
}
console.log(`eth_getLogs over ${BLOCKS.toLocaleString("en")} blocks, cap ${CAP} (last row: ${LOW_CAP.toLocaleString("en")}), 5 % range errors seeded ${SEED} (${expected.toLocaleString("en")} logs)`);
console.log("client                   requests  refused  of the limit  blocks/s   check");
for (const r of rows) console.log(`${r.client.padEnd(24)} ${String(r.requests).padStart(8)} ${String(r.refused).padStart(8)} ${r.ofLimit.toFixed(3).padStart(13)} ${String(r.blocksPerSecond).padStart(9)}   ${r.check}`);
mkdirSync(".tmp", { recursive: true });
writeFileSync(".tmp/bench-limits-scan.json", JSON.stringify(rows, null, 2) + "\n");
