/**
 * The three checks of the property test, each on a batch of documents: the
 * real CLI generates one package from a config with one input per document;
 * the root's tsc type-checks and builds that package; a fresh Node process
 * imports every built module and watches for side effects. Failures are
 * attributed to documents (by file names in diagnostics and tsc errors, or by
 * bisecting the batch when a failure names no document).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { stringify } from "yaml";
import type { DocKind, JsonObject } from "./arbitrary.js";
import { CLI, parseDiagnostics, ROOT, runNode, TSC, type NodeRun } from "../helpers/cli.js";

const IMPORT_CHECK = join(ROOT, "test/property/import-check.mjs");

export type Step = "generate" | "tsc" | "import";
export const STEPS: Step[] = ["generate", "tsc", "import"];

export interface Entry {
  index: number;
  kind: DocKind;
  doc: JsonObject;
  /** Written as YAML (else JSON): both loaders are exercised. */
  yaml: boolean;
  /** The input's output folder, client name and targets in the config. */
  output: string;
  clientName: string;
  targets?: ("types" | "validators" | "client" | "mocks")[];
}

export interface Failure {
  step: Step;
  /** Document index, or undefined when the failure needs several documents together. */
  index: number | undefined;
  /** What went wrong, for the report. */
  message: string;
  /** What kind of failure, to tell whether a shrunk document still fails the same way. */
  signature: string;
}

export function specFile(e: Entry): string {
  return `${e.index}.${e.yaml ? "yaml" : "json"}`;
}

/** A document as YAML (no anchors: every node written out) or JSON. */
export function specText(doc: JsonObject, yaml: boolean): string {
  return yaml ? stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }) : JSON.stringify(doc, null, 1) + "\n";
}

/** Writes a batch: its documents under docs/ and a config with one input per document; returns the config path. */
export function writeBatch(dir: string, entries: Entry[]): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "docs"), { recursive: true });
  for (const e of entries) writeFileSync(join(dir, "docs", specFile(e)), specText(e.doc, e.yaml));
  const config = join(dir, "avaspec.config.json");
  const regenerate = `node bin/avaspec.mjs generate --config ${relative(ROOT, config)}`;
  writeFileSync(config, JSON.stringify({ out: "pkg", regenerate, package: { name: `property-${basename(dir)}` }, inputs: entries.map((e) => ({ spec: `docs/${specFile(e)}`, output: e.output, clientName: e.clientName, ...(e.targets ? { targets: e.targets } : {}) })) }, null, 2) + "\n");
  return config;
}

/** Replaces what varies between runs (numbers, quoted names) so signatures compare kinds of failure. */
function shape(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/'[^']*'/g, "'…'").replace(/\d+/g, "N").slice(0, 160);
}

function indexOfFile(file: string): number | undefined {
  const m = /(?:^|[\\/])(\d+)\.(?:json|yaml)$/.exec(file);
  return m ? Number(m[1]) : undefined;
}

/** Step 1: the CLI, once for the batch. */
export async function generateStep(dir: string, entries: Entry[]): Promise<{ failures: Failure[]; warnings: number; run: NodeRun }> {
  const config = join(dir, "avaspec.config.json");
  const r = await runNode([CLI, "generate", "--config", config, "--dump-ir", join(dir, "ir.json")], ROOT, 300_000);
  const found = parseDiagnostics(r.stderr);
  const errors = found.filter((d) => !d.warning);
  const failures: Failure[] = [];
  for (const e of errors) failures.push({ step: "generate", index: indexOfFile(e.file), message: e.line, signature: `diagnostic ${e.code}: ${shape(e.message)}` });
  if (r.code !== 0 && errors.length === 0) {
    const head = r.stderr.split("\n").find((l) => l.trim() !== "" && !l.startsWith("npm warn")) ?? `exit ${r.code}`;
    failures.push({ step: "generate", index: entries.length === 1 ? entries[0]!.index : undefined, message: `exit ${r.code}: ${r.stderr.slice(0, 4000)}`, signature: `exit: ${shape(head)}` });
  }
  if (r.code === 0 && errors.length > 0) failures.push({ step: "generate", index: undefined, message: "errors reported, yet exit 0", signature: "exit 0 with errors" });
  return { failures, warnings: found.length - errors.length, run: r };
}

/** Step 2: tsc --strict on the package, building dist/ as the package's own `npm run build` does. */
export async function tscStep(dir: string, entries: Entry[]): Promise<{ failures: Failure[]; run: NodeRun }> {
  const pkg = join(dir, "pkg");
  const r = await runNode([TSC, "-p", "tsconfig.json", "--pretty", "false"], pkg, 300_000);
  // the rest of `npm run build`: the validators are JavaScript modules, copied to dist/ as they are
  if (r.code === 0 && existsSync(join(pkg, "scripts/copy-js.mjs"))) await runNode([join(pkg, "scripts/copy-js.mjs")], pkg, 60_000);
  const byOutput = new Map(entries.map((e) => [e.output, e.index]));
  const failures: Failure[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = /^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$/.exec(line);
    if (!m) continue;
    const folder = /^src\/([^/]+)\//.exec(m[1]!)?.[1];
    const index = folder !== undefined && byOutput.has(folder) ? byOutput.get(folder) : entries.length === 1 ? entries[0]!.index : undefined;
    failures.push({ step: "tsc", index, message: line, signature: `${m[2]}: ${shape(m[3]!)}` });
  }
  if (r.code !== 0 && failures.length === 0) failures.push({ step: "tsc", index: entries.length === 1 ? entries[0]!.index : undefined, message: `tsc exit ${r.code}: ${(r.stdout + r.stderr).slice(0, 4000)}`, signature: `tsc exit ${r.code}` });
  return { failures, run: r };
}

