/**
 * Issue 27: replies of the Metrics API's current operations in the real wire form, one per operation. Each is built
 * from the real service's own response schema in popsicle.json (ava-labs/builders-hub d9e88bfde,
 * public/openapi/popsicle.json; BSD-3-Clause, see test/spec/real-operations/README.md): every property the schema
 * declares, with the real types (`sortKey` a string) and the document's own example values where it gives them;
 * the comment above each names the response schema and the schemas nested in it. Written once by a script from the
 * document; values the document gives no example for are ordinary ones of the declared type.
 */
export const realMetricsApiReplies: Record<string, unknown[]> = {
  // popsicle.json #/components/schemas/HealthCheckResultDto (no nested schemas)
  "metrics-health-check": [{ status: "error", info: { database: { status: "up" } }, error: {}, details: { database: { status: "up" } } }],
  // popsicle.json #/components/schemas/HealthCheckResultDto (no nested schemas)
  "metrics-live-check": [{ status: "error", info: { database: { status: "up" } }, error: {}, details: { database: { status: "up" } } }],
  // popsicle.json #/components/schemas/ListChainsResponse (Chain, NetworkType)
  listChains: [
    {
      nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
      chains: [{ evmChainId: 43114, chainName: "c_chain", blockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", subnetId: "11111111111111111111111111111111LpoYY", network: "mainnet" }],
    },
  ],
  // popsicle.json #/components/schemas/Chain (NetworkType)
  getChain: [{ evmChainId: 43114, chainName: "c_chain", blockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", subnetId: "11111111111111111111111111111111LpoYY", network: "mainnet" }],
  // popsicle.json #/components/schemas/MetricsApiResponse (MetricsValue)
  getEvmChainMetrics: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", results: [{ value: 37738, timestamp: 1724976000 }] }],
  // popsicle.json #/components/schemas/RollingWindowMetricsApiResponse (ChainRollingWindowMetricsValue)
  getEvmChainRollingWindowMetrics: [{ result: { lastHour: 1, lastDay: 1, lastWeek: 1, lastMonth: 1, last90Days: 1, lastYear: 1, allTime: 1 } }],
  // popsicle.json #/components/schemas/ICMMetricsApiResponse (ICMMetricsValue)
  getICMTimeseries: [
    {
      nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
      results: [{ value: 1250, timestamp: 1724976000, srcBlockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", destBlockchainId: "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY" }],
    },
  ],
  // popsicle.json #/components/schemas/ICMRollingWindowMetricsApiResponse (ICMRollingWindowMetricsValue)
  getICMSummary: [
    {
      result: {
        lastHour: 1,
        lastDay: 1,
        lastWeek: 1,
        lastMonth: 1,
        last90Days: 1,
        lastYear: 1,
        allTime: 1,
        srcBlockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5",
        destBlockchainId: "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY",
      },
    },
  ],
  // popsicle.json #/components/schemas/MetricsApiResponse (MetricsValue)
  getStakingMetrics: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", results: [{ value: 37738, timestamp: 1724976000 }] }],
  // popsicle.json #/components/schemas/MetricsApiResponse (MetricsValue)
  getTotalL1ValidatorMetrics: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", results: [{ value: 37738, timestamp: 1724976000 }] }],
  // popsicle.json #/components/schemas/MetricsApiResponse (MetricsValue)
  getMetricsByValidationId: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", results: [{ value: 37738, timestamp: 1724976000 }] }],
  // popsicle.json #/components/schemas/MetricsApiResponse (MetricsValue)
  getMetricsByNodeId: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", results: [{ value: 37738, timestamp: 1724976000 }] }],
  // popsicle.json #/components/schemas/MetricsApiResponse (MetricsValue)
  getMetricsBySubnetId: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", results: [{ value: 37738, timestamp: 1724976000 }] }],
  // popsicle.json #/components/schemas/LookingGlassResponse (AddressDetails)
  getAddressesByBtcbBridged: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", addresses: [{ address: "0x9f8c163cBA728e99993ABe7495F06c0A3c8Ac8b9", sortKey: "1689800249" }] }],
  // popsicle.json #/components/schemas/PChainLookingGlassResponse (PChainAddressDetails)
  getValidatorsByDateRange: [{ nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", addresses: [{ addresses: ["avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg"], sortKey: "1689800249" }] }],
  // popsicle.json #/components/schemas/CompositeQueryResponse (no nested schemas)
  compositeQueryV2: [
    {
      nextPageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
      subQueryCounts: { "1": 2, "2": 2 },
      totalCount: 2,
      addresses: ["0x9f8c163cBA728e99993ABe7495F06c0A3c8Ac8b9", "0x4aeFa39caEAdD662aE31ab0CE7c8C2c9c0a013E8"],
    },
  ],
};
