/**
 * What the Swagger 2.0 conversion keeps and what it loses, as the README's
 * "Swagger 2.0" paragraph states it: each claim checked on the real
 * converter's output (generator/load/swagger2.ts), and each loss the
 * converter knows about reported as a `swagger2/lossy` warning at the
 * original position.
 */
import { describe, expect, it } from "vitest";
import { loadText } from "../../generator/load/load.js";
import { convertSwagger2 } from "../../generator/load/swagger2.js";

const SWAGGER = `swagger: "2.0"
info: {title: Losses, version: "1"}
host: api.example.com
basePath: /v1
paths:
  /a/{ids}:
    post:
      operationId: a
      consumes: [application/json, application/xml]
      produces: [application/json, text/csv]
      parameters:
        - {name: ids, in: path, required: true, type: array, items: {type: integer}, collectionFormat: pipes}
        - {name: q, in: query, type: array, items: {type: string}, collectionFormat: tsv}
        - {name: m, in: query, type: array, items: {type: string}, collectionFormat: multi}
        - {name: p, in: query, type: array, items: {type: string}, collectionFormat: pipes}
        - {name: n, in: query, type: array, items: {type: array, items: {type: string}, collectionFormat: pipes}, collectionFormat: csv}
        - {name: e, in: query, type: string, x-example: hello}
        - {name: s, in: query, type: array, items: {type: string}, collectionFormat: ssv}
        - {name: payload, in: body, required: true, schema: {type: object, properties: {a: {type: string}}}, x-body-ext: 1}
        - {name: second, in: body, schema: {type: string}}
      responses:
        "200": {description: ok, schema: {type: string}, x-resp-ext: 2}
  /b:
    post:
      operationId: b
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: tags, in: formData, type: array, items: {type: string}, collectionFormat: csv, x-form-ext: 3}
        - {name: f, in: formData, type: file}
      responses:
        "200": {description: no produces anywhere, schema: {type: string}}
definitions:
  Animal:
    type: object
    discriminator: kind
    required: [kind]
    properties: {kind: {type: string}, note: {type: string, x-nullable: true}}
`;

type Json = Record<string, any>;
const loaded = loadText("losses.yaml", SWAGGER).document!;
const { document, diagnostics } = convertSwagger2(loaded);
const root = document!.root as Json;
const a = root["paths"]["/a/{ids}"]["post"] as Json;
const b = root["paths"]["/b"]["post"] as Json;
const param = (name: string) => (a["parameters"] as Json[]).find((p) => p["name"] === name)!;
const lineOf = (needle: string) => SWAGGER.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("lost, with a swagger2/lossy warning at the original line", () => {
  const warned = diagnostics.map((d) => `${d.line} ${d.pointer}: ${d.message} [${d.code}]`);
  it.each([
    ["ids", "pipes outside a query", `${lineOf("name: ids")} #/paths/~1a~1{ids}/post/parameters/0: converting to OpenAPI 3.0: collectionFormat:pipes is no longer supported except for in:query parameters [swagger2/lossy]`],
    ["q", "tsv", `${lineOf("name: q,")} #/paths/~1a~1{ids}/post/parameters/1: converting to OpenAPI 3.0: collectionFormat:tsv is no longer supported [swagger2/lossy]`],
  ])("%s: %s", (name, _what, warning) => {
    expect(warned).toContain(warning);
    expect(param(name)["style"]).toBeUndefined();
  });

  it("n: the inner one of nested collectionFormats (the outer csv stays)", () => {
    expect(warned).toContain(`${lineOf("name: n,")} #/paths/~1a~1{ids}/post/parameters/4: converting to OpenAPI 3.0: Nested collectionFormats are not supported [swagger2/lossy]`);
    expect(param("n")).toMatchObject({ style: "form", explode: false, schema: { type: "array", items: { type: "array", items: { type: "string" } } } });
    expect(JSON.stringify(param("n"))).not.toContain("pipe");
  });

  it("a second body parameter: dropped, the first is the request body", () => {
    expect(warned).toContain(`${lineOf("    post:")} #/paths/~1a~1{ids}/post: converting to OpenAPI 3.0: Operation a has multiple requestBodies [swagger2/lossy]`);
    expect(a["requestBody"]["content"]["application/json"]["schema"]).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it("nothing else is warned about, and every warning is a warning", () => {
    expect(diagnostics).toHaveLength(4);
    expect(diagnostics.every((d) => d.severity === "warning" && d.file === "losses.yaml")).toBe(true);
  });
});

describe("lost without a warning", () => {
  it("collectionFormat of a formData array: the form's own default (one key per item) instead of csv", () => {
    expect(b["requestBody"]["content"]["application/x-www-form-urlencoded"]["encoding"]).toBeUndefined();
  });

  it("the body parameter's name (OpenAPI 3.0 request bodies have none)", () => {
    expect(JSON.stringify(a["requestBody"])).not.toContain("payload");
  });

  it("a document without `schemes`: a scheme-relative server URL", () => {
    expect(root["servers"]).toEqual([{ url: "//api.example.com/v1" }]);
  });

  it("no `produces` anywhere: the response's media type is */*", () => {
    expect(Object.keys(b["responses"]["200"]["content"])).toEqual(["*/*"]);
  });
});

describe("kept", () => {
  it("multi becomes explode, pipes and ssv in a query pipeDelimited and spaceDelimited, x-example an example", () => {
    expect(param("m")["explode"]).toBe(true);
    expect(param("p")["style"]).toBe("pipeDelimited");
    expect(param("s")["style"]).toBe("spaceDelimited");
    expect(param("e")["example"]).toBe("hello");
  });

  it("x- of a body parameter on the request body, of a formData parameter on its property, of a response on it", () => {
    expect(a["requestBody"]["x-body-ext"]).toBe(1);
    expect(b["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["properties"]["tags"]["x-form-ext"]).toBe(3);
    expect(a["responses"]["200"]["x-resp-ext"]).toBe(2);
  });

  it("consumes and produces per operation: one media type each, the same schema", () => {
    expect(Object.keys(a["requestBody"]["content"])).toEqual(["application/json", "application/xml"]);
    expect(Object.keys(a["responses"]["200"]["content"])).toEqual(["application/json", "text/csv"]);
  });

  it("type: file is a binary string, x-nullable is nullable, a discriminator names its property", () => {
    expect(b["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]["properties"]["f"]).toEqual({ type: "string", format: "binary" });
    expect(root["components"]["schemas"]["Animal"]["properties"]["note"]).toEqual({ type: "string", nullable: true });
    expect(root["components"]["schemas"]["Animal"]["discriminator"]).toEqual({ propertyName: "kind" });
  });
});

describe("small errors the converter fixes without a word (its patch option)", () => {
  it("a path parameter without required: true, a response without a description", () => {
    const text = `swagger: "2.0"\ninfo: {title: Fixed, version: "1"}\npaths:\n  /x/{id}:\n    get:\n      parameters: [{name: id, in: path, type: string}]\n      responses: {"200": {schema: {type: string}}}\n`;
    const fixed = convertSwagger2(loadText("fixed.yaml", text).document!);
    expect(fixed.diagnostics).toEqual([]);
    const get = (fixed.document!.root as Json)["paths"]["/x/{id}"]["get"] as Json;
    expect(get["parameters"][0]["required"]).toBe(true);
    expect(get["responses"]["200"]["description"]).toBe("");
  });
});
