/** Every Data API operation: a valid call and the exact request it must send (shared by the client and interop suites). */
import type { DataApiClient } from "@avaspec/client/data-api";

const H = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
export const TOKEN = "4d8b5f2e-7a13-4c09-b6e1-2f9a0c3d5e71";

/** Every operation: how it is called and the exact request that must go out. */
export const dataApiCases: { id: string; call: (c: DataApiClient) => Promise<unknown>; method: string; url: string; body?: unknown }[] = [
  {
    id: "aggregateSignatures",
    call: (c) => c.aggregateSignatures({ network: "fuji", body: { message: "0xdeadbeef", quorumPercentage: 67, quorumPercentageBuffer: 3, pChainHeight: 0 } }),
    method: "POST",
    url: "/v1/signatureAggregator/fuji/aggregateSignatures",
    body: { message: "0xdeadbeef", quorumPercentage: 67, quorumPercentageBuffer: 3, pChainHeight: 0 },
  },
  {
    id: "getAggregatedSignatures",
    call: (c) => c.getAggregatedSignatures({ network: "mainnet", txHash: "22kPCBs1Y3wQNbchn5vN3EwKssPoanUYcorWprPMbERGgz1SHC" }),
    method: "GET",
    url: "/v1/signatureAggregator/mainnet/aggregateSignatures/22kPCBs1Y3wQNbchn5vN3EwKssPoanUYcorWprPMbERGgz1SHC",
  },
  {
    id: "listBlockchains",
    call: (c) => c.listBlockchains({ network: "mainnet", pageToken: TOKEN, pageSize: 500, sortOrder: "asc" }),
    method: "GET",
    url: `/v1/networks/mainnet/blockchains?pageToken=${TOKEN}&pageSize=500&sortOrder=asc`,
  },
  {
    id: "listErc20Transactions",
    call: (c) => c.listErc20Transactions({ chainId: "43114", address: H, startBlock: 6479329, endBlock: 6479330, pageSize: 25 }),
    method: "GET",
    url: `/v1/chains/43114/addresses/${H}/transactions:listErc20?startBlock=6479329&endBlock=6479330&pageSize=25`,
  },
  {
    id: "getTransactionsForBlock",
    call: (c) => c.getTransactionsForBlock({ chainId: "43114", blockId: "41530011", pageSize: 0 }),
    method: "GET",
    url: "/v1/chains/43114/blocks/41530011/transactions?pageSize=0",
  },
  {
    id: "getSingleValidatorDetails",
    call: (c) => c.getSingleValidatorDetails({ network: "mainnet", nodeId: "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY", validationStatus: "active", sortOrder: "desc", pageToken: TOKEN }),
    method: "GET",
    url: `/v1/networks/mainnet/validators/NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY?pageToken=${TOKEN}&validationStatus=active&sortOrder=desc`,
  },
  {
    id: "listContractDeployments",
    call: (c) => c.listContractDeployments({ chainId: "43114", address: H, pageSize: 100 }),
    method: "GET",
    url: `/v1/chains/43114/contracts/${H}/deployments?pageSize=100`,
  },
  {
    id: "getNativeBalance",
    call: (c) => c.getNativeBalance({ chainId: "43114", address: H, blockNumber: "41530011", currency: "eur" }),
    method: "GET",
    url: `/v1/chains/43114/addresses/${H}/balances:getNative?blockNumber=41530011&currency=eur`,
  },
  {
    id: "getTransaction",
    call: (c) => c.getTransaction({ chainId: "43114", txHash: "0x023de35248d395c52af5894351e79f64dcbd0ff519daceb33b5b084e4d14bd36" }),
    method: "GET",
    url: "/v1/chains/43114/transactions/0x023de35248d395c52af5894351e79f64dcbd0ff519daceb33b5b084e4d14bd36",
  },
  { id: "supportedChains", call: (c) => c.supportedChains({ network: "fuji", feature: "webhooks" }), method: "GET", url: "/v1/chains?network=fuji&feature=webhooks" },
  { id: "getChainInfo", call: (c) => c.getChainInfo({ chainId: "43114" }), method: "GET", url: "/v1/chains/43114" },
  { id: "getContractMetadata", call: (c) => c.getContractMetadata({ chainId: "43114", address: H }), method: "GET", url: `/v1/chains/43114/addresses/${H}` },
  {
    id: "getChainIdsForAddresses",
    call: (c) => c.getChainIdsForAddresses({ network: "mainnet", addresses: "avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw,P-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" }),
    method: "GET",
    url: "/v1/networks/mainnet/addresses:listChainIds?addresses=avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw%2CP-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg",
  },
  {
    id: "getTxByHash",
    call: (c) => c.getTxByHash({ network: "mainnet", blockchainId: "p-chain", txHash: "VyHGBoA1xAGTxftHVwHEwCNvU8VXT9STAK63JYieLwHud65QZ" }),
    method: "GET",
    url: "/v1/networks/mainnet/blockchains/p-chain/transactions/VyHGBoA1xAGTxftHVwHEwCNvU8VXT9STAK63JYieLwHud65QZ",
  },
];
