import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@avaspec/client";
import { createMetricsApiClient, type MetricsApiClient } from "@avaspec/client/metrics-api";
import { startServer, type TestServer } from "../helpers/server.js";
import { loadSpec, okExample, operations } from "../helpers/spec.js";

const spec = loadSpec("metrics-api.openapi.json");
let server: TestServer;
let metrics: MetricsApiClient;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  // one response per call here: retries have their own suite (reliability.test.ts)
  // getAvgTps is deprecated: its first call would warn on stderr (fidelity-metrics.test.ts checks the warning)
  metrics = createMetricsApiClient({ baseUrl: server.url, retry: false, deprecationWarnings: false });
});

const TOKEN = "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14";
const cases: { id: string; call: (c: MetricsApiClient) => Promise<unknown>; method?: string; url: string; body?: unknown }[] = [
  {
    id: "getAddressesByBalanceOverTime",
    call: (c) => c.getAddressesByBalanceOverTime({ chainId: "43114", address: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", threshold: "1000000", startTimestamp: 1689541049, endTimestamp: 1689800249, pageSize: 5000 }),
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

describe("Metrics API client against a loopback server", () => {
  it("covers every operation of the spec", () => {
    expect([...new Set(cases.map((c) => c.id))].sort()).toEqual(
      operations(spec)
        .map((o) => o.id)
        .sort(),
    );
  });

  describe.each(cases)("$id $url", ({ id, call, method, url, body }) => {
    it("sends the request the spec describes and returns the typed body", async () => {
      const example = okExample(spec, id);
      server.reply(() => ({ body: example }));
      await expect(call(metrics)).resolves.toEqual(example);
      const req = server.requests[0]!;
      expect(req.method).toBe(method ?? "GET");
      expect(req.url).toBe(url);
      expect(req.headers["x-service-api-key"]).toBeUndefined();
      if (body === undefined) expect(req.body).toBe("");
      else expect(JSON.parse(req.body)).toEqual(body);
    });

    it.each([400, 401, 403, 404, 429, 500, 502, 503])("turns %i into an ApiError with array messages", async (status) => {
      const body = { message: ["first problem", "second problem"], statusCode: status, error: "Some Reason" };
      server.reply(() => ({ status, body }));
      const err = (await call(metrics).catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.statusCode).toBe(status);
      expect(err.messages).toEqual(["first problem", "second problem"]);
      expect(err.error).toBe("Some Reason");
    });
  });

  it("takes an optional API key, sent as x-glacier-api-key (the real header), and nothing without one", async () => {
    const keyed = createMetricsApiClient({ baseUrl: server.url, apiKey: "k-123" });
    server.reply(() => ({ body: okExample(spec, "listChains") }));
    await keyed.listChains({});
    await metrics.listChains({});
    expect(server.requests[0]!.headers["x-glacier-api-key"]).toBe("k-123");
    expect(server.requests[0]!.headers["x-service-api-key"]).toBeUndefined();
    expect(server.requests[1]!.headers["x-glacier-api-key"]).toBeUndefined();
  });
});
