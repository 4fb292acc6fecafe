/**
 * Issue 16, Metrics API: what the real service accepts and sends passes the
 * generated client. Against a real loopback server, with strict response
 * validation.
 *
 * Sources: the requirements (`{chainId}` is "a supported EVM chain id or
 * blockchain id"); the real metrics service's own OpenAPI document
 * (ava-labs/builders-hub, public/openapi/popsicle.json before its removal in
 * 6e384892a: chainId is "A supported EVM chain ID or one of "total",
 * "mainnet", or "testnet""); and the report that `lastRun` is absent
 * from some real replies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const client = () => createMetricsApiClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });
// the shape of the usage guide's reply, without lastRun
const reply = { results: [{ timestamp: 1724716800, value: 1.98 }, { timestamp: 1724630400, value: 2.17 }], status: 200 };

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
