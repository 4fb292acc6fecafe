/**
 * Load: read a YAML or JSON spec, keeping source positions so every later
 * diagnostic can point at `file:line:col`. JSON is parsed by the YAML parser
 * too (JSON is YAML 1.2), so both get the same locator.
 */
import { readFileSync } from "node:fs";
import jsYaml from "js-yaml";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import type { Diagnostic } from "./diagnostics.js";
import * as ptr from "./pointer.js";
import { closingQuote, hasDuplicateKey, jsonLocator, jsonSyntaxError, JSON_COMMENTS } from "./json.js";
import { documentUri, idRulesOf, SchemaResources } from "./resources.js";

export interface LoadedDocument {
  /** Path as given (relative to the working directory), used in diagnostics. */
  file: string;
  text: string;
  /** The parsed document as plain data. */
  root: unknown;
  /** Line and column (1-based) of the node at a pointer, or of its nearest existing ancestor. */
  locate(pointer: string): { line: number; col: number };
  /**
   * Resolves a `$ref` written in the object at pointer `from` (default: the
   * root) as JSON Schema does: against the base URI there (a schema's `$id`
   * moves it), by pointer or by anchor. Undefined when it leads out of the
   * document or to nothing. `outside`: see ResolvedRef.
   */
  resolve(ref: string, from?: string): { value: unknown; pointer: string; outside?: string } | undefined;
  /** The value at one of the generator's own pointers. */
  at(pointer: string): { value: unknown; pointer: string } | undefined;
  /** For a document converted on load (Swagger 2.0): the pointer in the file as written that a pointer of `root` came from. */
  original?(pointer: string): string;
}

export interface LoadResult {
  document: LoadedDocument | undefined;
  diagnostics: Diagnostic[];
}

export function loadFile(file: string): LoadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "file not found" : code === "EISDIR" ? "it is a folder, not a file" : (error as Error).message;
    return { document: undefined, diagnostics: [{ code: "load/read", severity: "error", message: `cannot read spec: ${reason}`, file, pointer: "#", line: 1, col: 1, ...(code === "EISDIR" ? { hint: "give the path of the spec file inside it (e.g. openapi.yaml)" } : {}) }] };
  }
  const encoding = otherEncoding(bytes);
  if (encoding) {
    return { document: undefined, diagnostics: [{ code: "load/encoding", severity: "error", message: `the file is ${encoding}; avaspec reads UTF-8`, file, pointer: "#", line: 1, col: 1, hint: `save it as UTF-8 (e.g. \`iconv -f ${encoding.split(" ")[0]} -t UTF-8 ${file} > spec.yaml\`)` }] };
  }
  const text = bytes.toString("utf8");
  const result = loadText(file, text);
  const bad = text.indexOf("\uFFFD");
  if (bad >= 0 && !isValidUtf8(bytes)) {
    const before = text.slice(0, bad);
    result.diagnostics.push({ code: "load/encoding", severity: "warning", message: "bytes that are not UTF-8 were read as U+FFFD (�)", file, pointer: "#", line: before.split("\n").length, col: bad - before.lastIndexOf("\n"), hint: "save the file as UTF-8; the strings with � in them are not what the author wrote" });
  }
  return result;
}

/** A byte-order mark or NUL pattern of an encoding other than UTF-8, named; undefined for UTF-8 (or ASCII). */
function otherEncoding(bytes: Buffer): string | undefined {
  const [a, b, c, d] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return "UTF-32 (little-endian)";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32 (big-endian)";
  if (a === 0xff && b === 0xfe) return "UTF-16 (little-endian)";
  if (a === 0xfe && b === 0xff) return "UTF-16 (big-endian)";
  // no mark: ASCII text in UTF-16 has a NUL in every other byte
  if (bytes.length >= 4 && b === 0 && d === 0 && a !== 0) return "UTF-16 (little-endian)";
  if (bytes.length >= 4 && a === 0 && c === 0 && b !== 0) return "UTF-16 (big-endian)";
  return undefined;
}

function isValidUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Deepest nesting accepted. Real specs stay far below it (GitHub's REST
 * document: 21 levels); every later stage walks the tree recursively, and a
 * hostile document must get a diagnostic, not a stack overflow.
 */
