/**
 * Every place swagger2openapi moves a node to, taken back to where the
 * Swagger 2.0 document wrote it (generator/load/swagger2-pointers.ts): the
 * real converter runs on a document that has each kind of node, and each
 * pointer of its OpenAPI 3.0 output must lead back to the original pointer,
 * whose position is what a diagnostic shows.
 */
import { describe, expect, it } from "vitest";
import { loadText } from "../../generator/load/load.js";
import { convertSwagger2 } from "../../generator/load/swagger2.js";

const SWAGGER = `swagger: "2.0"
info: {title: Moves, version: "1"}
host: api.example.com
basePath: /v2
schemes: [https]
consumes: [application/json]
produces: [application/json]
securityDefinitions:
  oauth:
    type: oauth2
    flow: implicit
    authorizationUrl: https://example.com/auth
    scopes: {read: read things}
  api+key: {type: apiKey, in: header, name: X-Key}
parameters:
  Limit: {name: limit, in: query, type: integer, maximum: 100}
  Shared Body: {name: body, in: body, schema: {$ref: "#/definitions/Pet"}}
responses:
  NotFound:
    description: missing
    schema: {$ref: "#/definitions/Error"}
paths:
  /pets:
    parameters:
      - {name: X-Trace, in: header, type: string}
    post:
      parameters:
        - {name: verbose, in: query, type: boolean}
        - {name: pet, in: body, description: the pet, required: true, schema: {$ref: "#/definitions/Pet"}}
        - $ref: "#/parameters/Limit"
      responses:
        "201":
          description: created
          headers:
            X-Rate: {type: integer, minimum: 0}
          schema: {$ref: "#/definitions/Pet"}
          examples: {application/json: {name: Rex}}
        "404": {$ref: "#/responses/NotFound"}
  /pets/{id}/photo:
    put:
      consumes: [multipart/form-data]
      parameters:
        - {name: id, in: path, required: true, type: string}
        - {name: caption, in: formData, type: string, maxLength: 80}
        - {name: file, in: formData, type: file}
      responses:
        "204": {description: stored}
  /a:
    put:
      parameters: [{$ref: "#/parameters/Shared Body"}]
      responses: {"204": {description: ok}}
  /b:
    put:
      parameters: [{$ref: "#/parameters/Shared Body"}]
      responses: {"204": {description: ok}}
definitions:
  Pet:
    type: object
    properties:
      name: {type: string}
  Error: {type: object}
  Page[Pet]: {type: array, items: {$ref: "#/definitions/Pet"}}
`;

function converted() {
  const loaded = loadText("moves.yaml", SWAGGER);
  const { document, diagnostics } = convertSwagger2(loaded.document!);
  expect(diagnostics).toEqual([]);
  return { converted: document!, original: loaded.document! };
}

describe("pointers of the converted document lead back to the Swagger 2.0 document", () => {
  const { converted: doc, original } = converted();
  const cases: [string, string][] = [
    ["#/openapi", "#/swagger"],
    ["#/servers/0/url", "#/host"],
    ["#/components/schemas/Pet/properties/name/type", "#/definitions/Pet/properties/name/type"],
    ["#/components/schemas/Page_Pet_/items/$ref", "#/definitions/Page[Pet]/items/$ref"],
    ["#/components/parameters/Limit/schema/maximum", "#/parameters/Limit/maximum"],
    ["#/components/responses/NotFound/content/application~1json/schema/$ref", "#/responses/NotFound/schema/$ref"],
    ["#/components/securitySchemes/oauth/flows/implicit/authorizationUrl", "#/securityDefinitions/oauth/authorizationUrl"],
    ["#/components/securitySchemes/api_key/name", "#/securityDefinitions/api+key/name"],
    ["#/paths/~1pets/parameters/0/schema/type", "#/paths/~1pets/parameters/0/type"],
    ["#/paths/~1pets/post/parameters/0/schema/type", "#/paths/~1pets/post/parameters/0/type"],
    ["#/paths/~1pets/post/parameters/1/$ref", "#/paths/~1pets/post/parameters/2/$ref"],
    ["#/paths/~1pets/post/requestBody/content/application~1json/schema/$ref", "#/paths/~1pets/post/parameters/1/schema/$ref"],
    ["#/paths/~1pets/post/requestBody/description", "#/paths/~1pets/post/parameters/1/description"],
    ["#/paths/~1pets/post/responses/201/content/application~1json/schema/$ref", "#/paths/~1pets/post/responses/201/schema/$ref"],
    ["#/paths/~1pets/post/responses/201/content/application~1json/examples/response/value", "#/paths/~1pets/post/responses/201/examples/application~1json"],
    ["#/paths/~1pets/post/responses/201/headers/X-Rate/schema/minimum", "#/paths/~1pets/post/responses/201/headers/X-Rate/minimum"],
    ["#/paths/~1pets~1{id}~1photo/put/requestBody/content/multipart~1form-data/schema/properties/caption/maxLength", "#/paths/~1pets~1{id}~1photo/put/parameters/1/maxLength"],
    ["#/paths/~1pets~1{id}~1photo/put/requestBody/content/multipart~1form-data/schema/properties/file", "#/paths/~1pets~1{id}~1photo/put/parameters/2"],
    // the body both operations share became one request body, named after its schema
    ["#/components/requestBodies/Pet/content/application~1json/schema/$ref", "#/parameters/Shared Body/schema/$ref"],
  ];
  it.each(cases)("%s ← %s", (pointer, expected) => {
    expect(doc.at(pointer), `${pointer} is not in the converted document`).toBeDefined();
    expect(doc.original!(pointer)).toBe(expected);
    expect(doc.locate(pointer)).toEqual(original.locate(expected));
  });

  it.each([
    ["#/components/schemas/Pet/nothing/here", "#/definitions/Pet"],
    ["#/components/examples/x", "#"],
    ["#/paths/~1nowhere/get", "#/paths"],
  ])("%s (not in the original) falls back to its nearest ancestor there, %s", (pointer, expected) => {
    expect(doc.original!(pointer)).toBe(expected);
  });
});
