/**
 * One side of a diff: a document built on its own into the IR, as a
 * one-document module, the way `generate` builds it (so a broken side gets
 * the same diagnostics). Used by `avaspec diff` and by the version ledger.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oneOffConfig, type Selected } from "../config.js";
import { buildModule } from "../front-end.js";
import type { Diagnostic } from "../load/diagnostics.js";
import type { DiffSide } from "./index.js";

/** `shown`: how the document's file appears in places; `clientName`, `allowRefs` (absolute prefixes), overlays and filters as for a generation of it. */
export function buildSide(file: string, shown: string, diagnostics: Diagnostic[], options: { clientName?: string; allowRefs?: string[] } & Selected = {}): DiffSide | undefined {
  const config = oneOffConfig(file, join(tmpdir(), "avaspec-diff-unused"), options);
  const built = buildModule(config, config.inputs[0]!, diagnostics);
  if (!built) return undefined;
  const own = built.ir.sources[0]?.file ?? file;
  return { ir: built.ir, file: own, locate: built.locate, display: (f) => (f === own ? shown : f) };
}

/**
 * Why two sides cannot be compared, or undefined: an OpenAPI document and an
 * OpenRPC one describe different things (paths and methods), and a diff of
 * them would list every operation of each as removed and added.
 */
export function incomparable(oldSide: DiffSide, newSide: DiffSide): string | undefined {
  const describe = (side: DiffSide) => {
    const source = side.ir.sources[0];
    const file = side.display ? side.display(side.file) : side.file;
    return source ? { file, format: source.format, label: `${source.format === "openapi" ? "OpenAPI" : "OpenRPC"} ${source.version}` } : undefined;
  };
  const [o, n] = [describe(oldSide), describe(newSide)];
  if (!o || !n || o.format === n.format) return undefined;
  return `cannot compare ${o.file} (${o.label}) with ${n.file} (${n.label}): avaspec diff compares two versions of one OpenAPI document, or of one OpenRPC document`;
}
