/**
 * Issue 16, node APIs: replies in the real wire form pass the generated
 * client with strict response validation, against a real loopback server.
 * Each payload names the AvalancheGo source it is written from (the Go
 * structs at ava-labs/avalanchego 1cf1fc3d17, August 2026).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
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
const node = () => createNodeClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });

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
