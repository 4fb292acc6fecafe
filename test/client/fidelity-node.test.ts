/**
 * Issue 16, node APIs: replies in the real wire form pass the generated
 * client with strict response validation, against a real loopback server,
 * and inputs the real node accepts are sent as given, not refused. Each
 * payload names the AvalancheGo source it is written from (the Go structs at
 * ava-labs/avalanchego 1cf1fc3d17, August 2026: Coreth under graft/coreth,
 * the Helicon C-Chain under vms/saevm; libevm for the SAE VM's eth_ API).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpcError, ValidationError } from "@avaspec/client";
import { createNodeClient } from "@avaspec/client/node";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Answers every JSON-RPC request with `result`. */
function answer(result: unknown): void {
  server.reply((req) => ({ body: { jsonrpc: "2.0", id: (JSON.parse(req.body) as { id: number }).id, result } }));
}
/** Deprecation warnings of the calls below (each client warns once per method): checked at the end, not printed. */
const warnings = new Set<string>();
const deprecationWarnings = (m: string) => void warnings.add(m);
const node = () => createNodeClient({ baseUrl: server.url, retry: false, validateResponse: "strict", numbers: "string", deprecationWarnings });
/** The JSON body the server received last, parsed. */
const lastBody = () => JSON.parse(server.requests.at(-1)!.body) as unknown;
/** The exact envelope a by-position call must put on the wire. */
const envelope = (method: string, params: unknown[]) => ({ jsonrpc: "2.0", id: expect.any(Number), method, params });

// upgrade/upgrade.go, `Mainnet = Config{…}`, as encoding/json writes it: times in RFC 3339,
// GraniteEpochDuration (a time.Duration) as its nanoseconds, HeliconTime = UnscheduledActivationTime
const MAINNET_UPGRADES = {
  apricotPhase1Time: "2021-03-31T14:00:00Z",
  apricotPhase2Time: "2021-05-10T11:00:00Z",
  apricotPhase3Time: "2021-08-24T14:00:00Z",
  apricotPhase4Time: "2021-09-22T21:00:00Z",
  apricotPhase4MinPChainHeight: 793005,
  apricotPhase5Time: "2021-12-02T18:00:00Z",
  apricotPhasePre6Time: "2022-09-05T01:30:00Z",
  apricotPhase6Time: "2022-09-06T20:00:00Z",
  apricotPhasePost6Time: "2022-09-07T03:00:00Z",
  banffTime: "2022-10-18T16:00:00Z",
  cortinaTime: "2023-04-25T15:00:00Z",
  cortinaXChainStopVertexID: "jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga",
  durangoTime: "2024-03-06T16:00:00Z",
  etnaTime: "2024-12-16T17:00:00Z",
  fortunaTime: "2025-04-08T15:00:00Z",
  graniteTime: "2025-11-19T16:00:00Z",
  graniteEpochDuration: 300000000000,
  heliconTime: "9999-12-01T00:00:00Z",
};

// network/peer/info.go, `type Info struct`: upgradeTime is a uint64 (a plain JSON number, unlike
// observedUptime's json.Uint32 string); publicIP is omitempty; sets are JSON arrays
const PEER = {
  ip: "203.0.113.7:9651",
  publicIP: "203.0.113.7:9651",
  nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg",
  version: "avalanchego/1.14.2",
  upgradeTime: 1763568000,
  lastSent: "2026-08-22T15:30:01Z",
  lastReceived: "2026-08-22T15:30:02Z",
  observedUptime: "100",
  trackedSubnets: [],
  supportedACPs: [176, 226],
  objectedACPs: [],
  benched: [],
};

describe("info", () => {
  it("upgrades: the Mainnet schedule with graniteEpochDuration and heliconTime passes strict validation, typed", async () => {
    answer(MAINNET_UPGRADES);
    const upgrades = await node().info.upgrades();
    const epochNs: number | undefined = upgrades.graniteEpochDuration;
    const helicon: string | undefined = upgrades.heliconTime;
    expect(epochNs).toBe(5 * 60 * 1e9);
    expect(helicon).toBe("9999-12-01T00:00:00Z");
  });

  it("upgrades: an older node without the two fields still passes", async () => {
    const { graniteEpochDuration: _e, heliconTime: _h, ...older } = MAINNET_UPGRADES;
    answer(older);
    await expect(node().info.upgrades()).resolves.toEqual(older);
  });

  it("control: a graniteEpochDuration sent as a string fails strict validation", async () => {
    answer({ ...MAINNET_UPGRADES, graniteEpochDuration: "5m0s" });
    await expect(node().info.upgrades()).rejects.toBeInstanceOf(ValidationError);
  });

  it("peers: a peer with upgradeTime passes strict validation, typed", async () => {
    answer({ numPeers: "1", peers: [PEER] });
    const { peers } = await node().info.peers();
    const upgradeTime: number | undefined = peers[0]!.upgradeTime;
    expect(upgradeTime).toBe(1763568000);
  });
});

