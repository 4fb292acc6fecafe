/**
 * Issue 27, the X-Chain (AVM) API and its wallet endpoint: replies in the wire
 * form AvalancheGo writes (vms/avm/service.go and wallet_service.go with the
 * structs of api/common_args_responses.go, ava-labs/avalanchego 1cf1fc3d17)
 * pass strict validation through the generated client on a loopback server,
 * and real params are sent as given, to /ext/bc/X and /ext/bc/X/wallet.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { describeWireCases, useFidelityServer, type WireCase } from "../helpers/fidelity.js";

const f = useFidelityServer();
const X = "/ext/bc/X";
const ADDRESS = "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5";
const TX_ID = "2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD";
const BLOCK_ID = "2jQrUtPYuS6CWVqcFKmvpGedQtNJbwzrGmcbUrx8Hq3knRJNy6";
const AVAX = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z";
const TX_HEX = "0x00000000000000000001ed5f38341e436e5d46e2bb00b45d62ae97d1b050c64bc634ae10626739e35c4b000000012e1a2b3c";

const cases: WireCase[] = [
  // api.GetBlockResponse: block is the encoded string (json.RawMessage of a string)
  { method: "avm.getBlock", source: "service.go GetBlock, api.GetBlockResponse", path: X, call: (n) => n.xChain.avm.getBlock({ blockID: BLOCK_ID, encoding: "hex" }), params: { blockID: BLOCK_ID, encoding: "hex" }, reply: { block: "0x0000000000006a3c9e1b", encoding: "hex" } },
  // json encoding: block.StandardBlock (vms/avm/block/standard_block.go: parentID, height, time, merkleRoot, txs, id) with
  // txs.Tx (unsignedTx, credentials as fxs.FxCredential {fxID, credential}, id)
  {
    method: "avm.getBlockByHeight",
    source: "service.go GetBlockByHeight, block.StandardBlock JSON",
    path: X,
    call: (n) => n.xChain.avm.getBlockByHeight({ height: 5094088, encoding: "json" }),
    params: { height: 5094088, encoding: "json" },
    reply: {
      block: {
        parentID: "2bQmT3jKQdqw7QhCmxDiVnuC8NgVSyFfVmsL7vXYNRYjW7tJfj",
        height: 5094088,
        time: 1755876602,
        merkleRoot: "11111111111111111111111111111111LpoYY",
        txs: [{ unsignedTx: { networkID: 1, blockchainID: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", outputs: [], inputs: [], memo: "0x" }, credentials: [{ fxID: "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ", credential: { signatures: ["0xc79711c4"] } }], id: TX_ID }],
        id: BLOCK_ID,
      },
      encoding: "json",
    },
  },
  { method: "avm.getHeight", source: "service.go GetHeight, api.GetHeightResponse", path: X, call: (n) => n.xChain.avm.getHeight(), params: undefined, reply: { height: "5094088" } },
  { method: "avm.issueTx", source: "service.go IssueTx, api.FormattedTx/JSONTxID", path: X, call: (n) => n.xChain.avm.issueTx({ tx: TX_HEX }), params: { tx: TX_HEX }, reply: { txID: TX_ID } },
  // GetTxStatusReply: choices.Status, only Accepted or Unknown
  { method: "avm.getTxStatus", source: "service.go GetTxStatus, GetTxStatusReply", path: X, call: (n) => n.xChain.avm.getTxStatus({ txID: TX_ID }), params: { txID: TX_ID }, reply: { status: "Unknown" } },
  { method: "avm.getTx", source: "service.go GetTx, api.GetTxReply", path: X, call: (n) => n.xChain.avm.getTx({ txID: TX_ID, encoding: "hexc" }), params: { txID: TX_ID, encoding: "hexc" }, reply: { tx: TX_HEX, encoding: "hexc" } },
  // api.GetUTXOsArgs: limit as a decimal string (json.Uint32 takes both), reply api.GetUTXOsReply
  {
    method: "avm.getUTXOs",
    source: "service.go GetUTXOs, api.GetUTXOsArgs/GetUTXOsReply",
    path: X,
    call: (n) => n.xChain.avm.getUTXOs({ addresses: [ADDRESS], limit: "1024" }),
    params: { addresses: [ADDRESS], limit: "1024" },
    reply: { numFetched: "0", utxos: [], endIndex: { address: ADDRESS, utxo: "11111111111111111111111111111111LpoYY" }, encoding: "hex" },
  },
  // GetAssetDescriptionReply: FormattedAssetID embedded, denomination a json.Uint8 (a decimal string)
  { method: "avm.getAssetDescription", source: "service.go GetAssetDescription, GetAssetDescriptionReply", path: X, call: (n) => n.xChain.avm.getAssetDescription({ assetID: "AVAX" }), params: { assetID: "AVAX" }, reply: { assetID: AVAX, name: "Avalanche", symbol: "AVAX", denomination: "9" } },
  // GetBalanceReply: balance json.Uint64, utxoIDs []avax.UTXOID (outputIndex a plain uint32)
  { method: "avm.getBalance", source: "service.go GetBalance, GetBalanceReply", path: X, call: (n) => n.xChain.avm.getBalance({ address: ADDRESS, assetID: AVAX, includePartial: true }), params: { address: ADDRESS, assetID: AVAX, includePartial: true }, reply: { balance: "299999999999900", utxoIDs: [{ txID: TX_ID, outputIndex: 1 }] } },
  // GetAllBalancesReply: []Balance{asset (alias or ID), balance}
  { method: "avm.getAllBalances", source: "service.go GetAllBalances, GetAllBalancesReply", path: X, call: (n) => n.xChain.avm.getAllBalances({ address: ADDRESS }), params: { address: ADDRESS }, reply: { balances: [{ asset: "AVAX", balance: "102" }] } },
  // GetTxFeeReply: the Mainnet static fees of genesis/genesis_mainnet.go (units.MilliAvax, 10 × MilliAvax)
  { method: "avm.getTxFee", source: "service.go GetTxFee, GetTxFeeReply", path: X, call: (n) => n.xChain.avm.getTxFee(), params: undefined, reply: { txFee: "1000000", createAssetTxFee: "10000000" } },
  // wallet_service.go IssueTx: the same api.FormattedTx/JSONTxID, at /ext/bc/X/wallet
  { method: "wallet.issueTx", source: "wallet_service.go IssueTx", path: `${X}/wallet`, call: (n) => n.xChain.wallet.issueTx({ tx: TX_HEX, encoding: "hex" }), params: { tx: TX_HEX, encoding: "hex" }, reply: { txID: TX_ID } },
];

describeWireCases("X-Chain: the real wire form of every method", f, cases);

describe("X-Chain: controls", () => {
  it("covers the 11 avm methods and wallet.issueTx", () => {
    expect(cases.map((c) => c.method.split(".")[0])).toEqual([...Array(11).fill("avm"), "wallet"]);
  });

  it.each([
    ["a denomination sent as a JSON number", (n: ReturnType<typeof f.node>) => n.xChain.avm.getAssetDescription({ assetID: "AVAX" }), { assetID: AVAX, name: "Avalanche", symbol: "AVAX", denomination: 9 }],
    ["a status the X-Chain never sends", (n: ReturnType<typeof f.node>) => n.xChain.avm.getTxStatus({ txID: TX_ID }), { status: "Processing" }],
    ["a txFee as a JSON number", (n: ReturnType<typeof f.node>) => n.xChain.avm.getTxFee(), { txFee: 1000000, createAssetTxFee: "10000000" }],
  ])("control: %s fails strict validation", async (_name, call, reply) => {
    f.answer(reply);
    await expect(call(f.node())).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("deprecated methods", () => {
  it("warn once per client, through the client's deprecationWarnings (captured here)", () => {
    for (const message of ["avm.getTxStatus is deprecated", "avm.getBalance is deprecated", "avm.getAllBalances is deprecated", "wallet.issueTx is deprecated"]) expect(f.warnings).toContain(message);
    expect(f.warnings.every((w) => / is deprecated| is removed in /.test(w))).toBe(true);
  });
});
