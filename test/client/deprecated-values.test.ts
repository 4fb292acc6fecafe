/**
 * Issue 27: values a server no longer takes (`x-avaspec-deprecated-values` at
 * a document's root). The C-Chain refuses the block tag `accepted` from the
 * Helicon activation on (vms/saevm at ava-labs/avalanchego 1cf1fc3d17:
 * libevm's rpc.BlockNumber parses only the five standard tags); the tag stays
 * in BlockTag for older nodes, and the client warns once, through
 * `deprecationWarnings`, when a request carries it, wherever in the params
 * (a block param, an EIP-1898 object, a log filter), in a batch and through
 * the EIP-1193 provider. The same extension on an OpenAPI document (the
 * extensions-31 fixture) warns for a path parameter. The request is still
 * sent: older nodes take the value.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import type { WebSocketConstructor } from "@avaspec/client";
import { createNodeClient } from "@avaspec/client/node";
import { startChainServer } from "../helpers/chain-server.js";
import { createApiClient } from "../fixtures/extensions-31/golden/src/api/client.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { runCli } from "../helpers/cli.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ADDRESS = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const NOTICE = '"accepted" (BlockTag) is removed in Helicon (v1.15.0), at its activation: Fuji 2026-07-28, Mainnet not yet scheduled. The C-Chain refuses the block tag "accepted" from then on (the SAE VM answers -32602); use "finalized", which names the same block on Coreth.';

let rpc: RpcTestServer;
let http: TestServer;
beforeAll(async () => {
  rpc = await startRpcServer();
  rpc.answer(() => ({ result: "0x1" }));
  http = await startServer();
});
afterAll(async () => {
  await rpc.close();
  await http.close();
});

/** A node client whose deprecation notices are collected (a fresh list per client). */
function node(extra: Parameters<typeof createNodeClient>[0] = {}) {
  const warnings: string[] = [];
  const client = createNodeClient({ baseUrl: rpc.url, retry: false, numbers: "string", deprecationWarnings: (m) => warnings.push(m), ...extra });
  return { client, warnings };
}
const sent = () => rpc.requests.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body])) as Envelope[];

describe("the block tag accepted on the C-Chain", () => {
  it("sending block: \"accepted\" twice gives exactly one warning, and both requests go out", async () => {
    const { client, warnings } = node();
    const before = sent().length;
    await client.cChain.eth.getBalance({ address: ADDRESS, block: "accepted" });
    await client.cChain.eth.getBalance({ address: ADDRESS, block: "accepted" });
    expect(warnings).toEqual([NOTICE]);
    expect(sent().slice(before).map((e) => e.params)).toEqual([[ADDRESS, "accepted"], [ADDRESS, "accepted"]]);
  });

  it("other tags, heights and hashes do not warn, nor does a method without a block", async () => {
    const { client, warnings } = node();
    await client.cChain.eth.getBalance({ address: ADDRESS, block: "finalized" });
    await client.cChain.eth.getBalance({ address: ADDRESS, block: "0x1b4" });
    await client.cChain.eth.getBalance({ address: ADDRESS, block: { blockNumber: "latest" } });
    await client.cChain.eth.chainId();
    expect(warnings).toEqual([]);
  });

  it("found wherever the params can hold a block tag: an EIP-1898 object, a log filter, a transaction count", async () => {
    for (const call of [
      (c: ReturnType<typeof createNodeClient>) => c.cChain.eth.getBalance({ address: ADDRESS, block: { blockNumber: "accepted" } }),
      (c: ReturnType<typeof createNodeClient>) => c.cChain.eth.getLogs({ fromBlock: "0x1", toBlock: "accepted" }),
      (c: ReturnType<typeof createNodeClient>) => c.cChain.eth.getTransactionCount({ address: ADDRESS, block: "accepted" }),
    ]) {
      rpc.answer(() => ({ result: call.toString().includes("getLogs") ? [] : "0x1" }));
      const { client, warnings } = node();
      await call(client);
      expect(warnings).toEqual([NOTICE]);
    }
    rpc.answer(() => ({ result: "0x1" }));
  });

  it("in a batch and through the EIP-1193 provider, once per client", async () => {
    const { client, warnings } = node();
    const results = await client.batch((n) => [n.cChain.eth.getBalance({ address: ADDRESS, block: "accepted" }), n.cChain.eth.getCode({ address: ADDRESS, block: "accepted" })] as const);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    await client.cChain.provider.request({ method: "eth_getBalance", params: [ADDRESS, "accepted"] });
    expect(warnings).toEqual([NOTICE]);
    const other = node();
    await other.client.cChain.provider.request({ method: "eth_getBalance", params: [ADDRESS, "accepted"] });
    expect(other.warnings).toEqual([NOTICE]);
  });

  it("by default console.warn says it once per process; deprecationWarnings: false says nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await createNodeClient({ baseUrl: rpc.url, retry: false, deprecationWarnings: false }).cChain.eth.getBalance({ address: ADDRESS, block: "accepted" });
      expect(warn).not.toHaveBeenCalled();
      for (let i = 0; i < 2; i++) await createNodeClient({ baseUrl: rpc.url, retry: false }).cChain.eth.getBalance({ address: ADDRESS, block: "accepted" });
      expect(warn.mock.calls).toEqual([[`avaspec: ${NOTICE}`]]);
    } finally {
      warn.mockRestore();
    }
  });

  it("over the WebSocket transport too", async () => {
    const chain = await startChainServer({ seed: 27, initialBlocks: 3 });
    const warnings: string[] = [];
    const client = createNodeClient({ baseUrl: new URL(chain.url).origin.replace(/^ws/, "http"), retry: false, numbers: "string", deprecationWarnings: (m) => warnings.push(m), webSocket: { WebSocket: WebSocket as unknown as WebSocketConstructor } });
    try {
      const head = await client.cChain.ws.eth.getBlockByNumber({ block: "accepted", hydratedTransactions: false });
      await client.cChain.ws.eth.getBlockByNumber({ block: "accepted", hydratedTransactions: false });
      expect(head?.number).toBe("0x3");
      expect(warnings).toEqual([NOTICE]);
    } finally {
      await client.cChain.ws.close();
      await chain.close();
    }
  });

  it("a params check that fails warns nothing: nothing is sent", async () => {
    const { client, warnings } = node();
    // @ts-expect-error address is required
    await expect(client.cChain.eth.getBalance({ block: "accepted" })).rejects.toThrow(/address/);
    expect(warnings).toEqual([]);
  });
});

