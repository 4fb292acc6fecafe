/**
 * Issue 18: the C-Chain WebSocket transport of the generated node client
 * (`node.cChain.ws`), against a real WebSocket server on 127.0.0.1 that
 * simulates a chain from a seed (test/helpers/chain-server.ts, on `ws`):
 * calls and batches give what HTTP gives, subscriptions survive killed and
 * half-open connections with every head and log delivered once and in
 * order, reorgs are reported, and ending a subscription leaves nothing open.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { AvaspecError, SubscriptionOverflowError, createWsTransport, type ReconnectInfo, type ReorgInfo, type WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, platformGetBalanceMethod, type NodeClient } from "@avaspec/client/node";
import { randomPoints, startChainServer, type ChainServer } from "../helpers/chain-server.js";
import { startRpcServer } from "../helpers/rpc-server.js";
import { until } from "../helpers/wait.js";

const WS = WebSocket as unknown as WebSocketConstructor;
let servers: { close(): Promise<void> }[] = [];
let clients: NodeClient[] = [];
afterEach(async () => {
  for (const c of clients) await c.cChain.ws.close();
  for (const s of servers) await s.close();
  servers = [];
  clients = [];
});

async function chain(options: Parameters<typeof startChainServer>[0] = {}): Promise<ChainServer> {
  const s = await startChainServer({ seed: 18, ...options });
  servers.push(s);
  return s;
}

/** A node client whose WebSocket form talks to the chain server. */
function client(server: ChainServer, webSocket: Record<string, unknown> = {}): NodeClient {
  const origin = new URL(server.url).origin;
  const c = createNodeClient({ baseUrl: origin.replace(/^ws/, "http"), retry: false, webSocket: { WebSocket: WS, reconnect: { baseDelayMs: 5, maxDelayMs: 50 }, ...webSocket } });
  clients.push(c);
  return c;
}