// vms/platformvm/api/validator.go, `type Owner struct`: locktime a json.Uint64, threshold a json.Uint32, both decimal strings
const OWNER = { locktime: "0", threshold: "1", addresses: ["P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5"] };

// vms/platformvm/api/validator.go, `type PermissionlessValidator struct`, as service.go getPrimaryOrSubnetValidators
// fills it for a primary network validator (L904-L914, L985-L991): accruedDelegateeReward is always set (a pointer to
// StakingInfo.DelegateeReward), delegationFee is a json.Float32 (four decimals) and never omitted, uptime/connected
// only on the primary network, signer the ProofOfPossession (signer/proof_of_possession.go: publicKey,
// proofOfPossession), delegators an empty array when one node ID was asked for and it has none
const PRIMARY_VALIDATOR = {
  txID: "2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm",
  startTime: "1743506632",
  endTime: "1775042632",
  weight: "2025000000000",
  nodeID: "NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD",
  validationRewardOwner: OWNER,
  delegationRewardOwner: OWNER,
  potentialReward: "117431493426",
  accruedDelegateeReward: "2346512",
  delegationFee: "2.0000",
  uptime: "99.9952",
  connected: true,
  signer: {
    publicKey: "0x8f95423f7142d00a48e1014a3de8d28907d420dc33b3052a6dee03a3f2941a393c2351e354704ca66a3fc29870282e15",
    proofOfPossession: "0x86a3ab4c45cfe31cae34c1d06f212434ac71b1be6cfe046c80c162e057614a94a5bc9f1ded1a7029deb0ba4ca7c9b71411e293438691be79c2dbf19d1ca7c3eadb9c756246fc5de5b7b89511c7d7302ae051d9e03d7991138299b5ed6a570a98",
  },
  delegatorCount: "0",
  delegatorWeight: "0",
  delegators: [],
};

// the same struct for an auto-renewed validator (ACP-236): the embedded *AutoRenewedConfig (validator.go L99-L106,
// service.go L916-L930) adds validatorAuthority (an Owner), nextPeriod (json.Uint64 seconds) and
// autoCompoundRewardShares (json.Uint32 millionths), as service_test.go TestGetCurrentValidatorsAutoRenewedValidator expects
const AUTO_RENEWED_VALIDATOR = {
  ...PRIMARY_VALIDATOR,
  nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg",
  accruedDelegateeReward: "0",
  delegationFee: "100.0000",
  validatorAuthority: { locktime: "0", threshold: "1", addresses: ["P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c"] },
  nextPeriod: "1209600",
  autoCompoundRewardShares: "333333",
};

// a validator of an elastic (permissionless) subnet: the same struct without uptime, connected and signer (L869-L883)
const SUBNET_PERMISSIONLESS_VALIDATOR = (({ uptime: _u, connected: _c, signer: _s, delegators: _d, ...rest }) => rest)(PRIMARY_VALIDATOR);

// a PoA subnet validator, or a legacy one of an L1: `api.Staker` (validator.go L18-L24, service.go L959-L960, L776)
const POA_VALIDATOR = { txID: "Bbai8nzGVcyn2VmeYcbS74zfjJLjDacGNVuzuvAQkHn1uWfoV", startTime: "1743506523", endTime: "1746098523", weight: "20", nodeID: "NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD" };

// an L1 validator: `api.APIL1Validator` (validator.go L49-L68, service.go convertL1ValidatorToAPI L1071-L1089)
const L1_VALIDATOR = {
  nodeID: "NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD",
  weight: "20",
  startTime: "1734034648",
  validationID: "2wTscvX3JUsMbZHFRd9t8Ywz2q9j2BmETg8cTvgUHgawjbSvZX",
  publicKey: "0x91951771ff32b1a985a4936592bce8512a986353c4c2eb5a0f12dbb76bda3a0a0c975e26413ff44c0ee9d8d689eff8ed",
  remainingBalanceOwner: OWNER,
  deactivationOwner: OWNER,
  minNonce: "0",
  balance: "8780477952",
};

