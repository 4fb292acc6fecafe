/**
 * Write: the whole package is written to a temporary sibling folder and
 * swapped in with renames, so a failed run never leaves the output half
 * written. `check` compares instead of writing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Entries of the output folder that generation does not own (build output, installs). */
const UNMANAGED = new Set(["node_modules", "dist", ".turbo"]);

export function writeTree(outDir: string, files: ReadonlyMap<string, string>): void {
  const stamp = `${process.pid}-${Date.now()}`;
  const tmp = `${outDir}.tmp-${stamp}`;
  const old = `${outDir}.old-${stamp}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    for (const [path, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      const target = join(tmp, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  mkdirSync(dirname(outDir), { recursive: true });
  const hadOld = existsSync(outDir);
  if (hadOld) {
    // carry over what we do not generate (dist/, node_modules/)
    for (const entry of readdirSync(outDir)) if (UNMANAGED.has(entry)) renameSync(join(outDir, entry), join(tmp, entry));
    renameSync(outDir, old);
  }
  try {
    renameSync(tmp, outDir);
  } catch (error) {
    if (hadOld) renameSync(old, outDir);
    throw error;
  }
  if (hadOld) rmSync(old, { recursive: true, force: true });
}

export interface Drift {
  changed: string[];
  missing: string[];
  extra: string[];
}

/** Differences between what would be written and what is on disk. */
export function checkTree(outDir: string, files: ReadonlyMap<string, string>): Drift {
  const onDisk = existsSync(outDir) ? listFiles(outDir) : [];
  const drift: Drift = { changed: [], missing: [], extra: [] };
  for (const [path, text] of files) {
    const target = join(outDir, path);
    if (!existsSync(target)) drift.missing.push(path);
    else if (readFileSync(target, "utf8") !== text) drift.changed.push(path);
  }
  for (const path of onDisk) if (!files.has(path)) drift.extra.push(path);
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

function listFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (dir === root && UNMANAGED.has(entry)) continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...listFiles(root, full));
    else out.push(relative(root, full).split(sep).join("/"));
  }
  return out;
}