describe("calls over the socket", () => {
  it("give what the same calls give over HTTP (eth_chainId, eth_blockNumber, eth_getBlockByNumber, eth_getLogs), alone and batched", async () => {
    const server = await chain({ initialBlocks: 12 });
    // an HTTP node answering from the same chain
    const http = await startRpcServer();
    servers.push(http);
    http.answer((env) => {
      const p = env.params as unknown[];
      switch (env.method) {
        case "eth_chainId":
          return { result: "0xa86a" };
        case "eth_blockNumber":
          return { result: `0x${server.head.toString(16)}` };
        case "eth_getBlockByNumber":
          return { result: server.block(Number(p[0])) ?? null };
        case "eth_getLogs": {
          const f = p[0] as { fromBlock: string; toBlock: string };
          return { result: server.logs(Number(f.fromBlock), Number(f.toBlock)) };
        }
        default:
          return { error: { code: -32601, message: "method not found" } };
      }
    });
    const overHttp = createNodeClient({ baseUrl: http.url, retry: false });
    const node = client(server);
    const ws = node.cChain.ws;
    expect(await ws.eth.chainId()).toBe(43114n);
    expect(await ws.eth.chainId()).toEqual(await overHttp.cChain.eth.chainId());
    expect(await ws.eth.blockNumber()).toEqual(await overHttp.cChain.eth.blockNumber());
    const block = await ws.eth.getBlockByNumber({ block: 5n, hydratedTransactions: false });
    expect(block).toEqual(await overHttp.cChain.eth.getBlockByNumber({ block: 5n, hydratedTransactions: false }));
    expect(block?.number).toBe(5n);
    const filter = { fromBlock: 3n, toBlock: 4n };
    const logs = await ws.eth.getLogs(filter);
    expect(logs).toEqual(await overHttp.cChain.eth.getLogs(filter));
    expect(logs).toHaveLength(4);
    const [a, b] = await ws.batch((w) => [w.eth.chainId(), w.eth.getBlockByNumber({ block: "0x2", hydratedTransactions: false })] as const);
    expect(a).toEqual({ ok: true, value: 43114n });
    expect(b.ok && b.value?.hash).toBe(server.block(2)!.hash);
    // one socket for everything
    expect(server.accepted).toBe(1);
  });

  it("a method whose endpoint has no WebSocket form is refused with a clear error, before anything is sent", async () => {
    const server = await chain();
    const t = createWsTransport({ webSocket: { url: new URL(server.url).origin, WebSocket: WS } }, "http://127.0.0.1", { "/ext/bc/C/rpc": { path: "/ext/bc/C/ws" } }, undefined);
    const error = await t.call(platformGetBalanceMethod, { addresses: ["P-avax1"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AvaspecError);
    expect((error as Error).message).toMatch(/platform\.getBalance: \/ext\/bc\/P has no WebSocket endpoint \(WebSocket serves \/ext\/bc\/C\/rpc as \/ext\/bc\/C\/ws\); call it over HTTP/);
    expect(server.accepted).toBe(0);
    await t.close();
  });

  it("errors, timeouts and aborts are typed as over HTTP", async () => {
    const server = await chain();
    const node = client(server);
    await node.cChain.ws.eth.chainId(); // opens the socket
    server.halfOpen(true); // the server stops answering on it
    const slow = await node.cChain.ws.eth.chainId(undefined, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect((slow as Error).name).toBe("TimeoutError");
    const controller = new AbortController();
    const pending = node.cChain.ws.eth.blockNumber(undefined, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  }, 10_000);
});

describe("subscriptions across killed connections (seeded)", () => {
  it.each([1, 2, 3, 4, 5, 6])("seed %i: every head and log exactly once, in order, each gap reported", async (seed) => {
    const blocks = 60;
    const kills = 4;
    // each produced block notifies the two subscriptions: 1 head + 2 logs
    const points = randomPoints(seed, kills, blocks * 3 - 30);
    const server = await chain({ seed, initialBlocks: 5, faults: { killAt: points } });
    const node = client(server);
    const heads: bigint[] = [];
    const logs: string[] = [];
    const headGaps: ReconnectInfo[] = [];
    const logGaps: ReconnectInfo[] = [];
    const reorgs: ReorgInfo[] = [];
    const h = node.cChain.ws.subscribe.newHeads({ onData: (x) => heads.push(x.number!), onReconnect: (i) => headGaps.push(i), onReorg: (r) => reorgs.push(r) });
    const l = node.cChain.ws.subscribe.logs({ filter: {} }, { onData: (x) => logs.push(`${x.blockNumber}:${x.logIndex}`), onReconnect: (i) => logGaps.push(i) });
    await until(() => server.subscriptions === 2, 5000, "both subscriptions");
    const first = server.head + 1;
    for (let i = 0; i < blocks; i++) {
      server.produce(1);
      await new Promise((r) => setTimeout(r, 3));
    }
    const last = server.head;
    await until(() => heads.at(-1) === BigInt(last) && logs.length === (last - first + 1) * 2, 10_000, `head ${last} and every log`);
    expect(server.accepted).toBeGreaterThan(1);
    const expectedHeads = Array.from({ length: last - first + 1 }, (_, i) => BigInt(first + i));
    expect(heads).toEqual(expectedHeads);
    const expectedLogs = server.logs(first, last).map((x) => `${BigInt(x.blockNumber)}:${BigInt(x.logIndex)}`);
    expect(logs).toEqual(expectedLogs);
    // every kill was a reconnect, and every gap is reported with what it missed and backfilled; a reconnect whose
    // backfill a later kill cut short is reported with the next one, as one gap (the last report may follow the last event)
    const reconnects = server.accepted - 1;
    await until(() => headGaps.length >= 1 && logGaps.length >= 1, 3000, "the reports");
    expect(headGaps.length).toBeLessThanOrEqual(reconnects);
    expect(logGaps.length).toBeLessThanOrEqual(reconnects);
    for (const g of logGaps) if (g.missedFrom !== undefined) expect(g.missedTo! >= g.missedFrom).toBe(true);
    expect(headGaps.reduce((n, g) => n + g.backfilled, 0)).toBeGreaterThan(0);
    for (const g of headGaps) if (g.missedFrom !== undefined) expect(g.missedTo! >= g.missedFrom).toBe(true);
    expect(reorgs).toEqual([]);
    await h.unsubscribe();
    await l.unsubscribe();
  }, 30_000);
});

describe("notifications in the same network chunk as the subscribe reply", () => {
  it("are all delivered (the id is registered as the reply is read)", async () => {
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    servers.push({ close: () => new Promise<void>((r) => (wss.clients.forEach((c) => c.terminate()), wss.close(() => r()))) });
    await new Promise<void>((r) => wss.once("listening", () => r()));
    wss.on("connection", (socket) => {
      socket.on("message", (data) => {
        const req = JSON.parse(String(data)) as { id: number; method: string };
        if (req.method !== "eth_subscribe") return socket.send(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: true }));
        // the reply and five heads corked into one TCP write
        const raw = (socket as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
        raw.cork();
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: "0xabc" }));
        for (let n = 1; n <= 5; n++) socket.send(JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: "0xabc", result: { number: `0x${n.toString(16)}`, hash: `0x${String(n).repeat(64)}`, parentHash: `0x${String(n - 1).repeat(64)}` } } }));
        raw.uncork();
      });
    });
    const { port } = wss.address() as { port: number };
    const node = createNodeClient({ baseUrl: `http://127.0.0.1:${port}`, retry: false, webSocket: { WebSocket: WS } });
    clients.push(node);
    const heads: bigint[] = [];
    node.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!) });
    await until(() => heads.length === 5, 2000, "five heads");
    expect(heads).toEqual([1n, 2n, 3n, 4n, 5n]);
  });
});

