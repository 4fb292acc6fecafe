/**
 * Issue 27: endpoints whose path holds server variables. A Subnet-EVM L1 is
 * served at `/ext/bc/{blockchainId}/rpc` and `/ext/bc/{blockchainId}/validators`
 * (spec/node-l1-*.openrpc.yaml); the node client's group `l1` is a function
 * of the blockchain ID returning the methods bound to that endpoint, with the
 * client's transport, batching, number policy and errors. The functional
 * form takes a core bound with `withEndpoint`, descriptors go through
 * `bindEndpoint`, each L1 has its EIP-1193 provider, and the mocks answer any
 * blockchain ID. A value is percent-encoded like an HTTP path parameter: it
 * can never change which path is called.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, custom, rpcSchema } from "viem";
import { AvaspecError, RpcServerError, ValidationError, bindEndpoint, createRpcTransport, withEndpoint } from "@avaspec/client";
import { InvalidParamsError, NODE_DEFAULT_BASE_URL, ServerError, createNodeClient, createNodeCore, l1EthChainId, l1EthChainIdMethod, l1EthFeeConfig, l1ValidatorsGetCurrentValidators, nodeResults, type L1Endpoint, type L1RpcSchema } from "@avaspec/client/node";
import { createMocks } from "@avaspec/client/mocks";
import { startMockServer, type RunningMockServer } from "@avaspec/client/mock-server";
import { useMsw } from "../helpers/msw.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";

// two real L1s (Dexalot, DFK) and the C-Chain's alias, so that each call's path tells where it went
const DEXALOT = "21Ths5Afqi5r4PaoV8r8cruGZWhN11y5rxvy89K8px7pKy3P8E";
const DFK = "q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi";
const FEE_CONFIG = { feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 }, lastChangedAt: 1735 };
const VALIDATOR = { validationID: "9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo", nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", weight: 20, startTimestamp: 1731445206, isActive: true, isL1Validator: true, isConnected: true, uptimePercentage: 99.5, uptimeSeconds: 86400 };

let server: RpcTestServer;
beforeAll(async () => {
  server = await startRpcServer();
});
afterAll(() => server.close());

/** Answers as an L1 would: its chain id from the path (each L1 its own), the fee config, a validator. */
function answerAsL1s(): void {
  server.answer((env, path) => {
    if (env.method === "eth_chainId") return { result: path.includes(DEXALOT) ? "0x6ad" : path.includes(DFK) ? "0xd2af" : "0xa86a" };
    if (env.method === "eth_feeConfig") return { result: FEE_CONFIG };
    if (env.method === "validators.getCurrentValidators") return { result: { validators: [VALIDATOR] } };
    if (env.method === "eth_blockNumber") return { result: "0x4a3c2e1" };
    return { result: null };
  });
}
const paths = () => server.requests.map((r) => r.path);
const node = (options: Parameters<typeof createNodeClient>[0] = {}) => createNodeClient({ baseUrl: server.url, retry: false, ...options });

