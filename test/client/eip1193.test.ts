/**
 * The EIP-1193 provider of the C-Chain endpoint (`node.cChain.provider`) as a
 * transport of a real viem public client, against a loopback JSON-RPC
 * server: what viem's actions return, what goes over the wire, how errors
 * reach viem, and that avaspec's batching applies; ethers' BrowserProvider
 * over it; the generator side of `x-avaspec-eip1193` on any document.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BaseError, InvalidInputRpcError, InvalidParamsRpcError, UnsupportedProviderMethodError, createPublicClient, custom, rpcSchema } from "viem";
import { avalanche } from "viem/chains";
import { BrowserProvider } from "ethers";
import { AbortError, ApiError, ProviderRpcError, RpcError, createEip1193Provider, createRpcTransport } from "@avaspec/client";
import { cChainProviderMethods, createNodeClient, ServerError, type CChainRpcSchema, type NodeClient, type NodeClientOptions } from "@avaspec/client/node";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";
import { ROOT, TSC, runCli } from "../helpers/cli.js";

const ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const ENDPOINT = "/ext/bc/C/rpc";

let server: RpcTestServer;

beforeAll(async () => {
  server = await startRpcServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.raw(undefined);
  server.order(undefined);
  server.answer((env) => {
    switch (env.method) {
      case "eth_chainId":
        return { result: "0xa86a" };
      case "eth_blockNumber":
        return { result: "0x4b7" };
      case "eth_getBalance":
        return { result: "0xde0b6b3a7640000" };
      default:
        return { result: null };
    }
  });
});

function node(options: NodeClientOptions = {}): NodeClient {
  return createNodeClient({ baseUrl: server.url, retry: false, ...options });
}

/** A viem public client over the provider; avaspec retries, so viem does not. */
function viem(provider: NodeClient["cChain"]["provider"]) {
  return createPublicClient({ chain: avalanche, transport: custom(provider, { retryCount: 0 }), cacheTime: 0 });
}

const envelopes = (): Envelope[] => server.requests.flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]));

