/**
 * Valid documents that the property test (test/property) found generating
 * code that did not compile, or not generating at all; each is its shrunk
 * reproduction, run through the real CLI and tsc --strict.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
// inside the repository, so the packages' msw and Node imports resolve from its node_modules
mkdirSync(join(ROOT, ".tmp"), { recursive: true });
const dir = mkdtempSync(join(ROOT, ".tmp/property-found-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Generates a package from documents (one input each) and type-checks it; returns the folder. */
function generateAndCheck(name: string, docs: Record<string, unknown>[], inputs?: { output: string; clientName: string }[]): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  docs.forEach((d, i) => writeFileSync(join(root, `${i}.json`), JSON.stringify(d)));
  const config = { out: "pkg", package: { name }, inputs: docs.map((_, i) => ({ spec: `${i}.json`, ...(inputs?.[i] ?? { output: `d${i}`, clientName: `Api${i}` }) })) };
  writeFileSync(join(root, "avaspec.config.json"), JSON.stringify(config));
  const gen = runCli(["generate", "--config", join(root, "avaspec.config.json")]);
  expect(gen.stderr).not.toMatch(/error|\[[a-z/-]+\]$/m);
  expect(gen.status).toBe(0);
  const tsc = spawnSync(process.execPath, [TSC, "-p", join(root, "pkg/tsconfig.json"), "--noEmit", "--pretty", "false"], { encoding: "utf8" });
  expect(tsc.stdout + tsc.stderr).toBe("");
  expect(tsc.status).toBe(0);
  return join(root, "pkg");
}

const openapi = (paths: Record<string, unknown>, components?: Record<string, unknown>) => ({ openapi: "3.1.0", info: { title: "t", version: "1.0.0" }, paths, ...(components ? { components } : {}) });
const ok = (schema: unknown = { type: "string" }) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });

