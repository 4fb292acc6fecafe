import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, NetworkError, ResponseParseError, ValidationError } from "@avaspec/client";
import { createDataApiClient, type DataApiClient } from "@avaspec/client/data-api";
import { startServer, type TestServer } from "../helpers/server.js";
import { dataApiCases } from "../helpers/data-calls.js";
import { loadSpec, okExample, operations } from "../helpers/spec.js";

const spec = loadSpec("data-api.openapi.json");
let server: TestServer;
let data: DataApiClient;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  // one response per call here: retries have their own suite (reliability.test.ts)
  data = createDataApiClient({ baseUrl: server.url, retry: false });
});

const cases = dataApiCases;

describe("Data API client against a loopback server", () => {
  it("covers every operation of the spec", () => {
    expect(cases.map((c) => c.id).sort()).toEqual(operations(spec).map((o) => o.id).sort());
  });

  describe.each(cases)("$id", ({ id, call, method, url, body }) => {
    it("sends the request the spec describes and returns the typed body", async () => {
      const example = okExample(spec, id);
      server.reply(() => ({ status: 200, body: example }));
      const result = await call(data);
      expect(result).toEqual(example);
      expect(server.requests).toHaveLength(1);
      const req = server.requests[0]!;
      expect(req.method).toBe(method);
      expect(req.url).toBe(url);
      expect(req.headers["accept"]).toBe("application/json");
      expect(req.headers["x-service-api-key"]).toBeUndefined();
      expect(req.headers["x-glacier-api-key"]).toBeUndefined();
      if (body === undefined) expect(req.body).toBe("");
      else {
        expect(req.headers["content-type"]).toBe("application/json");
        expect(JSON.parse(req.body)).toEqual(body);
      }
    });

    it.each([
      [400, "Bad Request"],
      [401, "Unauthorized"],
      [403, "Forbidden"],
      [404, "Not Found"],
      [429, "Too Many Requests"],
      [500, "Internal Server Error"],
      [502, "Bad Gateway"],
      [503, "Service Unavailable"],
    ])("turns %i into an ApiError", async (status, reason) => {
      const errorBody = { message: status === 400 ? ["pageSize must not be greater than 100", "address is invalid"] : `${reason} message`, statusCode: status, error: reason };
      server.reply(() => ({ status, body: errorBody }));
      const err = await call(data).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.statusCode).toBe(status);
      expect(e.error).toBe(reason);
      expect(e.messages).toEqual(Array.isArray(errorBody.message) ? errorBody.message : [errorBody.message]);
      expect(e.body).toEqual(errorBody);
      expect(e.rawBody).toBe(JSON.stringify(errorBody));
      expect(e.operationId).toBe(id);
      expect(e.message).toContain(String(status));
    });
  });
});

