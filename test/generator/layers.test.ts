/**
 * The generator's imports respect its layers (scripts/layers.mjs,
 * docs/adr/0018-generator-layers.md): no import cycle, no import from a lower
 * layer up to a higher one, no file outside the layers. The script runs as a
 * process, on the tree and on copies of generator/ with a cycle or an upward
 * import written in, to show that it catches them.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SCRIPT = join(ROOT, "scripts/layers.mjs");
const copies: string[] = [];

const run = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });

/** A copy of generator/ changed by `edit`. */
function copyWith(edit: (generator: string) => void): string {
  const root = mkdtempSync(join(tmpdir(), "avaspec-layers-"));
  copies.push(root);
  cpSync(join(ROOT, "generator"), join(root, "generator"), { recursive: true });
  edit(join(root, "generator"));
  return root;
}

afterAll(() => {
  for (const c of copies) rmSync(c, { recursive: true, force: true });
});

describe("generator layers", () => {
  it("has no import cycle and no upward import", () => {
    const r = run(ROOT);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("no cycles, no upward imports");
    expect(r.status).toBe(0);
  });

  it("fails on a cycle inside one layer", () => {
    // servers.ts is what build-openapi.ts and openapi-wire.ts share; importing one of them back is the cycle it broke
    const root = copyWith((g) => appendFileSync(join(g, "ir/servers.ts"), '\nexport { buildOpenApiIr } from "./build-openapi.js";\n'));
    const r = run(root);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^cycle: .*ir\/build-openapi\.ts.*ir\/servers\.ts/m);
    expect(r.stdout).not.toContain("upward import:");
  });

  it("fails on an upward import, and names both layers", () => {
    // the cycle of issue 28: the one-module build importing generate again
    const root = copyWith((g) => appendFileSync(join(g, "front-end.ts"), '\nimport type { GenerateResult } from "./generate.js";\nexport type Unused = GenerateResult;\n'));
    const r = run(root);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("upward import: front-end.ts (front-end) imports generate.ts (generate)");
    expect(r.stdout).toMatch(/^cycle: .*front-end\.ts.*generate\.ts/m);
  });

  it("fails on a file no layer covers", () => {
    const root = copyWith((g) => writeFileSync(join(g, "stray.ts"), "export const stray = 1;\n"));
    const r = run(root);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("no layer: stray.ts");
  });

  it("reads imports from code, not from the generated code's imports the emitters hold in strings", () => {
    const root = copyWith((g) => writeFileSync(join(g, "load/strings.ts"), 'export const text = `import { x } from "../cli.js";`;\nexport const quoted = \'export * from "../generate.js";\';\n'));
    const r = run(root);
    expect(r.stdout).toContain("no cycles, no upward imports");
    expect(r.status).toBe(0);
  });
});
