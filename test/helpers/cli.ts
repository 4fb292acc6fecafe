/** Runs the real CLI in a child process, as a user would: the bundled bin (built by test/global-setup.ts). */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The `avaspec` bin of package.json: bin/avaspec.mjs → dist/cli.mjs. */
export const CLI = fileURLToPath(new URL("../../bin/avaspec.mjs", import.meta.url));
/** The root's TypeScript compiler, which type-checks generated packages. */
export const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

export function runCli(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface NodeRun {
  /** Exit code; 1 when the process was killed or timed out (then stderr ends with why). */
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node <args>` without blocking the test process (for long runs: generation and tsc of large packages). */
export function runNode(args: string[], cwd: string, timeout: number): Promise<NodeRun> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: "1" }, timeout, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + (error && typeof error.code !== "number" ? `\n${error.message}` : ""), ms: performance.now() - start });
    });
  });
}

/** A diagnostic's head line: `file:line:col at #/pointer: message [code]`, warnings ending in ` (warning)`. */
const DIAGNOSTIC = /^(\S.*?):(\d+):(\d+) at (#\S*): (.*) \[([^\]]+)\]( \(warning\))?$/;

/** The diagnostics the CLI printed, from their head lines. */
export function parseDiagnostics(stderr: string): { file: string; pointer: string; message: string; code: string; warning: boolean; line: string }[] {
  return stderr
    .split("\n")
    .map((line) => ({ line, m: DIAGNOSTIC.exec(line) }))
    .filter((x) => x.m)
    .map(({ line, m }) => ({ file: m![1]!, pointer: m![4]!, message: m![5]!, code: m![6]!, warning: m![7] !== undefined, line }));
}

/**
 * Type-checks files against the generated package (`@avaspec/client` and its
 * subpaths mapped to generated/src, as in the root tsconfig, or to another
 * package's `src`, a fixture's golden) with the real tsc, strict; returns its
 * output ("" when they compile).
 */
export function typecheckAgainstGenerated(files: Record<string, string>, packageSrc = "generated/src"): string {
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".tmp", "types-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const src = join(ROOT, packageSrc);
    const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], strict: true, noUncheckedIndexedAccess: true, skipLibCheck: true, noEmit: true, paths: { "@avaspec/client": [join(src, "index.ts")], "@avaspec/client/*": [join(src, "*/index.ts")] } };
    writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
    const r = spawnSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8" });
    return r.stdout + r.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the checkout has this commit (a shallow clone has no history to diff against). */
export function hasCommit(rev: string): boolean {
  try {
    execFileSync("git", ["cat-file", "-e", `${rev}^{commit}`], { cwd: ROOT, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
