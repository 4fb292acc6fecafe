/**
 * Issue 26, item 5: subscription payloads are checked before they reach the
 * consumer. Whatever `validateResponse` says, a notification the transport
 * cannot place (no `result`; a head without a quantity `number` and a
 * `hash`; a log without `blockNumber`, `blockHash`, `logIndex`) is dropped
 * and reported; with "warn" every payload is also checked against the
 * kind's schema (the generated validator) and a failing one is dropped and
 * reported; with "strict" either ends the subscription with a
 * ValidationError. Reported: `onInvalid`, else a console warning; counted in
 * `subscription.invalid`.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { AvaspecError, ValidationError, WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { scriptedHeader, scriptedLog, startScriptedNode, type ScriptedNode } from "../helpers/scripted-node.js";
import { until } from "../helpers/wait.js";

const WS = WebSocket as unknown as WebSocketConstructor;
let nodes: ScriptedNode[] = [];
let clients: NodeClient[] = [];
afterEach(async () => {
  for (const c of clients) await c.cChain.ws.close();
  for (const n of nodes) await n.close();
  nodes = [];
  clients = [];
});

async function setup(validateResponse?: "off" | "warn" | "strict"): Promise<{ server: ScriptedNode; client: NodeClient }> {
  const server = await startScriptedNode();
  nodes.push(server);
  const client = createNodeClient({ baseUrl: server.url, retry: false, ...(validateResponse ? { validateResponse } : {}), webSocket: { WebSocket: WS, reconnect: false } });
  clients.push(client);
  return { server, client };
}

/** Captures console.warn while `fn` runs. */
async function warnings(fn: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void out.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return out;
}

const malformed: [string, Record<string, unknown>][] = [
  ["null", { result: null }],
  ["42", { result: 42 }],
  ["no result", {}],
  ['{ number: "0x-1" }', { result: { number: "0x-1" } }],
  ["a head without a hash", { result: { ...scriptedHeader(20), hash: undefined } }],
];

describe("payloads the transport cannot place", () => {
  it.each(["off", "warn"] as const)("never reach onData (validateResponse %s): dropped, reported with onInvalid, the stream goes on in order", async (mode) => {
    const { server, client } = await setup(mode);
    const heads: bigint[] = [];
    const invalid: ValidationError[] = [];
    const errors: AvaspecError[] = [];
    const sub = client.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!), onInvalid: (e) => invalid.push(e), onError: (e) => errors.push(e) });
    await until(() => server.ids.has("newHeads"));
    server.notify("newHeads", scriptedHeader(17));
    for (const [, params] of malformed) server.notifyRaw("newHeads", params);
    server.notify("newHeads", scriptedHeader(18));
    await until(() => heads.length === 2 && invalid.length === malformed.length, 3000, "two heads and every report");
    expect(heads).toEqual([17n, 18n]);
    expect(invalid.map((e) => e.name)).toEqual(malformed.map(() => "ValidationError"));
    expect(invalid[2]!.message).toBe("newHeads: a notification without a result was dropped");
    expect(invalid[3]!.message).toBe("newHeads: a notification that does not match the spec was dropped: /number must be a block number (0x-hex or decimal digits)");
    expect(invalid[3]!.issues).toEqual([{ path: "/number", message: "must be a block number (0x-hex or decimal digits)" }]);
    expect(invalid[3]!.rawBody).toBe('{"number":"0x-1"}');
    expect(sub.invalid).toBe(malformed.length);
    expect(errors).toEqual([]);
  });

  it("are reported on the console when there is no onInvalid (the default mode)", async () => {
    const { server, client } = await setup();
    const heads: bigint[] = [];
    const logged = await warnings(async () => {
      client.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!) });
      await until(() => server.ids.has("newHeads"));
      server.notify("newHeads", null);
      server.notify("newHeads", scriptedHeader(17));
      await until(() => heads.length === 1);
    });
    expect(heads).toEqual([17n]);
    expect(logged).toEqual(["[avaspec] newHeads: a notification that does not match the spec was dropped: / must be an object"]);
  });

  it("logs without what orders and tells them apart are dropped too", async () => {
    const { server, client } = await setup();
    const logs: string[] = [];
    const invalid: ValidationError[] = [];
    client.cChain.ws.subscribe.logs({ filter: {} }, { onData: (l) => logs.push(`${l.blockNumber}:${l.logIndex}`), onInvalid: (e) => invalid.push(e) });
    await until(() => server.ids.has("logs"));
    server.notify("logs", { ...scriptedLog(17), blockNumber: undefined });
    server.notify("logs", { ...scriptedLog(17), logIndex: null });
    server.notify("logs", scriptedLog(17, 0));
    await until(() => logs.length === 1 && invalid.length === 2, 3000, "one log, two reports");
    expect(logs).toEqual(["17:0"]);
    expect(invalid.map((e) => e.issues[0]!.path)).toEqual(["/blockNumber", "/logIndex"]);
  });
});

