/**
 * Issue 29: the MCP server of @avaspec/client, reached by the official SDK's
 * `Client` over Streamable HTTP on 127.0.0.1, calling the package's own mock
 * server (HTTP and JSON-RPC). Code mode's `search`; tools mode's tools, their
 * annotations and calls; the read-only policy and its allow lists; typed
 * errors as tool errors; results cut with a note; the tool cap.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "@avaspec/client/mcp";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { call, connectHttp, type Connected } from "./helpers.js";

let mock: MockServer;
/** The mock server's log: one line per request it answered. */
const requests: string[] = [];
let code: Connected;
let tools: Connected;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 1, log: (line) => requests.push(line) });
  code = await connectHttp(() => createMcpServer({ clients: { baseUrl: mock.url } }));
  tools = await connectHttp(() => createMcpServer({ mode: "tools", tools: { include: ["node.platform.*", "node.cChain.eth.*", "node.l1.eth.chainId", "dataApi.*"], maxTools: 200 }, clients: { baseUrl: mock.url } }));
});
afterAll(async () => {
  await code?.close();
  await tools?.close();
  await mock?.close();
});

describe("code mode", () => {
  it("initializes as the package and lists search (and execute)", () => {
    expect(code.client.getServerVersion()).toMatchObject({ name: "@avaspec/client" });
    expect(code.client.getInstructions()).toContain("search");
  });

  it("lists a handful of tools, not one per operation", async () => {
    const { tools: listed } = await code.client.listTools();
    expect(listed.map((t) => t.name)).toContain("search");
    expect(listed.length).toBeLessThanOrEqual(2);
    expect(listed.find((t) => t.name === "search")!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("search finds an operation by words, with its signature, doc and an example", async () => {
    const { text, isError } = await call(code.client, "search", { query: "current validators platform" });
    expect(isError).toBe(false);
    expect(text).toContain("## node.platform.getCurrentValidators — platform.getCurrentValidators (JSON-RPC at /ext/bc/P); read-only");
    expect(text).toContain("node.platform.getCurrentValidators(params?: { subnetID?: Cb58Id; nodeIDs?: NodeId[] }): Promise<CurrentValidatorsResult");
    expect(text).toMatch(/e\.g\. await node\.platform\.getCurrentValidators\(/);
  });

  it("search finds a method by its name across clients, and says when it is a write", async () => {
    const { text } = await call(code.client, "search", { query: "issueTx", limit: 3 });
    expect(text.split("\n## ").length).toBe(3);
    expect(text).toMatch(/issueTx — [^\n]*; writes/);
    const erc20 = await call(code.client, "search", { query: "erc20 transfers" });
    expect(erc20.text.split("\n")[0]).toContain("dataApi.listErc20Transactions");
  });

  it("search stays within its budget and says how many more matched", async () => {
    const { text } = await call(code.client, "search", { query: "get", limit: 20 });
    expect(text.length).toBeLessThanOrEqual(6000 + 200);
    expect(text).toMatch(/\(\d+ more matches: add words to narrow the search, or search a name\.\)$/);
  });

  it("an empty search lists the clients and their groups", async () => {
    const { text } = await call(code.client, "search", { query: "" });
    expect(text).toContain("@avaspec/client: 372 operations");
    expect(text).toContain("node.platform (31)");
  });
});

describe("tools mode", () => {
  it("lists one tool per chosen operation, with annotations from the classification", async () => {
    const { tools: listed } = await tools.client.listTools();
    const byName = new Map(listed.map((t) => [t.name, t]));
    expect(byName.get("node_platform_getHeight")!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(byName.get("node_platform_issueTx")!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.get("node_platform_issueTx")!.description).toContain("Refused by this server (read-only)");
    expect(byName.get("dataApi_deactivateWebhook")!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: true });
    // a POST the spec marks as a query (x-avaspec-mcp: { readOnly: true })
    expect(byName.get("dataApi_getUtxosByAddressesV2")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.has("node_info_getNodeID")).toBe(false);
    expect(byName.get("dataApi_listErc20Transactions")!.inputSchema).toMatchObject({ type: "object", required: ["chainId", "address"], additionalProperties: false });
  });

  it("calls an HTTP operation, a JSON-RPC method and a method of a group that takes its endpoint's variables", async () => {
    const erc20 = await call(tools.client, "dataApi_listErc20Transactions", { chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", pageSize: 2 });
    expect(erc20.isError).toBe(false);
    expect(JSON.parse(erc20.text)).toHaveProperty("transactions");
    const height = await call(tools.client, "node_platform_getHeight");
    expect(JSON.parse(height.text)).toHaveProperty("height");
    const chainId = await call(tools.client, "node_l1_eth_chainId", { blockchainId: "2YTRV2roEhgvwJz7D7vr33hUZscpaZgcYgUTjeMK9KH99NFnsH" });
    expect(JSON.parse(chainId.text)).toMatch(/^0x[0-9a-f]+$/);
  });

  it("refuses a write, saying how to allow it, without calling the API", async () => {
    const before = requests.length;
    const r = await call(tools.client, "node_platform_issueTx", { tx: "0x00" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe("node.platform.issueTx (platform.issueTx (JSON-RPC at /ext/bc/P)) writes (it changes state, spends or signs), and this MCP server is read-only. Whoever runs the server can allow it: restart it with --allow node.platform.issueTx (this one), or --allow-writes (every write).");
    expect(requests.length).toBe(before);
  });

  it("argument errors, HTTP statuses and JSON-RPC codes come back as tool errors with the typed error's message", async () => {
    const bad = await call(tools.client, "node_cChain_eth_getBalance", { address: "0xzz", block: "latest" });
    expect(bad).toEqual({ isError: true, text: 'ValidationError: eth_getBalance: parameter "address" must match pattern ^0[xX][0-9a-fA-F]{40}$' });
    const extra = await call(tools.client, "node_cChain_eth_getBalance", { address: "0x6aa0d558e161208f801bd7866a8f6d177fb79517", block: "latest", extra: 1 });
    expect(extra).toEqual({ isError: true, text: 'node.cChain.eth.getBalance has no argument "extra"; it takes address, block' });
    mock.override("listErc20Transactions", { status: 404 });
    mock.override("platform.getHeight", { rpcError: { code: -32000, message: "node is bootstrapping", data: { left: 3 } } });
    try {
      const http = await call(tools.client, "dataApi_listErc20Transactions", { chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" });
      expect(http.isError).toBe(true);
      expect(http.text).toMatch(/^NotFoundError \(HTTP 404\): listErc20Transactions failed with 404/);
      const rpc = await call(tools.client, "node_platform_getHeight");
      expect(rpc).toEqual({ isError: true, text: 'ServerError (JSON-RPC code -32000): platform.getHeight failed with JSON-RPC error -32000: node is bootstrapping data: {"left":3}' });
      for (const t of [http.text, rpc.text]) expect(t).not.toMatch(/\n\s+at /);
    } finally {
      mock.reset();
    }
  });

  it("cuts a long result and says how to page", async () => {
    const small = await connectHttp(() => createMcpServer({ mode: "tools", tools: { include: ["dataApi.listErc20Transactions"] }, resultBytes: 400, clients: { baseUrl: mock.url } }));
    try {
      const r = await call(small.client, "dataApi_listErc20Transactions", { chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" });
      expect(r.isError).toBe(false);
      expect(new TextEncoder().encode(r.text.split("\n… [cut at")[0]!).length).toBeLessThanOrEqual(400);
      expect(r.text).toMatch(/… \[cut at 400 of [\d,]+ bytes\] Ask dataApi\.listErc20Transactions for less: a smaller `pageSize`, or the next page with `pageToken` from this page's next-page field/);
    } finally {
      await small.close();
    }
  });

  it("refuses to list more tools than --max-tools, naming the largest groups", () => {
    expect(() => createMcpServer({ mode: "tools", clients: { baseUrl: mock.url } })).toThrow(/^tools mode would list 372 tools, more than --max-tools 100\. Narrow it with --include or --exclude .*the largest groups: node\.cChain\.eth\.\* \(60\), node\.l1\.eth\.\* \(55\), dataApi\.\* \(81\)|the largest groups: dataApi\.\* \(81\), node\.cChain\.eth\.\* \(60\)/);
    expect(() => createMcpServer({ mode: "tools", tools: { include: ["node.**"], exclude: ["node.l1.**", "node.cChain.**"], maxTools: 150 } })).not.toThrow();
  });
});

describe("allowing writes", () => {
  it("--allow lets one write through, --allow-writes every one", async () => {
    const one = await connectHttp(() => createMcpServer({ mode: "tools", tools: { include: ["node.platform.issueTx", "node.xChain.avm.issueTx"] }, policy: { allowWrites: false, allow: ["node.platform.issueTx"] }, clients: { baseUrl: mock.url } }));
    const all = await connectHttp(() => createMcpServer({ mode: "tools", tools: { include: ["node.xChain.avm.issueTx"] }, policy: { allowWrites: true, allow: [] }, clients: { baseUrl: mock.url } }));
    try {
      const allowed = await call(one.client, "node_platform_issueTx", { tx: "0x00000000000c0000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000b3da9a6b" });
      expect(allowed.isError, allowed.text).toBe(false);
      expect(JSON.parse(allowed.text)).toHaveProperty("txID");
      expect((await call(one.client, "node_xChain_avm_issueTx", { tx: "0x00" })).text).toContain("this MCP server is read-only");
      const any = await call(all.client, "node_xChain_avm_issueTx", { tx: "0x00000000000c0000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000b3da9a6b" });
      expect(any.isError, any.text).toBe(false);
    } finally {
      await one.close();
      await all.close();
    }
  });
});

describe("Streamable HTTP", () => {
  /** A raw POST to the MCP endpoint with the given Host header. */
  const post = (host: string, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const url = new URL(code.server.url);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" } }, (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

  it("listens on 127.0.0.1 at /mcp and refuses a Host that is not its address (DNS rebinding)", async () => {
    expect(code.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const rebound = await post("attacker.example:80", list);
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain("the Host header is not this server's address");
    expect((await post(new URL(code.server.url).host, "{not json")).status).toBe(400);
  });
});
