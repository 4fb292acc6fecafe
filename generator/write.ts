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
 * Every path written or removed goes through `safe-path.ts`: the manifest and
 * the journal are files anyone can edit, and a folder inside the output may
 * have become a link; nothing is written or removed through a link, and a
 * removed path is removed only when a plain file is there.
 *
 * Refused, with a message and nothing written: an output path that is a file;
 * a non-empty folder without a manifest (unless `force`); files in the way
 * that avaspec did not write (unless `force`, which replaces them and keeps
 * everything else); a link on the way to any path. `check` compares instead
 * of writing.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { displayPath } from "./config.js";
import { blockedError, inside, isSafeRelative, kindOf, linkTarget, makeFoldersInside, place, type Show, WriteError } from "./safe-path.js";

export { WriteError } from "./safe-path.js";

export const MANIFEST_FILE = ".avaspec-manifest.json";
export const STAGING_DIR = ".avaspec-staging";
const JOURNAL = "journal.json";
const OWNER = "owner.json";

export interface Manifest {
  avaspec: 1;
  /** Every file avaspec wrote, relative to the output folder, "/"-separated, sorted. */
  files: string[];
}

export interface WriteOptions {
  /** Take over a folder without a manifest, and replace files in the way that avaspec did not write. */
  force?: boolean;
}

export interface WriteResult {
  /** Files written: new ones and those whose text changed. */
  written: number;
  /** Generated files that already held their text, left in place. */
  unchanged: number;
  removed: string[];
  /** Files avaspec did not write that `force` replaced. */
  replaced: string[];
  /** Paths of the previous manifest no longer generated where something other than a file now is (a link, a folder): left alone. */
  kept: string[];
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

/** A path for messages: the working directory is ".". */
const show = (path: string): string => displayPath(path) || ".";
/** Paths inside the output folder as the user spelled it (not its resolved root, when --out is a link). */
const showIn =
  (outDir: string): Show =>
  (rel) =>
    show(join(outDir, rel));

/** An entry of a manifest or journal: inside the folder, and not one of avaspec's own files. */
const isEntry = (path: unknown): path is string => typeof path === "string" && isSafeRelative(path) && path !== MANIFEST_FILE && path.split("/")[0] !== STAGING_DIR;

/** The files of the output folder's manifest, or undefined when it has none. `root` is the resolved output folder. */
export function readManifest(root: string, outDir = root): Set<string> | undefined {
  const file = join(root, MANIFEST_FILE);
  const shown = showIn(outDir)(MANIFEST_FILE);
  const kind = kindOf(file);
  if (kind === "missing") return undefined;
  if (kind !== "file") {
    throw new WriteError(`${shown} is a ${kind === "link" ? `symbolic link (to ${linkTarget(file)})` : kind}, not the manifest avaspec writes; remove it and run with --force`, "write/manifest");
  }
  let parsed: Partial<Manifest>;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Manifest>;
  } catch (e) {
    throw new WriteError(`${shown} is not JSON (${(e as Error).message}); restore it from version control, or remove it and run with --force`, "write/manifest");
  }
  if (parsed.avaspec !== 1 || !Array.isArray(parsed.files)) {
    throw new WriteError(`${shown} is not an avaspec manifest; restore it from version control, or remove it and run with --force`, "write/manifest");
  }
  const bad = (parsed.files as unknown[]).find((f) => !isEntry(f));
  if (bad !== undefined) {
    throw new WriteError(`${shown} is not an avaspec manifest: it lists ${JSON.stringify(bad)}, which is not a path inside the output folder; restore it from version control, or remove it and run with --force (nothing was written or removed)`, "write/manifest");
  }
  return new Set(parsed.files);
}

