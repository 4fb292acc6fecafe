/**
 * Issue 26, item 4: an exception thrown by a subscription's consumer
 * (`onData`, `onReorg`, `onReconnect`) ends that subscription alone, through
 * its `onError`, for every kind; the other subscriptions and calls on the
 * same socket keep working, and the process does not die (checked in a
 * child process with no handler of its own).
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { AvaspecError, WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { ROOT } from "../helpers/cli.js";
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

async function setup(): Promise<{ server: ScriptedNode; client: NodeClient }> {
  const server = await startScriptedNode();
  nodes.push(server);
  const client = createNodeClient({ baseUrl: server.url, retry: false, webSocket: { WebSocket: WS, reconnect: false } });
  clients.push(client);
  return { server, client };
}

type Kind = "newHeads" | "logs" | "newPendingTransactions" | "newAcceptedTransactions" | "syncing";
/** A valid payload of each kind (the node's head is 16: heads and logs of block 17 need no backfill). */
const payload: Record<Kind, unknown> = {
  newHeads: scriptedHeader(17),
  logs: scriptedLog(17),
  newPendingTransactions: `0x${"ab".repeat(32)}`,
  newAcceptedTransactions: `0x${"cd".repeat(32)}`,
  syncing: false,
};

function subscribe(client: NodeClient, kind: Kind, options: { onData(v: unknown): void; onError?(e: AvaspecError): void }) {
  const s = client.cChain.ws.subscribe;
  switch (kind) {
    case "newHeads":
      return s.newHeads(options);
    case "logs":
      return s.logs({ filter: {} }, options);
    case "newPendingTransactions":
      return s.newPendingTransactions({}, options);
    case "newAcceptedTransactions":
      return s.newAcceptedTransactions({}, options);
    case "syncing":
      return s.syncing(options);
  }
}

describe("a consumer's exception", () => {
  it.each(["newPendingTransactions", "newAcceptedTransactions", "syncing", "newHeads", "logs"] as const)("in onData of %s ends that subscription through onError; the others and calls go on", async (kind) => {
    const { server, client } = await setup();
    const other: Kind = kind === "newPendingTransactions" ? "newAcceptedTransactions" : "newPendingTransactions";
    const errors: AvaspecError[] = [];
    const otherData: unknown[] = [];
    let calls = 0;
    const bug = new Error("a bug in the consumer");
    subscribe(client, kind, {
      onData: () => {
        calls++;
        throw bug;
      },
      onError: (e) => errors.push(e),
    });
    subscribe(client, other, { onData: (v) => otherData.push(v) });
    await until(() => server.ids.has(kind) && server.ids.has(other), 3000, "both subscriptions");
    server.notify(kind, payload[kind]);
    await until(() => errors.length === 1, 3000, "onError");
    expect(errors[0]!.name).toBe("SubscriptionCallbackError");
    expect(errors[0]!.message).toContain(`${kind}: onData threw`);
    expect(errors[0]!.cause).toBe(bug);
    // that subscription is over (and the node is told), the others are not
    await until(() => server.requests.includes("eth_unsubscribe"), 3000, "eth_unsubscribe");
    server.notify(other, payload[other]);
    await until(() => otherData.length === 1, 3000, `the ${other} notification`);
    expect(await client.cChain.ws.eth.blockNumber()).toBe(16n);
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it("in onError itself is reported on the console and goes no further", async () => {
    const { server, client } = await setup();
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      client.cChain.ws.subscribe.syncing({
        onData: () => {
          throw new Error("first bug");
        },
        onError: () => {
          throw new Error("second bug");
        },
      });
      await until(() => server.ids.has("syncing"));
      server.notify("syncing", false);
      await until(() => logged.length === 1, 3000, "the console report");
    } finally {
      console.error = original;
    }
    expect(String(logged[0]![0])).toContain("the onError callback of the syncing subscription threw");
    expect((logged[0]![1] as Error).message).toBe("second bug");
    expect(await client.cChain.ws.eth.chainId()).toBe(43114n);
  });
});

describe("without any handler of the process's own", () => {
  it("a throwing onData does not kill the process: it exits by itself once the work is done", async () => {
    const server = await startScriptedNode();
    nodes.push(server);
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    const script = join(ROOT, ".tmp", "ws-consumer-child.mjs");
    writeFileSync(
      script,
      `import WebSocket from "ws";
import { createNodeClient } from "@avaspec/client/node";
const node = createNodeClient({ baseUrl: process.argv[2], retry: false, webSocket: { WebSocket, reconnect: false } });
const seen = [];
node.cChain.ws.subscribe.newAcceptedTransactions({}, { onData: (tx) => seen.push(tx) });
node.cChain.ws.subscribe.newPendingTransactions({}, { onData: () => { throw new Error("consumer bug"); }, onError: (e) => seen.push(e.name) });
process.stdin.once("data", async () => {
  seen.push(String(await node.cChain.ws.eth.blockNumber()));
  console.log(JSON.stringify(seen));
  await node.cChain.ws.close();
});
console.log("ready");
`,
    );
    const child = spawn(process.execPath, [script, server.url], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      await until(() => server.ids.size === 2, 10_000, "the child's two subscriptions");
      server.notify("newPendingTransactions", `0x${"ab".repeat(32)}`);
      server.notify("newAcceptedTransactions", `0x${"cd".repeat(32)}`);
      await until(() => server.requests.includes("eth_unsubscribe") || child.exitCode !== null, 5000, "the child to end the failed subscription");
      child.stdin.write("go\n");
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
    expect(stderr).toBe("");
    expect(stdout.trim().split("\n").at(-1)).toBe(JSON.stringify(["SubscriptionCallbackError", `0x${"cd".repeat(32)}`, "16"]));
  }, 30_000);
});