describe("on any spec: an OpenAPI path parameter (extensions-31)", () => {
  it("a deprecated value of an open enumeration warns once per client, across operations", async () => {
    http.reply(() => ({ body: { service: "queue", status: "OK", level: 1 } }));
    const warnings: string[] = [];
    const api = createApiClient({ baseUrl: http.url, retry: false, deprecationWarnings: (m) => warnings.push(m) });
    await api.getHealth({ service: "db" });
    expect(warnings).toEqual([]);
    await api.getHealth({ service: "queue" });
    await api.getHealth({ service: "queue" });
    http.reply(() => ({ body: { bytes: "1", blocks: [] } }));
    await api.getUsage({ service: "queue" });
    expect(warnings).toEqual(['"queue" (Service) is deprecated since v1.6.0. The queue service moved into db; ask for db.']);
    expect(http.requests.at(-1)!.url).toBe("/v1/usage/queue");
  });

  it("operations.js writes each notice once, as a module constant its HTTP descriptors name", () => {
    const golden = (file: string) => readFileSync(new URL(`../fixtures/extensions-31/golden/src/api/${file}`, import.meta.url), "utf8");
    const js = golden("operations.js");
    const notice = '"\\"queue\\" (Service) is deprecated since v1.6.0. The queue service moved into db; ask for db."';
    expect(js.split(notice).length - 1).toBe(1);
    expect(js).toContain(`const serviceQueueNotice = ["queue", ${notice}];`);
    expect(js.match(/deprecatedValues: \/\* @__PURE__ \*\/ valueNotices\(\[\[serviceQueueNotice, \[\["service"\]\]\]\]\),/g)).toHaveLength(2);
    // not exported: the module's public names are its descriptors
    expect(golden("operations.d.ts")).not.toContain("serviceQueueNotice");
  });
});

describe("malformed x-avaspec-deprecated-values", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-deprecated-values-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const generate = (list: unknown) => {
    const doc = {
      openrpc: "1.3.2",
      info: { title: "M", version: "1" },
      "x-avaspec-deprecated-values": list,
      methods: [{ name: "m", params: [{ name: "tag", schema: { $ref: "#/components/schemas/Tag" } }], result: { name: "r", schema: { type: "string" } } }],
      components: { schemas: { Tag: { type: "string", enum: ["old", "new"] } } },
    };
    writeFileSync(join(dir, "doc.json"), JSON.stringify(doc, null, 2));
    return runCli(["generate", "--input", "doc.json", "--out", "out", "--lenient-versions"], dir);
  };

  it.each([
    ["not a list", { value: "old" }, /at #\/x-avaspec-deprecated-values: x-avaspec-deprecated-values must be a list of \{ schema: "#\/components\/schemas\/<name>", value/],
    ["an unknown key", [{ schema: "#/components/schemas/Tag", value: "old", since: "v2" }], /at #\/x-avaspec-deprecated-values\/0\/since: x-avaspec-deprecated-values: unknown key "since"/],
    ["a schema that is not a named schema", [{ schema: "#/methods/0", value: "old" }], /at #\/x-avaspec-deprecated-values\/0\/schema: x-avaspec-deprecated-values: schema must point at a named schema/],
    ["a schema the document lacks", [{ schema: "#/components/schemas/Nope", value: "old" }], /#\/components\/schemas\/Nope is not a schema of this document/],
    ["a value the schema does not list", [{ schema: "#/components/schemas/Tag", value: "older" }], /at #\/x-avaspec-deprecated-values\/0\/value: x-avaspec-deprecated-values: "older" is not a value #\/components\/schemas\/Tag lists/],
    ["an empty removedIn", [{ schema: "#/components/schemas/Tag", value: "old", removedIn: " " }], /at #\/x-avaspec-deprecated-values\/0\/removedIn: x-avaspec-deprecated-values: removedIn must be a non-empty string/],
  ])("%s is an extension/deprecated-values error", (_name, list, message) => {
    const r = generate(list);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain("[extension/deprecated-values]");
  });

  it("a well-formed list generates, with the watch on the method that can carry the value", () => {
    const r = generate([{ schema: "#/components/schemas/Tag", value: "old", removedIn: "v2" }]);
    expect(r.status, r.stderr).toBe(0);
    const [module] = readdirSync(join(dir, "out/src")).filter((d) => d !== "runtime" && d !== "mocks" && d !== "mock-server" && !d.endsWith(".ts"));
    const client = readFileSync(join(dir, "out/src", module!, "client.ts"), "utf8");
    expect(client).toContain('"\\"old\\" (Tag) is removed in v2"');
    expect(client).toMatch(/deprecatedValues: \/\* @__PURE__ \*\/ valueNotices\(\[\s*\[\s*tagOldNotice,\s*\[\s*\[\s*"tag",?\s*\]/);
  });
});
