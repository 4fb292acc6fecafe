#!/usr/bin/env node
/**
 * How much text the generated package spends per operation (issue 28).
 *
 * Counted per method or operation rather than in total, so that a spec that
 * grows does not look like a regression and a change that shrinks the output
 * shows as such. Prints, for `generated/src` (or the folder given):
 * - the node client: lines of `node/client.ts` per JSON-RPC method or HTTP
 *   operation of the node module;
 * - every module: lines of its files per operation, and the whole `src`
 *   (with and without the runtime copy, which does not grow with the spec);
 * - `duplicates`' count of repeated runs of six or more lines, when that tool
 *   is on PATH (it is not a dependency; the line is skipped without it).
 *
 * `node scripts/generated-lines.mjs [--json] [--no-duplicates] [dir]`
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const args = process.argv.slice(2);
const json = args.includes("--json");
const root = resolve(args.find((a) => !a.startsWith("--")) ?? "generated/src");

function lines(file) {
  const text = readFileSync(file, "utf8");
  return text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function filesUnder(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A module's operations: its JSON-RPC method descriptors and its HTTP operation descriptors. */
function operations(dir) {
  let count = 0;
  for (const name of ["client.ts", "operations.js"]) {
    const path = join(dir, name);
    try {
      count += (readFileSync(path, "utf8").match(/^export const \w+(Method|Operation)\b/gm) ?? []).length;
    } catch {
      // a module without that file has none of that kind
    }
  }
  return count;
}

const modules = [];
let all = 0;
let runtime = 0;
let ops = 0;
for (const name of readdirSync(root).sort()) {
  const dir = join(root, name);
  if (!statSync(dir).isDirectory()) {
    all += lines(dir);
    continue;
  }
  const total = filesUnder(dir).reduce((sum, file) => sum + lines(file), 0);
  all += total;
  if (name === "runtime") runtime = total;
  const count = operations(dir);
  ops += count;
  if (count > 0) modules.push({ name, operations: count, lines: total, client: lines(join(dir, "client.ts")) });
}

const node = modules.find((m) => m.name === "node");
const result = {
  nodeClient: node && { lines: node.client, methods: node.operations, perMethod: round(node.client / node.operations) },
  modules: modules.map((m) => ({ ...m, perOperation: round(m.lines / m.operations) })),
  src: { lines: all, operations: ops, perOperation: round(all / ops) },
  srcWithoutRuntime: { lines: all - runtime, perOperation: round((all - runtime) / ops) },
  duplicates: args.includes("--no-duplicates") ? null : duplicateRuns(resolve(root, "..")),
};

function round(n) {
  return Math.round(n * 10) / 10;
}

/**
 * What `duplicates` finds in the package folder: pairs of places and the runs
 * they share (each row is one run plus its "+N more runs"), or null when the
 * tool is not installed.
 */
function duplicateRuns(dir) {
  let out;
  try {
    out = execFileSync("duplicates", ["--repo", dir, "--most", "200", "--seconds", "300"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
  const pairs = /^(\d+) pairs? of places/m.exec(out);
  let runs = 0;
  for (const row of out.matchAll(/^D\d+ .*?(?:\(\+(\d+) more runs?\))?$/gm)) runs += 1 + Number(row[1] ?? 0);
  const common = /left out: (\d+) runs/.exec(out);
  return { pairs: pairs ? Number(pairs[1]) : null, runs, tooCommon: common ? Number(common[1]) : 0, head: out.split("\n")[0] };
}

if (json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  const where = relative(process.cwd(), root) || ".";
  if (node) console.log(`${where}/node/client.ts: ${node.client} lines, ${node.operations} methods, ${result.nodeClient.perMethod} lines per method`);
  for (const m of result.modules) console.log(`${where}/${m.name}: ${m.lines} lines, ${m.operations} operations, ${m.perOperation} per operation`);
  console.log(`${where}: ${all} lines, ${ops} operations, ${result.src.perOperation} per operation (${result.srcWithoutRuntime.perOperation} without the runtime copy)`);
  if (result.duplicates) console.log(`duplicates in ${relative(process.cwd(), resolve(root, "..")) || "."}: ${result.duplicates.pairs} pairs, ${result.duplicates.runs} runs, and ${result.duplicates.tooCommon} runs too common to list`);
}
