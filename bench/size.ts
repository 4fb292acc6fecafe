/**
 * npm run bench:size — bundles one-job entries of avaspec and of peer
 * libraries with esbuild (minified, tree-shaken, ESM, browser), gzips them
 * (level 9) and prints bytes and ratios to avaspec in one run, with avaspec's
 * budgets. The entries and what each holds: bench/size/entries.ts. Peers are
 * installed in bench/size (its own package.json and lockfile), never in the
 * main package. Reports only: the exit code is 0 whether or not a budget is
 * met (test/size/budget.test.ts is the gate). Results: .tmp/bench-size.json.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { version as esbuildVersion } from "esbuild";
import { AVASPEC_DATA_OP, AVASPEC_ENTRIES, BUDGETS, PEER_ENTRIES, PEERS_DIR, ROOT_DIR, measure, type SizeEntry, type SizeGroup } from "./size/entries.js";

const root = fileURLToPath(new URL("..", import.meta.url));

if (!existsSync(new URL("./size/node_modules", import.meta.url))) {
  console.log("bench/size/node_modules is missing: npm ci --prefix bench/size");
  execFileSync("npm", ["ci", "--prefix", "bench/size", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
}

interface Row {
  name: string;
  group: SizeGroup;
  min?: number;
  gzip?: number;
  /** gzip ÷ gzip of the group's avaspec reference entry. */
  ratio?: number;
  skipped?: string;
}

const GROUPS: Record<SizeGroup, { title: string; reference: string }> = {
  "data-op": { title: "one REST operation: GET /v1/chains/{chainId} with an API-key header", reference: AVASPEC_DATA_OP },
  "rpc-method": { title: "one JSON-RPC method, sent alone and batched", reference: BUDGETS["rpc-method"]!.entry },
  package: { title: "avaspec's bigger forms, for scale", reference: AVASPEC_DATA_OP },
};

async function measureAll(entries: readonly SizeEntry[], resolveDir: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const e of entries) {
    try {
      rows.push({ name: e.name, group: e.group, ...(await measure(e.code, resolveDir)) });
    } catch (error) {
      // e.g. a peer that does not bundle for the browser: reported, not fatal
      const errors = (error as { errors?: { text: string }[] }).errors;
      rows.push({ name: e.name, group: e.group, skipped: errors?.length ? errors.map((x) => x.text).join("; ") : String(error) });
    }
  }
  return rows;
}

const rows = [...(await measureAll(AVASPEC_ENTRIES, ROOT_DIR)), ...(await measureAll(PEER_ENTRIES, PEERS_DIR))];
const byName = new Map(rows.map((r) => [r.name, r]));
for (const r of rows) {
  const ref = byName.get(GROUPS[r.group].reference);
  if (r.gzip !== undefined && ref?.gzip) r.ratio = r.gzip / ref.gzip;
}

const peerVersions = Object.fromEntries(
  Object.keys((JSON.parse(readFileSync(new URL("./size/package.json", import.meta.url), "utf8")) as { devDependencies: Record<string, string> }).devDependencies).map((name) => {
    try {
      return [name, (JSON.parse(readFileSync(new URL(`./size/node_modules/${name}/package.json`, import.meta.url), "utf8")) as { version: string }).version];
    } catch {
      return [name, "not installed"];
    }
  }),
);

const kb = (n: number | undefined) => (n === undefined ? "-" : (n / 1024).toFixed(2));
console.log(`node ${process.version}, esbuild ${esbuildVersion}: bundle + minify + tree-shake, ESM, platform browser; gzip level 9; 1 KB = 1024 B`);
console.log(`peers: ${Object.entries(peerVersions).map(([n, v]) => `${n} ${v}`).join(", ")}\n`);

const head = ["entry", "min KB", "gzip KB", "gzip ÷ avaspec"];
const cells = (r: Row) => [r.name, kb(r.min), kb(r.gzip), r.ratio === undefined ? "-" : `${r.ratio.toFixed(2)}×`];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => cells(r)[i]!.length)));
const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join("  ");
console.log(line(head));
for (const group of Object.keys(GROUPS) as SizeGroup[]) {
  console.log(`\n[${group}] ${GROUPS[group].title} (ratio to "${GROUPS[group].reference}")`);
  for (const r of rows.filter((x) => x.group === group)) {
    console.log(line(cells(r)));
    if (r.skipped) console.log(`  skipped: ${r.skipped}`);
  }
}

const budgets = Object.values(BUDGETS).map((b) => {
  const gzip = byName.get(b.entry)?.gzip;
  return { label: b.label, entry: b.entry, gzip, budget: b.gzip, pass: gzip !== undefined && gzip <= b.gzip };
});
console.log(`\nbudgets (gzip): ${budgets.map((b) => `${b.label} ${kb(b.gzip)} KB (budget ≤ ${kb(b.budget).replace(/0$/, "")} KB) ${b.pass ? "PASS" : "OVER"}`).join("; ")}`);

mkdirSync(new URL("../.tmp", import.meta.url), { recursive: true });
const out = new URL("../.tmp/bench-size.json", import.meta.url);
writeFileSync(out, JSON.stringify({ node: process.version, esbuild: esbuildVersion, peers: peerVersions, entries: rows, budgets }, null, 2) + "\n");
console.log(`results: ${fileURLToPath(out).slice(root.length)}`);
