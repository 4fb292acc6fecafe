/**
 * The budget option (issue 32): clients that stay under a service's limits,
 * against the package's own mock server in limits mode
 * (`startMockServer({ limits })`), which enforces them per API key in fixed
 * windows and answers as the service does. Nothing here asserts a duration:
 * the limits mode records every call it judged at its own clock, and the
 * tests count those records (per window where the window matters).
 *
 * The real plans count per minute, so a test that makes a budget bind would
 * take minutes: these declare a test plan, or give explicit quotas, with the
 * same figures on both sides (the mock's limits and the client's budget), in
 * windows of a fraction of a second. The real free plan is exercised where a
 * few calls spend it (a 200-CU route) and in `npm run bench:limits`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AvaspecError, BudgetOptionError, createBudget, UsageError, type ServiceLimits } from "@avaspec/client";
import { createDataApiClient, dataApiLimits } from "@avaspec/client/data-api";
import { cChainLimits, createNodeClient } from "@avaspec/client/node";
import { runLoop } from "../helpers/run-loop.js";
import { startLimitsServer, type LimitsServer } from "../helpers/limits-server.js";

let server: LimitsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A key of its own per test: budgets are shared per pool and key for the whole process. */
let keys = 0;
const freshKey = () => `key-${process.pid}-${++keys}`;

/** The Data API's declaration with a plan of 100 CUs per 200 ms: a budget that binds within seconds, declared as the real plans are. */
const testLimits: ServiceLimits = { ...dataApiLimits, plans: { ...dataApiLimits.plans, test: { quotas: [{ quota: 100, window: 0.2 }] } } };

describe("a known budget (plan or quotas)", () => {
  it("10,000 calls under a declared plan: zero 429s from the limits-mode mock enforcing it", async () => {
    // 100 calls per 200 ms binds: the loop alone runs faster than 500 calls a second on loopback (the next test)
    server = await startLimitsServer({ http: testLimits, plan: "test" });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(testLimits, { plan: "test" }) });
    const failures = await runLoop(10_000, 64, () => data.getChainInfo({ chainId: "43114" }));
    expect(failures).toEqual([]);
    expect(server.refused()).toEqual([]);
    expect(server.served()).toHaveLength(10_000);
  }, 120_000);

  it("without a budget a loop meets 429s (what the budget prevents)", async () => {
    // a quota any machine outruns, even a loaded one (the plan above binds only while the loop runs faster than 500 calls a second)
    const quotas = [{ quota: 50, window: 1 }];
    server = await startLimitsServer({ http: dataApiLimits, quotas });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), retry: false });
    const failures = await runLoop(300, 64, () => data.getChainInfo({ chainId: "43114" }));
    expect(server.refused().filter((c) => c.outcome === "quota").length).toBeGreaterThan(0);
    expect(failures.length).toBe(server.refused().length);
    // and the same loop with the budget: none
    await server.close();
    server = await startLimitsServer({ http: dataApiLimits, quotas });
    const paced = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), retry: false, budget: createBudget(dataApiLimits, { quotas }) });
    expect(await runLoop(120, 64, () => paced.getChainInfo({ chainId: "43114" }))).toEqual([]);
    expect(server.refused()).toEqual([]);
  }, 60_000);

  it("every window of a plan must allow a call: per short window and per long window (explicit quotas on both sides)", async () => {
    const quotas = [{ quota: 100, window: 0.2 }, { quota: 300, window: 1 }];
    server = await startLimitsServer({ http: dataApiLimits, quotas });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(dataApiLimits, { quotas }) });
    const failures = await runLoop(700, 16, () => data.getChainInfo({ chainId: "43114" }));
    expect(failures).toEqual([]);
    expect(server.refused()).toEqual([]);
    expect(server.served()).toHaveLength(700);
  }, 60_000);

  it("two clients made with the same key share one budget, HTTP and JSON-RPC alike", async () => {
    const quotas = [{ quota: 200, window: 0.3 }];
    // the C-Chain endpoints draw on the same pool ("avacloud") as the Data API: the mock counts them in one budget per key, as AvaCloud does
    server = await startLimitsServer({ http: dataApiLimits, rpc: cChainLimits, quotas });
    const key = freshKey();
    const data = createDataApiClient({ baseUrl: server.url, apiKey: key, budget: createBudget(dataApiLimits, { quotas }) });
    const other = createDataApiClient({ baseUrl: server.url, apiKey: key, budget: createBudget(dataApiLimits, { quotas }) });
    const node = createNodeClient({ baseUrl: server.url, headers: { "x-glacier-api-key": key }, budget: createBudget(cChainLimits, { quotas, key }) });
    const failures = await Promise.all([
      runLoop(400, 8, () => data.getChainInfo({ chainId: "43114" })),
      runLoop(400, 8, () => other.getChainInfo({ chainId: "43114" })),
      runLoop(400, 8, () => node.cChain.eth.chainId()),
    ]);
    expect(failures.flat()).toEqual([]);
    expect(server.refused()).toEqual([]);
    expect(server.served()).toHaveLength(1200);
    expect(new Set(server.served().map((c) => c.id))).toEqual(new Set(["getChainInfo", "eth_chainId"]));
  }, 60_000);

  it("budgets are per key: two keys each get the whole plan, so together they pass more than one key's quota in a window", async () => {
    // a window far longer than any machine needs for 200 calls: one shared budget would hold the second hundred for 20 s
    const quotas = [{ quota: 100, window: 20 }];
    server = await startLimitsServer({ http: dataApiLimits, quotas });
    const a = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(dataApiLimits, { quotas }) });
    const b = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(dataApiLimits, { quotas }) });
    const failures = await Promise.all([runLoop(100, 16, () => a.getChainInfo({ chainId: "43114" })), runLoop(100, 16, () => b.getChainInfo({ chainId: "43114" }))]);
    expect(failures.flat()).toEqual([]);
    expect(server.refused()).toEqual([]);
    // one shared budget could never let more than 100 reach the mock within a window; two keys' budgets do
    expect(server.peakServed(20_000)).toBe(200);
    for (const key of new Set(server.served().map((c) => c.key))) {
      const mine = server.calls.filter((c) => c.key === key);
      expect(mine).toHaveLength(100);
    }
  }, 60_000);

  it("a plan the document does not declare is a BudgetOptionError (a UsageError) naming the field, before any request", async () => {
    let error: unknown;
    try {
      createBudget(dataApiLimits, { plan: "enterprise" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BudgetOptionError);
    // the general class of options a caller got wrong
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(AvaspecError);
    expect((error as BudgetOptionError).field).toBe("plan");
    expect((error as Error).message).toContain(`plan "enterprise" is not one the document declares ("unauthenticated", "free", "base", "growth", "pro")`);
    expect(() => createBudget(dataApiLimits, { quotas: [{ quota: 10, window: 0 }] })).toThrow(expect.objectContaining({ field: "quotas[0].window" }));
    expect(() => createBudget(cChainLimits, { plan: "free" })).toThrow(/it declares none/);
  });

  it("the real free plan: the mock passes 8,000 CUs a minute per key, and the budget sends the 40 calls of a 200-CU route and holds the 41st", async () => {
    // getApiUsageMetrics costs 200 CUs (its descriptor's limits.cost) on both sides: 40 calls are the free plan's minute
    server = await startLimitsServer({ http: dataApiLimits, plan: "free" });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(dataApiLimits, { plan: "free" }) });
    const failures = await runLoop(40, 8, () => data.getApiUsageMetrics({}));
    expect(failures).toEqual([]);
    // the 41st waits for the window: abort it rather than wait a minute
    const waiting = data.getApiUsageMetrics({}, { signal: AbortSignal.timeout(50) });
    await expect(waiting).rejects.toThrow(/aborted by the caller while waiting for the budget/);
    expect(server.served()).toHaveLength(40);
    expect(server.served().reduce((sum, c) => sum + c.cost, 0)).toBe(8000);
    expect(server.refused()).toEqual([]);
  });
});