export interface ImportEvent {
  /** Document index, or "package" for the package-wide entry points. */
  label: number | "package";
  what: string;
}

export interface ValidatorCheck {
  /** The validator's export in the document's validators.js. */
  validator: string;
  value: unknown;
  what: string;
}

/**
 * Per entry: the defaults and examples of its component schemas (the
 * generator attached only values Ajv accepts), each with the generated
 * validator of that schema (names from the IR dump), which must accept it.
 */
function validatorChecks(dir: string, entries: Entry[]): ValidatorCheck[][] {
  const file = join(dir, "ir.json");
  if (!existsSync(file)) return [];
  const irs = JSON.parse(readFileSync(file, "utf8")) as { schemas: { id: string; pointer: string; names: { validate: string } }[] }[];
  return entries.map((e, i) => {
    if (e.targets && !e.targets.includes("validators")) return [];
    const schemas = ((e.doc["components"] as JsonObject | undefined)?.["schemas"] ?? {}) as JsonObject;
    const out: ValidatorCheck[] = [];
    for (const s of irs[i]?.schemas ?? []) {
      if (s.pointer !== `#/components/schemas/${s.id.replace(/~/g, "~0").replace(/\//g, "~1")}` || !Object.hasOwn(schemas, s.id)) continue;
      const raw = schemas[s.id];
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) continue;
      const values: [string, unknown][] = [];
      if ("default" in raw) values.push(["default", raw["default"]]);
      if ("example" in raw) values.push(["example", raw["example"]]);
      if (Array.isArray(raw["examples"])) raw["examples"].forEach((v, k) => values.push([`examples/${k}`, v]));
      for (const [where, value] of values) out.push({ validator: s.names.validate, value, what: `#/components/schemas/${s.id}/${where}` });
    }
    return out;
  });
}

/** Step 3: a fresh Node process imports each document's built modules, then the package's entry points, and reports any side effect. */
export async function importStep(dir: string, entries: Entry[]): Promise<{ failures: Failure[]; run: NodeRun; modules: number; checked: number }> {
  const dist = join(dir, "pkg", "dist");
  const checks = validatorChecks(dir, entries);
  const list: { label: number | "package"; modules: string[]; checks?: ValidatorCheck[] }[] = entries.map((e, i) => ({
    label: e.index,
    modules: ["types", "validators", "client", "mocks", "index"].map((m) => join(dist, e.output, `${m}.js`)).filter((f) => existsSync(f)),
    checks: checks[i] ?? [],
  }));
  list.push({ label: "package", modules: ["index.js", "mocks/index.js", "mock-server/index.js"].map((m) => join(dist, m)).filter((f) => existsSync(f)) });
  const listFile = join(dir, "imports.json");
  const resultFile = join(dir, "import-results.json");
  writeFileSync(listFile, JSON.stringify(list));
  rmSync(resultFile, { force: true });
  const r = await runNode([IMPORT_CHECK, listFile, resultFile], dir, 120_000);
  const failures: Failure[] = [];
  const single = entries.length === 1 ? entries[0]!.index : undefined;
  if (!existsSync(resultFile)) {
    failures.push({ step: "import", index: single, message: `the import check did not finish (exit ${r.code}): ${(r.stdout + r.stderr).slice(0, 4000)}`, signature: "import check crashed" });
    return { failures, run: r, modules: 0, checked: 0 };
  }
  const result = JSON.parse(readFileSync(resultFile, "utf8")) as { events: ImportEvent[]; modules: number; checked: number };
  for (const e of result.events) failures.push({ step: "import", index: e.label === "package" ? single : e.label, message: e.what, signature: shape(e.what.split(":")[0]!) });
  if (r.stdout !== "" || r.stderr !== "") failures.push({ step: "import", index: single, message: `output from the import process: ${(r.stdout + r.stderr).slice(0, 2000)}`, signature: "process output" });
  if (r.code !== 0) failures.push({ step: "import", index: single, message: `the import process exited ${r.code}`, signature: `exit ${r.code}` });
  return { failures, run: r, modules: result.modules, checked: result.checked };
}

/** Runs the steps up to and including `until` on a batch; the failures of the first step that fails. */
export async function runSteps(dir: string, entries: Entry[], until: Step): Promise<Failure[]> {
  writeBatch(dir, entries);
  const g = await generateStep(dir, entries);
  if (g.failures.length > 0 || until === "generate") return g.failures;
  const t = await tscStep(dir, entries);
  if (t.failures.length > 0 || until === "tsc") return t.failures;
  return (await importStep(dir, entries)).failures;
}

/**
 * A document that fails `step` alone, found by halving a batch whose failure
 * names no document; undefined when no single document fails on its own.
 */
export async function bisect(dir: string, entries: Entry[], step: Step): Promise<{ entry: Entry; failure: Failure } | undefined> {
  let candidates = entries;
  while (candidates.length > 1) {
    const half = Math.ceil(candidates.length / 2);
    const parts = [candidates.slice(0, half), candidates.slice(half)];
    let next: Entry[] | undefined;
    for (const part of parts) {
      const failures = await runSteps(dir, part, step);
      if (failures.some((f) => f.step === step)) {
        next = part;
        break;
      }
    }
    if (!next) return undefined;
    candidates = next;
  }
  const only = candidates[0];
  if (!only) return undefined;
  const failure = (await runSteps(dir, [only], step)).find((f) => f.step === step);
  return failure ? { entry: only, failure: { ...failure, index: only.index } } : undefined;
}
