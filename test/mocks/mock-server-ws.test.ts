/**
 * The mock server's WebSocket endpoints, with the `ws` client against
 * `serveMocks` over a hand-written table that names one WebSocket path: calls
 * and batches answer as over HTTP POST (the chain reads, eth_blockNumber
 * here, from the synthetic chain over both), eth_subscribe sends the
 * synthetic chain's notifications (valid BlockHeader and Log per the
 * generated validators), push() and dropConnections() steer them, and
 * neither the end of a connection nor the server's close() leaves a
 * subscription or a timer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "node:http";
import WebSocket from "ws";
import { isBlockHeader, isLog } from "@avaspec/client/node";
import { createMockService, type MockService, type MockTable } from "../../runtime/mock/mock.js";
import { serveMocks, type MockSocketControls, type RunningMockServer } from "../../runtime/mock/server.js";
import { mockSockets } from "../../runtime/mock/server-ws.js";
import { jsonRpcMocks } from "../../runtime/mock/rpc.js";
import { syntheticChain, type SyntheticChain } from "../../runtime/mock/chain.js";
import { until } from "../helpers/wait.js";

const rpc = (method: string, params: { name: string; required?: boolean }[] = []) => ({ method, endpoint: "/ext/bc/C/rpc", form: "by-position" as const, params });
const table: MockTable = {
  defs: {},
  entries: [
    { kind: "rpc", method: rpc("eth_chainId"), schema: { type: ["string"] }, example: "0xa86a" },
    { kind: "rpc", method: rpc("eth_blockNumber"), schema: { type: ["string"], enum: ["0x2a"] } },
    { kind: "rpc", method: rpc("eth_getBalance", [{ name: "address", required: true }, { name: "block" }]), schema: { type: ["string"], enum: ["0xde0b6b3a7640000"] } },
  ],
  rpc: jsonRpcMocks,
  webSockets: [{ path: "/ext/bc/C/ws", endpoint: "/ext/bc/C/rpc" }],
  chain: syntheticChain,
};

let chain: SyntheticChain;
/** The chains' clock: real time, unless a test holds it. */
const clock: { held: number | undefined } = { held: undefined };
const now = () => clock.held ?? Date.now();
const ENDPOINT = "/ext/bc/C/rpc";
let service: MockService;
let server: RunningMockServer & MockSocketControls;
const clients: WebSocket[] = [];

beforeEach(async () => {
  clock.held = undefined;
  chain = syntheticChain({ intervalMs: 20, now });
  service = createMockService([table], { subscriptions: chain });
  server = await serveMocks(service, { port: 0, log: null }, mockSockets);
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  await server.close();
  vi.useRealTimers();
});

const wsUrl = (path = "/ext/bc/C/ws") => server.url.replace(/^http/, "ws") + path;

/** A connected client: notifications queue up for `next()`, replies for `reply()` (so a notification never passes for a reply). */
async function connect(path?: string) {
  const ws = new WebSocket(wsUrl(path));
  clients.push(ws);
  const queue = () => {
    const items: unknown[] = [];
    const waiters: ((m: unknown) => void)[] = [];
    return {
      items,
      put: (m: unknown) => (waiters.length > 0 ? waiters.shift()!(m) : items.push(m)),
      take: () => (items.length > 0 ? Promise.resolve(items.shift()) : new Promise<unknown>((r) => waiters.push(r))),
    };
  };
  const notes = queue();
  const replies = queue();
  ws.on("message", (data) => {
    const m = JSON.parse(String(data)) as { method?: string };
    (m.method === "eth_subscription" ? notes : replies).put(m);
  });
  const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const call = async (body: unknown) => {
    ws.send(JSON.stringify(body));
    return replies.take();
  };
  return { ws, next: notes.take, reply: replies.take, call, closed, inbox: notes.items, replies: replies.items };
}

