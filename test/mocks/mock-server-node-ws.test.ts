/**
 * Issue 18: the generated mock server serves the C-Chain WebSocket endpoint
 * (`/ext/bc/C/ws`) to the generated node client: calls over the socket,
 * newHeads from the synthetic chain (steered with `push`), and a dropped
 * connection after which the client resubscribes and catches up from the
 * same chain (the mock answers eth_getBlockByNumber from it), so the heads
 * stay consecutive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ReconnectInfo, WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { until } from "../helpers/wait.js";

let mock: MockServer;
let node: NodeClient;
const log: string[] = [];
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: (line) => log.push(line) });
  node = createNodeClient({ baseUrl: mock.url, retry: false, webSocket: { WebSocket: WebSocket as unknown as WebSocketConstructor, reconnect: { baseDelayMs: 5, maxDelayMs: 20 } } });
});
afterAll(async () => {
  await node.cChain.ws.close();
  await mock.close();
});

describe("the mock server's /ext/bc/C/ws", () => {
  it("answers calls and batches over the socket", async () => {
    expect(typeof (await node.cChain.ws.eth.chainId())).toBe("bigint");
    const [a, b] = await node.cChain.ws.batch((w) => [w.eth.chainId(), w.net.version()] as const);
    expect(a.ok && b.ok).toBe(true);
    expect(log.some((l) => l.startsWith("WS /ext/bc/C/ws → 101"))).toBe(true);
  });

  it("serves newHeads, steered with push(), and after dropConnections the client catches up with no gap or repeat", async () => {
    const heads: bigint[] = [];
    const gaps: ReconnectInfo[] = [];
    const sub = node.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!), onReconnect: (g) => gaps.push(g) });
    await until(() => mock.push("newHeads") > 0, 3000, "the subscription");
    mock.push("newHeads");
    await until(() => heads.length >= 2);
    mock.dropConnections();
    await until(() => gaps.length === 1, 3000, "the reconnect");
    mock.push("newHeads");
    mock.push("newHeads");
    await until(() => heads.length >= 4);
    // consecutive from the first: nothing missed, nothing twice
    expect(heads.map((h) => h - heads[0]!)).toEqual(heads.map((_, i) => BigInt(i)));
    await sub.unsubscribe();
  });
});
