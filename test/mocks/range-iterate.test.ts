/**
 * Issue 32, range splitting on the generated client: every member whose
 * descriptor declares a range (`x-avaspec-limits` `range`) has `iterate`,
 * which reads any range window by window (runtime/ranges/ranged.ts over
 * scanRange). Against the mock server's limits mode on 127.0.0.1:
 * `cChain.eth.getLogs.iterate` to `latest` under a 2,048-block cap with
 * seeded range errors, and a Data API listing over a block range, each
 * window's pages walked. Before this change neither member had a range
 * `iterate` (getLogs had none at all; the listing's walked the pages of
 * the whole range in one request).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError, ValidationError } from "@avaspec/client";
import { createNodeClient } from "@avaspec/client/node";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createMockService, mockTables } from "@avaspec/client/mocks";
import { cChainLimits } from "../../generated/src/node/client.js";
import { dataApiLimits } from "../../generated/src/data-api/operations.js";
import { serveMocks, type RunningMockServer } from "../../runtime/mock/server.js";
import { limitMockService, type LimitedMockService } from "../../runtime/mock/limits.js";
import type { MockRequest, MockService, MockTable } from "../../runtime/mock/types.js";
import { sparseNode } from "../helpers/sparse-node.js";

const tables = Object.values(mockTables) as unknown as MockTable[];
const blockOf = (log: unknown) => parseInt(String((log as { blockNumber: string }).blockNumber), 16);

describe("cChain.eth.getLogs.iterate against the limits mode", () => {
  let server: RunningMockServer;
  let limited: LimitedMockService;
  let node: ReturnType<typeof sparseNode>;
  beforeAll(async () => {
    const inner = createMockService(tables as never) as unknown as MockService;
    node = sparseNode(inner, (n) => n % 50 === 7);
    limited = limitMockService(node, tables, { rpc: cChainLimits, range: { maxSpan: 2048 }, faults: { rate: 0.05, seed: 7, only: ["eth_getLogs"] } });
    server = await serveMocks(limited, { port: 0, log: null });
  });
  afterAll(() => server.close());

  it("reads 200,000 blocks to `latest` (the declared head, eth_blockNumber) in windows within the cap: every log once, in order, progress to the total", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
    const head = Number(BigInt(await client.cChain.eth.blockNumber()));
    const from = head - 199_999;
    const progress: { done: number; total: number }[] = [];
    const scan = client.cChain.eth.getLogs.iterate({ fromBlock: from, toBlock: "latest" }, { onProgress: (p) => progress.push({ done: p.done, total: p.total }) });
    const blocks: number[] = [];
    for await (const log of scan) blocks.push(blockOf(log));
    const expected = Array.from({ length: 200_000 }, (_, i) => from + i).filter((n) => n % 50 === 7);
    // in order, each once
    expect(blocks).toEqual(expected);
    expect(scan.progress).toMatchObject({ done: 200_000, total: 200_000 });
    expect(progress.at(-1)).toEqual({ done: 200_000, total: 200_000 });
    // the seeded faults refused windows (the declared -32000), each read again smaller; none went over the cap
    expect(scan.progress.retries).toBeGreaterThan(0);
    expect(limited.counts.faults).toBe(scan.progress.retries);
    expect(limited.counts.range).toBe(0);
    expect(scan.peakHeld).toBeLessThanOrEqual(Math.ceil(2048 / 50));
  }, 60_000);

  it("stops at the signal: an AbortError, and no window is asked for after it", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
    const controller = new AbortController();
    const scan = client.cChain.eth.getLogs.iterate({ fromBlock: 1_000_000, toBlock: 1_999_999 }, { signal: controller.signal, onProgress: (p) => p.windows === 3 && controller.abort(new Error("enough")) });
    let asked = 0;
    const error = await (async () => {
      for await (const _ of scan) if (asked === 0 && controller.signal.aborted) asked = node.seen.getLogs;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(scan.progress.windows).toBe(3);
    expect(scan.progress.done).toBeLessThan(scan.progress.total);
    expect(node.seen.getLogs).toBe(asked);
  });

  it("the head and window options replace the declared ones", async () => {
    const client = createNodeClient({ baseUrl: server.url, retry: false, numbers: "string" });
    const before = node.seen.getLogs;
    // the head option replaces the declared head: here a fixed block
    const scan = client.cChain.eth.getLogs.iterate({ fromBlock: 10_000 }, { head: async () => 14_999, window: 1000 });
    let n = 0;
    for await (const _ of scan) n++;
    expect(scan.progress).toMatchObject({ done: 5000, total: 5000, windows: expect.any(Number) });
    expect(n).toBe(100);
    expect(node.seen.getLogs - before).toBeGreaterThanOrEqual(5);
  });
});

/**
 * The Data API's `listErc20Transactions` and `listTransactions` over a chain
 * with one transfer in every 7th block: answers only the blocks `startBlock`
 * (included) … `endBlock` (excluded) asks for, in pages of `pageSize` with
 * an opaque `nextPageToken`, each item the generated mock's example with
 * its own block number and hash; `listTransactions` newest first unless
 * `sortOrder=asc`, as the real service. Records the ranges it was asked for.
 */
