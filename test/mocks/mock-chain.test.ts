/**
 * Issue 26, item 7: the mocks' synthetic chain is one chain. Its height is
 * derived from the clock (height at an epoch plus one block per interval),
 * so a restarted mock continues it and blocks keep coming while nobody is
 * subscribed; the HTTP JSON-RPC answers (eth_blockNumber,
 * eth_getBlockByNumber, eth_getLogs) and the WebSocket ones come from it, so
 * they agree; and a client that was away backfills what it missed from the
 * same mock. Against the generated package's mock server, with the
 * generated node client.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ReconnectInfo, WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, isBlockHeader, isLog, type NodeClient } from "@avaspec/client/node";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { syntheticChain, type SyntheticChain } from "../../runtime/mock/chain.js";
import { until } from "../helpers/wait.js";

const WS = WebSocket as unknown as WebSocketConstructor;
const EPOCH = Date.UTC(2026, 0, 1);
let servers: MockServer[] = [];
let clients: NodeClient[] = [];
afterEach(async () => {
  for (const c of clients) await c.cChain.ws.close();
  for (const s of servers) await s.close();
  servers = [];
  clients = [];
});

/** The generated mock server over `chain`. */
async function serve(chain: SyntheticChain): Promise<MockServer> {
  const s = await startMockServer({ port: 0, log: null, subscriptions: chain });
  servers.push(s);
  return s;
}

function client(server: MockServer, options: { validateResponse?: "strict" } = {}): NodeClient {
  const c = createNodeClient({ baseUrl: server.url, retry: false, ...options, webSocket: { WebSocket: WS, reconnect: { baseDelayMs: 5, maxDelayMs: 20 } } });
  clients.push(c);
  return c;
}

describe("the synthetic chain", () => {
  it("has the height its clock gives: the height at the epoch plus one block per interval", () => {
    const clock = { now: EPOCH + 10_500 };
    const chain = syntheticChain({ intervalMs: 1000, epochMs: EPOCH, heightAtEpoch: 77_841_121, now: () => clock.now });
    expect(chain.head("/ext/bc/C/rpc")).toBe(77_841_131);
    clock.now += 2_000;
    expect(chain.head("/ext/bc/C/rpc")).toBe(77_841_133);
    // by default, the C-Chain document's example height at 2026-01-01, a block a second
    expect(syntheticChain({ now: () => EPOCH }).head("/ext/bc/C/rpc")).toBe(77_841_121);
    // each block at least a second after its parent, the same bytes for the same height
    const h = chain.header(77_841_130);
    expect(Number(h["timestamp"])).toBe(EPOCH / 1000 + 9);
    expect(syntheticChain({ now: () => 0 }).header(77_841_130)).toEqual(h);
  });

  it("continues after a restart: a new mock later on is the same chain, further on", async () => {
    const clock = { now: EPOCH + 60_000 };
    const options = { intervalMs: 1000, epochMs: EPOCH, now: () => clock.now };
    let server = await serve(syntheticChain(options));
    const before = await client(server).cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
    await server.close();
    servers = [];
    clock.now += 5_000;
    server = await serve(syntheticChain(options));
    const node = client(server);
    const after = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
    expect(after!.number! - before!.number!).toBe(5n);
    const again = await node.cChain.eth.getBlockByNumber({ block: before!.number!, hydratedTransactions: false });
    expect(again).toEqual(before);
  });
});