const post = async (body: unknown) => {
  const res = await fetch(`${server.url}/ext/bc/C/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
};
describe("JSON-RPC over the WebSocket", () => {
  it("a call, a batch and errors answer as over HTTP POST", async () => {
    clock.held = Date.now();
    const c = await connect();
    const single = { jsonrpc: "2.0", id: 1, method: "eth_chainId" };
    expect(await c.call(single)).toEqual({ jsonrpc: "2.0", id: 1, result: "0xa86a" });
    expect(await c.call(single)).toEqual(await post(single));
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
      { jsonrpc: "2.0", id: 2, method: "eth_getBalance", params: ["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc", "latest"] },
      { jsonrpc: "2.0", method: "eth_blockNumber" },
      { jsonrpc: "2.0", id: 3, method: "eth_nope" },
    ];
    const viaWs = await c.call(batch);
    expect(viaWs).toEqual(await post(batch));
    expect(viaWs).toEqual([
      // the chain's height, not the table's: HTTP and WebSocket read the same chain
      { jsonrpc: "2.0", id: 1, result: `0x${chain.head(ENDPOINT).toString(16)}` },
      { jsonrpc: "2.0", id: 2, result: "0xde0b6b3a7640000" },
      { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found: eth_nope" } },
    ]);
    c.ws.send("{not json");
    expect(await c.reply()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  });

  it("a notification gets no message; an override steers the WebSocket as it does HTTP", async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ jsonrpc: "2.0", method: "eth_chainId" }));
    service.override("eth_chainId", { body: "0x1" });
    expect(await c.call({ jsonrpc: "2.0", id: "a", method: "eth_chainId" })).toEqual({ jsonrpc: "2.0", id: "a", result: "0x1" });
    expect(c.replies).toEqual([]);
  });

  it("an override's network error terminates the connection", async () => {
    const c = await connect();
    service.override("eth_chainId", { networkError: true });
    c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }));
    expect(await c.closed).toBe(1006);
  });

  it("an upgrade on another path is answered 404", async () => {
    const ws = new WebSocket(wsUrl("/ext/bc/X/ws"));
    const error = await new Promise<Error>((r) => ws.once("error", r));
    expect(error.message).toBe("Unexpected server response: 404");
  });
});

describe("subscriptions", () => {
  it("eth_subscribe newHeads answers a 32-hex-digit id, then increasing, chained, valid heads", async () => {
    const c = await connect();
    const reply = (await c.call({ jsonrpc: "2.0", id: 7, method: "eth_subscribe", params: ["newHeads"] })) as { result: string };
    expect(reply).toEqual({ jsonrpc: "2.0", id: 7, result: expect.stringMatching(/^0x[0-9a-f]{32}$/) });
    const heads: Record<string, string>[] = [];
    for (let i = 0; i < 3; i++) {
      const n = (await c.next()) as { jsonrpc: string; method: string; params: { subscription: string; result: Record<string, string> } };
      expect(n).toMatchObject({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: reply.result } });
      heads.push(n.params.result);
    }
    for (const h of heads) expect(isBlockHeader(h), JSON.stringify(h)).toBe(true);
    const numbers = heads.map((h) => Number(h["number"]));
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    expect(heads[1]!["parentHash"]).toBe(heads[0]!["hash"]);
    expect(heads[2]!["parentHash"]).toBe(heads[1]!["hash"]);
    expect(Number(heads[2]!["timestamp"])).toBeGreaterThan(Number(heads[1]!["timestamp"]));
  });

  it("logs and transaction kinds deliver valid payloads; an unknown kind is -32602", async () => {
    const c = await connect();
    const address = "0x1111111111111111111111111111111111111111";
    const logs = (await c.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["logs", { address }] })) as { result: string };
    const log = (await c.next()) as { params: { subscription: string; result: { address: string } } };
    expect(log.params.subscription).toBe(logs.result);
    expect(isLog(log.params.result)).toBe(true);
    expect(log.params.result.address).toBe(address);
    await c.call({ jsonrpc: "2.0", id: 2, method: "eth_unsubscribe", params: [logs.result] });
    c.inbox.length = 0;
    for (const kind of ["newPendingTransactions", "newAcceptedTransactions"]) {
      const r = (await c.call({ jsonrpc: "2.0", id: 3, method: "eth_subscribe", params: [kind] })) as { result: string };
      const n = (await c.next()) as { params: { subscription: string; result: string } };
      expect(n.params).toEqual({ subscription: r.result, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      await c.call({ jsonrpc: "2.0", id: 4, method: "eth_unsubscribe", params: [r.result] });
      c.inbox.length = 0;
    }
    expect(await c.call({ jsonrpc: "2.0", id: 5, method: "eth_subscribe", params: ["transactionReceipts"] })).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(await c.call({ jsonrpc: "2.0", id: 6, method: "eth_subscribe", params: [] })).toMatchObject({ id: 6, error: { code: -32602 } });
  });

  it("push() delivers at once, the payload given or the next synthesized one, to that kind only", async () => {
    chain = syntheticChain({ intervalMs: 60_000, now });
    await server.close();
    service = createMockService([table], { subscriptions: chain });
    server = await serveMocks(service, { port: 0, log: null }, mockSockets);
    const c = await connect();
    const heads = (await c.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] })) as { result: string };
    const txs = (await c.call({ jsonrpc: "2.0", id: 2, method: "eth_subscribe", params: ["newPendingTransactions"] })) as { result: string };
    expect(server.push("newHeads", { number: "0x99" })).toBe(1);
    expect(await c.next()).toEqual({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: heads.result, result: { number: "0x99" } } });
    expect(server.push("newHeads")).toBe(1);
    const synthesized = (await c.next()) as { params: { subscription: string; result: Record<string, string> } };
    expect(synthesized.params.subscription).toBe(heads.result);
    expect(isBlockHeader(synthesized.params.result)).toBe(true);
    expect(server.push("newPendingTransactions", "0x" + "ab".repeat(32))).toBe(1);
    expect(await c.next()).toMatchObject({ params: { subscription: txs.result, result: "0x" + "ab".repeat(32) } });
    expect(server.push("logs")).toBe(0);
    expect(c.inbox).toEqual([]);
  });

  it("eth_subscribe in a batch: the id comes in the batch reply, before any notification", async () => {
    const c = await connect();
    const head = chain.head(ENDPOINT);
    const replies = (await c.call([
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
      { jsonrpc: "2.0", id: 2, method: "eth_subscribe", params: ["newHeads"] },
    ])) as [unknown, { result: string }];
    expect(replies[0]).toMatchObject({ jsonrpc: "2.0", id: 1 });
    expect(Number((replies[0] as { result: string }).result)).toBeGreaterThanOrEqual(head);
    expect(replies[1]).toMatchObject({ jsonrpc: "2.0", id: 2, result: expect.stringMatching(/^0x[0-9a-f]{32}$/) });
    expect(await c.next()).toMatchObject({ method: "eth_subscription", params: { subscription: replies[1].result } });
  });

  it("eth_unsubscribe stops the notifications and answers true, then false", async () => {
    const c = await connect();
    const { result: id } = (await c.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] })) as { result: string };
    await c.next();
    expect(chain.active).toBe(1);
    expect(await c.call({ jsonrpc: "2.0", id: 2, method: "eth_unsubscribe", params: [id] })).toEqual({ jsonrpc: "2.0", id: 2, result: true });
    // notifications sent before the unsubscribe arrived may be queued: none comes after it
    c.inbox.length = 0;
    expect(chain.active).toBe(0);
    expect(await c.call({ jsonrpc: "2.0", id: 3, method: "eth_unsubscribe", params: [id] })).toEqual({ jsonrpc: "2.0", id: 3, result: false });
    await new Promise((r) => setTimeout(r, 80));
    expect(c.inbox).toEqual([]);
  });

  it("a connection's end stops its subscriptions; another connection's keep going", async () => {
    const a = await connect();
    const b = await connect();
    await a.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] });
    await b.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] });
    expect(chain.active).toBe(2);
    a.ws.close();
    await a.closed;
    await until(() => chain.active === 1);
    await b.next();
  });

  it("dropConnections() closes every client (1006) and stops their subscriptions", async () => {
    const a = await connect();
    const b = await connect();
    await a.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] });
    await b.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["logs"] });
    server.dropConnections();
    expect(await a.closed).toBe(1006);
    expect(await b.closed).toBe(1006);
    expect(chain.active).toBe(0);
    // the server still takes new connections
    const c = await connect();
    expect(await c.call({ jsonrpc: "2.0", id: 1, method: "eth_chainId" })).toMatchObject({ result: "0xa86a" });
  });

  it("the server's close() terminates open WebSockets and leaves no subscription and no timer", async () => {
    await server.close();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    clock.held = Date.now();
    chain = syntheticChain({ intervalMs: 1000, now });
    service = createMockService([table], { subscriptions: chain });
    server = await serveMocks(service, { port: 0, log: null }, mockSockets);
    const a = await connect();
    await a.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] });
    await a.call({ jsonrpc: "2.0", id: 2, method: "eth_subscribe", params: ["logs"] });
    expect(chain.active).toBe(2);
    expect(vi.getTimerCount()).toBe(1); // one chain, one block timer
    clock.held = now() + 1000;
    vi.advanceTimersByTime(1000);
    expect(await a.next()).toMatchObject({ method: "eth_subscription" });
    await server.close();
    expect(await a.closed).toBe(1006);
    expect(chain.active).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

it("the default subscriptions of a service are a synthetic chain; null leaves eth_subscribe to the tables", async () => {
  expect(createMockService([table]).subscriptions).toBeDefined();
  const plain = createMockService([table], { subscriptions: null });
  expect(plain.subscriptions).toBeUndefined();
  const s = await serveMocks(plain, { port: 0, log: null }, mockSockets);
  try {
    const ws = new WebSocket(s.url.replace(/^http/, "ws") + "/ext/bc/C/ws");
    clients.push(ws);
    await new Promise((r) => ws.once("open", r));
    const got = new Promise<unknown>((r) => ws.once("message", (d) => r(JSON.parse(String(d)))));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
    expect(await got).toMatchObject({ id: 1, error: { code: -32601 } });
  } finally {
    await s.close();
  }
});

it("without the WebSocket side (a package with no WebSocket paths), an upgrade is answered as a plain request: 404", async () => {
  const s = await serveMocks(createMockService([table]), { port: 0, log: null });
  try {
    const { port } = new URL(s.url);
    const answer = await new Promise<{ status: number | undefined; upgraded: boolean }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/ext/bc/C/ws", headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13" } });
      req.on("response", (res) => {
        res.resume();
        resolve({ status: res.statusCode, upgraded: false });
      });
      req.on("upgrade", (_res, socket) => {
        socket.destroy();
        resolve({ status: 101, upgraded: true });
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer).toEqual({ status: 404, upgraded: false });
  } finally {
    await s.close();
  }
});
