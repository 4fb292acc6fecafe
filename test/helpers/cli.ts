/** Runs the real CLI in a child process, as a user would: the bundled bin (built by test/global-setup.ts). */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The `avaspec` bin of package.json: bin/avaspec.mjs → dist/cli.mjs. */
export const CLI = fileURLToPath(new URL("../../bin/avaspec.mjs", import.meta.url));

export function runCli(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
