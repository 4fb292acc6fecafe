/**
 * `avaspec diff`: what changed between two versions of a document, and whom
 * it breaks. Both sides are built into the IR, so OpenAPI 3.0/3.1 and OpenRPC
 * share one engine. Each change has a rule id, a class, a message and both
 * sides' places:
 *
 * - `breaking-wire`: an existing client's request, or an existing caller's
 *   reading of a response, breaks. A request type breaks when it narrows
 *   (fewer values accepted), a response type when it widens (values a reader
 *   did not expect): the rules say which side each applies to.
 * - `breaking-code`: the wire is the same but the generated TypeScript API
 *   breaks (a method or schema renamed, a type removed, a method moved).
 * - `deprecation`, `addition`, `documentation`.
 *
 * Operations are matched by what identifies them on the wire: HTTP method
 * and path (path parameter names ignored), JSON-RPC endpoint and method name.
 * Schemas are compared through `$ref`s, so moving a definition or renaming
 * a reference with the same structure is no wire change.
 */
import { CHANGE_CLASSES, ChangeList, type Change, type ChangeClass, type DiffSide } from "./changes.js";
import { diffDocument } from "./document-rules.js";
import { diffDocumentLimits } from "./limits-rules.js";
import { diffOperations } from "./operation-rules.js";
import { SchemaRules } from "./schema-rules.js";

export { CHANGE_CLASSES, type Change, type ChangeClass, type DiffSide, type Place } from "./changes.js";

/** Every change from `oldSide` to `newSide`, most severe first. */
export function diffModules(oldSide: DiffSide, newSide: DiffSide): Change[] {
  const changes = new ChangeList(oldSide, newSide);
  const oldByKey = new Map(oldSide.ir.schemas.map((s) => [s.key, s]));
  const newByKey = new Map(newSide.ir.schemas.map((s) => [s.key, s]));
  diffOperations(changes, new SchemaRules(changes, oldByKey, newByKey));
  diffDocument(changes, oldByKey, newByKey);
  diffDocumentLimits(changes);
  const rank = (c: ChangeClass) => CHANGE_CLASSES.indexOf(c);
  return changes.list.sort((a, b) => rank(a.class) - rank(b.class) || (a.operation ?? "").localeCompare(b.operation ?? "") || a.rule.localeCompare(b.rule) || a.message.localeCompare(b.message));
}

/** How many changes of each class. */
export function summarize(changes: readonly { class: ChangeClass }[]): Record<ChangeClass, number> {
  const out = Object.fromEntries(CHANGE_CLASSES.map((c) => [c, 0])) as Record<ChangeClass, number>;
  for (const c of changes) out[c.class]++;
  return out;
}

/** Whether a `--fail-on` level is reached: `breaking-wire` fails on wire breaks only, `breaking-code` on either kind of break, `deprecation` on those and deprecations. */
export function failsOn(changes: readonly Change[], level: "breaking-wire" | "breaking-code" | "deprecation"): boolean {
  const limit = CHANGE_CLASSES.indexOf(level);
  return changes.some((c) => CHANGE_CLASSES.indexOf(c.class) <= limit);
}

/** Human text: one line per change, most severe first. */
export function formatText(changes: readonly Change[]): string {
  if (changes.length === 0) return "no changes\n";
  const lines = changes.map((c) => `${c.class.padEnd(13)} ${c.rule}: ${c.message}${c.new ? `\n    new: ${c.new.file}:${c.new.line}:${c.new.col} at ${c.new.pointer}` : ""}${c.old ? `\n    old: ${c.old.file}:${c.old.line}:${c.old.col} at ${c.old.pointer}` : ""}`);
  const s = summarize(changes);
  return `${lines.join("\n")}\n\n${CHANGE_CLASSES.map((c) => `${s[c]} ${c}`).join(", ")}\n`;
}

/** Markdown for a PR comment or a CHANGELOG section: grouped by operation, classes as headings. */
export function formatMarkdown(changes: readonly Change[]): string {
  if (changes.length === 0) return "No changes.\n";
  const s = summarize(changes);
  const out = [`**${CHANGE_CLASSES.filter((c) => s[c] > 0).map((c) => `${s[c]} ${c}`).join(", ")}**`, ""];
  for (const cls of CHANGE_CLASSES) {
    const list = changes.filter((c) => c.class === cls);
    if (list.length === 0) continue;
    out.push(`### ${cls}`, "");
    const groups = new Map<string, Change[]>();
    for (const c of list) groups.set(c.operation ?? "(document)", [...(groups.get(c.operation ?? "(document)") ?? []), c]);
    for (const [operation, items] of groups) {
      out.push(`- \`${operation.replace(/`/g, "'")}\``);
      for (const c of items) out.push(`  - ${c.message.replace(/\r?\n/g, " ")} (\`${c.rule}\`${c.new ? `, ${c.new.file}:${c.new.line}` : c.old ? `, was ${c.old.file}:${c.old.line}` : ""})`);
    }
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

/** The documented JSON form (version 1). */
export function formatJson(changes: readonly Change[]): string {
  return `${JSON.stringify({ version: 1, changes, summary: summarize(changes) }, null, 2)}\n`;
}
