/**
 * The budget option (issue 32): clients that stay under a service's limits,
 * against a real loopback server that enforces them per API key. Nothing
 * here asserts a duration: the server counts what it served and refused,
 * and the tests assert those counts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AvaspecError, BudgetOptionError, createBudget, UsageError } from "@avaspec/client";
import { createDataApiClient, dataApiLimits } from "@avaspec/client/data-api";
import { cChainLimits, createNodeClient } from "@avaspec/client/node";
import { runLoop, startLimitedServer, type LimitedServer } from "../helpers/limited-server.js";

let server: LimitedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A key of its own per test: budgets are shared per pool and key for the whole process. */
let keys = 0;
const freshKey = () => `key-${process.pid}-${++keys}`;

describe("a known budget (plan or quotas)", () => {
  it("10,000 calls under a small explicit plan: zero 429s from a server enforcing it", async () => {
    // 100 calls per 200 ms binds: the loop alone runs faster than 500 calls a second on loopback
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 100, windowMs: 200 }] });
    const budget = createBudget(dataApiLimits, { quotas: [{ quota: 100, window: 0.2 }] });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget });
    const failures = await runLoop(10_000, 64, () => data.getChainInfo({ chainId: "43114" }));
    expect(failures).toEqual([]);
    expect(server.refused).toEqual([]);
    expect(server.served).toHaveLength(10_000);
  }, 120_000);

  it("without a budget the same loop meets 429s (what the budget prevents)", async () => {
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 100, windowMs: 200 }] });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), retry: { baseDelayMs: 1, retries: 20 } });
    await runLoop(400, 64, () => data.getChainInfo({ chainId: "43114" }));
    expect(server.refused.length).toBeGreaterThan(0);
  }, 60_000);

  it("every window of a plan must allow a call: per short window and per long window", async () => {
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 100, windowMs: 200 }, { quota: 300, windowMs: 1000 }] });
    const budget = createBudget(dataApiLimits, { quotas: [{ quota: 100, window: 0.2 }, { quota: 300, window: 1 }] });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget });
    const failures = await runLoop(700, 16, () => data.getChainInfo({ chainId: "43114" }));
    expect(failures).toEqual([]);
    expect(server.refused).toEqual([]);
    expect(server.served).toHaveLength(700);
  }, 60_000);

  it("two clients made with the same key share one budget, HTTP and JSON-RPC alike", async () => {
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 200, windowMs: 300 }] });
    const key = freshKey();
    const data = createDataApiClient({ baseUrl: server.url, apiKey: key, budget: createBudget(dataApiLimits, { quotas: [{ quota: 200, window: 0.3 }] }) });
    const other = createDataApiClient({ baseUrl: server.url, apiKey: key, budget: createBudget(dataApiLimits, { quotas: [{ quota: 200, window: 0.3 }] }) });
    // the C-Chain endpoints draw on the same pool ("avacloud") as the Data API: the same key is the same budget
    const node = createNodeClient({ baseUrl: server.url, headers: { "x-glacier-api-key": key }, budget: createBudget(cChainLimits, { quotas: [{ quota: 200, window: 0.3 }], key }) });
    const failures = await Promise.all([
      runLoop(400, 8, () => data.getChainInfo({ chainId: "43114" })),
      runLoop(400, 8, () => other.getChainInfo({ chainId: "43114" })),
      runLoop(400, 8, () => node.cChain.eth.chainId()),
    ]);
    expect(failures.flat()).toEqual([]);
    expect(server.refused).toEqual([]);
    expect(server.served).toHaveLength(1200);
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

  it("a declared plan is the document's quotas: the free plan passes 8,000 compute units a minute and no more", async () => {
    // getApiUsageMetrics costs 200 CUs (its descriptor's limits.cost): 40 calls are the free plan's minute
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 8000, windowMs: 60_000 }], cost: (path) => (path.startsWith("/v1/apiUsageMetrics") ? 200 : 1) });
    const budget = createBudget(dataApiLimits, { plan: "free" });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget });
    const failures = await runLoop(40, 8, () => data.getApiUsageMetrics({}));
    expect(failures).toEqual([]);
    // the 41st waits for the window: abort it rather than wait a minute
    const waiting = data.getApiUsageMetrics({}, { signal: AbortSignal.timeout(50) });
    await expect(waiting).rejects.toThrow(/aborted by the caller while waiting for the budget/);
    expect(server.served).toHaveLength(40);
    expect(server.refused).toEqual([]);
  });
});

describe("an unknown budget (learned)", () => {
  it("every call succeeds, and the server refuses calls only in its first window", async () => {
    // 60 calls per 500 ms, far below what 16 loops send on loopback: the first window ends in 429s
    server = await startLimitedServer({ mode: "fixed", quotas: [{ quota: 60, windowMs: 500 }] });
    const data = createDataApiClient({ baseUrl: server.url, apiKey: freshKey(), budget: createBudget(dataApiLimits) });
    const failures = await runLoop(480, 16, () => data.getChainInfo({ chainId: "43114" }));
    expect(failures).toEqual([]);
    expect(server.served).toHaveLength(480);
    expect(server.refused.length).toBeGreaterThan(0);
    expect(server.refused.filter((r) => r.window > 1)).toEqual([]);
  }, 60_000);
});

describe("batches", () => {
  it("a batch of 200 against a server capping at 40: split on refusal, and the size that worked is remembered", async () => {
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 1e9, windowMs: 1000 }], batchCap: 40 });
    const node = createNodeClient({ baseUrl: server.url, batch: { maxSize: 1000 }, budget: createBudget(cChainLimits, { key: freshKey() }) });
    const first = await node.batch((n) => Array.from({ length: 200 }, () => n.cChain.eth.chainId()));
    expect(first.filter((r) => !r.ok)).toEqual([]);
    expect(first).toHaveLength(200);
    expect(server.batchesRefused.length).toBeGreaterThan(0);
    expect(server.batchesServed.every((size) => size <= 40)).toBe(true);
    const refusedBefore = server.batchesRefused.length;
    const second = await node.batch((n) => Array.from({ length: 200 }, () => n.cChain.eth.chainId()));
    expect(second.filter((r) => !r.ok)).toEqual([]);
    expect(server.batchesRefused.length).toBe(refusedBefore);
  }, 30_000);

  it("a batch larger than the declared maxItems is split before it is sent", async () => {
    server = await startLimitedServer({ mode: "sliding", quotas: [{ quota: 1e9, windowMs: 1000 }], batchCap: 40 });
    const limits = { ...cChainLimits, servers: [{ url: server.url, limits: { batch: { maxItems: 40 } } }] };
    const node = createNodeClient({ baseUrl: server.url, batch: { maxSize: 1000 }, budget: createBudget(limits, { key: freshKey() }) });
    const results = await node.batch((n) => Array.from({ length: 200 }, () => n.cChain.eth.chainId()));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.batchesRefused).toEqual([]);
    expect(server.batchesServed).toEqual([40, 40, 40, 40, 40]);
  }, 30_000);
});
