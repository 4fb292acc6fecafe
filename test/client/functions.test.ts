/**
 * Issue 17 (7), the tree-shakable form: one exported function per operation,
 * `getChainInfo(core, params)`, over a shared state made by
 * `create…Core(options)`, against real loopback servers. The functions do
 * what the client objects do (parameter checks before sending, retries,
 * typed errors, the number policy, automatic batching across functions).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, ValidationError } from "@avaspec/client";
import { createDataApiCore, dataApiResults, getChainInfo, listBlockchains } from "@avaspec/client/data-api";
import { cChainEthBlockNumber, cChainEthGetBalance, cChainEthGetBlockByNumber, createNodeCore, infoGetNodeVersion } from "@avaspec/client/node";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";
import { startServer, type TestServer } from "../helpers/server.js";

const CHAIN = { chainId: "43114", status: "OK", chainName: "Avalanche (C-Chain)", description: "C-Chain", platformChainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", subnetId: "11111111111111111111111111111111LpoYY", vmId: "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6", vmName: "EVM", explorerUrl: "https://subnets.avax.network/c-chain", rpcUrl: "https://api.avax.network/ext/bc/C/rpc", utilityAddresses: { multicall: "0xed386Fe855C1EFf2f843B910923Dd8846E45C5A4" }, networkToken: { name: "Avalanche", symbol: "AVAX", decimals: 18, logoUri: "https://images.ctfassets.net/gcj8jwzm6086/5VHupNKwnDYJvqMENeV7iJ/3e4b8ff10b69bfa31e70080a4b142cd0/avalanche-avax-logo.svg", description: "AVAX" }, chainLogoUri: "https://images.ctfassets.net/gcj8jwzm6086/5VHupNKwnDYJvqMENeV7iJ/3e4b8ff10b69bfa31e70080a4b142cd0/avalanche-avax-logo.svg", private: false, enabledFeatures: ["nftIndexing", "webhooks"] };
const ADDRESS = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";

let http: TestServer;
let rpc: RpcTestServer;
beforeAll(async () => {
  http = await startServer();
  rpc = await startRpcServer();
});
afterAll(async () => {
  await http.close();
  await rpc.close();
});
beforeEach(() => {
  http.requests.length = 0;
  rpc.requests.length = 0;
});

describe("HTTP functions (Data API)", () => {
  it("getChainInfo(core, params) sends the request the client object sends, API key included", async () => {
    http.reply(() => ({ body: CHAIN }));
    const api = createDataApiCore({ baseUrl: http.url, apiKey: "secret", retry: false });
    await expect(getChainInfo(api, { chainId: "43114" })).resolves.toEqual(CHAIN);
    expect(http.requests).toHaveLength(1);
    expect(http.requests[0]!.url).toBe("/v1/chains/43114");
    expect(http.requests[0]!.headers["x-glacier-api-key"]).toBe("secret");
  });

  it("retries an idempotent call, and a non-2XX reply is a typed ApiError carrying status and body", async () => {
    let n = 0;
    http.reply(() => (++n === 1 ? { status: 503, body: { message: "busy" } } : { body: CHAIN }));
    const api = createDataApiCore({ baseUrl: http.url, retry: { retries: 1, baseDelayMs: 1 } });
    await expect(getChainInfo(api, { chainId: "43114" })).resolves.toEqual(CHAIN);
    expect(http.requests).toHaveLength(2);
    http.reply(() => ({ status: 404, body: { message: "no such chain", statusCode: 404 } }));
    const error = await getChainInfo(createDataApiCore({ baseUrl: http.url, retry: false }), { chainId: "1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(404);
  });

  it("a bad parameter is a ValidationError naming it, before anything is sent", async () => {
    const api = createDataApiCore({ baseUrl: http.url, retry: false });
    const error = await listBlockchains(api, { network: "nope" as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/listBlockchains: parameter "network"/);
    expect(http.requests).toHaveLength(0);
  });

  it("validateResponse needs the results, which the core factory takes as an option", async () => {
    expect(() => createDataApiCore({ baseUrl: http.url, validateResponse: "strict" })).toThrow(/needs the module.s …Results: pass them as `results`/);
    http.reply(() => ({ body: { ...CHAIN, chainId: 1 } }));
    const strict = createDataApiCore({ baseUrl: http.url, retry: false, validateResponse: "strict", results: dataApiResults });
    await expect(getChainInfo(strict, { chainId: "43114" })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("JSON-RPC functions (node)", () => {
  it("results follow the core's numbers: bigint by default, the wire's hex when asked", async () => {
    rpc.answer(() => ({ result: "0xde0b6b3a7640000" }));
    const node = createNodeCore({ baseUrl: rpc.url, retry: false });
    await expect(cChainEthGetBalance(node, { address: ADDRESS, block: 5n })).resolves.toBe(10n ** 18n);
    expect((rpc.requests.at(-1)!.body as Envelope).params).toEqual([ADDRESS, "0x5"]);
    const wire = createNodeCore({ baseUrl: rpc.url, retry: false, numbers: "string" });
    await expect(cChainEthGetBalance(wire, { address: ADDRESS, block: "latest" })).resolves.toBe("0xde0b6b3a7640000");
  });

  it("functions share the core's transport: calls made in one tick go as one batch", async () => {
    rpc.answer((env) => ({ result: env.method === "eth_blockNumber" ? "0x2a" : "0x1" }));
    const node = createNodeCore({ baseUrl: rpc.url, retry: false, batch: { auto: true } });
    const [height, balance] = await Promise.all([cChainEthBlockNumber(node), cChainEthGetBalance(node, { address: ADDRESS, block: "latest" })]);
    expect([height, balance]).toEqual([42n, 1n]);
    expect(rpc.requests).toHaveLength(1);
    expect((rpc.requests[0]!.body as Envelope[]).map((e) => e.method)).toEqual(["eth_blockNumber", "eth_getBalance"]);
  });

  it("overloads follow hydratedTransactions, and methods without integers need no type argument", async () => {
    rpc.answer((env) => ({ result: env.method === "eth_getBlockByNumber" ? null : { version: "avalanchego/1.14.0", databaseVersion: "v1.4.5", rpcProtocolVersion: "42", gitCommit: "abc", vmVersions: {} } }));
    const node = createNodeCore({ baseUrl: rpc.url, retry: false });
    await expect(cChainEthGetBlockByNumber(node, { block: "latest", hydratedTransactions: true })).resolves.toBeNull();
    const version = await infoGetNodeVersion(node);
    expect(version.rpcProtocolVersion).toBe(42n);
  });
});