describe("node.l1({ blockchainId }): the methods of one L1", () => {
  it("calls go to that L1's endpoints, each ID its own, and come back typed", async () => {
    answerAsL1s();
    server.requests.length = 0;
    const client = createNodeClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });
    const dexalot = client.l1({ blockchainId: DEXALOT });
    const chainId: bigint = await dexalot.eth.chainId();
    const fees = await client.l1({ blockchainId: DFK }).eth.feeConfig();
    const { validators } = await dexalot.validators.getCurrentValidators({ nodeIDs: [VALIDATOR.nodeID] });
    expect(chainId).toBe(0x6adn);
    expect(fees.feeConfig.minBaseFee).toBe(25000000000);
    expect(validators[0]!.uptimePercentage).toBe(99.5);
    expect(paths()).toEqual([`/ext/bc/${DEXALOT}/rpc`, `/ext/bc/${DFK}/rpc`, `/ext/bc/${DEXALOT}/validators`]);
    expect((server.requests[2]!.body as Envelope).params).toEqual({ nodeIDs: [VALIDATOR.nodeID] });
  });

  it("the methods it shares with the C-Chain are the same, at the L1's path, with the number policy", async () => {
    answerAsL1s();
    server.requests.length = 0;
    expect(await node({ numbers: "string" }).l1({ blockchainId: DFK }).eth.blockNumber()).toBe("0x4a3c2e1");
    expect(await node().l1({ blockchainId: DFK }).eth.blockNumber()).toBe(0x4a3c2e1n);
    await node().l1({ blockchainId: DFK }).eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: 41_530_011n });
    expect(paths()).toEqual([`/ext/bc/${DFK}/rpc`, `/ext/bc/${DFK}/rpc`, `/ext/bc/${DFK}/rpc`]);
    expect((server.requests[2]!.body as Envelope).params).toEqual(["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", "0x279b29b"]);
  });

  it("node.batch sends one batch per endpoint; automatic batching groups an L1's calls of one tick", async () => {
    answerAsL1s();
    server.requests.length = 0;
    const results = await node().batch((n) => [n.l1({ blockchainId: DEXALOT }).eth.chainId(), n.l1({ blockchainId: DFK }).eth.chainId(), n.cChain.eth.chainId(), n.l1({ blockchainId: DEXALOT }).eth.feeConfig()] as const);
    expect(results.map((r) => (r.ok ? r.value : r.error))).toEqual([0x6adn, 0xd2afn, 0xa86an, FEE_CONFIG]);
    expect(server.requests.map((r) => [r.path, (r.body as Envelope[]).map((e) => e.method)]).sort()).toEqual([
      [`/ext/bc/${DEXALOT}/rpc`, ["eth_chainId", "eth_feeConfig"]],
      ["/ext/bc/C/rpc", ["eth_chainId"]],
      [`/ext/bc/${DFK}/rpc`, ["eth_chainId"]],
    ]);
    server.requests.length = 0;
    const auto = node({ batch: { auto: true } }).l1({ blockchainId: DFK });
    await Promise.all([auto.eth.chainId(), auto.eth.blockNumber()]);
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]!.body as Envelope[]).map((e) => e.method)).toEqual(["eth_chainId", "eth_blockNumber"]);
  });

  it("errors are the client's: declared classes by code, result checks under strict validation", async () => {
    server.answer(() => ({ error: { code: -32602, message: "invalid argument 0: hex string without 0x prefix" } }));
    await expect(node().l1({ blockchainId: DFK }).eth.feeConfig({ block: "latest" })).rejects.toBeInstanceOf(InvalidParamsError);
    server.answer(() => ({ error: { code: -32000, message: "warp API not enabled" } }));
    const e = await node().l1({ blockchainId: DFK }).warp.getMessage({ messageID: "2ZYpK3uWYLhGk3RhdpPsaTtBXjZkTMqrV5amyYvSvxuwZwpGAD" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toBeInstanceOf(RpcServerError);
    // the P-Chain's form of a weight (a decimal string) is not Subnet-EVM's: refused by the bound method's result check
    server.answer(() => ({ result: { validators: [{ ...VALIDATOR, weight: "20" }] } }));
    const bad = await node({ validateResponse: "strict" }).l1({ blockchainId: DFK }).validators.getCurrentValidators().catch((x: unknown) => x);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).issues[0]!.path).toBe("/validators/0/weight");
  });

  it("the block tag accepted, which the C-Chain refuses, does not warn on an L1 (Subnet-EVM takes it)", async () => {
    answerAsL1s();
    const warnings: string[] = [];
    const client = node({ deprecationWarnings: (m) => warnings.push(m) });
    await client.l1({ blockchainId: DFK }).eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "accepted" });
    expect(warnings).toEqual([]);
    await client.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "accepted" });
    expect(warnings).toHaveLength(1);
  });
});

