/** What a generated package exports, and which of its numbered names the spec documents did not number (test/generator/public-names.test.ts). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ts } from "ts-morph";
import { parse } from "yaml";
import { pascalCase } from "../../generator/ir/naming.js";


/** The names a module file makes public: its own exported declarations and what it re-exports (followed through `export *`). */
export function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file) || !existsSync(file)) return out;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const target = (specifier: string) => resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st)) {
      const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      // `export { v1, v2 }` without a module: the validators' internal checks, which no index re-exports
      if (from === undefined) continue;
      if (st.exportClause === undefined) for (const n of exportedNames(target(from), seen)) out.add(n);
      else if (ts.isNamedExports(st.exportClause)) for (const e of st.exportClause.elements) out.add(e.name.text);
      continue;
    }
    const exported = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) (ts.isIdentifier(d.name) ? out.add(d.name.text) : undefined);
    else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) && st.name) out.add(st.name.text);
  }
  return out;
}

/** Public names of a generated package: every module entry but the hand-written runtime and mock server. */
export function publicNames(out: string): Set<string> {
  const names = new Set<string>();
  const src = join(out, "src");
  for (const dir of readdirSync(src)) {
    if (dir === "runtime" || dir === "mock-server") continue;
    for (const n of exportedNames(join(src, dir, "index.ts"))) names.add(n);
  }
  return names;
}

/** Every key and every word of every string in the config's spec documents, as the PascalCase identifier it names. */
export function specWords(configFile: string): Set<string> {
  const config = JSON.parse(readFileSync(configFile, "utf8")) as { inputs: { spec?: string; specs?: { spec: string }[] }[] };
  const words = new Set<string>();
  const add = (text: string) => {
    for (const token of [text, ...text.split(/[^\p{L}\p{N}_.$-]+/u)]) if (/\p{L}/u.test(token)) words.add(pascalCase(token));
  };
  const visit = (node: unknown): void => {
    if (typeof node === "string") add(node);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === "object" && node !== null) for (const [k, v] of Object.entries(node)) (add(k), visit(v));
  };
  for (const input of config.inputs) for (const spec of input.spec !== undefined ? [input.spec] : (input.specs ?? []).map((s) => s.spec)) visit(parse(readFileSync(resolve(dirname(configFile), spec), "utf8")));
  return words;
}

/** Exported names ending in a digit whose trailing word (with its digits) is not something the spec wrote. */
export function numberedBeyondSpec(out: string, configFile: string): string[] {
  // PascalCase words start with a capital, so a name ending in one ends at a word boundary (`validateHash32` ends in `Hash32`; `Cb58Id3` does not end in `Cb58Id`)
  const all = [...specWords(configFile)].filter((w) => /\p{N}$/u.test(w));
  const words = all.filter((w) => /^\p{Lu}/u.test(w));
  // a name the spec wrote starting with a digit (an operationId `547636a6…`) is exported as itself behind an underscore
  const leadingDigit = new Set(all.filter((w) => /^\p{N}/u.test(w)).map((w) => `_${w}`));
  return [...publicNames(out)]
    .filter((n) => /\p{N}$/u.test(n))
    .filter((n) => !words.some((w) => n.endsWith(w)) && !leadingDigit.has(n))
    .sort();
}
