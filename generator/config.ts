/**
 * avaspec.config.(ts|json): which specs to read and where the package goes.
 * Paths are relative to the config file's folder. A TypeScript or JavaScript
 * config default-exports the same object (`defineConfig` types it).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { pascalCase } from "./ir/naming.js";

/** What an input emits; each needs the ones before it (a client's param checks are validators, mocks serve a client's descriptors). */
export const TARGETS = ["types", "validators", "client", "mocks"] as const;
export type Target = (typeof TARGETS)[number];

export interface SpecEntry {
  /** Spec document (YAML or JSON): OpenAPI 3.0/3.1/3.2 or OpenRPC 1.x. */
  spec: string;
  /** Group path of its operations on the client, e.g. "index.cBlock" (default: top level). */
  group?: string;
  /** JSON-RPC: `eth_call` becomes `eth.call` (default true); false only strips the namespace. */
  splitNamespaces?: boolean;
  /** Overlay documents (OpenAPI Overlay 1.0) applied to this spec, in order, before it is validated. */
  overlays?: string[];
}

export interface InputConfig {
  /** One spec document… */
  spec?: string;
  /** …or several, merged into one client. */
  specs?: SpecEntry[];
  /** Folder under src/ and the package's export subpath, e.g. "data-api". */
  output: string;
  /** Client name; `DataApi` gives `createDataApiClient`. */
  clientName: string;
  /** Client title and description (default: the first spec's). */
  title?: string;
  description?: string;
  /** Default base URL (default: the first spec's first server). */
  baseUrl?: string;
  /** `format` in validators: "annotate" (default, as JSON Schema 2020-12 says) or "assert" the common formats. */
  formats?: "annotate" | "assert";
  /** What to emit (default all): "types", "validators", "client", "mocks"; each needs the ones before it. */
  targets?: Target[];
  /** External `$ref`s are refused unless their target starts with one of these: a folder (relative to the config) or a URL prefix. */
  refs?: { allow?: string[] };
  /** With `spec`: overlay documents (OpenAPI Overlay 1.0) applied to it in order before it is validated (with `specs`, each entry has its own). */
  overlays?: string[];
  /** Operations to keep (default all) and to leave out: `tag:orders`, `path:/v1/chains/**`, `op:getOrder`, `method:eth_*` (globs). */
  include?: string[];
  exclude?: string[];
}

/** An input's targets, defaults applied. */
export function targetsOf(input: InputConfig): ReadonlySet<Target> {
  return new Set(input.targets ?? TARGETS);
}

/** Types a TypeScript config: `export default defineConfig({ … })`. */
export function defineConfig(config: Config): Config {
  return config;
}

/** Every input's specs as a list. */
export function specEntries(input: InputConfig): SpecEntry[] {
  return input.specs ?? (input.spec !== undefined ? [{ spec: input.spec, ...(input.overlays ? { overlays: input.overlays } : {}) }] : []);
}

export interface PackageConfig {
  name: string;
  description?: string;
  license?: string;
  devDependencies?: Record<string, string>;
  /** Copied into package.json as they are: what a registry page shows and `npm publish --provenance` checks (`repository`). */
  repository?: string | { type: string; url: string; directory?: string };
  homepage?: string;
  bugs?: string | { url?: string; email?: string };
  keywords?: string[];
  /** The MCP server entry `<package>/mcp` and its command (default true; it needs a client). */
  mcp?: boolean;
}

export interface Config {
  /** Output folder of the generated package. */
  out: string;
  /** The command printed in every generated file's header. */
  regenerate: string;
  package: PackageConfig;
  inputs: InputConfig[];
}

export interface ResolvedConfig extends Config {
  /** Folder of the config file; every path is relative to it. */
  root: string;
  /** Display path of the config file. */
  file: string;
}

export class ConfigError extends Error {}

const SUBPATH = /^[a-z0-9][a-z0-9._-]*$/;
/** Folders of the package that an input's output would collide with. */
const RESERVED_OUTPUTS = ["spec", "mocks", "mock-server", "mcp", "runtime", "dist", "node_modules"];

/** The config files looked for, in order, when none is named. */
export const DEFAULT_CONFIGS = ["avaspec.config.ts", "avaspec.config.mts", "avaspec.config.js", "avaspec.config.mjs", "avaspec.config.json"];

/** The config named, or the first default one in `cwd`. */
export function findConfig(named: string | undefined, cwd = process.cwd()): string {
  if (named !== undefined) return named;
  return DEFAULT_CONFIGS.find((f) => existsSync(resolve(cwd, f))) ?? "avaspec.config.json";
}

