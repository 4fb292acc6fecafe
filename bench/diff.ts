/**
 * npm run bench:diff — times `avaspec diff` beside Optic (the reference
 * breaking-change detector of test/diff, run as test/diff/optic.ts runs it:
 * @useoptic/optic 1.0.9, built-in breaking-changes ruleset, offline) on the
 * same inputs, in one run: (a) GitHub's REST description between two
 * @octokit/openapi releases (19.0.0 → 22.0.0, 11–12 MB of JSON each) and
 * (b) the ten tiny OpenAPI pairs of test/diff/pairs, one classic breaking
 * change each. Each tool runs as its own process under
 * `/usr/bin/time -f "%e %M %U %S"` (wall s, peak RSS KB, user s, sys s).
 * avaspec runs N times per input in rounds (the repository's CLI, bundled
 * first by scripts/build.mjs: bin/avaspec.mjs, `--format json`); Optic, which
 * took 8–13 minutes and 2 GB on the GitHub pair, runs once per input. The
 * table has the median wall, min/max, median CPU (user + sys), peak RSS, the
 * breaking findings of each tool (avaspec: breaking-wire changes; Optic: its
 * failed checks) and Optic's wall ÷ avaspec's. Reports only: exits 0 whether
 * or not the target (GitHub pair ≤ 3 s median wall) is met.
 * Results: .tmp/bench-diff.json.
 *
 *   tsx bench/diff.ts [--runs N] [--no-optic | --pairs-only]
 *     --runs N      runs of avaspec on every input (default 5)
 *     --no-optic    avaspec only (the table then quotes Optic's GitHub time
 *                   stored by test/diff/run-optic.ts, marked as stored)
 *     --pairs-only  Optic on the ten tiny pairs only, not on the GitHub pair
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { figures, readTimeFile, TIME, TIME_FORMAT, type Sample } from "./gnu-time.ts";
import { OPTIC_ARGS, OPTIC_BIN, OPTIC_ENV, OPTIC_STANDARD, canIsolateNetwork } from "../test/diff/optic.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIFF = join(ROOT, "test/diff");
const CLI = join(ROOT, "bin/avaspec.mjs");
const TARGET_S = 3;

const { values: flags } = parseArgs({ options: { runs: { type: "string" }, "no-optic": { type: "boolean", default: false }, "pairs-only": { type: "boolean", default: false } } });
const RUNS = flags.runs === undefined ? 5 : Number(flags.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs must be a positive integer");
if (flags["no-optic"] && flags["pairs-only"]) throw new Error("--no-optic and --pairs-only: give one");
if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed: apt-get install time`);

if (!existsSync(join(DIFF, "node_modules/@useoptic/optic")) || !existsSync(join(DIFF, "node_modules/octokit-new"))) {
  console.log("test/diff/node_modules is missing: npm ci --prefix test/diff");
  const r = spawnSync("npm", ["ci", "--prefix", "test/diff", "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm ci --prefix test/diff failed");
}

console.log("building the CLI (node scripts/build.mjs) ...");
{
  const r = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("node scripts/build.mjs failed");
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
const version = (name: string) => readJson<{ version: string }>(join(DIFF, "node_modules", name, "package.json")).version;
const rel = (p: string) => relative(ROOT, p);
const TMP = mkdtempSync(join(tmpdir(), "avaspec-bench-diff-"));

interface Input {
  name: string;
  old: string;
  new: string;
  /** The GitHub pair (Optic once, and the target) or a tiny pair. */
  big: boolean;
}
const github: Input = {
  name: `GitHub REST ${version("octokit-old")} → ${version("octokit-new")}`,
  old: join(DIFF, "node_modules/octokit-old/generated/api.github.com.json"),
  new: join(DIFF, "node_modules/octokit-new/generated/api.github.com.json"),
  big: true,
};
const pairsDir = join(DIFF, "pairs");
const pairs: Input[] = [...new Set(readdirSync(pairsDir).filter((f) => f.endsWith(".before.yaml")).map((f) => f.slice(0, -".before.yaml".length)))]
  .sort()
  .map((name) => ({ name, old: join(pairsDir, `${name}.before.yaml`), new: join(pairsDir, `${name}.after.yaml`), big: false }));
