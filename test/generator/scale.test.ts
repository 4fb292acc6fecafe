/**
 * Shapes that used to crash the generator with a stack overflow or give code
 * that does not compile: 10,000+ named schemas chained through properties,
 * a 2,000-long chain of pure $ref aliases, and $ref cycles with nothing in
 * between (warned about, read as any value), and an object of 600
 * properties (TS2563 in its validator). Through the real CLI; the smaller
 * packages are type-checked.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function generate(schemas: Record<string, unknown>): { dir: string; status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-scale-"));
  dirs.push(dir);
  const doc = { openapi: "3.1.0", info: { title: "Scale", version: "1" }, paths: { "/x": { get: { operationId: "getX", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: `#/components/schemas/${Object.keys(schemas)[0]}` } } } } } } } }, components: { schemas } };
  writeFileSync(join(dir, "scale.json"), JSON.stringify(doc));
  const r = runCli(["generate", "--input", "scale.json", "--out", "out"], dir);
  return { dir, status: r.status, stderr: r.stderr };
}
const typecheck = (dir: string) => {
  symlinkSync(join(ROOT, "node_modules"), join(dir, "out/node_modules"));
  const r = spawnSync(process.execPath, [TSC, "-p", join(dir, "out/tsconfig.json"), "--noEmit"], { encoding: "utf8" });
  return r.stdout + r.stderr;
};
const chain = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`S${i}`, { type: "object", properties: { a: { type: "string" }, next: i + 1 < n ? { $ref: `#/components/schemas/S${i + 1}` } : { type: "integer" } } }]));

it("generates 10,500 named schemas chained through properties", () => {
  const r = generate(chain(10_500));
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(readFileSync(join(r.dir, "out/src/scale/validators.js"), "utf8")).toContain("function $S10499(");
}, 120_000);

it("generates and type-checks 1,000 chained schemas", () => {
  const r = generate(chain(1_000));
  expect(r.status).toBe(0);
  expect(typecheck(r.dir)).toBe("");
}, 120_000);

it("splits the checks of an object of 600 properties into helper functions: tsc analyses them (TS2563 before) and every failure is still reported", async () => {
  // microsoft.com/graph-beta of APIs.guru has objects of 300+ properties; from about 280 plain ones, one function was too large for tsc's control flow analysis
  const properties = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, i % 3 === 0 ? { type: "integer", minimum: 0 } : { type: "string" }]));
  const r = generate({ Wide: { type: "object", properties, required: ["p1", "p599", "q"] } });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(typecheck(r.dir)).toBe("");
  expect(readFileSync(join(r.dir, "out/src/scale/validators.js"), "utf8")).toMatch(/if \(!\$props\d+\(x, plain, p, e\)\)/);
  const { validateWide, isWide } = (await import(join(r.dir, "out/src/scale/validators.js"))) as {
    validateWide: (v: unknown) => { ok: boolean; issues?: { path: string; keyword?: string }[] };
    isWide: (v: unknown) => boolean;
  };
  const good = { p1: "a", p599: "z", q: null, p300: 7, p450: 5 };
  expect(validateWide(good)).toEqual({ ok: true, value: good });
  expect(isWide({ ...good, p598: 1 })).toBe(false);
  expect(isWide({ ...good, p3: -1 })).toBe(false);
  const bad = validateWide({ p0: "zero", p2: 2, p597: -1 });
  expect(bad.ok).toBe(false);
  expect(bad.issues!.map((i) => `${i.path} ${i.keyword}`).sort()).toEqual(["/p0 type", "/p1 required", "/p2 type", "/p597 minimum", "/p599 required", "/q required"]);
}, 120_000);

it("reads a 2,000-long alias chain, and breaks $ref cycles with nothing in between with a warning", () => {
  const schemas: Record<string, unknown> = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`A${i}`, i + 1 < 2_000 ? { $ref: `#/components/schemas/A${i + 1}` } : { type: "string" }]));
  Object.assign(schemas, {
    Loop1: { $ref: "#/components/schemas/Loop2" },
    Loop2: { $ref: "#/components/schemas/Loop1" },
    Self: { $ref: "#/components/schemas/Self" },
    AllOfLoop: { allOf: [{ $ref: "#/components/schemas/AllOfLoop" }] },
    // recursion through a property is a real type and stays
    Tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } },
  });
  const r = generate(schemas);
  expect(r.status).toBe(0);
  const warnings = r.stderr.split("\n").filter((l) => l.includes("[ref/cycle] (warning)"));
  expect(warnings).toHaveLength(3);
  expect(r.stderr).toContain("Loop1 → Loop2 → Loop1");
  expect(r.stderr).toContain("Self → Self");
  expect(r.stderr).toContain("AllOfLoop → AllOfLoop");
  expect(warnings.join("\n")).not.toContain("Tree");
  expect(typecheck(r.dir)).toBe("");
}, 120_000);

it("refuses a 10,000-deep YAML block mapping with load/depth at the 257th level, not a stack overflow", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-scale-"));
  dirs.push(dir);
  const lines = ["openapi: 3.1.0", 'info: {title: D, version: "1"}', "paths: {}", "components:", "  schemas:", "    Deep:"];
  for (let i = 0; i < 10_000; i++) lines.push(`      ${"  ".repeat(i)}k${i}:${i === 9_999 ? " x" : ""}`);
  writeFileSync(join(dir, "deep.yaml"), lines.join("\n") + "\n");
  const r = runCli(["generate", "--input", "deep.yaml", "--out", "out"], dir);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^deep\.yaml:260:\d+ at #\/components\/schemas\/Deep\/k0\/k1\/.*\/k253: nesting deeper than 256 levels \[load\/depth\]/m);
  expect(r.stderr).not.toContain("Maximum call stack");
});

it("does not take block scalars or sequences for nesting", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-scale-"));
  dirs.push(dir);
  const text = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8").replace("  description: Small petstore-like document", `  description: |\n${Array.from({ length: 400 }, (_, i) => `    ${" ".repeat(i)}x`).join("\n")}\n  summary: Small petstore-like document`);
  writeFileSync(join(dir, "api.yaml"), text);
  const r = runCli(["generate", "--input", "api.yaml", "--out", "out"], dir);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
});

it("generates a 200,000-value enum (the type's union is deduplicated in one pass)", () => {
  const r = generate({ E: { type: "string", enum: Array.from({ length: 200_000 }, (_, i) => `v${i}`) } });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const types = readFileSync(join(r.dir, "out/src/scale/types.ts"), "utf8");
  expect(types).toContain('| "v199999"');
}, 120_000);

it("type-checks a client of 1,500 operations (its result checks were a union TypeScript gave up on, TS2590)", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-scale-"));
  dirs.push(dir);
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < 1_500; i++) {
    schemas[`R${i}`] = { type: "object", properties: { [`f${i}`]: { type: "string" } } };
    paths[`/p${i}/{id}`] = { get: { operationId: `op${i}`, parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }, { name: `q${i}`, in: "query", schema: { type: "integer" } }], responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: `#/components/schemas/R${i}` } } } } } } };
  }
  writeFileSync(join(dir, "many.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "Many", version: "1" }, paths, components: { schemas } }));
  const r = runCli(["generate", "--input", "many.json", "--out", "out", "--targets", "types,validators,client"], dir);
  expect(r.status).toBe(0);
  expect(typecheck(dir)).toBe("");
}, 120_000);
