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
import { applyOverlays, patchable, type PatchedDocument } from "./load/overlay.js";
import { selectionOf, selectOperations, unmatchedFilters, type Selection } from "./ir/select.js";
import { convertSwagger2, isSwagger2, restorePointers } from "./load/swagger2.js";
import { validateOpenApi } from "./validate/openapi.js";
import { validateOpenRpc } from "./validate/openrpc.js";
import type { SpecVersion } from "./versions.js";

/** What a config input changes in its specs: overlays (per spec) and the operations it keeps. */
interface Patch {
  overlays: readonly string[];
  selection: Selection | undefined;
}

/** Front end for one spec: load, patch, validate, build its IR. */
function buildDocument(file: string, diagnostics: Diagnostic[], allowRefs: readonly string[], sources?: Map<string, string>, patch: Patch = { overlays: [], selection: undefined }): { ir: IrDocument; doc: LoadedDocument; remap?: PatchedDocument["remap"] } | undefined {
  const loaded = loadFile(file);
  append(diagnostics, loaded.diagnostics);
  const spec = loaded.document;
  if (!spec) return undefined;
  sources?.set(spec.file, spec.text);
  // overlays and filters change the document in place; its diagnostics keep pointing into the files people wrote
  const patched = patch.overlays.length > 0 || patch.selection ? patchable(spec) : undefined;
  const start = diagnostics.length;
  const doc = patched?.doc ?? spec;
  const built = patched && !applyOverlays(patched, patch.overlays, diagnostics, sources) ? undefined : buildLoaded(doc, diagnostics, allowRefs, patch.selection);
  patched?.remap(diagnostics, start);
  return built && { ...built, ...(patched ? { remap: patched.remap } : {}) };
}

/** Bundle, convert (Swagger 2.0), validate, filter and build the IR of a loaded document; `doc` is the document the IR was built from. */
function buildLoaded(loaded: LoadedDocument, diagnostics: Diagnostic[], allowRefs: readonly string[], selection: Selection | undefined): { ir: IrDocument; doc: LoadedDocument } | undefined {
  let doc = loaded;
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
  // after validation (the document as published, overlays applied, is checked whole), before the IR: what is cut leaves nothing behind
  if (selection) selectOperations(doc, selection);
  const irDiagnostics: Diagnostic[] = [];
  const ir = isRpc ? buildOpenRpcIr(doc, irDiagnostics) : buildOpenApiIr(doc, irDiagnostics);
  append(diagnostics, restorePointers(doc, irDiagnostics));
  return hasErrors(irDiagnostics) ? undefined : { ir, doc };
}

/** Front end for one config input: every spec, merged into one named module. */
export function buildModule(config: ResolvedConfig, input: InputConfig, diagnostics: Diagnostic[], sources?: Map<string, string>): { ir: IrDocument; documents: { file: string; root: unknown }[]; versions: SpecVersion[]; locate(file: string, pointer: string): { line: number; col: number } } | undefined {
  const parts: ModulePart[] = [];
  const docs = new Map<string, LoadedDocument>();
  const remaps: PatchedDocument["remap"][] = [];
  const inputIndex = config.inputs.indexOf(input);
  const selection = selectionOf(input.include ?? [], input.exclude ?? [], (list, i) => ({ file: config.file, pointer: `#/inputs/${inputIndex}/${list}/${i}` }));
  for (const entry of specEntries(input)) {
    const file = displayPath(inputPath(config, entry.spec));
    const overlays = (entry.overlays ?? []).map((o) => displayPath(inputPath(config, o)));
    const built = buildDocument(file, diagnostics, allowList(input.refs?.allow ?? [], config.root), sources, { overlays, selection });
    if (!built) continue;
    docs.set(file, built.doc);
    if (built.remap) remaps.push(built.remap);
    parts.push({ ir: built.ir, group: entry.group ? entry.group.split(".") : [], splitNamespaces: entry.splitNamespaces ?? true });
  }
  if (parts.length !== specEntries(input).length) return undefined;
  if (selection) append(diagnostics, unmatchedFilters(selection));
  const ir = mergeModule(parts, { ...(input.title ? { title: input.title } : {}), ...(input.description ? { description: input.description } : {}), ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}) });
  const naming: Diagnostic[] = [];
  const locate = (file: string, pointer: string) => docs.get(file)?.locate(pointer) ?? { line: 1, col: 1 };
  settleEndpointGroups(ir, naming, locate);
  breakRefCycles(ir, naming, locate);
  assignNames(ir, input.clientName, naming, locate);
  // after the naming pass: a paged request sets parameters by their keys
  resolvePaging(ir, naming, locate);
  for (const d of docs.values()) restorePointers(d, naming);
  for (const remap of remaps) remap(naming);
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
