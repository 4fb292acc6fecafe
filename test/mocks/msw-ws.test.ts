/**
 * The MSW WebSocket handlers (`createMswWebSocketHandlers`) with MSW's real
 * setupServer and a WebSocket client MSW intercepts (the global one):
 * calls, batches and subscriptions over the same bridge as the mock server,
 * at the base URL's ws:// and wss:// twins, and nothing for other URLs.
 *
 * MSW intercepts only `globalThis.WebSocket`, which Node has from 22 on
 * (Node 20 only behind --experimental-websocket). These tests need it and are
 * skipped on Node 20; the test:node-matrix run covers them on 22 and 24.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isBlockHeader } from "@avaspec/client/node";
import { createMockService, type MockTable } from "../../runtime/mock/mock.js";
import { createMockSocketHub } from "../../runtime/mock/socket-hub.js";
import { createMswWebSocketHandlers, webSocketBase } from "../../runtime/mock/msw-ws.js";
import { jsonRpcMocks } from "../../runtime/mock/rpc.js";
import { syntheticChain } from "../../runtime/mock/chain.js";

const rpc = (method: string) => ({ method, endpoint: "/ext/bc/C/rpc", form: "by-position" as const, params: [] });
const table: MockTable = {
  defs: {},
  entries: [
    { kind: "rpc", method: rpc("eth_chainId"), schema: { type: ["string"] }, example: "0xa86a" },
    { kind: "rpc", method: rpc("eth_blockNumber"), schema: { type: ["string"], enum: ["0x2a"] } },
  ],
  rpc: jsonRpcMocks,
  webSockets: [{ path: "/ext/bc/C/ws", endpoint: "/ext/bc/C/rpc" }],
};

it("a base URL's WebSocket twin", () => {
  expect(webSocketBase("https://api.avax.network/")).toBe("wss://api.avax.network");
  expect(webSocketBase("http://127.0.0.1:9650")).toBe("ws://127.0.0.1:9650");
  expect(webSocketBase("HTTPS://x.test/base")).toBe("wss://x.test/base");
});

describe.skipIf(typeof globalThis.WebSocket !== "function")("through MSW (needs the global WebSocket: Node ≥ 22; Node 20 has none without --experimental-websocket)", () => {
  // the chain's clock: real time, unless a test holds it
  const clock: { held: number | undefined } = { held: undefined };
  const chain = syntheticChain({ intervalMs: 20, now: () => clock.held ?? Date.now() });
  const service = createMockService([table], { subscriptions: chain });
  const hub = createMockSocketHub(service);
  const server = setupServer(
    ...createMswWebSocketHandlers(
      service,
      [
        { table, baseUrl: "https://api.avax.network" },
        { table, baseUrl: "http://127.0.0.1:9650/" },
      ],
      hub,
    ),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    hub.dropConnections();
    clock.held = undefined;
  });
  afterAll(() => server.close());

  /** An intercepted client: notifications for `next()`, replies for `call()`. */
  async function connect(url: string) {
    const ws = new WebSocket(url);
    const notes: unknown[] = [];
    const replies: unknown[] = [];
    const waiters = { notes: [] as ((m: unknown) => void)[], replies: [] as ((m: unknown) => void)[] };
    ws.addEventListener("message", (e) => {
      const m = JSON.parse(String(e.data)) as { method?: string };
      const [items, wait] = m.method === "eth_subscription" ? [notes, waiters.notes] : [replies, waiters.replies];
      if (wait.length > 0) wait.shift()!(m);
      else items.push(m);
    });
    const closed = new Promise<number>((r) => ws.addEventListener("close", (e) => r(e.code)));
    await new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve);
      ws.addEventListener("error", reject);
    });
    const take = (items: unknown[], wait: ((m: unknown) => void)[]) => (items.length > 0 ? Promise.resolve(items.shift()) : new Promise<unknown>((r) => wait.push(r)));
    return {
      ws,
      closed,
      next: () => take(notes, waiters.notes),
      call: (body: unknown) => {
        ws.send(JSON.stringify(body));
        return take(replies, waiters.replies);
      },
    };
  }

  it("answers a call and a batch at wss:// and ws:// twins of the base URLs", async () => {
    clock.held = Date.now();
    for (const url of ["wss://api.avax.network/ext/bc/C/ws", "ws://127.0.0.1:9650/ext/bc/C/ws"]) {
      const c = await connect(url);
      expect(await c.call({ jsonrpc: "2.0", id: 1, method: "eth_chainId" })).toEqual({ jsonrpc: "2.0", id: 1, result: "0xa86a" });
      expect(await c.call([{ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" }, { jsonrpc: "2.0", id: 2, method: "eth_nope" }])).toEqual([
        // the chain's height, not the table's: HTTP and WebSocket read the same chain
        { jsonrpc: "2.0", id: 1, result: `0x${chain.head("/ext/bc/C/rpc").toString(16)}` },
        { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found: eth_nope" } },
      ]);
    }
  });

  it("eth_subscribe newHeads notifies increasing heads until eth_unsubscribe; push() and dropConnections() work through the hub", async () => {
    const c = await connect("wss://api.avax.network/ext/bc/C/ws");
    const { result: id } = (await c.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] })) as { result: string };
    expect(id).toMatch(/^0x[0-9a-f]{32}$/);
    const a = (await c.next()) as { params: { subscription: string; result: Record<string, string> } };
    const b = (await c.next()) as { params: { subscription: string; result: Record<string, string> } };
    expect(a.params.subscription).toBe(id);
    expect(isBlockHeader(a.params.result)).toBe(true);
    expect(Number(b.params.result["number"])).toBe(Number(a.params.result["number"]) + 1);
    expect(b.params.result["parentHash"]).toBe(a.params.result["hash"]);
    expect(hub.push("newHeads", { number: "0x7" })).toBe(1);
    expect(await c.call({ jsonrpc: "2.0", id: 2, method: "eth_unsubscribe", params: [id] })).toEqual({ jsonrpc: "2.0", id: 2, result: true });
    expect(chain.active).toBe(0);
    await c.call({ jsonrpc: "2.0", id: 3, method: "eth_subscribe", params: ["logs"] });
    expect(hub.subscriptions).toBe(1);
    hub.dropConnections();
    expect(await c.closed).toBe(1006);
    expect(chain.active).toBe(0);
  });

  it("a client's close stops its subscriptions", async () => {
    const c = await connect("ws://127.0.0.1:9650/ext/bc/C/ws");
    await c.call({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] });
    expect(chain.active).toBe(1);
    c.ws.close();
    await c.closed;
    for (let i = 0; i < 100 && chain.active > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(chain.active).toBe(0);
    expect(hub.connections).toBe(0);
  });
});
