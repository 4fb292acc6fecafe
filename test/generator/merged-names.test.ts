/**
 * Readable names in a module merged from several documents: a schema name
 * several documents define is one type when the schemas are structurally the
 * same (documentation aside) and is qualified by the document's group
 * otherwise; a number is appended only when qualifying cannot help (two
 * schemas of one document that are one identifier). Each operation
 * validator is typed with the value it validates.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const rpc = (title: string, methods: unknown[], schemas: Record<string, unknown>) => JSON.stringify({ openrpc: "1.3.2", info: { title, version: "1" }, methods, components: { schemas } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const method = (name: string, param: string, result: string) => ({ name, params: [{ name: "id", required: true, schema: ref(param) }], result: { name: "r", schema: ref(result) } });

// Id: the same string in a and b (only the description differs), another pattern in c; Wrapper refers to Id, so it is one type only where its Id is
const A = rpc("Alpha API", [method("alpha.getUTXOs", "Id", "Wrapper")], {
  Id: { type: "string", pattern: "^[a-z]+$", description: "An id." },
  Wrapper: { type: "object", properties: { id: ref("Id") }, required: ["id"] },
});
const B = rpc("Beta API", [method("beta.getNodeIDs", "Id", "Wrapper")], {
  Id: { type: "string", pattern: "^[a-z]+$", description: "An identifier, documented differently.", examples: ["abc"] },
  Wrapper: { type: "object", properties: { id: ref("Id") }, required: ["id"], title: "W" },
});
const C = rpc("Gamma API", [method("gamma.get", "Id", "Wrapper")], {
  Id: { type: "string", pattern: "^[0-9]+$" },
  Wrapper: { type: "object", properties: { id: ref("Id") }, required: ["id"] },
  // one document, two names that are one identifier: the last resort
  Foo_Bar: { type: "string" },
  FooBar: { type: "integer" },
});

let dir: string;
let run: ReturnType<typeof runCli>;
let types: string;
let validators: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "avaspec-merged-names-"));
  writeFileSync(join(dir, "a.json"), A);
  writeFileSync(join(dir, "b.json"), B);
  writeFileSync(join(dir, "c.json"), C);
  writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "m" }, inputs: [{ output: "m", clientName: "M", baseUrl: "http://127.0.0.1:1", specs: [{ spec: "a.json" }, { spec: "b.json" }, { spec: "c.json", group: "gamma.chain" }] }] }));
  run = runCli(["generate", "--config", "avaspec.config.json"], dir);
  types = readFileSync(join(dir, "out/src/m/types.ts"), "utf8");
  validators = readFileSync(join(dir, "out/src/m/validators.d.ts"), "utf8");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const declared = (text: string) => [...text.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);

describe("schema names across merged documents", () => {
  it("generates", () => {
    expect(run.status).toBe(0);
  });

  it("structurally identical schemas are one type; different ones are qualified by their document's group, never numbered", () => {
    expect(declared(types)).toEqual(["Id", "Wrapper", "GammaChainId", "GammaChainWrapper", "FooBar", "FooBar2"]);
    // the first document's description is the type's
    expect(types).toMatch(/\/\*\*\s*\n\s*\* An id\.[\s\S]*?export type Id = string;/);
    expect(types).toMatch(/export interface GammaChainWrapper \{\s*id: GammaChainId;/);
  });

  it("two schemas of one document that are one identifier: the numeric last resort", () => {
    expect(types).toContain("export type FooBar = string;");
    expect(types).toContain("export type FooBar2 = number;");
  });
});

describe("operation validators", () => {
  it("are typed with the value they validate; the client's types are imported type-only", () => {
    expect(validators).toContain("export declare function validateAlphaGetUtxosParams(value: unknown): ValidationResult<C.AlphaGetUtxosParams>;");
    expect(validators).toContain("export declare function validateAlphaGetUtxosResult(value: unknown): ValidationResult<T.Wrapper>;");
    expect(validators).toContain("export declare function validateGammaChainGammaGetResult(value: unknown): ValidationResult<T.GammaChainWrapper>;");
    expect(validators).toMatch(/^import type \* as C from "\.\/client\.js";$/m);
  });

  it("without a client module they stay unknown and import nothing from it", () => {
    const r = runCli(["generate", "--input", "a.json", "--out", "only-validators", "--targets", "types,validators"], dir);
    expect(r.stderr).toBe("");
    const v = readFileSync(join(dir, "only-validators/src/a/validators.d.ts"), "utf8");
    expect(v).toContain("export declare function validateAlphaGetUtxosParams(value: unknown): ValidationResult<unknown>;");
    expect(v).toContain("export declare function validateAlphaGetUtxosResult(value: unknown): ValidationResult<T.Wrapper>;");
    expect(v).not.toContain("./client.js");
    expect(readFileSync(join(dir, "only-validators/src/a/validators.js"), "utf8")).not.toContain("./client.js");
  });
});
