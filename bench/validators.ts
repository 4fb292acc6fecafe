/**
 * npm run bench:validators — validates realistic payloads with avaspec's
 * generated validators, Ajv (compiled from the same schemas) and zod (built
 * from the same schemas) in one run, and prints ops/s and the ratios.
 */
import { Bench } from "tinybench";
import { payloads } from "./payloads.js";

const cases = payloads.map((p) => ({ ...p, zod: p.zod() }));

console.log(`node ${process.version}; payloads from the spec examples; median of ${process.env.BENCH_ROUNDS ?? 5} rounds\n`);
const rows: string[][] = [];
for (const c of cases) {
  // all three must agree that the payload is valid, or the comparison means nothing
  const verdicts = [c.avaspec(c.value).ok, c.guard(c.value), c.ajv(c.value), c.zod.safeParse(c.value).success];
  if (verdicts.some((v) => v !== true)) throw new Error(`${c.name}: validators disagree on the payload: avaspec validate/is, ajv, zod = ${verdicts.join("/")}`);
  // several rounds in rotating order; the median per validator damps JIT and GC noise
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const runs: Record<string, number[]> = { guard: [], avaspec: [], ajv: [], zod: [] };
  const tasks: [string, () => unknown][] = [["guard", () => c.guard(c.value)], ["avaspec", () => c.avaspec(c.value)], ["ajv", () => c.ajv(c.value)], ["zod", () => c.zod.safeParse(c.value)]];
  for (let r = 0; r < rounds; r++) {
    const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 400), warmupTime: 100 });
    for (let i = 0; i < tasks.length; i++) {
      const [name, fn] = tasks[(i + r) % tasks.length]!;
      bench.add(name, fn);
    }
    await bench.run();
    for (const t of bench.tasks) runs[t.name]!.push(t.result && "throughput" in t.result ? (t.result as { throughput: { mean: number } }).throughput.mean : 0);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const hz = { guard: median(runs.guard!), avaspec: median(runs.avaspec!), ajv: median(runs.ajv!), zod: median(runs.zod!) };
  // isX and ajv both answer a boolean; validateX and zod's safeParse both build a result object
  rows.push([c.name, fmt(hz.guard), fmt(hz.avaspec), fmt(hz.ajv), fmt(hz.zod), (hz.guard / hz.ajv).toFixed(2) + "×", (hz.avaspec / hz.zod).toFixed(2) + "×"]);
}
const head = ["payload", "avaspec isX", "avaspec validateX", "ajv", "zod safeParse", "isX / ajv", "validateX / zod"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const r of [head, ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}
