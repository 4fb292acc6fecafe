/**
 * npm run bench:tasks — the same three tasks on an ordinary shop API
 * (test/fixtures/shop-31/spec.yaml), written with avaspec and with three
 * peers, and how much code each takes:
 *   1. listAllOrders(baseUrl): every order of every page (`cursor` / `nextCursor`);
 *   2. orderTitleOr404(baseUrl, id): the order, or on a 404 the problem's `title`
 *      read from the typed error body;
 *   3. createOrderLocation(baseUrl, body): the 201's `Location` with the created order.
 * The peers' generators run for real on the spec into bench/tasks/.out
 * (git-ignored): @hey-api/openapi-ts (its fetch client), orval (its fetch
 * client) and openapi-typescript (types for openapi-fetch). avaspec's client
 * is the committed golden of the fixture (test/fixtures/shop-31/golden/src/shop),
 * which the bench first has the CLI check against the spec (`generate --check`).
 * The task files (bench/tasks/<tool>.ts) are committed, written the way each
 * tool's documentation shows, formatted by prettier with one configuration
 * (checked here). Each is type-checked alone with tsc --strict against its
 * tool's output and a shared signature, then run against a loopback shop
 * server (bench/tasks/shop-server.ts) and its results checked; only then is
 * it measured (bench/tasks/count.ts): non-blank, non-comment lines and tokens
 * per function, with the ratio to avaspec. Peers are installed in bench/tasks
 * (its own package.json and lockfile), never in the main package. Exits 1
 * when a tool fails to generate, format-check, type-check or answer right.
 * Results: .tmp/bench-tasks.json.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { loadTypeScript, measureFile, type FileMeasure } from "./tasks/count.ts";
import { EXPECTED, startShopServer } from "./tasks/shop-server.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIR = join(ROOT, "bench/tasks");
const OUT = join(DIR, ".out");
const SPEC = join(ROOT, "test/fixtures/shop-31/spec.yaml");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const TASKS = ["listAllOrders", "orderTitleOr404", "createOrderLocation"] as const;

if (!existsSync(join(DIR, "node_modules"))) {
  console.log("bench/tasks/node_modules is missing: npm ci --prefix bench/tasks");
  const r = spawnSync("npm", ["ci", "--prefix", "bench/tasks", "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm ci --prefix bench/tasks failed");
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;
const versionOf = (name: string) => readJson<{ version: string }>(join(DIR, "node_modules", name, "package.json")).version;
const bin = (pkg: string, name: string) => {
  const field = readJson<{ bin: string | Record<string, string> }>(join(DIR, "node_modules", pkg, "package.json")).bin;
  return join(DIR, "node_modules", pkg, typeof field === "string" ? field : field[name]!);
};

interface Tool {
  name: string;
  /** What made its client, with versions. */
  made: string;
  /** Runs its generator: each step a node process (argv after node) in its folder. */
  generate: { argv: string[]; cwd: string }[];
  /** Files the user writes besides the task file (counted as setup). */
  extra?: string[];
  /** Its generated output, for scale. */
  output: string;
}

const avaspecVersion = readJson<{ version: string }>(join(ROOT, "package.json")).version;
const TOOLS: Tool[] = [
  {
    name: "avaspec",
    made: `avaspec ${avaspecVersion} (the fixture's golden, checked by generate --check)`,
    // the task imports the committed golden; the CLI confirms it is what the generator makes of the spec today
    generate: [
      { argv: [join(ROOT, "scripts/build.mjs")], cwd: ROOT },
      { argv: [join(ROOT, "bin/avaspec.mjs"), "generate", "--config", "test/fixtures/shop-31/avaspec.config.json", "--check"], cwd: ROOT },
    ],
    output: join(ROOT, "test/fixtures/shop-31/golden/src"),
  },
  {
    name: "hey-api",
    made: `@hey-api/openapi-ts ${versionOf("@hey-api/openapi-ts")} (@hey-api/client-fetch)`,
    generate: [{ argv: [bin("@hey-api/openapi-ts", "openapi-ts"), "-i", SPEC, "-o", join(OUT, "hey-api"), "-c", "@hey-api/client-fetch", "--no-log-file", "--silent"], cwd: DIR }],
    output: join(OUT, "hey-api"),
  },
  {
    name: "orval",
    made: `orval ${versionOf("orval")} (client: fetch)`,
    generate: [{ argv: [bin("orval", "orval"), "--config", join(DIR, "orval.config.mjs")], cwd: DIR }],
    extra: ["orval-env.ts"],
    output: join(OUT, "orval"),
  },
  {
    name: "openapi-fetch",
    made: `openapi-typescript ${versionOf("openapi-typescript")} + openapi-fetch ${versionOf("openapi-fetch")}`,
    generate: [{ argv: [bin("openapi-typescript", "openapi-typescript"), SPEC, "-o", join(OUT, "openapi-fetch/schema.d.ts")], cwd: DIR }],
    output: join(OUT, "openapi-fetch"),
  },
];