describe('validateResponse "warn"', () => {
  it("drops a payload that fails the kind's schema and reports it; a missed head is fetched again", async () => {
    const { server, client } = await setup("warn");
    const heads: bigint[] = [];
    const invalid: ValidationError[] = [];
    client.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!), onInvalid: (e) => invalid.push(e) });
    await until(() => server.ids.has("newHeads"));
    server.notify("newHeads", scriptedHeader(17));
    server.notify("newHeads", { ...scriptedHeader(18), miner: 42 });
    server.notify("newHeads", scriptedHeader(19));
    await until(() => heads.length === 3, 3000, "three heads");
    // 18 came back from eth_getBlockByNumber, valid
    expect(heads).toEqual([17n, 18n, 19n]);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]!.issues[0]!.path).toBe("/miner");
    expect(invalid[0]!.message).toMatch(/^newHeads: a notification that does not match the spec was dropped: \/miner /);
  });

  it("checks kinds without a backfill too", async () => {
    const { server, client } = await setup("warn");
    const txs: unknown[] = [];
    const invalid: ValidationError[] = [];
    client.cChain.ws.subscribe.newPendingTransactions({}, { onData: (t) => txs.push(t), onInvalid: (e) => invalid.push(e) });
    await until(() => server.ids.has("newPendingTransactions"));
    server.notify("newPendingTransactions", 42);
    server.notify("newPendingTransactions", null);
    server.notify("newPendingTransactions", `0x${"ab".repeat(32)}`);
    await until(() => txs.length === 1 && invalid.length === 2, 3000, "one hash, two reports");
    expect(txs).toEqual([`0x${"ab".repeat(32)}`]);
  });
});

describe('validateResponse "strict"', () => {
  it("ends the subscription with a ValidationError at the first invalid payload (callbacks)", async () => {
    const { server, client } = await setup("strict");
    const heads: bigint[] = [];
    const errors: AvaspecError[] = [];
    client.cChain.ws.subscribe.newHeads({ onData: (h) => heads.push(h.number!), onError: (e) => errors.push(e) });
    await until(() => server.ids.has("newHeads"));
    server.notify("newHeads", scriptedHeader(17));
    server.notify("newHeads", { ...scriptedHeader(18), miner: 42 });
    server.notify("newHeads", scriptedHeader(19));
    await until(() => errors.length === 1, 3000, "onError");
    expect(errors[0]!.name).toBe("ValidationError");
    expect((errors[0] as ValidationError).issues[0]!.path).toBe("/miner");
    await until(() => server.requests.includes("eth_unsubscribe"));
    expect(heads).toEqual([17n]);
  });

  it("makes the iterator throw it, after the events before it", async () => {
    const { server, client } = await setup("strict");
    // the signal only bounds a run where no error comes
    const sub = client.cChain.ws.subscribe.newHeads({ signal: AbortSignal.timeout(10_000) });
    await until(() => server.ids.has("newHeads"));
    server.notify("newHeads", scriptedHeader(17));
    server.notify("newHeads", 42);
    const got: bigint[] = [];
    let error: unknown;
    try {
      for await (const h of sub) got.push(h.number!);
    } catch (e) {
      error = e;
    }
    expect(got).toEqual([17n]);
    expect((error as Error).name).toBe("ValidationError");
    expect((error as Error).message).toBe("newHeads: a notification that does not match the spec: / must be an object");
  });
});
