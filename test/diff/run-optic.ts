// Runs Optic (test/diff/optic.ts) over the tiny before/after pairs in
// test/diff/pairs/ and over two @octokit/openapi releases of GitHub's REST
// description, prints the breaking findings and writes optic-results.json.
//   npx tsx test/diff/run-optic.ts              (pairs + GitHub: ~13 min, ~1.9 GB RSS)
//   npx tsx test/diff/run-optic.ts --pairs-only (keeps the stored GitHub entry)
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OPTIC_ARGS, OPTIC_ENV, opticDiff, type OpticFinding } from "./optic.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const rel = (p: string) => p.slice(here("../../").length);
const pairsDir = here("./pairs/");
const outFile = here("./optic-results.json");
const pkg = (name: string) => JSON.parse(readFileSync(here(`./node_modules/${name}/package.json`), "utf8"));

const names = [...new Set(readdirSync(pairsDir).filter((f) => f.endsWith(".before.yaml")).map((f) => f.slice(0, -".before.yaml".length)))].sort();

const pairs: { name: string; before: string; after: string; ms: number; breaking: OpticFinding[] }[] = [];
for (const name of names) {
  const before = `${pairsDir}${name}.before.yaml`;
  const after = `${pairsDir}${name}.after.yaml`;
  const r = await opticDiff(before, after);
  pairs.push({ name, before: rel(before), after: rel(after), ms: r.ms, breaking: r.breaking });
  console.log(`${name}: ${r.breaking.length} breaking (${r.ms} ms)`);
  for (const b of r.breaking) console.log(`  - [${b.rule}] ${b.message}  @ ${b.location}`);
}

let github: unknown;
if (process.argv.includes("--pairs-only")) {
  github = existsSync(outFile) ? JSON.parse(readFileSync(outFile, "utf8")).github : undefined;
} else {
  const doc = (alias: string) => here(`./node_modules/${alias}/generated/api.github.com.json`);
  const [oldFile, newFile] = [doc("octokit-old"), doc("octokit-new")];
  console.log(`GitHub REST: ${pkg("octokit-old").version} -> ${pkg("octokit-new").version} ...`);
  const r = await opticDiff(oldFile, newFile);
  const byRule: Record<string, number> = {};
  for (const b of r.breaking) byRule[b.rule] = (byRule[b.rule] ?? 0) + 1;
  const raw = r.raw as { results: unknown[]; exitCode: number | null; networkIsolated: boolean };
  github = {
    old: { package: `@octokit/openapi@${pkg("octokit-old").version}`, file: rel(oldFile) },
    new: { package: `@octokit/openapi@${pkg("octokit-new").version}`, file: rel(newFile) },
    ms: r.ms,
    checksRun: raw.results.length,
    exitCode: raw.exitCode,
    networkIsolated: raw.networkIsolated,
    breakingCount: r.breaking.length,
    byRule,
    breaking: r.breaking,
  };
  console.log(`GitHub REST: ${r.breaking.length} breaking findings of ${raw.results.length} checks in ${(r.ms / 1000).toFixed(1)} s`);
  for (const [rule, n] of Object.entries(byRule).sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${rule}`);
}

const result = {
  optic: {
    package: `@useoptic/optic@${pkg("@useoptic/optic").version}`,
    invocation: `${Object.entries(OPTIC_ENV).map(([k, v]) => `${k}=${v}`).join(" ")} unshare -rn optic diff <old> <new> ${OPTIC_ARGS.join(" ")}`,
    standard: "breaking-changes with skip_when_major_version_changes: false",
    findingsFrom: "ci-run-details.json completed[].comparison.results where !passed && !exempted",
  },
  pairs,
  github,
};
writeFileSync(outFile, JSON.stringify(result, null, 2) + "\n");
console.log(`wrote ${rel(outFile)}`);