/** The signature every task file must have, in the tool's own types; checked with each file. */
const SIGNATURE = `// Written by bench/tasks.ts: the signature every task file must match.
interface ShopOrder { id: string; sku: string; quantity: number; status: "placed" | "shipped" | "cancelled" }
interface ShopTasks {
  listAllOrders(baseUrl: string): Promise<ShopOrder[]>;
  orderTitleOr404(baseUrl: string, id: string): Promise<ShopOrder | string>;
  createOrderLocation(baseUrl: string, body: { sku: string; quantity: number }): Promise<{ location: string | null; order: ShopOrder }>;
}
`;

/** What the numbers do not say; each is visible in the task files or the tools' generated types. */
const NOTES = [
  "avaspec: the only client here that pages (`.iterate()`); the peers loop on `nextCursor` by hand (hey-api and orval page only in their TanStack Query plugins' infinite queries, which a fetch client leaves out). Its 404 needs a try/catch, and `error.body` is `Problem | undefined` (an empty or non-JSON body), hence the `&& error.body`.",
  "hey-api: `error` is the union of the declared error bodies (404 and `default`, both Problem here), not narrowed by `response.status`; `response` is typed possibly undefined; `throwOnError: true` throws the parsed body, not an Error.",
  "orval: the result is a union discriminated by `status`, so `res.status === 404` narrows `res.data` to the 404's body. Its fetch client takes no base URL per call: the generated URLs read `env.shopBaseUrl` (orval-env.ts, counted in setup; `baseUrl.runtime` in orval.config.mjs), a module-level value every call shares.",
  "openapi-fetch: `error` is the union of the declared error bodies and `response.status` a number, so the 404 check does not narrow the type (both bodies are Problem here); the runtime is the openapi-fetch library, not generated, so its files are not in the count above.",
];

interface Result {
  tool: string;
  made: string;
  failed?: string;
  generated?: { files: number; lines: number };
  measure?: FileMeasure;
}

const failures: string[] = [];
const fail = (r: Result, stage: string, why: string) => {
  r.failed = `${stage}: ${why.trim().split("\n").slice(0, 20).join("\n")}`;
  failures.push(`${r.tool}: ${r.failed}`);
};

