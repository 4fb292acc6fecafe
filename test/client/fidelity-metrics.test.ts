/**
 * Issue 16, Metrics API: what the real service accepts and sends passes the
 * generated client. Against a real loopback server, with strict response
 * validation.
 *
 * Sources: the requirements (`{chainId}` is "a supported EVM chain id or
 * blockchain id"); the real metrics service's own OpenAPI document
 * (ava-labs/builders-hub, public/openapi/popsicle.json before its removal in
 * 6e384892a: chainId is "A supported EVM chain ID or one of "total",
 * "mainnet", or "testnet""); and the issue's report that `lastRun` is absent
 * from some real replies.
 *
 * Issue 27: the sixteen operations of the service's current document
 * (popsicle.json at d9e88bfde) with replies in the real wire form
 * (real-wire/metrics-api.ts), getAvgTps's own parameters and page key (the
 * service's earlier document, ava-labs/avacloud-sdk-typescript f1006af
 * .speakeasy/temp/downloaded_wVOWQcOnwR.json), its deprecation, and the real
 * form of sortKey (a string).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { startServer, type TestServer } from "../helpers/server.js";
import { loadSpec, okExample } from "../helpers/spec.js";
import { realMetricsApiReplies } from "./real-wire/metrics-api.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

// getAvgTps is deprecated: its warning is checked below, so these clients do not print it
const client = () => createMetricsApiClient({ baseUrl: server.url, retry: false, validateResponse: "strict", deprecationWarnings: false });
// the shape of the usage guide's reply, without lastRun
const reply = {
  results: [
    { timestamp: 1724716800, value: 1.98 },
    { timestamp: 1724630400, value: 2.17 },
  ],
  status: 200,
};

describe("getAvgTps: the chain ids the real service takes", () => {
  it.each([
    ["43114", "an EVM chain id"],
    ["2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", "the C-Chain's blockchain id"],
    ["mainnet", "a whole network"],
    ["testnet", "the test network"],
    ["total", "both networks"],
  ])("%s (%s) is sent, and a reply without lastRun passes strict validation", async (chainId) => {
    server.reply(() => ({ body: reply }));
    const before = server.requests.length;
    const body = await client().getAvgTps({ chainId });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.url).toBe(`/v1/avg_tps/${chainId}`);
    expect(body).toEqual(reply);
    expect(body.lastRun).toBeUndefined();
  });

  it.each([["c-chain"], ["43114x"], ["Mainnet"], [""]])("%j is refused before anything is sent, naming chainId", async (chainId) => {
    const before = server.requests.length;
    const error = await client()
      .getAvgTps({ chainId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain("chainId");
    expect(server.requests.length).toBe(before);
  });
});

describe("getAvgTps: the service's own parameters, page key and status", () => {
  // the service's earlier document: LegacyEvmMetricsResponse, with its next-page key
  const page = { results: [{ timestamp: 1724716800, value: 1.98 }], status: 200, lastRun: 1724780812, nextPageStartKey: "MTcyNDYzMDQwMA" };

  it("sends from, to and startKey, and a reply carrying nextPageStartKey passes strict validation", async () => {
    server.reply(() => ({ body: page }));
    const body = await client().getAvgTps({ chainId: "43114", from: "1654819200", to: "1655424000", startKey: "MTcyNDYzMDQwMA" });
    expect(server.requests.at(-1)!.url).toBe("/v1/avg_tps/43114?from=1654819200&to=1655424000&startKey=MTcyNDYzMDQwMA");
    expect(body).toEqual(page);
  });

  it("is deprecated: its first call warns once, naming it", async () => {
    const seen: string[] = [];
    const warned = createMetricsApiClient({ baseUrl: server.url, retry: false, deprecationWarnings: (m) => void seen.push(m) });
    server.reply(() => ({ body: page }));
    await warned.getAvgTps({ chainId: "43114" });
    await warned.getAvgTps({ chainId: "43114" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("getAvgTps");
  });

  it(".pages() follows the service's nextPageStartKey as startKey (x-avaspec-pagination's second pair), and the requirement's nextPageToken as pageToken", async () => {
    // the service's pages: startKey in, nextPageStartKey out, none on the last
    server.reply((req) => {
      const key = new URL(req.url, "http://x").searchParams.get("startKey");
      return { body: key === null ? page : key === page.nextPageStartKey ? { ...page, nextPageStartKey: "MTcyNDU0NDAwMA" } : { ...page, nextPageStartKey: undefined } };
    });
    const before = server.requests.length;
    let pages = 0;
    for await (const _ of client().getAvgTps.pages({ chainId: "43114", from: "1654819200" })) pages++;
    expect(pages).toBe(3);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(["/v1/avg_tps/43114?from=1654819200", "/v1/avg_tps/43114?from=1654819200&startKey=MTcyNDYzMDQwMA", "/v1/avg_tps/43114?from=1654819200&startKey=MTcyNDU0NDAwMA"]);
    // a reply with the requirement's token: pageToken, and no stale startKey beside it
    server.reply((req) => ({ body: new URL(req.url, "http://x").searchParams.has("pageToken") ? { ...page, nextPageStartKey: undefined } : { ...page, nextPageStartKey: undefined, nextPageToken: "7d1e4c90-2b8a-4f63-9e55-0a3c6b8d2f71" } }));
    const from = server.requests.length;
    for await (const _ of client().getAvgTps.pages({ chainId: "43114", startKey: "MTcyNDYzMDQwMA" })) void _;
    expect(server.requests.slice(from).map((r) => r.url)).toEqual(["/v1/avg_tps/43114?startKey=MTcyNDYzMDQwMA", "/v1/avg_tps/43114?pageToken=7d1e4c90-2b8a-4f63-9e55-0a3c6b8d2f71"]);
  });
});

describe("getAddressesByBalanceOverTime: sortKey as the service sends it", () => {
  it("a string sortKey (the real form) is refused until the wire-form normalisation is built (x-avaspec-wire-form); the requirement's integer passes", async () => {
    const spec = loadSpec("metrics-api.openapi.json");
    const example = okExample(spec, "getAddressesByBalanceOverTime") as { addresses: { address: string; sortKey: number }[] };
    const call = () => client().getAddressesByBalanceOverTime({ chainId: "43114", address: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", threshold: "1000000" });
    server.reply(() => ({ body: example }));
    expect(await call()).toEqual(example);
    server.reply(() => ({ body: { addresses: example.addresses.map((a) => ({ ...a, sortKey: String(a.sortKey) })) } }));
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]!.path).toBe("/addresses/0/sortKey");
  });
});

describe("the current operations: real inputs are sent and real replies pass strict validation", () => {
  const cases: Record<string, { call: (c: ReturnType<typeof client>) => Promise<unknown>; url: string; method?: string }> = {
    "metrics-health-check": { call: (c) => c.metricsHealthCheck(), url: "/v2/health-check" },
    "metrics-live-check": { call: (c) => c.metricsLiveCheck(), url: "/v2/live-check" },
    listChains: { call: (c) => c.listChains({ network: "fuji" }), url: "/v2/chains?network=fuji" },
    getChain: { call: (c) => c.getChain({ chainId: "43114" }), url: "/v2/chains/43114" },
    getEvmChainMetrics: {
      call: (c) => c.getEvmChainMetrics({ chainId: "43114", metric: "avgTps", startTimestamp: 1722470400, endTimestamp: 1725062400, timeInterval: "day", pageSize: 31 }),
      url: "/v2/chains/43114/metrics/avgTps?startTimestamp=1722470400&endTimestamp=1725062400&timeInterval=day&pageSize=31",
    },
    getEvmChainRollingWindowMetrics: { call: (c) => c.getEvmChainRollingWindowMetrics({ chainId: "total", metric: "txCount" }), url: "/v2/chains/total/rollingWindowMetrics/txCount" },
    getICMTimeseries: {
      call: (c) => c.getICMTimeseries({ srcBlockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", groupBy: "srcBlockchainId,destBlockchainId", network: "mainnet" }),
      url: "/v2/icm/timeseries?srcBlockchainId=2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5&groupBy=srcBlockchainId%2CdestBlockchainId&network=mainnet",
    },
    getICMSummary: { call: (c) => c.getICMSummary({ network: "testnet" }), url: "/v2/icm/summary?network=testnet" },
    getStakingMetrics: { call: (c) => c.getStakingMetrics({ network: "mainnet", metric: "validatorWeight" }), url: "/v2/networks/mainnet/metrics/validatorWeight" },
    getTotalL1ValidatorMetrics: { call: (c) => c.getTotalL1ValidatorMetrics({ metric: "totalPayingValidatorsDaily" }), url: "/v2/validators/metrics/totalPayingValidatorsDaily" },
    getMetricsByValidationId: {
      call: (c) => c.getMetricsByValidationId({ l1ValidationId: "2YYCZGHjqnbw1MzQ5fGrTp3SjqUu8y1J1xeW4yuhdXe4LoUVVG", metric: "validationFeesDaily" }),
      url: "/v2/validation/2YYCZGHjqnbw1MzQ5fGrTp3SjqUu8y1J1xeW4yuhdXe4LoUVVG/metrics/validationFeesDaily",
    },
    getMetricsByNodeId: {
      call: (c) => c.getMetricsByNodeId({ nodeId: "NodeID-JQPadXEMWtRtJyXrisyDNWuXKSjSf9D36", metric: "perNodeDailyFeesPaid" }),
      url: "/v2/validator/NodeID-JQPadXEMWtRtJyXrisyDNWuXKSjSf9D36/metrics/perNodeDailyFeesPaid",
    },
    getMetricsBySubnetId: {
      call: (c) => c.getMetricsBySubnetId({ subnetId: "eYwmVU67LmSfZb1RwqCMhBYkFyG8ftxn6jAwqzFmxC9STBWLC", metric: "perSubnetPayingValidators" }),
      url: "/v2/subnet/eYwmVU67LmSfZb1RwqCMhBYkFyG8ftxn6jAwqzFmxC9STBWLC/metrics/perSubnetPayingValidators",
    },
    getAddressesByBtcbBridged: { call: (c) => c.getAddressesByBtcbBridged({ threshold: "1000000" }), url: "/v2/chains/43114/btcb/bridged:getAddresses?threshold=1000000" },
    getValidatorsByDateRange: {
      call: (c) => c.getValidatorsByDateRange({ subnetId: "11111111111111111111111111111111LpoYY", startTimestamp: 1689541049, endTimestamp: 1689800249, network: "mainnet" }),
      url: "/v2/subnets/11111111111111111111111111111111LpoYY/validators:getAddresses?startTimestamp=1689541049&endTimestamp=1689800249&network=mainnet",
    },
    compositeQueryV2: {
      call: (c) =>
        c.compositeQueryV2({
          body: {
            operator: "OR",
            queries: [{ id: "1", type: "AnyTimeNftHolders", params: { evmChainId: "43114", contractAddress: "0x50bedc4153cb4e1ae398c433ad1679a3f917c630", startTs: 1689541049, endTs: 1689800249 } }],
          },
        }),
      url: "/v2/lookingGlass/compositeQuery",
      method: "POST",
    },
  };

  it("has a real reply and a call for each of the sixteen operations", () => {
    expect(Object.keys(realMetricsApiReplies).sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.entries(realMetricsApiReplies).flatMap(([id, replies]) => replies.map((reply) => [id, reply] as const)))("%s", async (id, reply) => {
    const c = cases[id]!;
    server.reply(() => ({ body: reply }));
    const before = server.requests.length;
    expect(await c.call(client())).toEqual(reply);
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.method).toBe(c.method ?? "GET");
    expect(server.requests.at(-1)!.url).toBe(c.url);
  });
});