/** The output folder must be a folder (or not exist yet); a link to a folder is that folder. */
function checkOutPath(outDir: string): void {
  let st;
  try {
    st = statSync(outDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && kindOf(outDir) === "link") throw new WriteError(`the output path ${show(outDir)} is a symbolic link to ${linkTarget(outDir)}, which does not exist; create that folder or point --out elsewhere`, "write/out");
    if (code === "ENOENT") return;
    if (code === "ENOTDIR") throw new WriteError(`the output path ${show(outDir)} runs through a file; --out must name a folder`);
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

/** A JSON file inside the staging folder, or undefined when it is missing, not a plain file or not JSON. */
function readStaged(path: string): unknown {
  if (kindOf(path) !== "file") return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * What a killed run left: a staging folder without a journal is removed (the
 * output was never touched); one with a journal is finished. Refused while
 * the process that owns it still runs.
 */
function recover(root: string, outDir: string): WriteResult["recovered"] {
  const staging = join(root, STAGING_DIR);
  const shown = showIn(outDir)(STAGING_DIR);
  const kind = kindOf(staging);
  if (kind === "missing") return undefined;
  if (kind !== "folder") {
    // avaspec only ever makes a real folder there: this is not a run in progress, and not avaspec's to remove
    throw new WriteError(`${shown} is a ${kind === "link" ? `symbolic link (to ${linkTarget(staging)})` : kind === "file" ? "file" : "special file"}, not the staging folder avaspec makes (a real folder, never followed); remove it and run again; nothing was written`, "write/staging");
  }
  const owner = (readStaged(join(staging, OWNER)) ?? {}) as { pid?: number };
  if (owner.pid !== undefined && owner.pid !== process.pid && alive(owner.pid)) {
    throw new WriteError(`another avaspec (process ${owner.pid}) is writing ${show(outDir)} right now; wait for it to finish`);
  }
  // no owner yet: a run may have made the folder a moment ago; a leftover (of a SIGKILL at that moment) is older
  if (owner.pid === undefined && Date.now() - statSync(staging).mtimeMs < 10_000) {
    throw new WriteError(`another avaspec is starting to write ${show(outDir)} (${STAGING_DIR}/ is seconds old); wait for it to finish`);
  }
  if (kindOf(join(staging, JOURNAL)) !== "missing") {
    const journal = readStaged(join(staging, JOURNAL)) as Partial<Journal> | undefined;
    if (!journal || !Array.isArray(journal.files) || !Array.isArray(journal.remove) || ![...journal.files, ...journal.remove].every(isEntry)) {
      throw new WriteError(`${shown}/${JOURNAL} is not a journal avaspec wrote (it lists paths outside the output folder, or is not one); nothing was done with it: remove ${shown}/ and run again`, "write/journal");
    }
    apply(root, outDir, journal as Journal);
    rmSync(staging, { recursive: true, force: true });
    return "finished journal";
  }
  rmSync(staging, { recursive: true, force: true });
  return "removed staging";
}

/** The folder part of a "/"-separated relative path ("" at the top). */
const folderOf = (rel: string): string => rel.split("/").slice(0, -1).join("/");

/**
 * Moves staged files into place, removes what is no longer generated, then
 * writes the manifest. Safe to repeat. Every way is checked before anything
 * moves, so a refusal leaves the output as the journal found it.
 */
function apply(root: string, outDir: string, journal: Journal): void {
  const staging = join(root, STAGING_DIR);
  const sh = showIn(outDir);
  const after = `the new files wait in ${sh(STAGING_DIR)}/ and the next run finishes moving them`;
  for (const path of journal.files) {
    const to = place(root, path);
    if (to.blocked) throw blockedError(root, path, to.blocked, sh, after);
    if (to.kind === "folder") throw new WriteError(`${sh(path)} is a folder where avaspec writes a file; move it away and run again; ${after}`, "write/not-a-file");
    // a staged file is a plain file avaspec made; anything else there was put by someone else
    const from = place(staging, `files/${path}`);
    if (from.blocked || (from.kind !== "file" && from.kind !== "missing")) throw new WriteError(`${sh(`${STAGING_DIR}/files/${path}`)} is not a file avaspec staged; remove ${sh(STAGING_DIR)}/ and run again`, "write/staging");
  }
  for (const path of journal.remove) {
    const p = place(root, path);
    if (p.blocked?.kind === "link") throw blockedError(root, path, p.blocked, sh, after);
  }
  for (const path of journal.files) {
    const from = join(staging, "files", path);
    if (kindOf(from) === "missing") continue; // moved by the run that was killed
    makeFoldersInside(root, folderOf(path), sh, after);
    // a file is replaced by the rename; a link in the way (replaced only with --force) is replaced itself, never what it points to
    renameSync(from, inside(root, path, sh, after));
  }
  for (const path of journal.remove) {
    const p = place(root, path);
    if (p.blocked?.kind === "link") throw blockedError(root, path, p.blocked, sh, after);
    // only a plain file there is the one avaspec wrote: a link or folder put in its place is someone else's
    if (p.kind !== "file") continue;
    unlinkSync(join(root, path));
    pruneEmptyParents(root, path);
  }
  const manifest = join(staging, "files", MANIFEST_FILE);
  if (kindOf(manifest) === "file") renameSync(manifest, join(root, MANIFEST_FILE));
}

/**
 * `mkdir -p` of the output folder itself, one level at a time. The user named
 * this path, so links on it are followed (a link to a folder is a folder).
 * Node's recursive mkdirSync spins forever on some paths (e.g. under /proc,
 * where mkdir answers ENOENT below an existing folder); this one fails with
 * that error instead.
 */
function makeDirs(dir: string): void {
  const isDir = () => {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false;
    }
  };
  if (isDir()) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirs(parent);
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !isDir()) throw e;
  }
}

