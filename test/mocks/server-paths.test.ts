/**
 * Issue 26 (15): the mocks answer at the path of the spec's own server URL
 * as well as below the origin. A JSON-RPC document served at
 * `http://localhost:8545/rpc` answered only `POST /`, and an API at
 * `https://api.shop.example/v2` only `/categories/…`: curl, or any tool
 * given the spec's server URL with the mock's origin, got 404. Real HTTP
 * requests (node's fetch, as curl sends them) to the generated packages'
 * real mock servers; the service on its own; MSW's real setupServer at the
 * default base URLs; and our node package, whose endpoints are `/ext/…`
 * below a server URL without a path, answers as before.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../fixtures/recursive-31/golden/src/mock-server/index.js";
import { createMocks, createMockService, mockTables } from "../fixtures/recursive-31/golden/src/mocks/index.js";
import { createApiClient } from "../fixtures/recursive-31/golden/src/api/index.js";
import { createTreeClient } from "../fixtures/recursive-31/golden/src/rpc/index.js";
import { startMockServer as startRpcByName } from "../fixtures/rpc-by-name/golden/src/mock-server/index.js";
import { createApiClient as createRpcByName } from "../fixtures/rpc-by-name/golden/src/api/index.js";
import { startMockServer as startGenerality } from "../fixtures/generality-31/golden/src/mock-server/index.js";
import { startMockServer as startAvalanche } from "@avaspec/client/mock-server";

const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const call = (method: string, params: unknown[] = []) => ({ jsonrpc: "2.0", id: 1, method, params });

describe("the standalone mock server of a package whose servers have paths (/v2, /rpc)", () => {
  let server: MockServer;
  const log: string[] = [];
  beforeAll(async () => {
    server = await startMockServer({ port: 0, log: (line) => log.push(line) });
  });
  afterAll(() => server.close());

  it("answers the HTTP API at the spec's /v2 paths and below the origin", async () => {
    for (const path of ["/v2/categories/root", "/categories/root"]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      expect(await res.json()).toMatchObject({ name: expect.any(String), children: expect.any(Array) });
    }
    expect(log).toContainEqual(expect.stringMatching(/^GET \/v2\/categories\/root → 200 \(getCategory\)/));
  });

  it("answers JSON-RPC at /rpc (the spec's server URL) and at /", async () => {
    for (const path of ["/rpc", "/rpc/", "/"]) {
      const res = await post(server.url + path, call("tree_get", ["root"]));
      expect(res.status, path).toBe(200);
      expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { label: "root", weight: "1", children: [{ label: "leaf", weight: "2", children: [] }] } });
    }
  });

  it("still answers 404 where the spec serves nothing", async () => {
    expect((await fetch(`${server.url}/v3/categories/root`)).status).toBe(404);
    expect((await fetch(`${server.url}/v2/v2/categories/root`)).status).toBe(404);
    expect((await post(`${server.url}/rpc/other`, call("tree_get", ["root"]))).status).toBe(404);
  });

  it("the generated clients work against it with the spec's paths in their base URLs", async () => {
    expect((await createApiClient({ baseUrl: `${server.url}/v2`, validateResponse: "strict", retry: false }).getCategory({ id: "root" })).name).toEqual(expect.any(String));
    expect((await createTreeClient({ baseUrl: `${server.url}/rpc`, validateResponse: "strict", retry: false }).tree.get({ id: "root" })).label).toBe("root");
  });
});

it("createMockService answers both forms of a path", async () => {
  const service = createMockService(Object.values(mockTables));
  for (const url of ["http://mock/v2/categories/a", "http://mock/categories/a"]) expect((await service.handle({ method: "GET", url, headers: {} }))?.handled).toBe("getCategory");
  for (const url of ["http://mock/rpc", "http://mock/"]) expect((await service.handle({ method: "POST", url, headers: {}, body: JSON.stringify(call("tree_get", ["root"])) }))?.handled).toBe("tree_get");
  expect(await service.handle({ method: "GET", url: "http://mock/rpc/categories/a", headers: {} })).toBeUndefined();
});

it("rpc-by-name (server http://localhost:8545/rpc) answers curl at /rpc", async () => {
  const server = await startRpcByName({ port: 0, log: null });
  try {
    const res = await post(`${server.url}/rpc`, { jsonrpc: "2.0", id: 1, method: "calc.ping" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "pong" });
    expect(await createRpcByName({ baseUrl: `${server.url}/rpc`, retry: false }).calc.ping()).toBe("pong");
  } finally {
    await server.close();
  }
});

it("generality-31 (server https://generality.example.com/v2) answers curl at /v2/stores/…", async () => {
  const server = await startGenerality({ port: 0, log: null });
  try {
    const res = await fetch(`${server.url}/v2/stores/1/items`, { headers: { "x-tenant": "t" } });
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
  } finally {
    await server.close();
  }
});

describe("MSW handlers at the default base URLs (the spec's servers, paths included)", () => {
  const mocks = createMocks({ seed: 1 });
  const msw = setupServer(...mocks.handlers);
  beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
  afterAll(() => msw.close());

  it("answer the clients at https://api.shop.example/v2 and http://localhost:8545/rpc", async () => {
    expect((await createApiClient({ validateResponse: "strict", retry: false }).getCategory({ id: "root" })).name).toEqual(expect.any(String));
    expect((await createTreeClient({ validateResponse: "strict", retry: false }).tree.get({ id: "root" })).label).toBe("root");
  });
});

it("our node package's endpoints stay at /ext/… (its server URL has no path), the Data API at /v1/…", async () => {
  const server = await startAvalanche({ port: 0, log: null });
  try {
    const info = await post(`${server.url}/ext/info`, { jsonrpc: "2.0", id: 1, method: "info.getNodeVersion" });
    expect(await info.json()).toMatchObject({ result: { version: expect.stringMatching(/^avalanchego\//) } });
    const chainId = await post(`${server.url}/ext/bc/C/rpc`, { jsonrpc: "2.0", id: 1, method: "eth_chainId" });
    expect(await chainId.json()).toMatchObject({ result: expect.stringMatching(/^0x/) });
    expect((await fetch(`${server.url}/v1/chains/43114`)).status).toBe(200);
    expect((await post(`${server.url}/info`, { jsonrpc: "2.0", id: 1, method: "info.getNodeVersion" })).status).toBe(404);
  } finally {
    await server.close();
  }
});