describe("the blockchain ID cannot change the path", () => {
  it("is percent-encoded: a slash or a question mark stays inside its segment", async () => {
    answerAsL1s();
    server.requests.length = 0;
    await node().l1({ blockchainId: "a/../../../ext/admin" }).eth.chainId();
    await node().l1({ blockchainId: "C?x=1#y" }).eth.chainId();
    expect(paths()).toEqual(["/ext/bc/a%2F..%2F..%2F..%2Fext%2Fadmin/rpc", "/ext/bc/C%3Fx%3D1%23y/rpc"]);
  });

  it.each([
    ["empty", "", /the endpoint variable "blockchainId" must not be empty/],
    ["a dot segment", ".", /must not be "\."/],
    ["a parent segment", "..", /must not be "\.\."/],
  ])("%s is a ValidationError before anything is sent, in a batch too", async (_name, value, message) => {
    server.requests.length = 0;
    const e = await node().l1({ blockchainId: value }).eth.chainId().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).message).toMatch(message);
    expect((e as ValidationError).issues).toEqual([{ path: "/blockchainId", message: expect.stringMatching(message) }]);
    const [r] = await node().batch((n) => [n.l1({ blockchainId: value }).eth.chainId()] as const);
    expect(r.ok ? undefined : r.error).toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });

  it("a missing or non-string value is a ValidationError naming the variable", async () => {
    const missing = await node().l1({} as L1Endpoint).eth.chainId().catch((x: unknown) => x);
    expect((missing as ValidationError).message).toBe('eth_chainId: missing the endpoint variable "blockchainId" (/ext/bc/{blockchainId}/rpc)');
    const number = await node().l1({ blockchainId: 7 as unknown as string }).eth.chainId().catch((x: unknown) => x);
    expect((number as ValidationError).message).toBe('eth_chainId: the endpoint variable "blockchainId" must be a string');
    expect(number).toBeInstanceOf(AvaspecError);
  });
});

describe("the functional form and descriptors take the blockchain ID too", () => {
  it("l1EthChainId(withEndpoint(core, { blockchainId })), over the core's transport", async () => {
    answerAsL1s();
    server.requests.length = 0;
    const core = createNodeCore({ baseUrl: server.url, retry: false, batch: { auto: true } });
    const dexalot = withEndpoint(core, { blockchainId: DEXALOT });
    const [id, fees, set] = await Promise.all([l1EthChainId(dexalot), l1EthFeeConfig(withEndpoint(core, { blockchainId: DFK })), l1ValidatorsGetCurrentValidators(dexalot)]);
    expect(id).toBe(0x6adn);
    expect(fees.lastChangedAt).toBe(1735);
    expect(set.validators).toHaveLength(1);
    // one tick: one request per endpoint
    expect(paths().sort()).toEqual([`/ext/bc/${DEXALOT}/rpc`, `/ext/bc/${DEXALOT}/validators`, `/ext/bc/${DFK}/rpc`]);
    // @ts-expect-error a core without the blockchain ID does not type-check
    await expect(l1EthChainId(core)).rejects.toBeInstanceOf(ValidationError);
  });

  it("rpc.call(bindEndpoint(descriptor, { blockchainId })), its result checked with the module's checks", async () => {
    answerAsL1s();
    server.requests.length = 0;
    const rpc = createRpcTransport({ baseUrl: server.url, retry: false, validateResponse: "strict" }, NODE_DEFAULT_BASE_URL, nodeResults);
    const bound = bindEndpoint(l1EthChainIdMethod, { blockchainId: DFK });
    expect(bound.endpoint).toBe(`/ext/bc/${DFK}/rpc`);
    expect(l1EthChainIdMethod.endpoint).toBe("/ext/bc/{blockchainId}/rpc");
    expect(await rpc.call(bound, {})).toBe("0xd2af");
    server.answer(() => ({ result: 42 }));
    await expect(rpc.call(bound, {})).rejects.toBeInstanceOf(ValidationError);
    expect(paths()).toEqual([`/ext/bc/${DFK}/rpc`, `/ext/bc/${DFK}/rpc`]);
  });
});

