/**
 * Property test: random valid documents (arbitrary.ts) — 120 OpenAPI 3.1, 90
 * OpenAPI 3.0 and 90 OpenRPC per run — go through the real CLI, tsc --strict
 * and a fresh Node process that imports every built module:
 *
 * 1. generate: the CLI exits 0 and reports no error (warnings are fine);
 * 2. tsc: the generated packages type-check and build;
 * 3. import: each built module (types, validators, client, mocks, index per
 *    document; the package's index, mocks and mock-server) loads without
 *    throwing and without side effects (import-check.mjs lists them), and
 *    the defaults and examples of component schemas pass their validators.
 *
 * Before all that, valid.ts holds each document to its specification's rules:
 * a document that breaks one is the generator's bug, not avaspec's.
 *
 * The documents go in a few batches, one config with one input per document
 * each, so the whole run is a handful of processes. The seed is printed first;
 * `AVASPEC_PROPERTY_SEED=<seed> npx vitest run test/property` repeats a run
 * (`AVASPEC_PROPERTY_DOCS=<n>` runs fewer documents). A failure names the
 * document and writes it, shrunk, to `.tmp/property/failure-<seed>-<n>.json`.
 */
import { randomInt } from "node:crypto";
import { availableParallelism } from "node:os";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { arbitraryDocument, documentSeed, rejectedSamples, Rng, type DocKind, type JsonObject } from "./arbitrary.js";
import { bisect, generateStep, importStep, runSteps, specText, tscStep, writeBatch, type Entry, type Failure, type Step } from "./pipeline.js";
import { shrink } from "./shrink.js";
import { documentProblems } from "./valid.js";

function seedFromEnv(): number {
  const raw = process.env["AVASPEC_PROPERTY_SEED"];
  if (raw === undefined || raw === "") return randomInt(0, 2 ** 31);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) throw new Error(`AVASPEC_PROPERTY_SEED must be an integer in [0, 2^32), got ${JSON.stringify(raw)}`);
  return n;
}

const SEED = seedFromEnv();
console.log(`property test seed: ${SEED}`);

const COUNTS: [DocKind, number][] = [["openapi-3.1", 90], ["openapi-3.0", 75], ["openapi-3.2", 60], ["openrpc", 75]];
const TOTAL = Number(process.env["AVASPEC_PROPERTY_DOCS"] ?? 300);
const BATCHES = 4;
const PARALLEL = Math.max(1, Math.min(2, availableParallelism()));
const OUT = join(ROOT, ".tmp/property");
const RUN = join(OUT, `run-${SEED}`);
/** How long the shrinker may take on one failure. */
const SHRINK_MS = 90_000;

/**
 * Config names per document, fixed by the index: outputs and client names
 * that are awkward too (digits first, dots, reserved words), some alike in
 * camelCase to another output of their batch (`k-8`, `k.8`), some client
 * names shared by several inputs of a batch.
 */
function entryOf(index: number, kind: DocKind): Entry {
  const r = new Rng(documentSeed(SEED ^ 0x5bd1e995, index));
  const prefix = r.pick(["d", "d", "", "class-", "then.", "x_", "new-", "constructor.", "create", "serve"]);
  // index and index ± 4 are in the same batch (index % BATCHES)
  // the first document of each batch: an output named like something the package has already
  const output = index < BATCHES ? ["create", "serve", "then", "index"][index]! : r.bool(0.15) ? `k${index % 8 < 4 ? "-" : "."}${index - (index % 8) + (index % 4)}` : `${prefix}${index}`;
  const base = r.pick(["Api", "Class", "Delete", "New", "Then", "Constructor", "Proto", "Default", "Await", "Promise", "Object", "T", "Map", "Record", "Run", "Check", "Http", "Rpc", "X"]);
  // most inputs emit everything; some stop after types, validators or the client
  const targets = r.weighted<Entry["targets"]>([[7, undefined], [1, ["types"]], [1, ["types", "validators"]], [1, ["types", "validators", "client"]]]);
  return { index, kind, doc: arbitraryDocument(documentSeed(SEED, index), kind), yaml: r.bool(0.2), output, clientName: r.bool(0.15) ? base : `${base}${index}`, ...(targets ? { targets } : {}) };
}

function documents(): Entry[] {
  const scale = TOTAL / 300;
  const kinds: DocKind[] = COUNTS.flatMap(([kind, n]) => Array.from({ length: Math.max(1, Math.round(n * scale)) }, () => kind));
  return kinds.map((kind, index) => entryOf(index, kind));
}

async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  }));
  return out;
}

interface Batch {
  dir: string;
  entries: Entry[];
  /** Documents that failed a step, taken out so the rest still get every check. */
  failed: Set<number>;
}

const batches: Batch[] = [];
const failures: Failure[] = [];
const stats = { documents: 0, kinds: {} as Record<string, number>, warnings: 0, modules: 0, checked: 0, ms: {} as Record<Step | "documents", number> };

