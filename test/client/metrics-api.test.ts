import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@avaspec/client";
import { createMetricsApiClient, type MetricsApiClient } from "@avaspec/client/metrics-api";
import { startServer, type TestServer } from "../helpers/server.js";
import { metricsApiCases as cases } from "../helpers/metrics-calls.js";
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