describe("platform.getCurrentValidators", () => {
  it("every kind of entry AvalancheGo writes passes strict validation", async () => {
    const validators = [PRIMARY_VALIDATOR, AUTO_RENEWED_VALIDATOR, SUBNET_PERMISSIONLESS_VALIDATOR, POA_VALIDATOR, L1_VALIDATOR];
    answer({ validators });
    await expect(node().platform.getCurrentValidators()).resolves.toEqual({ validators });
  });

  it("the auto-renewed validator's fields and accruedDelegateeReward are typed", async () => {
    answer({ validators: [AUTO_RENEWED_VALIDATOR] });
    const { validators } = await node().platform.getCurrentValidators({ nodeIDs: [AUTO_RENEWED_VALIDATOR.nodeID] });
    const v = validators[0]!;
    const shares: string | undefined = v.autoCompoundRewardShares;
    const next: string | undefined = v.nextPeriod;
    const authority: string[] | undefined = v.validatorAuthority?.addresses;
    const accrued: string | undefined = v.accruedDelegateeReward;
    expect([shares, next, authority, accrued]).toEqual(["333333", "1209600", ["P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c"], "0"]);
  });

  it("the Go struct's exactDelegationFee (json.Uint32) and staked ([]api.UTXO), never filled today, pass if a node sends them", async () => {
    // validator.go L83 and L86, L41-L46
    const withGenesisFields = { ...PRIMARY_VALIDATOR, exactDelegationFee: "20000", staked: [{ locktime: "0", amount: "2000000000000", address: "P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5", message: "" }] };
    answer({ validators: [withGenesisFields] });
    await expect(node().platform.getCurrentValidators()).resolves.toEqual({ validators: [withGenesisFields] });
  });

  it.each([
    ["accruedDelegateeReward as a JSON number", { accruedDelegateeReward: 0 }],
    ["nextPeriod as a JSON number", { nextPeriod: 1209600 }],
    ["autoCompoundRewardShares as a fraction", { autoCompoundRewardShares: "0.33" }],
    ["validatorAuthority without addresses", { validatorAuthority: { locktime: "0", threshold: "1" } }],
  ])("control: %s fails strict validation", async (_name, change) => {
    answer({ validators: [{ ...AUTO_RENEWED_VALIDATOR, ...change }] });
    await expect(node().platform.getCurrentValidators()).rejects.toBeInstanceOf(ValidationError);
  });
});

// ----------------------------------------------------------------------------------------------- C-Chain

const BLOCK_HASH = "0x65e18b272c7a0753ac84df6ccfc932a49008e9b1a5768bb8fdc6a870e0ab09ff";
const USDC = "0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e";
const ALICE = "0x6aa0d558e161208f801bd7866a8f6d177fb79517";

// graft/coreth/internal/ethapi/api.go L1309-L1337 RPCMarshalBlock (header fields of L1240-L1296, size, blockExtraData,
// transactions, uncles), as eth_getBadBlocks writes a rejected block
const BAD_BLOCK = {
  number: "0x4a3c2e2",
  hash: "0xbc308da6baa033220276e6e1d4491b51c6067af5be125da45c7063968e945687",
  parentHash: BLOCK_HASH,
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
  extDataHash: "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
  baseFeePerGas: "0x1dcd6500",
  extDataGasUsed: "0x0",
  blockGasCost: "0x0",
  size: "0x25c",
  blockExtraData: "0x",
  transactions: [],
  uncles: [],
};