/** Reads a JSON config (synchronously). */
export function loadConfig(file: string): ResolvedConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read config: ${(e as Error).message}`);
  }
  return resolveConfig(raw, file);
}

/** Reads a config of any kind: JSON, or a module whose default export is the config. */
export async function loadConfigFile(file: string): Promise<ResolvedConfig> {
  if (extname(file) === ".json") return loadConfig(file);
  if (!existsSync(file)) throw new ConfigError(`${file}: cannot read config: no such file`);
  let mod: { default?: unknown };
  try {
    mod = /\.(ts|mts|cts)$/.test(file) ? await importTypeScript(resolve(file)) : ((await import(pathToFileURL(resolve(file)).href)) as { default?: unknown });
  } catch (e) {
    throw new ConfigError(`${file}: cannot load config: ${(e as Error).message}`);
  }
  if (mod.default === undefined) throw new ConfigError(`${file}: the config module must default-export the config`);
  return resolveConfig(mod.default, file);
}

/**
 * A TypeScript config, without a TypeScript loader: its types are stripped by
 * the compiler ts-morph ships, and the JavaScript is imported from a file
 * beside it (so its imports, `avaspec` included, resolve from the project, as
 * Vite does with vite.config.ts), removed right after.
 */
async function importTypeScript(file: string): Promise<{ default?: unknown }> {
  const { ts } = await import("ts-morph");
  const source = readFileSync(file, "utf8");
  const out = ts.transpileModule(source, { fileName: file, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false } });
  const problem = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (problem) {
    const at = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start) : undefined;
    throw new Error(`${at ? `${at.line + 1}:${at.character + 1}: ` : ""}${ts.flattenDiagnosticMessageText(problem.messageText, " ")}`);
  }
  const compiled = join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString("hex")}.mjs`);
  writeFileSync(compiled, out.outputText, { flag: "wx" });
  try {
    return (await import(pathToFileURL(compiled).href)) as { default?: unknown };
  } finally {
    rmSync(compiled, { force: true });
  }
}

/** A config for one spec, from the command line: `generate --input <file> --out <dir>`. */
export function oneOffConfig(input: string, out: string, options: { name?: string; clientName?: string; targets?: string; allowRefs?: string[] } & Selected = {}): ResolvedConfig {
  const stem = basename(input, extname(input)).replace(/\.(openapi|openrpc|swagger)$/i, "");
  const derived = stem.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[^a-z0-9]+/, "");
  const output = derived === "" || RESERVED_OUTPUTS.includes(derived) ? "api" : derived;
  // the config allows ASCII letters and digits only
  const clientName = options.clientName ?? (pascalCase(output).replace(/[^A-Za-z0-9]/g, "").replace(/^[0-9]+/, "") || "Api");
  const raw = {
    out: relative(process.cwd(), resolve(out)) || ".",
    regenerate: `avaspec generate --input ${input} --out ${out}`,
    package: { name: options.name ?? basename(resolve(out)).toLowerCase().replace(/[^a-z0-9._-]+/g, "-") },
    inputs: [{ spec: relative(process.cwd(), resolve(input)), output, clientName, ...(options.targets ? { targets: options.targets.split(",").map((t) => t.trim()) } : {}), ...(options.allowRefs?.length ? { refs: { allow: options.allowRefs } } : {}), ...selected(options) }],
  };
  return resolveConfig(raw, "(command line)", process.cwd());
}

/** Overlays and filters of a one-off input (the command line's --overlay, --include, --exclude). */
export interface Selected {
  overlays?: string[];
  include?: string[];
  exclude?: string[];
}

function selected(options: Selected): Selected {
  return {
    ...(options.overlays?.length ? { overlays: options.overlays.map((o) => relative(process.cwd(), resolve(o))) } : {}),
    ...(options.include?.length ? { include: options.include } : {}),
    ...(options.exclude?.length ? { exclude: options.exclude } : {}),
  };
}

