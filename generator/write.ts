/**
 * Write: avaspec owns exactly the files listed in the output folder's
 * manifest (`.avaspec-manifest.json`, the files it wrote last time), and
 * touches nothing else there: a user's `.git`, sources, notes, `dist/` and
 * `node_modules/` survive every run.
 *
 * A run stages the new files in `.avaspec-staging/` inside the output folder,
 * writes a journal there (the commit point), then moves the files into place,
 * removes the files of the previous manifest that are no longer generated,
 * writes the new manifest and removes the staging folder. Killed before the
 * commit point (SIGINT, SIGTERM, SIGHUP are caught and clean up; SIGKILL
 * cannot be), the previous output is untouched; killed after it, the next run
 * finishes the journal first. A staging folder left by a killed process is
 * removed or finished by the next run, and only when its process is gone.
 *
 * Refused, with a message and nothing written: an output path that is a file;
 * a non-empty folder without a manifest (unless `force`); files in the way
 * that avaspec did not write (unless `force`, which replaces them and keeps
 * everything else). `check` compares instead of writing.
 */
import { closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { displayPath } from "./config.js";

export const MANIFEST_FILE = ".avaspec-manifest.json";
export const STAGING_DIR = ".avaspec-staging";
const JOURNAL = "journal.json";
const OWNER = "owner.json";

export interface Manifest {
  avaspec: 1;
  /** Every file avaspec wrote, relative to the output folder, "/"-separated, sorted. */
  files: string[];
}

/** A refusal or an I/O failure: reported as `avaspec: <message>`, exit code 1, the output as it was. */
export class WriteError extends Error {}

export interface WriteOptions {
  /** Take over a folder without a manifest, and replace files in the way that avaspec did not write. */
  force?: boolean;
}

export interface WriteResult {
  written: number;
  removed: string[];
  /** Files avaspec did not write that `force` replaced. */
  replaced: string[];
  /** What an earlier, killed run left and this one cleaned up or finished. */
  recovered?: "removed staging" | "finished journal";
}

interface Journal {
  /** Files staged under STAGING_DIR/files, to move into place. */
  files: string[];
  /** Files of the previous manifest that are no longer generated. */
  remove: string[];
}

const manifestText = (files: Iterable<string>): string => JSON.stringify({ avaspec: 1, files: [...files].sort() } satisfies Manifest, null, 2) + "\n";

/** The files of the output folder's manifest, or undefined when it has none. */
export function readManifest(outDir: string): Set<string> | undefined {
  const file = join(outDir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  let parsed: Partial<Manifest>;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Manifest>;
  } catch (e) {
    throw new WriteError(`${show(file)} is not JSON (${(e as Error).message}); restore it from version control, or remove it and run with --force`);
  }
  if (parsed.avaspec !== 1 || !Array.isArray(parsed.files) || !parsed.files.every((f) => typeof f === "string" && isSafeRelative(f))) {
    throw new WriteError(`${show(file)} is not an avaspec manifest; restore it from version control, or remove it and run with --force`);
  }
  return new Set(parsed.files);
}

/** A path for messages: the working directory is ".". */
const show = (path: string): string => displayPath(path) || ".";

/** A relative "/"-separated path that stays inside its folder. */
function isSafeRelative(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !/^[A-Za-z]:/.test(path) && !path.includes("\\") && path.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

const isDir = (path: string) => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The output folder must be a folder (or not exist yet). */
function checkOutPath(outDir: string): void {
  let st;
  try {
    st = statSync(outDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    if ((e as NodeJS.ErrnoException).code === "ENOTDIR") throw new WriteError(`the output path ${show(outDir)} runs through a file; --out must name a folder`);
    throw new WriteError(`cannot read the output folder ${show(outDir)}: ${(e as Error).message}`);
  }
  if (!st.isDirectory()) throw new WriteError(`the output path ${show(outDir)} is a file, not a folder; --out must name a folder (it is left as it was)`);
}

/** Whether a process is alive (same machine). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * What a killed run left: a staging folder without a journal is removed (the
 * output was never touched); one with a journal is finished. Refused while
 * the process that owns it still runs.
 */
function recover(outDir: string): WriteResult["recovered"] {
  const staging = join(outDir, STAGING_DIR);
  if (!isDir(staging)) return undefined;
  let owner: { pid?: number } = {};
  try {
    owner = JSON.parse(readFileSync(join(staging, OWNER), "utf8")) as { pid?: number };
  } catch {
    // no owner file: the run died while creating the folder
  }
  if (owner.pid !== undefined && owner.pid !== process.pid && alive(owner.pid)) {
    throw new WriteError(`another avaspec (process ${owner.pid}) is writing ${show(outDir)} right now; wait for it to finish`);
  }
  // no owner yet: a run may have made the folder a moment ago; a leftover is older
  if (owner.pid === undefined && Date.now() - statSync(staging).mtimeMs < 10_000) {
    throw new WriteError(`another avaspec is starting to write ${show(outDir)} (${STAGING_DIR}/ is seconds old); wait for it to finish`);
  }
  let journal: Journal | undefined;
  try {
    journal = JSON.parse(readFileSync(join(staging, JOURNAL), "utf8")) as Journal;
  } catch {
    journal = undefined;
  }
  if (journal) {
    apply(outDir, journal);
    rmSync(staging, { recursive: true, force: true });
    return "finished journal";
  }
  rmSync(staging, { recursive: true, force: true });
  return "removed staging";
}

/** Moves staged files into place, removes what is no longer generated, then writes the manifest. Safe to repeat. */
function apply(outDir: string, journal: Journal): void {
  const staged = join(outDir, STAGING_DIR, "files");
  for (const path of journal.files) {
    const from = join(staged, path);
    if (!existsSync(from)) continue; // moved by the run that was killed
    const to = join(outDir, path);
    makeDirs(dirname(to));
    // a folder where a file goes was refused before the journal; a file is replaced by the rename
    renameSync(from, to);
  }
  for (const path of journal.remove) {
    rmSync(join(outDir, path), { force: true });
    pruneEmptyParents(outDir, path);
  }
  const manifest = join(staged, MANIFEST_FILE);
  if (existsSync(manifest)) renameSync(manifest, join(outDir, MANIFEST_FILE));
}

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdirSync spins forever on
 * some paths (e.g. under /proc, where mkdir answers ENOENT below an existing
 * folder); this one fails with that error instead.
 */
function makeDirs(dir: string): void {
  if (isDir(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirs(parent);
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !isDir(dir)) throw e;
  }
}

/** Removes the folders a removed file leaves empty, up to (not including) the output folder. */
function pruneEmptyParents(outDir: string, path: string): void {
  const parts = path.split("/").slice(0, -1);
  while (parts.length > 0) {
    const dir = join(outDir, ...parts);
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
    parts.pop();
  }
}

/** Entries of a folder other than avaspec's own staging folder. */
function entriesOf(outDir: string): string[] {
  return existsSync(outDir) ? readdirSync(outDir).filter((e) => e !== STAGING_DIR) : [];
}

/**
 * Test seam: `AVASPEC_TEST_PAUSE=stage:<ms>` waits after each staged file (signals
 * are handled meanwhile), `apply:<ms>` blocks once after the commit point, so
 * a test can kill the process in either phase.
 */
function pauseFor(phase: "stage" | "apply"): number {
  const m = /^(stage|apply):(\d+)$/.exec(process.env["AVASPEC_TEST_PAUSE"] ?? "");
  return m && m[1] === phase ? Number(m[2]) : 0;
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, "wx");
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function writeTree(outDir: string, files: ReadonlyMap<string, string>, options: WriteOptions = {}): Promise<WriteResult> {
  checkOutPath(outDir);
  for (const path of files.keys()) if (!isSafeRelative(path) || path === MANIFEST_FILE || path.split("/")[0] === STAGING_DIR) throw new Error(`internal: generated path ${JSON.stringify(path)}`);
  try {
    return await writeChecked(outDir, files, options);
  } catch (e) {
    if (e instanceof WriteError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (typeof err.code === "string") throw new WriteError(`cannot write ${show(outDir)}: ${err.code}${err.path ? ` at ${show(err.path)}` : ""} (${err.syscall ?? "write"}); files avaspec did not write are untouched, and the next run finishes or undoes what this one left`);
    throw e;
  }
}

async function writeChecked(outDir: string, files: ReadonlyMap<string, string>, options: WriteOptions): Promise<WriteResult> {
  const recovered = recover(outDir);
  const previous = readManifest(outDir);
  const entries = previous === undefined ? entriesOf(outDir) : [];
  if (entries.length > 0 && !options.force) {
    throw new WriteError(
      `${show(outDir)} is not empty and has no ${MANIFEST_FILE}, so avaspec did not write it (${entries.length} entr${entries.length === 1 ? "y" : "ies"}, e.g. ${entries.sort().slice(0, 3).join(", ")}); pick an empty or new folder, or run with --force to generate into it (files avaspec would write are replaced, everything else is kept)`,
    );
  }
  const owned = previous ?? new Set<string>();
  // files in the way that avaspec did not write
  const foreign: string[] = [];
  for (const path of [...files.keys()].sort()) {
    const target = join(outDir, path);
    if (owned.has(path) || !existsSync(target)) {
      // a folder of the user's where a generated file goes, or a file where a generated folder goes
      if (isDir(target)) throw new WriteError(`${show(target)} is a folder where avaspec writes a file; move it away`);
      continue;
    }
    if (isDir(target)) throw new WriteError(`${show(target)} is a folder where avaspec writes a file; move it away`);
    foreign.push(path);
  }
  for (const path of files.keys()) {
    // every parent of a generated file must be a folder (or not exist)
    const parts = path.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const p = join(outDir, ...parts.slice(0, i));
      if (existsSync(p) && !isDir(p)) throw new WriteError(`${show(p)} is a file where avaspec needs a folder; move it away`);
    }
  }
  if (foreign.length > 0 && !options.force) {
    throw new WriteError(`${foreign.length} file${foreign.length === 1 ? "" : "s"} in ${show(outDir)} that avaspec did not write would be replaced: ${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ", …" : ""}; move ${foreign.length === 1 ? "it" : "them"} away, or run with --force to replace ${foreign.length === 1 ? "it" : "them"}`);
  }
  const remove = [...owned].filter((p) => !files.has(p)).sort();
  const journal: Journal = { files: [...files.keys()].sort(), remove };

  try {
    makeDirs(outDir);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new WriteError(`cannot create the output folder ${show(outDir)}: ${err.code ?? err.message}${err.path && err.path !== outDir ? ` at ${show(err.path)}` : ""}; nothing was written`);
  }
  const staging = join(outDir, STAGING_DIR);
  // the staging folder is also the lock: mkdir fails if another run made it since recover()
  try {
    mkdirSync(staging);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new WriteError(`another avaspec is writing ${show(outDir)} right now; wait for it to finish`);
    throw e;
  }
  // Signals are handled between staged files: before the commit point the
  // previous output is untouched, so the staging folder goes and the process
  // dies of the signal; after it, the run finishes first.
  let committed = false;
  let finished = false;
  let pending: NodeJS.Signals | undefined;
  const die = (signal: NodeJS.Signals) => {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!committed) {
      rmSync(staging, { recursive: true, force: true });
      die(signal);
    } else if (finished) die(signal);
    else pending = signal;
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    writeDurably(join(staging, OWNER), JSON.stringify({ pid: process.pid }) + "\n");
    const staged = join(staging, "files");
    const stagePause = pauseFor("stage");
    for (const path of journal.files) {
      const target = join(staged, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, files.get(path)!);
      if (stagePause > 0) await new Promise((r) => setTimeout(r, stagePause));
    }
    await writeFile(join(staged, MANIFEST_FILE), manifestText(files.keys()));
    // the commit point: from here on a killed run is finished by the next one
    writeDurably(join(staging, `${JOURNAL}.tmp`), JSON.stringify(journal) + "\n");
    renameSync(join(staging, `${JOURNAL}.tmp`), join(staging, JOURNAL));
    committed = true;
    const applyPause = pauseFor("apply");
    if (applyPause > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, applyPause);
    apply(outDir, journal);
    rmSync(staging, { recursive: true, force: true });
    finished = true;
  } catch (e) {
    if (!committed) rmSync(staging, { recursive: true, force: true });
    throw e;
  } finally {
    // a signal that arrived while the run could not stop is honoured now
    await new Promise((r) => setImmediate(r));
    for (const s of SIGNALS) process.removeListener(s, onSignal);
  }
  if (pending) die(pending);
  return { written: files.size, removed: remove, replaced: foreign, ...(recovered ? { recovered } : {}) };
}

export interface Drift {
  changed: string[];
  missing: string[];
  extra: string[];
}

/**
 * Differences between what would be written and what is on disk: changed and
 * missing generated files, generated files of the manifest that would be
 * removed, and a missing or different manifest. Files avaspec did not write
 * are not its business.
 */
export function checkTree(outDir: string, files: ReadonlyMap<string, string>): Drift {
  checkOutPath(outDir);
  const drift: Drift = { changed: [], missing: [], extra: [] };
  const compare = (path: string, text: string) => {
    const target = join(outDir, path);
    if (!existsSync(target) || isDir(target)) drift.missing.push(path);
    else if (readFileSync(target, "utf8") !== text) drift.changed.push(path);
  };
  for (const [path, text] of files) compare(path, text);
  compare(MANIFEST_FILE, manifestText(files.keys()));
  let previous: Set<string> | undefined;
  try {
    previous = readManifest(outDir);
  } catch {
    previous = undefined; // reported as a changed manifest
  }
  for (const path of previous ?? []) if (!files.has(path) && existsSync(join(outDir, path))) drift.extra.push(path);
  if (isDir(join(outDir, STAGING_DIR))) drift.extra.push(`${STAGING_DIR}/ (left by a killed run; the next generate removes or finishes it)`);
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

/** Whether `inner` is `outer` or inside it (absolute paths). */
export function isInside(inner: string, outer: string): boolean {
  const o = outer.endsWith(sep) ? outer : outer + sep;
  return inner === outer || inner.startsWith(o);
}
