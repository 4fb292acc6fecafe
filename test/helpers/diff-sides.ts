/**
 * One side of `avaspec diff` built from a document object, as the diff
 * command builds it (written to a temporary file, read by `buildModule`):
 * what the rule-table tests compare. The folder goes after the file's tests.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { oneOffConfig } from "../../generator/config.js";
import type { DiffSide } from "../../generator/diff/index.js";
import { buildModule } from "../../generator/front-end.js";
import type { Diagnostic } from "../../generator/load/diagnostics.js";

export type Doc = Record<string, any>;

/** A temporary folder for one test file (removed after its tests), with `write` and `side` over it. */
export function diffSides(prefix: string): { dir: string; write(doc: Doc): string; side(doc: Doc): DiffSide } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const write = (doc: Doc) => {
    const file = join(dir, `doc-${++n}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
  };
  const side = (doc: Doc): DiffSide => {
    const file = write(doc);
    const config = oneOffConfig(file, join(dir, "out"));
    const diagnostics: Diagnostic[] = [];
    const built = buildModule(config, config.inputs[0]!, diagnostics);
    if (!built) throw new Error(`does not build: ${diagnostics.map((d) => `${d.pointer}: ${d.message}`).join("; ")}`);
    return { ir: built.ir, locate: built.locate, file };
  };
  return { dir, write, side };
}
