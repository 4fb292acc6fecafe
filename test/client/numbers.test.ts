/**
 * Issue 17 (1), the number policy at run time, against real loopback
 * servers: integers the spec sends as strings (`x-avaspec-integer`) come
 * back as bigints from the node client by default and as the wire's strings
 * under `numbers: "string"` (the HTTP clients' default); parameters take a
 * bigint, a number or a string and go out in the exact wire form (hex
 * quantities for eth_, decimal for the P-Chain and the Data API), and a
 * negative, fractional or out-of-range value is a ValidationError naming the
 * parameter before anything is sent. Validators and mocks follow the policy.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setupServer } from "msw/node";
import { ValidationError } from "@avaspec/client";
import { RpcError } from "@avaspec/client";
import { createNodeClient, validateBalanceResult, validateUint } from "@avaspec/client/node";
import { createDataApiClient, validateGetNativeBalanceResponse } from "@avaspec/client/data-api";
import { createMocks } from "@avaspec/client/mocks";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";
import { startServer, type TestServer } from "../helpers/server.js";

const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_UINT64 = 2n ** 64n - 1n;
const ADDRESS = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";

let rpc: RpcTestServer;
let http: TestServer;
beforeAll(async () => {
  rpc = await startRpcServer();
  http = await startServer();
});
afterAll(async () => {
  await rpc.close();
  await http.close();
});
beforeEach(() => {
  rpc.requests.length = 0;
  http.requests.length = 0;
});

/** Deprecation warnings (platform.getBalance is deprecated): collected, not printed; checked where it is called. */
const warnings = new Set<string>();
const node = (numbers?: "bigint" | "string") => createNodeClient({ baseUrl: rpc.url, retry: false, deprecationWarnings: (m) => void warnings.add(m), ...(numbers ? { numbers } : {}) });
const sent = (): Envelope => rpc.requests.at(-1)!.body as Envelope;

describe("results", () => {
  it.each([
    ["0x0", 0n],
    ["0x1bc16d674ec80000", 2000000000000000000n],
    [`0x${"f".repeat(64)}`, MAX_UINT256],
    ["0XFF", 255n],
  ])("eth_getBalance %s is %s under the default (bigint), and the wire's string under numbers: \"string\"", async (wire, value) => {
    rpc.answer(() => ({ result: wire }));
    await expect(node().cChain.eth.getBalance({ address: ADDRESS, block: "latest" })).resolves.toBe(value);
    await expect(node("string").cChain.eth.getBalance({ address: ADDRESS, block: "latest" })).resolves.toBe(wire);
  });

  it("decimal strings (P-Chain Uint64String) come back as bigints, nested ones too, and the rest untouched", async () => {
    rpc.answer(() => ({ result: { balance: "18446744073709551615", unlocked: "0", lockedStakeable: "5", lockedNotStakeable: "0", utxoIDs: [] } }));
    const r = await node().platform.getBalance({ addresses: ["P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c"] });
    expect(r).toMatchObject({ balance: MAX_UINT64, unlocked: 0n, lockedStakeable: 5n, utxoIDs: [] });
    expect(warnings).toContain("platform.getBalance is deprecated");
  });

  it("a block's quantities are bigints, inside hydrated transactions as well; hashes and addresses stay strings", async () => {
    const tx = { hash: `0x${"a".repeat(64)}`, nonce: "0x2", value: "0xde0b6b3a7640000", gas: "0x5208", from: ADDRESS, blockNumber: "0x10", transactionIndex: "0x0", input: "0x" };
    const block = { number: "0x10", hash: `0x${"b".repeat(64)}`, gasUsed: "0x5208", timestamp: "0x65000000", transactions: [tx] };
    rpc.answer(() => ({ result: block }));
    const r = (await node().cChain.eth.getBlockByNumber({ block: 16n, hydratedTransactions: true }))!;
    expect(r.number).toBe(16n);
    expect(r.hash).toBe(block.hash);
    expect(r.timestamp).toBe(0x65000000n);
    expect(r.transactions[0]).toMatchObject({ nonce: 2n, value: 10n ** 18n, gas: 21000n, from: ADDRESS, hash: tx.hash, input: "0x" });
    expect(sent().params).toEqual(["0x10", true]);
  });

  it("a server value that is not an integer is left as sent (nothing throws without strict validation)", async () => {
    rpc.answer(() => ({ result: "not-hex" }));
    await expect(node().cChain.eth.getBalance({ address: ADDRESS, block: "latest" })).resolves.toBe("not-hex");
  });

  it("batched calls are decoded too, and per call `numbers` overrides the client's", async () => {
    rpc.answer((env) => ({ result: env.method === "eth_blockNumber" ? "0x2a" : "0xa86a" }));
    const [a, b] = await node().batch((n) => [n.cChain.eth.blockNumber(), n.cChain.eth.chainId()] as const);
    expect(a).toEqual({ ok: true, value: 42n });
    expect(b).toEqual({ ok: true, value: 43114n });
    await expect(node().cChain.eth.blockNumber(undefined, { numbers: "string" })).resolves.toBe("0x2a");
  });

  it("the EIP-1193 provider answers the wire's hex whatever the client's numbers", async () => {
    rpc.answer(() => ({ result: "0x2a" }));
    await expect(node().cChain.provider.request({ method: "eth_blockNumber" })).resolves.toBe("0x2a");
  });

  it("HTTP clients answer the wire's strings by default and bigints under numbers: \"bigint\"", async () => {
    const body = { nativeTokenBalance: { name: "Avalanche", symbol: "AVAX", decimals: 18, balance: "123456789012345678901234567890", chainId: "43114", price: { currencyCode: "usd", value: "24.51" }, balanceValue: { currencyCode: "usd", value: "0" } } };
    http.reply(() => ({ body }));
    const data = createDataApiClient({ baseUrl: http.url, retry: false });
    const asString = await data.getNativeBalance({ chainId: "43114", address: ADDRESS });
    expect(asString.nativeTokenBalance.balance).toBe("123456789012345678901234567890");
    const asBigint = await createDataApiClient({ baseUrl: http.url, retry: false, numbers: "bigint" }).getNativeBalance({ chainId: "43114", address: ADDRESS });
    expect(asBigint.nativeTokenBalance.balance).toBe(123456789012345678901234567890n);
    // a decimal with a fraction is not an integer: the price stays a string
    expect(asBigint.nativeTokenBalance.price?.value).toBe("24.51");
  });
});

