/**
 * Load: read a YAML or JSON spec, keeping source positions so every later
 * diagnostic can point at `file:line:col`. JSON is parsed by the YAML parser
 * too (JSON is YAML 1.2), so both get the same locator.
 */
import { readFileSync } from "node:fs";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { Diagnostic } from "./diagnostics.js";
import * as ptr from "./pointer.js";

export interface LoadedDocument {
  /** Path as given (relative to the working directory), used in diagnostics. */
  file: string;
  text: string;
  /** The parsed document as plain data. */
  root: unknown;
  /** Line and column (1-based) of the node at a pointer, or of its nearest existing ancestor. */
  locate(pointer: string): { line: number; col: number };
  /** Resolves a local `$ref` (a URI fragment); undefined when it is not local or dangles. */
  resolve(ref: string): { value: unknown; pointer: string } | undefined;
  /** The value at one of the generator's own pointers. */
  at(pointer: string): { value: unknown; pointer: string } | undefined;
}

export interface LoadResult {
  document: LoadedDocument | undefined;
  diagnostics: Diagnostic[];
}

export function loadFile(file: string): LoadResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message;
    return { document: undefined, diagnostics: [{ code: "load/read", severity: "error", message: `cannot read spec: ${reason}`, file, pointer: "#", line: 1, col: 1 }] };
  }
  return loadText(file, text);
}

/**
 * Deepest nesting accepted. Real specs stay far below it (GitHub's REST
 * document: 21 levels); every later stage walks the tree recursively, and a
 * hostile document must get a diagnostic, not a stack overflow.
 */
export const MAX_NESTING = 256;
const DEPTH_HINT = "a real spec nests a few dozen levels at most; this looks generated or hostile";
/** YAML aliases resolved at most: more is the "billion laughs" expansion attack. */
const MAX_ALIASES = 100;

/** The offset where flow nesting (`{`, `[`, as in JSON) first goes deeper than MAX_NESTING, outside strings and comments. */
function tooDeepFlow(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (ch === "'") {
      for (i++; i < text.length; i++) if (text[i] === "'" && text[i + 1] !== "'") break;
      else if (text[i] === "'") i++;
    } else if (ch === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "{" || ch === "[") {
      if (++depth > MAX_NESTING) return i;
    } else if (ch === "}" || ch === "]") depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/** The pointer of the first node deeper than MAX_NESTING (iterative: the tree may be deep). */
function tooDeepTree(root: unknown): string[] | undefined {
  const stack: [unknown, string[]][] = [[root, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (path.length > MAX_NESTING) return path;
    if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) stack.push([v, [...path, k]]);
  }
  return undefined;
}

export function loadText(file: string, text: string): LoadResult {
  const lineCounter = new LineCounter();
  const diagnostics: Diagnostic[] = [];
  const fail = (code: string, offset: number, message: string, hint: string, pointer = "#"): LoadResult => {
    const before = text.slice(0, offset);
    const pos = { line: before.split("\n").length, col: offset - before.lastIndexOf("\n") };
    return { document: undefined, diagnostics: [{ code, severity: "error", message, file, pointer, line: pos.line, col: pos.col, hint }] };
  };
  const deepAt = tooDeepFlow(text);
  if (deepAt !== undefined) return fail("load/depth", deepAt, `nesting deeper than ${MAX_NESTING} levels`, DEPTH_HINT);
  const json = loadJson(file, text);
  if (json) return json;
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (error) {
    if (error instanceof RangeError) return fail("load/depth", 0, "the document nests too deeply to parse", DEPTH_HINT);
    throw error;
  }
  for (const e of [...doc.errors, ...doc.warnings]) {
    const pos = lineCounter.linePos(e.pos[0]);
    diagnostics.push({
      code: "load/syntax",
      severity: doc.errors.includes(e) ? "error" : "warning",
      message: firstLine(e.message),
      file,
      pointer: "#",
      line: pos.line,
      col: pos.col,
      hint: "fix the YAML/JSON syntax at this position",
    });
  }
  if (doc.errors.length > 0) return { document: undefined, diagnostics };
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: MAX_ALIASES }) as unknown;
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      const first = /(^|[\s[{,:-])\*[^\s,\]}]+/m.exec(text);
      return fail("load/aliases", first ? first.index + first[1]!.length : 0, `YAML aliases expand more than ${MAX_ALIASES} times (the "billion laughs" pattern)`, "write the repeated parts out, or use $ref");
    }
    if (error instanceof RangeError) return fail("load/depth", 0, "the document nests too deeply to read", DEPTH_HINT);
    throw error;
  }
  return loaded(file, text, root, (pointer) => lineCounter.linePos(offsetOf(doc, ptr.parse(pointer) ?? [])), diagnostics);
}

