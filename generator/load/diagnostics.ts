/**
 * Diagnostics are collected, never thrown: each names a rule code, the file,
 * line and column, and the JSON pointer of the offending node, so a user can
 * jump to it from the terminal (`file:line:col at #/pointer: message`).
 */
export type Severity = "error" | "warning";

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  pointer: string;
  line: number;
  col: number;
  hint?: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** How much of a source line a code frame shows around the column (a minified document is one line of megabytes). */
const FRAME_WIDTH = 100;

let split: { text: string; lines: string[] } | undefined;

/** The document's lines, split once for all the diagnostics of one document rather than once per diagnostic. */
function linesOf(text: string): string[] {
  if (split?.text !== text) split = { text, lines: text.split(/\r?\n/) };
  return split.lines;
}

/** The part of a line a frame shows: up to FRAME_WIDTH characters around `col`, "…" where it is cut; `caret` is the column inside it. */
function window(line: string, col: number): { text: string; caret: number } {
  if (line.length <= FRAME_WIDTH) return { text: line, caret: col };
  const start = Math.max(0, Math.min(col - 1 - FRAME_WIDTH / 2, line.length - FRAME_WIDTH));
  const head = start > 0 ? "…" : "";
  const tail = start + FRAME_WIDTH < line.length ? "…" : "";
  return { text: head + line.slice(start, start + FRAME_WIDTH) + tail, caret: col - start + head.length };
}

/** One line for machines and editors, then a hint and a code frame for people. */
export function formatDiagnostic(d: Diagnostic, sourceText?: string): string {
  const head = `${d.file}:${d.line}:${d.col} at ${d.pointer}: ${d.message} [${d.code}]${d.severity === "warning" ? " (warning)" : ""}`;
  const out = [head];
  if (d.hint) out.push(`  hint: ${d.hint}`);
  if (sourceText !== undefined) {
    const lines = linesOf(sourceText);
    const at = d.line - 1;
    for (let i = Math.max(0, at - 1); i <= Math.min(lines.length - 1, at + 1); i++) {
      const gutter = String(i + 1).padStart(5);
      const shown = window(lines[i]!, d.col);
      out.push(`${i === at ? ">" : " "}${gutter} | ${shown.text}`);
      if (i === at) out.push(`       | ${" ".repeat(Math.max(0, shown.caret - 1))}^`);
    }
  }
  return out.join("\n");
}

export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.code.localeCompare(b.code));
}
