/**
 * The CLI never loads ts-morph (and with it the TypeScript compiler, about a
 * third of a cold start) unless a structure needs ts-morph's printer: the
 * import and export declarations avaspec builds are printed by the printer
 * itself, and their kinds come from structure-kind.ts. A run of the built CLI
 * over a whole package (client, validators, mocks) is watched for the load.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StructureKind } from "ts-morph";
import { afterAll, expect, it } from "vitest";
import { Printer } from "../../generator/print.js";
import { Kind } from "../../generator/structure-kind.js";
import { CLI, ROOT } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "avaspec-lazy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("names ts-morph's own structure kinds", () => {
  expect(Kind.ImportDeclaration).toBe(StructureKind.ImportDeclaration);
  expect(Kind.ExportDeclaration).toBe(StructureKind.ExportDeclaration);
});

it("generates a whole package without loading ts-morph or TypeScript", () => {
  // a preloaded hook reports every module the CLI requires by these names
  const hook = join(dir, "watch.cjs");
  writeFileSync(hook, `const M = require("node:module"); const load = M._load; M._load = function (r, ...a) { if (r === "ts-morph" || r === "typescript") process.stderr.write("LOADED " + r + "\\n"); return load.call(this, r, ...a); };\n`);
  writeFileSync(join(dir, "api.yaml"), readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml")));
  const r = spawnSync(process.execPath, ["--require", hook, CLI, "generate", "--input", "api.yaml", "--out", "out"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  expect(r.stderr).not.toContain("LOADED");
  expect(r.status, r.stderr).toBe(0);
  // the control: the hook sees a load when one happens
  const control = spawnSync(process.execPath, ["--require", hook, "-e", 'require("ts-morph")'], { cwd: ROOT, encoding: "utf8" });
  expect(control.stderr).toContain("LOADED ts-morph");
});

it("still prints, through ts-morph, a structure its own printer does not cover", () => {
  const text = new Printer().print([], [{ kind: Kind.ImportDeclaration, defaultImport: "x", moduleSpecifier: "./x.js" }]);
  expect(text).toContain('import x from "./x.js";');
});
