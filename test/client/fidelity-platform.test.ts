/**
 * Issue 27, the 24 P-Chain methods the requirement does not describe: replies
 * in the wire form AvalancheGo writes (vms/platformvm/service.go and the
 * structs it uses, at ava-labs/avalanchego 1cf1fc3d17) pass strict validation
 * through the generated client on a loopback server, and real params are sent
 * as given. json.Uint64/Uint32 fields are decimal strings; gas.Gas, gas.Price
 * and gas.Dimensions are plain JSON numbers; time.Time is RFC 3339.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { describeWireCases, useFidelityServer, type WireCase } from "../helpers/fidelity.js";

const f = useFidelityServer();
const P = "/ext/bc/P";
const OWNER = { locktime: "0", threshold: "1", addresses: ["P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c"] };
const ADDRESS = "P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5";
const TX_ID = "2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm";
const SUBNET = "2DeHa7Qb6sufPkmQcFWG2uCd4pBPv9WB6dkzroiMQhd1NSRtof";
const EMPTY_ID = "11111111111111111111111111111111LpoYY";
const PK = "0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d";
const UTXO = "0x0000a8e1bec8ad2c3d77e2c64b7cd4de3b06c4cc9b0f9f5b2b3d44c8e6fd8a3a41c900000001b3d9c1d7";

const cases: WireCase[] = [
  // api.GetHeightResponse (api/common_args_responses.go): height is a json.Uint64
  { method: "platform.getHeight", source: "service.go GetHeight, api.GetHeightResponse", path: P, call: (n) => n.platform.getHeight(), params: undefined, reply: { height: "18231702" } },
  { method: "platform.getProposedHeight", source: "service.go GetProposedHeight, api.GetHeightResponse", path: P, call: (n) => n.platform.getProposedHeight(), params: undefined, reply: { height: "18231695" } },
  // api.GetUTXOsArgs: limit a json.Uint32 (a JSON number is accepted), startIndex an api.Index; api.GetUTXOsReply
  {
    method: "platform.getUTXOs",
    source: "service.go GetUTXOs, api.GetUTXOsArgs/GetUTXOsReply",
    path: P,
    call: (n) => n.platform.getUTXOs({ addresses: [ADDRESS], sourceChain: "X", limit: 100, startIndex: { address: ADDRESS, utxo: TX_ID }, encoding: "hex" }),
    params: { addresses: [ADDRESS], sourceChain: "X", limit: 100, startIndex: { address: ADDRESS, utxo: TX_ID }, encoding: "hex" },
    reply: { numFetched: "1", utxos: [UTXO], endIndex: { address: ADDRESS, utxo: "2Sz2XwRYqUHwPeiKoRnZ6ht88YqzAF1SQjMYZQQaB5wBFkAqST" }, encoding: "hex" },
  },
  // GetSubnetResponse: a permissioned subnet's empty IDs and a nil manager address (types.JSONByteSlice writes null)
  {
    method: "platform.getSubnet",
    source: "service.go GetSubnet, GetSubnetResponse",
    path: P,
    call: (n) => n.platform.getSubnet({ subnetID: "2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r" }),
    params: { subnetID: "2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r" },
    reply: { isPermissioned: true, controlKeys: OWNER.addresses, threshold: "1", locktime: "0", subnetTransformationTxID: EMPTY_ID, conversionID: EMPTY_ID, managerChainID: EMPTY_ID, managerAddress: null },
  },
  // GetSubnetsResponse: APISubnet {id, controlKeys, threshold (json.Uint32)}
  { method: "platform.getSubnets", source: "service.go GetSubnets, GetSubnetsResponse", path: P, call: (n) => n.platform.getSubnets({ ids: [SUBNET] }), params: { ids: [SUBNET] }, reply: { subnets: [{ id: SUBNET, controlKeys: OWNER.addresses, threshold: "1" }] } },
  { method: "platform.getStakingAssetID", source: "service.go GetStakingAssetID", path: P, call: (n) => n.platform.getStakingAssetID({ subnetID: EMPTY_ID }), params: { subnetID: EMPTY_ID }, reply: { assetID: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z" } },
  // GetL1ValidatorReply: api.APIL1Validator (validator.go L49-L68) embedded, subnetID, height; convertL1ValidatorToAPI fills every optional field
  {
    method: "platform.getL1Validator",
    source: "service.go GetL1Validator, GetL1ValidatorReply",
    path: P,
    call: (n) => n.platform.getL1Validator({ validationID: "9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo" }),
    params: { validationID: "9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo" },
    reply: { nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", weight: "49463", startTime: "1731445206", validationID: "9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo", publicKey: PK, remainingBalanceOwner: OWNER, deactivationOwner: OWNER, minNonce: "0", balance: "0", subnetID: SUBNET, height: "18231702" },
  },
  // SampleValidatorsArgs.size is a json.Uint16: a decimal string is accepted and sent as given
  { method: "platform.sampleValidators", source: "service.go SampleValidators", path: P, call: (n) => n.platform.sampleValidators({ size: "2", subnetID: SUBNET }), params: { size: "2", subnetID: SUBNET }, reply: { validators: ["NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD", "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"] } },
  { method: "platform.validatedBy", source: "service.go ValidatedBy", path: P, call: (n) => n.platform.validatedBy({ blockchainID: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" }), params: { blockchainID: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" }, reply: { subnetID: EMPTY_ID } },
  { method: "platform.validates", source: "service.go Validates", path: P, call: (n) => n.platform.validates({ subnetID: EMPTY_ID }), params: { subnetID: EMPTY_ID }, reply: { blockchainIDs: ["2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"] } },
  // api.FormattedTx in, api.JSONTxID out
  { method: "platform.issueTx", source: "service.go IssueTx, api.FormattedTx/JSONTxID", path: P, call: (n) => n.platform.issueTx({ tx: "0x00000000000c00000001b3da9a6b", encoding: "hex" }), params: { tx: "0x00000000000c00000001b3da9a6b", encoding: "hex" }, reply: { txID: "G3BuH6ytQ2averrLxJJugjWZHTRubzCrUZEXoheG5JMqL5ccY" } },
  // api.GetTxReply: tx is the hex string for the hex encodings
  { method: "platform.getTx", source: "service.go GetTx, api.GetTxReply (hex)", path: P, call: (n) => n.platform.getTx({ txID: TX_ID, encoding: "hexnc" }), params: { txID: TX_ID, encoding: "hexnc" }, reply: { tx: "0x00000000000c0000000100000000", encoding: "hexnc" } },
  // GetTxStatusResponse: reason only when Dropped (omitempty)
  { method: "platform.getTxStatus", source: "service.go GetTxStatus, GetTxStatusResponse", path: P, call: (n) => n.platform.getTxStatus({ txID: TX_ID }), params: { txID: TX_ID }, reply: { status: "Dropped", reason: "failed to verify: insufficient funds" } },
  // GetStakeReply: staked json.Uint64, stakeds map[ids.ID]json.Uint64, stakedOutputs []string, encoding
  { method: "platform.getStake", source: "service.go GetStake, GetStakeReply", path: P, call: (n) => n.platform.getStake({ addresses: [ADDRESS], validatorsOnly: true }), params: { addresses: [ADDRESS], validatorsOnly: true }, reply: { staked: "2000000000000", stakeds: { FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z: "2000000000000" }, stakedOutputs: ["0x000021e67317cbc4be2aeb00"], encoding: "hex" } },
  { method: "platform.getMinStake", source: "service.go GetMinStake, GetMinStakeReply", path: P, call: (n) => n.platform.getMinStake(), params: undefined, reply: { minValidatorStake: "2000000000000", minDelegatorStake: "25000000000" } },
  { method: "platform.getTotalStake", source: "service.go GetTotalStake, GetTotalStakeReply", path: P, call: (n) => n.platform.getTotalStake({ subnetID: SUBNET }), params: { subnetID: SUBNET }, reply: { stake: "49483", weight: "49483" } },
  { method: "platform.getRewardUTXOs", source: "service.go GetRewardUTXOs, GetRewardUTXOsReply", path: P, call: (n) => n.platform.getRewardUTXOs({ txID: TX_ID }), params: { txID: TX_ID }, reply: { numFetched: "0", utxos: [], encoding: "hex" } },
  // GetTimestampReply: time.Time, RFC 3339 with nanoseconds when the block time has them
  { method: "platform.getTimestamp", source: "service.go GetTimestamp, GetTimestampReply", path: P, call: (n) => n.platform.getTimestamp(), params: undefined, reply: { timestamp: "2026-08-22T15:30:02.123456789Z" } },
  // GetValidatorsAtReply.MarshalJSON: the map itself; a validator without a key has publicKey null (jsonGetValidatorOutput)
  {
    method: "platform.getValidatorsAt",
    source: "service.go GetValidatorsAt, GetValidatorsAtReply.MarshalJSON",
    path: P,
    call: (n) => n.platform.getValidatorsAt({ height: "proposed", subnetID: SUBNET }),
    params: { height: "proposed", subnetID: SUBNET },
    reply: { "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg": { publicKey: PK, weight: "49463" }, "NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD": { publicKey: null, weight: "20" } },
  },
  // GetAllValidatorsAtReply: validatorSets map[ids.ID]validators.WarpSet (snow/validators/warp.go jsonWarpSet/jsonWarp)
  {
    method: "platform.getAllValidatorsAt",
    source: "service.go GetAllValidatorsAt, validators.WarpSet",
    path: P,
    call: (n) => n.platform.getAllValidatorsAt({ height: 18231702 }),
    params: { height: 18231702 },
    reply: { validatorSets: { [SUBNET]: { validators: [{ publicKey: PK, weight: "49463", nodeIDs: ["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"] }], totalWeight: "49483" } } },
  },
  // gas.Config (vms/components/gas/config.go): Dimensions [4]uint64 and uint64 fields, all JSON numbers; the Mainnet values of genesis/genesis_mainnet.go
  { method: "platform.getFeeConfig", source: "service.go GetFeeConfig, gas.Config", path: P, call: (n) => n.platform.getFeeConfig(), params: undefined, reply: { weights: [1, 1000, 1000, 4], maxCapacity: 1000000, maxPerSecond: 100000, targetPerSecond: 50000, minPrice: 1, excessConversionConstant: 2164043 } },
  // GetFeeStateReply: gas.State (capacity, excess) embedded, price, timestamp
  { method: "platform.getFeeState", source: "service.go GetFeeState, GetFeeStateReply", path: P, call: (n) => n.platform.getFeeState(), params: undefined, reply: { capacity: 999214, excess: 0, price: 1, timestamp: "2026-08-22T15:30:02Z" } },
  // fee.Config (vms/platformvm/validators/fee/fee.go): Mainnet values
  { method: "platform.getValidatorFeeConfig", source: "service.go GetValidatorFeeConfig, fee.Config", path: P, call: (n) => n.platform.getValidatorFeeConfig(), params: undefined, reply: { capacity: 20000, target: 10000, minPrice: 512, excessConversionConstant: 1246488515 } },
  { method: "platform.getValidatorFeeState", source: "service.go GetValidatorFeeState, GetValidatorFeeStateReply", path: P, call: (n) => n.platform.getValidatorFeeState(), params: undefined, reply: { excess: 0, price: 512, timestamp: "2026-08-22T15:30:02Z" } },
];

describeWireCases("P-Chain: the real wire form of every further method", f, cases);

describe("P-Chain: other real forms", () => {
  it("covers the 24 methods beyond the requirement's seven", () => {
    expect(new Set(cases.map((c) => c.method)).size).toBe(24);
  });

  it("platform.getTx with json: the decoded transaction object", async () => {
    // api.GetTxReply.Tx is the json.Marshal of txs.Tx (unsignedTx, credentials, id) when encoding is json
    const reply = { tx: { unsignedTx: { networkID: 1, blockchainID: EMPTY_ID, outputs: [], inputs: [], memo: "0x" }, credentials: [{ signatures: ["0xc79711c4"] }], id: TX_ID }, encoding: "json" };
    f.answer(reply);
    await expect(f.node().platform.getTx({ txID: TX_ID, encoding: "json" })).resolves.toEqual(reply);
  });

  it("platform.getSubnet for an L1: the conversion and the manager's chain and address", async () => {
    const reply = { isPermissioned: false, controlKeys: [], threshold: "0", locktime: "0", subnetTransformationTxID: EMPTY_ID, conversionID: "2R9ApSpJRDWUxaqw5FZPZyF2ZXe9nBWBbA6mAekWmpVxBVmnBP", managerChainID: "2Jey2KPy6gUXyqb5Ykn6JCdEx4VPzwZVWKE88mFYMwX1gn4Tbd", managerAddress: "0xfacade0000000000000000000000000000000000" };
    f.answer(reply);
    await expect(f.node().platform.getSubnet({ subnetID: SUBNET })).resolves.toEqual(reply);
  });

  it("platform.getSubnets: a nil slice is sent as null", async () => {
    f.answer({ subnets: null });
    await expect(f.node().platform.getSubnets()).resolves.toEqual({ subnets: null });
  });

  it("height params: a JSON number, a decimal string and proposed are all sent as given", async () => {
    f.answer({});
    for (const height of [18231702, "18231702", "proposed"] as const) {
      await f.node().platform.getValidatorsAt({ height });
      expect(f.lastBody().params).toEqual({ height });
    }
  });

  it.each([
    ["platform.getValidatorsAt in the older documented form {validators: {nodeID: weight}}", (n: ReturnType<typeof f.node>) => n.platform.getValidatorsAt({ height: 1 }), { validators: { "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg": 2000000000000000 } }],
    ["platform.getFeeConfig with weights as strings", (n: ReturnType<typeof f.node>) => n.platform.getFeeConfig(), { weights: ["1", "1000", "1000", "4"], maxCapacity: 1000000, maxPerSecond: 100000, targetPerSecond: 50000, minPrice: 1, excessConversionConstant: 2164043 }],
    ["platform.getHeight with height as a JSON number", (n: ReturnType<typeof f.node>) => n.platform.getHeight(), { height: 18231702 }],
    ["platform.getTxStatus with an unknown status", (n: ReturnType<typeof f.node>) => n.platform.getTxStatus({ txID: TX_ID }), { status: "Accepted" }],
  ])("control: %s fails strict validation", async (_name, call, reply) => {
    f.answer(reply);
    await expect(call(f.node())).rejects.toBeInstanceOf(ValidationError);
  });

  it.each([
    ["a height that is neither a number, a decimal string nor proposed", (n: ReturnType<typeof f.node>) => n.platform.getValidatorsAt({ height: "latest" as never })],
    ["a sample size above a uint16", (n: ReturnType<typeof f.node>) => n.platform.sampleValidators({ size: 65536 })],
    ["an encoding the node does not know", (n: ReturnType<typeof f.node>) => n.platform.getTx({ txID: TX_ID, encoding: "cb58" as never })],
  ])("control: %s is refused before sending", async (_name, call) => {
    const before = f.server().requests.length;
    await expect(call(f.node())).rejects.toBeInstanceOf(ValidationError);
    expect(f.server().requests.length).toBe(before);
  });
});

describe("deprecated methods", () => {
  it("warn once per client, through the client's deprecationWarnings (captured here)", () => {
    for (const message of ["platform.getSubnets is deprecated", "platform.getStake is deprecated", "platform.getRewardUTXOs is deprecated"]) expect(f.warnings).toContain(message);
    expect(f.warnings.every((w) => / is deprecated| is removed in /.test(w))).toBe(true);
  });
});