describe("an EIP-1193 provider per L1 (viem, ethers)", () => {
  it("viem's public client over node.l1({ blockchainId }).provider reads that L1; undeclared methods go to its path too", async () => {
    answerAsL1s();
    server.requests.length = 0;
    const provider = node().l1({ blockchainId: DEXALOT }).provider;
    const client = createPublicClient({ transport: custom(provider, { retryCount: 0 }), rpcSchema: rpcSchema<L1RpcSchema>() });
    expect(await client.getChainId()).toBe(0x6ad);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(0x4a3c2e1n);
    expect(await provider.request({ method: "eth_feeConfig" })).toEqual(FEE_CONFIG);
    await (provider.request as (a: { method: string; params: unknown[] }) => Promise<unknown>)({ method: "debug_traceTransaction", params: ["0x01"] });
    expect(paths()).toEqual(Array(4).fill(`/ext/bc/${DEXALOT}/rpc`));
    expect((server.requests[3]!.body as Envelope).method).toBe("debug_traceTransaction");
  });
});

describe("mocks answer any blockchain ID", () => {
  describe("MSW setupServer", () => {
    const mocks = createMocks({ baseUrls: { node: "http://l1.test" } });
    useMsw(mocks);

    it("an L1's methods at any ID, strictly valid; the C-Chain's path does not serve them", async () => {
      const client = createNodeClient({ baseUrl: "http://l1.test", retry: false, validateResponse: "strict" });
      for (const id of [DEXALOT, DFK, "any-alias"]) {
        const fees = await client.l1({ blockchainId: id }).eth.feeConfig();
        expect(typeof fees.feeConfig).toBe("object");
        expect(Array.isArray((await client.l1({ blockchainId: id }).validators.getCurrentValidators()).validators)).toBe(true);
        expect(typeof (await client.l1({ blockchainId: id }).eth.chainId())).toBe("bigint");
      }
      const r = await fetch("http://l1.test/ext/bc/C/rpc", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_feeConfig", params: [] }) });
      expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32601);
    });

    it("an override answers for every L1", async () => {
      mocks.override("eth_feeConfig", { body: FEE_CONFIG });
      const client = createNodeClient({ baseUrl: "http://l1.test", retry: false });
      expect(await client.l1({ blockchainId: DFK }).eth.feeConfig()).toEqual(FEE_CONFIG);
    });
  });

  describe("the standalone mock server over real HTTP", () => {
    let mock: RunningMockServer;
    const lines: string[] = [];
    beforeAll(async () => {
      mock = await startMockServer({ port: 0, seed: 27, log: (l) => lines.push(l) });
    });
    afterAll(() => mock.close());

    it("serves /ext/bc/<any id>/rpc and /validators; another path below /ext/bc/<id>/ is not found", async () => {
      const client = createNodeClient({ baseUrl: mock.url, retry: false, validateResponse: "strict" });
      const a = client.l1({ blockchainId: DEXALOT });
      expect(typeof (await a.eth.feeConfig()).feeConfig).toBe("object");
      expect(Array.isArray((await client.l1({ blockchainId: "x%y" }).validators.getCurrentValidators()).validators)).toBe(true);
      const other = await fetch(`${mock.url}/ext/bc/${DFK}/rpc/extra`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }) });
      expect(other.status).toBe(404);
      expect(lines.map((l) => l.replace(/ \d+ms$/, ""))).toEqual([`POST /ext/bc/${DEXALOT}/rpc → 200 (eth_feeConfig)`, "POST /ext/bc/x%25y/validators → 200 (validators.getCurrentValidators)", `POST /ext/bc/${DFK}/rpc/extra → 404`]);
    });
  });
});
