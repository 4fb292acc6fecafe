/**
 * The pipeline: each input's front end (front-end.ts: load → validate → IR +
 * passes) → the release (versions, diffs against the previous one) → emit →
 * print. Returns the files to write, or diagnostics; it never writes anything
 * itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ExportDeclarationStructure } from "ts-morph";
import { Kind } from "./structure-kind.js";
import { append } from "./append.js";
import { displayPath, inputPath, specEntries, targetsOf, type ResolvedConfig } from "./config.js";
import { emitClient } from "./emit/client/index.js";
import { OperationsModule } from "./emit/client/operations.js";
import { FunctionsModule } from "./emit/client/functions-js.js";
import { emitMockEntries, emitMocks } from "./emit/mocks/index.js";
import { emitPackageFiles, specJsonNames, type PackageInput } from "./emit/package/index.js";
import { emitMcpFiles } from "./emit/mcp/index.js";
import { packageRuntimeImports, publicRuntimeFolders, runtimeClosureOf } from "./emit/runtime-files.js";
import { emitTypes } from "./emit/types/index.js";
import { emitValidators, type ValidatorModule } from "./emit/validators/index.js";
import { releaseDiff } from "./diff/release.js";
import { buildModule } from "./front-end.js";
import type { IrDocument } from "./ir/types.js";
import { hasErrors, sortDiagnostics, type Diagnostic } from "./load/diagnostics.js";
import { Printer } from "./print.js";
import { LEDGER_FILE, nextLedger, parseLedger, type Ledger, type SpecVersion } from "./versions.js";

export interface GenerateResult {
  files: Map<string, string>;
  diagnostics: Diagnostic[];
  /** Source text per file, for code frames in diagnostics. */
  sources: Map<string, string>;
  irs: IrDocument[];
  /** With `preview`: the package version the next recorded generation would release, when it differs. */
  pendingVersion?: string;
}

export interface GenerateStream extends Omit<GenerateResult, "files"> {
  /** The files, each printed when the iteration reaches it (none when there are errors); iterate once. */
  files: Iterable<[string, string]>;
}

const reexport = (moduleSpecifier: string): ExportDeclarationStructure => ({ kind: Kind.ExportDeclaration, moduleSpecifier });

/** The previous output's version ledger, if there is one. */
function previousLedger(config: ResolvedConfig, diagnostics: Diagnostic[]): Ledger | undefined {
  const file = join(inputPath(config, config.out), LEDGER_FILE);
  if (!existsSync(file)) return undefined;
  const { ledger, diagnostic } = parseLedger(readFileSync(file, "utf8"), displayPath(file));
  if (diagnostic) diagnostics.push(diagnostic);
  return ledger;
}

export interface GenerateOptions {
  /** A document whose info.version moved less than its changes need is a warning, not an error. */
  lenientVersions?: boolean;
  /**
   * `--watch`: the code follows the specs, but the release is not recorded:
   * the ledger, CHANGELOG, package version and the shipped spec copies stay
   * as the previous output had them, so every save diffs against the same
   * release (and too-small versions are warnings while editing).
   */
  preview?: boolean;
  /** Told what generation is doing as it starts each step (the CLI shows it on a terminal). */
  onProgress?: (step: string) => void;
}

export function generate(config: ResolvedConfig, options: GenerateOptions = {}): GenerateResult {
  const result = generateStream(config, options);
  return { ...result, files: new Map(result.files) };
}

/**
 * Like `generate`, but each file is printed only when the iteration reaches
 * it: a writer that writes each file as it comes holds one at a time (on
 * Microsoft Graph beta, holding every printed file until the write was about
 * 0.4 GB of the generation's peak).
 */
export function generateStream(config: ResolvedConfig, options: GenerateOptions = {}): GenerateStream {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const inputs: PackageInput[] = [];
  const versions: SpecVersion[] = [];
  const previous = previousLedger(config, diagnostics);
  const shippedNames = specJsonNames(config.inputs.flatMap((i) => specEntries(i).map((e) => e.spec)));
  for (const input of config.inputs) {
    options.onProgress?.(`reading ${specEntries(input).map((e) => e.spec).join(", ")}`);
    const built = buildModule(config, input, diagnostics, sources);
    if (!built) continue;
    inputs.push({ ir: built.ir, output: input.output, documents: built.documents, targets: targetsOf(input) });
    for (const v of built.versions) {
      // a document the previous release shipped is compared with that copy
      const diff = previous?.documents[v.document] ? releaseDiff(config, input, v.document, shippedNames.get(v.document)!, built.documents.find((d) => d.file === v.document)!.root) : undefined;
      versions.push(diff ? { ...v, diff } : v);
    }
  }
  const { ledger, diagnostics: versionDiagnostics } = nextLedger(previous, versions, { lenient: (options.lenientVersions ?? false) || (options.preview ?? false) });
  append(diagnostics, versionDiagnostics);
  const validators = new Map<PackageInput, ValidatorModule>();
  for (const i of inputs) {
    options.onProgress?.(`compiling the validators of ${i.output}`);
    const v = emitValidators(i.ir, { formats: config.inputs.find((c) => c.output === i.output)?.formats ?? "annotate", clientTypes: i.targets.has("client") });
    // the IR builder already reported every pattern JavaScript cannot compile
    if (v.problems.length > 0) throw new Error(`internal: validator problems the IR did not report: ${v.problems.map((p) => p.message).join("; ")}`);
    validators.set(i, v);
  }
  sortDiagnostics(diagnostics);
  if (hasErrors(diagnostics) || inputs.length !== config.inputs.length) return { files: [], diagnostics, sources, irs: inputs.map((i) => i.ir) };

  const recorded = options.preview && previous ? previous : ledger;
  return { files: printFiles(config, inputs, validators, recorded, ledger), diagnostics, sources, irs: inputs.map((i) => i.ir), ...(recorded !== ledger && ledger.version !== recorded.version ? { pendingVersion: ledger.version } : {}) };
}