describe("Data API client behaviour", () => {
  it("sends apiKey as x-glacier-api-key, the header the real service reads (x-avaspec-preferred), only when a key is set", async () => {
    server.reply(() => ({ body: okExample(spec, "getChainInfo") }));
    await createDataApiClient({ baseUrl: server.url, apiKey: "k-123" }).getChainInfo({ chainId: "43114" });
    await createDataApiClient({ baseUrl: server.url }).getChainInfo({ chainId: "43114" });
    await createDataApiClient({ baseUrl: server.url, apiKey: "" }).getChainInfo({ chainId: "43114" });
    expect(server.requests[0]!.headers["x-glacier-api-key"]).toBe("k-123");
    // the requirement's header stays declared, and is not sent for apiKey
    expect(server.requests[0]!.headers["x-service-api-key"]).toBeUndefined();
    for (const r of server.requests.slice(1)) {
      expect(r.headers["x-glacier-api-key"]).toBeUndefined();
      expect(r.headers["x-service-api-key"]).toBeUndefined();
    }
    expect(Object.keys(spec.components["securitySchemes"] as object)).toEqual(["ApiKeyAuth", "GlacierApiKey"]);
  });

  it("apiKeys sends a key under the requirement's x-service-api-key too, or instead, by scheme name", async () => {
    server.reply(() => ({ body: okExample(spec, "getChainInfo") }));
    await createDataApiClient({ baseUrl: server.url, apiKeys: { ApiKeyAuth: "k-req", GlacierApiKey: "k-real" } }).getChainInfo({ chainId: "43114" });
    await createDataApiClient({ baseUrl: server.url, apiKeys: { ApiKeyAuth: "k-req" } }).getChainInfo({ chainId: "43114" });
    // a key named for a scheme wins over apiKey there
    await createDataApiClient({ baseUrl: server.url, apiKey: "k-a", apiKeys: { GlacierApiKey: "k-b", ApiKeyAuth: "k-c" } }).getChainInfo({ chainId: "43114" });
    const sent = server.requests.map((r) => [r.headers["x-service-api-key"], r.headers["x-glacier-api-key"]]);
    expect(sent).toEqual([
      ["k-req", "k-real"],
      ["k-req", undefined],
      ["k-c", "k-b"],
    ]);
  });

  it("keeps every API key out of errors and hooks", async () => {
    server.reply(() => ({ status: 401, body: { message: "bad key", statusCode: 401, error: "Unauthorized" } }));
    const seen: unknown[] = [];
    const client = createDataApiClient({ baseUrl: server.url, apiKey: "secret-key-value", apiKeys: { ApiKeyAuth: "other-secret" }, onRequest: (e) => void seen.push(e), onResponse: (e) => void seen.push(e) });
    const err = (await client.getChainInfo({ chainId: "1" }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(server.requests.at(-1)!.headers["x-glacier-api-key"]).toBe("secret-key-value");
    expect(server.requests.at(-1)!.headers["x-service-api-key"]).toBe("other-secret");
    const shown = JSON.stringify({ ...err, message: err.message, stack: err.stack }) + JSON.stringify(seen);
    expect(seen.length).toBeGreaterThan(1);
    expect(shown).not.toContain("secret-key-value");
    expect(shown).not.toContain("other-secret");
  });

  it("sends client-wide and per-call headers", async () => {
    server.reply(() => ({ body: okExample(spec, "getChainInfo") }));
    await createDataApiClient({ baseUrl: server.url, headers: { "x-trace": "a" } }).getChainInfo({ chainId: "43114" }, { headers: { "x-call": "b" } });
    expect(server.requests[0]!.headers["x-trace"]).toBe("a");
    expect(server.requests[0]!.headers["x-call"]).toBe("b");
  });

  it.each([
    ["a/b", "/v1/chains/a%2Fb"],
    ["%2e%2e", "/v1/chains/%252e%252e"],
    ["//evil.example", "/v1/chains/%2F%2Fevil.example"],
    ["43114?x=1#f", "/v1/chains/43114%3Fx%3D1%23f"],
  ])("percent-encodes path parameter %j so it cannot change the target", async (chainId, path) => {
    server.reply(() => ({ body: okExample(spec, "getChainInfo") }));
    await data.getChainInfo({ chainId });
    expect(server.requests[0]!.url).toBe(path);
  });

  it.each(["..", ".", ""])("refuses path parameter %j before sending anything", async (chainId) => {
    const err = await data.getChainInfo({ chainId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]!.path).toBe("/chainId");
    expect(server.requests).toHaveLength(0);
  });

  it("names a missing required parameter and sends nothing", async () => {
    // @ts-expect-error: address is required
    const err = await data.getContractMetadata({ chainId: "43114" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toContain('"address"');
    expect(server.requests).toHaveLength(0);
  });

  it("names a missing required body and sends nothing", async () => {
    // @ts-expect-error: body is required
    const err = await data.aggregateSignatures({ network: "mainnet" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]!.path).toBe("/body");
    expect(server.requests).toHaveLength(0);
  });

  it("rejects CR/LF in header values before sending", async () => {
    const client = createDataApiClient({ baseUrl: server.url, apiKey: "k\r\nx-injected: 1" });
    await expect(client.getChainInfo({ chainId: "43114" })).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });

  it("raises ResponseParseError for an empty 200 body", async () => {
    server.reply(() => ({ status: 200, body: "" }));
    const err = (await data.getChainInfo({ chainId: "43114" }).catch((e: unknown) => e)) as ResponseParseError;
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err.statusCode).toBe(200);
  });

  it("raises ResponseParseError for a non-JSON 200 body", async () => {
    server.reply(() => ({ status: 200, body: "<html>gateway</html>", headers: { "content-type": "text/html" } }));
    const err = (await data.getChainInfo({ chainId: "43114" }).catch((e: unknown) => e)) as ResponseParseError;
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err.rawBody).toBe("<html>gateway</html>");
    expect(err.contentType).toBe("text/html");
  });

  it("keeps a non-JSON error body as rawBody with the status reason", async () => {
    server.reply(() => ({ status: 502, body: "upstream down" }));
    const err = (await data.getChainInfo({ chainId: "43114" }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.statusCode).toBe(502);
    expect(err.error).toBe("Bad Gateway");
    expect(err.body).toBeUndefined();
    expect(err.rawBody).toBe("upstream down");
  });

  it("treats any 2XX as success", async () => {
    server.reply(() => ({ status: 203, body: okExample(spec, "getChainInfo") }));
    await expect(data.getChainInfo({ chainId: "43114" })).resolves.toEqual(okExample(spec, "getChainInfo"));
  });

  it("raises NetworkError when nothing listens", async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const err = await createDataApiClient({ baseUrl: url, retry: false }).getChainInfo({ chainId: "43114" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
  });

  it("uses the spec's server as the default base URL", async () => {
    const seen: string[] = [];
    const client = createDataApiClient({ fetch: async (input) => (seen.push(String(input)), new Response(JSON.stringify(okExample(spec, "getChainInfo")), { status: 200 })) });
    await client.getChainInfo({ chainId: "43114" });
    expect(seen).toEqual(["https://glacier-api.avax.network/v1/chains/43114"]);
  });
});
