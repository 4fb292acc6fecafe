/**
 * Print: ts-morph structures → text, once per file, with pinned settings and
 * a constant header (no timestamps, no machine paths).
 */
import { IndentationText, NewLineKind, Project, QuoteKind, type StatementStructures } from "ts-morph";
import { Kind } from "./structure-kind.js";
import { stringLiteral } from "./emit/escape.js";
import { isIdentifierName } from "./ir/naming.js";
import { TextWriter, type WriterFunction } from "./writer.js";

/**
 * Text that is already formatted TypeScript at the top level (a validator
 * function the compiler wrote line by line): printed as is, without passing
 * through a writer that would scan it again character by character.
 */
export class RawText {
  constructor(readonly text: string) {}
}

export type Statement = StatementStructures | WriterFunction | RawText;

export class Printer {
  /** ts-morph's project, made the first time a structure needs it (most runs never do: see structure-kind.ts). */
  private project: Project | undefined;
  private count = 0;

  /**
   * Prints statements to text; `header` lines become `//` comments. Writer
   * functions write straight into one writer (a TextWriter, see writer.ts); a ts-morph structure (imports,
   * exports, interfaces) is printed by ts-morph in a scratch file of its own,
   * so the generated text is never parsed back into an AST (on a spec the size
   * of GitHub's, re-parsing the output took longer than generating it).
   */
  print(header: string[], statements: Statement[]): string {
    // the file's pieces, joined once at the end: a large module (Graph beta's client.ts is 47 MB) is never copied whole before that
    const parts: string[] = [lineComments(header), "\n"];
    // consecutive writer functions share one writer; text (raw, imports, structures) is appended as is
    let w: TextWriter | undefined;
    const flush = () => {
      if (!w) return;
      const pieces = w.pieces();
      for (let i = 0; i < pieces.length; i++) parts.push(pieces[i]!);
      if (!(pieces[pieces.length - 1] ?? "").endsWith("\n")) parts.push("\n");
      w = undefined;
    };
    statements.forEach((s, i) => {
      // a blank line between top-level statements, except between consecutive imports/exports
      const blank = i > 0 && !(isModuleDecl(s) && isModuleDecl(statements[i - 1]!));
      if (typeof s === "function") {
        if (w) {
          if (blank) w.blankLineIfLastNot();
        } else {
          if (blank) parts.push("\n");
          w = new TextWriter();
        }
        s(w);
        w.newLineIfLastNot();
        return;
      }
      flush();
      if (blank) parts.push("\n");
      parts.push(endLine(s instanceof RawText ? s.text : (moduleDeclText(s) ?? this.structureText(s))));
    });
    flush();
    // the file ends with one line break: trailing blank lines are dropped from the last pieces
    while (parts.length > 2 && parts[parts.length - 1]!.trimEnd() === "") parts.pop();
    if (parts.length > 2) parts.push(parts.pop()!.trimEnd());
    parts.push("\n");
    const text = parts.join("");
    // three line breaks in a row in the body (a statement's own trailing blank line beside the separator) become two
    const body = parts[0]!.length + 1;
    return text.indexOf("\n\n\n", body) === -1 ? text : text.slice(0, body) + text.slice(body).replace(/\n{3,}/g, "\n\n");
  }

  private structureText(s: StatementStructures): string {
    this.project ??= scratchProject();
    const sf = this.project.createSourceFile(`/s${this.count++}.ts`, { statements: [s] }, { overwrite: true });
    const text = sf.getFullText();
    this.project.removeSourceFile(sf);
    return text.trimEnd();
  }
}

function scratchProject(): Project {
  // the bundled CLI loads ts-morph (and the TypeScript compiler) on the first read of one of its exports: here
  return new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, newLineKind: NewLineKind.LineFeed, quoteKind: QuoteKind.Double, useTrailingCommas: true },
  });
}

type Named = string | { name: string; isTypeOnly?: boolean; alias?: string };

/**
 * Import and export declarations, printed as ts-morph prints them but without
 * a scratch file: an index's export list can name thousands of validators.
 * Undefined for any shape this does not cover (ts-morph prints those).
 */
function moduleDeclText(s: StatementStructures): string | undefined {
  // import and export lists may name contextual keywords (`unique`), so the check is syntactic: nothing but an identifier name
  const name = (n: string) => {
    if (!isIdentifierName(n)) throw new Error(`internal: ${JSON.stringify(n)} is not an identifier name`);
    return n;
  };
  const list = (names: readonly Named[]) =>
    names.map((n) => (typeof n === "string" ? name(n) : n.alias === undefined ? `${n.isTypeOnly ? "type " : ""}${name(n.name)}` : undefined));
  const from = (m: string | undefined) => (m === undefined ? "" : ` from ${stringLiteral(m)}`);
  if (s.kind === Kind.ImportDeclaration) {
    const { moduleSpecifier, namedImports, namespaceImport, defaultImport, isTypeOnly, attributes } = s;
    if (defaultImport !== undefined || attributes !== undefined || typeof namedImports === "function") return undefined;
    const type = isTypeOnly ? "type " : "";
    if (namespaceImport !== undefined) return namedImports === undefined ? `import ${type}* as ${name(namespaceImport)}${from(moduleSpecifier)};` : undefined;
    const names = list((namedImports ?? []) as Named[]);
    return names.includes(undefined) || names.length === 0 ? undefined : `import ${type}{ ${names.join(", ")} }${from(moduleSpecifier)};`;
  }
  if (s.kind === Kind.ExportDeclaration) {
    const { moduleSpecifier, namedExports, namespaceExport, isTypeOnly, attributes } = s;
    if (namespaceExport !== undefined || attributes !== undefined || isTypeOnly || typeof namedExports === "function") return undefined;
    if (namedExports === undefined) return moduleSpecifier === undefined ? undefined : `export *${from(moduleSpecifier)};`;
    const names = list(namedExports as Named[]);
    return names.includes(undefined) ? undefined : `export { ${names.join(", ")} }${from(moduleSpecifier)};`;
  }
  return undefined;
}

function endLine(text: string): string {
  return text.endsWith("\n") ? text : text + "\n";
}

function isModuleDecl(s: Statement): boolean {
  if (s instanceof RawText) return false;
  return typeof s === "object" && (s.kind === Kind.ImportDeclaration || s.kind === Kind.ExportDeclaration);
}

/** `//` comment lines; a line break in the text cannot end the comment early. */
/** Header lines as `//` comments, each kept on its line (the one way a generated file's header is written). */
export function lineComments(lines: string[]): string {
  return lines.map((l) => `// ${l.replace(/[\r\n\u2028\u2029]+/g, " ")}`).join("\n") + "\n";
}