function transfersService(inner: MockService, last: number) {
  const asked: { route: string; start: number; end: number; page: number; order?: string }[] = [];
  const pageTokens = new Map<string, number>();
  const templates = new Map<string, Record<string, unknown>>();
  const hash = (n: number) => "0x" + n.toString(16).padStart(64, "0");
  const routes = [
    { name: "listErc20Transactions", match: (p: string) => p.endsWith("/transactions:listErc20"), item: (t: Record<string, unknown>, n: number) => ({ ...t, blockNumber: String(n), txHash: hash(n) }), sorts: false },
    { name: "listTransactions", match: (p: string) => /^\/v1\/chains\/[^/]+\/addresses\/[^/]+\/transactions$/.test(p), item: (t: Record<string, unknown>, n: number) => ({ ...t, nativeTransaction: { ...(t["nativeTransaction"] as object), blockNumber: String(n), txHash: hash(n) } }), sorts: true },
  ];
  const handle = async (request: MockRequest) => {
    const url = new URL(request.url, "http://mock.invalid");
    const route = routes.find((r) => r.match(url.pathname));
    if (!route) return inner.handle(request);
    if (!templates.has(route.name)) templates.set(route.name, (JSON.parse((await inner.handle(request))!.body) as { transactions: Record<string, unknown>[] }).transactions[0]!);
    const q = url.searchParams;
    const start = Number(q.get("startBlock") ?? 0);
    const end = Number(q.get("endBlock") ?? last + 1);
    const size = Number(q.get("pageSize") ?? 10);
    const offset = q.has("pageToken") ? pageTokens.get(q.get("pageToken")!)! : 0;
    const order = route.sorts ? (q.get("sortOrder") ?? "desc") : undefined;
    asked.push({ route: route.name, start, end, page: offset / size, ...(order ? { order } : {}) });
    const blocks: number[] = [];
    for (let n = start; n < Math.min(end, last + 1); n++) if (n % 7 === 3) blocks.push(n);
    if (order === "desc") blocks.reverse();
    const page = blocks.slice(offset, offset + size).map((n) => route.item(templates.get(route.name)!, n));
    const body: Record<string, unknown> = { transactions: page };
    if (offset + size < blocks.length) {
      const token = `00000000-0000-4000-8000-${String(pageTokens.size).padStart(12, "0")}`;
      pageTokens.set(token, offset + size);
      body["nextPageToken"] = token;
    }
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(body), handled: route.name };
  };
  return { handle, asked };
}

