/**
 * Issue 27: an OpenRPC server URL's path variables are client parameters, in
 * any document (the rpc-endpoint-variables fixture: a gateway serving one
 * endpoint per network and chain, `http://127.0.0.1:8545/{network}/chains/{chainId}/rpc`,
 * a document without a group, so its client's member `at` takes them), and
 * what cannot be generated is a diagnostic: documents sharing a group must
 * name the same variables, and a group that takes variables holds nothing
 * else.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainHead, createChainsClient, createChainsCore, type ChainsEndpoint } from "../fixtures/rpc-endpoint-variables/golden/src/chains/client.js";
import { createMocks } from "../fixtures/rpc-endpoint-variables/golden/src/mocks/index.js";
import { withEndpoint } from "../fixtures/rpc-endpoint-variables/golden/src/runtime/jsonrpc/endpoints.js";
import { ValidationError } from "../fixtures/rpc-endpoint-variables/golden/src/runtime/errors/errors.js";
import { runCli } from "../helpers/cli.js";
import { useMsw } from "../helpers/msw.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";

let server: RpcTestServer;
beforeAll(async () => {
  server = await startRpcServer();
  server.answer((env) => ({ result: env.method === "chain_head" ? 42 : { height: 7, hash: `0x${"0".repeat(63)}7` } }));
});
afterAll(() => server.close());

describe("a document without a group: client.at({ …variables })", () => {
  it("fills each variable into its own segment below the base URL (a path of the base URL kept)", async () => {
    server.requests.length = 0;
    const client = createChainsClient({ baseUrl: `${server.url}/gw`, retry: false, validateResponse: "strict" });
    expect(await client.at({ network: "testnet", chainId: "a b" }).chain.head()).toBe(42);
    expect(await client.at({ network: "mainnet", chainId: "43114" }).chain.getBlock({ height: 7 })).toMatchObject({ height: 7 });
    expect(server.requests.map((r) => r.path)).toEqual(["/gw/testnet/chains/a%20b/rpc", "/gw/mainnet/chains/43114/rpc"]);
    expect((server.requests[1]!.body as Envelope).params).toEqual({ height: 7 });
  });

  it("a variable with an enum is typed by it; every variable is required", () => {
    const ok: ChainsEndpoint = { network: "testnet", chainId: "1" };
    // @ts-expect-error the network is one of the server variable's enum
    const wrong: ChainsEndpoint = { network: "devnet", chainId: "1" };
    // @ts-expect-error chainId is required
    const partial: ChainsEndpoint = { network: "mainnet" };
    expect([ok, wrong, partial]).toHaveLength(3);
  });

  it("the functional form and the provider take them too; a dot segment is refused before sending", async () => {
    server.requests.length = 0;
    const core = createChainsCore({ baseUrl: server.url, retry: false });
    expect(await chainHead(withEndpoint(core, { network: "mainnet", chainId: "7" }))).toBe(42);
    const provider = createChainsClient({ baseUrl: server.url, retry: false }).at({ network: "testnet", chainId: "9" }).provider;
    expect(await provider.request({ method: "chain_head" })).toBe(42);
    expect(server.requests.map((r) => r.path)).toEqual(["/mainnet/chains/7/rpc", "/testnet/chains/9/rpc"]);
    await expect(chainHead(withEndpoint(core, { network: "mainnet", chainId: ".." }))).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(2);
  });

  describe("its mocks through MSW's setupServer answer any value", () => {
    const mocks = createMocks({ baseUrls: { chains: "http://chains.test" } });
    useMsw(mocks);
    it("at every network and chain; the example's params get the example's result", async () => {
      const client = createChainsClient({ baseUrl: "http://chains.test", retry: false, validateResponse: "strict" });
      for (const chainId of ["1", "43114", "x-y"]) expect(await client.at({ network: "testnet", chainId }).chain.getBlock({ height: 7 })).toEqual({ height: 7, hash: `0x${"0".repeat(63)}7` });
    });
  });
});

describe("what cannot be generated is a diagnostic", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-endpoint-variables-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const doc = (url: string, variables: Record<string, string>, method: string) => ({
    openrpc: "1.3.2",
    info: { title: method, version: "1" },
    servers: [{ name: "s", url, variables: Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, { default: v }])) }],
    methods: [{ name: method, params: [], result: { name: "r", schema: { type: "string" } } }],
  });
  const generate = (specs: { doc: unknown; group: string }[]) => {
    specs.forEach((s, i) => writeFileSync(join(dir, `d${i}.json`), JSON.stringify(s.doc)));
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "x" }, inputs: [{ output: "node", clientName: "Node", baseUrl: "http://127.0.0.1:1", specs: specs.map((s, i) => ({ spec: `d${i}.json`, group: s.group })) }] }));
    return runCli(["generate", "--config", "avaspec.config.json", "--lenient-versions"], dir);
  };

  it("two documents in one group with different path variables", () => {
    const r = generate([
      { doc: doc("http://h/ext/bc/{blockchainId}/rpc", { blockchainId: "C" }, "a_one"), group: "l1" },
      { doc: doc("http://h/ext/{subnet}/validators", { subnet: "s" }, "b_two"), group: "l1" },
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/d1\.json:\d+:\d+ at #\/servers\/0: group "l1" takes \{blockchainId\} for .*d0\.json, but this document's endpoint holds \{subnet\} \[config\/endpoint-variables\]/);
  });

  it("a document without variables inside a group that takes them", () => {
    const r = generate([
      { doc: doc("http://h/ext/bc/{blockchainId}/rpc", { blockchainId: "C" }, "a_one"), group: "l1" },
      { doc: doc("http://h/ext/info", {}, "info_two"), group: "l1.info" },
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/the group "l1" is a function of \{blockchainId\}, but .*d1\.json puts "info_two" inside it without that endpoint \[config\/endpoint-variables\]/);
  });

  it("the WebSocket form of such an endpoint is not generated, with a warning", () => {
    const withSocket = doc("http://h/ext/bc/{blockchainId}/rpc", { blockchainId: "C" }, "a_one") as { servers: unknown[] };
    withSocket.servers.push({ name: "ws", url: "ws://h/ext/bc/{blockchainId}/ws", variables: { blockchainId: { default: "C" } } });
    const r = generate([{ doc: withSocket, group: "l1" }]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/d0\.json:\d+:\d+ at #\/servers\/1: the WebSocket form of an endpoint whose path holds variables is not generated: only its HTTP form is \[openrpc\/server-url\] \(warning\)/);
  });

  it("a variable that holds the whole base URL is the origin, not a path variable", async () => {
    const withOrigin = doc("{node_url}/ext/bc/{blockchainId}/rpc", { blockchainId: "C" }, "a_one") as { servers: { variables: Record<string, unknown> }[] };
    withOrigin.servers[0]!.variables["node_url"] = { default: "https://api.avax.network" };
    const plain = doc("{node_url}/ext/info", {}, "info_two") as { servers: { variables: Record<string, unknown> }[] };
    plain.servers[0]!.variables["node_url"] = { default: "https://api.avax.network" };
    const r = generate([{ doc: withOrigin, group: "l1" }, { doc: plain, group: "info" }]);
    expect(r.status, r.stderr).toBe(0);
    const client = readFileSync(join(dir, "out/src/node/client.ts"), "utf8");
    expect(client).toContain('endpoint: "/ext/bc/{blockchainId}/rpc",');
    expect(client).toContain('endpoint: "/ext/info",');
    expect(client).toMatch(/export type L1Endpoint = \{\n(?:.*\n)*?  readonly blockchainId: string;\n\};/);
    expect(client).not.toContain("node_url");
  });

  it("documents that name the same variables share the function", () => {
    const r = generate([
      { doc: doc("http://h/ext/bc/{blockchainId}/rpc", { blockchainId: "C" }, "a_one"), group: "l1" },
      { doc: doc("http://h/ext/bc/{blockchainId}/validators", { blockchainId: "C" }, "b_two"), group: "l1" },
    ]);
    expect(r.status, r.stderr).toBe(0);
  });
});