/** Puts unattributed failures on a document (by halving the batch), or keeps them on the batch. */
async function attribute(batch: Batch, step: Step, found: Failure[]): Promise<Failure[]> {
  if (found.every((f) => f.index !== undefined)) return found;
  const scratch = join(RUN, `bisect-${step}-${batch.dir.split(/[\\/]/).at(-1)}`);
  const hit = await bisect(scratch, batch.entries, step);
  rmSync(scratch, { recursive: true, force: true });
  const named = found.filter((f) => f.index !== undefined);
  if (hit) return [...named, hit.failure];
  return [...named, ...found.filter((f) => f.index === undefined).map((f) => ({ ...f, message: `${f.message}\n(no single document of ${batch.dir} fails alone: the failure needs several documents together)` }))];
}

/** Shrinks the document of a failure and writes it to .tmp/property/failure-<seed>-<n>.json; returns the report line. */
async function report(step: Step, list: Failure[]): Promise<string> {
  const lines = list.slice(0, 20).map((f) => `- [${f.step}] document ${f.index ?? "(several)"}${f.index !== undefined ? ` (${byIndex.get(f.index)?.kind})` : ""}: ${f.message.split("\n").slice(0, 6).join("\n    ")}`);
  if (list.length > 20) lines.push(`… and ${list.length - 20} more`);
  const first = list.find((f) => f.index !== undefined);
  let shrunk = "";
  if (first) {
    const entry = byIndex.get(first.index!)!;
    const scratch = join(RUN, `shrink-${first.index}`);
    const fails = async (doc: JsonObject) => (await runSteps(scratch, [{ ...entry, doc }], step)).some((f) => f.step === step && f.signature === first.signature);
    const start = performance.now();
    // a shrunk document breaks no rule the original kept (valid.ts), wherever it breaks them
    const what = (doc: JsonObject) => [...documentProblems(doc, entry.kind), ...(step === "import" ? rejectedSamples(doc, entry.kind) : [])].map((p) => p.replace(/^#\S*: /, ""));
    const baseline = new Set(what(entry.doc));
    const valid = (doc: JsonObject) => what(doc).every((p) => baseline.has(p));
    const result = (await fails(entry.doc)) ? await shrink(entry.doc, fails, valid, { ms: SHRINK_MS, tries: 1500 }) : undefined;
    const stem = `failure-${SEED}-${first.index}`;
    const file = join(OUT, `${stem}.json`);
    const doc = result?.doc ?? entry.doc;
    mkdirSync(OUT, { recursive: true });
    writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");
    writeFileSync(join(OUT, `${stem}.original.json`), JSON.stringify(entry.doc, null, 2) + "\n");
    // the config of the failing run (output and client name), reading the document as that run did (JSON or YAML)
    if (entry.yaml) writeFileSync(join(OUT, `${stem}.yaml`), specText(doc, true));
    const config = join(OUT, `${stem}.config.json`);
    writeFileSync(config, JSON.stringify({ out: `${stem}.out`, package: { name: stem }, inputs: [{ spec: `${stem}.${entry.yaml ? "yaml" : "json"}`, output: entry.output, clientName: entry.clientName, ...(entry.targets ? { targets: entry.targets } : {}) }] }, null, 2) + "\n");
    const rel = relative(ROOT, file);
    const again = [`node bin/avaspec.mjs generate --config ${relative(ROOT, config)}`, ...(step === "generate" ? [] : [`node node_modules/typescript/bin/tsc -p .tmp/property/${stem}.out/tsconfig.json`])].join(" && ");
    shrunk = result
      ? `\nShrunk document ${first.index} (${result.accepted} of ${result.tries} changes kept in ${((performance.now() - start) / 1000).toFixed(0)} s${result.exhausted ? ", budget spent" : ""}): ${rel}\n  reproduce: ${again}\n${JSON.stringify(doc, null, 1).slice(0, 6000)}`
      : `\nDocument ${first.index} does not fail the same way alone; unshrunk in ${rel}`;
  }
  return `property test seed: ${SEED} — ${list.length} failure(s) at ${step}:\n${lines.join("\n")}${shrunk}\nRe-run: AVASPEC_PROPERTY_SEED=${SEED} npx vitest run test/property`;
}

const byIndex = new Map<number, Entry>();

describe(`random documents (seed ${SEED})`, () => {
  it("0. the generator makes documents valid by their specifications (valid.ts)", () => {
    const start = performance.now();
    rmSync(RUN, { recursive: true, force: true });
    const all = documents();
    for (const e of all) byIndex.set(e.index, e);
    for (let b = 0; b < BATCHES; b++) batches.push({ dir: join(RUN, `batch-${b}`), entries: all.filter((e) => e.index % BATCHES === b), failed: new Set() });
    stats.documents = all.length;
    for (const e of all) stats.kinds[e.kind] = (stats.kinds[e.kind] ?? 0) + 1;
    stats.ms.documents = performance.now() - start;
    expect(all.length).toBeGreaterThanOrEqual(Math.min(TOTAL, 300));
    // the generator's own check: a document that breaks a rule of its specification is the generator's bug, not avaspec's
    const invalid = all.map((e) => ({ e, problems: documentProblems(e.doc, e.kind) })).filter((x) => x.problems.length > 0);
    if (invalid.length > 0) {
      const first = invalid[0]!.e;
      mkdirSync(OUT, { recursive: true });
      const file = join(OUT, `invalid-${SEED}-${first.index}.json`);
      writeFileSync(file, JSON.stringify(first.doc, null, 2) + "\n");
      expect.fail(`property test seed: ${SEED} — the generator made ${invalid.length} invalid document(s) (a bug in test/property/arbitrary.ts):\n${invalid.slice(0, 10).map((x) => `- document ${x.e.index} (${x.e.kind}): ${x.problems.slice(0, 3).join("; ")}`).join("\n")}\nfirst one: ${relative(ROOT, file)}`);
    }
  });

  it("1. the CLI generates every document with no error", { timeout: 600_000 }, async () => {
    const start = performance.now();
    const found: Failure[] = [];
    await pool(batches, PARALLEL, async (batch) => {
      // a document that fails is taken out and the batch generated again, so the later steps still see the others
      for (let round = 0; round < 4; round++) {
        const entries = batch.entries.filter((e) => !batch.failed.has(e.index));
        writeBatch(batch.dir, entries);
        const g = await generateStep(batch.dir, entries);
        if (g.failures.length === 0) {
          stats.warnings += g.warnings;
          return;
        }
        const named = await attribute({ ...batch, entries }, "generate", g.failures);
        found.push(...named);
        const out = named.map((f) => f.index).filter((i): i is number => i !== undefined);
        if (out.length === 0) return;
        for (const i of out) batch.failed.add(i);
      }
    });
    stats.ms.generate = performance.now() - start;
    failures.push(...found);
    if (found.length > 0) expect.fail(await report("generate", found));
  });

  it("2. tsc --strict type-checks and builds every generated package", { timeout: 600_000 }, async () => {
    const start = performance.now();
    const found: Failure[] = [];
    await pool(batches, PARALLEL, async (batch) => {
      const entries = batch.entries.filter((e) => !batch.failed.has(e.index));
      const t = await tscStep(batch.dir, entries);
      if (t.failures.length === 0) return;
      const named = await attribute({ ...batch, entries }, "tsc", t.failures);
      found.push(...named);
      for (const f of named) if (f.index !== undefined) batch.failed.add(f.index);
      // the batch again without them, built, for the import step (the bisect may have overwritten it)
      const rest = entries.filter((e) => !batch.failed.has(e.index));
      writeBatch(batch.dir, rest);
      await generateStep(batch.dir, rest);
      await tscStep(batch.dir, rest);
    });
    stats.ms.tsc = performance.now() - start;
    failures.push(...found);
    if (found.length > 0) expect.fail(await report("tsc", dedupe(found)));
  });

  it("3. every built module imports in a fresh process with no side effects, and validators accept the schemas' defaults and examples", { timeout: 600_000 }, async () => {
    const start = performance.now();
    const found: Failure[] = [];
    await pool(batches, PARALLEL, async (batch) => {
      const entries = batch.entries.filter((e) => !batch.failed.has(e.index));
      const r = await importStep(batch.dir, entries);
      stats.modules += r.modules;
      stats.checked += r.checked;
      if (r.failures.length === 0) return;
      found.push(...(await attribute({ ...batch, entries }, "import", r.failures)));
    });
    stats.ms.import = performance.now() - start;
    failures.push(...found);
    const s = (ms: number | undefined) => `${((ms ?? 0) / 1000).toFixed(1)} s`;
    console.log(
      `property test seed: ${SEED}: ${stats.documents} documents (${Object.entries(stats.kinds).map(([k, n]) => `${n} ${k}`).join(", ")}) in ${batches.length} batches; ` +
        `${stats.warnings} warnings; ${stats.modules} modules imported; ${stats.checked} defaults and examples through their validators; documents ${s(stats.ms.documents)}, generate ${s(stats.ms.generate)}, tsc ${s(stats.ms.tsc)}, import ${s(stats.ms.import)}`,
    );
    if (found.length > 0) expect.fail(await report("import", dedupe(found)));
    // the generator attaches defaults and examples only when Ajv accepts them: none at all means its oracle broke
    if (TOTAL >= 100) expect(stats.checked, "defaults and examples checked through validators").toBeGreaterThan(0);
    if (failures.length === 0) rmSync(RUN, { recursive: true, force: true });
  });
});

/** One line per document and signature: a broken name repeats in every file that uses it. */
function dedupe(list: Failure[]): Failure[] {
  const seen = new Set<string>();
  return list.filter((f) => {
    const k = `${f.index}\u0000${f.signature}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
