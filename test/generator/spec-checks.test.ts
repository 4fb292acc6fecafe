/**
 * Issue 26, item 18: what generation used to accept without a word. A `$ref`
 * chain between parameters (responses, path items, OpenRPC content
 * descriptors) that goes round dropped the object silently: now an error at
 * the place that leads into it. An OpenAPI 3.0 schema with a list of types
 * (3.1's form) is read as 3.1 reads it, with a warning that says how 3.0
 * writes it. Through the real CLI; a refused document leaves nothing written.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { parseDiagnostics, runCli } from "../helpers/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function generate(name: string, text: string): { status: number | null; stderr: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-checks-"));
  dirs.push(dir);
  writeFileSync(join(dir, name), text);
  const r = runCli(["generate", "--input", name, "--out", "out"], dir);
  return { status: r.status, stderr: r.stderr, dir };
}

const api = (extra: Record<string, unknown>, get: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1" }, paths: { "/a": { get: { operationId: "getA", responses: { "200": { description: "ok" } }, ...get } } }, ...extra }, null, 2);

it("refuses a parameter whose $ref chain goes round, at the parameter, naming the chain (it was dropped without a word)", () => {
  const r = generate(
    "api.json",
    api({ components: { parameters: { P: { $ref: "#/components/parameters/Q" }, Q: { $ref: "#/components/parameters/P" } } } }, { parameters: [{ $ref: "#/components/parameters/P" }, { name: "q", in: "query", schema: { type: "string" } }] }),
  );
  expect(r.status).toBe(1);
  const found = parseDiagnostics(r.stderr);
  // one cycle, one error: where the operation's list leads into it (not again at P and Q under components)
  expect(found.map((d) => [d.code, d.pointer, d.warning])).toEqual([["ref/cycle", "#/paths/~1a/get/parameters/0", false]]);
  expect(found[0]!.message).toBe("this parameter's $ref goes round without reaching a parameter: #/paths/~1a/get/parameters/0 → #/components/parameters/P → #/components/parameters/Q → #/components/parameters/P");
  expect(found[0]!.line).toMatch(/^api\.json:\d+:\d+ at /);
  expect(existsSync(join(r.dir, "out"))).toBe(false);
});

it.each([
  ["a response", api({ components: { responses: { R: { $ref: "#/components/responses/R" } } } }, { responses: { "200": { $ref: "#/components/responses/R" } } }), "#/paths/~1a/get/responses/200", "response"],
  ["a path item", JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1" }, paths: { "/a": { $ref: "#/paths/~1b" }, "/b": { $ref: "#/paths/~1a" } } }), "#/paths/~1a", "path item"],
  ["an unused parameter component", api({ components: { parameters: { P: { $ref: "#/components/parameters/P" } } } }), "#/components/parameters/P", "parameter"],
  [
    "an OpenRPC content descriptor",
    JSON.stringify({ openrpc: "1.3.2", info: { title: "T", version: "1" }, methods: [{ name: "m", params: [{ $ref: "#/methods/0/params/1" }, { $ref: "#/methods/0/params/0" }], result: { name: "r", schema: {} } }] }),
    "#/methods/0/params/0",
    "content descriptor",
  ],
])("refuses %s whose $ref goes round", (_what, text, pointer, what) => {
  const r = generate("api.json", text);
  expect(r.status).toBe(1);
  const found = parseDiagnostics(r.stderr).filter((d) => d.code === "ref/cycle");
  expect(found.map((d) => d.pointer)).toEqual([pointer]);
  expect(found[0]!.message).toContain(`this ${what}'s $ref goes round without reaching a ${what}: ${pointer} → `);
  expect(existsSync(join(r.dir, "out"))).toBe(false);
});

it("warns about a list of types in OpenAPI 3.0 (3.1's form), with 3.0's way to write it, and reads it as 3.1 does", () => {
  const spec = `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: {type: [string, "null"]}
                  either: {type: [string, integer]}
`;
  const r = generate("api.yaml", spec);
  expect(r.status).toBe(0);
  const found = parseDiagnostics(r.stderr);
  expect(found.map((d) => d.line)).toEqual([
    "api.yaml:15:26 at #/paths/~1a/get/responses/200/content/application~1json/schema/properties/name/type: a list of types is OpenAPI 3.1; in OpenAPI 3.0 `type` is one type (read as string | null) [schema/type-list] (warning)",
    "api.yaml:16:28 at #/paths/~1a/get/responses/200/content/application~1json/schema/properties/either/type: a list of types is OpenAPI 3.1; in OpenAPI 3.0 `type` is one type (read as string | integer) [schema/type-list] (warning)",
  ]);
  expect(r.stderr).toContain("hint: write `type: string` with `nullable: true`, or declare the document `openapi: 3.1.0`");
  expect(r.stderr).toContain("hint: write one type, or a oneOf of one schema per type, or declare the document `openapi: 3.1.0`");
  // the same document as 3.1 says nothing
  expect(generate("api.yaml", spec.replace("3.0.3", "3.1.0")).stderr).toBe("");
});

it("warns about a misspelt schema keyword with the keyword it is near, and only in schemas (issue 30)", () => {
  const schema = { type: "object", requried: ["id"], properties: { id: { type: "string", maxLenght: 5 }, requried: { type: "string" } }, id: "legacy-draft-04-id", "x-requried": true };
  const r = generate("api.json", api({}, { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } }));
  expect(r.status).toBe(0);
  const found = parseDiagnostics(r.stderr).filter((d) => d.code === "schema/unknown-keyword");
  const at = "#/paths/~1a/get/responses/200/content/application~1json/schema";
  // the property named `requried`, the draft-04 `id` and an x- extension are not slips
  expect(found.map((d) => [d.pointer, d.warning])).toEqual([
    [`${at}/requried`, true],
    [`${at}/properties/id/maxLenght`, true],
  ]);
  expect(found[0]!.message).toBe('"requried" is not a schema keyword and is ignored');
  expect(r.stderr).toContain("hint: did you mean `required`?");
  expect(r.stderr).toContain("hint: did you mean `maxLength`?");
});

it("warns when a schema's request shape cannot be named <Name>Input because the spec has that name (issue 30)", () => {
  const order = { type: "object", properties: { id: { type: "string", readOnly: true }, item: { type: "string" } } };
  const body = (ref: string) => ({ content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } } });
  const doc = {
    openapi: "3.1.0",
    info: { title: "Shop", version: "1" },
    paths: { "/orders": { post: { operationId: "createOrder", requestBody: body("Order"), responses: { "201": { description: "created", ...body("Order") } } }, put: { operationId: "putOrder", requestBody: body("OrderInput"), responses: { "204": { description: "ok" } } } } },
    components: { schemas: { Order: order, OrderInput: { type: "object", properties: { note: { type: "string" } } } } },
  };
  const r = generate("api.json", JSON.stringify(doc, null, 2));
  expect(r.status).toBe(0);
  const found = parseDiagnostics(r.stderr).filter((d) => d.code === "naming/collision");
  expect(found.map((d) => [d.pointer, d.warning])).toEqual([["#/components/schemas/Order", true]]);
  expect(found[0]!.message).toContain("would be OrderInput, which another type already is; it is OrderInput2");
  // without the user's OrderInput the name is free and nothing is said
  const { OrderInput: _, ...schemas } = doc.components.schemas;
  const { put: __, ...orders } = doc.paths["/orders"];
  const quiet = generate("api.json", JSON.stringify({ ...doc, paths: { "/orders": orders }, components: { schemas } }, null, 2));
  expect(parseDiagnostics(quiet.stderr).filter((d) => d.code === "naming/collision")).toEqual([]);
});
