/**
 * The front end for one config input: load, validate and build the IR of each
 * of its specs, merge them into one named module and run the passes over it.
 * `generate` runs it for every input; `avaspec diff` and the version ledger
 * run it for one side of a comparison (diff/side.ts), so a document compared
 * with its release is read exactly as a generation reads it. It sits below
 * both (docs/adr/0018-generator-layers.md).
 */
import { append } from "./append.js";
import { displayPath, inputPath, specEntries, type InputConfig, type ResolvedConfig } from "./config.js";
import { buildOpenApiIr } from "./ir/build-openapi.js";
import { buildOpenRpcIr } from "./ir/build-openrpc.js";
import { settleEndpointGroups } from "./ir/endpoints.js";
import { mergeModule, type ModulePart } from "./ir/module.js";
import { resolvePaging } from "./ir/paging.js";
import { assignNames, breakRefCycles } from "./ir/passes.js";
import type { IrDocument } from "./ir/types.js";
import { allowList, bundleExternalRefs } from "./load/bundle.js";
import { hasErrors, type Diagnostic } from "./load/diagnostics.js";
import { loadFile, type LoadedDocument } from "./load/load.js";
import { convertSwagger2, isSwagger2, restorePointers } from "./load/swagger2.js";
import { validateOpenApi } from "./validate/openapi.js";
import { validateOpenRpc } from "./validate/openrpc.js";
import type { SpecVersion } from "./versions.js";

/** Front end for one spec: load, validate, build its IR. */
function buildDocument(file: string, diagnostics: Diagnostic[], allowRefs: readonly string[], sources?: Map<string, string>): { ir: IrDocument; doc: LoadedDocument } | undefined {
  const loaded = loadFile(file);
  append(diagnostics, loaded.diagnostics);
  let doc = loaded.document;
  if (!doc) return undefined;
  sources?.set(doc.file, doc.text);
  const bundled = bundleExternalRefs(doc, allowRefs);
  append(diagnostics, bundled);
  if (hasErrors(bundled)) return undefined;
  if (isSwagger2(doc.root)) {
    const converted = convertSwagger2(doc);
    append(diagnostics, converted.diagnostics);
    if (!converted.document) return undefined;
    doc = converted.document;
  }
  const root = doc.root as Record<string, unknown> | null;
  const isRpc = typeof root === "object" && root !== null && "openrpc" in root;
  const found = restorePointers(doc, isRpc ? validateOpenRpc(doc) : validateOpenApi(doc));
  append(diagnostics, found);
  if (hasErrors(found)) return undefined;
  const irDiagnostics: Diagnostic[] = [];
  const ir = isRpc ? buildOpenRpcIr(doc, irDiagnostics) : buildOpenApiIr(doc, irDiagnostics);
  append(diagnostics, restorePointers(doc, irDiagnostics));
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
  for (const d of docs.values()) restorePointers(d, naming);
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