describe("an unknown budget (learned)", () => {
  it("every call succeeds, and the mock's refusals stop once the budget has learned", async () => {
    // a server that says when to come back (Retry-After), 20 CUs per 500 ms: below what 16 loops send on loopback, even on a loaded machine
    const limits: ServiceLimits = { ...dataApiLimits, signals: { quota: { status: [429], retryAfter: true } } };
    server = await startLimitsServer({ http: limits, quotas: [{ quota: 20, window: 0.5 }] });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(dataApiLimits) });
    const failures = await runLoop(80, 16, () => data.getChainInfo({ chainId: "43114" }));
    expect(failures).toEqual([]);
    expect(server.served()).toHaveLength(80);
    // the loops outran the server at first, and the refusals ended within the first half of the run (by the mock's clock,
    // from its first call): a client that does not learn is refused in every window it sends into, to the end. When the
    // first figure learned spans two of the server's windows, one more round comes at about 1.2 s (budget-ledger.test.ts
    // shows it under fake timers), so "none after the first second" is not what a loaded machine can promise.
    const perSecond = server.refusedPerWindow(1000);
    const seconds = Math.floor((server.calls.at(-1)!.at - server.calls[0]!.at) / 1000) + 1;
    expect(perSecond.size).toBeGreaterThan(0);
    expect([...perSecond].filter(([second]) => second >= seconds / 2)).toEqual([]);
  }, 60_000);
});

describe("batches", () => {
  it("a batch of 200 against the public node's 40-call cap: split on refusal, and the size that worked is remembered", async () => {
    // the mock behaves as the public API node, whose declared batch cap is 40; the client's budget does not know the server
    server = await startLimitsServer({ rpc: cChainLimits, server: "https://api.avax.network/ext/bc/C/rpc" });
    const node = createNodeClient({ baseUrl: server.url, batch: { maxSize: 1000 }, budget: createBudget(cChainLimits, { key: freshKey() }) });
    const first = await node.batch((n) => Array.from({ length: 200 }, () => n.cChain.eth.chainId()));
    expect(first.filter((r) => !r.ok)).toEqual([]);
    expect(first).toHaveLength(200);
    const refusedFirst = server.refused().filter((c) => c.outcome === "batch");
    expect(refusedFirst.length).toBeGreaterThan(0);
    expect(server.served()).toHaveLength(200);
    const second = await node.batch((n) => Array.from({ length: 200 }, () => n.cChain.eth.chainId()));
    expect(second.filter((r) => !r.ok)).toEqual([]);
    expect(server.refused().filter((c) => c.outcome === "batch")).toHaveLength(refusedFirst.length);
    expect(server.served()).toHaveLength(400);
  }, 30_000);

  it("a batch larger than the declared maxItems is split before it is sent", async () => {
    server = await startLimitsServer({ rpc: cChainLimits, server: "https://api.avax.network/ext/bc/C/rpc" });
    const limits = { ...cChainLimits, servers: [{ url: server.url, limits: { batch: { maxItems: 40 } } }] };
    const node = createNodeClient({ baseUrl: server.url, batch: { maxSize: 1000 }, budget: createBudget(limits, { key: freshKey() }) });
    const results = await node.batch((n) => Array.from({ length: 200 }, () => n.cChain.eth.chainId()));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.refused()).toEqual([]);
    expect(server.served()).toHaveLength(200);
  }, 30_000);
});
