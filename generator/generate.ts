/**
 * The pipeline: load → validate → IR (+ passes) → emit → print. Returns the
 * files to write, or diagnostics; it never writes anything itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { StructureKind, type ExportDeclarationStructure } from "ts-morph";
import { append } from "./append.js";
import { displayPath, inputPath, specEntries, targetsOf, type InputConfig, type ResolvedConfig } from "./config.js";
import { emitClient } from "./emit/client/index.js";
import { OperationsModule } from "./emit/client/operations.js";
import { emitMockEntries, emitMocks } from "./emit/mocks/index.js";
import { emitPackageFiles, runtimeFiles, specJsonNames, type PackageInput } from "./emit/package/index.js";
import { emitTypes } from "./emit/types/index.js";
import { emitValidators, type ValidatorModule } from "./emit/validators/index.js";
import { releaseDiff } from "./diff/release.js";
import { buildOpenApiIr } from "./ir/build-openapi.js";
import { buildOpenRpcIr } from "./ir/build-openrpc.js";
import { mergeModule, type ModulePart } from "./ir/module.js";
import { settleEndpointGroups } from "./ir/endpoints.js";
import { assignNames, breakRefCycles } from "./ir/passes.js";
import { resolvePaging } from "./ir/paging.js";
import type { IrDocument } from "./ir/types.js";
import { hasErrors, sortDiagnostics, type Diagnostic } from "./load/diagnostics.js";
import { allowList, bundleExternalRefs } from "./load/bundle.js";
import { loadFile, type LoadedDocument } from "./load/load.js";
import { Printer } from "./print.js";
import { validateOpenApi } from "./validate/openapi.js";
import { validateOpenRpc } from "./validate/openrpc.js";
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

/** Front end for one spec: load, validate, build its IR. */
function buildDocument(file: string, diagnostics: Diagnostic[], allowRefs: readonly string[], sources?: Map<string, string>): { ir: IrDocument; doc: LoadedDocument } | undefined {
  const loaded = loadFile(file);
  append(diagnostics, loaded.diagnostics);
  const doc = loaded.document;
  if (!doc) return undefined;
  sources?.set(doc.file, doc.text);
  const bundled = bundleExternalRefs(doc, allowRefs);
  append(diagnostics, bundled);
  if (hasErrors(bundled)) return undefined;
  const root = doc.root as Record<string, unknown> | null;
  const isRpc = typeof root === "object" && root !== null && "openrpc" in root;
  const found = isRpc ? validateOpenRpc(doc) : validateOpenApi(doc);
  append(diagnostics, found);
  if (hasErrors(found)) return undefined;
  const irDiagnostics: Diagnostic[] = [];
  const ir = isRpc ? buildOpenRpcIr(doc, irDiagnostics) : buildOpenApiIr(doc, irDiagnostics);
  append(diagnostics, irDiagnostics);
  return hasErrors(irDiagnostics) ? undefined : { ir, doc };
}

/** Front end for one config input: every spec, merged into one named module. */
export function buildModule(config: ResolvedConfig, input: InputConfig, diagnostics: Diagnostic[], sources?: Map<string, string>): { ir: IrDocument; documents: { file: string; root: unknown }[]; versions: SpecVersion[]; locate(file: string, pointer: string): { line: number; col: number } } | undefined {
  const parts: ModulePart[] = [];
  const docs = new Map<string, LoadedDocument>();
  for (const entry of specEntries(input)) {
    const file = displayPath(inputPath(config, entry.spec));
    const built = buildDocument(file, diagnostics, allowList(input.refs?.allow ?? [], config.root), sources);
    if (!built) continue;
    docs.set(file, built.doc);
    parts.push({ ir: built.ir, group: entry.group ? entry.group.split(".") : [], splitNamespaces: entry.splitNamespaces ?? true });
  }
  if (parts.length !== specEntries(input).length) return undefined;
  const ir = mergeModule(parts, { ...(input.title ? { title: input.title } : {}), ...(input.description ? { description: input.description } : {}), ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}) });
  const naming: Diagnostic[] = [];
  const locate = (file: string, pointer: string) => docs.get(file)?.locate(pointer) ?? { line: 1, col: 1 };
  settleEndpointGroups(ir, naming, locate);
  breakRefCycles(ir, naming, locate);
  assignNames(ir, input.clientName, naming, locate);
  // after the naming pass: a paged request sets parameters by their keys
  resolvePaging(ir, naming, locate);
  append(diagnostics, naming);
  const loaded = specEntries(input).map((e) => ({ spec: e.spec, doc: docs.get(displayPath(inputPath(config, e.spec)))! }));
  return {
    ir,
    locate,
    documents: loaded.map(({ spec, doc }) => ({ file: spec, root: doc.root })),
    versions: loaded.map(({ spec, doc }) => {
      // both validators require info.title and info.version to be strings
      const info = (doc.root as { info: { title: string; version: string } }).info;
      return { document: spec, title: info.title, version: info.version, file: doc.file, locate: doc.locate };
    }),
  };
}

