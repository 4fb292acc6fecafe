/**
 * The overlay tests' tools: scratch folders of files (removed after each
 * test), and a document read with overlays applied in process, as the front
 * end applies them, with the diagnostics found on the way.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { Diagnostic } from "../../generator/load/diagnostics.js";
import { loadFile } from "../../generator/load/load.js";
import { applyOverlays, patchable } from "../../generator/load/overlay.js";

/** `scratch(files)` writes the files into a fresh folder and returns it; the folders go after each test. */
export function scratchFolders(prefix: string): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (files) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
}

/** The document at `spec` with the overlays applied in order: whether it may be used, its root, the diagnostics. */
export function overlaid(spec: string, overlays: string[]) {
  const doc = loadFile(spec).document!;
  const patched = patchable(doc);
  const diagnostics: Diagnostic[] = [];
  const ok = applyOverlays(patched, overlays, diagnostics);
  return { ok, root: patched.doc.root, diagnostics, patched };
}
