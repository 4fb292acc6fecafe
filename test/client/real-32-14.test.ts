/**
 * Real documents of the newer versions, kept with their licences:
 * the OpenAPI Initiative's own 3.2 examples (test/fixtures/oai-32-examples:
 * a path item with GET, QUERY and an additionalOperations COPY; links;
 * hierarchical tags) and the Midnight node's OpenRPC 1.4.0 document
 * (test/fixtures/rpc-openrpc-14). Each generates and type-checks with the
 * other fixtures (golden.test.ts, typecheck.test.ts); here each client calls
 * its package's own node:http mock server, responses checked strictly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPetsClient } from "../fixtures/oai-32-examples/golden/src/pets/client.js";
import { startMockServer as startPetsMock, type MockServer as PetsMock } from "../fixtures/oai-32-examples/golden/src/mock-server/index.js";
import { catalog as petsCatalog } from "../fixtures/oai-32-examples/golden/src/mcp/catalog.js";
import { createMidnightClient } from "../fixtures/rpc-openrpc-14/golden/src/midnight/client.js";
import { startMockServer as startMidnightMock, type MockServer as MidnightMock } from "../fixtures/rpc-openrpc-14/golden/src/mock-server/index.js";

describe("the OpenAPI Initiative's 3.2 path item example", () => {
  let mock: PetsMock;
  beforeAll(async () => {
    mock = await startPetsMock({ port: 0, seed: 1, log: null });
  });
  afterAll(() => mock.close());

  it("GET, QUERY and COPY of one path item are three client methods, answered by the mock server", async () => {
    const pets = createPetsClient({ baseUrl: mock.url, retry: false, validateResponse: "strict" });
    for (const call of [() => pets.getPetsById({ id: ["a", "b"] }), () => pets.queryPetsById({ id: ["a"] }), () => pets.copyPetsById({ id: ["a"] })]) {
      expect(Array.isArray(await call())).toBe(true);
    }
  });

  it("its operations are MCP tools under their wire methods", () => {
    expect(petsCatalog.operations.filter((o) => o.path[0] === "pets").map((o) => o.wire)).toEqual(["GET /pets/{id}", "QUERY /pets/{id}", "COPY /pets/{id}"]);
  });
});

describe("the Midnight node's OpenRPC 1.4.0 document", () => {
  let mock: MidnightMock;
  beforeAll(async () => {
    mock = await startMidnightMock({ port: 0, seed: 1, log: null });
  });
  afterAll(() => mock.close());

  it("its methods are called on the package's own mock server and their results pass strict validation", async () => {
    const node = createMidnightClient({ baseUrl: mock.url, retry: false, validateResponse: "strict" });
    const versions = await node.midnight.apiVersions();
    expect(versions.every((v) => typeof v === "number")).toBe(true);
    const status = await node.sidechain.getStatus();
    expect(Object.keys(status).sort()).toEqual(["mainchain", "sidechain"]);
    const peers = await node.network.peerReputations();
    expect(Array.isArray(peers)).toBe(true);
  });

  it("a param that breaks its schema is refused before it is sent", async () => {
    const node = createMidnightClient({ baseUrl: mock.url, retry: false });
    await expect(node.midnight.zswapStateRoot({ at: "0x12" })).rejects.toThrow(/at/);
  });
});
