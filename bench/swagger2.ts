/**
 * npm run bench:swagger2 — what reading a Swagger 2.0 document costs over
 * reading the same API as OpenAPI 3.0. Two measures per document:
 *
 *   convert   generator/load/swagger2.ts's convertSwagger2 in this process
 *             (start the worker, load swagger2openapi in it, convert, copy
 *             the result back, take the converter's warnings off): median
 *             of N runs, the first (cold) run apart;
 *   generate  the bundled CLI (`node bin/avaspec.mjs generate`) as a whole
 *             process on the Swagger 2.0 document and on its conversion
 *             written out as OpenAPI 3.0 JSON, the same N times each in
 *             alternation: median wall time of each and their difference.
 *
 * Documents: the three APIs.guru documents of test/fixtures/swagger2-apis-guru
 * and a made-up one with 400 paths and 400 definitions (body parameters,
 * formData, shared parameters and responses), so the cost's growth shows.
 * Reports only: exits 0. Results: .tmp/bench-swagger2.json.
 *
 *   tsx bench/swagger2.ts [--runs N]   (default 7)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadText } from "../generator/load/load.js";
import { convertSwagger2 } from "../generator/load/swagger2.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "bin/avaspec.mjs");
const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const RUNS = Number(values.runs);

function madeUp(n: number): string {
  const paths: Record<string, unknown> = {};
  const definitions: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    definitions[`Thing${i}`] = { type: "object", required: ["id"], properties: { id: { type: "integer", format: "int64" }, name: { type: "string", maxLength: 80 }, tags: { type: "array", items: { type: "string" } }, next: { $ref: `#/definitions/Thing${(i + 1) % n}` } } };
    paths[`/things${i}/{id}`] = {
      parameters: [{ $ref: "#/parameters/Id" }],
      get: { operationId: `getThing${i}`, parameters: [{ name: "fields", in: "query", type: "array", items: { type: "string" }, collectionFormat: "csv" }], responses: { 200: { description: "ok", schema: { $ref: `#/definitions/Thing${i}` } }, 404: { $ref: "#/responses/NotFound" } } },
      put: { operationId: `putThing${i}`, parameters: [{ name: "body", in: "body", required: true, schema: { $ref: `#/definitions/Thing${i}` } }], responses: { 204: { description: "stored" } } },
      post: { operationId: `uploadThing${i}`, consumes: ["multipart/form-data"], parameters: [{ name: "file", in: "formData", type: "file" }, { name: "note", in: "formData", type: "string" }], responses: { 204: { description: "stored" } } },
    };
  }
  return JSON.stringify({ swagger: "2.0", info: { title: "Made up", version: "1.0.0" }, host: "api.example.com", basePath: "/v1", schemes: ["https"], consumes: ["application/json"], produces: ["application/json"], parameters: { Id: { name: "id", in: "path", required: true, type: "integer" } }, responses: { NotFound: { description: "not found" } }, paths, definitions }, null, 2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function convertTimes(file: string, text: string): { cold: number; warm: number } {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const doc = loadText(file, text).document!;
    const t = performance.now();
    const r = convertSwagger2(doc);
    times.push(performance.now() - t);
    if (!r.document) throw new Error(`${file}: ${JSON.stringify(r.diagnostics)}`);
  }
  return { cold: times[0]!, warm: median(times.slice(1)) };
}

function cliMs(dir: string, spec: string): number {
  rmSync(join(dir, "out"), { recursive: true, force: true });
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, "generate", "--input", spec, "--out", "out", "--targets", "types,validators,client,mocks"], { cwd: dir, encoding: "utf8" });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${spec}: ${r.stderr}`);
  return ms;
}

const docs: { name: string; text: string }[] = [
  ...["xkcd", "apis-guru", "starwars"].map((n) => ({ name: `${n}.swagger.yaml`, text: readFileSync(join(ROOT, "test/fixtures/swagger2-apis-guru", `${n}.swagger.yaml`), "utf8") })),
  { name: "made-up-400.swagger.json", text: madeUp(400) },
];

spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { stdio: "inherit" });
mkdirSync(join(ROOT, ".tmp"), { recursive: true });
const rows: Record<string, unknown>[] = [];
for (const d of docs) {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-bench-swagger2-"));
  try {
    writeFileSync(join(dir, d.name), d.text);
    const converted = convertSwagger2(loadText(d.name, d.text).document!).document!;
    const openapiName = d.name.replace(/\.swagger\.(ya?ml|json)$/, ".openapi.json");
    writeFileSync(join(dir, openapiName), JSON.stringify(converted.root, null, 2));
    const convert = convertTimes(d.name, d.text);
    const swagger: number[] = [];
    const openapi: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      swagger.push(cliMs(dir, d.name));
      openapi.push(cliMs(dir, openapiName));
    }
    const row = { document: d.name, bytes: Buffer.byteLength(d.text), convertColdMs: convert.cold, convertMs: convert.warm, generateSwaggerMs: median(swagger), generateOpenApiMs: median(openapi), differenceMs: median(swagger) - median(openapi) };
    rows.push(row);
    console.log(`${row.document.padEnd(26)} ${String(row.bytes).padStart(8)} B  convert ${row.convertMs.toFixed(1)} ms (cold ${row.convertColdMs.toFixed(1)})  generate ${row.generateSwaggerMs.toFixed(0)} ms vs ${row.generateOpenApiMs.toFixed(0)} ms as OpenAPI 3.0 (${row.differenceMs >= 0 ? "+" : ""}${row.differenceMs.toFixed(0)} ms)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
writeFileSync(join(ROOT, ".tmp/bench-swagger2.json"), JSON.stringify({ runs: RUNS, node: process.version, rows }, null, 2) + "\n");