/** Removes the folders a removed file leaves empty, up to (not including) the output folder; never through a link. */
function pruneEmptyParents(root: string, path: string): void {
  const parts = path.split("/").slice(0, -1);
  while (parts.length > 0) {
    const dir = join(root, ...parts);
    try {
      if (kindOf(dir) !== "folder" || readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
    parts.pop();
  }
}

/** Entries of a folder other than avaspec's own staging folder. */
function entriesOf(root: string): string[] {
  return kindOf(root) === "folder" ? readdirSync(root).filter((e) => e !== STAGING_DIR) : [];
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

/**
 * SIGINT, SIGTERM and SIGHUP, held for the whole write (the recovery of a
 * killed run included): a handler only records the signal, and the run acts
 * on it where stopping is safe — between staged files, when no write is in
 * flight, or once the run is over. (A handler that removed the staging folder
 * itself raced the staged write still landing in it: ENOTEMPTY, a stack trace
 * and the folder left behind; and the handlers came after the folder, so a
 * signal in between left it empty, blocking the next run.)
 */
interface HeldSignals {
  readonly stop: NodeJS.Signals | undefined;
  /** Restores the default handling and dies of the signal, as if it had never been held. */
  die(signal: NodeJS.Signals): never;
  release(): void;
}

function holdSignals(outDir: string): HeldSignals {
  let stop: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stop ??= signal;
  };
  const release = () => {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return {
    get stop() {
      return stop;
    },
    die(signal) {
      release();
      process.kill(process.pid, signal);
      // the signal ends the process before this line; should it not, the run must still not go on
      throw new WriteError(`stopped by ${signal} while writing ${show(outDir)}`);
    },
    release,
  };
}

/**
 * Writes the files into `outDir`. `files` may be a stream (generate.ts's
 * `generateStream`): each file is staged as it comes and not held, and the
 * checks that need every path (files in the way, links on the way) run once
 * the last is staged, before the commit point, so a refusal still leaves the
 * output as it was.
 */
export async function writeTree(outDir: string, files: Iterable<readonly [string, string]>, options: WriteOptions = {}): Promise<WriteResult> {
  checkOutPath(outDir);
  try {
    return await writeChecked(outDir, files, options);
  } catch (e) {
    if (e instanceof WriteError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (typeof err.code === "string") throw new WriteError(`cannot write ${show(outDir)}: ${err.code}${err.path ? ` at ${show(err.path)}` : ""} (${err.syscall ?? "write"}); files avaspec did not write are untouched, and the next run finishes or undoes what this one left`);
    throw e;
  }
}

interface Plan {
  journal: Journal;
  /** Files avaspec did not write that are in the way (a link in the way counts, even where the manifest lists a file). */
  foreign: string[];
  kept: string[];
}

/** What the run will write, replace and remove, or a refusal before anything is written. */
function plan(root: string, outDir: string, files: ReadonlySet<string>, owned: ReadonlySet<string>, force: boolean): Plan {
  const sh = showIn(outDir);
  const after = "nothing was written";
  const foreign: string[] = [];
  const generated = [...files].sort();
  for (const path of generated) {
    const p = place(root, path);
    if (p.blocked) throw blockedError(root, path, p.blocked, sh, after);
    if (p.kind === "folder") throw new WriteError(`${sh(path)} is a folder where avaspec writes a file; move it away`);
    if (p.kind === "link" || p.kind === "other" || (p.kind === "file" && !owned.has(path))) foreign.push(path);
  }
  if (foreign.length > 0 && !force) {
    throw new WriteError(`${foreign.length} file${foreign.length === 1 ? "" : "s"} in ${show(outDir)} that avaspec did not write would be replaced: ${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ", …" : ""}; move ${foreign.length === 1 ? "it" : "them"} away, or run with --force to replace ${foreign.length === 1 ? "it" : "them"}`);
  }
  const remove: string[] = [];
  const kept: string[] = [];
  for (const path of [...owned].filter((p) => !files.has(p)).sort()) {
    const p = place(root, path);
    // beyond a link lie someone else's files, whatever their names: refused, never followed
    if (p.blocked?.kind === "link") throw blockedError(root, path, p.blocked, sh, after);
    if (p.kind === "file") remove.push(path);
    else if (p.kind !== "missing") kept.push(path);
  }
  return { journal: { files: generated, remove }, foreign, kept };
}

/** Whether the file holds exactly this text (sizes first: most changed files differ in length). */
function holds(file: string, text: string): boolean {
  const bytes = Buffer.from(text, "utf8");
  try {
    return statSync(file).size === bytes.length && readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}

async function writeChecked(outDir: string, files: Iterable<readonly [string, string]>, options: WriteOptions): Promise<WriteResult> {
  const signals = holdSignals(outDir);
  try {
    return await writeHeld(outDir, files, options, signals);
  } finally {
    // a signal that arrived while the run could not stop is honoured now, whatever the outcome
    await new Promise((r) => setImmediate(r));
    signals.release();
    if (signals.stop) signals.die(signals.stop);
  }
}

async function writeHeld(outDir: string, files: Iterable<readonly [string, string]>, options: WriteOptions, signals: HeldSignals): Promise<WriteResult> {
  // an --out that is a link means the folder it points to; links inside that folder are never followed
  const exists = kindOf(outDir) !== "missing";
  const found = exists ? realpathSync(outDir) : undefined;
  const recovered = found === undefined ? undefined : recover(found, outDir);
  const previous = found === undefined ? undefined : readManifest(found, outDir);
  const entries = previous === undefined && found !== undefined ? entriesOf(found) : [];
  if (entries.length > 0 && !options.force) {
    throw new WriteError(
      `${show(outDir)} is not empty and has no ${MANIFEST_FILE}, so avaspec did not write it (${entries.length} entr${entries.length === 1 ? "y" : "ies"}, e.g. ${entries.sort().slice(0, 3).join(", ")}); pick an empty or new folder, or run with --force to generate into it (files avaspec would write are replaced, everything else is kept)`,
    );
  }
  const planFor = (generated: ReadonlySet<string>): Plan => (found === undefined ? { journal: { files: [...generated].sort(), remove: [] }, foreign: [], kept: [] } : plan(found, outDir, generated, previous ?? new Set(), options.force ?? false));

  try {
    makeDirs(outDir);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new WriteError(`cannot create the output folder ${show(outDir)}: ${err.code ?? err.message}${err.path && err.path !== outDir ? ` at ${show(err.path)}` : ""}; nothing was written`);
  }
  const root = found ?? realpathSync(outDir);
  // a file avaspec wrote that already holds the new text is left as it is: the everyday regenerate moves only what
  // changed, and tools that watch the output (tsc --watch, bundlers, editors) see only real changes
  const unchanged = (path: string, text: string): boolean => {
    if (found === undefined || !(previous?.has(path) ?? false)) return false;
    const p = place(found, path);
    // a plain file reached through folders only (place checked every step), so reading it follows no link
    return !p.blocked && p.kind === "file" && holds(join(found, path), text);
  };
  const { journal, foreign, kept, written, same } = await stageAndApply(root, outDir, files, planFor, unchanged, signals);
  return { written, unchanged: same, removed: journal.remove, replaced: foreign, kept, ...(recovered ? { recovered } : {}) };
}

/** Stages the files, plans the run once every path is known, commits the journal and applies it; a refusal or a held signal before the commit point abandons the run. */
async function stageAndApply(
  root: string,
  outDir: string,
  files: Iterable<readonly [string, string]>,
  planFor: (generated: ReadonlySet<string>) => Plan,
  unchanged: (path: string, text: string) => boolean,
  signals: HeldSignals,
): Promise<Plan & { written: number; same: number }> {
  const staging = join(root, STAGING_DIR);
  // before the commit point the previous output is untouched: the staging folder goes and the process dies of the signal
  const abandonIfStopped = () => {
    if (!signals.stop) return;
    rmSync(staging, { recursive: true, force: true, maxRetries: 3 });
    signals.die(signals.stop);
  };
  // the staging folder is also the lock: mkdir fails if another run made it since recover()
  try {
    mkdirSync(staging);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new WriteError(`another avaspec is writing ${show(outDir)} right now; wait for it to finish`);
    throw e;
  }
  let committed = false;
  try {
    writeDurably(join(staging, OWNER), JSON.stringify({ pid: process.pid }) + "\n");
    const staged = join(staging, "files");
    const stagePause = pauseFor("stage");
    const generated = new Set<string>();
    const same = new Set<string>();
    for (const [path, text] of files) {
      if (!isEntry(path)) throw new Error(`internal: generated path ${JSON.stringify(path)}`);
      abandonIfStopped();
      generated.add(path);
      if (unchanged(path, text)) {
        same.add(path);
        continue;
      }
      const target = join(staged, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text);
      if (stagePause > 0) await new Promise((r) => setTimeout(r, stagePause));
    }
    // the refusals that need every path; the previous output is still untouched
    const planned = planFor(generated);
    const journal = { ...planned.journal, files: planned.journal.files.filter((p) => !same.has(p)) };
    // nothing else may be staged (every file already held its text): the folder is made for the manifest
    await mkdir(staged, { recursive: true });
    await writeFile(join(staged, MANIFEST_FILE), manifestText(generated));
    abandonIfStopped();
    // the commit point: from here on a killed run is finished by the next one
    writeDurably(join(staging, `${JOURNAL}.tmp`), JSON.stringify(journal) + "\n");
    renameSync(join(staging, `${JOURNAL}.tmp`), join(staging, JOURNAL));
    committed = true;
    const applyPause = pauseFor("apply");
    if (applyPause > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, applyPause);
    apply(root, outDir, journal);
    rmSync(staging, { recursive: true, force: true });
    return { ...planned, journal, written: generated.size - same.size, same: same.size };
  } catch (e) {
    if (!committed) rmSync(staging, { recursive: true, force: true, maxRetries: 3 });
    throw e;
  }
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
 * are not its business. Nothing is read through a link inside the folder.
 */
export function checkTree(outDir: string, files: ReadonlyMap<string, string>): Drift {
  checkOutPath(outDir);
  const drift: Drift = { changed: [], missing: [], extra: [] };
  const root = kindOf(outDir) === "missing" ? outDir : realpathSync(outDir);
  const compare = (path: string, text: string) => {
    const p = place(root, path);
    if (p.blocked?.kind === "link") drift.changed.push(`${path} (beyond the symbolic link ${p.blocked.at}, which avaspec does not follow)`);
    else if (p.kind === "link") drift.changed.push(`${path} (a symbolic link, not the file avaspec writes)`);
    else if (p.kind !== "file") drift.missing.push(path);
    else if (readFileSync(join(root, path), "utf8") !== text) drift.changed.push(path);
  };
  for (const [path, text] of files) compare(path, text);
  compare(MANIFEST_FILE, manifestText(files.keys()));
  let previous: Set<string> | undefined;
  try {
    previous = readManifest(root, outDir);
  } catch {
    previous = undefined; // reported as a changed manifest
  }
  for (const path of previous ?? []) {
    if (files.has(path)) continue;
    const p = place(root, path);
    if (p.blocked?.kind === "link") drift.extra.push(`${path} (beyond the symbolic link ${p.blocked.at}, which generate refuses to remove through)`);
    else if (p.kind === "file") drift.extra.push(path);
  }
  if (kindOf(join(root, STAGING_DIR)) !== "missing") drift.extra.push(`${STAGING_DIR}/ (left by a killed run; the next generate removes or finishes it)`);
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

/** Whether `inner` is `outer` or inside it (absolute paths). */
export function isInside(inner: string, outer: string): boolean {
  const o = outer.endsWith(sep) ? outer : outer + sep;
  return inner === outer || inner.startsWith(o);
}
