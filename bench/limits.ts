/**
 * `npm run bench:limits` (issue 32): the 10,000-call job against a loopback
 * server that enforces a compute-unit budget per API key, as a fraction of
 * what the budget allows, with the client's `budget` option and without it
 * (the client before issue 32: it retries a 429 after Retry-After, and that is
 * all).
 *
 * The server is test/helpers/limited-server.ts (a sliding window counted at
 * arrival, 429 with Retry-After), not the mock server's limits mode, which is
 * being built beside this. The plan is small (250 units a second, 250
 * calls a second of a 1-unit call) so that the job is bound by the budget
 * and not by loopback HTTP on a shared machine; the plan's minimum time is
 * what a client that sends the first window's quota at once and then exactly
 * one quota per window would take. Times are the server's own: from the first
 * call it served to the last. A third run with nothing enforced gives the
 * loopback ceiling: a plan near it measures the machine, not the client (at
 * 500 calls a second against a ceiling of about 600 the budgeted job measured
 * 0.76 to 0.88 on a shared machine).
 *
 * LIMITS_CALLS sets the number of calls (default 10,000).
 */
import { createBudget } from "../generated/src/index.js";
import { createDataApiClient, dataApiLimits } from "../generated/src/data-api/index.js";
import { runLoop, startLimitedServer } from "../test/helpers/limited-server.js";

const CALLS = Number(process.env.LIMITS_CALLS ?? 10_000);
const QUOTA = 250;
const WINDOW_MS = 1000;
const WORKERS = 64;

interface Row {
  client: string;
  ok: number;
  failed: number;
  refused: number;
  seconds: number;
  fraction: number;
}

async function job(client: string, withBudget: boolean, quota = QUOTA): Promise<Row> {
  const server = await startLimitedServer({ mode: "sliding", quotas: [{ quota, windowMs: WINDOW_MS }] });
  try {
    const apiKey = `bench-${client}`;
    const data = createDataApiClient({ baseUrl: server.url, apiKey, ...(withBudget ? { budget: createBudget(dataApiLimits, { quotas: [{ quota: QUOTA, window: WINDOW_MS / 1000 }] }) } : {}) });
    const failures = await runLoop(CALLS, WORKERS, () => data.getChainInfo({ chainId: "43114" }));
    const served = server.served;
    const seconds = served.length > 1 ? (served[served.length - 1]! - served[0]!) / 1000 : 0;
    // the least time the server's budget allows for what it served: one quota at once, then one per window
    const minimum = ((Math.ceil(served.length / QUOTA) - 1) * WINDOW_MS) / 1000;
    return { client, ok: CALLS - failures.length, failed: failures.length, refused: server.refused.length, seconds, fraction: seconds > 0 ? minimum / seconds : 0 };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  console.log(`${CALLS} calls of getChainInfo (1 unit each), ${WORKERS} loops, against a loopback server enforcing ${QUOTA} units per ${WINDOW_MS} ms per key (sliding window, 429 + Retry-After)`);
  const rows = [await job("budget (createBudget, quotas)", true), await job("no budget (before issue 32: retry after 429)", false)];
  // what the client and server in one process manage with nothing enforced: the ceiling of any fraction here
  const free = await job("no limit enforced (loopback ceiling)", false, 1e12);
  console.log(`loopback ceiling: ${(CALLS / free.seconds).toFixed(0)} calls/s with nothing enforced; the limit is ${((QUOTA * 1000) / WINDOW_MS).toFixed(0)} calls/s`);
  console.log("client".padEnd(48) + "ok".padStart(7) + "failed".padStart(8) + "429s".padStart(8) + "seconds".padStart(9) + "  fraction of the limit");
  for (const r of rows) console.log(r.client.padEnd(48) + String(r.ok).padStart(7) + String(r.failed).padStart(8) + String(r.refused).padStart(8) + r.seconds.toFixed(2).padStart(9) + "  " + r.fraction.toFixed(3));
  console.log("fraction: the plan's least time for the calls served over the time taken (server timestamps); target ≥ 0.9 with zero 429s");
}

await main();
