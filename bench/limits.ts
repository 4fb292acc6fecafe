/**
 * `npm run bench:limits` (issue 32): the 10,000-call job against the
 * package's own mock server in limits mode (`startMockServer({ limits })`,
 * node:http on 127.0.0.1, same process), which enforces the Data API's real
 * free plan (8,000 compute units a minute and 2,000,000 a day per API key,
 * fixed windows) and answers as the declaration says the service does (429,
 * no Retry-After: none is declared). Side by side in one run:
 *
 * - our client with a budget for the plan (`createBudget(dataApiLimits, { plan })`);
 * - our client with a budget left to learn it (`createBudget(dataApiLimits)`);
 * - our client before issue 32: no budget, its default retry policy (a 429
 *   retried twice after a backoff, then the call fails);
 * - the same with retries raised until every call can be served (`retry: { retries: 20 }`);
 * - nothing enforced: the loopback ceiling, which any fraction is bound by
 *   (run first: it also warms the process, so no row pays for a cold start).
 *
 * The fraction is of the enforced limit: the least time the plan allows for
 * the units served (the first window's quota at once, then one quota per
 * window: 60 s for 10,000 one-unit calls under 8,000 a minute) over the time
 * the mock took from the first call it served to the last, both read from the
 * limits mode's own record of calls at its clock. A row whose calls did not
 * all succeed has no fraction: the job was not done. The mock's minute starts
 * when its server does, so every row meets the same windows.
 *
 * LIMITS_CALLS sets the number of calls (default 10,000), LIMITS_PLAN the plan (default free).
 */
import { createBudget, type Budget } from "../generated/src/index.js";
import { createDataApiClient, dataApiLimits } from "../generated/src/data-api/index.js";
import { startMockServer } from "../generated/src/mock-server/index.js";
import { runLoop } from "../test/helpers/run-loop.js";
import { startLimitsServer } from "../test/helpers/limits-server.js";

const CALLS = Number(process.env["LIMITS_CALLS"] ?? 10_000);
const PLAN = process.env["LIMITS_PLAN"] ?? "free";
const WORKERS = 64;
const quotas = dataApiLimits.plans?.[PLAN]?.quotas;
if (!quotas) throw new Error(`LIMITS_PLAN: the Data API declares no plan "${PLAN}"`);
const minute = quotas[0]!;

interface Row {
  client: string;
  ok: number;
  failed: number;
  refused: number;
  seconds: number;
  /** Seconds from the first call served to the call that spent the first window's quota. */
  head: number | undefined;
  fraction: number | undefined;
}

async function job(client: string, options: { budget?: Budget; retry?: { retries: number } }): Promise<Row> {
  const offset = Date.now() % (minute.window * 1000);
  const server = await startLimitsServer({ http: dataApiLimits, plan: PLAN, now: () => Date.now() - offset });
  try {
    const data = createDataApiClient({ baseUrl: server.url, apiKey: `bench-${process.pid}-${client}`, ...options });
    const failures = await runLoop(CALLS, WORKERS, () => data.getChainInfo({ chainId: "43114" }));
    const served = server.served();
    const units = served.reduce((sum, c) => sum + c.cost, 0);
    const seconds = served.length > 1 ? (served[served.length - 1]!.at - served[0]!.at) / 1000 : 0;
    // the least time the plan allows for the units served: one quota at once, then one per window
    const least = (Math.ceil(units / minute.quota) - 1) * minute.window;
    let spent = 0;
    const last = served.find((c) => (spent += c.cost) >= minute.quota);
    const head = last ? (last.at - served[0]!.at) / 1000 : undefined;
    return { client, ok: CALLS - failures.length, failed: failures.length, refused: server.refused().length, seconds, head, fraction: failures.length === 0 && seconds > 0 ? least / seconds : undefined };
  } finally {
    await server.close();
  }
}

/** The same calls with nothing enforced: what client and mock manage together on this machine. */
async function ceiling(): Promise<number> {
  const server = await startMockServer({ port: 0, log: null });
  try {
    const data = createDataApiClient({ baseUrl: server.url, apiKey: "bench-ceiling" });
    const t0 = performance.now();
    await runLoop(CALLS, WORKERS, () => data.getChainInfo({ chainId: "43114" }));
    return CALLS / ((performance.now() - t0) / 1000);
  } finally {
    await server.close();
  }
}

console.log(`${CALLS.toLocaleString("en")} calls of getChainInfo (1 CU each), ${WORKERS} loops, against startMockServer({ limits: { plan: "${PLAN}" } }): ${quotas.map((q) => `${q.quota.toLocaleString("en")} CUs per ${q.window} s`).join(", ")} per key, fixed windows, 429 without Retry-After`);
// first, so that every row runs in a warm process
const top = await ceiling();
const rows = [
  await job(`budget (createBudget, plan "${PLAN}")`, { budget: createBudget(dataApiLimits, { plan: PLAN }) }),
  await job("budget unknown (createBudget, learned)", { budget: createBudget(dataApiLimits) }),
  await job("no budget, default retries (before issue 32)", {}),
  await job("no budget, retry: { retries: 20 }", { retry: { retries: 20 } }),
];
console.log(`loopback ceiling: ${top.toFixed(0)} calls/s with nothing enforced; the plan's least time for the job is ${(Math.ceil(CALLS / minute.quota) - 1) * minute.window} s`);
console.log("client".padEnd(46) + "ok".padStart(7) + "failed".padStart(8) + "429s".padStart(8) + "seconds".padStart(9) + "1st quota".padStart(11) + "  fraction of the limit");
for (const r of rows) console.log(r.client.padEnd(46) + String(r.ok).padStart(7) + String(r.failed).padStart(8) + String(r.refused).padStart(8) + r.seconds.toFixed(2).padStart(9) + (r.head === undefined ? "—" : r.head.toFixed(2)).padStart(11) + "  " + (r.fraction === undefined ? "— (calls failed)" : r.fraction.toFixed(3)));
console.log("fraction: the plan's least time for the units served over the time the mock took from the first served to the last (its own record); target ≥ 0.9 with zero 429s");
console.log("1st quota: seconds the first window's quota took to serve; a budget frees units one window after their answers, so the calls past the first quota go at that pace");