describe("C-Chain: replies of changed and new methods, in the wire form", () => {
  it("eth_callDetailed: DetailedExecutionResult writes gas and errCode as JSON numbers; typed", async () => {
    // vms/saevm/sae/rpc/custom.go L55-L60 (= graft/coreth/internal/ethapi/api_extra.go L20-L25): UsedGas uint64
    // `json:"gas"`, ErrCode int, Err string, ReturnData hexutil.Bytes; a revert sets ErrCode 3 and the decoded reason (L75-L78)
    const reverted = {
      gas: 28142,
      errCode: 3,
      err: "execution reverted: ERC20: transfer amount exceeds balance",
      returnData: "0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000002645524332303a207472616e7366657220616d6f756e7420657863656564732062616c616e63650000000000000000000000000000000000000000000000000000",
    };
    answer(reverted);
    const r = await node().cChain.eth.callDetailed({ transaction: { to: USDC, input: "0xa9059cbb" }, block: "latest" });
    const gas: number = r.gas;
    const code: number = r.errCode;
    expect([gas, code, r.err]).toEqual([28142, 3, reverted.err]);
    expect(lastBody()).toEqual(envelope("eth_callDetailed", [{ to: USDC, input: "0xa9059cbb" }, "latest"]));
  });

  it("control: an eth_callDetailed gas in hex fails strict validation", async () => {
    answer({ gas: "0x6dee", errCode: 0, err: "", returnData: "0x" });
    await expect(node().cChain.eth.callDetailed({ transaction: { to: USDC }, block: "latest" })).rejects.toBeInstanceOf(ValidationError);
  });

  it("eth_suggestPriceOptions: three hexutil.Big pairs (SAE), or null (Coreth without dynamic fees); typed", async () => {
    // vms/saevm/sae/rpc/custom.go L86-L105 (Price: maxPriorityFeePerGas, maxFeePerGas; PriceOptions: slow, normal, fast)
    const options = {
      slow: { maxPriorityFeePerGas: "0x5a995c0", maxFeePerGas: "0x41445fc0" },
      normal: { maxPriorityFeePerGas: "0x5f5e100", maxFeePerGas: "0x4190ab00" },
      fast: { maxPriorityFeePerGas: "0x6422c40", maxFeePerGas: "0x41dcf640" },
    };
    answer(options);
    const r = await node().cChain.eth.suggestPriceOptions();
    const fastCap: string | undefined = r?.fast.maxFeePerGas;
    expect(fastCap).toBe("0x41dcf640");
    expect(lastBody()).toEqual(envelope("eth_suggestPriceOptions", []));
    // graft/coreth/internal/ethapi/api.coreth.go L56-L59: `return nil, nil` without dynamic fees
    answer(null);
    await expect(node().cChain.eth.suggestPriceOptions()).resolves.toBeNull();
  });

  it("eth_getBadBlocks: BadBlockArgs with a BadBlockReason, or with a null reason; typed", async () => {
    // graft/coreth/internal/ethapi/api_extra.go L63-L68 BadBlockArgs (hash, block, rlp, reason; block from L87, see
    // BAD_BLOCK); graft/coreth/core/blockchain.go L1674-L1680 BadBlockReason (chainConfig, receipts, number as a JSON
    // number, hash, error)
    const reason = { chainConfig: { chainId: 43114, graniteTimestamp: 1763568000 }, receipts: null, number: 77840098, hash: BAD_BLOCK.hash, error: "invalid gas limit" };
    const bad = [
      { hash: BAD_BLOCK.hash, block: BAD_BLOCK, rlp: "0xf90259f90254a065e1", reason },
      { hash: BAD_BLOCK.hash, block: BAD_BLOCK, rlp: "0xf90259f90254a065e1", reason: null },
    ];
    answer(bad);
    const r = await node().cChain.eth.getBadBlocks();
    const height: number | undefined = r[0]!.reason?.number;
    expect(height).toBe(77840098);
    expect(r[1]!.reason).toBeNull();
  });

  it("control: a BadBlockReason number written in hex fails strict validation", async () => {
    const reason = { chainConfig: { chainId: 43114 }, receipts: null, number: "0x4a3c2e2", hash: BAD_BLOCK.hash, error: "invalid gas limit" };
    answer([{ hash: BAD_BLOCK.hash, block: BAD_BLOCK, rlp: "0xf90259f90254a065e1", reason }]);
    await expect(node().cChain.eth.getBadBlocks()).rejects.toBeInstanceOf(ValidationError);
  });

  it("eth_accounts and eth_coinbase, removed by Helicon, still read a Coreth node's replies", async () => {
    // graft/coreth/internal/ethapi/api.go L271 Accounts() []common.Address; graft/coreth/eth/api.go L50 Coinbase()
    answer([]);
    await expect(node().cChain.eth.accounts()).resolves.toEqual([]);
    answer("0x0100000000000000000000000000000000000000");
    await expect(node().cChain.eth.coinbase()).resolves.toBe("0x0100000000000000000000000000000000000000");
  });

  it.each([
    ["eth_config", (n: ReturnType<typeof node>) => n.cChain.eth.config()],
    ["eth_blobBaseFee", (n: ReturnType<typeof node>) => n.cChain.eth.blobBaseFee()],
    ["eth_getBlockAccessList", (n: ReturnType<typeof node>) => n.cChain.eth.getBlockAccessList({ block: "latest" })],
    ["eth_simulateV1", (n: ReturnType<typeof node>) => n.cChain.eth.simulateV1({ payload: { blockStateCalls: [] } })],
    ["eth_capabilities", (n: ReturnType<typeof node>) => n.cChain.eth.capabilities()],
    ["eth_accounts", (n: ReturnType<typeof node>) => n.cChain.eth.accounts()],
  ])("%s: what a node that does not serve it answers (libevm rpc: -32601) is an RpcError with that code", async (method, call) => {
    // libevm rpc/errors.go methodNotFoundError: code -32601, "the method X does not exist/is not available"
    server.reply((req) => ({ body: { jsonrpc: "2.0", id: (JSON.parse(req.body) as { id: number }).id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } } }));
    const err = (await call(node()).catch((e: unknown) => e)) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect([err.code, err.method]).toEqual([-32601, method]);
  });

  it("eth_subscribe: the newAcceptedTransactions kind with the full-transaction flag is sent as given", async () => {
    // vms/saevm/sae/rpc/custom.go L156 NewAcceptedTransactions(ctx, fullTx *bool) (*rpc.Subscription, error): the reply
    // is the subscription's rpc.ID, a 0x-prefixed hex string
    answer("0x9c1f0e7a6b5d4c3b2a1908f7e6d5c4b3");
    await expect(node().cChain.eth.subscribe({ subscriptionType: "newAcceptedTransactions", options: true })).resolves.toBe("0x9c1f0e7a6b5d4c3b2a1908f7e6d5c4b3");
    expect(lastBody()).toEqual(envelope("eth_subscribe", ["newAcceptedTransactions", true]));
  });

  it("native.getAtomicTxStatus on a Helicon node: TxStatus is Accepted with blockHeight, or Unknown without it", async () => {
    // vms/saevm/cchain/api.go L274-L277 TxStatus{Status choices.Status, Height *json.Uint64 `json:"blockHeight,omitempty"`}
    answer({ status: "Accepted", blockHeight: "53761208" });
    await expect(node().cChain.native.getAtomicTxStatus({ txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" })).resolves.toEqual({ status: "Accepted", blockHeight: "53761208" });
    answer({ status: "Unknown" });
    await expect(node().cChain.native.getAtomicTxStatus({ txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB" })).resolves.toEqual({ status: "Unknown" });
  });

  it("native.getAtomicTx on a Helicon node: GetTxReply always carries blockHeight", async () => {
    // vms/saevm/cchain/api.go L242-L245 GetTxReply{api.FormattedTx (tx, encoding), Height json.Uint64 `json:"blockHeight"`}
    const reply = { tx: "0x00000000000000000001", encoding: "hex", blockHeight: "53761208" };
    answer(reply);
    await expect(node().cChain.native.getAtomicTx({ txID: "VyXwER99CoruoWXbGNrq8UJz7js9UW9Q7knkmJfUrDhHwjjcB", encoding: "hex" })).resolves.toEqual(reply);
  });

  it("native.getUTXOs on a Helicon node: the terminal endIndex, and the empty page it leads to", async () => {
    // vms/saevm/cchain/api.go L80-L83 (termAddr, termUTXOID: all one bits), L166-L169 and L179-L184 (endIndex formatted
    // as C-avax1… and cb58); L129-L135: passing the terminal index back returns no UTXOs, the zero address and ids.Empty
    // (numFetched left at its zero value)
    const last = { numFetched: "1", utxos: ["0x0000f9a2be405de8300c"], endIndex: { address: "C-avax1llllllllllllllllllllllllllllllll2svee2", utxo: "2wkBET2rRgE8pahuaczxKbmv7ciehqsne57F9gtzf1PVcUJEQG" }, encoding: "hex" };
    answer(last);
    await expect(node().cChain.native.getUTXOs({ addresses: ["C-avax1pcueqatdd8yrynxw0u7qut68w52zahjtnadxr3"], sourceChain: "X" })).resolves.toEqual(last);
    const done = { numFetched: "0", utxos: [], endIndex: { address: "C-avax1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqxpdk7q", utxo: "11111111111111111111111111111111LpoYY" }, encoding: "hex" };
    answer(done);
    await expect(node().cChain.native.getUTXOs({ addresses: ["C-avax1pcueqatdd8yrynxw0u7qut68w52zahjtnadxr3"], sourceChain: "X", startIndex: last.endIndex, encoding: "hex" })).resolves.toEqual(done);
  });

  it("web3_clientVersion and net_peerCount as a Helicon node answers them", async () => {
    // vms/saevm/sae/rpc/web3.go L18-L26: version.GetVersions().String() (version/string.go L38-L45); net.go L31-L38: the
    // chain's p2p peers minus itself, a hexutil.Uint
    const version = "avalanchego/1.14.2 [database=v1.4.5, rpcchainvm=45, commit=1cf1fc3d1711a09fde7319d2b48609c8cba93680, go=1.25.10]";
    answer(version);
    await expect(node().cChain.web3.clientVersion()).resolves.toBe(version);
    answer("0x11");
    await expect(node().cChain.net.peerCount()).resolves.toBe("0x11");
  });

  it("the C-Chain admin API, removed by Helicon, still reads a Coreth node's replies", async () => {
    // graft/coreth/plugin/evm/admin.go L31-L82: api.EmptyReply ({}) and client.ConfigReply{Config `json:"config"`}
    answer({});
    await expect(node().cChain.admin.startCPUProfiler()).resolves.toEqual({});
    answer({ config: { "pruning-enabled": true, "eth-apis": ["eth", "eth-filter", "net", "web3", "internal-eth", "internal-blockchain", "internal-transaction"] } });
    await expect(node().cChain.admin.getVMConfig()).resolves.toMatchObject({ config: { "pruning-enabled": true } });
  });
});

describe("C-Chain: inputs the real node accepts are sent as given", () => {
  // Requests only: the answer is `null`, which every method below may return or is not checked (validation off).
  const plain = () => createNodeClient({ baseUrl: server.url, retry: false, deprecationWarnings });
  const UPPER_ALICE = "0x6AA0D558E161208F801BD7866A8F6D177FB79517";
  const byHash = { blockHash: BLOCK_HASH, requireCanonical: true } as const;
  type Client = ReturnType<typeof plain>;
  const cases: [string, (n: Client) => Promise<unknown>, string, unknown[]][] = [
    // graft/evm/rpc/types.go L107 and L205: Coreth parses "accepted" (as finalized) in rpc.BlockNumber and rpc.BlockNumberOrHash
    ["block tag accepted (eth_getBalance)", (n) => n.cChain.eth.getBalance({ address: ALICE, block: "accepted" }), "eth_getBalance", [ALICE, "accepted"]],
    ["block tag accepted (eth_getBlockByNumber)", (n) => n.cChain.eth.getBlockByNumber({ block: "accepted", hydratedTransactions: false }), "eth_getBlockByNumber", ["accepted", false]],
    // libevm common/hexutil/json.go checkText/checkNumberText and hexutil.go has0xPrefix: digits and prefix in either case
    ["an upper-case hex address", (n) => n.cChain.eth.getTransactionCount({ address: UPPER_ALICE, block: "pending" }), "eth_getTransactionCount", [UPPER_ALICE, "pending"]],
    ["an upper-case hex hash", (n) => n.cChain.eth.getTransactionByHash({ transactionHash: "0x53E1F346639DB35B81C338E7CD65748118FB55AB1E29E9534ABC91475C74E07B" }), "eth_getTransactionByHash", ["0x53E1F346639DB35B81C338E7CD65748118FB55AB1E29E9534ABC91475C74E07B"]],
    ["an upper-case hex quantity", (n) => n.cChain.eth.getBlockByNumber({ block: "0x4A3C2E1", hydratedTransactions: true }), "eth_getBlockByNumber", ["0x4A3C2E1", true]],
    // the types take the 0x prefix servers write and viem uses (issue 30); the checks still take what the node reads
    ["upper-case hex data and a 0X prefix", (n) => n.cChain.eth.call({ transaction: { to: "0XB97EF9EF8734C71904D8002F8B6BC66DD9C48A6E" as never, input: "0x70A08231", value: "0X0" as never } }), "eth_call", [{ to: "0XB97EF9EF8734C71904D8002F8B6BC66DD9C48A6E", input: "0x70A08231", value: "0X0" }]],
    // EIP-1898: libevm rpc/types.go BlockNumberOrHash.UnmarshalJSON takes {blockHash, requireCanonical} and {blockNumber};
    // each method's Go argument is rpc.BlockNumberOrHash (libevm internal/ethapi/api.go L649, L689, L894, L906, L920,
    // L1147, L1205, L1465, L1605; vms/saevm/sae/rpc/custom.go L64)
    ["EIP-1898 by hash (eth_getBalance)", (n) => n.cChain.eth.getBalance({ address: ALICE, block: byHash }), "eth_getBalance", [ALICE, byHash]],
    ["EIP-1898 by number (eth_getCode)", (n) => n.cChain.eth.getCode({ address: USDC, block: { blockNumber: "0x4a3c2e1" } }), "eth_getCode", [USDC, { blockNumber: "0x4a3c2e1" }]],
    ["EIP-1898 by hash (eth_getStorageAt)", (n) => n.cChain.eth.getStorageAt({ address: USDC, storageSlot: "0x0", block: byHash }), "eth_getStorageAt", [USDC, "0x0", byHash]],
    ["EIP-1898 by number (eth_getTransactionCount)", (n) => n.cChain.eth.getTransactionCount({ address: ALICE, block: { blockNumber: "0x4a3c2e1" } }), "eth_getTransactionCount", [ALICE, { blockNumber: "0x4a3c2e1" }]],
    ["EIP-1898 by hash (eth_getProof)", (n) => n.cChain.eth.getProof({ address: USDC, storageKeys: [], block: byHash }), "eth_getProof", [USDC, [], byHash]],
    ["EIP-1898 by hash (eth_call)", (n) => n.cChain.eth.call({ transaction: { to: USDC, input: "0x70a08231" }, block: byHash }), "eth_call", [{ to: USDC, input: "0x70a08231" }, byHash]],
    ["EIP-1898 by hash (eth_estimateGas, a hash where the execution API has only number or tag)", (n) => n.cChain.eth.estimateGas({ transaction: { to: USDC }, block: byHash }), "eth_estimateGas", [{ to: USDC }, byHash]],
    ["EIP-1898 by number, a tag (eth_createAccessList)", (n) => n.cChain.eth.createAccessList({ transaction: { to: USDC }, block: { blockNumber: "latest" } }), "eth_createAccessList", [{ to: USDC }, { blockNumber: "latest" }]],
    ["EIP-1898 by number (eth_getBlockReceipts)", (n) => n.cChain.eth.getBlockReceipts({ block: { blockNumber: "0x4a3c2e1" } }), "eth_getBlockReceipts", [{ blockNumber: "0x4a3c2e1" }]],
    ["EIP-1898 by hash, no requireCanonical (eth_callDetailed)", (n) => n.cChain.eth.callDetailed({ transaction: { to: USDC }, block: { blockHash: BLOCK_HASH } }), "eth_callDetailed", [{ to: USDC }, { blockHash: BLOCK_HASH }]],
  ];

  it.each(cases)("%s", async (_name, call, method, params) => {
    answer(null);
    await call(plain());
    expect(server.requests.at(-1)!.headers["content-type"]).toBe("application/json");
    expect(lastBody()).toEqual(envelope(method, params));
  });

  it.each([
    ["both blockHash and blockNumber (the node refuses it too: 'cannot specify both')", { blockHash: BLOCK_HASH, blockNumber: "0x1" }],
    ["a short blockHash", { blockHash: "0x65e18b", requireCanonical: true }],
    ["an unknown tag", "acceptedd"],
    ["a quantity with a leading zero (hexutil: ErrLeadingZero)", "0x04a3c2e1"],
  ])("control: %s is still refused before sending", async (_name, block) => {
    const before = server.requests.length;
    // strings type-check as block parameters (the patterns are runtime checks), so the cases are cast
    const err = await plain().cChain.eth.getBalance({ address: ALICE, block: block as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(server.requests.length).toBe(before);
  });
});

it("the deprecated and removed methods called above warned, each with its release", () => {
  const removed = ["eth_getBadBlocks", "eth_accounts", "eth_coinbase", "admin_startCPUProfiler", "admin_getVMConfig"];
  for (const m of removed) expect([...warnings].some((w) => w.startsWith(`${m} is removed in Helicon (v1.15.0)`)), m).toBe(true);
  expect([...warnings].some((w) => w.startsWith("native.getAtomicTxStatus is deprecated since Helicon (v1.15.0)"))).toBe(true);
  for (const w of warnings) expect(w).toMatch(/ (is deprecated|is removed)/);
});
