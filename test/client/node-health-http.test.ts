/** The node's HTTP health endpoints: 200 and 503 both return the Health result (a 503 is not retried); a repeatable tag query. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let node: NodeClient;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  // short backoff: the 500s below are retried (the default policy's 2 retries)
  node = createNodeClient({ baseUrl: server.url, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
});

const unhealthy = {
  checks: { C: { message: { engine: "ok" }, error: "chain not bootstrapped", timestamp: "2026-11-22T02:00:00Z", duration: 12345, contiguousFailures: 3, timeOfFirstFailure: "2026-11-22T01:58:00Z" } },
  healthy: false,
};
const healthy = { checks: { network: { timestamp: "2026-11-22T02:00:00Z", duration: 1000, contiguousFailures: 0, timeOfFirstFailure: null } }, healthy: true };

describe.each([
  ["getHealth", "/ext/health"],
  ["getHealthCheck", "/ext/health/health"],
  ["getReadiness", "/ext/health/readiness"],
  ["getLiveness", "/ext/health/liveness"],
] as const)("node.http.%s", (method, path) => {
  it("GETs its path with repeated tag parameters and returns the result on 200", async () => {
    server.reply(() => ({ status: 200, body: healthy }));
    const r = await node.http[method]({ tag: ["11111111111111111111111111111111LpoYY", "29uVeLPJB1eQJkzRemU8g8wZDw5uJRqpab5U2mX9euieVwiEbL"] });
    expect(r).toEqual(healthy);
    expect(server.requests[0]!.method).toBe("GET");
    expect(server.requests[0]!.url).toBe(`${path}?tag=11111111111111111111111111111111LpoYY&tag=29uVeLPJB1eQJkzRemU8g8wZDw5uJRqpab5U2mX9euieVwiEbL`);
  });

  it("returns the Health result on 503 instead of throwing, at once: a status the operation returns is an answer, not retried", async () => {
    server.reply(() => ({ status: 503, body: unhealthy }));
    await expect(node.http[method]()).resolves.toEqual(unhealthy);
    expect(server.requests.map((r) => r.url)).toEqual([path]);
  });

  it("still throws ApiError for other failures, after the retries", async () => {
    server.reply(() => ({ status: 500, body: "boom" }));
    const err = (await node.http[method]().catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.statusCode).toBe(500);
    expect(server.requests).toHaveLength(3);
  });
});
