/**
 * avaspec.config.json: which specs to read and where the package goes.
 * Paths are relative to the config file's folder.
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

export interface SpecEntry {
  /** Spec document (YAML or JSON): OpenAPI 3.0/3.1 or OpenRPC 1.x. */
  spec: string;
  /** Group path of its operations on the client, e.g. "index.cBlock" (default: top level). */
  group?: string;
  /** JSON-RPC: `eth_call` becomes `eth.call` (default true); false only strips the namespace. */
  splitNamespaces?: boolean;
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
}

/** Every input's specs as a list. */
export function specEntries(input: InputConfig): SpecEntry[] {
  return input.specs ?? (input.spec !== undefined ? [{ spec: input.spec }] : []);
}

export interface PackageConfig {
  name: string;
  description?: string;
  license?: string;
  devDependencies?: Record<string, string>;
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

export function loadConfig(file: string): ResolvedConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`${file}: cannot read config: ${(e as Error).message}`);
  }
  const c = raw as Partial<Config>;
  const fail = (msg: string): never => {
    throw new ConfigError(`${file}: ${msg}`);
  };
  if (typeof c !== "object" || c === null) fail("the config must be a JSON object");
  if (typeof c.out !== "string" || c.out === "") fail('"out" must name the output folder');
  if (!c.package || typeof c.package.name !== "string") fail('"package" needs a "name"');
  if ((c.package as { version?: unknown }).version !== undefined) fail('"package.version" is not set by hand: it follows the specs\' info.version (see versions.json in the output); remove it');
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
    if (seen.has(input.output)) fail(`inputs[${i}].output "${input.output}" is used twice`);
    if (input.formats !== undefined && input.formats !== "annotate" && input.formats !== "assert") fail(`inputs[${i}].formats must be "annotate" or "assert"`);
    seen.add(input.output);
  });
  return {
    out: c.out!,
    regenerate: typeof c.regenerate === "string" ? c.regenerate : "npm run generate",
    package: c.package!,
    inputs: c.inputs!,
    root: dirname(resolve(file)),
    file,
  };
}

/** A path from the config, for reading. */
export function inputPath(config: ResolvedConfig, path: string): string {
  return resolve(config.root, path);
}

/** A path for messages: relative to the working directory when inside it. */
export function displayPath(absolute: string): string {
  const rel = relative(process.cwd(), absolute);
  return rel.startsWith("..") ? absolute : rel;
}
