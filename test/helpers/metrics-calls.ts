/** Every Metrics API operation: a valid call and the exact request it must send (shared by the client and interop suites). */
import type { MetricsApiClient } from "@avaspec/client/metrics-api";

export const METRICS_TOKEN = "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14";
const TOKEN = METRICS_TOKEN;
/** Every operation: how it is called and the exact request that must go out (getAvgTps twice: the requirement's page token, the service's own parameters). */
export const metricsApiCases: { id: string; call: (c: MetricsApiClient) => Promise<unknown>; method?: string; url: string; body?: unknown }[] = [
  {
    id: "getAddressesByBalanceOverTime",
    call: (c) =>
      c.getAddressesByBalanceOverTime({
        chainId: "43114",
        address: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E",
        threshold: "1000000",
        startTimestamp: 1689541049,
        endTimestamp: 1689800249,
        pageSize: 5000,
      }),
    url: "/v2/chains/43114/contracts/0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E/balances?threshold=1000000&startTimestamp=1689541049&endTimestamp=1689800249&pageSize=5000",
  },
  { id: "getAvgTps", call: (c) => c.getAvgTps({ chainId: "43114", pageToken: TOKEN }), url: `/v1/avg_tps/43114?pageToken=${TOKEN}` },
  {
    id: "getAvgTps",
    call: (c) => c.getAvgTps({ chainId: "43114", from: "1654819200", to: "1655424000", startKey: "MTcyNDYzMDQwMA" }),
    url: "/v1/avg_tps/43114?from=1654819200&to=1655424000&startKey=MTcyNDYzMDQwMA",
  },
  // the sixteen operations of the service's current document (issue 27), from the spec's parameter examples
  {
    id: "listChains",
    call: (c) => c.listChains({ pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", network: "mainnet" }),
    method: "GET",
    url: "/v2/chains?pageToken=3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14&network=mainnet",
  },
  {
    id: "getChain",
    call: (c) => c.getChain({ chainId: "43114" }),
    method: "GET",
    url: "/v2/chains/43114",
  },
  {
    id: "getEvmChainMetrics",
    call: (c) =>
      c.getEvmChainMetrics({
        chainId: "43114",
        metric: "activeAddresses",
        startTimestamp: 1689541049,
        endTimestamp: 1689800249,
        timeInterval: "day",
        pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
        pageSize: 10,
      }),
    method: "GET",
    url: "/v2/chains/43114/metrics/activeAddresses?startTimestamp=1689541049&endTimestamp=1689800249&timeInterval=day&pageToken=3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14&pageSize=10",
  },
  {
    id: "getEvmChainRollingWindowMetrics",
    call: (c) => c.getEvmChainRollingWindowMetrics({ chainId: "43114", metric: "txCount" }),
    method: "GET",
    url: "/v2/chains/43114/rollingWindowMetrics/txCount",
  },
  {
    id: "getICMTimeseries",
    call: (c) =>
      c.getICMTimeseries({
        startTimestamp: 1689541049,
        endTimestamp: 1689800249,
        srcBlockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5",
        destBlockchainId: "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY",
        timeInterval: "day",
        pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
        pageSize: 10,
        groupBy: "destBlockchainId",
        network: "mainnet",
      }),
    method: "GET",
    url: "/v2/icm/timeseries?startTimestamp=1689541049&endTimestamp=1689800249&srcBlockchainId=2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5&destBlockchainId=2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY&timeInterval=day&pageToken=3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14&pageSize=10&groupBy=destBlockchainId&network=mainnet",
  },
  {
    id: "getICMSummary",
    call: (c) =>
      c.getICMSummary({
        srcBlockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5",
        destBlockchainId: "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY",
        groupBy: "destBlockchainId",
        network: "mainnet",
      }),
    method: "GET",
    url: "/v2/icm/summary?srcBlockchainId=2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5&destBlockchainId=2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY&groupBy=destBlockchainId&network=mainnet",
  },
  {
    id: "getStakingMetrics",
    call: (c) =>
      c.getStakingMetrics({
        network: "mainnet",
        metric: "validatorCount",
        startTimestamp: 1689541049,
        endTimestamp: 1689800249,
        pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
        pageSize: 10,
        subnetId: "11111111111111111111111111111111LpoYY",
      }),
    method: "GET",
    url: "/v2/networks/mainnet/metrics/validatorCount?startTimestamp=1689541049&endTimestamp=1689800249&pageToken=3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14&pageSize=10&subnetId=11111111111111111111111111111111LpoYY",
  },
  {
    id: "getTotalL1ValidatorMetrics",
    call: (c) => c.getTotalL1ValidatorMetrics({ metric: "totalValidatorFeesDaily", startTimestamp: 1689541049, endTimestamp: 1689800249 }),
    method: "GET",
    url: "/v2/validators/metrics/totalValidatorFeesDaily?startTimestamp=1689541049&endTimestamp=1689800249",
  },
  {
    id: "getMetricsByValidationId",
    call: (c) =>
      c.getMetricsByValidationId({ l1ValidationId: "2YYCZGHjqnbw1MzQ5fGrTp3SjqUu8y1J1xeW4yuhdXe4LoUVVG", metric: "validationFeesDaily", startTimestamp: 1689541049, endTimestamp: 1689800249 }),
    method: "GET",
    url: "/v2/validation/2YYCZGHjqnbw1MzQ5fGrTp3SjqUu8y1J1xeW4yuhdXe4LoUVVG/metrics/validationFeesDaily?startTimestamp=1689541049&endTimestamp=1689800249",
  },
  {
    id: "getMetricsByNodeId",
    call: (c) => c.getMetricsByNodeId({ nodeId: "NodeID-JQPadXEMWtRtJyXrisyDNWuXKSjSf9D36", metric: "perNodeDailyFeesPaid", startTimestamp: 1689541049, endTimestamp: 1689800249 }),
    method: "GET",
    url: "/v2/validator/NodeID-JQPadXEMWtRtJyXrisyDNWuXKSjSf9D36/metrics/perNodeDailyFeesPaid?startTimestamp=1689541049&endTimestamp=1689800249",
  },
  {
    id: "getMetricsBySubnetId",
    call: (c) => c.getMetricsBySubnetId({ subnetId: "eYwmVU67LmSfZb1RwqCMhBYkFyG8ftxn6jAwqzFmxC9STBWLC", metric: "perSubnetDailyFeesPaid", startTimestamp: 1689541049, endTimestamp: 1689800249 }),
    method: "GET",
    url: "/v2/subnet/eYwmVU67LmSfZb1RwqCMhBYkFyG8ftxn6jAwqzFmxC9STBWLC/metrics/perSubnetDailyFeesPaid?startTimestamp=1689541049&endTimestamp=1689800249",
  },
  {
    id: "getAddressesByBtcbBridged",
    call: (c) => c.getAddressesByBtcbBridged({ threshold: "1000000", pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14", pageSize: 10 }),
    method: "GET",
    url: "/v2/chains/43114/btcb/bridged:getAddresses?threshold=1000000&pageToken=3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14&pageSize=10",
  },
  {
    id: "getValidatorsByDateRange",
    call: (c) =>
      c.getValidatorsByDateRange({
        subnetId: "11111111111111111111111111111111LpoYY",
        startTimestamp: 1689541049,
        endTimestamp: 1689800249,
        pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14",
        pageSize: 10,
        network: "mainnet",
      }),
    method: "GET",
    url: "/v2/subnets/11111111111111111111111111111111LpoYY/validators:getAddresses?startTimestamp=1689541049&endTimestamp=1689800249&pageToken=3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14&pageSize=10&network=mainnet",
  },
  {
    id: "compositeQueryV2",
    call: (c) =>
      c.compositeQueryV2({
        body: {
          queries: [
            { id: "1", type: "AllTimeNativeBalance", params: { firstDate: "2024-01-01", lastDate: "2024-06-30", minBalance: "1000000000000000000", evmChainId: "43114" } },
            { id: "2", type: "LatestBalance", params: { minBalance: "1000000", evmChainId: "43114", tokenType: "ERC20", contractAddress: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E" } },
          ],
          operator: "AND",
          pageSize: 100,
        },
      }),
    method: "POST",
    url: "/v2/lookingGlass/compositeQuery",
    body: {
      queries: [
        { id: "1", type: "AllTimeNativeBalance", params: { firstDate: "2024-01-01", lastDate: "2024-06-30", minBalance: "1000000000000000000", evmChainId: "43114" } },
        { id: "2", type: "LatestBalance", params: { minBalance: "1000000", evmChainId: "43114", tokenType: "ERC20", contractAddress: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E" } },
      ],
      operator: "AND",
      pageSize: 100,
    },
  },
  {
    id: "metrics-health-check",
    call: (c) => c.metricsHealthCheck(),
    method: "GET",
    url: "/v2/health-check",
  },
  {
    id: "metrics-live-check",
    call: (c) => c.metricsLiveCheck(),
    method: "GET",
    url: "/v2/live-check",
  },
];