/** The document over a parsed root, or a depth diagnostic when the tree nests too deeply. */
function loaded(file: string, text: string, root: unknown, locate: LoadedDocument["locate"], diagnostics: Diagnostic[]): LoadResult {
  const deep = tooDeepTree(root);
  if (deep) {
    const pointer = "#" + deep.map((t) => "/" + ptr.escapeToken(t)).join("");
    const pos = locate(pointer);
    return { document: undefined, diagnostics: [...diagnostics, { code: "load/depth", severity: "error", message: `nesting deeper than ${MAX_NESTING} levels`, file, pointer, line: pos.line, col: pos.col, hint: DEPTH_HINT }] };
  }
  const lookup = (tokens: string[] | undefined) => {
    if (tokens === undefined) return undefined;
    const r = ptr.get(root, tokens);
    return r.found ? { value: r.value, pointer: "#" + tokens.map((t) => "/" + ptr.escapeToken(t)).join("") } : undefined;
  };
  const resolve = (ref: string) => lookup(ptr.parse(ref, true));
  const at = (pointer: string) => lookup(ptr.parse(pointer));
  return { document: { file, text, root, locate, resolve, at }, diagnostics };
}

/**
 * JSON documents skip the YAML parser (seven times slower on GitHub's 13 MB
 * document): JSON.parse reads them, and the positions diagnostics need come
 * from a YAML parse made only when one is asked for. Anything JSON.parse
 * refuses, or a duplicate key (which it would silently drop), goes the YAML
 * way, which reports it at its position.
 */
function loadJson(file: string, text: string): LoadResult | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!/^\s*[{[]/.test(body)) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (hasDuplicateKey(body)) return undefined;
  let located: ((pointer: string) => { line: number; col: number }) | undefined;
  const locate = (pointer: string) => {
    if (!located) {
      const lineCounter = new LineCounter();
      const doc = parseDocument(text, { lineCounter, prettyErrors: false });
      located = (p) => lineCounter.linePos(offsetOf(doc, ptr.parse(p) ?? []));
    }
    return located(pointer);
  };
  return loaded(file, text, root, locate, []);
}

/** Whether some object of valid JSON text repeats a key (compared as written). */
function hasDuplicateKey(text: string): boolean {
  const objects: (Set<string> | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      const start = i;
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const key = text.slice(start + 1, i);
        if (keys.has(key)) return true;
        keys.add(key);
      }
    } else if (ch === 0x7b /* { */) {
      objects.push(new Set());
      expectKey = true;
    } else if (ch === 0x5b /* [ */) {
      objects.push(undefined);
      expectKey = false;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) objects.pop();
    else if (ch === 0x2c /* , */) expectKey = objects[objects.length - 1] !== undefined;
    else if (ch === 0x3a /* : */) expectKey = false;
  }
  return false;
}

function firstLine(s: string): string {
  return s.split("\n")[0]!.trim();
}

/** Start offset of the deepest node on the pointer's path (the key, for map entries). */
function offsetOf(doc: Document, tokens: readonly string[]): number {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
  for (const t of tokens) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && (isScalar(p.key) ? String(p.key.value) : String(p.key)) === t);
      if (!pair) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(t)] as Node | undefined;
      if (!item) break;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else {
      break;
    }
  }
  return offset;
}