describe("a Data API listing over a block range: windows, each window's pages", () => {
  let server: RunningMockServer;
  let service: ReturnType<typeof transfersService>;
  beforeAll(async () => {
    const inner = createMockService(tables as never) as unknown as MockService;
    service = transfersService(inner, 60_000);
    server = await serveMocks(limitMockService(service, tables, { http: dataApiLimits }), { port: 0, log: null });
  });
  afterAll(() => server.close());
  const params = { chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" as const, pageSize: 25 };

  it("listErc20Transactions.iterate with a window: endBlock exclusive as declared, windows cover the range once, every transfer once, in order", async () => {
    const data = createDataApiClient({ baseUrl: server.url, retry: false });
    service.asked.length = 0;
    const progress: number[] = [];
    const blocks: number[] = [];
    for await (const t of data.listErc20Transactions.iterate({ ...params, startBlock: 50_000, endBlock: 55_000 }, { window: 1000, onProgress: (p) => progress.push(p.done) })) blocks.push(Number(t.blockNumber));
    expect(blocks).toEqual(Array.from({ length: 5000 }, (_, i) => 50_000 + i).filter((n) => n % 7 === 3));
    // five windows of 1,000 blocks, each asked with an exclusive end, each walked over its pages (143 transfers: 6 pages of 25)
    const windows = service.asked.filter((a) => a.page === 0).map((a) => [a.start, a.end]);
    expect(windows).toEqual([0, 1, 2, 3, 4].map((i) => [50_000 + 1000 * i, 51_000 + 1000 * i]));
    expect(service.asked.filter((a) => a.page > 0).length).toBeGreaterThanOrEqual(5 * 5);
    expect(progress.at(-1)).toBe(5000);
  });

  it("to the latest block through the head option; without a window the range is one request's pages, as before", async () => {
    const data = createDataApiClient({ baseUrl: server.url, retry: false });
    service.asked.length = 0;
    let n = 0;
    for await (const _ of data.listErc20Transactions.iterate({ ...params, startBlock: 58_000 }, { window: 500, head: async () => 60_000 })) n++;
    expect(n).toBe(Array.from({ length: 2001 }, (_, i) => 58_000 + i).filter((b) => b % 7 === 3).length);
    // windows of 500 from 58,000 to the head (60,000, included: endBlock 60,001)
    expect(service.asked.filter((a) => a.page === 0).map((a) => [a.start, a.end])).toEqual([[58_000, 58_500], [58_500, 59_000], [59_000, 59_500], [59_500, 60_000], [60_000, 60_001]]);
    service.asked.length = 0;
    let m = 0;
    for await (const _ of data.listErc20Transactions.iterate({ ...params, startBlock: 58_000 })) m++;
    expect(m).toBe(n);
    expect(new Set(service.asked.map((a) => `${a.start}-${a.end}`))).toEqual(new Set(["58000-60001"]));
  });

  it("listTransactions, declared newest first (order: desc, orderParam: sortOrder): windows from the end back, items newest first; sortOrder=asc turns both", async () => {
    const data = createDataApiClient({ baseUrl: server.url, retry: false });
    const range = { ...params, startBlock: 40_000, endBlock: 43_000 };
    const expected = Array.from({ length: 3000 }, (_, i) => 40_000 + i).filter((n) => n % 7 === 3);
    service.asked.length = 0;
    const newest: number[] = [];
    for await (const t of data.listTransactions.iterate(range, { window: 1000 })) newest.push(Number(t.nativeTransaction.blockNumber));
    expect(newest).toEqual([...expected].reverse());
    expect(service.asked.filter((a) => a.page === 0).map((a) => [a.start, a.end, a.order])).toEqual([[42_000, 43_000, "desc"], [41_000, 42_000, "desc"], [40_000, 41_000, "desc"]]);
    service.asked.length = 0;
    const oldest: number[] = [];
    for await (const t of data.listTransactions.iterate({ ...range, sortOrder: "asc" }, { window: 1000 })) oldest.push(Number(t.nativeTransaction.blockNumber));
    expect(oldest).toEqual(expected);
    expect(service.asked.filter((a) => a.page === 0).map((a) => a.start)).toEqual([40_000, 41_000, 42_000]);
  });

  it("a window over a range without its end and nothing to read the head with is a ValidationError before any request", async () => {
    const data = createDataApiClient({ baseUrl: server.url, retry: false });
    service.asked.length = 0;
    const error = await (async () => {
      for await (const _ of data.listErc20Transactions.iterate({ ...params, startBlock: 58_000 }, { window: 500 }));
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/endBlock is absent or latest/);
    expect(service.asked).toEqual([]);
  });
});
