/**
 * Issue 16, Data API: what the real service sends passes the generated client
 * under strict response validation, against a real loopback server.
 *
 * Sources: the requirements (docs/requirements/data-and-metrics-api.txt),
 * which win where explicit (e.g. `Money.value` is a decimal string, the four
 * `validationStatus` values); elsewhere the real service's own OpenAPI
 * document, glacier.json (ava-labs/builders-hub, public/openapi/glacier.json
 * at d9e88bfde, its newest version). Every payload below names the schema of
 * glacier.json it is written from; values are the document's own `examples`
 * where it has them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import {
  createDataApiClient,
  isCChainExportTransaction,
  isCChainImportTransaction,
  isPChainTransaction,
  isXChainLinearTransaction,
  isXChainNonLinearTransaction,
} from "@avaspec/client/data-api";
import { typecheckAgainstGenerated } from "../helpers/cli.js";
import { dataApiCases } from "../helpers/data-calls.js";
import { realDataApiReplies } from "./real-wire/data-api.js";
import { loadSpec } from "../helpers/spec.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const client = () => createDataApiClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });
/** Answers the next calls with `body`. */
const answer = (body: unknown) => server.reply(() => ({ body }));
/** The error a call rejects with (or undefined). */
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

const X_CHAIN = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
const C_CHAIN = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
const P_CHAIN = "11111111111111111111111111111111LpoYY";
// glacier.json #/components/schemas/AssetAmount (type: PrimaryNetworkAssetType)
const avax = (amount: string) => ({ assetId: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z", name: "Avalanche", symbol: "AVAX", denomination: 9, type: "secp256k1", amount });
// glacier.json #/components/schemas/UtxoCredential (its examples)
const credential = { signature: "bWWoZUu0Z3STjuk/+2az7M4vP0oqc9NtiA7kOdqINCIE/2+5va5R1KNCWwEX5jE1xVHLvAxU2LHTN5gK8m84HwA", publicKey: "AdMQOtubgBFFJu++0faHPIIA6KmdZ2ERErMRGzyy6juI" };

// ------------------------------------------------------------------ getTxByHash

// glacier.json #/components/schemas/PChainTransaction, a ConvertSubnetToL1Tx (PChainUtxo, L1ValidatorManagerDetails, L1ValidatorDetailsTransaction)
const pChainTx = {
  txHash: "3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP",
  txType: "ConvertSubnetToL1Tx",
  blockTimestamp: 1735689600,
  blockNumber: "18020031",
  blockHash: "2bZ6pzkNUGGNV5HpDw6jCwmBujJpoJHkGLk1xUGoPGTPNtLyEY",
  consumedUtxos: [
    {
      addresses: ["avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw"],
      asset: avax("2001000000"),
      consumedOnChainId: P_CHAIN,
      consumingTxHash: "3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP",
      createdOnChainId: P_CHAIN,
      utxoId: "68vLva9kfKUsX88ZPM8jdbf8qHUZRoZSFH6NdpAVTspkfrXDC",
      amount: "2001000000",
      assetId: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
      blockNumber: "18019990",
      blockTimestamp: 1735680000,
      consumingBlockNumber: "18020031",
      consumingBlockTimestamp: 1735689600,
      platformLocktime: 0,
      outputIndex: 0,
      threshold: 1,
      txHash: "2ZafnotsgcaMLdbw1vp9R2cXyHqbPhQGc3xpQhh7p8uxjtgcaw",
      utxoType: "TRANSFER",
      staked: false,
    },
  ],
  emittedUtxos: [],
  value: [],
  amountBurned: [avax("1000000")],
  amountStaked: [],
  amountL1ValidatorBalanceBurned: [avax("2000000000")],
  subnetId: "2ZafnotsgcaMLdbw1vp9R2cXyHqbPhQGc3xpQhh7p8uxjtgcaw",
  l1ValidatorManagerDetails: { blockchainId: "6qowDPE3VjaJvgqyHeV3DeUQ87FCLbkgqm8ChEHSKeU972G4a", contractAddress: "0x0Feedc0de0000000000000000000000000000000" },
  l1ValidatorDetails: [
    {
      validationId: "22kPCBs1Y3wQNbchn5vN3EwKssPoanUYcorWprPMbERGgz1SHC",
      validationIdHex: "0x9db66c90d82760a1f13b6410ea9add0ef3aabcc2d181f160342389b3269bd0e6",
      nodeId: "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY",
      subnetId: "2ZafnotsgcaMLdbw1vp9R2cXyHqbPhQGc3xpQhh7p8uxjtgcaw",
      weight: 100,
      remainingBalance: 2000000000,
      balanceChange: 2000000000,
      blsCredentials: { publicKey: "0xdab2b8a7dc1c510d69c15610530db6b69c1f879ead9f77fbbc51ec32116314573b428ac1e24d4b1cbb1a6365bef41d65" },
    },
  ],
  memo: "0x",
};

// glacier.json #/components/schemas/XChainLinearTransaction, an ExportTx to the P-Chain (Utxo: outputIndex a string, utxoType lower case)
const xChainLinearTx = {
  txHash: "3j9JpF1aGuQtLLbo3YkvvKkWrCZViXZjdeJQWUSEY5hcqUn2c",
  chainFormat: "linear",
  timestamp: 1712345678,
  txType: "ExportTx",
  memo: "0x546865204176616c616e6368652050726f6a656374",
  consumedUtxos: [
    {
      addresses: ["avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw"],
      asset: avax("5001000"),
      consumedOnChainId: X_CHAIN,
      consumingTxHash: "3j9JpF1aGuQtLLbo3YkvvKkWrCZViXZjdeJQWUSEY5hcqUn2c",
      createdOnChainId: X_CHAIN,
      utxoId: "68vLva9kfKUsX88ZPM8jdbf8qHUZRoZSFH6NdpAVTspkfrXDC",
      consumingTxTimestamp: 1712345678,
      creationTxHash: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
      credentials: [credential],
      locktime: 0,
      outputIndex: "38",
      threshold: 1,
      timestamp: 1599696000,
      utxoType: "transfer",
    },
  ],
  emittedUtxos: [
    {
      addresses: ["avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw"],
      asset: avax("4001000"),
      consumedOnChainId: P_CHAIN,
      createdOnChainId: X_CHAIN,
      utxoId: "UXqowuFmv168aUKam68zh14exAqbAQiotD1sNEWJPkPqxkLFf",
      creationTxHash: "3j9JpF1aGuQtLLbo3YkvvKkWrCZViXZjdeJQWUSEY5hcqUn2c",
      locktime: 0,
      outputIndex: "0",
      threshold: 1,
      timestamp: 1712345678,
      utxoType: "transfer",
    },
  ],
  amountUnlocked: [avax("5001000")],
  amountCreated: [avax("4001000")],
  sourceChain: X_CHAIN,
  destinationChain: P_CHAIN,
  blockHeight: 1005,
  blockHash: "82qPRREHmh8Cfta4PGD6GymY9ZLyvgYugqW6hj9FykpMVRz1S",
};

// glacier.json #/components/schemas/XChainNonLinearTransaction, a pre-Cortina CreateAssetTx (XChainAssetDetails, TransactionVertexDetail)
const xChainNonLinearTx = {
  txHash: "2mX5hjTFwkWsUJMuVYccDHNaBqgWFeG6GzeTMrKZM7ua6tgZBL",
  chainFormat: "non-linear",
  timestamp: 1600762738,
  txType: "CreateAssetTx",
  memo: "0x",
  consumedUtxos: [],
  emittedUtxos: [
    {
      addresses: ["avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw"],
      asset: { assetId: "2mX5hjTFwkWsUJMuVYccDHNaBqgWFeG6GzeTMrKZM7ua6tgZBL", name: "Schmeckles", symbol: "SMK", denomination: 0, type: "nft", amount: "1" },
      consumedOnChainId: X_CHAIN,
      createdOnChainId: X_CHAIN,
      utxoId: "fqZZBWyTW7JfaCBcKPGnXtR3EK2qZXo2uYsuYZXsgJzL2XSXz",
      creationTxHash: "2mX5hjTFwkWsUJMuVYccDHNaBqgWFeG6GzeTMrKZM7ua6tgZBL",
      groupId: 0,
      locktime: 0,
      outputIndex: "1",
      payload: "0x68656c6c6f",
      threshold: 1,
      timestamp: 1600762738,
      utxoType: "mint",
    },
  ],
  amountUnlocked: [],
  amountCreated: [],
  assetCreated: { assetId: "2mX5hjTFwkWsUJMuVYccDHNaBqgWFeG6GzeTMrKZM7ua6tgZBL", name: "Schmeckles", symbol: "SMK", denomination: 0, type: "nft", createdAtTimestamp: 1600762738, cap: "variable" },
  vertices: [{ hash: "82qPRREHmh8Cfta4PGD6GymY9ZLyvgYugqW6hj9FykpMVRz1S", height: 1961, timestamp: 1600762738 }],
};

// glacier.json #/components/schemas/CChainExportTransaction (EVMInput, Utxo)
const cChainExportTx = {
  txHash: "VyHGBoA1xAGTxftHVwHEwCNvU8VXT9STAK63JYieLwHud65QZ",
  blockHeight: 41530011,
  blockHash: "0x57a5cb7704561d1d59bd563b6421021b7563960c05ba3ae0e36fc36917c742ee",
  timestamp: 1712345678,
  memo: "0x",
  amountUnlocked: [avax("1000351250")],
  amountCreated: [avax("1000000000")],
  sourceChain: C_CHAIN,
  destinationChain: X_CHAIN,
  txType: "ExportTx",
  evmInputs: [{ fromAddress: "0xD0f2898e49d941D6d479B381d3C8F0bd8d983b4c", asset: avax("1000351250"), credentials: [credential] }],
  emittedUtxos: [
    {
      addresses: ["avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw"],
      asset: avax("1000000000"),
      consumedOnChainId: X_CHAIN,
      createdOnChainId: C_CHAIN,
      utxoId: "2ZafnotsgcaMLdbw1vp9R2cXyHqbPhQGc3xpQhh7p8uxjtgcaw",
      creationTxHash: "VyHGBoA1xAGTxftHVwHEwCNvU8VXT9STAK63JYieLwHud65QZ",
      locktime: 0,
      outputIndex: "0",
      threshold: 1,
      timestamp: 1712345678,
      utxoType: "transfer",
    },
  ],
};

// glacier.json #/components/schemas/CChainImportTransaction (EVMOutput, Utxo)
const cChainImportTx = {
  txHash: "UXqowuFmv168aUKam68zh14exAqbAQiotD1sNEWJPkPqxkLFf",
  blockHeight: 41530100,
  blockHash: "0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c",
  timestamp: 1712346000,
  memo: "0x",
  amountUnlocked: [avax("2000000000")],
  amountCreated: [avax("1999721250")],
  sourceChain: P_CHAIN,
  destinationChain: C_CHAIN,
  txType: "ImportTx",
  evmOutputs: [{ toAddress: "0xD0f2898e49d941D6d479B381d3C8F0bd8d983b4c", asset: avax("1999721250") }],
  consumedUtxos: [
    {
      addresses: ["avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw"],
      asset: avax("2000000000"),
      consumedOnChainId: C_CHAIN,
      consumingTxHash: "UXqowuFmv168aUKam68zh14exAqbAQiotD1sNEWJPkPqxkLFf",
      createdOnChainId: P_CHAIN,
      utxoId: "xzYEfobGRhWsSzB9M1pdYKFeNCdbRV9GpcFrAYWTuArpXA1oK",
      consumingTxTimestamp: 1712346000,
      creationTxHash: "3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP",
      credentials: [credential],
      locktime: 0,
      outputIndex: "1",
      threshold: 1,
      timestamp: 1712340000,
      utxoType: "transfer",
    },
  ],
};

const guards = { PChainTransaction: isPChainTransaction, XChainLinearTransaction: isXChainLinearTransaction, XChainNonLinearTransaction: isXChainNonLinearTransaction, CChainExportTransaction: isCChainExportTransaction, CChainImportTransaction: isCChainImportTransaction };

describe("getTxByHash: the P-, X- and C-Chain shapes of the real service", () => {
  it.each([
    ["PChainTransaction", "p-chain", pChainTx],
    ["XChainLinearTransaction", "x-chain", xChainLinearTx],
    ["XChainNonLinearTransaction", X_CHAIN, xChainNonLinearTx],
    ["CChainExportTransaction", "c-chain", cChainExportTx],
    ["CChainImportTransaction", C_CHAIN, cChainImportTx],
  ] as const)("a real %s passes strict validation, and exactly that branch of the oneOf matches", async (branch, blockchainId, payload) => {
    answer(payload);
    const tx = await client().getTxByHash({ network: "mainnet", blockchainId, txHash: payload.txHash });
    expect(tx).toEqual(payload);
    expect(server.requests.at(-1)!.url).toBe(`/v1/networks/mainnet/blockchains/${blockchainId}/transactions/${payload.txHash}`);
    const matching = Object.entries(guards).filter(([, is]) => is(payload)).map(([name]) => name);
    expect(matching).toEqual([branch]);
  });

  it("an X-Chain UTXO's outputIndex is a string: a number there is refused", async () => {
    answer({ ...xChainLinearTx, emittedUtxos: [{ ...xChainLinearTx.emittedUtxos[0], outputIndex: 0 }] });
    const e = await failure(client().getTxByHash({ network: "mainnet", blockchainId: "x-chain", txHash: xChainLinearTx.txHash }));
    expect(e).toBeInstanceOf(ValidationError);
  });

  it("a payload that would match two branches (linear block fields and DAG vertices at once) is refused", async () => {
    const both = { ...xChainLinearTx, vertices: xChainNonLinearTx.vertices };
    expect(isXChainLinearTransaction(both) && isXChainNonLinearTransaction(both)).toBe(true);
    answer(both);
    const e = await failure(client().getTxByHash({ network: "mainnet", blockchainId: "x-chain", txHash: both.txHash }));
    expect(e).toBeInstanceOf(ValidationError);
  });

  it("a P-Chain transaction without amountL1ValidatorBalanceBurned (required by the real document) is refused", async () => {
    const { amountL1ValidatorBalanceBurned: _, ...without } = pChainTx;
    answer(without);
    expect(await failure(client().getTxByHash({ network: "mainnet", blockchainId: "p-chain", txHash: pChainTx.txHash }))).toBeInstanceOf(ValidationError);
  });
});

// ------------------------------------------------------------------ getSingleValidatorDetails

const validatorBase = {
  txHash: "UXqowuFmv168aUKam68zh14exAqbAQiotD1sNEWJPkPqxkLFf",
  nodeId: "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY",
  subnetId: P_CHAIN,
  amountStaked: "2000000000000",
  delegationFee: "2.0000",
  startTimestamp: 1709251200,
  endTimestamp: 1740787200,
  blsCredentials: {
    publicKey: "0xdab2b8a7dc1c510d69c15610530db6b69c1f879ead9f77fbbc51ec32116314573b428ac1e24d4b1cbb1a6365bef41d65",
    proofOfPossession: "0xe584f932dedda807a795a1eddcf6e5a14e0562ca7ea1c3cfcae19cd684b496776b91b9e799b1e6432bcf5c8f365bdfa981b1358a21a273b88ece4b7a74fdc026199f647c4463be35b721ec10c9bba168aa2e7fddc2bebbe05ef9810c2c9ec0a6",
  },
};
// glacier.json #/components/schemas/CompletedValidatorDetails (Rewards)
const completed = { ...validatorBase, delegatorCount: 12, amountDelegated: "5310250000000", rewards: { validationRewardAmount: "142086450121", delegationRewardAmount: "7534210773", rewardAddresses: ["avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg"], rewardTxHash: "xzYEfobGRhWsSzB9M1pdYKFeNCdbRV9GpcFrAYWTuArpXA1oK" }, validationStatus: "completed" };
// glacier.json #/components/schemas/ActiveValidatorDetails (ValidatorHealthDetails, Geolocation)
const active = {
  ...validatorBase,
  txHash: "2mX5hjTFwkWsUJMuVYccDHNaBqgWFeG6GzeTMrKZM7ua6tgZBL",
  startTimestamp: 1740787300,
  endTimestamp: 1772323300,
  stakePercentage: 0.0299,
  delegatorCount: 9,
  amountDelegated: "4127500000000",
  uptimePerformance: 99.87,
  avalancheGoVersion: "avalanche/1.13.0",
  delegationCapacity: "11872500000000",
  potentialRewards: { validationRewardAmount: "141920311842", delegationRewardAmount: "5861344127" },
  validationStatus: "active",
  validatorHealth: { reachabilityPercent: 100, benchedPChainRequestsPercent: 0, benchedXChainRequestsPercent: 0, benchedCChainRequestsPercent: 0.12 },
  geolocation: { city: "Frankfurt am Main", country: "Germany", countryCode: "DE", latitude: 50.1109, longitude: 8.6821 },
};
// the same, where the service does not know the node's location (ActiveValidatorDetails.geolocation: nullable)
const activeUnlocated = { ...active, txHash: "22kPCBs1Y3wQNbchn5vN3EwKssPoanUYcorWprPMbERGgz1SHC", geolocation: null };
// glacier.json #/components/schemas/PendingValidatorDetails
const pending = { ...validatorBase, txHash: "fqZZBWyTW7JfaCBcKPGnXtR3EK2qZXo2uYsuYZXsgJzL2XSXz", startTimestamp: 1772323400, endTimestamp: 1803859400, validationStatus: "pending" };
// glacier.json #/components/schemas/RemovedValidatorDetails (a subnet validator: no BLS credentials, no delegation fee)
const removed = { txHash: "6qowDPE3VjaJvgqyHeV3DeUQ87FCLbkgqm8ChEHSKeU972G4a", nodeId: "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY", subnetId: "2ZafnotsgcaMLdbw1vp9R2cXyHqbPhQGc3xpQhh7p8uxjtgcaw", amountStaked: "100", startTimestamp: 1709251200, endTimestamp: 1740787200, removeTxHash: "VyHGBoA1xAGTxftHVwHEwCNvU8VXT9STAK63JYieLwHud65QZ", removeTimestamp: 1720000000, validationStatus: "removed" };

describe("getSingleValidatorDetails: validators[] by validationStatus", () => {
  const call = () => client().getSingleValidatorDetails({ network: "mainnet", nodeId: "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY" });

  it("completed, active (located or not), pending and removed periods pass strict validation", async () => {
    const page = { nextPageToken: "0b7e2c4d-93fa-4a61-8d25-e1c6f0a9b384", validators: [completed, active, activeUnlocated, pending, removed] };
    answer(page);
    expect(await call()).toEqual(page);
  });

  it("a field whose pattern the real document lacks (delegationCapacity, a BigIntString) passes strict validation in another shape (x-avaspec-response-pattern: false)", async () => {
    // the real document types delegationCapacity as a plain string; the requirement's digits-only pattern checks what is sent
    const page = { validators: [{ ...active, delegationCapacity: "11872500000000.5", amountDelegated: "4.1275e12" }] };
    answer(page);
    expect(await call()).toEqual(page);
  });

  it.each([
    ["an active period without validatorHealth", { ...active, validatorHealth: undefined }],
    ["an active period without its geolocation key (null, not absent, when unknown)", (({ geolocation: _, ...rest }) => rest)(active)],
    ["a completed period without rewards", { ...completed, rewards: undefined }],
    ["a removed period without removeTxHash", { ...removed, removeTxHash: undefined }],
    ["a status the requirement does not name", { ...pending, validationStatus: "retired" }],
  ])("%s is refused", async (_what, validator) => {
    answer({ validators: [JSON.parse(JSON.stringify(validator))] });
    expect(await failure(call())).toBeInstanceOf(ValidationError);
  });
});

// ------------------------------------------------------------------ getContractMetadata, listContractDeployments

const contractBase = {
  name: "Wrapped AVAX",
  description: "WAVAX is AVAX wrapped as an ERC-20 token.",
  officialSite: "https://www.avax.network",
  logoAsset: { assetId: "5VHupNKwnDYJvqMENeV7iJ", imageUri: "https://images.ctfassets.net/gcj8jwzm6086/5VHupNKwnDYJvqMENeV7iJ/fdd6326b7a82c8388e4ee9d4be7062d4/avalanche-avax-logo.svg" },
  resourceLinks: [
    { type: "CoinGecko", url: "https://www.coingecko.com/en/coins/wrapped-avax" },
    { type: "Github", url: "https://github.com/ava-labs" },
  ],
  tags: ["wrapped"],
  address: "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7",
  deploymentDetails: { txHash: "0x824e63ab0282e9374e9950a0a4218fd8e9af3addf005ead774a09b2070331a08", deployerAddress: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" },
};
// glacier.json #/components/schemas/Erc20Contract (PricingProviders)
const erc20 = { ...contractBase, ercType: "ERC-20", symbol: "WAVAX", decimals: 18, pricingProviders: { coingeckoCoinId: "wrapped-avax" } };
// glacier.json #/components/schemas/Erc721Contract
const erc721 = { name: "Example Collectibles", address: "0xbd630d561c90bcdd121667b9446e3e4a63801b61", ercType: "ERC-721", symbol: "EXC" };
// glacier.json #/components/schemas/Erc1155Contract
const erc1155 = { name: "Example Items", address: "0x50bedc4153cb4e1ae398c433ad1679a3f917c630", ercType: "ERC-1155", symbol: "ITEM", pricingProviders: {} };
// glacier.json #/components/schemas/UnknownContract (no symbol)
const unknown = { address: "0xb6a0b40a3f420322a28fd0ec8ba97f25968f7b98", deploymentDetails: { txHash: "0x330528ab3c180c3386c9685a2bd593ad75e5355d44b7ff8db3cdfe17640ccf4e", deployerAddress: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", deployerContractAddress: "0x50bedc4153cb4e1ae398c433ad1679a3f917c630" }, ercType: "UNKNOWN" };

describe("contract metadata by ercType", () => {
  it.each([["ERC-20", erc20], ["ERC-721", erc721], ["ERC-1155", erc1155], ["UNKNOWN", unknown]])("getContractMetadata: an %s contract passes strict validation", async (_ercType, contract) => {
    answer(contract);
    expect(await client().getContractMetadata({ chainId: "43114", address: contract.address as `0x${string}` })).toEqual(contract);
  });

  it("listContractDeployments: a page mixing the four kinds passes strict validation", async () => {
    const page = { nextPageToken: "e6a2d9f1-0c47-4b3e-8f51-7d2b9a0c6e13", contracts: [erc20, erc721, erc1155, unknown] };
    answer(page);
    expect(await client().listContractDeployments({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" })).toEqual(page);
  });

  it.each([
    ["an ERC-20 contract without decimals", (({ decimals: _, ...rest }) => rest)(erc20)],
    ["a contract of a standard the service does not know", { ...erc721, ercType: "ERC-404" }],
  ])("%s is refused", async (_what, contract) => {
    answer(contract);
    expect(await failure(client().getContractMetadata({ chainId: "43114", address: contract.address as `0x${string}` }))).toBeInstanceOf(ValidationError);
  });
});

// ------------------------------------------------------------------ listBlockchains

describe("listBlockchains: genesisData as the real service sends it", () => {
  // glacier.json #/components/schemas/Blockchain (genesisData: EvmGenesisDto, with airdropAmount and baseFeePerGas numbers)
  const evm = {
    createBlockTimestamp: 1766080370,
    createBlockNumber: "23797323",
    blockchainId: "BxUT6DyUMnJiD3Bxnhe7dAEe2bLaeL6eCHsjAiP5wua9eNzyb",
    vmId: "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy",
    subnetId: "wLUs2Y29LqC3vGWrjHaATw2fw5XxSjE63hxPeG7oJ6VcXSgTn",
    blockchainName: "QRTMS",
    evmChainId: 199664,
    genesisData: {
      airdropAmount: 0,
      airdropHash: "0x0000000000000000000000000000000000000000000000000000000000000000",
      alloc: { "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC": { balance: "0xd3c21bcecceda1000000" } },
      baseFeePerGas: 25000000000,
      blobGasUsed: null,
      coinbase: "0x0000000000000000000000000000000000000000",
      config: { chainId: 199664, feeConfig: { gasLimit: 12000000, minBaseFee: 25000000000, targetBlockRate: 2 }, warpConfig: { blockTimestamp: 1766080370, quorumNumerator: 67 } },
      difficulty: "0x0",
      excessBlobGas: null,
      gasLimit: "0xb71b00",
      timestamp: "0x6943a272",
    },
  };
  // glacier.json #/components/schemas/Blockchain (genesisData: the string branch, its example)
  const opaque = { createBlockTimestamp: 1765811639, createBlockNumber: "23735160", blockchainId: "6qowDPE3VjaJvgqyHeV3DeUQ87FCLbkgqm8ChEHSKeU972G4a", vmId: "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6", subnetId: "2ZafnotsgcaMLdbw1vp9R2cXyHqbPhQGc3xpQhh7p8uxjtgcaw", blockchainName: "custom-vm", genesisData: '{"chainId": 43114}' };

  it("an EVM genesis with numeric airdropAmount and baseFeePerGas, and a genesis string, pass strict validation", async () => {
    const page = { blockchains: [evm, opaque] };
    answer(page);
    expect(await client().listBlockchains({ network: "mainnet" })).toEqual(page);
  });

  it("a hex-string baseFeePerGas (the old reading) is refused", async () => {
    answer({ blockchains: [{ ...evm, genesisData: { ...evm.genesisData, baseFeePerGas: "0x5d21dba00" } }] });
    expect(await failure(client().listBlockchains({ network: "mainnet" }))).toBeInstanceOf(ValidationError);
  });
});

// ------------------------------------------------------------------ EVM transactions: post-Granite fields, real enum values

// glacier.json #/components/schemas/NativeTransaction (blockTimestampMilliseconds, blockMinDelayExcess: their examples)
const nativeTx = {
  blockNumber: "71234567",
  blockTimestamp: 1764000000,
  blockTimestampMilliseconds: 1764000000123,
  blockMinDelayExcess: 7477290,
  blockHash: "0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c",
  chainId: "43114",
  blockIndex: 0,
  txHash: "0x3e9303f81be00b4af28515dab7b914bf3dbff209ea10e7071fa24d4af0a112d4",
  txStatus: "1",
  txType: 1,
  gasLimit: "51373",
  gasUsed: "51373",
  gasPrice: "470000000000",
  nonce: "1",
  from: { address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" },
  to: { name: "Wrapped AVAX", symbol: "WAVAX", decimals: 18, logoUri: "https://images.ctfassets.net/gcj8jwzm6086/5VHupNKwnDYJvqMENeV7iJ/fdd6326b7a82c8388e4ee9d4be7062d4/avalanche-avax-logo.svg", address: "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7" },
  method: { callType: "CONTRACT_CALL", methodHash: "0xa9059cbb", methodName: "transfer(address,uint256)" },
  value: "0",
};

describe("EVM transactions: the real service's newer fields and enum values", () => {
  it("getTransactionsForBlock: a post-Granite native transaction passes strict validation", async () => {
    const page = { transactions: [nativeTx] };
    answer(page);
    expect(await client().getTransactionsForBlock({ chainId: "43114", blockId: "71234567" })).toEqual(page);
  });

  it("listErc20Transactions: a post-Granite ERC-20 transfer passes strict validation", async () => {
    // glacier.json #/components/schemas/Erc20Transfer (Erc20Token; Money.value a decimal string, as the requirement says)
    const page = {
      transactions: [
        {
          blockNumber: "71234567",
          blockTimestamp: 1764000000,
          blockTimestampMilliseconds: 1764000000123,
          blockHash: "0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c",
          txHash: "0x3e9303f81be00b4af28515dab7b914bf3dbff209ea10e7071fa24d4af0a112d4",
          from: { address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" },
          to: { address: "0xD0f2898e49d941D6d479B381d3C8F0bd8d983b4c" },
          logIndex: 3,
          value: "10000000000000000000",
          erc20Token: { address: "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7", name: "Wrapped AVAX", symbol: "WAVAX", decimals: 18, ercType: "ERC-20", price: { currencyCode: "usd", value: "42.42" } },
        },
      ],
    };
    answer(page);
    expect(await client().listErc20Transactions({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" })).toEqual(page);
  });

  it("getTransaction: post-Granite fields and NFT, internal-call and Teleporter enum values pass strict validation", async () => {
    // glacier.json #/components/schemas/GetTransactionResponse (FullNativeTransactionDetails, Erc721TransferDetails, Erc1155TransferDetails,
    // InternalTransactionDetails, TeleporterMessageInfo; NftTokenMetadataStatus, InternalTransactionOpCall, TransactionDirectionType)
    const details = {
      erc721Transfers: [
        {
          from: { address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" },
          to: { address: "0xD0f2898e49d941D6d479B381d3C8F0bd8d983b4c" },
          logIndex: 1,
          erc721Token: { address: "0xbd630d561c90bcdd121667b9446e3e4a63801b61", name: "Example Collectibles", symbol: "EXC", ercType: "ERC-721", tokenId: "42", tokenUri: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/42", metadata: { indexStatus: "INDEXED", metadataLastUpdatedTimestamp: 1764000000, name: "Example #42" } },
        },
      ],
      erc1155Transfers: [
        {
          from: { address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" },
          to: { address: "0xD0f2898e49d941D6d479B381d3C8F0bd8d983b4c" },
          logIndex: 2,
          value: "3",
          erc1155Token: { address: "0x50bedc4153cb4e1ae398c433ad1679a3f917c630", ercType: "ERC-1155", tokenId: "7", tokenUri: "https://items.example.com/7.json", metadata: { indexStatus: "UNREACHABLE_TOKEN_URI" } },
        },
      ],
      internalTransactions: [{ from: { address: "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7" }, to: { address: "0x50bedc4153cb4e1ae398c433ad1679a3f917c630" }, internalTxType: "DELEGATECALL", value: "0", isReverted: false, gasUsed: "2300", gasLimit: "30000" }],
      networkTokenDetails: { networkToken: { name: "Avalanche", symbol: "AVAX", decimals: 18 } },
      nativeTransaction: { ...nativeTx, input: "0xa9059cbb", baseFeePerGas: "25000000000", maxFeePerGas: "30000000000", maxPriorityFeePerGas: "1500000000" },
      teleporterMessageInfo: { teleporterMessageId: "0x2c4b3fa4bd7b8d0e5c0c2bd94e6f4a1f5e2d1c0b9a8f7e6d5c4b3a2918171615", direction: "DESTINATION_TRANSACTION", sourceChainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" },
    };
    answer(details);
    expect(await client().getTransaction({ chainId: "43114", txHash: nativeTx.txHash as `0x${string}` })).toEqual(details);
  });

  it("supportedChains and getChainInfo: an unavailable chain with the real service's enum values passes strict validation", async () => {
    // glacier.json #/components/schemas/ChainInfo (ChainStatus, VmName, enabledFeatures)
    const chain = { chainId: "43113", status: "UNAVAILABLE", chainName: "Avalanche (C-Chain) Fuji", description: "The Contract Chain on Avalanche's test network.", vmName: "EVM", rpcUrl: "https://api.avax-test.network/ext/bc/C/rpc", isTestnet: true, networkToken: { name: "Avalanche", symbol: "AVAX", decimals: 18 }, enabledFeatures: ["nftIndexing", "webhooks", "teleporter"] };
    answer(chain);
    expect(await client().getChainInfo({ chainId: "43113" })).toEqual(chain);
    answer({ chains: [chain] });
    expect(await client().supportedChains({})).toEqual({ chains: [chain] });
  });

  it("getChainIdsForAddresses: the fixed primary-network blockchain ids pass strict validation", async () => {
    // glacier.json #/components/schemas/ChainAddressChainIdMapListResponse (BlockchainIds)
    const body = { addresses: [{ address: "avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw", blockchainIds: [P_CHAIN, X_CHAIN, C_CHAIN] }] };
    answer(body);
    expect(await client().getChainIdsForAddresses({ network: "mainnet", addresses: "avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw" })).toEqual(body);
  });
});

// ------------------------------------------------------------------ issue 27: every operation beyond the requirement

/** The replies with `Money.value` as the requirement types it (a decimal string) instead of the real JSON number. */
function withMoneyAsString(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withMoneyAsString);
  if (!value || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  if (Object.keys(o).sort().join() === "currencyCode,value" && typeof o["value"] === "number") return { ...o, value: String(o["value"]) };
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withMoneyAsString(v)]));
}
const hasNumericMoney = (value: unknown): boolean => JSON.stringify(withMoneyAsString(value)) !== JSON.stringify(value);

describe("the operations beyond the requirement: real inputs are sent and real replies pass strict validation", () => {
  const cases = new Map(dataApiCases.map((c) => [c.id, c]));

  it("has a real reply (or a body-less success) and a call for every operation of the real document beyond the requirement", () => {
    expect(Object.keys(realDataApiReplies)).toHaveLength(67);
    for (const id of Object.keys(realDataApiReplies)) expect(cases.has(id), id).toBe(true);
  });

  const rows = Object.entries(realDataApiReplies).flatMap(([id, replies]) => (replies.length ? replies.map((reply, i) => [id, i, reply] as const) : [[id, 0, undefined] as const]));
  it.each(rows)("%s (reply %i)", async (id, _i, reply) => {
    const c = cases.get(id)!;
    // sent as the real service sends it (Money.value a JSON number); returned in the requirement's types (a decimal string)
    server.reply(() => ({ status: id === "reindexNft" ? 201 : 200, body: reply }));
    const before = server.requests.length;
    const result = await c.call(client());
    expect(server.requests.length).toBe(before + 1);
    const req = server.requests.at(-1)!;
    expect(req.method).toBe(c.method);
    expect(req.url).toBe(c.url);
    if (c.body !== undefined) expect(JSON.parse(req.body)).toEqual(c.body);
    expect(result).toEqual(withMoneyAsString(reply));
  });

  it("Money.value as the real service sends it, a JSON number, passes strict validation and comes back as the requirement's decimal string (x-avaspec-wire-form)", async () => {
    const [id, replies] = Object.entries(realDataApiReplies).find(([, r]) => r.some(hasNumericMoney))!;
    const reply = replies.find(hasNumericMoney)!;
    expect(JSON.stringify(reply)).toContain('"value":42.42');
    server.reply(() => ({ body: reply }));
    const result = await cases.get(id)!.call(client());
    expect(JSON.stringify(result)).toContain('"value":"42.42"');
    expect(hasNumericMoney(result)).toBe(false);
    // the requirement's form passes too, as it is
    server.reply(() => ({ body: withMoneyAsString(reply) }));
    expect(await cases.get(id)!.call(client())).toEqual(withMoneyAsString(reply));
    // a value in neither form is still refused, at the field
    server.reply(() => ({ body: JSON.parse(JSON.stringify(reply).replace('"value":42.42', '"value":true')) }));
    const e = await failure(cases.get(id)!.call(client()));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).issues.some((i) => i.path.endsWith("/value") && /string/.test(i.message))).toBe(true);
  });
});

// ------------------------------------------------------------------ the spec's enums: open where the service may add values, closed where they discriminate

describe("enumerations", () => {
  const spec = loadSpec("data-api.openapi.json");
  const schemas = spec.components["schemas"] as Record<string, Record<string, any>>;

  it.each(["ChainStatus", "VmName", "TransactionMethodType", "InternalTransactionOpCall", "TransactionDirectionType", "NftTokenMetadataStatus", "ResourceLinkType", "PrimaryNetworkAssetType", "PrimaryNetworkAssetCap", "RewardType", "UtxoType", "PChainTransactionType", "XChainTransactionType", "PrimaryNetworkBlockchainId"])(
    "%s lists the real service's values and stays open (x-avaspec-open-enum)",
    (name) => {
      expect(schemas[name]!["enum"]!.length).toBeGreaterThan(1);
      expect(schemas[name]!["x-avaspec-open-enum"]).toBe(true);
    },
  );

  it("validationStatus (enumerated by the requirement) and the discriminating ercType stay closed", () => {
    expect(schemas["ValidationStatus"]!["x-avaspec-open-enum"]).toBeUndefined();
    for (const name of ["CompletedValidatorDetails", "ActiveValidatorDetails", "PendingValidatorDetails", "RemovedValidatorDetails"]) expect(schemas[name]!["properties"]["validationStatus"]["x-avaspec-open-enum"]).toBeUndefined();
    for (const name of ["Erc20Contract", "Erc721Contract", "Erc1155Contract", "UnknownContract"]) expect(schemas[name]!["properties"]["ercType"]["enum"]).toHaveLength(1);
    expect(schemas["ValidatorDetails"]!["discriminator"]["propertyName"]).toBe("validationStatus");
    expect(schemas["ContractMetadata"]!["discriminator"]["propertyName"]).toBe("ercType");
  });
});

// ------------------------------------------------------------------ types: the unions narrow

const typecheck = (code: string) => typecheckAgainstGenerated({ "check.ts": code });

describe("types: a switch on the discriminator narrows", () => {
  const narrowing = `
import type { ContractMetadata, PrimaryNetworkTransaction, ValidatorDetails } from "@avaspec/client/data-api";

export function summary(v: ValidatorDetails): string {
  switch (v.validationStatus) {
    case "completed":
      return v.rewards.validationRewardAmount;
    case "active":
      return \`\${v.stakePercentage} \${v.validatorHealth.reachabilityPercent} \${v.geolocation?.countryCode ?? "?"} \${v.potentialRewards.validationRewardAmount}\`;
    case "pending":
      return v.txHash;
    case "removed":
      return v.removeTxHash;
    default: {
      const never: never = v;
      return never;
    }
  }
}

export function decimals(c: ContractMetadata): number | undefined {
  switch (c.ercType) {
    case "ERC-20":
      return c.decimals;
    case "ERC-1155":
      return c.pricingProviders?.coingeckoCoinId?.length;
    case "ERC-721":
    case "UNKNOWN":
      return undefined;
  }
}

export function outputIndexes(tx: PrimaryNetworkTransaction): string[] {
  if ("evmInputs" in tx) return tx.emittedUtxos.map((u) => u.outputIndex);
  if ("chainFormat" in tx) return tx.emittedUtxos.map((u) => u.outputIndex);
  if ("blockNumber" in tx) return tx.emittedUtxos.map((u) => String(u.outputIndex));
  return tx.consumedUtxos.map((u) => u.outputIndex);
}
`;

  it("ValidatorDetails by validationStatus, ContractMetadata by ercType, and the transaction shapes by their fields", () => {
    expect(typecheck(narrowing)).toBe("");
  }, 120_000);

  it("control: without narrowing, status-specific fields are not there", () => {
    const out = typecheck(`
import type { ValidatorDetails } from "@avaspec/client/data-api";
export const rewards = (v: ValidatorDetails) => v.rewards;
export function wrongCase(v: ValidatorDetails): string {
  if (v.validationStatus === "active") return v.removeTxHash;
  return "";
}
`);
    expect(out).toMatch(/Property 'rewards' does not exist/);
    expect(out).toMatch(/Property 'removeTxHash' does not exist/);
  }, 120_000);
});
