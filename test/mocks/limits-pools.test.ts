/**
 * The package's mock server in limits mode charges each HTTP API's calls to
 * its own document's budget: the Data API's pool and the Metrics API's
 * (`avacloud-metrics`, its own free plan of 8,000 compute units a minute and
 * its own weights), as the two services count them. With one key, eight calls
 * of a 1,000-unit Metrics route use up the Metrics plan's minute, the ninth is
 * refused, and a Data API call with the same key is still served. The caller's
 * `http` option still sets one document for every HTTP operation.
 */
import { afterEach, expect, it } from "vitest";
import { ApiError } from "@avaspec/client";
import { createDataApiClient, dataApiLimits } from "@avaspec/client/data-api";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import type { MockLimitCall } from "../../runtime/mock/limits.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = "pools-test-key";
const xl = (metrics: ReturnType<typeof createMetricsApiClient>) =>
  metrics.getAddressesByBalanceOverTime({ chainId: "43114", address: "0x9f8c163cBA728e99993ABe7495F06c0A3c8Ac8b9", threshold: "1", startTimestamp: 1700000000, endTimestamp: 1700086400 });

it("each API's calls draw on its own pool: the Metrics plan's minute used up leaves the Data API's untouched", async () => {
  const calls: MockLimitCall[] = [];
  server = await startMockServer({ port: 0, log: null, limits: { plan: "free", onCall: (c) => calls.push(c) } });
  const metrics = createMetricsApiClient({ baseUrl: server.url, apiKey: KEY, retry: false });
  const data = createDataApiClient({ baseUrl: server.url, apiKey: KEY, retry: false });
  for (let i = 0; i < 8; i++) await xl(metrics);
  const refused = await xl(metrics).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).statusCode).toBe(429);
  await expect(data.getChainInfo({ chainId: "43114" })).resolves.toBeDefined();
  expect(calls.map((c) => [c.id, c.outcome, c.cost])).toEqual([...Array(8).fill(["getAddressesByBalanceOverTime", "served", 1000]), ["getAddressesByBalanceOverTime", "quota", 0], ["getChainInfo", "served", 1]]);
});

it("an http option given by the caller applies to every HTTP operation: one pool, so the Data API call is refused too", async () => {
  server = await startMockServer({ port: 0, log: null, limits: { http: dataApiLimits, plan: "free" } });
  const metrics = createMetricsApiClient({ baseUrl: server.url, apiKey: KEY, retry: false });
  const data = createDataApiClient({ baseUrl: server.url, apiKey: KEY, retry: false });
  for (let i = 0; i < 8; i++) await xl(metrics);
  const refused = await data.getChainInfo({ chainId: "43114" }).catch((e: unknown) => e);
  expect((refused as ApiError).statusCode).toBe(429);
});
