/**
 * The test chain server itself, driven with `ws`'s own client (not avaspec's
 * transport): subscriptions, eth_getLogs, batches and every fault.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CHAIN_ID, LOG_ADDRESS, LOG_TOPIC, randomPoints, startChainServer, type ChainHeader, type ChainLog, type ChainServer } from "./chain-server.js";
import { until } from "./wait.js";

interface Client {
  ws: WebSocket;
  call(method: string, params?: unknown[]): Promise<unknown>;
  send(body: unknown): Promise<unknown>;
  /** Notifications received, per subscription id. */
  events: Map<string, unknown[]>;
  closed: Promise<number>;
}

async function connect(url: string): Promise<Client> {
  const ws = new WebSocket(url);
  const waiting = new Map<unknown, (v: unknown) => void>();
  const events = new Map<string, unknown[]>();
  let nextId = 1;
  let batchWaiter: ((v: unknown) => void) | undefined;
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString()) as { id?: unknown; method?: string; params?: { subscription: string; result: unknown } } | unknown[];
    if (Array.isArray(msg)) {
      batchWaiter?.(msg);
      return;
    }
    if (msg.method === "eth_subscription" && msg.params) {
      const list = events.get(msg.params.subscription) ?? [];
      list.push(msg.params.result);
      events.set(msg.params.subscription, list);
      return;
    }
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  ws.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const send = (body: unknown): Promise<unknown> =>
    new Promise((resolve) => {
      if (Array.isArray(body)) batchWaiter = resolve;
      else waiting.set((body as { id: unknown }).id, resolve);
      ws.send(JSON.stringify(body));
    });
  const call = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const reply = (await send({ jsonrpc: "2.0", id: nextId++, method, params })) as { result?: unknown; error?: unknown };
    if (reply.error) throw Object.assign(new Error("rpc error"), { error: reply.error });
    return reply.result;
  };
  return { ws, call, send, events, closed };
}

let server: ChainServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  await server?.close();
  server = undefined;
});
const open = async (url: string): Promise<Client> => {
  const c = await connect(url);
  clients.push(c);
  return c;
};

