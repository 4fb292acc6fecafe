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
  metrics = createMetricsApiClient({ baseUrl: server.url, retry: false });
});

const TOKEN = "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14";
const cases: { id: string; call: (c: MetricsApiClient) => Promise<unknown>; url: string }[] = [
  {
    id: "getAddressesByBalanceOverTime",
    call: (c) => c.getAddressesByBalanceOverTime({ chainId: "43114", address: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", threshold: "1000000", startTimestamp: 1689541049, endTimestamp: 1689800249, pageSize: 5000 }),
    url: "/v2/chains/43114/contracts/0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E/balances?threshold=1000000&startTimestamp=1689541049&endTimestamp=1689800249&pageSize=5000",
  },
  { id: "getAvgTps", call: (c) => c.getAvgTps({ chainId: "43114", pageToken: TOKEN }), url: `/v1/avg_tps/43114?pageToken=${TOKEN}` },
];

describe("Metrics API client against a loopback server", () => {
  it("covers every operation of the spec", () => {
    expect(cases.map((c) => c.id).sort()).toEqual(operations(spec).map((o) => o.id).sort());
  });

  describe.each(cases)("$id", ({ id, call, url }) => {
    it("sends the request the spec describes and returns the typed body", async () => {
      const example = okExample(spec, id);
      server.reply(() => ({ body: example }));
      await expect(call(metrics)).resolves.toEqual(example);
      const req = server.requests[0]!;
      expect(req.method).toBe("GET");
      expect(req.url).toBe(url);
      expect(req.headers["x-service-api-key"]).toBeUndefined();
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

  it("has no API key option: the metrics service takes none", async () => {
    // @ts-expect-error: apiKey is not an option of the metrics client
    const client = createMetricsApiClient({ baseUrl: server.url, apiKey: "k" });
    server.reply(() => ({ body: okExample(spec, "getAvgTps") }));
    await client.getAvgTps({ chainId: "43114" });
    expect(server.requests[0]!.headers["x-service-api-key"]).toBeUndefined();
  });
});
