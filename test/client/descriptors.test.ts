/**
 * The lean form: descriptors called directly with callHttp / rpc.call, as a
 * size-conscious app does, against a real loopback server. Response
 * validation comes from the module's …Results, which only the factories (or
 * the caller) pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callHttp, createRpcTransport, resolveHttpConfig, ValidationError } from "@avaspec/client";
import { DATA_API_DEFAULT_BASE_URL, createDataApiClient, dataApiResults, getChainInfoOperation, listErc20TransactionsOperation } from "@avaspec/client/data-api";
import { infoGetNodeVersionMethod, nodeResults } from "@avaspec/client/node";
import { API_DEFAULT_BASE_URL, apiResults, listPetsOperation } from "../fixtures/petstore-30/golden/src/api/client.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const chain = { chainId: "43114", status: "OK", chainName: "Avalanche (C-Chain)" };

describe("HTTP descriptors", () => {
  it("sends the same request the client does and returns the body", async () => {
    server.reply(() => ({ body: chain }));
    const api = resolveHttpConfig({ baseUrl: server.url, apiKey: "k", retry: false }, DATA_API_DEFAULT_BASE_URL);
    expect(await callHttp(api, getChainInfoOperation, { chainId: "43114" })).toEqual(chain);
    await createDataApiClient({ baseUrl: server.url, apiKey: "k", retry: false }).getChainInfo({ chainId: "43114" });
    const [lean, full] = server.requests.slice(-2);
    expect(lean!.url).toBe("/v1/chains/43114");
    expect(lean!.headers["x-glacier-api-key"]).toBe("k");
    expect({ url: lean!.url, key: lean!.headers["x-glacier-api-key"] }).toEqual({ url: full!.url, key: full!.headers["x-glacier-api-key"] });
  });

  it("checks params before sending", async () => {
    const api = resolveHttpConfig({ baseUrl: server.url, retry: false }, DATA_API_DEFAULT_BASE_URL);
    const before = server.requests.length;
    await expect(callHttp(api, getChainInfoOperation, { chainId: "" })).rejects.toThrow(/parameter "chainId"/);
    expect(server.requests.length).toBe(before);
  });

  it("validates responses only with the module's results, and says so when they are missing", async () => {
    server.reply(() => ({ body: { chainId: 43114 } }));
    expect(() => resolveHttpConfig({ baseUrl: server.url, validateResponse: "strict" }, DATA_API_DEFAULT_BASE_URL)).toThrow(/needs the module's …Results/);
    const off = resolveHttpConfig({ baseUrl: server.url, retry: false }, DATA_API_DEFAULT_BASE_URL);
    expect(await callHttp(off, getChainInfoOperation, { chainId: "43114" })).toEqual({ chainId: 43114 });
    const strict = resolveHttpConfig({ baseUrl: server.url, retry: false, validateResponse: "strict" }, DATA_API_DEFAULT_BASE_URL, dataApiResults);
    const error = await callHttp(strict, getChainInfoOperation, { chainId: "43114" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).statusCode).toBe(200);
    // the factory passes the results itself
    await expect(createDataApiClient({ baseUrl: server.url, retry: false, validateResponse: "strict" }).getChainInfo({ chainId: "43114" })).rejects.toBeInstanceOf(ValidationError);
  });

  it("every Data API operation has a result check in dataApiResults", () => {
    expect(dataApiResults.get(getChainInfoOperation)).toBeTypeOf("function");
    expect(dataApiResults.get(listErc20TransactionsOperation)).toBeTypeOf("function");
    expect(dataApiResults.get({})).toBeUndefined();
  });

  it("a generated non-default style (petstore `ids`, form not exploded) reaches the wire through its descriptor's encoder", async () => {
    server.reply(() => ({ body: { items: [] } }));
    const api = resolveHttpConfig({ baseUrl: server.url, retry: false, validateResponse: "strict" }, API_DEFAULT_BASE_URL, apiResults);
    await callHttp(api, listPetsOperation, { ids: [1, 2], tags: ["a", "b"] });
    expect(server.requests.at(-1)!.url).toBe("/pets?tags=a&tags=b&ids=1,2");
  });
});

describe("JSON-RPC descriptors", () => {
  it("calls and batches one method through a bare transport; validation with nodeResults", async () => {
    server.reply((req) => {
      const body = JSON.parse(req.body) as { id: number } | { id: number }[];
      const answer = (b: { id: number }) => ({ jsonrpc: "2.0", id: b.id, result: { version: "avalanchego/1.13.0", databaseVersion: "v1.4.5", rpcProtocolVersion: "39", gitCommit: "abc", vmVersions: {} } });
      return { body: Array.isArray(body) ? body.map(answer) : answer(body) };
    });
    const rpc = createRpcTransport({ baseUrl: server.url, retry: false, validateResponse: "strict" }, "", nodeResults);
    expect((await rpc.call(infoGetNodeVersionMethod, {})).version).toBe("avalanchego/1.13.0");
    const [a, b] = await rpc.batch((call) => [call(infoGetNodeVersionMethod, {}), call(infoGetNodeVersionMethod, {})] as const);
    expect([a.ok, b.ok]).toEqual([true, true]);
    const last = server.requests.at(-1)!;
    expect(last.url).toBe("/ext/info");
    expect((JSON.parse(last.body) as unknown[]).length).toBe(2);
    expect(() => createRpcTransport({ validateResponse: "warn" }, "")).toThrow(TypeError);
  });
});