const reexport = (moduleSpecifier: string): ExportDeclarationStructure => ({ kind: StructureKind.ExportDeclaration, moduleSpecifier });

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
}

export function generate(config: ResolvedConfig, options: GenerateOptions = {}): GenerateResult {
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();
  const inputs: PackageInput[] = [];
  const versions: SpecVersion[] = [];
  const previous = previousLedger(config, diagnostics);
  const shippedNames = specJsonNames(config.inputs.flatMap((i) => specEntries(i).map((e) => e.spec)));
  for (const input of config.inputs) {
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
    const v = emitValidators(i.ir, { formats: config.inputs.find((c) => c.output === i.output)?.formats ?? "annotate", clientTypes: i.targets.has("client") });
    // the IR builder already reported every pattern JavaScript cannot compile
    if (v.problems.length > 0) throw new Error(`internal: validator problems the IR did not report: ${v.problems.map((p) => p.message).join("; ")}`);
    validators.set(i, v);
  }
  sortDiagnostics(diagnostics);
  if (hasErrors(diagnostics) || inputs.length !== config.inputs.length) return { files: new Map(), diagnostics, sources, irs: inputs.map((i) => i.ir) };

  const printer = new Printer();
  const files = new Map<string, string>();
  const header = (from: string) => [`Code generated by avaspec from ${from}. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`];
  for (const i of inputs) {
    const from = i.documents.map((d) => relative(config.root, inputPath(config, d.file)).split("\\").join("/")).join(", ");
    const has = (t: Parameters<typeof i.targets.has>[0]) => i.targets.has(t);
    files.set(`src/${i.output}/types.ts`, printer.print(header(from), emitTypes(i.ir)));
    if (has("validators")) {
      // JavaScript with its declarations: the package's tsc reads only the .d.ts (see emit/validators/index.ts)
      const v = validators.get(i)!;
      files.set(`src/${i.output}/validators.js`, printer.print(header(from), v.statements));
      files.set(`src/${i.output}/validators.d.ts`, printer.print(header(from), v.declarations));
      // printed: the code of every check (most of a large module's output) need not wait for the other files
      validators.set(i, { ...v, statements: [], declarations: [] });
    }
    if (has("client")) {
      const operations = new OperationsModule();
      files.set(`src/${i.output}/client.ts`, printer.print(header(from), emitClient(i.ir, validators.get(i)!, operations)));
      if (operations.descriptors.length > 0) {
        const v = validators.get(i)!;
        const fromValidators = new Set([...v.checks.values(), ...v.walkers.values()].flatMap((c: { params?: string; result?: string; forms?: string }) => [c.params, c.result, c.forms].filter((n): n is string => n !== undefined)));
        files.set(`src/${i.output}/operations.js`, printer.print(header(from), operations.js(fromValidators)));
        files.set(`src/${i.output}/operations.d.ts`, printer.print(header(from), operations.dts()));
      }
    }
    if (has("mocks")) files.set(`src/${i.output}/mocks.ts`, printer.print(header(from), emitMocks(i.ir, validators.get(i)!)));
    const index = [reexport("./types.js"), ...(has("client") ? [reexport("./client.js")] : []), ...(has("validators") ? [{ kind: StructureKind.ExportDeclaration, moduleSpecifier: "./validators.js", namedExports: validators.get(i)!.publicNames } as const] : [])];
    files.set(`src/${i.output}/index.ts`, printer.print(header(from), index));
  }
  const mocked = inputs.filter((i) => i.targets.has("mocks"));
  if (mocked.length > 0) {
    const entries = emitMockEntries(mocked);
    files.set("src/mocks/index.ts", printer.print([`Code generated by avaspec. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`], entries.mocks));
    files.set("src/mock-server/index.ts", printer.print([`Code generated by avaspec. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`], entries.server));
  }
  files.set("src/index.ts", printer.print([`Code generated by avaspec. DO NOT EDIT.`, `Regenerate with: ${config.regenerate}`], [reexport("./runtime/index.js")]));
  // the mock runtime (and its msw import) only ships with mocks
  const mockRuntime = /^src\/runtime\/(mock(-[a-z]+)?|msw|ws-server)\.ts$/;
  for (const [path, text] of runtimeFiles()) if (mocked.length > 0 || !mockRuntime.test(path)) files.set(path, text);
  const recorded = options.preview && previous ? previous : ledger;
  for (const [path, text] of emitPackageFiles(config.package, inputs, recorded)) {
    // a preview keeps the copies the previous release shipped: the next save diffs against them again
    const shipped = join(inputPath(config, config.out), path);
    files.set(path, recorded !== ledger && path.startsWith("spec/") && existsSync(shipped) ? readFileSync(shipped, "utf8") : text);
  }
  return { files, diagnostics, sources, irs: inputs.map((i) => i.ir), ...(recorded !== ledger && ledger.version !== recorded.version ? { pendingVersion: ledger.version } : {}) };
}