describe("a viem public client over node.cChain.provider", () => {
  it("getBlockNumber, getBalance and getChainId return viem's values from the exact JSON-RPC on the wire", async () => {
    const client = viem(node().cChain.provider);
    expect(await client.getBlockNumber()).toBe(1207n);
    expect(await client.getBalance({ address: ADDRESS })).toBe(10n ** 18n);
    expect(await client.getBalance({ address: ADDRESS, blockNumber: 1207n })).toBe(10n ** 18n);
    expect(await client.getChainId()).toBe(43114);
    expect(server.requests.map((r) => r.path)).toEqual([ENDPOINT, ENDPOINT, ENDPOINT, ENDPOINT]);
    expect(server.requests.every((r) => !Array.isArray(r.body))).toBe(true);
    expect(envelopes().map(({ method, params, jsonrpc }) => ({ jsonrpc, method, params }))).toEqual([
      { jsonrpc: "2.0", method: "eth_blockNumber", params: [] },
      { jsonrpc: "2.0", method: "eth_getBalance", params: [ADDRESS, "latest"] },
      { jsonrpc: "2.0", method: "eth_getBalance", params: [ADDRESS, "0x4b7"] },
      { jsonrpc: "2.0", method: "eth_chainId", params: [] },
    ]);
  });

  it("client.request is typed by CChainRpcSchema and sends the params as given", async () => {
    const client = createPublicClient({ transport: custom(node().cChain.provider, { retryCount: 0 }), rpcSchema: rpcSchema<CChainRpcSchema>() });
    const balance: string = await client.request({ method: "eth_getBalance", params: [ADDRESS, "latest"] });
    expect(balance).toBe("0xde0b6b3a7640000");
    expect(envelopes()[0]).toMatchObject({ method: "eth_getBalance", params: [ADDRESS, "latest"] });
  });

  it("an error reply reaches viem with its code: -32000 as InvalidInputRpcError, -32602 as InvalidParamsRpcError, others in the cause", async () => {
    const client = viem(node().cChain.provider);
    server.answer((env) => (env.method === "eth_getBalance" ? { error: { code: -32000, message: "header not found" } } : { result: null }));
    const first = await client.getBalance({ address: ADDRESS }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(BaseError);
    const input = (first as BaseError).walk((e) => e instanceof InvalidInputRpcError) as InvalidInputRpcError;
    expect(input).toBeInstanceOf(InvalidInputRpcError);
    expect(input.code).toBe(-32000);
    // the cause is the client's declared error class, with the server's message
    const ours = (first as BaseError).walk((e) => e instanceof ServerError) as ServerError;
    expect(ours).toBeInstanceOf(ServerError);
    expect(ours.rpcMessage).toBe("header not found");

    server.answer(() => ({ error: { code: -32602, message: "invalid argument 1" } }));
    const second = await client.getBalance({ address: ADDRESS }).catch((e: unknown) => e);
    expect((second as BaseError).walk((e) => e instanceof InvalidParamsRpcError)).toMatchObject({ code: -32602 });

    // a code viem has no class for: UnknownRpcError, whose cause carries the code and the data
    server.answer(() => ({ error: { code: 3, message: "execution reverted", data: "0x08c379a0" } }));
    const third = await client.request({ method: "eth_getBalance", params: [ADDRESS, "latest"] }).catch((e: unknown) => e);
    const rpc = (third as BaseError).walk((e) => e instanceof RpcError) as RpcError;
    expect(rpc).toBeInstanceOf(RpcError);
    expect(rpc.code).toBe(3);
    expect(rpc.data).toBe("0x08c379a0");
  });

  it("with batch.auto, concurrent viem calls go out as batch arrays of at most 40", async () => {
    const client = viem(node({ batch: { auto: true } }).cChain.provider);
    const addresses = Array.from({ length: 45 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}` as const);
    const balances = await Promise.all(addresses.map((address) => client.getBalance({ address })));
    expect(balances).toEqual(addresses.map(() => 10n ** 18n));
    expect(server.requests).toHaveLength(2);
    const [a, b] = server.requests.map((r) => r.body as Envelope[]);
    expect(a).toHaveLength(40);
    expect(b).toHaveLength(5);
    expect([...a!, ...b!].map((e) => e.params)).toEqual(addresses.map((address) => [address, "latest"]));
  });

  it("inside node.batch, provider calls join the batch", async () => {
    const results = await node().batch((c) => [c.cChain.provider.request({ method: "eth_chainId" }), c.cChain.eth.blockNumber()]);
    // the provider answers the wire's hex; the client's own method its bigint
    expect(results).toEqual([
      { ok: true, value: "0xa86a" },
      { ok: true, value: 1207n },
    ]);
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as Envelope[]).map((e) => e.method)).toEqual(["eth_chainId", "eth_blockNumber"]);
  });
});

describe("ethers over node.cChain.provider", () => {
  it("BrowserProvider reads the chain id, block number and balance over it", async () => {
    const ethers = new BrowserProvider(node().cChain.provider);
    try {
      expect((await ethers.getNetwork()).chainId).toBe(43114n);
      expect(await ethers.getBlockNumber()).toBe(1207);
      expect(await ethers.getBalance(ADDRESS, "latest")).toBe(10n ** 18n);
      expect(envelopes().every((e) => ["eth_chainId", "eth_blockNumber", "eth_getBalance"].includes(e.method))).toBe(true);
      expect(envelopes().find((e) => e.method === "eth_getBalance")!.params).toEqual([ADDRESS.toLowerCase(), "latest"]);
    } finally {
      ethers.destroy();
    }
  });

  it("an error reply reaches ethers with its code", async () => {
    const ethers = new BrowserProvider(node().cChain.provider);
    try {
      await ethers.getNetwork();
      server.answer((env) => (env.method === "eth_getBalance" ? { error: { code: -32000, message: "header not found" } } : { result: "0xa86a" }));
      const error = await ethers.getBalance(ADDRESS, "latest").catch((e: unknown) => e);
      expect(error).toMatchObject({ error: { code: -32000 } });
    } finally {
      ethers.destroy();
    }
  });
});

describe("provider.request", () => {
  it("forwards a method the document does not declare as given, to the C-Chain endpoint", async () => {
    const provider = node().cChain.provider as { request(args: { method: string; params?: unknown }): Promise<unknown> };
    server.answer(() => ({ result: { ok: 1 } }));
    // debug_getRawBlock: libevm's DebugAPI, left out of the documents (registered only with DB inspecting enabled)
    expect(await provider.request({ method: "debug_getRawBlock", params: ["latest"] })).toEqual({ ok: 1 });
    expect(await provider.request({ method: "avax_custom", params: { a: 1 } })).toEqual({ ok: 1 });
    expect(server.requests.map((r) => r.path)).toEqual([ENDPOINT, ENDPOINT]);
    expect(envelopes().map(({ method, params }) => ({ method, params }))).toEqual([
      { method: "debug_getRawBlock", params: ["latest"] },
      { method: "avax_custom", params: { a: 1 } },
    ]);
  });

  it("with unknownMethods: \"reject\", an undeclared method fails with 4200 before anything is sent, and viem maps it", async () => {
    const rpc = createRpcTransport({ baseUrl: server.url, retry: false }, server.url);
    const provider = createEip1193Provider<CChainRpcSchema>(rpc.call, ENDPOINT, cChainProviderMethods, { unknownMethods: "reject" });
    const error = await (provider as { request(a: { method: string }): Promise<unknown> }).request({ method: "wallet_switchEthereumChain" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect(error).toMatchObject({ code: 4200 });
    const viaViem = await viem(provider).request({ method: "debug_getRawBlock" } as never).catch((e: unknown) => e);
    expect((viaViem as BaseError).walk((e) => e instanceof UnsupportedProviderMethodError)).toMatchObject({ code: 4200 });
    expect(await provider.request({ method: "eth_chainId" })).toBe("0xa86a");
    expect(envelopes().map((e) => e.method)).toEqual(["eth_chainId"]);
  });

  it("params the method's check rejects fail with -32602 and are not sent", async () => {
    const provider = node().cChain.provider;
    const error = await provider.request({ method: "eth_getBalance", params: ["not an address" as never, "latest"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect(error).toMatchObject({ code: -32602 });
    expect(server.requests).toHaveLength(0);
  });

  it("more positional params than declared are sent as given (eth_call with a state override)", async () => {
    const provider = node().cChain.provider as { request(args: { method: string; params?: unknown }): Promise<unknown> };
    await provider.request({ method: "eth_call", params: [{ to: ADDRESS, data: "0x" }, "latest", { [ADDRESS]: { balance: "0x1" } }] });
    expect(envelopes()[0]!.params).toEqual([{ to: ADDRESS, data: "0x" }, "latest", { [ADDRESS]: { balance: "0x1" } }]);
  });

  it("one-object methods take the array holding the object (eth_getLogs)", async () => {
    server.answer(() => ({ result: [] }));
    expect(await node().cChain.provider.request({ method: "eth_getLogs", params: [{ fromBlock: "0x1", toBlock: "latest", address: ADDRESS }] })).toEqual([]);
    expect(envelopes()[0]!.params).toEqual([{ fromBlock: "0x1", toBlock: "latest", address: ADDRESS }]);
  });

  it("an HTTP failure is a ProviderRpcError with code -32603 whose cause is the ApiError", async () => {
    server.raw(() => ({ status: 502, body: "bad gateway" }));
    const error = await node().cChain.provider.request({ method: "eth_blockNumber" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect((error as ProviderRpcError).code).toBe(-32603);
    expect((error as ProviderRpcError).cause).toBeInstanceOf(ApiError);
  });

  it("a request that is not { method } is rejected with -32600", async () => {
    const provider = node().cChain.provider as unknown as { request(args: unknown): Promise<unknown> };
    await expect(provider.request({ params: [] })).rejects.toMatchObject({ code: -32600 });
    await expect(provider.request({ method: "eth_chainId", params: 5 })).rejects.toMatchObject({ code: -32602 });
  });

  it("a signal passed as the second argument aborts the call with avaspec's AbortError", async () => {
    const error = await node().cChain.provider.request({ method: "eth_blockNumber" }, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });

  it("on and removeListener accept listeners and return the provider (no events over HTTP)", () => {
    const provider = node().cChain.provider;
    const listener = () => {};
    expect(provider.on("chainChanged", listener)).toBe(provider);
    expect(provider.removeListener("chainChanged", listener)).toBe(provider);
  });
});

describe("x-avaspec-eip1193 on any OpenRPC document", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "avaspec-eip1193-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const doc = (flag: unknown) => ({
    openrpc: "1.3.2",
    "x-avaspec-eip1193": flag,
    info: { title: "Chain", version: "1" },
    servers: [{ name: "rpc", url: "https://rpc.example/ext/bc/X/rpc" }],
    methods: [
      { name: "eth_chainId", params: [], result: { name: "id", schema: { type: "string" } } },
      { name: "eth_getCode", paramStructure: "by-position", params: [{ name: "address", required: true, schema: { type: "string" } }, { name: "block", schema: { type: "string" } }], result: { name: "code", schema: { type: "string" } } },
      { name: "demo.echo", paramStructure: "by-name", params: [{ name: "text", schema: { type: "string" } }], result: { name: "text", schema: { type: "string" } } },
      { name: "provider", params: [], result: { name: "name", schema: { type: "string" } } },
    ],
  });
  const generate = (flag: unknown) => {
    writeFileSync(join(dir, "doc.json"), JSON.stringify(doc(flag), null, 2));
    // one scratch output for unrelated documents: their changes are not releases to version
    return runCli(["generate", "--input", "doc.json", "--out", "out", "--client-name", "Chain", "--lenient-versions"], dir);
  };

  it("a top-level document gets client.provider, its RpcSchema and descriptors, and the package compiles", () => {
    const r = generate(true);
    expect(r.status).toBe(0);
    // the method named `provider` gives way to the provider, with a warning
    expect(r.stderr).toMatch(/method name "provider" is taken; using "provider2" \[naming\/collision\] \(warning\)/);
    const client = readFileSync(join(dir, "out/src/doc/client.ts"), "utf8");
    expect(client).toContain('{ Method: "eth_chainId"; Parameters?: undefined; ReturnType: EthChainIdResult },');
    expect(client).toContain('{ Method: "eth_getCode"; Parameters: [address: EthGetCodeParams["address"], block?: EthGetCodeParams["block"]]; ReturnType: EthGetCodeResult },');
    expect(client).toContain('{ Method: "demo.echo"; Parameters?: DemoEchoParams; ReturnType: DemoEchoResult },');
    expect(client).toContain("readonly provider: Eip1193Provider<ChainRpcSchema>;");
    expect(client).toContain('provider: createEip1193Provider<ChainRpcSchema>(call, "", chainProviderMethods),');
    expect(client).toContain("provider2(params?: Provider2Params, options?: CallOptions): Promise<Provider2Result>;");
    // the package's devDependencies (the MCP entry's SDK and sandbox among them) as an `npm install` would give them
    if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const tsc = spawnSync(process.execPath, [TSC, "-p", join(dir, "out/tsconfig.json"), "--noEmit", "--typeRoots", join(ROOT, "node_modules/@types")], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("without the extension (or with false) there is no provider", () => {
    expect(generate(false).status).toBe(0);
    const client = readFileSync(join(dir, "out/src/doc/client.ts"), "utf8");
    expect(client).not.toContain("Eip1193");
    expect(client).toContain("provider(params?: ProviderParams, options?: CallOptions): Promise<ProviderResult>;");
  });

  it("a value that is not a boolean is a diagnostic at its pointer", () => {
    const r = generate("yes");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/doc\.json:\d+:\d+ at #\/x-avaspec-eip1193: x-avaspec-eip1193 must be true or false, got "yes" \[extension\/eip1193\]/);
  });
});

// Type level only (compiled by `npm run typecheck`, never run).
export function typeLevel(provider: NodeClient["cChain"]["provider"]): void {
  const balance: Promise<string> = provider.request({ method: "eth_getBalance", params: [ADDRESS, "latest"] });
  const block: Promise<string> = provider.request({ method: "eth_blockNumber" });
  void provider.request({ method: "eth_blockNumber", params: [] });
  void provider.request({ method: "eth_getLogs", params: [{ fromBlock: "0x1" }] });
  void provider.request({ method: "eth_call", params: [{ to: ADDRESS }] });
  void balance;
  void block;
  // @ts-expect-error a method the C-Chain document does not declare
  void provider.request({ method: "eth_notAMethod" });
  // @ts-expect-error a method of another endpoint
  void provider.request({ method: "info.getNodeVersion" });
  // @ts-expect-error wrong param type
  void provider.request({ method: "eth_getBalance", params: [1, "latest"] });
  // @ts-expect-error eth_getBalance needs its params
  void provider.request({ method: "eth_getBalance" });
  // @ts-expect-error the result of eth_getBalance is a hex string, not a bigint
  const wrong: Promise<bigint> = provider.request({ method: "eth_getBalance", params: [ADDRESS, "latest"] });
  void wrong;
  const client = createPublicClient({ transport: custom(provider), rpcSchema: rpcSchema<CChainRpcSchema>() });
  // @ts-expect-error viem's client.request is typed by the schema too
  void client.request({ method: "eth_getBalance", params: [ADDRESS] });
}
