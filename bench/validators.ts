/**
 * npm run bench:validators — validates realistic payloads with avaspec's
 * generated validators, Ajv (compiled from the same schemas) and zod (built
 * from the same schemas) in one run, and prints ops/s and the ratios.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import Ajv from "ajv";
import { Bench } from "tinybench";
import { isBlockchain, isGetTransactionResponse, isListErc20TransactionsResponse, validateBlockchain, validateGetTransactionResponse, validateListErc20TransactionsResponse } from "../generated/src/data-api/validators.js";
import { isCurrentValidatorsResult, validateCurrentValidatorsResult } from "../generated/src/node/validators.js";
import { toZod } from "./json-schema-to-zod.js";

const read = (f: string) => JSON.parse(readFileSync(new URL(`../generated/spec/${f}`, import.meta.url), "utf8"));
const data = read("data-api.openapi.json");
const platform = read("node-platform.openrpc.json");
const ok = (path: string, method = "get") => data.paths[path][method].responses["200"].content["application/json"].example;

// payloads, from the specs' own examples, scaled to realistic sizes
const transfer = ok("/v1/chains/{chainId}/addresses/{address}/transactions:listErc20").transactions[0];
const erc20Page = { nextPageToken: "4d8b5f2e-7a13-4c09-b6e1-2f9a0c3d5e71", transactions: Array.from({ length: 100 }, (_, i) => ({ ...transfer, logIndex: i, blockNumber: String(6479329 + i) })) };
const txDetails = ok("/v1/chains/{chainId}/transactions/{txHash}");
const blockchain = ok("/v1/networks/{network}/blockchains").blockchains.find((b: { genesisData?: unknown }) => b.genesisData);
const validators = platform.methods.find((m: { name: string }) => m.name === "platform.getCurrentValidators").examples.map((e: any) => e.result.value).find((v: unknown) => JSON.stringify(v).includes("delegators"));

const ajvData = new Ajv2020({ strict: false, validateFormats: false });
ajvData.addSchema({ ...data, $id: "data" }, "data");
const ajvNode = new Ajv.default({ strict: false, validateFormats: false });
ajvNode.addSchema({ $id: "platform", components: platform.components }, "platform");

const cases = [
  { name: "ERC-20 page (100 transfers)", value: erc20Page, guard: isListErc20TransactionsResponse, avaspec: validateListErc20TransactionsResponse, ajv: ajvData.getSchema("data#/components/schemas/ListErc20TransactionsResponse")!, zod: toZod(data.components.schemas.ListErc20TransactionsResponse, data) },
  { name: "Transaction details", value: txDetails, guard: isGetTransactionResponse, avaspec: validateGetTransactionResponse, ajv: ajvData.getSchema("data#/components/schemas/GetTransactionResponse")!, zod: toZod(data.components.schemas.GetTransactionResponse, data) },
  { name: "Blockchain with genesisData", value: blockchain, guard: isBlockchain, avaspec: validateBlockchain, ajv: ajvData.getSchema("data#/components/schemas/Blockchain")!, zod: toZod(data.components.schemas.Blockchain, data) },
  { name: "getCurrentValidators with delegators", value: validators, guard: isCurrentValidatorsResult, avaspec: validateCurrentValidatorsResult, ajv: ajvNode.getSchema("platform#/components/schemas/CurrentValidatorsResult")!, zod: toZod(platform.components.schemas.CurrentValidatorsResult, platform) },
];

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
