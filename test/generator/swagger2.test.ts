/**
 * Swagger 2.0 through the real CLI: a document is converted to OpenAPI 3.0 on
 * load and generated; whatever is wrong with it, found by the converter or by
 * avaspec's own checks after the conversion, is reported at the Swagger
 * document's own line, column and pointer, with exit 1 and the output left
 * untouched; the converter fetches nothing (an external `$ref` follows
 * `refs.allow` like any other). Overlays apply to the Swagger 2.0 document as
 * written, before the conversion, and what they insert is reported at the
 * overlay.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseDiagnostics, runCli } from "../helpers/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function generate(files: Record<string, string>, extra: string[] = []): { status: number | null; stderr: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-swagger2-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const r = runCli(["generate", "--input", "api.yaml", "--out", "out", ...extra], dir);
  return { status: r.status, stderr: r.stderr, dir };
}
/** Line (1-based) of the first line of `text` containing `needle`. */
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
/** `line:col` of the `$ref` on the line containing `needle`. */
const refAt = (text: string, needle: string) => `${lineOf(text, needle)}:${text.split("\n")[lineOf(text, needle) - 1]!.indexOf("$ref") + 1}`;

const GOOD = `swagger: "2.0"
info: {title: Pets, version: "1.0"}
host: 127.0.0.1:8080
basePath: /v1
schemes: [http]
consumes: [application/json]
produces: [application/json]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, type: integer}
      responses:
        "200":
          description: the pet
          schema: {$ref: "#/definitions/Pet"}
  /pets:
    post:
      operationId: addPet
      parameters:
        - {name: body, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
      responses:
        "201": {description: created}
  /pets/{id}/photo:
    put:
      operationId: uploadPhoto
      consumes: [multipart/form-data]
      parameters:
        - {name: id, in: path, required: true, type: integer}
        - {name: caption, in: formData, type: string}
        - {name: file, in: formData, type: file, required: true}
      responses:
        "204": {description: stored}
definitions:
  Pet:
    type: object
    required: [id, name]
    properties:
      id: {type: integer, format: int64}
      name: {type: string}
`;

