/**
 * Print: ts-morph structures → text, once per file, with pinned settings and
 * a constant header (no timestamps, no machine paths).
 */
import { IndentationText, StructureKind, NewLineKind, Project, QuoteKind, type StatementStructures, type WriterFunction } from "ts-morph";

export class Printer {
  private readonly project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Double,
      useTrailingCommas: true,
    },
  });
  private count = 0;

  /** Prints statements to text; `header` lines become `//` comments. */
  print(header: string[], statements: (StatementStructures | WriterFunction)[]): string {
    // a blank line between top-level statements, except between consecutive imports/exports
    const spaced = statements.flatMap((s, i) => (i === 0 || (isModuleDecl(s) && isModuleDecl(statements[i - 1]!)) ? [s] : [(w: Parameters<WriterFunction>[0]) => w.blankLineIfLastNot(), s]));
    const sf = this.project.createSourceFile(`/f${this.count++}.ts`, { statements: spaced }, { overwrite: true });
    const text = sf.getFullText();
    this.project.removeSourceFile(sf);
    return lineComments(header) + "\n" + text.replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
  }
}

function isModuleDecl(s: StatementStructures | WriterFunction): boolean {
  return typeof s === "object" && (s.kind === StructureKind.ImportDeclaration || s.kind === StructureKind.ExportDeclaration);
}

/** `//` comment lines; a line break in the text cannot end the comment early. */
function lineComments(lines: string[]): string {
  return lines.map((l) => `// ${l.replace(/[\r\n\u2028\u2029]+/g, " ")}`).join("\n") + "\n";
}
