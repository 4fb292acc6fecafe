/**
 * What changed in one document since the previous release, for the version
 * ledger: the copy that release shipped (`<out>/spec/<name>.json`, bundled,
 * so it builds on its own) against the document now, through the diff
 * engine. Both sides are built as one-document modules with the input's
 * client name, as `avaspec diff --base` builds them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { displayPath, inputPath, oneOffConfig, type InputConfig, type ResolvedConfig } from "../config.js";
import { specJsonText } from "../emit/package/index.js";
import { buildModule } from "../generate.js";
import { formatDiagnostic, hasErrors, type Diagnostic } from "../load/diagnostics.js";
import type { SpecVersion } from "../versions.js";
import { diffModules, type DiffSide } from "./index.js";

/** `shippedName`: the document's `spec/<name>.json` in the package (specJsonNames). */
export function releaseDiff(config: ResolvedConfig, input: InputConfig, spec: string, shippedName: string, root: unknown): SpecVersion["diff"] {
  const shipped = join(inputPath(config, config.out), "spec", shippedName);
  if (!existsSync(shipped)) return { unavailable: `${displayPath(shipped)} is missing` };
  if (readFileSync(shipped, "utf8") === specJsonText(root)) return undefined;
  const oldDiagnostics: Diagnostic[] = [];
  const oldConfig = oneOffConfig(shipped, join(config.root, ".avaspec-unused"), { clientName: input.clientName });
  const oldBuilt = buildModule(oldConfig, oldConfig.inputs[0]!, oldDiagnostics);
  const firstError = oldDiagnostics.find((d) => d.severity === "error");
  if (!oldBuilt || firstError) return { unavailable: firstError ? formatDiagnostic(firstError) : `${displayPath(shipped)} does not build` };
  // the document itself built already (its diagnostics were reported then)
  const newDiagnostics: Diagnostic[] = [];
  const newBuilt = buildModule(config, { spec, output: input.output, clientName: input.clientName, ...(input.refs ? { refs: input.refs } : {}) }, newDiagnostics);
  if (!newBuilt || hasErrors(newDiagnostics)) return { unavailable: "the document does not build on its own" };
  const sideOf = (built: NonNullable<typeof oldBuilt>, file: string): DiffSide => ({ ir: built.ir, file: built.ir.sources[0]?.file ?? file, locate: built.locate });
  const changes = diffModules(sideOf(oldBuilt, shipped), sideOf(newBuilt, spec));
  return { changes: changes.map((c) => ({ rule: c.rule, class: c.class, message: c.message, ...(c.operation !== undefined ? { operation: c.operation } : {}) })) };
}
