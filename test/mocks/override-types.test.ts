/**
 * Typed overrides: `override(id, o)` of the MSW mocks and of the standalone
 * mock server takes only the ids the mocks answer, and a body only as the
 * operation answers it (at that status) or as the method's result. The
 * `compileOnly` block is checked by `npm run typecheck` (never run: its
 * misspelt ids would throw); the tests run overrides through MSW's real
 * setupServer and the mock server.
 */
import { describe, expect, it } from "vitest";
import { ApiError, ValidationError } from "@avaspec/client";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createNodeClient } from "@avaspec/client/node";
import type { ChainInfo, ErrorBody } from "@avaspec/client/data-api";
import type { NodeVersion } from "@avaspec/client/node";
import { createMocks, type MockAnswers, type MockOverrideFor, type MockService, type Mocks } from "@avaspec/client/mocks";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { useMsw } from "../helpers/msw.js";

declare const chainInfo: ChainInfo;
declare const errorBody: ErrorBody;
declare const version: NodeVersion;

// eslint-disable-next-line @typescript-eslint/no-unused-vars
function compileOnly(mocks: Mocks, server: MockServer, ids: readonly string[]): void {
  // ids: operation ids and JSON-RPC method names only
  // @ts-expect-error a misspelt operation id
  mocks.override("listErc20Transacions", { status: 503 });
  // @ts-expect-error a misspelt method name
  mocks.override("info.getNodeVersoin", { rpcError: { code: -32000, message: "x" } });
  // @ts-expect-error a misspelt id on the mock server too
  server.override("getChainInf", { status: 503 });
  // @ts-expect-error sample takes the same ids
  mocks.sample("getChainInf");

  // HTTP bodies: the 2XX body without a status, each documented status's own body with one
  mocks.override("getChainInfo", { body: chainInfo });
  mocks.override("getChainInfo", { status: 200, body: chainInfo, headers: { "x-mock": "1" }, delay: 10 });
  mocks.override("getChainInfo", { status: 404, body: errorBody });
  mocks.override("getChainInfo", { status: 404, body: { message: "no such chain", statusCode: 404, error: "Not Found" } });
  // @ts-expect-error a body that is not a ChainInfo
  mocks.override("getChainInfo", { body: { chainId: 1 } });
  // @ts-expect-error the 200 body at 404
  mocks.override("getChainInfo", { status: 404, body: chainInfo });
  // @ts-expect-error the 404 body at 200
  mocks.override("getChainInfo", { status: 200, body: errorBody });
  // @ts-expect-error the error body without a status is served at 200
  mocks.override("getChainInfo", { body: errorBody });
  // @ts-expect-error a body at a status the operation does not document
  mocks.override("getChainInfo", { status: 418, body: errorBody });
  // without a body any status goes (the API's error body is served)
  mocks.override("getChainInfo", { status: 418 });
  mocks.override("getChainInfo", { networkError: true });
  server.override("getChainInfo", { status: 404, body: errorBody });
  // @ts-expect-error the mock server checks bodies too
  server.override("getChainInfo", { body: { chainId: 1 } });
  // a non-2XX status that documents the 2XX schema (a health check's 503)
  mocks.override("getHealth", { status: 503, body: { checks: {}, healthy: false } });

  // JSON-RPC: the method's result
  mocks.override("info.getNodeVersion", { body: version });
  mocks.override("info.getNodeVersion", { status: 200, headers: { "x-mock": "1" }, body: version });
  // @ts-expect-error not a NodeVersion
  mocks.override("info.getNodeVersion", { body: { version: 1 } });
  // @ts-expect-error eth_chainId answers a quantity, not a boolean
  mocks.override("eth_chainId", { body: true });
  // the number policy: a quantity as the wire's hex, a bigint or a number (served as hex)
  mocks.override("eth_chainId", { body: "0xa86a" });
  mocks.override("eth_chainId", { body: 43114n });
  mocks.override("eth_chainId", { body: 43114 });
  // one name on several endpoints (index.cBlock, index.pBlock, …): one override for all, their results' union; the wrapped form servers send too
  mocks.override("index.getContainerRange", { body: null });
  mocks.override("index.getContainerRange", { body: { containers: [] } });
  // @ts-expect-error not a container list
  mocks.override("index.getContainerRange", { body: "containers" });

  // generic code: the ids the mocks list, or any string through the untyped service
  for (const id of mocks.ids) mocks.override(id, { status: 503 });
  for (const id of ids) (mocks as MockService).override(id, { body: { anything: true } });
  // @ts-expect-error a plain string is not an id
  for (const id of ids) mocks.override(id, { status: 503 });

  // the override type by id
  const o: MockOverrideFor<MockAnswers["getChainInfo"]> = { status: 404, body: errorBody };
  mocks.override("getChainInfo", o);
}

