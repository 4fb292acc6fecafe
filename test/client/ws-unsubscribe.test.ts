/**
 * Issue 26, item 6: ending the last subscription closes the socket at once,
 * even when the node never answers `eth_unsubscribe`: nothing waits on that
 * reply (it would hold the socket, its keep-alive timer and so the process
 * for the whole call timeout). Checked by the node seeing the socket close,
 * and by a child process that must exit by itself.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { WebSocketConstructor } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { ROOT } from "../helpers/cli.js";
import { startScriptedNode, type ScriptedNode } from "../helpers/scripted-node.js";
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

async function silentNode(): Promise<{ server: ScriptedNode; client: NodeClient }> {
  const server = await startScriptedNode({ answerUnsubscribe: false });
  nodes.push(server);
  const client = createNodeClient({ baseUrl: server.url, retry: false, webSocket: { WebSocket: WS } });
  clients.push(client);
  return { server, client };
}

describe("a node that never answers eth_unsubscribe", () => {
  it("does not keep the socket open after the last unsubscribe()", async () => {
    const { server, client } = await silentNode();
    const sub = client.cChain.ws.subscribe.newHeads({ onData: () => undefined });
    await until(() => server.ids.has("newHeads"));
    await sub.unsubscribe();
    // the node is still told, and the socket closes without waiting for its answer
    await until(() => server.closed === 1, 5000, "the socket to close");
    expect(server.requests).toContain("eth_unsubscribe");
    expect(server.connections).toBe(0);
  });

  it("does not keep the socket open when the subscription ends before its id arrives", async () => {
    const server = await startScriptedNode({ answerUnsubscribe: false, holdSubscribe: true });
    nodes.push(server);
    const client = createNodeClient({ baseUrl: server.url, retry: false, webSocket: { WebSocket: WS } });
    clients.push(client);
    const sub = client.cChain.ws.subscribe.newPendingTransactions({}, { onData: () => undefined });
    await until(() => server.requests.includes("eth_subscribe"));
    await sub.unsubscribe();
    server.releaseSubscribe(); // the id comes now: the transport ends it on the node, and closes the socket
    await until(() => server.closed === 1, 5000, "the socket to close");
    expect(server.requests).toEqual(["eth_subscribe", "eth_unsubscribe"]);
  });

  it("ending a subscription while its socket is still connecting sends nothing and raises nothing", async () => {
    const { server, client } = await silentNode();
    const sub = client.cChain.ws.subscribe.newHeads({ onData: () => undefined });
    void sub.unsubscribe();
    // the next call gets a socket of its own
    expect(await client.cChain.ws.eth.chainId()).toBe(43114n);
    expect(server.requests).toEqual(["eth_chainId"]);
  });

  it("keeps the socket for the other subscriptions, which go on", async () => {
    const { server, client } = await silentNode();
    const heads: unknown[] = [];
    const a = client.cChain.ws.subscribe.newPendingTransactions({}, { onData: () => undefined });
    client.cChain.ws.subscribe.syncing({ onData: (v) => heads.push(v) });
    await until(() => server.ids.size === 2);
    await a.unsubscribe();
    await until(() => server.requests.includes("eth_unsubscribe"));
    server.notify("syncing", false);
    await until(() => heads.length === 1);
    expect(server.closed).toBe(0);
  });

  it.each(["unsubscribe", "unsubscribe and close"] as const)("a process that does %s exits by itself", async (how) => {
    const server = await startScriptedNode({ answerUnsubscribe: false });
    nodes.push(server);
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    const script = join(ROOT, ".tmp", "ws-unsubscribe-child.mjs");
    writeFileSync(
      script,
      `import WebSocket from "ws";
import { createNodeClient } from "@avaspec/client/node";
const node = createNodeClient({ baseUrl: process.argv[2], retry: false, webSocket: { WebSocket } });
const sub = node.cChain.ws.subscribe.newHeads({ onData: () => undefined });
process.stdin.once("data", async () => {
  await sub.unsubscribe();
  if (process.argv[3] === "close") await node.cChain.ws.close();
  console.log("done");
});
`,
    );
    const child = spawn(process.execPath, [script, server.url, how === "unsubscribe" ? "" : "close"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    let code: number | null | undefined;
    void exited.then((c) => (code = c));
    try {
      await until(() => server.ids.has("newHeads"), 10_000, "the child's subscription");
      child.stdin.end("go\n");
      // the child holds no timer or socket: it ends on its own (a 30 s eth_unsubscribe timeout would hold it)
      await until(() => code !== undefined, 10_000, "the child to exit by itself");
    } finally {
      child.kill();
    }
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toBe("done\n");
    expect(server.requests).toContain("eth_unsubscribe");
  }, 30_000);
});