describe("HTTP and WebSocket", () => {
  it("answer from the same chain: the heads a subscription gets are the blocks HTTP serves", async () => {
    const clock = { now: EPOCH + 1_000 };
    const chain = syntheticChain({ intervalMs: 20, epochMs: EPOCH, now: () => clock.now });
    const server = await serve(chain);
    const node = client(server);
    const heads: { number: bigint; hash: string }[] = [];
    node.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push({ number: h.number!, hash: h.hash! }) });
    await until(() => chain.active === 1, 3000, "the subscription");
    clock.now += 40;
    await until(() => heads.length >= 2, 3000, "two heads");
    const http = await node.cChain.eth.blockNumber();
    expect(http).toBe(await node.cChain.ws.eth.blockNumber());
    expect(http).toBe(heads.at(-1)!.number);
    for (const h of heads) expect((await node.cChain.eth.getBlockByNumber({ block: h.number, hydratedTransactions: false }))!.hash).toBe(h.hash);
    const logs = await node.cChain.eth.getLogs({ fromBlock: heads[0]!.number, toBlock: heads.at(-1)!.number });
    expect(logs.map((l) => (typeof l === "string" ? l : l.blockHash))).toEqual(heads.map((h) => h.hash));
  });

  it("serve what the spec says (strict validation of every answer), and refuse a log range no node would serve", async () => {
    const server = await serve(syntheticChain({ now: () => EPOCH + 3_600_000 }));
    const node = client(server, { validateResponse: "strict" });
    const head = await node.cChain.eth.blockNumber();
    expect(head).toBe(77_841_121n + 3600n);
    const hashes = await node.cChain.eth.getBlockByNumber({ block: head, hydratedTransactions: false });
    const full = await node.cChain.eth.getBlockByNumber({ block: head, hydratedTransactions: true });
    expect(full!.hash).toBe(hashes!.hash);
    expect(full!.transactions.map((t) => t.hash)).toEqual(hashes!.transactions);
    expect(await node.cChain.eth.getBlockByNumber({ block: head + 1n, hydratedTransactions: false })).toBeNull();
    const logs = await node.cChain.eth.getLogs({ fromBlock: head - 9n, toBlock: "latest" });
    expect(logs).toHaveLength(10);
    const tooMany = await node.cChain.eth.getLogs({ fromBlock: "earliest", toBlock: "latest" }).catch((e: unknown) => e);
    expect(tooMany).toMatchObject({ name: "RpcServerError", code: -32005 });
    expect((tooMany as Error).message).toContain("query exceeds max block range 2048");
  });

  it("an override still wins over the chain, over HTTP and WebSocket", async () => {
    const server = await serve(syntheticChain({ now: () => EPOCH }));
    server.override("eth_blockNumber", { body: "0x2a" });
    const node = client(server);
    expect(await node.cChain.eth.blockNumber()).toBe(42n);
    expect(await node.cChain.ws.eth.blockNumber()).toBe(42n);
  });
});

describe("while a client is away", () => {
  it("blocks keep coming, and the client that reconnects backfills them from the same mock", async () => {
    const clock = { now: EPOCH + 1_000 };
    const interval = 20;
    const chain = syntheticChain({ intervalMs: interval, epochMs: EPOCH, now: () => clock.now });
    const server = await serve(chain);
    const node = client(server);
    const heads: bigint[] = [];
    const logs: bigint[] = [];
    const gaps: ReconnectInfo[] = [];
    const logGaps: ReconnectInfo[] = [];
    node.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!), onReconnect: (g) => gaps.push(g) });
    node.cChain.ws.subscribe.logs({ filter: {} }, { onData: (l) => logs.push(l.blockNumber!), onReconnect: (g) => logGaps.push(g) });
    await until(() => chain.active === 2, 3000, "both subscriptions");
    clock.now += interval;
    await until(() => heads.length === 1, 3000, "the first head");
    const first = heads[0]!;
    await until(() => logs.length === 1, 3000, "its log");
    server.dropConnections();
    clock.now += 5 * interval; // five blocks while nobody is connected
    await until(() => gaps.length === 1 && logGaps.length === 1, 3000, "both reconnects");
    expect(gaps[0]).toMatchObject({ missedFrom: first + 1n, missedTo: first + 5n, backfilled: 5 });
    // the logs' range starts at the block of the last log, when that came as a notification (its other logs may have
    // been missed), or after it, when the range read at the start covered it
    expect(logGaps[0]).toMatchObject({ missedTo: first + 5n, backfilled: 5 });
    expect([first, first + 1n]).toContain(logGaps[0]!.missedFrom);
    clock.now += interval;
    await until(() => heads.length === 7 && logs.length === 7, 3000, "the next block");
    const expected = Array.from({ length: 7 }, (_, i) => first + BigInt(i));
    expect(heads).toEqual(expected);
    expect(logs).toEqual(expected);
  });

  it("the notifications are valid BlockHeaders and Logs", async () => {
    const clock = { now: EPOCH };
    const chain = syntheticChain({ intervalMs: 20, epochMs: EPOCH, now: () => clock.now });
    const server = await serve(chain);
    const ws = new WebSocket(server.url.replace(/^http/, "ws") + "/ext/bc/C/ws");
    const got: unknown[] = [];
    ws.on("message", (d) => {
      const m = JSON.parse(String(d)) as { method?: string; params?: { result: unknown } };
      if (m.method === "eth_subscription") got.push(m.params!.result);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_subscribe", params: ["logs", {}] }));
    await until(() => chain.active === 2, 3000, "both subscriptions");
    clock.now += 20;
    await until(() => got.length === 2, 3000, "a head and a log");
    ws.terminate();
    expect(isBlockHeader(got[0])).toBe(true);
    expect(isLog(got[1])).toBe(true);
  });
});
