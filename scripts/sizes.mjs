#!/usr/bin/env node
/**
 * Functions and files too long to hold in one's head, in generator/ and
 * runtime/ (tests aside):
 *
 *   node scripts/sizes.mjs [root] [--top N] [--json]
 *
 * lists every function over 150 lines and every file or class over 600 lines
 * (a class is read as a file is: one place to understand), and with --top the
 * N longest functions and files whatever their length. It exits 1 when an
 * over-limit item is not in ALLOWED below; `npm test` runs it
 * (test/generator/sizes.test.ts). ALLOWED lists what was already over when
 * the limit was set: it may only shrink, by splitting what it names.
 *
 * A function's length is its lines from the first of its declaration to its
 * closing brace, nested functions included (they are part of what a reader
 * holds). Arrow functions and function expressions take the name of the
 * variable, property or argument they are written for.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";

export const FUNCTION_LIMIT = 150;
export const FILE_LIMIT = 600;
export const FOLDERS = ["generator", "runtime"];

/**
 * Over-limit items that existed when the check was added, as `kind path name`
 * (name is empty for a file). Each helper that splits one removes its line;
 * the test fails when a listed item is no longer over (so the list shrinks)
 * and when an unlisted one is.
 */
export const ALLOWED = [];

function sourceFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.(ts|mts|mjs|js)$/.test(name) && !/\.test\.[a-z]+$/.test(name) && !name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

function nameOf(node, source) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source).slice(0, 40)}(…)`;
  return "(anonymous)";
}

/** Every function and class of one file, with its line span. */
export function measureFile(path, root) {
  const text = readFileSync(path, "utf8");
  const file = relative(root, path).split(sep).join("/");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = (node) => {
    const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
    return { line: start + 1, lines: end - start + 1 };
  };
  const items = [{ kind: "file", file, name: "", line: 1, lines: text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length }];
  const visit = (node) => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
      if (node.body) items.push({ kind: "function", file, name: nameOf(node, source), ...lines(node) });
    } else if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      items.push({ kind: "class", file, name: nameOf(node, source), ...lines(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return items;
}

export function measure(root) {
  return FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)).flatMap((path) => measureFile(path, root)));
}

const key = (item) => (item.kind === "file" ? `file ${item.file}` : `${item.kind} ${item.file} ${item.name}`);
const over = (item) => item.lines > (item.kind === "function" ? FUNCTION_LIMIT : FILE_LIMIT);

/** Over-limit items not allowed, and allowed items that are no longer over (to strike from ALLOWED). */
export function check(root, allowed = ALLOWED) {
  const items = measure(root);
  const overs = items.filter(over);
  const overKeys = new Set(overs.map(key));
  return { items, overs, unexpected: overs.filter((i) => !allowed.includes(key(i))), stale: allowed.filter((k) => !overKeys.has(k)) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf("--top");
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 0;
  const json = args.includes("--json");
  const positional = args.filter((a, i) => !a.startsWith("--") && !(topAt >= 0 && i === topAt + 1));
  const root = resolve(positional[0] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
  const result = check(root);
  const show = (i) => `${String(i.lines).padStart(5)}  ${i.kind.padEnd(8)} ${i.file}${i.name ? ` ${i.name}` : ""}${i.kind === "file" ? "" : `:${i.line}`}`;
  if (json) console.log(JSON.stringify({ overs: result.overs, unexpected: result.unexpected, stale: result.stale }, null, 2));
  else {
    if (top > 0) {
      for (const folder of FOLDERS) {
        const mine = result.items.filter((i) => i.file.startsWith(folder + "/"));
        console.log(`${folder}/: the ${top} longest functions`);
        for (const i of mine.filter((i) => i.kind === "function").sort((a, b) => b.lines - a.lines).slice(0, top)) console.log(show(i));
        console.log(`${folder}/: the ${top} largest files and classes`);
        for (const i of mine.filter((i) => i.kind !== "function").sort((a, b) => b.lines - a.lines).slice(0, top)) console.log(show(i));
      }
    }
    console.log(`over the limits (functions > ${FUNCTION_LIMIT} lines, files and classes > ${FILE_LIMIT}):`);
    for (const i of result.overs.sort((a, b) => b.lines - a.lines)) console.log(`${show(i)}${result.unexpected.includes(i) ? "   NOT ALLOWED" : ""}`);
    for (const k of result.stale) console.log(`no longer over, strike it from ALLOWED in scripts/sizes.mjs: ${k}`);
  }
  process.exitCode = result.unexpected.length + result.stale.length === 0 ? 0 : 1;
}
