/**
 * Issue 27, the C-Chain methods beyond the requirement: the further eth_ and
 * txpool_ methods, the eleven debug_ tracing methods (vms/saevm/sae/rpc/server.go
 * at ava-labs/avalanchego 1cf1fc3d17, bodies from libevm internal/ethapi and
 * eth/tracers), the real atomic API avax.* (vms/saevm/cchain/api.go) and the
 * Granite/Helicon block-header fields (graft/coreth/plugin/evm/customtypes/
 * header_ext.go). Replies in the wire form pass strict validation through the
 * generated client on a loopback server; params go out as the node reads them.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { describeWireCases, useFidelityServer, type WireCase } from "../helpers/fidelity.js";

const f = useFidelityServer();
const RPC = "/ext/bc/C/rpc";
const AVAX = "/ext/bc/C/avax";
const BLOCK_HASH = "0x65e18b272c7a0753ac84df6ccfc932a49008e9b1a5768bb8fdc6a870e0ab09ff";
const TX_HASH = "0x46b7975ffea590f33b9787659a3c1db6e2474bd9cc974c25379e9b038f05d613";
const ALICE = "0x6aa0d558e161208f801bd7866a8f6d177fb79517";
const BOB = "0x2250d9cae755fd8d5c86b15ebd7d9bfda50e2468";
const RAW_TX = "0x02f87282a86a8201a485174876e800850ba43b7400825208942250d9cae755fd8d5c86b15ebd7d9bfda50e2468880de0b6b3a764000080c001a0dc4f0e43360f45a159b2ebba837725bb9e4f7382505b2e83b695501a0cf0d1d1a02de1744e05ff4ef05870362714ff9989679551155498e25a7ac2a687061d0b3c";

// libevm internal/ethapi/api.go NewRPCPendingTransaction (RPCTransaction, a dynamic-fee transaction in the pool: block
// fields null, yParity beside v)
const POOL_TX = {
  blockHash: null,
  blockNumber: null,
  transactionIndex: null,
  from: ALICE,
  gas: "0x5208",
  gasPrice: "0xba43b7400",
  maxFeePerGas: "0xba43b7400",
  maxPriorityFeePerGas: "0x174876e800",
  hash: TX_HASH,
  input: "0x",
  nonce: "0x1a4",
  to: BOB,
  value: "0xde0b6b3a7640000",
  type: "0x2",
  accessList: [],
  chainId: "0xa86a",
  v: "0x1",
  r: "0xdc4f0e43360f45a159b2ebba837725bb9e4f7382505b2e83b695501a0cf0d1d1",
  s: "0x2de1744e05ff4ef05870362714ff9989679551155498e25a7ac2a687061d0b3c",
  yParity: "0x1",
};
// libevm eth/tracers/native callFrame (gen_callframe_json.go: hex gas, gasUsed, value; type as the opcode name)
const CALL_FRAME = { from: ALICE, gas: "0x5208", gasUsed: "0x5208", to: BOB, input: "0x", value: "0xde0b6b3a7640000", type: "CALL" };
// libevm eth/tracers/logger ExecutionResult (gas a uint64 JSON number, returnValue hex without 0x) and StructLogRes
const STRUCT_LOGS = { gas: 21064, failed: false, returnValue: "0000000000000000000000000000000000000000000000000de0b6b3a7640000", structLogs: [{ pc: 0, op: "PUSH1", gas: 28936, gasCost: 3, depth: 1, stack: [] }] };

const eth: WireCase[] = [
  // BlockChainAPI.GetUncleByBlockNumberAndIndex(rpc.BlockNumber, hexutil.Uint): C-Chain blocks have no uncles, so nil
  { method: "eth_getUncleByBlockNumberAndIndex", source: "libevm BlockChainAPI.GetUncleByBlockNumberAndIndex", path: RPC, call: (n) => n.cChain.eth.getUncleByBlockNumberAndIndex({ block: "latest", index: "0x0" }), params: ["latest", "0x0"], reply: null },
  { method: "eth_getUncleByBlockHashAndIndex", source: "libevm BlockChainAPI.GetUncleByBlockHashAndIndex", path: RPC, call: (n) => n.cChain.eth.getUncleByBlockHashAndIndex({ blockHash: BLOCK_HASH, index: "0x0" }), params: [BLOCK_HASH, "0x0"], reply: null },
  // TransactionAPI.GetRawTransactionByHash: tx.MarshalBinary() as hexutil.Bytes
  { method: "eth_getRawTransactionByHash", source: "libevm TransactionAPI.GetRawTransactionByHash", path: RPC, call: (n) => n.cChain.eth.getRawTransactionByHash({ transactionHash: TX_HASH }), params: [TX_HASH], reply: RAW_TX },
  // ...ByBlockNumberAndIndex: an index past the end gives a nil hexutil.Bytes, which encoding/json writes as "0x"
  { method: "eth_getRawTransactionByBlockNumberAndIndex", source: "libevm TransactionAPI.GetRawTransactionByBlockNumberAndIndex", path: RPC, call: (n) => n.cChain.eth.getRawTransactionByBlockNumberAndIndex({ block: "0x4a3c2e1", index: "0x40" }), params: ["0x4a3c2e1", "0x40"], reply: "0x" },
  { method: "eth_getRawTransactionByBlockHashAndIndex", source: "libevm TransactionAPI.GetRawTransactionByBlockHashAndIndex", path: RPC, call: (n) => n.cChain.eth.getRawTransactionByBlockHashAndIndex({ blockHash: BLOCK_HASH, index: "0x0" }), params: [BLOCK_HASH, "0x0"], reply: RAW_TX },
  // TransactionAPI.PendingTransactions: make([]*RPCTransaction, 0, …) filtered by the node's accounts; the SAE VM has none
  { method: "eth_pendingTransactions", source: "libevm TransactionAPI.PendingTransactions", path: RPC, call: (n) => n.cChain.eth.pendingTransactions(), params: [], reply: [] },
  // TransactionAPI.Resend(TransactionArgs, *hexutil.Big, *hexutil.Uint64) (common.Hash, error)
  {
    method: "eth_resend",
    source: "libevm TransactionAPI.Resend",
    path: RPC,
    call: (n) => n.cChain.eth.resend({ transaction: { from: ALICE, to: BOB, nonce: "0x1a4", value: "0xde0b6b3a7640000" }, gasPrice: "0x6fc23ac00", gasLimit: "0x5208" }),
    params: [{ from: ALICE, to: BOB, nonce: "0x1a4", value: "0xde0b6b3a7640000" }, "0x6fc23ac00", "0x5208"],
    reply: "0x9d3a5f2e1c7b8a6f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a10",
  },
  // TxPoolAPI.ContentFrom: {"pending": {nonce: tx}, "queued": {nonce: tx}}, nonces as decimal strings
  { method: "txpool_contentFrom", source: "libevm TxPoolAPI.ContentFrom", path: RPC, call: (n) => n.cChain.txpool.contentFrom({ address: ALICE }), params: [ALICE], reply: { pending: { "420": POOL_TX }, queued: {} } },
];

const debug: WireCase[] = [
  { method: "debug_traceTransaction", source: "libevm tracers.API.TraceTransaction (callTracer)", path: RPC, call: (n) => n.cChain.debug.traceTransaction({ transactionHash: TX_HASH, config: { tracer: "callTracer" } }), params: [TX_HASH, { tracer: "callTracer" }], reply: CALL_FRAME },
  { method: "debug_traceCall", source: "tracerAPI.TraceCall (struct logger)", path: RPC, call: (n) => n.cChain.debug.traceCall({ transaction: { to: BOB, input: "0x70a08231" }, block: "latest", config: { enableMemory: true, stateOverrides: { [ALICE]: { balance: "0xde0b6b3a7640000" } } } }), params: [{ to: BOB, input: "0x70a08231" }, "latest", { enableMemory: true, stateOverrides: { [ALICE]: { balance: "0xde0b6b3a7640000" } } }], reply: STRUCT_LOGS },
  // txTraceResult: {txHash, result} or {txHash, error} (omitempty)
  { method: "debug_traceBlockByNumber", source: "tracers.API.TraceBlockByNumber, txTraceResult", path: RPC, call: (n) => n.cChain.debug.traceBlockByNumber({ block: "0x4a3c2e1", config: { tracer: "callTracer", tracerConfig: { onlyTopCall: true } } }), params: ["0x4a3c2e1", { tracer: "callTracer", tracerConfig: { onlyTopCall: true } }], reply: [{ txHash: TX_HASH, result: CALL_FRAME }, { txHash: BLOCK_HASH, error: "execution timeout" }] },
  { method: "debug_traceBlockByHash", source: "tracers.API.TraceBlockByHash", path: RPC, call: (n) => n.cChain.debug.traceBlockByHash({ blockHash: BLOCK_HASH }), params: [BLOCK_HASH], reply: [{ txHash: TX_HASH, result: STRUCT_LOGS }] },
  { method: "debug_traceBlock", source: "tracerAPI.TraceBlock", path: RPC, call: (n) => n.cChain.debug.traceBlock({ blockRlp: "0xf90259c0c0" }), params: ["0xf90259c0c0"], reply: [] },
  { method: "debug_traceBlockFromFile", source: "tracers.API.TraceBlockFromFile", path: RPC, call: (n) => n.cChain.debug.traceBlockFromFile({ file: "/tmp/block.rlp", config: { timeout: "10s" } }), params: ["/tmp/block.rlp", { timeout: "10s" }], reply: [] },
  { method: "debug_traceBadBlock", source: "tracers.API.TraceBadBlock", path: RPC, call: (n) => n.cChain.debug.traceBadBlock({ blockHash: BLOCK_HASH }), params: [BLOCK_HASH], reply: [{ txHash: TX_HASH, result: { "0x0100000000000000000000000000000000000000": { balance: "0x0" } } }] },
  { method: "debug_standardTraceBlockToFile", source: "tracers.API.StandardTraceBlockToFile ([]string)", path: RPC, call: (n) => n.cChain.debug.standardTraceBlockToFile({ blockHash: BLOCK_HASH, config: { txHash: TX_HASH } }), params: [BLOCK_HASH, { txHash: TX_HASH }], reply: ["/tmp/block_0x65e18b27-0-0x46b7975f-1984734921"] },
  { method: "debug_standardTraceBadBlockToFile", source: "tracers.API.StandardTraceBadBlockToFile", path: RPC, call: (n) => n.cChain.debug.standardTraceBadBlockToFile({ blockHash: BLOCK_HASH }), params: [BLOCK_HASH], reply: [] },
  { method: "debug_intermediateRoots", source: "tracers.API.IntermediateRoots ([]common.Hash)", path: RPC, call: (n) => n.cChain.debug.intermediateRoots({ blockHash: BLOCK_HASH, config: { reexec: 128 } }), params: [BLOCK_HASH, { reexec: 128 }], reply: ["0xd20e24b3c2ab1cc3b9b94ac91d629b638efc56af07576c0e19e417f7963f1eb1"] },
  // TraceChain returns an *rpc.Subscription: the reply is its rpc.ID
  { method: "debug_traceChain", source: "tracers.API.TraceChain (a subscription ID)", path: RPC, call: (n) => n.cChain.debug.traceChain({ start: "0x4a3c2d7", end: "0x4a3c2e1" }), params: ["0x4a3c2d7", "0x4a3c2e1"], reply: "0x9c1f0e7a6b5d4c3b2a1908f7e6d5c4b3" },
];

// vms/saevm/cchain/api.go: api.GetUTXOsArgs/Reply (the terminal endIndex of the last page, L80-L83), api.FormattedTx →
// api.JSONTxID, GetTxReply{FormattedTx, blockHeight json.Uint64}, TxStatus{status, blockHeight omitempty}
const avax: WireCase[] = [
  {
    method: "avax.getUTXOs",
    source: "cchain/api.go service.GetUTXOs",
    path: AVAX,
    call: (n) => n.cChain.avax.getUTXOs({ addresses: ["C-avax1pcueqatdd8yrynxw0u7qut68w52zahjtnadxr3"], sourceChain: "X", limit: 100, encoding: "hex" }),
    params: { addresses: ["C-avax1pcueqatdd8yrynxw0u7qut68w52zahjtnadxr3"], sourceChain: "X", limit: 100, encoding: "hex" },
    reply: { numFetched: "1", utxos: ["0x0000f9a2be405de8300c"], endIndex: { address: "C-avax1llllllllllllllllllllllllllllllll2svee2", utxo: "2wkBET2rRgE8pahuaczxKbmv7ciehqsne57F9gtzf1PVcUJEQG" }, encoding: "hex" },
  },
  { method: "avax.issueTx", source: "cchain/api.go service.IssueTx", path: AVAX, call: (n) => n.cChain.avax.issueTx({ tx: "0x0000000000000000000104", encoding: "hex" }), params: { tx: "0x0000000000000000000104", encoding: "hex" }, reply: { txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" } },
  { method: "avax.getAtomicTx", source: "cchain/api.go service.GetAtomicTx, GetTxReply", path: AVAX, call: (n) => n.cChain.avax.getAtomicTx({ txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" }), params: { txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" }, reply: { tx: "0x0000000000000000000104", encoding: "hex", blockHeight: "53761208" } },
  { method: "avax.getAtomicTxStatus", source: "cchain/api.go service.GetAtomicTxStatus, TxStatus", path: AVAX, call: (n) => n.cChain.avax.getAtomicTxStatus({ txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" }), params: { txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" }, reply: { status: "Unknown" } },
];

describeWireCases("C-Chain: further eth_ and txpool_ methods", f, eth);
describeWireCases("C-Chain: the debug_ tracing methods", f, debug);
describeWireCases("C-Chain: the atomic API as nodes serve it (avax.* at /ext/bc/C/avax)", f, avax);

// A Helicon C-Chain block header: libevm RPCMarshalHeader with HeaderExtra.PostRPCMarshal (header_ext.go L166-L197) adds
// the Granite fields (timestampMilliseconds, minDelayExcess) and the Helicon fields (targetExponent, minPriceExponent,
// settledHeight, settledGasUnix, settledGasNumerator, settledExcess), all hexutil.Uint64 quantities
const HELICON_HEADER = {
  number: "0x4a3c2e1",
  hash: BLOCK_HASH,
  parentHash: "0xbc308da6baa033220276e6e1d4491b51c6067af5be125da45c7063968e945687",
  nonce: "0x0000000000000000",
  mixHash: "0x0000000000000000000000000000000000000000000000000000000000000000",
  sha3Uncles: "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347",
  logsBloom: `0x${"0".repeat(512)}`,
  stateRoot: "0xd20e24b3c2ab1cc3b9b94ac91d629b638efc56af07576c0e19e417f7963f1eb1",
  miner: "0x0100000000000000000000000000000000000000",
  difficulty: "0x1",
  extraData: "0x",
  gasLimit: "0x2faf080",
  gasUsed: "0x0",
  timestamp: "0x69a554f4",
  transactionsRoot: "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
  receiptsRoot: "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
  baseFeePerGas: "0x1dcd6500",
  extDataHash: "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
  extDataGasUsed: "0x0",
  blockGasCost: "0x0",
  blobGasUsed: "0x0",
  excessBlobGas: "0x0",
  parentBeaconBlockRoot: "0x0000000000000000000000000000000000000000000000000000000000000000",
  timestampMilliseconds: "0x19c3d8a1f2b",
  minDelayExcess: "0x1b5e3e8",
  targetExponent: "0x1a4c",
  minPriceExponent: "0x0",
  settledHeight: "0x4a3c2de",
  settledGasUnix: "0x69a554f2",
  settledGasNumerator: "0x3d0900",
  settledExcess: "0x2faf08",
};

describe("C-Chain: the Granite and Helicon header fields", () => {
  it("a Helicon header with the eight fields passes strict validation, and they are typed", async () => {
    f.answer(HELICON_HEADER);
    const h = await f.node().cChain.eth.getHeaderByNumber({ block: "latest" });
    const ms: string | undefined = h?.timestampMilliseconds;
    const settled: string | undefined = h?.settledHeight;
    expect([ms, settled, h?.settledExcess]).toEqual(["0x19c3d8a1f2b", "0x4a3c2de", "0x2faf08"]);
  });

  it("read as bigints with the default number policy", async () => {
    f.answer({ ...HELICON_HEADER, size: "0x25c", blockExtraData: "0x", transactions: [], uncles: [] });
    const b = await (await import("@avaspec/client/node")).createNodeClient({ baseUrl: f.server().url, retry: false, validateResponse: "strict" }).cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
    expect([b?.timestampMilliseconds, b?.minDelayExcess, b?.settledGasNumerator]).toEqual([0x19c3d8a1f2bn, 0x1b5e3e8n, 0x3d0900n]);
  });

  it.each(["timestampMilliseconds", "settledHeight", "targetExponent"])("control: %s as a JSON number fails strict validation", async (field) => {
    f.answer({ ...HELICON_HEADER, [field]: 1 });
    await expect(f.node().cChain.eth.getHeaderByNumber({ block: "latest" })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("C-Chain: controls", () => {
  it.each([
    ["a txTraceResult without txHash", (n: ReturnType<typeof f.node>) => n.cChain.debug.traceBlockByHash({ blockHash: BLOCK_HASH }), [{ result: CALL_FRAME }]],
    ["intermediate roots that are not hashes", (n: ReturnType<typeof f.node>) => n.cChain.debug.intermediateRoots({ blockHash: BLOCK_HASH }), ["0x01"]],
    ["txpool_contentFrom without queued", (n: ReturnType<typeof f.node>) => n.cChain.txpool.contentFrom({ address: ALICE }), { pending: {} }],
    ["an avax.getAtomicTxStatus status the node never sends", (n: ReturnType<typeof f.node>) => n.cChain.avax.getAtomicTxStatus({ txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" }), { status: "Committed" }],
  ])("control: %s fails strict validation", async (_name, call, reply) => {
    f.answer(reply);
    await expect(call(f.node())).rejects.toBeInstanceOf(ValidationError);
  });

  it("the debug_ methods say in their JSDoc that the public API node does not serve them", async () => {
    const client = (await import("node:fs")).readFileSync(new URL("../../generated/src/node/client.ts", import.meta.url), "utf8");
    const at = client.indexOf("      traceTransaction(");
    expect(client.slice(client.lastIndexOf("/**", at), at)).toMatch(/Not served everywhere: Off on the public API node \(api\.avax\.network answers -32601\)/);
  });
});

describe("deprecated methods", () => {
  it("warn once per client, through the client's deprecationWarnings (captured here)", () => {
    for (const message of ["avax.getAtomicTxStatus is deprecated since Helicon (v1.15.0), at its activation: Fuji 2026-07-28, Mainnet not yet scheduled"]) expect(f.warnings).toContain(message);
    expect(f.warnings.every((w) => / is deprecated| is removed in /.test(w))).toBe(true);
  });
});