describe("a Swagger 2.0 document", () => {
  it("generates as OpenAPI 3.0: the body parameter is the request body, the form a multipart body, host and basePath the base URL", () => {
    const r = generate({ "api.yaml": GOOD });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const client = readFileSync(join(r.dir, "out/src/api/client.ts"), "utf8");
    for (const op of ["getPet", "addPet", "uploadPhoto"]) expect(client).toContain(op);
    expect(readFileSync(join(r.dir, "out/src/api/functions.d.ts"), "utf8")).toContain('API_DEFAULT_BASE_URL = "http://127.0.0.1:8080/v1"');
    const types = readFileSync(join(r.dir, "out/src/api/types.ts"), "utf8");
    expect(types).toMatch(/export interface Pet<N extends Numbers = "string"> \{/);
    expect(client).toMatch(/caption\?: string/);
  });

  it("reports avaspec's own findings at the Swagger document's lines and pointers, exit 1, output untouched", () => {
    const broken = GOOD.replace('schema: {$ref: "#/definitions/Pet"}}', 'schema: {$ref: "#/definitions/Missing"}}')
      .replace("      name: {type: string}", "      name: {type: string}\n      owner: {$ref: '#/definitions/Nobody'}")
      .replace("  /pets:\n", "  /pets/{petId}/toys:\n    get:\n      operationId: toys\n      responses:\n        '200': {description: toys, schema: {type: array, items: {$ref: '#/definitions/Toy'}}}\n  /pets:\n");
    const r = generate({ "api.yaml": broken });
    expect(r.status).toBe(1);
    expect(existsSync(join(r.dir, "out"))).toBe(false);
    const found = parseDiagnostics(r.stderr).map((d) => d.line.replace(/ \[.*$/, ""));
    expect(found).toEqual(
      expect.arrayContaining([
        `api.yaml:${lineOf(broken, "/pets/{petId}/toys:") + 1}:5 at #/paths/~1pets~1{petId}~1toys/get: path template parameter {petId} of "/pets/{petId}/toys" is not declared`,
        `api.yaml:${refAt(broken, "Toy")} at #/paths/~1pets~1{petId}~1toys/get/responses/200/schema/items/$ref: $ref "#/definitions/Toy" does not resolve`,
        `api.yaml:${refAt(broken, "Missing")} at #/paths/~1pets/post/parameters/0/schema/$ref: $ref "#/definitions/Missing" does not resolve`,
        `api.yaml:${refAt(broken, "Nobody")} at #/definitions/Pet/properties/owner/$ref: $ref "#/definitions/Nobody" does not resolve`,
      ]),
    );
    expect(r.stderr).not.toContain("#/components/");
  });

  it("reports the converter's own failure at the node it names, exit 1, output untouched", () => {
    // both names become `api_key` in OpenAPI 3.0, which the converter refuses
    const clash = GOOD.replace("paths:\n", "securityDefinitions:\n  api_key: {type: apiKey, in: header, name: X-Key}\n  api+key: {type: apiKey, in: query, name: key}\npaths:\n");
    const r = generate({ "api.yaml": clash });
    expect(r.status).toBe(1);
    expect(existsSync(join(r.dir, "out"))).toBe(false);
    const [d, ...more] = parseDiagnostics(r.stderr);
    expect(more).toEqual([]);
    expect(d!.line).toBe(`api.yaml:${lineOf(clash, "api+key:")}:3 at #/securityDefinitions/api+key: cannot convert this Swagger 2.0 document to OpenAPI 3.0: Duplicate sanitised securityScheme name api_key [swagger2/convert]`);
  });

  it("warns at the parameter's line what OpenAPI 3.0 cannot say (collectionFormat pipes in a header)", () => {
    const pipes = GOOD.replace("        - {name: id, in: path, required: true, type: integer}\n      responses:\n        \"200\"", "        - {name: id, in: path, required: true, type: integer}\n        - {name: X-Tags, in: header, type: array, items: {type: string}, collectionFormat: pipes}\n      responses:\n        \"200\"");
    const r = generate({ "api.yaml": pipes });
    expect(r.status).toBe(0);
    expect(parseDiagnostics(r.stderr).map((d) => d.line)).toEqual([`api.yaml:${lineOf(pipes, "X-Tags")}:11 at #/paths/~1pets~1{id}/get/parameters/1: converting to OpenAPI 3.0: collectionFormat:pipes is no longer supported except for in:query parameters [swagger2/lossy] (warning)`]);
  });
});

/** `file:line:col` of a diagnostic the CLI printed. */
const position = (d: { line: string }) => d.line.split(" at ")[0];

describe("overlays on a Swagger 2.0 document", () => {
  // The Overlay Specification applies an overlay's actions to its target document, the one the user names: here the
  // Swagger 2.0 file as written. So avaspec applies overlays before the conversion (generator/front-end.ts), and a
  // target speaks Swagger 2.0 (`definitions`, `in: body`), never the OpenAPI 3.0 the converter makes of it.
  it("targets the document as written, before the conversion; a target in the converted form selects nothing", () => {
    const overlay = `overlay: 1.0.0
info: { title: Fix the pets, version: 1.0.0 }
actions:
  - target: $.paths['/pets/{id}'].get
    update:
      summary: One pet, by its id (patched)
  - target: $.definitions.Pet.properties
    update:
      nickname: { type: string }
  - target: $.paths['/pets/{id}/photo']
    remove: true
  - target: $.components.schemas.Pet
    update:
      description: not there before the conversion
`;
    const r = generate({ "api.yaml": GOOD, "fix.overlay.yaml": overlay }, ["--overlay", "fix.overlay.yaml"]);
    expect(r.status, r.stderr).toBe(0);
    const found = parseDiagnostics(r.stderr);
    expect(found).toEqual([expect.objectContaining({ file: "fix.overlay.yaml", pointer: "#/actions/3/target", code: "overlay/no-match", warning: true })]);
    expect(position(found[0]!)).toBe(`fix.overlay.yaml:${lineOf(overlay, "$.components.schemas.Pet")}:5`);
    const client = readFileSync(join(r.dir, "out/src/api/client.ts"), "utf8");
    expect(client).toContain("One pet, by its id (patched)");
    expect(client).not.toContain("uploadPhoto");
    expect(readFileSync(join(r.dir, "out/src/api/types.ts"), "utf8")).toMatch(/nickname\?: string/);
  });

  it("what an action inserted is reported at the overlay: the validator's finding after the conversion and the converter's own", () => {
    const overlay = `overlay: 1.0.0
info: { title: Break the pets, version: 1.0.0 }
actions:
  - target: $.definitions.Pet.properties
    update:
      owner: { $ref: "#/definitions/Nobody" }
  - target: $.paths['/pets/{id}'].get
    update:
      operationId: 12
  - target: $.paths['/pets/{id}'].get.parameters
    update:
      - {name: X-Tags, in: header, type: array, items: {type: string}, collectionFormat: pipes}
`;
    const r = generate({ "api.yaml": GOOD, "break.overlay.yaml": overlay }, ["--overlay", "break.overlay.yaml"]);
    expect(r.status).toBe(1);
    expect(existsSync(join(r.dir, "out"))).toBe(false);
    const found = parseDiagnostics(r.stderr);
    // each at the overlay's line, with the Swagger document's pointer (not the converted one's) in the hint
    expect(found.map((d) => [d.code, d.pointer, position(d)]).sort()).toEqual([
      ["operation/id", "#/actions/1/update/operationId", `break.overlay.yaml:${lineOf(overlay, "operationId: 12")}:7`],
      // a scalar inside an object the action inserted: at its own key in the overlay
      ["ref/dangling", "#/actions/0/update/owner/$ref", `break.overlay.yaml:${refAt(overlay, "owner:")}`],
      ["swagger2/lossy", "#/actions/2/update/0", `break.overlay.yaml:${lineOf(overlay, "X-Tags")}:9`],
    ]);
    expect(r.stderr).toContain("#/paths/~1pets~1{id}/get/parameters/1 of api.yaml was put there by this overlay action");
    expect(r.stderr).toContain("#/definitions/Pet/properties/owner/$ref of api.yaml was put there by this overlay action");
    expect(r.stderr).not.toContain("#/components/");
  });
});

describe("external references of a Swagger 2.0 document", () => {
  let server: Server;
  let requests = 0;
  let base = "";
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ definitions: { Owner: { type: "object", properties: { name: { type: "string" } } } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("are not fetched unless allowed: the converter resolves nothing, the ref is reported where it is written", () => {
    const remote = GOOD.replace("      name: {type: string}", `      name: {type: string}\n      owner: {$ref: "${base}shared.json#/definitions/Owner"}`);
    const r = generate({ "api.yaml": remote });
    expect(requests).toBe(0);
    expect(r.status).toBe(1);
    const [d] = parseDiagnostics(r.stderr);
    expect(d!.line).toMatch(new RegExp(`^api\\.yaml:${lineOf(remote, "shared.json")}:\\d+ at #/definitions/Pet/properties/owner/\\$ref: `));
    expect(existsSync(join(r.dir, "out"))).toBe(false);
  });

  it("are bundled from an allowed file before the conversion, as for OpenAPI", () => {
    const local = GOOD.replace("      name: {type: string}", "      name: {type: string}\n      owner: {$ref: 'shared/common.yaml#/definitions/Owner'}");
    const r = generate({ "api.yaml": local, "shared/common.yaml": "definitions:\n  Owner:\n    type: object\n    properties:\n      nickname: {type: string}\n" }, ["--allow-ref", "shared/"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(readFileSync(join(r.dir, "out/src/api/types.ts"), "utf8")).toContain("nickname?: string");
    expect(requests).toBe(0);
  });
});