/** Checks a parsed config and settles its paths. */
export function resolveConfig(raw: unknown, file: string, root = dirname(resolve(file))): ResolvedConfig {
  const c = raw as Partial<Config>;
  const fail = (msg: string): never => {
    throw new ConfigError(`${file}: ${msg}`);
  };
  if (typeof c !== "object" || c === null) fail("the config must be a JSON object");
  if (typeof c.out !== "string" || c.out === "") fail('"out" must name the output folder');
  if (!c.package || typeof c.package.name !== "string") fail('"package" needs a "name"');
  const meta = c.package as unknown as Record<string, unknown>;
  const isUrlObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
  if (meta["repository"] !== undefined && typeof meta["repository"] !== "string" && !(isUrlObject(meta["repository"]) && typeof (meta["repository"] as { url?: unknown }).url === "string")) fail('"package.repository" must be a URL or { "type": "git", "url": … }');
  if (meta["homepage"] !== undefined && typeof meta["homepage"] !== "string") fail('"package.homepage" must be a URL');
  if (meta["bugs"] !== undefined && typeof meta["bugs"] !== "string" && !isUrlObject(meta["bugs"])) fail('"package.bugs" must be a URL or { "url", "email" }');
  if (meta["keywords"] !== undefined && !(Array.isArray(meta["keywords"]) && meta["keywords"].every((k) => typeof k === "string"))) fail('"package.keywords" must be a list of strings');
  if ((c.package as { version?: unknown }).version !== undefined) fail('"package.version" is not set by hand: it follows the specs\' info.version (see versions.json in the output); remove it');
  if (c.package!.mcp !== undefined && typeof c.package!.mcp !== "boolean") fail('"package.mcp" must be true or false (whether the package gets its MCP server entry, <package>/mcp)');
  if (!Array.isArray(c.inputs) || c.inputs.length === 0) fail('"inputs" must list at least one spec');
  const seen = new Set<string>();
  c.inputs!.forEach((input, i) => {
    if (typeof input?.spec !== "string" && !(Array.isArray(input?.specs) && input.specs.length > 0)) fail(`inputs[${i}] needs "spec" (a path) or "specs" (a list)`);
    (input.specs ?? []).forEach((e, j) => {
      if (typeof e?.spec !== "string") fail(`inputs[${i}].specs[${j}].spec must be a path`);
      if (e.group !== undefined && !/^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/.test(e.group)) fail(`inputs[${i}].specs[${j}].group must be a dotted path of identifiers, like "index.cBlock"`);
    });
    if (typeof input.output !== "string" || !SUBPATH.test(input.output)) fail(`inputs[${i}].output must be a lowercase subpath like "data-api"`);
    if (typeof input.clientName !== "string" || !/^[A-Za-z][A-Za-z0-9]*$/.test(input.clientName)) fail(`inputs[${i}].clientName must be alphanumeric, like "DataApi"`);
    if (RESERVED_OUTPUTS.includes(input.output)) fail(`inputs[${i}].output "${input.output}" is a folder of the package itself; pick another`);
    if (seen.has(input.output)) fail(`inputs[${i}].output "${input.output}" is used twice`);
    if (input.formats !== undefined && input.formats !== "annotate" && input.formats !== "assert") fail(`inputs[${i}].formats must be "annotate" or "assert"`);
    if (input.refs !== undefined && (typeof input.refs !== "object" || input.refs === null || (input.refs.allow !== undefined && !(Array.isArray(input.refs.allow) && input.refs.allow.every((a) => typeof a === "string" && a !== ""))))) {
      fail(`inputs[${i}].refs must be { "allow": ["./shared/", "https://schemas.example.com/"] }`);
    }
    if (input.targets !== undefined) {
      if (!Array.isArray(input.targets) || input.targets.length === 0) fail(`inputs[${i}].targets must list at least one of ${TARGETS.join(", ")}`);
      for (const t of input.targets) if (!TARGETS.includes(t)) fail(`inputs[${i}].targets: unknown target ${JSON.stringify(t)}; known: ${TARGETS.join(", ")}`);
      const wanted = new Set(input.targets);
      for (const t of input.targets) {
        const needs = TARGETS.slice(0, TARGETS.indexOf(t)).filter((n) => !wanted.has(n));
        if (needs.length > 0) fail(`inputs[${i}].targets: "${t}" needs ${needs.map((n) => `"${n}"`).join(" and ")} too`);
      }
    }
    checkSelection(input, `inputs[${i}]`, fail);
    seen.add(input.output);
  });
  return {
    out: c.out!,
    regenerate: typeof c.regenerate === "string" ? c.regenerate : "npm run generate",
    package: c.package!,
    inputs: c.inputs!,
    root,
    file,
  };
}

const FILTER = /^(tag|path|op|method):.+$/;

/** `overlays` (per spec), `include` and `exclude` of an input. */
function checkSelection(input: InputConfig, at: string, fail: (msg: string) => never): void {
  const paths = (v: unknown) => Array.isArray(v) && v.every((p) => typeof p === "string" && p !== "");
  if (input.overlays !== undefined && !paths(input.overlays)) fail(`${at}.overlays must be a list of overlay files`);
  if (input.overlays !== undefined && input.specs !== undefined) fail(`${at}.overlays goes with "spec"; with "specs", give each entry its own overlays`);
  (input.specs ?? []).forEach((e, j) => {
    if (e.overlays !== undefined && !paths(e.overlays)) fail(`${at}.specs[${j}].overlays must be a list of overlay files`);
  });
  for (const list of ["include", "exclude"] as const) {
    const v = input[list];
    if (v === undefined) continue;
    if (!Array.isArray(v)) fail(`${at}.${list} must be a list of filters like "tag:orders"`);
    for (const f of v) if (typeof f !== "string" || !FILTER.test(f)) fail(`${at}.${list}: ${JSON.stringify(f)} is not a filter; write tag:<tag>, path:<glob>, op:<operationId or method>, or method:<glob>`);
  }
}

/** A path from the config, for reading. */
export function inputPath(config: ResolvedConfig, path: string): string {
  return resolve(config.root, path);
}

/** A path for messages: relative to the working directory when inside it. */
export function displayPath(absolute: string): string {
  const rel = relative(process.cwd(), absolute);
  // the working directory itself is "." (an empty name would print as ":1:1")
  return rel.startsWith("..") ? absolute : rel === "" ? "." : rel;
}
