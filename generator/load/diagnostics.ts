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

/**
 * A source's line starts, found once per file. A code frame reads three lines
 * of it; splitting the whole text per diagnostic cost a copy of the document
 * each time (a minified 47 MB JSON document with a thousand warnings).
 */
export class SourceLines {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }
  get count(): number {
    return this.starts.length;
  }
  /** Line i (0-based) without its line break, or the part of it from `from` to `to`. */
  line(i: number, from = 0, to = Infinity): string {
    const start = this.starts[i]!;
    const end = i + 1 < this.starts.length ? this.starts[i + 1]! - 1 : this.text.length;
    const full = end > start && this.text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    return this.text.slice(start + Math.min(from, full - start), start + Math.min(to, full - start));
  }
}

/** Widest code frame line: a minified document is one line of megabytes, and the frame shows the part around the column. */
const FRAME_WIDTH = 120;
const FRAME_BEFORE = 40;

/** One line for machines and editors, then a hint and a code frame for people. */
export function formatDiagnostic(d: Diagnostic, source?: string | SourceLines): string {
  const head = `${d.file}:${d.line}:${d.col} at ${d.pointer}: ${d.message} [${d.code}]${d.severity === "warning" ? " (warning)" : ""}`;
  const out = [head];
  if (d.hint) out.push(`  hint: ${d.hint}`);
  if (source !== undefined) {
    const lines = typeof source === "string" ? new SourceLines(source) : source;
    const at = d.line - 1;
    // one window for the three lines, so the caret and the context stay aligned
    const from = Math.max(0, d.col - 1 - FRAME_BEFORE);
    const to = from + FRAME_WIDTH;
    for (let i = Math.max(0, at - 1); i <= Math.min(lines.count - 1, at + 1); i++) {
      const gutter = String(i + 1).padStart(5);
      const text = lines.line(i, from, to + 1);
      const cut = `${from > 0 && text.length > 0 ? "…" : ""}${text.length > FRAME_WIDTH ? `${text.slice(0, FRAME_WIDTH)}…` : text}`;
      out.push(`${i === at ? ">" : " "}${gutter} | ${cut}`);
      if (i === at) out.push(`       | ${" ".repeat(Math.max(0, d.col - 1 - from) + (from > 0 ? 1 : 0))}^`);
    }
  }
  return out.join("\n");
}

export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.code.localeCompare(b.code));
}