describe("parameters", () => {
  it.each<[bigint | number | `0x${string}` | "latest", string]>([
    [0n, "0x0"],
    [0, "0x0"],
    [436, "0x1b4"],
    [MAX_UINT256, `0x${"f".repeat(64)}`],
    ["0x1b4", "0x1b4"],
    ["latest", "latest"],
  ])("eth_getBalance block %s goes out as %s", async (block, wire) => {
    rpc.answer(() => ({ result: "0x0" }));
    await node().cChain.eth.getBalance({ address: ADDRESS, block });
    expect(sent().params).toEqual([ADDRESS, wire]);
  });

  it.each([
    [-1n, /parameter "block" .*must not be negative/],
    [-1, /parameter "block" .*must not be negative/],
    [1.5, /parameter "block" .*must be an integer, got 1\.5/],
    [2n ** 256n, /parameter "block" .*must be at most 1157920892373161954235709850086879078532699846656405640394575840079131\d+ \(an unsigned 256-bit integer\)/],
    [2 ** 53, /parameter "block" .*MAX_SAFE_INTEGER.*pass a bigint/],
  ])("eth_getBalance block %s is a ValidationError naming the parameter, before anything is sent", async (block, message) => {
    const error = await node().cChain.eth.getBalance({ address: ADDRESS, block }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(message);
    expect((error as ValidationError).issues[0]!.path).toBe("/block");
    expect(rpc.requests).toHaveLength(0);
  });

  it.each([
    [0n, "0"],
    [MAX_UINT64, "18446744073709551615"],
    // HeightParam is a JSON integer or a decimal string: a number the union takes goes as given
    [1000001, 1000001],
    ["42", "42"],
  ])("platform.getBlockByHeight height %s goes out as %s (decimal)", async (height, wire) => {
    rpc.answer(() => ({ result: { block: "0x00", encoding: "hex" } }));
    await node().platform.getBlockByHeight({ height });
    expect(sent().params).toEqual({ height: wire });
  });

  it("a 64-bit decimal parameter refuses 2^64 and negatives", async () => {
    for (const height of [2n ** 64n, -5n]) {
      const error = await node().platform.getBlockByHeight({ height }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toMatch(/platform\.getBlockByHeight: parameter "height"/);
    }
    expect(rpc.requests).toHaveLength(0);
  });

  it("nested integers (an eth_call transaction object) are written in hex; the caller's object is not modified", async () => {
    rpc.answer(() => ({ result: "0x" }));
    const tx = { from: ADDRESS, to: ADDRESS, value: 10n ** 18n, gas: 21000 } as const;
    await node().cChain.eth.call({ transaction: tx, block: "latest" });
    expect((sent().params as unknown[])[0]).toMatchObject({ value: "0xde0b6b3a7640000", gas: "0x5208" });
    expect(tx.value).toBe(10n ** 18n);
  });

  it("HTTP query parameters are written in decimal (Data API blockNumber)", async () => {
    http.reply(() => ({ body: { nativeTokenBalance: { name: "Avalanche", symbol: "AVAX", decimals: 18, balance: "0", chainId: "43114" } } }));
    const data = createDataApiClient({ baseUrl: http.url, retry: false });
    await data.getNativeBalance({ chainId: "43114", address: ADDRESS, blockNumber: 41530011n });
    expect(http.requests.at(-1)!.url).toContain("blockNumber=41530011");
    const error = await data.getNativeBalance({ chainId: "43114", address: ADDRESS, blockNumber: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/getNativeBalance: parameter "blockNumber" must not be negative/);
    expect(http.requests).toHaveLength(1);
  });
});

describe("validators", () => {
  it("check the wire form, and with numbers: \"bigint\" return a decoded copy", () => {
    const balance = { balance: "18446744073709551615", unlocked: "0", lockedStakeable: "0", lockedNotStakeable: "0", balances: {}, unlockeds: {}, lockedStakeables: {}, lockedNotStakeables: {}, utxoIDs: [] };
    const wire = validateBalanceResult(balance);
    expect(wire.ok && wire.value.balance).toBe("18446744073709551615");
    const decoded = validateBalanceResult(balance, { numbers: "bigint" });
    expect(decoded.ok && decoded.value.balance).toBe(MAX_UINT64);
    expect(balance.balance).toBe("18446744073709551615");
    expect(validateBalanceResult({ ...balance, balance: 1n }, { numbers: "bigint" }).ok).toBe(false);
    expect(validateUint("0x1", { numbers: "bigint" })).toEqual({ ok: true, value: 1n });
    // a bigint is not the wire form
    expect(validateUint(1n).ok).toBe(false);
    const response = validateGetNativeBalanceResponse({ nativeTokenBalance: { name: "A", symbol: "A", decimals: 18, balance: "7", chainId: "1" } }, { numbers: "bigint" });
    expect(response.ok && response.value.nativeTokenBalance.balance).toBe(7n);
  });
});

describe("mocks", () => {
  const mocks = createMocks();
  const msw = setupServer(...mocks.handlers);
  beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
  afterAll(() => msw.close());
  beforeEach(() => mocks.reset());

  it("override bodies take bigints and numbers for integers and serve the wire form", async () => {
    mocks.override("eth_getBalance", { body: MAX_UINT256 });
    mocks.override("eth_blockNumber", { body: 42 });
    const client = createNodeClient({ retry: false });
    await expect(client.cChain.eth.getBalance({ address: ADDRESS, block: "latest" })).resolves.toBe(MAX_UINT256);
    await expect(createNodeClient({ retry: false, numbers: "string" }).cChain.eth.blockNumber()).resolves.toBe("0x2a");
    mocks.override("getNativeBalance", { body: { nativeTokenBalance: { name: "A", symbol: "A", decimals: 18, balance: 5n, chainId: "1" } } });
    const r = await createDataApiClient({ retry: false }).getNativeBalance({ chainId: "1", address: ADDRESS });
    expect(r.nativeTokenBalance.balance).toBe("5");
  });

  it("a synthesized mock body decodes like a server's", async () => {
    const balance = await createNodeClient({ retry: false }).cChain.eth.getBalance({ address: ADDRESS, block: "latest" });
    expect(typeof balance).toBe("bigint");
  });

  it("an override number an integer cannot take fails that call with the reason", async () => {
    mocks.override("eth_blockNumber", { body: -1n });
    const error = await createNodeClient({ retry: false }).cChain.eth.blockNumber().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(JSON.stringify((error as RpcError).data)).toMatch(/override body of eth_blockNumber at \/ must not be negative/);
  });
});