/** Each file's text, printed as the iteration asks for it; `recorded` is the ledger the package files show (the previous one in a preview). */
function* printFiles(config: ResolvedConfig, inputs: PackageInput[], validators: Map<PackageInput, ValidatorModule>, recorded: Ledger, ledger: Ledger): Generator<[string, string]> {
  const printer = new Printer();
  // the runtime the package ships is what its files reach: their direct runtime imports are kept as they pass
  const direct = new Set<string>();
  for (const [path, text] of printModules(config, inputs, validators, recorded, ledger, printer)) {
    for (const r of packageRuntimeImports(path, text)) direct.add(r);
    yield [path, text];
  }
  // the root module re-exports the public side of each runtime folder the modules use
  const reached = runtimeClosureOf(direct);
  const index = printer.print([`Code generated by avaspec. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`], publicRuntimeFolders(reached).map((f) => reexport(`./runtime/${f}/index.js`)));
  yield ["src/index.ts", index];
  for (const r of packageRuntimeImports("src/index.ts", index)) direct.add(r);
  yield* runtimeClosureOf(direct);
}

/** The package's own files (all but the root module and the runtime), printed as the iteration asks for them. */
function* printModules(config: ResolvedConfig, inputs: PackageInput[], validators: Map<PackageInput, ValidatorModule>, recorded: Ledger, ledger: Ledger, printer: Printer): Generator<[string, string]> {
  const header = (from: string) => [`Code generated by avaspec from ${from}. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`];
  for (const i of inputs) {
    const from = i.documents.map((d) => relative(config.root, inputPath(config, d.file)).split("\\").join("/")).join(", ");
    const has = (t: Parameters<typeof i.targets.has>[0]) => i.targets.has(t);
    yield [`src/${i.output}/types.ts`, printer.print(header(from), emitTypes(i.ir))];
    if (has("validators")) {
      // JavaScript with its declarations: the package's tsc reads only the .d.ts (see emit/validators/index.ts)
      const v = validators.get(i)!;
      yield [`src/${i.output}/validators.js`, printer.print(header(from), v.statements)];
      yield [`src/${i.output}/validators.d.ts`, printer.print(header(from), v.declarations)];
      // printed: the code of every check (most of a large module's output) need not wait for the other files
      validators.set(i, { ...v, statements: [], declarations: [] });
    }
    if (has("client")) {
      const operations = new OperationsModule();
      const functions = new FunctionsModule();
      yield [`src/${i.output}/client.ts`, printer.print(header(from), emitClient(i.ir, validators.get(i)!, operations, functions))];
      if (functions.any) {
        yield [`src/${i.output}/functions.js`, printer.print(header(from), functions.js())];
        yield [`src/${i.output}/functions.d.ts`, printer.print(header(from), functions.dts())];
      }
      if (operations.descriptors.length > 0) {
        const v = validators.get(i)!;
        const fromValidators = new Set([...v.checks.values(), ...v.walkers.values()].flatMap((c: { params?: string; result?: string; forms?: string }) => [c.params, c.result, c.forms].filter((n): n is string => n !== undefined)));
        yield [`src/${i.output}/operations.js`, printer.print(header(from), operations.js(fromValidators))];
        yield [`src/${i.output}/operations.d.ts`, printer.print(header(from), operations.dts())];
      }
    }
    if (has("mocks")) yield [`src/${i.output}/mocks.ts`, printer.print(header(from), emitMocks(i.ir, validators.get(i)!))];
    const index = [reexport("./types.js"), ...(has("client") ? [reexport("./client.js")] : []), ...(has("validators") ? [{ kind: Kind.ExportDeclaration, moduleSpecifier: "./validators.js", namedExports: validators.get(i)!.publicNames } as const] : [])];
    yield [`src/${i.output}/index.ts`, printer.print(header(from), index)];
  }
  const mocked = inputs.filter((i) => i.targets.has("mocks"));
  if (mocked.length > 0) {
    const entries = emitMockEntries(mocked);
    yield ["src/mocks/index.ts", printer.print([`Code generated by avaspec. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`], entries.mocks)];
    yield ["src/mock-server/index.ts", printer.print([`Code generated by avaspec. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`], entries.server)];
  }
  yield* emitMcpFiles(config.package, inputs, config.regenerate, recorded.version);
  for (const [path, text] of emitPackageFiles(config.package, inputs, recorded)) {
    // a preview keeps the copies the previous release shipped: the next save diffs against them again
    const shipped = join(inputPath(config, config.out), path);
    yield [path, recorded !== ledger && path.startsWith("spec/") && existsSync(shipped) ? readFileSync(shipped, "utf8") : text];
  }
}