function run(argv: string[], cwd: string): { ok: boolean; output: string } {
  const r = spawnSync(process.execPath, argv, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

/** Type-checks the task file with its tool's output and the shared signature; answers the project files tsc read (outside node_modules). */
function typeCheck(tool: string): { ok: boolean; output: string; files: string[] } {
  const check = join(OUT, `check-${tool}.ts`);
  writeFileSync(check, `${SIGNATURE}import * as tasks from "../${tool}.js";\nexport const checked: ShopTasks = tasks;\n`);
  const flags = ["--ignoreConfig", "--noEmit", "--strict", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--lib", "ES2022,DOM", "--types", "node", "--skipLibCheck"];
  const r = run([TSC, ...flags, "--listFiles", check], ROOT);
  const files = r.output.split("\n").filter((l) => l.startsWith("/") && !l.includes("/node_modules/"));
  return { ok: r.ok, output: r.output.split("\n").filter((l) => !l.startsWith("/")).join("\n"), files };
}

async function runTasks(tool: string): Promise<string | undefined> {
  const tasks = (await import(pathToFileURL(join(DIR, `${tool}.ts`)).href)) as Record<(typeof TASKS)[number], (...args: unknown[]) => Promise<unknown>>;
  const server = await startShopServer();
  const wrong: string[] = [];
  const expect = (what: string, got: unknown, want: unknown) => {
    if (!isDeepStrictEqual(got, want)) wrong.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  try {
    expect("listAllOrders", await tasks.listAllOrders(server.baseUrl), EXPECTED.allOrders);
    expect("listAllOrders requests", server.requests.length, EXPECTED.listRequests);
    expect(`orderTitleOr404(${EXPECTED.existing.id})`, await tasks.orderTitleOr404(server.baseUrl, EXPECTED.existing.id), EXPECTED.existing.order);
    expect(`orderTitleOr404(${EXPECTED.missing.id})`, await tasks.orderTitleOr404(server.baseUrl, EXPECTED.missing.id), EXPECTED.missing.title);
    expect("createOrderLocation", await tasks.createOrderLocation(server.baseUrl, EXPECTED.created.body), { location: EXPECTED.created.location, order: EXPECTED.created.order });
  } catch (error) {
    wrong.push(`threw ${error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error)}`);
  } finally {
    await server.close();
  }
  return wrong.length ? `${wrong.join("; ")} (requests: ${server.requests.join(", ")})` : undefined;
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const ts = loadTypeScript(DIR);
const prettier = bin("prettier", "prettier");
const results: Result[] = [];
for (const tool of TOOLS) {
  const r: Result = { tool: tool.name, made: tool.made };
  results.push(r);
  let generated = true;
  for (const step of tool.generate) {
    const g = run(step.argv, step.cwd);
    if (!g.ok) {
      fail(r, "generate", g.output);
      generated = false;
      break;
    }
  }
  if (!generated) continue;
  const files = [`${tool.name}.ts`, ...(tool.extra ?? []).filter((f) => f.endsWith(".ts"))];
  const format = run([prettier, "--check", ...files], DIR);
  if (!format.ok) {
    fail(r, "prettier --check (one format for every task file; run prettier --write in bench/tasks)", format.output);
    continue;
  }
  const checked = typeCheck(tool.name);
  if (!checked.ok) {
    fail(r, "tsc --strict", checked.output);
    continue;
  }
  const generatedFiles = checked.files.filter((f) => f.startsWith(`${tool.output}/`));
  r.generated = { files: generatedFiles.length, lines: generatedFiles.reduce((n, f) => n + readFileSync(f, "utf8").split("\n").filter((l) => l.trim()).length, 0) };
  const wrong = await runTasks(tool.name);
  if (wrong) {
    fail(r, "run against the loopback shop", wrong);
    continue;
  }
  const text = readFileSync(join(DIR, `${tool.name}.ts`), "utf8");
  const extra = (tool.extra ?? []).map((f) => ({ file: f, text: readFileSync(join(DIR, f), "utf8") }));
  r.measure = measureFile(ts, `${tool.name}.ts`, text, TASKS, extra);
}

// the table: per task, lines and tokens of each tool with the ratio to avaspec
const ref = results.find((r) => r.tool === "avaspec")?.measure;
const rowsOf = (pick: (m: FileMeasure) => { lines: number; tokens: number }) =>
  results.map((r) => {
    if (!r.measure) return "failed";
    const m = pick(r.measure);
    if (r.tool === "avaspec" || !ref) return `${m.lines} / ${m.tokens}`;
    const base = pick(ref);
    return `${m.lines} / ${m.tokens} (${(m.lines / base.lines).toFixed(2)}× / ${(m.tokens / base.tokens).toFixed(2)}×)`;
  });
const table: string[][] = [
  ["task: lines / tokens (× avaspec)", ...results.map((r) => r.tool)],
  ...TASKS.map((t) => [t, ...rowsOf((m) => m.functions[t]!)]),
  ["setup (imports, types, helpers)", ...rowsOf((m) => m.setup)],
  ["total", ...rowsOf((m) => m.total)],
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
const line = (row: string[]) => row.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();

console.log(`node ${process.version}, TypeScript ${ts.version} scanner; lines: non-blank, non-comment; prettier ${versionOf("prettier")} (printWidth 140) on every task file`);
for (const r of results) console.log(`${r.tool.padEnd(13)} ${r.made}${r.generated ? `; its task reaches ${r.generated.files} generated files, ${r.generated.lines} non-blank lines` : ""}`);
console.log("");
console.log(line(table[0]!));
for (const row of table.slice(1)) console.log(line(row));
const casts = results.flatMap((r) => r.measure?.casts ?? []);
console.log(`\ncasts and any in the task files: ${casts.length ? casts.join(", ") : "none"}`);
console.log("notes (what the task files show; see each file):");
for (const note of NOTES) console.log(`- ${note}`);
const engines = ["@hey-api/openapi-ts", "orval", "openapi-typescript", "openapi-fetch"].flatMap((name) => {
  const node = readJson<{ engines?: { node?: string } }>(join(DIR, "node_modules", name, "package.json")).engines?.node;
  return node ? [`${name} ${node}`] : [];
});
if (engines.length) console.log(`- engines declared: ${engines.join(", ")}; this run: node ${process.version}`);

mkdirSync(join(ROOT, ".tmp"), { recursive: true });
const out = join(ROOT, ".tmp/bench-tasks.json");
const versions = Object.fromEntries(Object.keys(readJson<{ devDependencies: Record<string, string> }>(join(DIR, "package.json")).devDependencies).map((name) => [name, versionOf(name)]));
writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, avaspec: avaspecVersion, versions, tasks: TASKS, results, notes: NOTES }, null, 2) + "\n");
console.log(`results: ${relative(ROOT, out)}`);
if (failures.length) {
  console.error(`\n${failures.length} tool(s) failed:\n${failures.join("\n")}`);
  process.exit(1);
}