describe("documents the property test found", () => {
  it("an operationId or JSON-RPC method whose name starts with a digit (007, 1st) gets type names that do not", () => {
    const rpc = { openrpc: "1.3.2", info: { title: "t", version: "1.0.0" }, methods: [{ name: "1st", params: [], result: { name: "r", schema: { type: "string" } } }] };
    const pkg = generateAndCheck("digit-names", [openapi({ "/a": { get: { operationId: "007", responses: ok() } } }), rpc]);
    expect(readFileSync(join(pkg, "src/d0/client.ts"), "utf8")).toContain("export type _007Params =");
    expect(readFileSync(join(pkg, "src/d1/client.ts"), "utf8")).toContain("export type _1stParams =");
  });

  it("a JSON-RPC namespace named batch (batch_get) does not replace the client's batch(): the group is batch2", () => {
    const rpc = { openrpc: "1.3.2", info: { title: "t", version: "1.0.0" }, methods: [{ name: "batch_get", params: [], result: { name: "r", schema: { type: "string" } } }] };
    const pkg = generateAndCheck("batch-group", [rpc]);
    const client = readFileSync(join(pkg, "src/d0/client.ts"), "utf8");
    expect(client).toContain("readonly batch2: {");
    expect(client).toMatch(/^\s+batch<const R extends/m);
  });

  it("a paged operation (pageToken in, nextPageToken out) with a second 2XX body of another shape is a plain method", () => {
    const page = { type: "object", properties: { items: { type: "array", items: { type: "string" } }, nextPageToken: { type: "string" } } };
    const responses = { ...ok(page), "202": { description: "accepted", content: { "application/json": { schema: { type: "object", properties: {} } } } } };
    const pkg = generateAndCheck("paged-two-bodies", [openapi({ "/a": { get: { operationId: "list", parameters: [{ name: "pageToken", in: "query", schema: { type: "string" } }], responses } } })]);
    expect(readFileSync(join(pkg, "src/d0/client.ts"), "utf8")).toMatch(/^\s+readonly list: HttpMethod<ListParams \| void, ListResponse>;/m);
  });

  it("schemas named Blob, ArrayBuffer and ArrayBufferView do not shadow the types of binary fields", () => {
    const binary = { type: "string", format: "binary" };
    const components = { schemas: { Blob: binary, ArrayBuffer: { type: "object", properties: { file: binary } }, ArrayBufferView: { type: "array", items: binary } } };
    const pkg = generateAndCheck("binary-names", [openapi({ "/a": { get: { operationId: "get", responses: ok({ $ref: "#/components/schemas/ArrayBuffer" }) } } }, components)]);
    const types = readFileSync(join(pkg, "src/d0/types.ts"), "utf8");
    expect(types).toContain("export type Blob2 = Blob | ArrayBuffer | ArrayBufferView | string;");
    expect(types).toContain("export interface ArrayBuffer2 {");
  });

  it("inputs whose outputs are alike in camelCase (a-b, a.b, a_b) or that share a client name get mocks entry points of their own keys", () => {
    const doc = openapi({ "/a": { get: { operationId: "get", responses: ok() } } });
    const pkg = generateAndCheck("mock-keys", [doc, doc, doc, doc], [
      { output: "a-b", clientName: "Api" },
      { output: "a.b", clientName: "Api" },
      { output: "a_b", clientName: "Other" },
      { output: "serve", clientName: "Serve" },
    ]);
    const mocks = readFileSync(join(pkg, "src/mocks/index.ts"), "utf8");
    expect(mocks).toContain("export const mockTables: { aB: MockTable; aB2: MockTable; aB3: MockTable; serve2: MockTable }");
    expect(mocks).toContain('import { API_DEFAULT_BASE_URL as aB2BaseUrl } from "../a.b/client.js";');
    expect(readFileSync(join(pkg, "README.md"), "utf8")).toContain("aB, aB2, aB3, serve2");
  });

  it("a $ref to a plain-name anchor ($anchor in 3.1, $id: \"#name\" in draft-07) resolves, also on a component named like a keyword (default)", () => {
    const node = { $anchor: "node", type: "object", properties: { next: { $ref: "#node" }, default: { $ref: "#/components/schemas/default" } } };
    const doc31 = openapi({ "/a": { get: { operationId: "get", responses: ok({ $ref: "#node" }) } } }, { schemas: { Node: node, default: { $anchor: "leaf", type: "string" }, Other: { type: "array", items: { $ref: "#leaf" } } } });
    const rpc = { openrpc: "1.3.2", info: { title: "t", version: "1.0.0" }, methods: [{ name: "get", params: [], result: { name: "r", schema: { $ref: "#node" } } }], components: { schemas: { Node: { $id: "#node", type: "object", properties: { next: { $ref: "#node" } } } } } };
    const pkg = generateAndCheck("anchors", [doc31, rpc]);
    expect(readFileSync(join(pkg, "src/d0/types.ts"), "utf8")).toMatch(/export interface Node \{\n(.*\n)*?\s+next\?: Node;/);
    expect(readFileSync(join(pkg, "src/d0/types.ts"), "utf8")).toContain("export type Other = Default[];");
    expect(readFileSync(join(pkg, "src/d1/types.ts"), "utf8")).toMatch(/next\?: Node;/);
  });

  it("a path-level parameter named body, shared by an operation with a request body and one without, is body_path in the first only", () => {
    const item = {
      parameters: [{ name: "body", in: "path", required: true, schema: { type: "string" } }],
      post: { operationId: "create", requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } }, responses: ok() },
      get: { operationId: "read", responses: ok() },
    };
    const pkg = generateAndCheck("shared-path-param", [openapi({ "/items/{body}": item })]);
    const client = readFileSync(join(pkg, "src/d0/client.ts"), "utf8");
    expect(client).toMatch(/export type CreateParams = \{\n(.*\n)*?\s+body_path: string;\n(.*\n)*?\s+body: /);
    expect(client).toMatch(/export type ReadParams = \{\n\s+body: string;\n\};/);
  });

  it("a result that holds an int64 beside a schema that is an array of itself: the mocks' Encodable<…> is not instantiated without end (TS2589)", () => {
    const result = { anyOf: [{ $ref: "#/components/schemas/Tree" }, { type: "object", required: ["next"], properties: { tree: { $ref: "#/components/schemas/Tree" }, next: { type: "integer", format: "int64" } } }] };
    const pkg = generateAndCheck("self-array-int64", [openapi({ "/a": { get: { operationId: "get", responses: ok(result) } } }, { schemas: { Tree: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } })]);
    expect(readFileSync(join(pkg, "src/d0/mocks.ts"), "utf8")).toMatch(/Encodable<C\.GetResponse>/);
  });
});