describe("chain server", () => {
  it("answers single and batch requests, echoing ids", async () => {
    server = await startChainServer({ seed: 7, initialBlocks: 5 });
    expect(server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ext\/bc\/C\/ws$/);
    const c = await open(server.url);
    expect(await c.call("eth_chainId")).toBe(CHAIN_ID);
    expect(await c.call("eth_blockNumber")).toBe("0x5");
    const batch = (await c.send([
      { jsonrpc: "2.0", id: "a", method: "eth_blockNumber", params: [] },
      { jsonrpc: "2.0", id: 9, method: "eth_getBlockByNumber", params: ["0x2", false] },
      { jsonrpc: "2.0", id: 10, method: "eth_getBlockByNumber", params: ["0x6", false] },
      { jsonrpc: "2.0", id: 11, method: "eth_nope", params: [] },
    ])) as { id: unknown; result?: unknown; error?: { code: number } }[];
    expect(batch.map((r) => r.id)).toEqual(["a", 9, 10, 11]);
    const block = batch[1]!.result as ChainHeader & { transactions: string[]; uncles: string[] };
    expect(block.number).toBe("0x2");
    expect(block.parentHash).toBe(server.header(1)!.hash);
    expect(block.logsBloom).toHaveLength(2 + 512);
    expect(block.transactions).toHaveLength(1);
    expect(batch[2]!.result).toBeNull();
    expect(batch[3]!.error?.code).toBe(-32601);
    expect(server.requests).toEqual(["eth_chainId", "eth_blockNumber", "eth_blockNumber", "eth_getBlockByNumber", "eth_getBlockByNumber", "eth_nope"]);
    // deterministic from the seed
    const again = await startChainServer({ seed: 7, initialBlocks: 5 });
    expect(again.header(5)).toEqual(server.header(5));
    // prepared blocks are the ones produce() would have made
    again.prepare(3);
    server.produce(4);
    again.produce(4);
    expect(again.header(9)).toEqual(server.header(9));
    await again.close();
  });

  it("newHeads delivers sequential heads with chained parentHash; unsubscribe stops them", async () => {
    server = await startChainServer({ seed: 1, initialBlocks: 3 });
    const c = await open(server.url);
    const id = (await c.call("eth_subscribe", ["newHeads"])) as string;
    expect(id).toMatch(/^0x[1-9a-f][0-9a-f]{31}$/);
    expect(server.subscriptions).toBe(1);
    server.produce(50);
    await until(() => (c.events.get(id)?.length ?? 0) === 50);
    const heads = c.events.get(id) as ChainHeader[];
    let parent = server.header(3)!.hash;
    heads.forEach((h, i) => {
      expect(parseInt(h.number, 16)).toBe(4 + i);
      expect(h.parentHash).toBe(parent);
      expect(h.hash).toMatch(/^0x[0-9a-f]{64}$/);
      parent = h.hash;
    });
    expect(await c.call("eth_unsubscribe", [id])).toBe(true);
    expect(server.subscriptions).toBe(0);
    server.produce(3);
    expect(await c.call("eth_blockNumber")).toBe("0x38");
    expect(c.events.get(id)).toHaveLength(50);
  });

  it("eth_getLogs returns what a logs subscription delivered for the same range", async () => {
    server = await startChainServer({ seed: 2, initialBlocks: 1, logsPerBlock: 3 });
    const c = await open(server.url);
    const filter = { address: LOG_ADDRESS, topics: [LOG_TOPIC] };
    const id = (await c.call("eth_subscribe", ["logs", filter])) as string;
    const none = (await c.call("eth_subscribe", ["logs", { address: "0x000000000000000000000000000000000000dead" }])) as string;
    const tx = (await c.call("eth_subscribe", ["newAcceptedTransactions"])) as string;
    server.produce(10);
    await until(() => (c.events.get(id)?.length ?? 0) === 30 && (c.events.get(tx)?.length ?? 0) === 10);
    const got = (await c.call("eth_getLogs", [{ fromBlock: "0x2", toBlock: "latest", ...filter }])) as ChainLog[];
    expect(got).toEqual(c.events.get(id));
    expect(got.map((l) => l.logIndex).slice(0, 3)).toEqual(["0x0", "0x1", "0x2"]);
    expect(c.events.get(none)).toBeUndefined();
    expect(c.events.get(tx)).toEqual(got.filter((l) => l.logIndex === "0x0").map((l) => l.transactionHash));
  });

  it("killAll closes client sockets; kill points and downFor are honoured", async () => {
    server = await startChainServer({ seed: 3, faults: { killAt: [5] } });
    const a = await open(server.url);
    const b = await open(server.url);
    expect(server.connections).toBe(2);
    expect(server.killAll()).toBe(2);
    expect(await a.closed).toBe(1006);
    await b.closed;
    await until(() => server!.connections === 0);

    const c = await open(server.url);
    const id = (await c.call("eth_subscribe", ["newHeads"])) as string;
    server.produce(10);
    expect(await c.closed).toBe(1006);
    expect(c.events.get(id)).toHaveLength(5);

    server.downFor(200);
    await expect(connect(server.url)).rejects.toThrow(/503/);
    expect(server.refused).toBe(1);
    expect(randomPoints(3, 4, 100)).toEqual(randomPoints(3, 4, 100));
  });

  it("halfOpen leaves the socket open but unanswered (no pong) until turned off", async () => {
    server = await startChainServer({ seed: 4 });
    const c = await open(server.url);
    const id = (await c.call("eth_subscribe", ["newHeads"])) as string;
    server.halfOpen(true);
    let pong = false;
    c.ws.on("pong", () => (pong = true));
    c.ws.ping();
    let answered = false;
    const pending = c.call("eth_blockNumber").then((r) => ((answered = true), r));
    server.produce(2);
    await new Promise((r) => setTimeout(r, 150));
    expect(answered).toBe(false);
    expect(pong).toBe(false);
    expect(c.events.get(id)).toBeUndefined();
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    expect(server.connections).toBe(1);
    // a new socket is served normally meanwhile
    const d = await open(server.url);
    expect(await d.call("eth_blockNumber")).toBe("0xc");
    server.halfOpen(false);
    expect(await pending).toBe("0xc");
    await until(() => pong);
    server.produce(1);
    await until(() => c.events.get(id)?.length === 1);
    expect((c.events.get(id)![0] as ChainHeader).number).toBe("0xd");
  });

  it("reorg changes the hashes of the last blocks, chained, without notifying", async () => {
    server = await startChainServer({ seed: 5, initialBlocks: 10 });
    const c = await open(server.url);
    const id = (await c.call("eth_subscribe", ["newHeads"])) as string;
    const before = (await c.call("eth_getBlockByNumber", ["0x8", false])) as ChainHeader;
    const seven = server.header(7)!;
    const oldLogs = server.logs(8, 10);
    server.reorg(3);
    expect(server.head).toBe(10);
    expect(server.header(7)).toEqual(seven);
    const after = (await c.call("eth_getBlockByNumber", ["0x8", false])) as ChainHeader;
    expect(after.hash).not.toBe(before.hash);
    expect(after.parentHash).toBe(seven.hash);
    expect(server.header(9)!.parentHash).toBe(after.hash);
    const newLogs = (await c.call("eth_getLogs", [{ fromBlock: "0x8", toBlock: "0xa" }])) as ChainLog[];
    expect(newLogs.map((l) => l.blockHash)).not.toEqual(oldLogs.map((l) => l.blockHash));
    expect(newLogs.map((l) => [l.blockNumber, l.logIndex])).toEqual(oldLogs.map((l) => [l.blockNumber, l.logIndex]));
    server.produce(1);
    await until(() => c.events.get(id)?.length === 1);
    expect((c.events.get(id)![0] as ChainHeader).parentHash).toBe(server.header(10)!.hash);
  });

  it("close() leaves no open handles", async () => {
    const baseline = process.getActiveResourcesInfo().length;
    const s = await startChainServer();
    const c = await connect(s.url);
    await c.call("eth_subscribe", ["newHeads"]);
    void s.start(1000);
    await new Promise((r) => setTimeout(r, 20));
    await s.close();
    expect(await c.closed).toBe(1006);
    await new Promise((r) => setImmediate(r));
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(baseline);
    expect(s.connections).toBe(0);
  });
});
