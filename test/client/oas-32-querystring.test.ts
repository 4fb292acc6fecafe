/**
 * OpenAPI 3.2's `in: querystring` (test/fixtures/oas-32): the whole query
 * string is one parameter, serialized as its media type says: an object's
 * members as form fields (`application/x-www-form-urlencoded`), or JSON text.
 * On the wire to a loopback server, through the package's own mock server
 * (which reads it back and checks it), and as diagnostics when a document
 * puts query parameters beside it or uses it before 3.2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogClient } from "../fixtures/oas-32/golden/src/catalog/client.js";
import { startMockServer, type MockServer } from "../fixtures/oas-32/golden/src/mock-server/index.js";
import { ValidationError } from "../fixtures/oas-32/golden/src/runtime/errors/errors.js";
import { runCli } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/server.js";

const product = { id: "p1", name: "lamp", price: 12.5 };

describe("on the wire", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const api = () => createCatalogClient({ baseUrl: server.url, retry: false });

  it("a form-encoded querystring sends the object's members as the query: arrays repeat their field", async () => {
    server.reply(() => ({ body: [product] }));
    expect(await api().searchByForm({ filter: { tag: ["home", "a&b"], maxPrice: 20, inStock: true } })).toEqual([product]);
    expect(server.requests.at(-1)!.url).toBe("/search?tag=home&tag=a%26b&maxPrice=20&inStock=true");
  });

  it("a JSON querystring sends the value's JSON text, percent-encoded, as the whole query; left out, no query", async () => {
    server.reply(() => ({ body: [] }));
    await api().searchByJson({ q: { text: "desk lamp", maxPrice: 20 } });
    const url = server.requests.at(-1)!.url;
    expect(url).toBe(`/search/json?${encodeURIComponent(JSON.stringify({ text: "desk lamp", maxPrice: 20 }))}`);
    expect(JSON.parse(decodeURIComponent(url.slice(url.indexOf("?") + 1)))).toEqual({ text: "desk lamp", maxPrice: 20 });
    await api().searchByJson();
    expect(server.requests.at(-1)!.url).toBe("/search/json");
  });

  it("a query parameter given by content (application/json) is name=JSON text, not form fields", async () => {
    server.reply(() => ({ body: [] }));
    await api().listProducts({ where: { text: "lamp", maxPrice: 5 } });
    expect(server.requests.at(-1)!.url).toBe(`/products?where=${encodeURIComponent('{"text":"lamp","maxPrice":5}')}`);
  });

  it("a querystring value its schema refuses is a ValidationError naming it, before anything is sent", async () => {
    const sent = server.requests.length;
    const error = await api()
      .searchByForm({ filter: { maxPrice: "cheap" as unknown as number } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain("filter/maxPrice");
    expect(server.requests.length).toBe(sent);
  });
});

describe("the package's mock server", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, log: null });
  });
  afterAll(() => mock.close());

  it("reads a querystring back as the client wrote it and answers", async () => {
    const api = createCatalogClient({ baseUrl: mock.url, retry: false, validateResponse: "strict" });
    mock.override("searchByForm", { body: [product] });
    expect(await api.searchByForm({ filter: { tag: ["home"], maxPrice: 20 } })).toEqual([product]);
    mock.override("searchByJson", { body: [product] });
    expect(await api.searchByJson({ q: { text: "lamp" } })).toEqual([product]);
    mock.override("listProducts", { body: [product] });
    expect(await api.listProducts({ where: { maxPrice: 3 } })).toEqual([product]);
    const refused = await fetch(`${mock.url}/products?where=${encodeURIComponent('{"maxPrice":-1}')}`);
    expect(refused.status).toBe(400);
    mock.reset();
  });

  it("checks what it reads: a field of the wrong type, or a JSON querystring that is not JSON, is a 400", async () => {
    const wrong = await fetch(`${mock.url}/search?maxPrice=cheap`);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("maxPrice");
    const broken = await fetch(`${mock.url}/search/json?%7Bnot-json`);
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("the query string is not JSON");
  });
});

describe("generating", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-querystring-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let runs = 0;
  const generate = (doc: string) => {
    const out = `out${++runs}`;
    writeFileSync(join(dir, "spec.yaml"), doc);
    return runCli(["generate", "--input", "spec.yaml", "--out", out], dir);
  };
  const spec = readFileSync(new URL("../fixtures/oas-32/spec.yaml", import.meta.url), "utf8");

  it("a query parameter beside a querystring is an error: in one list (the official schema, in words), or from the path item", () => {
    const page = "        - name: page\n          in: query\n          schema: { type: integer }\n";
    const same = generate(spec.replace("      parameters:\n        - name: filter\n", `      parameters:\n${page}        - name: filter\n`));
    expect(same.status).toBe(1);
    expect(same.stderr).toMatch(/spec\.yaml:\d+:\d+ at #\/paths\/~1search\/get\/parameters: does not match the OpenAPI 3\.2 schema: query parameters cannot be beside a querystring parameter \(it is the whole query\) \[openapi\/schema\]/);
    // the schema sees each list alone: a path item's query parameter meets the operation's querystring only when they merge
    const merged = generate(spec.replace("  /search:\n    get:\n", `  /search:\n    parameters:\n${page.replace(/^ {2}/gm, "")}    get:\n`));
    expect(merged.status).toBe(1);
    expect(merged.stderr).toMatch(/spec\.yaml:\d+:\d+ at #\/paths\/~1search\/parameters\/0: a querystring parameter \("filter"\) is the whole query, so "page" cannot be in the query beside it \[parameter\/querystring\]/);
  });

  it("before 3.2, `in: querystring` is an invalid parameter that says whose it is", () => {
    const r = generate(spec.replace("openapi: 3.2.0\n$self: https://example.com/apis/catalog/openapi.yaml\n", "openapi: 3.1.0\n").replace(/\n {4}additionalOperations:[\s\S]*?\n {2}\/search:/, "\n  /search:").replace(/\n {2}\/stats:[\s\S]*?\ncomponents:/, "\ncomponents:").replace('openapi.yaml#/components/schemas/ProductQuery', '#/components/schemas/ProductQuery'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at #\/paths\/~1search\/get\/parameters\/0: a parameter needs a "name" and "in" of path, query, header or cookie \(querystring is OpenAPI 3\.2's\) \[parameter\/invalid\]/);
  });
});