export const MAX_NESTING = 256;
/** Text that starts like JSON: a bracket, or a comment before one (JSONC). */
const JSON_LIKE = /^\uFEFF?\s*(?:[{[]|\/\/|\/\*)/;
const DEPTH_HINT = "a real spec nests a few dozen levels at most; this looks generated or hostile";
/** YAML aliases resolved at most: more is the "billion laughs" expansion attack. */
const MAX_ALIASES = 100;

/** The offset where flow nesting (`{`, `[`, as in JSON) first goes deeper than MAX_NESTING, outside strings and comments. */
function tooDeepFlow(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) i = closingQuote(text, i);
    else if (ch === 0x27 /* ' */) {
      for (i++; i < text.length; i++) if (text[i] === "'" && text[i + 1] !== "'") break;
      else if (text[i] === "'") i++;
    } else if (ch === 0x23 /* # */ && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > MAX_NESTING) return i;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/**
 * Whether some line starts with a run of MAX_NESTING or more whitespace and
 * dash characters. Without one, tooDeepBlock cannot find too deep a nesting:
 * the entries of its stack have distinct columns, each within that run of
 * some line, so there are at most MAX_NESTING of them. Such a run covers an
 * offset that is a multiple of MAX_NESTING, so only the runs through those
 * offsets are looked at (GitHub's 13 MB document: a few thousand short runs).
 */
function hasDeepLine(text: string): boolean {
  const indentish = (i: number) => {
    const c = text.charCodeAt(i);
    // whitespace as trimStart sees it, except the line feed; or a dash
    return c === 0x20 || c === 0x09 || c === 0x2d || (c > 0x0a && c <= 0x0d) || (c > 0x7f && WHITESPACE.test(text[i]!));
  };
  for (let at = MAX_NESTING - 1; at < text.length; at += MAX_NESTING) {
    if (!indentish(at)) continue;
    let start = at;
    while (start > 0 && indentish(start - 1)) start--;
    if (start > 0 && text.charCodeAt(start - 1) !== 0x0a) continue;
    let end = at + 1;
    while (end < text.length && indentish(end)) end++;
    if (end - start >= MAX_NESTING) return true;
  }
  return false;
}
const WHITESPACE = /\s/;

/**
 * Where block (indentation) nesting first goes deeper than MAX_NESTING, with
 * the pointer of the keys down to it: both parsers recurse per level, so a
 * 10,000-deep mapping must be refused before either sees it. Lines of block
 * scalars (`|`, `>`) are text, not nesting; `- ` entries on one line count.
 */
function tooDeepBlock(text: string): { offset: number; pointer: string } | undefined {
  if (!hasDeepLine(text)) return undefined;
  const stack: { indent: number; key: string }[] = [];
  let scalarIndent = -1;
  let offset = 0;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    if (body === "" || body.startsWith("#")) continue;
    if (scalarIndent >= 0) {
      if (indent > scalarIndent) continue;
      scalarIndent = -1;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const dashes = /^(?:-[ \t]+)*/.exec(body)![0];
    const rest = body.slice(dashes.length);
    const key = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^#:{[\s][^#:]*?)[ \t]*:(?:[ \t]|$)/.exec(rest)?.[1]?.replace(/^["']|["']$/g, "") ?? "";
    // each "- " opens a sequence item at its column; a key opens a mapping entry at its column
    for (let i = 0; i < dashes.length; i++) if (dashes[i] === "-") stack.push({ indent: indent + i, key: "0" });
    if (key !== "") stack.push({ indent: indent + dashes.length, key });
    if (stack.length > MAX_NESTING) return { offset: start + indent, pointer: "#" + stack.slice(0, MAX_NESTING + 1).map((s) => "/" + ptr.escapeToken(s.key)).join("") };
    if (/(?:^|[ \t:-])[|>][+-]?[0-9]?[ \t]*(?:#.*)?$/.test(body)) scalarIndent = indent;
  }
  return undefined;
}

/** The pointer of the first node deeper than MAX_NESTING (iterative: the tree may be deep). */
function tooDeepTree(root: unknown): string[] | undefined {
  // the path of a node is made only for the one reported: each entry links to its parent's
  interface Entry {
    value: unknown;
    depth: number;
    key: string;
    parent: Entry | undefined;
  }
  const stack: Entry[] = [{ value: root, depth: 0, key: "", parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.depth > MAX_NESTING) {
      const path: string[] = [];
      for (let e: Entry | undefined = entry; e?.parent; e = e.parent) path.push(e.key);
      return path.reverse();
    }
    const value = entry.value;
    if (typeof value !== "object" || value === null) continue;
    for (const k in value) if (Object.prototype.hasOwnProperty.call(value, k)) {
      const v = (value as Record<string, unknown>)[k];
      // a scalar child is no deeper than MAX_NESTING + 1: only a container's depth can matter
      if (typeof v === "object" && v !== null) stack.push({ value: v, depth: entry.depth + 1, key: k, parent: entry });
      else if (entry.depth + 1 > MAX_NESTING) stack.push({ value: v, depth: entry.depth + 1, key: k, parent: entry });
    }
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
  const deepBlock = tooDeepBlock(text);
  if (deepBlock) return fail("load/depth", deepBlock.offset, `nesting deeper than ${MAX_NESTING} levels`, DEPTH_HINT, deepBlock.pointer);
  const json = loadJson(file, text);
  if (json) return json;
  // JSON.parse refused it, or it repeats a key (which the YAML way reports at its position)
  const broken = JSON_LIKE.test(text) || /\.json$/i.test(file) ? jsonSyntaxError(text) : undefined;
  if (broken?.message === JSON_COMMENTS) return fail("load/json-comments", broken.offset, JSON_COMMENTS, "remove the comments: JSON with comments (JSONC) is not JSON, and the YAML parser would misread the file");
  // a .json file is JSON: one message in JSON's terms (what is not named .json may still be YAML written in flow style)
  if (broken && /\.json$/i.test(file)) return fail("load/syntax", broken.offset, broken.message, "fix the JSON syntax at this position");
  const fast = loadYamlFast(file, text);
  if (fast) return fast;
  let doc: Document.Parsed;
  try {
    // logLevel "error": the package's warnings (a collection used as a key is written out as a string) go to
    // process warnings, which a CLI must not print; such a key is a string the document's checks then judge
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true, logLevel: "error" });
  } catch (error) {
    if (error instanceof RangeError) return fail("load/depth", 0, "the document nests too deeply to parse", DEPTH_HINT);
    throw error;
  }
  for (const e of [...doc.errors, ...doc.warnings]) {
    const pos = lineCounter.linePos(e.pos[0]);
    // the yaml package's own wording names its API (parseAllDocuments), which a user cannot call
    const several = e.code === "MULTIPLE_DOCS";
    diagnostics.push({
      code: "load/syntax",
      severity: doc.errors.includes(e) ? "error" : "warning",
      message: several ? "a second YAML document starts here; avaspec reads one document per file" : firstLine(e.message),
      file,
      pointer: "#",
      line: pos.line,
      col: pos.col,
      hint: several ? "remove this --- line and what follows it, or give each document a file of its own" : "fix the YAML/JSON syntax at this position",
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

/**
 * The document over a parsed root, or a depth diagnostic when the tree nests
 * too deeply. `depthChecked`: the text is JSON that tooDeepFlow passed, whose
 * bracket count is then exactly the tree's depth (in valid JSON, quotes and
 * `#` outside strings do not occur), so the tree need not be walked.
 */
function loaded(file: string, text: string, root: unknown, locate: LoadedDocument["locate"], diagnostics: Diagnostic[], depthChecked = false, original?: LoadedDocument["original"]): LoadResult {
  const deep = depthChecked ? undefined : tooDeepTree(root);
  if (deep) {
    const pointer = "#" + deep.map((t) => "/" + ptr.escapeToken(t)).join("");
    const pos = locate(pointer);
    return { document: undefined, diagnostics: [...diagnostics, { code: "load/depth", severity: "error", message: `nesting deeper than ${MAX_NESTING} levels`, file, pointer, line: pos.line, col: pos.col, hint: DEPTH_HINT }] };
  }
  const at = (pointer: string) => {
    const tokens = ptr.parse(pointer);
    if (tokens === undefined) return undefined;
    const r = ptr.get(root, tokens);
    // the pointer as given, unless it has `~` escapes (then as the tokens make it)
    return r.found ? { value: r.value, pointer: pointer.includes("~") ? "#" + tokens.map((t) => "/" + ptr.escapeToken(t)).join("") : pointer } : undefined;
  };
  // indexed on the first $ref resolved: by then the bundler has added what it brings in
  let resources: SchemaResources<{ root: unknown }> | undefined;
  const self = { root };
  const resolve = (ref: string, from = "#") => {
    const found = (resources ??= new SchemaResources([{ doc: self, uri: documentUri(root) }], idRulesOf(root))).resolve(self, from, ref);
    return found && { value: found.value, pointer: found.pointer, ...(found.outside !== undefined ? { outside: found.outside } : {}) };
  };
  return { document: { file, text, root, locate, resolve, at, ...(original ? { original } : {}) }, diagnostics };
}

/** A document made from a loaded one (a converted Swagger 2.0 document): the original's text, a root of its own. */
export function derivedDocument(file: string, text: string, root: unknown, locate: LoadedDocument["locate"], original: NonNullable<LoadedDocument["original"]>): LoadResult {
  return loaded(file, text, root, locate, [], false, original);
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
  // where each container ends, found by that scan: the locator need not scan the text again
  const ends = new Map<number, number>();
  if (hasDuplicateKey(body, ends, text.length - body.length)) return undefined;
  return loaded(file, text, root, lazyLocator(text, ends), [], true);
}

/**
 * Positions from a parse made the first time a diagnostic asks for one: a
 * JSON text is indexed container by container as pointers go through it (a
 * diff of a 13 MB document locates thousands of pointers; the YAML parser
 * would build a node tree of all of it); anything else, or JSON the scanner
 * does not follow, through a YAML parse.
 */
function lazyLocator(text: string, ends?: Map<number, number>): LoadedDocument["locate"] {
  let located: LoadedDocument["locate"] | undefined;
  const yaml = (): LoadedDocument["locate"] => {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, prettyErrors: false, logLevel: "error" });
    return (p) => lineCounter.linePos(offsetOf(doc, ptr.parse(p) ?? []));
  };
  return (pointer) => {
    if (!located) {
      const json = /^\s*[[{]/.test(text) ? jsonLocator(text, ends) : undefined;
      located = json
        ? (p) => {
            try {
              return json(ptr.parse(p) ?? []);
            } catch {
              located = yaml();
              return located(p);
            }
          }
        : yaml();
    }
    return located(pointer);
  };
}

const scalar = (tag: string, test: RegExp, construct: (s: string) => unknown) => new jsYaml.Type(`tag:yaml.org,2002:${tag}`, { kind: "scalar", resolve: (s: string | null) => test.test(s ?? ""), construct: (s: string | null) => construct(s ?? "") });
/**
 * YAML 1.2's core schema exactly as the `yaml` package resolves it (js-yaml's
 * own core schema also reads `1_000`, `0b1` and `0o`-less octals).
 */
const CORE_1_2 = jsYaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar("null", /^(?:~|[Nn]ull|NULL)?$/, () => null),
    scalar("bool", /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === "t" || s[0] === "T"),
    scalar("int", /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/, (s) => (s.startsWith("0o") ? parseInt(s.slice(2), 8) : s.startsWith("0x") ? parseInt(s.slice(2), 16) : parseInt(s, 10))),
    scalar("float", /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (s) =>
      /nan$/i.test(s) ? NaN : /inf$/i.test(s) ? (s.startsWith("-") ? -Infinity : Infinity) : parseFloat(s),
    ),
  ],
});
/**
 * An explicit key (`? …`) or a one-line flow collection used as a key: js-yaml
 * would join such a key as a string where the yaml package writes it as YAML.
 */
const COLLECTION_KEY = /^[ \t-]*\?(\s|$)|(^[ \t-]*|[{,][ \t]*)[[{][^\n]*[\]}][ \t]*:(\s|$)/m;
/** A directive line (`%YAML`, `%TAG`, unknown ones the yaml package warns about). */
const DIRECTIVE = /^%/m;
/** Thrown from js-yaml's node listener at the first anchor: the slow path counts alias expansions. */
const HAS_ANCHOR = new Error("anchor");

/**
 * The common case, a well-formed YAML document without aliases, is read by
 * js-yaml (five times faster than the `yaml` package, which builds a node
 * tree with positions), with positions parsed only when a diagnostic needs one.
 * Anything js-yaml refuses (syntax, duplicate keys, tags, several documents,
 * depth) or may read otherwise (aliases, collection keys, directives) goes the `yaml`
 * way, which reports problems at their position.
 */
function loadYamlFast(file: string, text: string): LoadResult | undefined {
  if (COLLECTION_KEY.test(text) || DIRECTIVE.test(text)) return undefined;
  let root: unknown;
  // an alias needs an anchor: none, no alias
  const listener = (event: jsYaml.EventType, state: jsYaml.State) => {
    if (event === "close" && Object.keys((state as unknown as { anchorMap: object }).anchorMap).length > 0) throw HAS_ANCHOR;
  };
  try {
    root = jsYaml.load(text, { schema: CORE_1_2, filename: file, json: false, listener });
  } catch {
    return undefined;
  }
  return loaded(file, text, root, lazyLocator(text), []);
}

function firstLine(s: string): string {
  return s.split("\n")[0]!.trim();
}

/** Start offset of the deepest node on the pointer's path (the key, for map entries). */
/** Each mapping's pairs by key, made the first time a pointer goes through it (a diff locates thousands of pointers in one document). */
const pairsByKey = new WeakMap<object, Map<string, { key: unknown; value: unknown }>>();

function pairOf(node: { items: unknown[] }, key: string): { key: unknown; value: unknown } | undefined {
  let byKey = pairsByKey.get(node);
  if (!byKey) {
    byKey = new Map();
    for (const p of node.items) {
      if (!isPair(p)) continue;
      const k = isScalar(p.key) ? String(p.key.value) : String(p.key);
      if (!byKey.has(k)) byKey.set(k, p);
    }
    pairsByKey.set(node, byKey);
  }
  return byKey.get(key);
}

function offsetOf(doc: Document, tokens: readonly string[]): number {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
  for (const t of tokens) {
    if (isMap(node)) {
      const pair = pairOf(node, t);
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
