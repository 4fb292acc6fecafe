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

export function loadText(file: string, text: string): LoadResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true });
  const diagnostics: Diagnostic[] = [];
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
  const root = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const locate = (pointer: string) => {
    const offset = offsetOf(doc, ptr.parse(pointer) ?? []);
    return lineCounter.linePos(offset);
  };
  const lookup = (tokens: string[] | undefined) => {
    if (tokens === undefined) return undefined;
    const r = ptr.get(root, tokens);
    return r.found ? { value: r.value, pointer: "#" + tokens.map((t) => "/" + ptr.escapeToken(t)).join("") } : undefined;
  };
  const resolve = (ref: string) => lookup(ptr.parse(ref, true));
  const at = (pointer: string) => lookup(ptr.parse(pointer));
  return { document: { file, text, root, locate, resolve, at }, diagnostics };
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
