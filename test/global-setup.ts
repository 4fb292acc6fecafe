/**
 * Before any test: the CLI is built as it ships (dist/cli.mjs, so tests run
 * the packed bin, never tsx) and the generated package is compiled
 * (generated/dist, for the tests that import or serve the built package).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

export default function setup(): void {
  for (const [what, args] of [
    ["the CLI (node scripts/build.mjs)", ["scripts/build.mjs"]],
    ["generated/ (tsc)", ["node_modules/typescript/bin/tsc", "-p", "generated/tsconfig.json"]],
    // the rest of the package's `npm run build`: the validators are JavaScript, which tsc does not copy
    ["generated/ (its JavaScript modules)", ["generated/scripts/copy-js.mjs"]],
  ] as const) {
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`building ${what} failed:\n${r.stdout}${r.stderr}`);
  }
}