describe("a half-open connection", () => {
  it("is found by the keep-alive probe within its window and replaced, with the missed heads backfilled", async () => {
    const server = await chain({ initialBlocks: 3 });
    const node = client(server, { keepAlive: { intervalMs: 100, timeoutMs: 150 } });
    const heads: bigint[] = [];
    const gaps: ReconnectInfo[] = [];
    const sub = node.cChain.ws.subscribe.newHeads({ onData: (x) => heads.push(x.number!), onReconnect: (i) => gaps.push(i) });
    await until(() => server.subscriptions === 1);
    server.produce(2);
    await until(() => heads.length === 2);
    server.halfOpen(true);
    server.produce(3); // dropped on the paused socket
    // found by the probe (100 ms quiet, 150 ms unanswered), far inside the wait; the default keep-alive (15 s quiet, 10 s unanswered) would take 25 s
    await until(() => server.accepted === 2, 6000, "a second connection");
    // resubscribed, the transport catches up to the node's latest block at once (no new head needed)
    await until(() => gaps.length === 1, 2000, "the reconnect report");
    expect(heads).toEqual([4n, 5n, 6n, 7n, 8n]);
    server.produce(1);
    await until(() => heads.length === 6, 3000, "six heads");
    expect(heads).toEqual([4n, 5n, 6n, 7n, 8n, 9n]);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ missedFrom: 6n, missedTo: 8n, backfilled: 3 });
    server.halfOpen(false);
    await sub.unsubscribe();
  }, 10_000);
});

describe("a reorg during the outage", () => {
  it("is reported, and the replaced blocks are delivered again from the node's chain", async () => {
    const server = await chain({ initialBlocks: 3 });
    const node = client(server, { reconnect: { baseDelayMs: 30, maxDelayMs: 30 } });
    const heads: { n: bigint; hash: string }[] = [];
    const reorgs: ReorgInfo[] = [];
    const sub = node.cChain.ws.subscribe.newHeads({ onData: (x) => heads.push({ n: x.number!, hash: x.hash! }), onReorg: (r) => reorgs.push(r) });
    await until(() => server.subscriptions === 1);
    server.produce(4); // 4..7
    await until(() => heads.length === 4);
    const old6 = server.block(6)!.hash;
    server.killAll();
    server.reorg(2); // 6 and 7 replaced while the client is away
    await until(() => server.accepted === 2 && server.subscriptions === 1, 3000, "the resubscription");
    server.produce(2); // 8, 9 on the new branch
    await until(() => heads.at(-1)?.n === 9n, 3000, "head 9");
    expect(reorgs).toHaveLength(1);
    expect(reorgs[0]).toEqual({ number: 6n, replacedHash: old6, newHash: server.block(6)!.hash });
    expect(heads.map((x) => x.n)).toEqual([4n, 5n, 6n, 7n, 6n, 7n, 8n, 9n]);
    // the consumer ends on the node's chain
    expect(heads.slice(-4).map((x) => x.hash)).toEqual([6, 7, 8, 9].map((n) => server.block(n)!.hash));
    await sub.unsubscribe();
  }, 10_000);
});

describe("ending a subscription", () => {
  const handles = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout" || r === "TCPSocketWrap").length;

  it.each(["break", "abort", "unsubscribe"] as const)("by %s leaves no socket, timer or subscription behind", async (how) => {
    const server = await chain({ initialBlocks: 2 });
    const before = handles();
    const node = client(server, { keepAlive: { intervalMs: 50, timeoutMs: 100 } });
    const controller = new AbortController();
    const sub = node.cChain.ws.subscribe.newHeads({ signal: controller.signal });
    await until(() => server.subscriptions === 1);
    server.produce(3);
    let seen = 0;
    for await (const head of sub) {
      expect(typeof head.number).toBe("bigint");
      if (++seen < 2) continue;
      if (how === "break") break;
      if (how === "abort") controller.abort();
      else await sub.unsubscribe();
    }
    await until(() => server.subscriptions === 0 && server.connections === 0, 3000, "the server to see the socket closed");
    await until(() => handles() <= before, 3000, "handles to return to their count before");
  }, 10_000);
});

describe("a slow consumer", () => {
  it("gets an overflow error when its buffer fills (default), or loses the oldest events with drop-oldest", async () => {
    const server = await chain({ initialBlocks: 2 });
    const node = client(server);
    const strict = node.cChain.ws.subscribe.newHeads({ buffer: { size: 5 } });
    const lossy = node.cChain.ws.subscribe.newHeads({ buffer: { size: 5, overflow: "drop-oldest" } });
    await until(() => server.subscriptions === 2);
    server.produce(8);
    await until(() => lossy.dropped === 3, 3000, "three dropped");
    const it = strict[Symbol.asyncIterator]();
    const taken: bigint[] = [];
    let error: unknown;
    try {
      for (;;) {
        const r = await it.next();
        if (r.done) break;
        taken.push(r.value.number!);
      }
    } catch (e) {
      error = e;
    }
    // what was buffered before the overflow is still handed over, then the error
    expect(taken).toEqual([3n, 4n, 5n, 6n, 7n]);
    expect(error).toBeInstanceOf(SubscriptionOverflowError);
    const kept: bigint[] = [];
    for await (const head of lossy) {
      kept.push(head.number!);
      if (kept.length === 5) break;
    }
    expect(kept).toEqual([6n, 7n, 8n, 9n, 10n]);
  }, 10_000);
});