describe("typed overrides through MSW's setupServer", () => {
  const mocks = createMocks({ seed: 1 });
  useMsw(mocks);
  const data = createDataApiClient({ validateResponse: "strict", retry: false });
  const node = createNodeClient({ validateResponse: "strict" });

  it("serves a typed 2XX body, and a documented error status with its own body", async () => {
    const served = await data.getChainInfo({ chainId: "43114" });
    mocks.override("getChainInfo", { body: { ...served, chainName: "Mocked chain" } });
    await expect(data.getChainInfo({ chainId: "43114" })).resolves.toMatchObject({ chainName: "Mocked chain" });
    mocks.override("getChainInfo", { status: 404, body: { message: "no chain 43114 here", statusCode: 404, error: "Not Found" } });
    const error = await data.getChainInfo({ chainId: "43114" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 404, messages: ["no chain 43114 here"] });
    mocks.reset();
    await expect(data.getChainInfo({ chainId: "43114" })).resolves.toMatchObject({ chainName: served.chainName });
  });

  it("serves a JSON-RPC method's typed result, and one override of a shared method name answers on each endpoint", async () => {
    const version: NodeVersion = { version: "avalanchego/9.9.9", databaseVersion: "v1.4.5", rpcProtocolVersion: "42", gitCommit: "abc", vmVersions: { avm: "v9.9.9" } };
    mocks.override("info.getNodeVersion", { body: version });
    // the node client reads the decimal rpcProtocolVersion as a bigint (its number policy)
    await expect(node.info.getNodeVersion()).resolves.toEqual({ ...version, rpcProtocolVersion: 42n });
    mocks.override("index.getContainerRange", { body: null });
    await expect(node.index.cBlock.getContainerRange({ startIndex: 0, numToFetch: 2 })).resolves.toBeNull();
    await expect(node.index.pBlock.getContainerRange({ startIndex: 0, numToFetch: 2 })).resolves.toBeNull();
  });

  it("still serves what the types refuse through the untyped service, for the client's checks to catch", async () => {
    (mocks as MockService).override("getChainInfo", { body: { chainId: 1 } });
    await expect(data.getChainInfo({ chainId: "43114" })).rejects.toBeInstanceOf(ValidationError);
    expect(() => (mocks as MockService).override("listErc20Transacions", { status: 503 })).toThrow(/listErc20Transacions/);
  });
});

describe("typed overrides of the standalone mock server", () => {
  it("steers the running server until reset()", async () => {
    const server = await startMockServer({ port: 0, seed: 1, log: null });
    try {
      const data = createDataApiClient({ baseUrl: server.url, validateResponse: "strict", retry: false });
      expect(server.ids).toContain("getChainInfo");
      server.override("getChainInfo", { status: 503, body: { message: "maintenance", statusCode: 503, error: "Service Unavailable" } });
      await expect(data.getChainInfo({ chainId: "43114" })).rejects.toMatchObject({ statusCode: 503, messages: ["maintenance"] });
      server.reset();
      await expect(data.getChainInfo({ chainId: "43114" })).resolves.toMatchObject({ chainId: "43114" });
    } finally {
      await server.close();
    }
  });
});
