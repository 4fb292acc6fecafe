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

/** One line for machines and editors, then a hint and a code frame for people. */
export function formatDiagnostic(d: Diagnostic, sourceText?: string): string {
  const head = `${d.file}:${d.line}:${d.col} at ${d.pointer}: ${d.message} [${d.code}]${d.severity === "warning" ? " (warning)" : ""}`;
  const out = [head];
  if (d.hint) out.push(`  hint: ${d.hint}`);
  if (sourceText !== undefined) {
    const lines = sourceText.split(/\r?\n/);
    const at = d.line - 1;
    for (let i = Math.max(0, at - 1); i <= Math.min(lines.length - 1, at + 1); i++) {
      const gutter = String(i + 1).padStart(5);
      out.push(`${i === at ? ">" : " "}${gutter} | ${lines[i]}`);
      if (i === at) out.push(`       | ${" ".repeat(Math.max(0, d.col - 1))}^`);
    }
  }
  return out.join("\n");
}

export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.code.localeCompare(b.code));
}
