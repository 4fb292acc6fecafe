/**
 * MSW handlers of a package whose base URL has a path of its own (an API
 * served below …/glacier, a JSON-RPC document whose server URL is the
 * endpoint itself) answer from the mocks: they let such requests through to
 * the network before. MSW's real setupServer; anything unhandled is an error.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient } from "../fixtures/rpc-by-name/golden/src/api/index.js";
import { createMocks } from "../fixtures/rpc-by-name/golden/src/mocks/index.js";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createMocks as createAvalancheMocks } from "@avaspec/client/mocks";

const rpcMocks = createMocks({ baseUrls: { api: "http://127.0.0.1:9/rpc/v2" } });
const dataMocks = createAvalancheMocks({ baseUrls: { dataApi: "http://127.0.0.1:9/glacier" } });
const server = setupServer(...rpcMocks.handlers, ...dataMocks.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

it("a JSON-RPC document served at its base URL, below a path", async () => {
  const client = createApiClient({ baseUrl: "http://127.0.0.1:9/rpc/v2", validateResponse: "strict", retry: false });
  expect(await client.calc.ping()).toBe("pong");
});

it("an HTTP API below a path", async () => {
  const data = createDataApiClient({ baseUrl: "http://127.0.0.1:9/glacier", validateResponse: "strict", retry: false });
  const chain = await data.getChainInfo({ chainId: "43114" });
  expect(chain.chainId).toBe("43114");
});
