/**
 * OpenAPI 3.2 (test/fixtures/oas-32): QUERY and `additionalOperations` methods
 * are operations like the others — on the wire to a loopback server, through
 * the package's own node:http mock server and MSW's setupServer, as MCP
 * tools; hierarchical tags reach the MCP catalog; `$ref`s by `$self` resolve;
 * the official 3.2 schema's findings are positioned diagnostics.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { METHODS } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogClient } from "../fixtures/oas-32/golden/src/catalog/client.js";
import { catalogResults, createCatalogCore, queryStats } from "../fixtures/oas-32/golden/src/catalog/functions.js";
import { catalog } from "../fixtures/oas-32/golden/src/mcp/catalog.js";
import { startMockServer, type MockServer } from "../fixtures/oas-32/golden/src/mock-server/index.js";
import { createMocks } from "../fixtures/oas-32/golden/src/mocks/index.js";
import { runCli } from "../helpers/cli.js";
import { useMsw } from "../helpers/msw.js";
import { startServer, type TestServer } from "../helpers/server.js";

const product = { id: "p1", name: "lamp", price: 12.5 };

describe("on the wire (a loopback node:http server)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const api = () => createCatalogClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });

  it("Node's own HTTP parser knows QUERY, COPY and PURGE (the methods this fixture sends)", () => {
    expect(METHODS).toEqual(expect.arrayContaining(["QUERY", "COPY", "PURGE"]));
  });

  it("a QUERY operation sends its JSON body with the QUERY method", async () => {
    server.reply(() => ({ body: [product] }));
    expect(await api().searchProducts({ body: { text: "lamp", maxPrice: 20 } })).toEqual([product]);
    const req = server.requests.at(-1)!;
    expect([req.method, req.url, JSON.parse(req.body)]).toEqual(["QUERY", "/products", { text: "lamp", maxPrice: 20 }]);
    expect(req.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("additionalOperations send their method exactly as the document keys it, with their parameters", async () => {
    server.reply(() => ({ status: 201, body: { ...product, id: "p2" } }));
    expect(await api().copyProduct({ id: "p1", Destination: "/products/p2" })).toEqual({ ...product, id: "p2" });
    expect(server.requests.at(-1)).toMatchObject({ method: "COPY", url: "/products/p1", headers: { destination: "/products/p2" } });
    server.reply(() => ({ status: 204 }));
    await api().purgeProductsById({ id: "p 1" });
    expect(server.requests.at(-1)).toMatchObject({ method: "PURGE", url: "/products/p%201" });
  });

  it("the functional form calls a QUERY operation without a body, and checks the response like any other", async () => {
    server.reply(() => ({ body: { products: 3 } }));
    const core = createCatalogCore({ baseUrl: server.url, retry: false, validateResponse: "strict", results: catalogResults });
    expect(await queryStats(core)).toEqual({ products: 3 });
    expect(server.requests.at(-1)!.method).toBe("QUERY");
    server.reply(() => ({ body: { products: "three" } }));
    await expect(queryStats(core)).rejects.toThrow(/products/);
  });
});

describe("the package's node:http mock server", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, log: null });
  });
  afterAll(() => mock.close());

  it("answers QUERY, COPY and PURGE as the client calls them", async () => {
    const api = createCatalogClient({ baseUrl: mock.url, retry: false, validateResponse: "strict" });
    mock.override("searchProducts", { body: [product] });
    expect(await api.searchProducts({ body: { text: "lamp" } })).toEqual([product]);
    const copy = await api.copyProduct({ id: "p1", Destination: "/products/p9" });
    expect(Object.keys(copy).sort()).toEqual(["id", "name", "price"]);
    await expect(api.purgeProductsById({ id: "p1" })).resolves.toBeUndefined();
    expect(typeof (await api.queryStats()).products).toBe("number");
    mock.reset();
  });

  it("a method Node's HTTP parser does not know never reaches it: Node answers 400 itself (the README's limit)", async () => {
    expect(METHODS).not.toContain("FROB");
    const r = await fetch(`${mock.url}/products/p1`, { method: "FROB" });
    expect(r.status).toBe(400);
  });

  it("refuses a QUERY body its schema refuses, as it refuses any request body", async () => {
    const r = await fetch(`${mock.url}/products`, { method: "QUERY", headers: { "content-type": "application/json" }, body: JSON.stringify({ maxPrice: -1 }) });
    expect(r.status).toBe(400);
  });
});

describe("MSW's setupServer", () => {
  const mocks = createMocks({ baseUrls: { catalog: "http://catalog.test" } });
  useMsw(mocks);
  it("handles QUERY and additionalOperations methods", async () => {
    const api = createCatalogClient({ baseUrl: "http://catalog.test", retry: false, validateResponse: "strict" });
    mocks.override("searchProducts", { body: [product] });
    expect(await api.searchProducts({ body: {} })).toEqual([product]);
    expect(Object.keys(await api.copyProduct({ id: "p1", Destination: "/x" })).sort()).toEqual(["id", "name", "price"]);
    await expect(api.purgeProductsById({ id: "p1" })).resolves.toBeUndefined();
  });
});

describe("MCP tools", () => {
  const tool = (name: string) => catalog.operations.find((o) => o.tool === name)!;
  it("a QUERY operation is a read-only, idempotent tool; an additional method is not read-only", () => {
    expect(tool("catalog_searchProducts")).toMatchObject({ wire: "QUERY /products", access: { readOnly: true, idempotent: true } });
    expect(tool("catalog_copyProduct")).toMatchObject({ wire: "COPY /products/{id}", access: { readOnly: false } });
  });
  it("an operation's tags are followed by their ancestors (3.2 `parent`)", () => {
    expect(tool("catalog_searchProducts").tags).toEqual(["products", "catalog"]);
    expect(tool("catalog_purgeProductsById").tags).toEqual(["maintenance", "catalog"]);
  });
});

describe("generating from 3.2 documents", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-oas32-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let runs = 0;
  // each run writes to a folder of its own: a second run into the same one would be held to the first one's version
  const generate = (doc: string) => {
    const out = `out${++runs}`;
    writeFileSync(join(dir, "spec.yaml"), doc);
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out, package: { name: "x" }, inputs: [{ spec: "spec.yaml", output: "api", clientName: "Api" }] }));
    return { ...runCli(["generate", "--config", "avaspec.config.json"], dir), out: join(dir, out) };
  };
  const spec = readFileSync(new URL("../fixtures/oas-32/spec.yaml", import.meta.url), "utf8");

  it("reads the fixture: $refs by $self (absolute and relative) resolve to the document itself", () => {
    const r = generate(spec);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("what the official 3.2 schema refuses is a positioned diagnostic, and nothing is written", () => {
    const r = generate(spec.replace("    additionalOperations:\n      COPY:", "    additionalOperations:\n      POST:"));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/spec\.yaml:\d+:\d+ at #\/paths\/~1products~1\{id\}\/additionalOperations\/POST: does not match the OpenAPI 3.2 schema: .*\("POST"\) \[openapi\/schema\]/);
  });

  it("a missing info.version is found by the schema at its line", () => {
    const r = generate(spec.replace("  version: 1.1.0\n", ""));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/spec\.yaml:3:1 at #\/info: does not match the OpenAPI 3.2 schema: must have required property 'version' \[openapi\/schema\]/);
  });

  it("a tag's parent must be a tag of the document, and parents must not go round", () => {
    const unknown = generate(spec.replace("parent: catalog\n    kind: audience", "parent: catalogue\n    kind: audience"));
    expect(unknown.stderr).toMatch(/spec\.yaml:\d+:\d+ at #\/tags\/2\/parent: tag "maintenance" names parent "catalogue", which is not a tag of the document \[openapi\/tag-parent\]/);
    const cycle = generate(spec.replace("    kind: nav\n  - name: products", "    kind: nav\n    parent: products\n  - name: products"));
    expect(cycle.stderr).toMatch(/at #\/tags\/0\/parent: tag "catalog" is its own ancestor: catalog → products → catalog \[openapi\/tag-parent\]/);
  });

  it("an additional method fetch cannot send (CONNECT) is a warning, and the rest generates", () => {
    const r = generate(spec.replace("    additionalOperations:\n      COPY:", "    additionalOperations:\n      CONNECT:\n        responses:\n          \"200\":\n            description: tunnel\n      COPY:"));
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/spec\.yaml:\d+:\d+ at #\/paths\/~1products~1\{id\}\/additionalOperations\/CONNECT: fetch cannot send a CONNECT request; calls of this operation are refused before sending \[operation\/unsendable-method\] \(warning\)/);
  });

  it("a 3.1 document keeps 3.1's reading: `query` is not an operation there (the 3.1 path item has no such field)", () => {
    const r = generate(spec.replace("openapi: 3.2.0\n$self: https://example.com/apis/catalog/openapi.yaml\n", "openapi: 3.1.0\n").replace(/\n {4}additionalOperations:[\s\S]*?\n {2}\/stats:/, "\n  /stats:").replace('openapi.yaml#/components/schemas/ProductQuery', '#/components/schemas/ProductQuery'));
    expect(r.stderr).toBe("");
    const client = readFileSync(join(r.out, "src/api/client.ts"), "utf8");
    expect(client).toContain("listProducts");
    expect(client).not.toContain("searchProducts");
  });
});

describe("a method fetch cannot send", () => {
  it("CONNECT or TRACK from additionalOperations is refused before sending, like TRACE", async () => {
    const { createCatalogCore: core } = await import("../fixtures/oas-32/golden/src/catalog/functions.js");
    const { callHttp } = await import("../fixtures/oas-32/golden/src/runtime/http/http.js");
    const { UnsendableRequestError } = await import("../fixtures/oas-32/golden/src/runtime/errors/errors.js");
    const http = core({ baseUrl: "http://127.0.0.1:9", retry: false }).http!;
    for (const method of ["CONNECT", "TRACK", "connect"]) {
      const call = callHttp(http, { id: "tunnel", method, path: "/x", params: [], response: "json" } as never, {});
      await expect(call).rejects.toBeInstanceOf(UnsendableRequestError);
      await expect(call).rejects.toThrow(`tunnel: fetch cannot send a ${method} request, so the request was not sent`);
    }
  });
});
