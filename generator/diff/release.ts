/**
 * What changed in one document since the previous release, for the version
 * ledger: the copy that release shipped (`<out>/spec/<name>.json`, bundled,
 * so it builds on its own) against the document now, through the diff
 * engine. Both sides are built as `avaspec diff` builds them (buildSide),
 * with the input's client name and allowed external refs.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { displayPath, inputPath, specEntries, type InputConfig, type ResolvedConfig } from "../config.js";
import { specJsonText } from "../emit/package/index.js";
import { allowList } from "../load/bundle.js";
import { formatDiagnostic, hasErrors, type Diagnostic } from "../load/diagnostics.js";
import type { SpecVersion } from "../versions.js";
import { diffModules } from "./index.js";
import { buildSide, incomparable } from "./side.js";

/** `shippedName`: the document's `spec/<name>.json` in the package (specJsonNames). */
export function releaseDiff(config: ResolvedConfig, input: InputConfig, spec: string, shippedName: string, root: unknown): SpecVersion["diff"] {
  const shipped = join(inputPath(config, config.out), "spec", shippedName);
  if (!existsSync(shipped)) return { unavailable: `${displayPath(shipped)} is missing` };
  if (readFileSync(shipped, "utf8") === specJsonText(root)) return undefined;
  const oldDiagnostics: Diagnostic[] = [];
  const oldSide = buildSide(shipped, displayPath(shipped), oldDiagnostics, { clientName: input.clientName });
  const firstError = oldDiagnostics.find((d) => d.severity === "error");
  if (!oldSide || firstError) return { unavailable: firstError ? formatDiagnostic(firstError) : `${displayPath(shipped)} does not build` };
  // the document itself built already (its diagnostics were reported then)
  const newDiagnostics: Diagnostic[] = [];
  // with the input's overlays and filters, as generation read it (the shipped copy has them applied already)
  const overlays = (specEntries(input).find((e) => e.spec === spec)?.overlays ?? []).map((o) => inputPath(config, o));
  const newSide = buildSide(inputPath(config, spec), spec, newDiagnostics, { clientName: input.clientName, allowRefs: allowList(input.refs?.allow ?? [], config.root), overlays, ...(input.include ? { include: input.include } : {}), ...(input.exclude ? { exclude: input.exclude } : {}) });
  if (!newSide || hasErrors(newDiagnostics)) return { unavailable: "the document does not build on its own" };
  const why = incomparable(oldSide, newSide);
  if (why !== undefined) return { unavailable: why };
  const changes = diffModules(oldSide, newSide);
  return { changes: changes.map((c) => ({ rule: c.rule, class: c.class, message: c.message, ...(c.operation !== undefined ? { operation: c.operation } : {}) })) };
}
