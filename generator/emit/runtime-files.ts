/**
 * The runtime a generated package ships. `runtime/` is in folders by concern
 * (errors/, values/, http/, jsonrpc/, ws/, mock/) and the package's
 * `src/runtime/` mirrors them, but holds only the files its own modules
 * reach: the import closure of what the emitted files import, so a package
 * of OpenAPI clients carries no JSON-RPC or WebSocket code and one without
 * mocks no mock code. Nothing here lists files per feature: the imports the
 * emitters write decide, and the runtime's own imports follow from them.
 *
 * The emitters name a runtime export, not its file (`runtimeImports`): the
 * file is the one that declares it, read from the runtime's sources, so
 * moving a declaration between runtime files needs no emitter change.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { posix } from "node:path";
import type { ImportDeclarationStructure, ImportSpecifierStructure, OptionalKind } from "ts-morph";
import { Kind } from "../structure-kind.js";
import { assetDir } from "../assets.js";

const RUNTIME_DIR = assetDir("runtime");
/** Where the runtime lands in a package, relative to its root. */
export const RUNTIME_OUT = "src/runtime";

let sources: Map<string, string> | undefined;

/** Every runtime source by its path below `runtime/` (`http/http.ts`), tests left behind. */
export function runtimeSources(): ReadonlyMap<string, string> {
  if (sources) return sources;
  sources = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(new URL(dir, RUNTIME_DIR)).sort()) {
      const rel = dir + name;
      if (statSync(new URL(rel, RUNTIME_DIR)).isDirectory()) walk(`${rel}/`);
      else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) sources!.set(rel, readFileSync(new URL(rel, RUNTIME_DIR), "utf8"));
    }
  };
  walk("");
  return sources;
}

let declaring: Map<string, string> | undefined;
const AMBIGUOUS = "";

/**
 * A top-level declaration the runtime exports. The runtime is avaspec's own
 * code, formatted by its own rules, so its export lines are read as text:
 * parsing it with TypeScript would load the compiler into every generation
 * (test/generator/runtime-files.test.ts compares this with TypeScript's reading).
 */
const EXPORTED = /^export (?:declare )?(?:abstract )?(?:async )?(?:function\*?|const|let|var|class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm;
/** `export { a, b as c };` without a module specifier: local names exported by a list. */
const EXPORT_LIST = /^export (?:type )?\{([^}]*)\};/gm;

/** The names a runtime source declares and exports (re-exports from other files aside). */
export function exportedNames(text: string): string[] {
  const names = [...text.matchAll(EXPORTED)].map((m) => m[1]!);
  for (const m of text.matchAll(EXPORT_LIST)) for (const part of m[1]!.split(",")) {
    const name = part.trim().replace(/^type /, "").split(/\s+as\s+/).pop()!.trim();
    if (name) names.push(name);
  }
  return names;
}

/** The runtime file that declares each exported name (barrels and re-exports aside). */
function declaringFiles(): ReadonlyMap<string, string> {
  if (declaring) return declaring;
  declaring = new Map();
  for (const [path, text] of runtimeSources()) {
    if (posix.basename(path) === "index.ts") continue;
    // a name two files declare (`rpcError`: the client's error, the mock's reply) cannot be imported by name alone
    for (const name of exportedNames(text)) declaring.set(name, declaring.has(name) && declaring.get(name) !== path ? AMBIGUOUS : path);
  }
  return declaring;
}

/** A runtime export to import: its name, or its name and whether only its type is used. */
export type RuntimeName = string | { name: string; isTypeOnly: boolean };

/**
 * Import declarations for runtime exports, one per declaring file, files in
 * path order and names in the order given. `from` is the importing file's
 * folder relative to `src/runtime`'s parent (`..` for `src/<module>/`).
 */
export function runtimeImports(names: readonly RuntimeName[], from = ".."): ImportDeclarationStructure[] {
  const byFile = new Map<string, (string | OptionalKind<ImportSpecifierStructure>)[]>();
  for (const n of names) {
    const name = typeof n === "string" ? n : n.name;
    const file = declaringFiles().get(name);
    if (file === undefined || file === AMBIGUOUS) throw new Error(`internal: ${file ? "more than one" : "no"} runtime file declares ${name}`);
    byFile.set(file, [...(byFile.get(file) ?? []), n]);
  }
  return [...byFile.keys()].sort().map((file) => {
    const named = byFile.get(file)!;
    const typesOnly = named.every((n) => typeof n !== "string" && n.isTypeOnly);
    const declaration: ImportDeclarationStructure = {
      kind: Kind.ImportDeclaration,
      ...(typesOnly ? { isTypeOnly: true } : {}),
      moduleSpecifier: `${from}/runtime/${file.replace(/\.ts$/, ".js")}`,
      namedImports: typesOnly ? named.map((n) => (typeof n === "string" ? n : n.name)) : named,
    };
    return declaration;
  });
}

/**
 * Module specifiers of a file's static imports and re-exports. Generated files and the runtime write each
 * `import`/`export … from` at the start of a line, and a spec string can never start a line of code (the
 * escaping choke point escapes line breaks), so the lines are read as text, without TypeScript.
 */
const MODULE_REFERENCE = /^(?:import|export)\b[^;"']*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm;

/** The package-relative paths of the runtime files a file imports directly (`src/runtime/http/http.ts`). */
export function runtimeImportsOf(path: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(MODULE_REFERENCE)) {
    const fileName = m[1] ?? m[2]!;
    if (!fileName.startsWith(".")) continue;
    const target = posix.normalize(posix.join(posix.dirname(path), fileName)).replace(/\.js$/, ".ts");
    if (target.startsWith(`${RUNTIME_OUT}/`)) found.push(target);
  }
  return found;
}

/**
 * The runtime files a package needs: every file its `files` import, and
 * theirs, to the end. An import of a runtime file that does not exist is
 * the generator's own mistake.
 */
export function runtimeClosure(files: ReadonlyMap<string, string>): Map<string, string> {
  const direct: string[] = [];
  for (const [path, text] of files) direct.push(...packageRuntimeImports(path, text));
  return runtimeClosureOf(direct);
}

/** The runtime files a package file imports directly (none for a runtime file, a non-module or another package file). */
export function packageRuntimeImports(path: string, text: string): string[] {
  return /\.(ts|js)$/.test(path) && !path.startsWith(`${RUNTIME_OUT}/`) ? runtimeImportsOf(path, text) : [];
}

/** The closure from the runtime files a package's modules import directly: a writer that streams the files keeps these paths, not the texts. */
export function runtimeClosureOf(direct: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  const todo: string[] = [...direct];
  while (todo.length > 0) {
    const path = todo.pop()!;
    if (out.has(path)) continue;
    const text = runtimeSources().get(path.slice(RUNTIME_OUT.length + 1));
    if (text === undefined) throw new Error(`internal: generated code imports ${path}, which the runtime does not have`);
    out.set(path, text);
    todo.push(...runtimeImportsOf(path, text));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The runtime folders whose public exports (their `index.ts`) the package's
 * root module re-exports: those its other modules use. A folder without an
 * `index.ts` (mock/) has no public face there; its API is the package's
 * `./mocks` and `./mock-server` entries.
 */
export function publicRuntimeFolders(closure: ReadonlyMap<string, string>): string[] {
  const folders = new Set([...closure.keys()].map((p) => posix.dirname(p.slice(RUNTIME_OUT.length + 1))));
  return [...folders].filter((f) => runtimeSources().has(`${f}/index.ts`)).sort();
}
