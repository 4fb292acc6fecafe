// Runs Optic's CLI (the `@useoptic/optic` pinned in test/diff/package.json)
// as the reference breaking-change detector for the `avaspec diff` tests.
//
// How Optic 1.0.9 is made to report breaking changes as JSON, offline:
//  - `optic diff <old> <new> --check --json` prints only the changelog on
//    stdout (no check results), but with CI=true it also writes
//    `ci-run-details.json` into its working directory, whose
//    completed[0].comparison.results are the check results. The process runs
//    in a fresh temporary directory, which also keeps it away from any
//    optic.dev.yml / git repository.
//  - `--standard` points at a file enabling only the built-in
//    `breaking-changes` ruleset with `skip_when_major_version_changes: false`
//    (by default Optic silently skips every breaking-change rule when
//    info.version changes major, as between @octokit/openapi releases).
//  - `--validation loose`: strict validation rejects GitHub's document
//    (array schemas carrying `required`).
//  - No network: OPTIC_TELEMETRY_LEVEL=off (Sentry and Segment; in 1.0.9 both
//    are initialised without keys anyway), NO_UPDATE_NOTIFIER=1 and CI=true
//    (update-notifier's registry check). On Linux the process additionally
//    runs under `unshare -rn` (own network namespace with only a down
//    loopback), so no traffic can leave even if some code path tried.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface OpticFinding {
  rule: string;
  message: string;
  location: string;
}

export interface OpticResult {
  where: string;
  error?: string;
  passed: boolean;
  exempted: boolean;
  location: { jsonPath: string; spec: "before" | "after" };
  name: string;
  type?: string;
  severity: number;
}

export const OPTIC_BIN = fileURLToPath(new URL("./node_modules/.bin/optic", import.meta.url));

export const OPTIC_STANDARD = `ruleset:
  - breaking-changes:
      skip_when_major_version_changes: false
`;

export const OPTIC_ARGS = ["--check", "--json", "--validation", "loose", "--standard", "standard.yml"] as const;

export const OPTIC_ENV = { CI: "true", OPTIC_TELEMETRY_LEVEL: "off", NO_UPDATE_NOTIFIER: "1" } as const;

let unshareWorks: boolean | undefined;
/** `unshare -rn` available and permitted here (user + network namespace). */
export function canIsolateNetwork(): boolean {
  if (unshareWorks === undefined) {
    const r = spawnSync("unshare", ["-rn", "true"], { stdio: "ignore" });
    unshareWorks = r.status === 0;
  }
  return unshareWorks;
}

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...OPTIC_ENV }, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) =>
      resolvePromise({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

export async function opticDiff(
  oldFile: string,
  newFile: string,
): Promise<{ breaking: OpticFinding[]; raw: unknown; ms: number }> {
  const dir = await mkdtemp(join(tmpdir(), "avaspec-optic-"));
  try {
    await writeFile(join(dir, "standard.yml"), OPTIC_STANDARD);
    const opticArgs = ["diff", resolve(oldFile), resolve(newFile), ...OPTIC_ARGS];
    const isolated = canIsolateNetwork();
    const [cmd, args] = isolated ? ["unshare", ["-rn", OPTIC_BIN, ...opticArgs]] : [OPTIC_BIN, opticArgs];
    const t0 = performance.now();
    const { code, stdout, stderr } = await run(cmd, args, dir);
    const ms = Math.round(performance.now() - t0);
    let details: {
      completed: { comparison: { results: OpticResult[] }; warnings: string[] }[];
      failed: { apiName: string; error: unknown }[];
      noop: unknown[];
    };
    try {
      details = JSON.parse(await readFile(join(dir, "ci-run-details.json"), "utf8"));
    } catch {
      throw new Error(`optic wrote no ci-run-details.json (exit ${code})\n${stderr}${stdout.slice(0, 2000)}`);
    }
    if (details.failed.length > 0) throw new Error(`optic failed: ${JSON.stringify(details.failed)}\n${stderr}`);
    const results = details.completed.flatMap((c) => c.comparison.results);
    const warnings = details.completed.flatMap((c) => c.warnings);
    const breaking = results
      .filter((r) => !r.passed && !r.exempted)
      .map((r) => ({
        rule: r.name,
        message: `${r.where}: ${r.error ?? ""}`,
        location: `${r.location.spec}#${r.location.jsonPath}`,
      }));
    return {
      breaking,
      raw: { exitCode: code, networkIsolated: isolated, warnings, results, stderr, changelogBytes: stdout.length },
      ms,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
