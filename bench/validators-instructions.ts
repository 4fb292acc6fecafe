/**
 * npm run bench:validators:instructions — the validator benchmark as
 * instruction counts (valgrind callgrind), which, unlike wall time on a shared
 * VM, repeat to within about 2%. For each payload and validator: the
 * instructions one validation costs (the difference between N and 3N
 * validations after the same warm-up, so start-up and compilation cancel
 * out), in all and outside the regex engine. N is 20,000, or 2,000 for the
 * 100-transfer page; the whole run takes about ten minutes on two cores.
 * BENCH_PAYLOADS=transaction,blockchain picks payloads by id.
 */
import { execFileSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { payloads } from "./payloads.js";

try {
  execFileSync("valgrind", ["--version"], { stdio: "ignore" });
} catch {
  console.error("valgrind is not installed (Debian: apt-get install valgrind)");
  process.exit(2);
}
// beside payloads.ts, so the bundle finds ../generated/spec as the source does
const target = new URL("./.instructions-target.mjs", import.meta.url).pathname;
await build({ entryPoints: [new URL("./instructions-target.ts", import.meta.url).pathname], bundle: true, platform: "node", format: "esm", outfile: target, logLevel: "warning" });

function instructions(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded", target, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("close", (code) => {
      const m = /refs:\s*([\d,]+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`valgrind ${args.join(" ")} failed (${code}):\n${err.slice(-2000)}`));
      else resolve(Number(m[1]!.replace(/,/g, "")));
    });
  });
}

async function perValidation(id: string, who: string, mode: string): Promise<number> {
  const n = id === "erc20-page" ? 2_000 : 20_000;
  const [a, b] = await Promise.all([instructions([id, who, String(n), String(n), mode]), instructions([id, who, String(n), String(3 * n), mode])]);
  return Math.round((b - a) / (2 * n));
}

console.log(`node ${process.version}; instructions per validation (valgrind callgrind; isX for avaspec)\n`);
const rows: string[][] = [];
const only = process.env.BENCH_PAYLOADS?.split(",");
for (const p of payloads.filter((x) => !only || only.includes(x.id))) {
  const [ours, theirs, oursOwn, theirsOwn] = [await perValidation(p.id, "avaspec", ""), await perValidation(p.id, "ajv", ""), await perValidation(p.id, "avaspec", "no-regex"), await perValidation(p.id, "ajv", "no-regex")];
  rows.push([p.name, fmt(ours), fmt(theirs), (theirs / ours).toFixed(2) + "×", fmt(oursOwn), fmt(theirsOwn), (theirsOwn / oursOwn).toFixed(2) + "×", `${Math.round((100 * (ours - oursOwn)) / ours)}%`]);
}
rmSync(target, { force: true });
const head = ["payload", "avaspec", "ajv", "ajv / avaspec", "avaspec w/o regex", "ajv w/o regex", "ajv / avaspec", "avaspec in regex"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const r of [head, ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}
