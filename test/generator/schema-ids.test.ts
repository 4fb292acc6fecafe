/**
 * Issue 26, item 17: OpenAPI 3.1 documents whose schemas use `$id` generate,
 * through the real CLI. A `$ref` inside a schema with an `$id` is read
 * against that `$id` (JSON Schema's rule), a `$ref` may name an embedded
 * resource by its `$id`, and a `$ref` that truly leads nowhere is still a
 * `file:line:col at #/pointer` error with the output left untouched.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { parseDiagnostics, runCli } from "../helpers/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function generate(spec: string, name = "api.yaml"): { status: number | null; stderr: string; dir: string; types: () => string } {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-ids-"));
  dirs.push(dir);
  writeFileSync(join(dir, name), spec);
  const r = runCli(["generate", "--input", name, "--out", "out"], dir);
  return { status: r.status, stderr: r.stderr, dir, types: () => readFileSync(join(dir, "out/src/api/types.ts"), "utf8") };
}

const openapi31 = (schemas: string, version = "3.1.0") => `openapi: ${version}
info: {title: Ids, version: "1"}
paths:
  /wrap:
    get:
      operationId: getWrap
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Wrap"}
components:
  schemas:
${schemas}`;

it("reads a $ref inside a schema with an $id against that $id, and finds embedded resources by their $id", () => {
  const r = generate(
    openapi31(`    Wrap:
      $id: https://example.com/schemas/wrap
      type: object
      required: [a]
      properties:
        a: {$ref: "#/$defs/A"}
        b: {$ref: "https://example.com/schemas/inner"}
        c: {$ref: "inner"}
        d: {$ref: "#named"}
      $defs:
        A: {type: string}
        Inner:
          $id: https://example.com/schemas/inner
          type: integer
        Named:
          $anchor: named
          type: boolean
`),
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const types = r.types();
  expect(types).toMatch(/export interface Wrap \{\n {2}a: A;\n {2}b\?: Inner;\n {2}c\?: Inner;\n {2}d\?: Named;\n\}/);
  expect(types).toContain("export type A = string;");
  expect(types).toContain("export type Inner = number;");
  expect(types).toContain("export type Named = boolean;");
});

it("reads an anchor in the resource its $ref is written in: two resources may name the same anchor (issue 28: generation and the conformance suite share SchemaResources)", () => {
  // load.ts's own anchor table (one per document, $id ignored) found neither "#item": ref/dangling twice
  const r = generate(
    openapi31(`    Wrap:
      type: object
      properties:
        left: {$ref: "#/components/schemas/Left"}
        right: {$ref: "#/components/schemas/Right"}
    Left:
      $id: https://example.com/left
      type: object
      properties:
        value: {$ref: "#item"}
      $defs:
        LeftItem:
          $anchor: item
          type: string
    Right:
      $id: https://example.com/right
      type: object
      properties:
        value: {$ref: "#item"}
      $defs:
        RightItem:
          $anchor: item
          type: integer
`),
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const types = r.types();
  expect(types).toMatch(/export interface Left \{\n {2}value\?: LeftItem;\n\}/);
  expect(types).toMatch(/export interface Right \{\n {2}value\?: RightItem;\n\}/);
  expect(types).toContain("export type LeftItem = string;");
  expect(types).toContain("export type RightItem = number;");
});

it("still refuses a $ref that leads nowhere inside an $id, at its file:line:col and pointer, and writes nothing", () => {
  const r = generate(
    openapi31(`    Wrap:
      $id: https://example.com/schemas/wrap
      type: object
      properties:
        a: {$ref: "#/$defs/Missing"}
        b: {$ref: "https://example.com/schemas/nowhere"}
      $defs:
        A: {type: string}
`),
  );
  expect(r.status).toBe(1);
  const found = parseDiagnostics(r.stderr).map((d) => d.line);
  expect(found).toEqual([
    'api.yaml:19:13 at #/components/schemas/Wrap/properties/a/$ref: $ref "#/$defs/Missing" does not resolve [ref/dangling]',
    'api.yaml:20:13 at #/components/schemas/Wrap/properties/b/$ref: external $ref "https://example.com/schemas/nowhere" is not allowed [ref/external]',
  ]);
  expect(existsSync(join(r.dir, "out"))).toBe(false);
});

it("reads a pointer into the document from inside an $id with a warning when the resource has nothing there", () => {
  const r = generate(
    openapi31(`    Wrap:
      $id: https://example.com/schemas/wrap
      type: object
      properties:
        tag: {$ref: "#/components/schemas/Tag"}
    Tag: {type: string}
`),
  );
  expect(r.status).toBe(0);
  expect(parseDiagnostics(r.stderr).map((d) => [d.code, d.pointer, d.warning])).toEqual([["ref/base", "#/components/schemas/Wrap/properties/tag/$ref", true]]);
  expect(r.stderr).toContain("(https://example.com/schemas/wrap, from an $id)");
  expect(r.types()).toContain("tag?: Tag;");
});

it("leaves $id alone in OpenAPI 3.0, whose schemas have none: pointers stay pointers into the document", () => {
  const r = generate(
    openapi31(
      `    Wrap:
      $id: https://example.com/schemas/wrap
      type: object
      properties:
        tag: {$ref: "#/components/schemas/Tag"}
    Tag: {type: string}
`,
      "3.0.3",
    ),
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(r.types()).toContain("tag?: Tag;");
});

it("reads draft-07 $id in an OpenRPC document: a $ref beside its own $id is not moved by it", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-ids-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "api.json"),
    JSON.stringify({
      openrpc: "1.3.2",
      info: { title: "Ids", version: "1" },
      methods: [{ name: "get_wrap", params: [], result: { name: "wrap", schema: { $ref: "#/components/schemas/Wrap" } } }],
      components: {
        schemas: {
          Wrap: { $id: "https://example.com/wrap.json", type: "object", properties: { a: { $ref: "#/definitions/A" }, b: { $ref: "inner.json" } }, definitions: { A: { type: "string" }, Inner: { $id: "inner.json", type: "integer" } } },
        },
      },
    }),
  );
  const r = runCli(["generate", "--input", "api.json", "--out", "out"], dir);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(readFileSync(join(dir, "out/src/api/types.ts"), "utf8")).toMatch(/export interface Wrap \{\n {2}a\?: A;\n {2}b\?: Inner;\n\}/);
});