const inputs = [github, ...pairs];

// ---------------------------------------------------------------- measuring

/** `/usr/bin/time` around a command; its figures and the command's output. */
function timed(argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): { sample: Sample; status: number | null; stdout: string; stderr: string } {
  const timeFile = join(TMP, "time.txt");
  const r = spawnSync(TIME, ["-f", TIME_FORMAT, "-o", timeFile, ...argv], { cwd, env, encoding: "utf8", maxBuffer: 1 << 30 });
  return { sample: readTimeFile(timeFile), status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Row {
  input: string;
  tool: "avaspec" | "Optic";
  samples: Sample[];
  wall?: number;
  minWall?: number;
  maxWall?: number;
  cpu?: number;
  peakRssMb?: number;
  /** avaspec: breaking-wire changes; Optic: failed checks of its breaking-changes ruleset. */
  breaking?: number;
  /** Optic's median wall ÷ avaspec's on the same input. */
  ratio?: number;
  /** Figures not measured in this run (--no-optic): where they come from. */
  stored?: string;
  error?: string;
}

function summarize(row: Row): void {
  if (row.samples.length === 0 || row.error !== undefined) return;
  Object.assign(row, figures(row.samples));
}

/** One avaspec diff: exit 0 (no --fail-on) and its JSON's breaking-wire count. */
function avaspecOnce(input: Input, row: Row): void {
  const r = timed([process.execPath, CLI, "diff", rel(input.old), rel(input.new), "--format", "json"], ROOT);
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr.trim().split("\n").slice(-6).join("\n")}`);
  const out = JSON.parse(r.stdout) as { summary: Record<string, number> };
  row.breaking = out.summary["breaking-wire"] ?? 0;
  row.samples.push(r.sample);
}

/** One Optic run, as test/diff/optic.ts makes it (temporary folder, standard, env, network namespace), under /usr/bin/time. */
function opticOnce(input: Input, row: Row): void {
  const dir = mkdtempSync(join(TMP, "optic-"));
  try {
    writeFileSync(join(dir, "standard.yml"), OPTIC_STANDARD);
    const args = [OPTIC_BIN, "diff", input.old, input.new, ...OPTIC_ARGS];
    const r = timed(canIsolateNetwork() ? ["unshare", "-rn", ...args] : args, dir, { ...process.env, ...OPTIC_ENV });
    const detailsFile = join(dir, "ci-run-details.json");
    if (!existsSync(detailsFile)) throw new Error(`optic wrote no ci-run-details.json (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
    const details = readJson<{ completed: { comparison: { results: { passed: boolean; exempted: boolean }[] } }[]; failed: unknown[] }>(detailsFile);
    if (details.failed.length > 0) throw new Error(`optic failed: ${JSON.stringify(details.failed).slice(0, 2000)}`);
    row.breaking = details.completed.flatMap((c) => c.comparison.results).filter((x) => !x.passed && !x.exempted).length;
    row.samples.push(r.sample);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
const avaspecRows = new Map(inputs.map((i) => [i, { input: i.name, tool: "avaspec", samples: [] } as Row]));
for (let round = 0; round < RUNS; round++) {
  for (const input of inputs) {
    const row = avaspecRows.get(input)!;
    if (row.error) continue;
    if (process.stderr.isTTY) process.stderr.write(`\ravaspec: round ${round + 1}/${RUNS}, ${input.name}`.padEnd(100));
    try {
      avaspecOnce(input, row);
    } catch (e) {
      row.error = (e as Error).message;
    }
  }
}
if (process.stderr.isTTY) process.stderr.write("\r".padEnd(101) + "\r");

const storedOptic = (() => {
  try {
    return readJson<{ github?: { ms: number; breakingCount: number } }>(join(DIFF, "optic-results.json")).github;
  } catch {
    return undefined;
  }
})();
for (const input of inputs) {
  const a = avaspecRows.get(input)!;
  summarize(a);
  rows.push(a);
  const o: Row = { input: input.name, tool: "Optic", samples: [] };
  const runOptic = !flags["no-optic"] && !(flags["pairs-only"] && input.big);
  if (runOptic) {
    console.log(`Optic on ${input.name}${input.big ? " (8–13 minutes on a 2-core VM) " : ""}...`);
    try {
      opticOnce(input, o);
    } catch (e) {
      o.error = (e as Error).message;
    }
    summarize(o);
  } else if (input.big && storedOptic) {
    o.wall = storedOptic.ms / 1000;
    o.breaking = storedOptic.breakingCount;
    o.stored = "test/diff/optic-results.json (npx tsx test/diff/run-optic.ts), not this run";
  } else continue;
  if (o.wall !== undefined && a.wall) o.ratio = o.wall / a.wall;
  rows.push(o);
}

// ---------------------------------------------------------------- report

const f2 = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(2));
function table(head: string[], body: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const left = new Set([0, 1]);
  for (const r of [head, ...body]) console.log(r.map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd());
}

console.log(`\navaspec diff and Optic (node ${process.version}, ${cpus().length} cores, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(" ")})`);
table(
  ["input", "tool", "runs", "median s", "min–max s", "cpu s", "peak RSS MB", "breaking", "Optic ÷ avaspec"],
  rows.map((r) => [
    r.input,
    r.tool + (r.stored ? " (stored)" : ""),
    r.stored ? "-" : String(r.samples.length),
    r.error ? "FAILED" : f2(r.wall),
    r.error || r.stored || r.samples.length < 2 ? "-" : `${f2(r.minWall)}–${f2(r.maxWall)}`,
    f2(r.cpu),
    r.peakRssMb === undefined ? "-" : String(Math.round(r.peakRssMb)),
    r.breaking === undefined ? "-" : String(r.breaking),
    r.ratio === undefined ? "" : `${r.ratio.toFixed(r.ratio >= 100 ? 0 : 1)}×`,
  ]),
);
for (const r of rows) if (r.error) console.log(`  ${r.tool} on ${r.input} failed: ${r.error}`);
const pairRows = (tool: Row["tool"]) => rows.filter((r) => r.tool === tool && pairs.some((p) => p.name === r.input) && r.wall !== undefined);
const [ap, op] = [pairRows("avaspec"), pairRows("Optic")];
if (ap.length === pairs.length) {
  const sum = (rs: Row[]) => rs.reduce((s, r) => s + r.wall!, 0);
  console.log(`\nten tiny pairs: avaspec ${f2(sum(ap))} s in all (sum of medians)${op.length === pairs.length ? `, Optic ${f2(sum(op))} s, Optic ÷ avaspec ${(sum(op) / sum(ap)).toFixed(1)}×` : ""}`);
}
for (const r of rows) if (r.stored) console.log(`(stored) ${r.tool} on ${r.input}: from ${r.stored}`);
console.log("breaking = avaspec's breaking-wire changes, Optic's failed checks of its breaking-changes ruleset (different rules and granularity: not a like-for-like count); cpu s = median user + sys CPU seconds");

const gh = avaspecRows.get(github)!;
const pass = gh.error ? "FAILED" : gh.wall === undefined ? "NOT MEASURED" : gh.wall <= TARGET_S ? "PASS" : "OVER";
console.log(`\ntarget: GitHub pair, avaspec diff median wall ${f2(gh.wall)} s (≤ ${TARGET_S.toFixed(1)} s) ${pass}; peak RSS ${gh.peakRssMb === undefined ? "-" : Math.round(gh.peakRssMb)} MB`);

mkdirSync(join(ROOT, ".tmp"), { recursive: true });
const resultsFile = join(ROOT, ".tmp/bench-diff.json");
writeFileSync(
  resultsFile,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, cores: cpus().length, loadavgEnd: loadavg(), runs: RUNS, optic: flags["no-optic"] ? "none" : flags["pairs-only"] ? "pairs" : "all", inputs: inputs.map((i) => ({ name: i.name, old: rel(i.old), new: rel(i.new) })), rows, target: { seconds: TARGET_S, result: pass } }, null, 2) + "\n",
);
console.log(`results: ${rel(resultsFile)} (${basename(TMP)} removed)`);
rmSync(TMP, { recursive: true, force: true });
