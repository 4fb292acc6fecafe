/**
 * Issue 26, item 3: a `logs` subscription across a reorganisation that
 * happened while it was disconnected. After the reconnect the transport
 * finds where the chain it delivered logs from and the node's part (the
 * block hashes of the heights it delivered, walking back), reports the
 * reorg there with `onReorg`, and fetches the logs again from there: a
 * consumer that drops what it holds from the reported height on ends with
 * exactly the node's logs, none twice. Against the seeded chain server
 * (test/helpers/chain-server.ts), including a flapping run.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ReorgInfo, WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { seededRandom, startChainServer, type ChainServer } from "../helpers/chain-server.js";
import { until } from "../helpers/wait.js";

const WS = WebSocket as unknown as WebSocketConstructor;
let servers: ChainServer[] = [];
let clients: NodeClient[] = [];
afterEach(async () => {
  for (const c of clients) await c.cChain.ws.close();
  for (const s of servers) await s.close();
  servers = [];
  clients = [];
});

async function setup(options: Parameters<typeof startChainServer>[0]): Promise<{ server: ChainServer; node: NodeClient }> {
  const server = await startChainServer({ seed: 26, ...options });
  servers.push(server);
  const node = createNodeClient({ baseUrl: new URL(server.url).origin.replace(/^ws/, "http"), retry: false, webSocket: { WebSocket: WS, reconnect: { baseDelayMs: 5, maxDelayMs: 20 } } });
  clients.push(node);
  return { server, node };
}

/** A consumer that applies reorgs: it drops what it holds from the reported height on. */
function consumer() {
  const delivered: string[] = [];
  const held: { n: bigint; key: string }[] = [];
  const reorgs: ReorgInfo[] = [];
  let reconnects = 0;
  return {
    delivered,
    reorgs,
    get reconnects() {
      return reconnects;
    },
    get logs() {
      return held.map((h) => h.key);
    },
    options: {
      onData: (log: { blockNumber?: bigint; blockHash?: string; logIndex?: bigint }) => {
        const key = `${log.blockNumber}:${log.logIndex}:${log.blockHash}`;
        delivered.push(key);
        held.push({ n: log.blockNumber!, key });
      },
      onReorg: (r: ReorgInfo) => {
        reorgs.push(r);
        for (let i = held.length - 1; i >= 0; i--) if (held[i]!.n >= r.number) held.splice(i, 1);
      },
      onReconnect: () => void reconnects++,
    },
  };
}

const canonical = (server: ChainServer, from: number, to: number) => server.logs(from, to).map((l) => `${BigInt(l.blockNumber)}:${BigInt(l.logIndex)}:${l.blockHash}`);

describe("a reorganisation during the outage", () => {
  it("is reported at its fork point (41), and the new canonical logs of 41–45 are delivered", async () => {
    const { server, node } = await setup({ initialBlocks: 40 });
    const c = consumer();
    const sub = node.cChain.ws.subscribe.logs({ filter: {} }, c.options);
    await until(() => server.subscriptions === 1);
    server.produce(5); // 41..45, two logs each
    await until(() => c.delivered.length === 10, 3000, "the logs of 41–45");
    const old41 = server.block(41)!.hash;
    server.killAll();
    server.reorg(5); // 41..45 replaced while the client is away
    await until(() => server.accepted === 2 && server.subscriptions === 1, 3000, "the resubscription");
    server.produce(1); // 46
    await until(() => c.logs.length === 12, 3000, "the logs of the new 41–46");
    expect(c.reorgs).toEqual([{ number: 41n, replacedHash: old41, newHash: server.block(41)!.hash }]);
    expect(c.logs).toEqual(canonical(server, 41, 46));
    // after the first ten, the node's logs from 41 on, each once
    expect(c.delivered.slice(10)).toEqual(canonical(server, 41, 46));
    await sub.unsubscribe();
  });

  it("logs of new blocks above the last block it delivered logs from are not missed", async () => {
    // logs only in 41 at first; after the reorg of 42–45 (blocks without logs for the client so far), in 43 and 44
    const { server, node } = await setup({ initialBlocks: 40, logsPerBlock: (n, generation) => (generation === 0 ? Number(n === 41) : Number(n === 43 || n === 44)) });
    const c = consumer();
    node.cChain.ws.subscribe.logs({ filter: {} }, c.options);
    await until(() => server.subscriptions === 1);
    server.produce(1);
    await until(() => c.delivered.length === 1);
    server.killAll();
    server.produce(4); // 42..45, no logs: the reconnect moves the stream to 45
    await until(() => c.reconnects === 1, 3000, "the first reconnect and its backfill");
    server.killAll();
    server.reorg(4); // 42..45 replaced, now with logs in 43 and 44
    await until(() => server.accepted === 3 && c.logs.length === 3, 3000, "the logs of the new 43 and 44");
    expect(c.logs).toEqual(canonical(server, 41, 45));
    // none of the blocks it delivered logs from was replaced: nothing to retract
    expect(c.reorgs).toEqual([]);
  });

  it("with no reorganisation, a reconnect repeats and reports nothing", async () => {
    const { server, node } = await setup({ initialBlocks: 40 });
    const c = consumer();
    node.cChain.ws.subscribe.logs({ filter: {} }, c.options);
    await until(() => server.subscriptions === 1);
    server.produce(3);
    await until(() => c.delivered.length === 6);
    server.killAll();
    server.produce(2); // missed, then backfilled
    await until(() => server.accepted === 2 && c.delivered.length === 10, 3000, "the backfill");
    expect(c.reorgs).toEqual([]);
    expect(c.delivered).toEqual(canonical(server, 41, 45));
  });
});

describe("a flapping connection while the chain reorganises (seeded)", () => {
  it.each([1, 2, 3, 4])("seed %i: the consumer ends on the node's logs, none lost, none delivered twice", async (seed) => {
    const { server, node } = await setup({ seed, initialBlocks: 30 });
    const rnd = seededRandom(`flap:${seed}`);
    const c = consumer();
    node.cChain.ws.subscribe.logs({ filter: {} }, c.options);
    await until(() => server.subscriptions === 1);
    const first = server.head + 1;
    for (let round = 0; round < 8; round++) {
      server.produce(1 + Math.floor(rnd() * 4));
      await new Promise((r) => setTimeout(r, Math.floor(rnd() * 15)));
      server.killAll();
      // while the client is away: reorganise the last 1–4 blocks (never below the first watched), maybe add blocks
      server.reorg(Math.min(1 + Math.floor(rnd() * 4), server.head - first + 1));
      if (rnd() < 0.5) server.produce(1 + Math.floor(rnd() * 3));
      if (rnd() < 0.5) {
        // a second drop right after the resubscription, while the gap is being filled
        const subscribed = server.requests.filter((m) => m === "eth_subscribe").length;
        await until(() => server.requests.filter((m) => m === "eth_subscribe").length > subscribed, 3000, "a resubscription");
        server.killAll();
      }
      await until(() => server.subscriptions === 1, 3000, `round ${round}: the resubscription`);
    }
    server.produce(2);
    const last = server.head;
    const expected = canonical(server, first, last);
    await until(() => c.logs.length === expected.length && c.logs.at(-1) === expected.at(-1), 5000, "the node's logs");
    expect(c.logs).toEqual(expected);
    expect(new Set(c.delivered).size).toBe(c.delivered.length);
    expect(server.accepted).toBeGreaterThan(8);
    expect(c.reorgs.length).toBeGreaterThan(0);
  }, 30_000);
});
