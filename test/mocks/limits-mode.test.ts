/**
 * Issue 32: the mock server's limits mode and eth_getLogs range splitting.
 * The generated clients against a real node:http mock server on 127.0.0.1
 * in limits mode, which refuses as the declarations (`x-avaspec-limits`)
 * say the real services do: Coreth's -32600 "batch too large" for a batch
 * over the public node's 40 calls, its -32000 "requested too many blocks"
 * for an eth_getLogs span over the cap, the Data API's 429 once a key's
 * plan is spent. Before this change the mock answered everything.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ReconnectInfo, WebSocketConstructor } from "@avaspec/client";
import { startMockServer } from "@avaspec/client/mock-server";
import { until } from "../helpers/wait.js";
import { createNodeClient } from "@avaspec/client/node";
import { cChainEthGetLogsMethod, cChainLimits } from "../../generated/src/node/client.js";
import { createDataApiClient } from "@avaspec/client/data-api";
import { dataApiLimits } from "../../generated/src/data-api/operations.js";
import { createMockService, mockTables } from "@avaspec/client/mocks";
import { serveMocks, type RunningMockServer } from "../../runtime/mock/server.js";
import { limitMockService, type LimitedMockService } from "../../runtime/mock/limits.js";
import { syntheticChain } from "../../runtime/mock/chain.js";
import { sparseNode } from "../helpers/sparse-node.js";
import { scanFilter } from "../../runtime/ranges/ranges.js";
import type { MockService, MockTable } from "../../runtime/mock/types.js";

const tables = Object.values(mockTables) as unknown as MockTable[];
const PUBLIC_NODE = "https://api.avax.network/ext/bc/C/rpc";
const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("limits mode: batch and range caps as Coreth answers them", () => {
  let server: RunningMockServer;
  let limited: LimitedMockService;
  beforeAll(async () => {
    const service = createMockService(tables as never) as unknown as MockService;
    limited = limitMockService(service, tables, { rpc: cChainLimits, server: PUBLIC_NODE, range: { maxSpan: 2048 } });
    server = await serveMocks(limited, { port: 0, log: null });
  });
  afterAll(() => server.close());

  it("refuses a batch of 200 against the public node's 40-call cap with -32600 'batch too large', whole", async () => {
    const calls = Array.from({ length: 200 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId", params: [] }));
    const res = await post(`${server.url}/ext/bc/C/rpc`, calls);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch too large" } });
    // 40 pass
    const ok = (await (await post(`${server.url}/ext/bc/C/rpc`, calls.slice(0, 40))).json()) as unknown[];
    expect(ok).toHaveLength(40);
    expect(limited.counts.batch).toBe(1);
  });

  it("the generated client's batch of 200 in one request gets the refusal for every call", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, batch: { maxSize: 200 } });
    const results = await client.batch((c) => Array.from({ length: 200 }, () => c.cChain.eth.chainId()));
    expect(results).toHaveLength(200);
    for (const r of results) {
      expect(r.ok).toBe(false);
      const e = (r as { error: unknown }).error;
      expect(e).toMatchObject({ code: -32600, rpcMessage: "batch too large" });
    }
  });

  it("refuses an eth_getLogs span over the cap with the declared -32000 and Coreth's wording", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false });
    const error = await client.cChain.eth.getLogs({ fromBlock: "0x0", toBlock: "0x1000" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32000, rpcMessage: "requested too many blocks from 0 to 4096, maximum is set to 2048" });
    // within the cap: answered
    await expect(client.cChain.eth.getLogs({ fromBlock: "0x0", toBlock: "0x7ff" })).resolves.toBeInstanceOf(Array);
  });
});

describe("limits mode: the Data API's plan per API key", () => {
  let server: RunningMockServer;
  let clock = Date.UTC(2026, 0, 1);
  beforeAll(async () => {
    const service = createMockService(tables as never) as unknown as MockService;
    server = await serveMocks(limitMockService(service, tables, { http: dataApiLimits, plan: "free", now: () => clock }), { port: 0, log: null });
  });
  afterAll(() => server.close());

  it("answers 429 once a key has spent the free plan's 8,000 CUs of the minute (listBlockchains costs 20), per key, and again in the next minute", async () => {
    const a = createDataApiClient({ baseUrl: server.url, apiKey: "key-a", retry: false });
    const b = createDataApiClient({ baseUrl: server.url, apiKey: "key-b", retry: false });
    for (let i = 0; i < 400; i++) await a.listBlockchains({ network: "mainnet" });
    const error = await a.listBlockchains({ network: "mainnet" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "RateLimitError", statusCode: 429 });
    // the declaration names no Retry-After for the Data API: none is sent
    expect((error as { headers?: Record<string, string> }).headers?.["retry-after"]).toBeUndefined();
    // another key has its own budget
    await expect(b.listBlockchains({ network: "mainnet" })).resolves.toBeTruthy();
    clock += 60_000;
    await expect(a.listBlockchains({ network: "mainnet" })).resolves.toBeTruthy();
  });

  it("a request without a key draws on the unauthenticated plan (6,000 CUs a minute)", async () => {
    const anon = createDataApiClient({ baseUrl: server.url, retry: false });
    clock += 60_000;
    for (let i = 0; i < 300; i++) await anon.listBlockchains({ network: "mainnet" });
    await expect(anon.listBlockchains({ network: "mainnet" })).rejects.toMatchObject({ statusCode: 429 });
  });
});

describe("limits mode: explicit quotas and the record of calls", () => {
  it("quotas replace the plans, in whole milliseconds, and every call judged is recorded at the mock's clock", async () => {
    let clock = 1_000_000;
    const calls: { at: number; key?: string; id: string; outcome: string; cost: number }[] = [];
    const service = createMockService(tables as never) as unknown as MockService;
    const server = await serveMocks(limitMockService(service, tables, { http: dataApiLimits, quotas: [{ quota: 3, window: 0.2 }], now: () => clock, onCall: (c) => calls.push(c) }), { port: 0, log: null });
    try {
      const client = createDataApiClient({ baseUrl: server.url, apiKey: "k", retry: false });
      for (let i = 0; i < 3; i++) await client.getChainInfo({ chainId: "43114" });
      await expect(client.getChainInfo({ chainId: "43114" })).rejects.toMatchObject({ statusCode: 429 });
      clock += 199;
      await expect(client.getChainInfo({ chainId: "43114" })).rejects.toMatchObject({ statusCode: 429 });
      clock += 1;
      await expect(client.getChainInfo({ chainId: "43114" })).resolves.toBeTruthy();
      expect(calls.map((c) => [c.at, c.key, c.id, c.outcome, c.cost])).toEqual([
        [1_000_000, "k", "getChainInfo", "served", 1],
        [1_000_000, "k", "getChainInfo", "served", 1],
        [1_000_000, "k", "getChainInfo", "served", 1],
        [1_000_000, "k", "getChainInfo", "quota", 0],
        [1_000_199, "k", "getChainInfo", "quota", 0],
        [1_000_200, "k", "getChainInfo", "served", 1],
      ]);
    } finally {
      await server.close();
    }
    // the same check as createBudget's quotas (one function, values/limits.ts quotasFault)
    expect(() => limitMockService(service, tables, { quotas: [{ quota: 0, window: 60 }] })).toThrow(/^quotas\[0\]\.quota must be a positive number, not 0$/);
    expect(() => limitMockService(service, tables, { quotas: [] })).toThrow(/^quotas must be a non-empty list of \{ quota, window \}, not \[\]$/);
  });
});

describe("limits mode: seeded faults", () => {
  it("refuses the same calls for the same seed: 429 for HTTP operations", async () => {
    const refusedAt = async (seed: number) => {
      const service = createMockService(tables as never) as unknown as MockService;
      const server = await serveMocks(limitMockService(service, tables, { http: dataApiLimits, faults: { rate: 0.2, seed } }), { port: 0, log: null });
      const client = createDataApiClient({ baseUrl: server.url, retry: false });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) if (await client.listBlockchains({ network: "mainnet" }).then(() => false, (e: { statusCode?: number }) => e.statusCode === 429)) out.push(i);
      await server.close();
      return out;
    };
    const first = await refusedAt(7);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(40);
    expect(await refusedAt(7)).toEqual(first);
    expect(await refusedAt(8)).not.toEqual(first);
  });
});

describe("eth_getLogs range splitting against the limits mode", () => {
  let server: RunningMockServer;
  let limited: LimitedMockService;
  beforeAll(async () => {
    const inner = createMockService(tables as never) as unknown as MockService;
    limited = limitMockService(sparseNode(inner, (n) => n % 50 === 7), tables, { rpc: cChainLimits, range: { maxSpan: 2048 }, faults: { rate: 0.05, seed: 1, only: ["eth_getLogs"] } });
    server = await serveMocks(limited, { port: 0, log: null });
  });
  afterAll(() => server.close());

  it("scans 1,000,000 blocks under a 2,048-block cap with seeded range errors: every log once, in order, one window held at a time", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
    const served = limited.counts.served;
    const from = 70_000_000;
    const to = from + 999_999;
    const progress: { done: number; total: number }[] = [];
    const scan = scanFilter(cChainEthGetLogsMethod.limits, { fromBlock: from, toBlock: to }, (f) => client.cChain.eth.getLogs(f), () => client.cChain.eth.blockNumber(), { onProgress: (p) => progress.push({ done: p.done, total: p.total }) });
    let count = 0;
    let last = from - 1;
    for await (const log of scan) {
      const n = parseInt(String((log as { blockNumber: string }).blockNumber), 16);
      // in order, each once: one log per kept block, so the block numbers strictly increase
      expect(n).toBeGreaterThan(last);
      expect(n % 50).toBe(7);
      last = n;
      count++;
    }
    expect(count).toBe(20_000);
    expect(scan.progress).toMatchObject({ done: 1_000_000, total: 1_000_000 });
    // the seeded faults refused windows; each was read again as it was, since a window as wide had passed
    expect(scan.progress.retries).toBeGreaterThan(0);
    expect(limited.counts.faults).toBe(scan.progress.retries);
    expect(scan.progress.repeats).toBe(scan.progress.retries);
    // one request per window (489, the last shorter) and one per refusal: at least 0.9 of the cap's blocks per request
    const requests = limited.counts.served - served + limited.counts.faults + limited.counts.range;
    expect(requests).toBe(Math.ceil(1_000_000 / 2048) + limited.counts.faults);
    expect(1_000_000 / requests / 2048).toBeGreaterThanOrEqual(0.9);
    // no window over the cap reached the node: nothing was refused for its span
    expect(limited.counts.range).toBe(0);
    // memory stays flat: the scan never held more than one full window's logs (2,048 blocks, one in 50 has a log)
    expect(scan.peakHeld).toBeLessThanOrEqual(Math.ceil(2048 / 50));
    expect(progress.at(-1)).toEqual({ done: 1_000_000, total: 1_000_000 });
    expect(progress.every((p, i) => i === 0 || p.done > progress[i - 1]!.done)).toBe(true);
  }, 120_000);

  it("reads to `latest` from the node's head", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
    const head = Number(BigInt(await client.cChain.eth.blockNumber()));
    const scan = scanFilter(cChainEthGetLogsMethod.limits, { fromBlock: head - 4999, toBlock: "latest" as const }, (f) => client.cChain.eth.getLogs(f), () => client.cChain.eth.blockNumber());
    let count = 0;
    for await (const _ of scan) count++;
    expect(scan.progress.total).toBe(5000);
    expect(count).toBe(Array.from({ length: 5000 }, (_, i) => head - 4999 + i).filter((n) => n % 50 === 7).length);
  });
});

describe("eth_getLogs range splitting against a real span cap below the scan's width", () => {
  it("a node capping spans at 1,000 blocks (with seeded faults on top): every over-cap window shrinks, every log once, in order, near one request per 1,000 blocks", async () => {
    const inner = createMockService(tables as never) as unknown as MockService;
    const limited = limitMockService(sparseNode(inner, (n) => n % 50 === 7), tables, { rpc: cChainLimits, range: { maxSpan: 1000 }, faults: { rate: 0.05, seed: 2, only: ["eth_getLogs"] } });
    const server = await serveMocks(limited, { port: 0, log: null });
    try {
      const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
      const from = 1_000_000;
      const to = from + 299_999;
      // the scan starts at its default 2,048 blocks: no source states the node's span, so the first window is refused for its span
      const scan = scanFilter(cChainEthGetLogsMethod.limits, { fromBlock: from, toBlock: to }, (f) => client.cChain.eth.getLogs(f), () => client.cChain.eth.blockNumber());
      const blocks: number[] = [];
      for await (const log of scan) blocks.push(parseInt(String((log as { blockNumber: string }).blockNumber), 16));
      expect(blocks).toEqual(Array.from({ length: 300_000 }, (_, i) => from + i).filter((n) => n % 50 === 7));
      expect(limited.counts.range).toBeGreaterThan(0);
      expect(scan.progress.retries).toBe(limited.counts.range + limited.counts.faults);
      // 300 windows of the cap at best; the probing above it and the faults cost the rest
      expect(limited.counts.served + limited.counts.range + limited.counts.faults).toBeLessThanOrEqual(300 * 1.25);
    } finally {
      await server.close();
    }
  });
});

describe("the WebSocket backfill splits its range as the scan does", () => {
  it("a logs subscription away for 5,000 blocks backfills them in windows within the node's 2,048-block range", async () => {
    const EPOCH = Date.UTC(2026, 0, 1);
    const clock = { now: EPOCH + 1_000 };
    const interval = 20;
    const chain = syntheticChain({ intervalMs: interval, epochMs: EPOCH, now: () => clock.now });
    const server = await startMockServer({ port: 0, log: null, subscriptions: chain });
    const node = createNodeClient({ baseUrl: server.url, retry: false, webSocket: { WebSocket: WebSocket as unknown as WebSocketConstructor, reconnect: { baseDelayMs: 5, maxDelayMs: 20 } } });
    try {
      const logs: bigint[] = [];
      const gaps: ReconnectInfo[] = [];
      const errors: unknown[] = [];
      node.cChain.ws.subscribe.logs({ filter: {} }, { onData: (l) => logs.push(l.blockNumber!), onReconnect: (g) => gaps.push(g), onError: (e) => errors.push(e) });
      await until(() => chain.active === 1, 3000, "the subscription");
      clock.now += interval;
      await until(() => logs.length === 1, 3000, "the first log");
      const first = logs[0]!;
      server.dropConnections();
      // the chain serves at most 2,048 blocks of logs a call (MAX_LOG_RANGE): one read of the gap was refused
      clock.now += 5000 * interval;
      await until(() => gaps.length === 1, 5000, "the reconnect");
      expect(errors).toEqual([]);
      expect(gaps[0]).toMatchObject({ missedTo: first + 5000n, backfilled: 5000 });
      expect(logs).toEqual(Array.from({ length: 5001 }, (_, i) => first + BigInt(i)));
    } finally {
      await node.cChain.ws.close();
      await server.close();
    }
  }, 30_000);
});
