/**
 * How `npm run bench:tasks` measures a task file, with the TypeScript
 * compiler API of bench/tasks/node_modules/typescript (the repository's own
 * TypeScript 7 has no JavaScript API). A function's lines are the lines from
 * its first token (`export`) to its closing brace that hold at least one
 * token, so blank lines and comment-only lines do not count; its tokens are
 * what the scanner returns with trivia skipped. Everything of a file outside
 * the task functions (imports, type aliases, shared setup) is its `setup`.
 * Casts are counted from the syntax tree: `as`, `<T>x`, `x!` and `any`.
 */
import { createRequire } from "node:module";

/** The few members of the TypeScript API this file uses (typed here: the root typecheck must not need bench/tasks installed). */
interface TsNode {
  kind: number;
  pos: number;
  end: number;
  getStart(file?: TsNode): number;
  name?: { text?: string };
}
interface TsApi {
  createSourceFile(name: string, text: string, target: number, setParents: boolean): TsNode & { statements: readonly TsNode[]; getLineAndCharacterOfPosition(pos: number): { line: number } };
  createScanner(target: number, skipTrivia: boolean, variant: number, text: string): { scan(): number; getTokenStart(): number };
  forEachChild(node: TsNode, visit: (child: TsNode) => void): void;
  SyntaxKind: Record<string, number>;
  ScriptTarget: { Latest: number };
  LanguageVariant: { Standard: number };
  version: string;
}

export interface Measure {
  lines: number;
  tokens: number;
}

export interface FileMeasure {
  /** Each task function by name. */
  functions: Record<string, Measure>;
  /** The rest of the file, and of its extra files. */
  setup: Measure;
  total: Measure;
  casts: string[];
}

export function loadTypeScript(dir: string): TsApi {
  return createRequire(`${dir}/`)("typescript") as TsApi;
}

function measureRange(ts: TsApi, text: string, ranges: readonly [number, number][]): Measure {
  const lines = new Set<number>();
  let tokens = 0;
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (pos: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const start = scanner.getTokenStart();
    if (!ranges.some(([from, to]) => start >= from && start < to)) continue;
    tokens++;
    lines.add(lineOf(start));
  }
  return { lines: lines.size, tokens };
}

/** Measures the task functions `names` of `text`, the rest of it and `extra` files (whole) as setup. */
export function measureFile(ts: TsApi, file: string, text: string, names: readonly string[], extra: readonly { file: string; text: string }[] = []): FileMeasure {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const functions: Record<string, Measure> = {};
  const taken: [number, number][] = [];
  for (const statement of source.statements) {
    const name = statement.name?.text;
    if (statement.kind !== ts.SyntaxKind.FunctionDeclaration || name === undefined || !names.includes(name)) continue;
    const range: [number, number] = [statement.getStart(source), statement.end];
    taken.push(range);
    functions[name] = measureRange(ts, text, [range]);
  }
  const missing = names.filter((n) => !functions[n]);
  if (missing.length) throw new Error(`${file}: no function ${missing.join(", ")}`);
  // the setup: the gaps between the task functions, then the extra files
  const gaps: [number, number][] = [];
  let from = 0;
  for (const [start, end] of [...taken].sort((a, b) => a[0] - b[0])) {
    gaps.push([from, start]);
    from = end;
  }
  gaps.push([from, text.length]);
  const parts = [measureRange(ts, text, gaps), ...extra.map((x) => measureRange(ts, x.text, [[0, x.text.length]]))];
  const setup = { lines: parts.reduce((n, p) => n + p.lines, 0), tokens: parts.reduce((n, p) => n + p.tokens, 0) };
  const all = [...Object.values(functions), setup];
  const total = { lines: all.reduce((n, p) => n + p.lines, 0), tokens: all.reduce((n, p) => n + p.tokens, 0) };
  return { functions, setup, total, casts: [file, ...extra.map((x) => x.file)].flatMap((f, i) => castsOf(ts, f, i === 0 ? text : extra[i - 1]!.text)) };
}

function castsOf(ts: TsApi, file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const kinds = new Map([
    [ts.SyntaxKind.AsExpression, "as"],
    [ts.SyntaxKind.TypeAssertionExpression, "<T>"],
    [ts.SyntaxKind.NonNullExpression, "!"],
    [ts.SyntaxKind.AnyKeyword, "any"],
  ]);
  const found: string[] = [];
  const visit = (node: TsNode) => {
    const what = kinds.get(node.kind);
    if (what) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
