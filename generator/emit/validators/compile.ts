/**
 * JSON Schema (as IR) → plain TypeScript check functions. Each schema node
 * becomes a function `(x, p, e) => boolean`: `e` collects issues, or is null
 * when only the answer matters (inside anyOf, oneOf, not, if, contains).
 * Keywords follow 2020-12 semantics; the IR already normalised OpenAPI 3.0
 * and draft-07 forms. Spec strings reach the output only through escape.ts.
 */
import type { WriterFunction } from "../../writer.js";
import { RawText } from "../../print.js";
import { fitsTypes, type IrDocument, type IrObjectLikeSchema, type IrSchema, type JsonValue } from "../../ir/types.js";
import { patternFlags } from "../../ir/resolve.js";
import { append } from "../../append.js";
import { BoundedNesting } from "../../nesting.js";
import { escapeToken } from "../../load/pointer.js";
import { literal, stringLiteral } from "../escape.js";
import { writeValue } from "../value.js";
import { planPattern } from "./pattern.js";
import { wireFormCheck } from "./wire-forms.js";

export interface CompileProblem {
  pointer: string;
  message: string;
}

const isScalar = (v: JsonValue): boolean => v === null || typeof v !== "object";

/** An indentation-aware list of code lines. */
class Lines {
  readonly out: string[] = [];
  private depth = 0;
  line(s: string): void {
    this.out.push("  ".repeat(this.depth) + s);
  }
  /** Lines written elsewhere (at depth 0), indented to this depth. */
  lines(ls: readonly string[]): void {
    for (const l of ls) this.line(l);
  }
  /** A block only when `head` is a test: where the type is already known, its lines are written in place. */
  blockIf(known: boolean, head: string, body: () => void): void {
    if (known) body();
    else this.block(head, body);
  }
  block(head: string, body: () => void): void {
    const start = this.out.length;
    this.line(head === "" ? "{" : `${head} {`);
    this.depth++;
    body();
    this.depth--;
    // an else with nothing in it is noise
    if (head === "else" && this.out.length === start + 1) this.out.pop();
    else this.line("}");
  }
}

const TYPE_TEST: Record<string, string> = {
  string: 'typeof x === "string"',
  number: 'typeof x === "number"',
  integer: "Number.isInteger(x)",
  boolean: 'typeof x === "boolean"',
  null: "x === null",
  array: "Array.isArray(x)",
  object: "isObject(x)",
};

/** Names every plain object inherits: for these, presence needs a real own-property check. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether `x` (an object) has `k` as its own property, without a call in the
 * common case: `plain` (set once per object) says its prototype is
 * Object.prototype, and then `k` can only be inherited when Object.prototype
 * has it (a polluted Object.prototype never supplies a property).
 */
function own(k: string): string {
  const key = stringLiteral(k);
  return INHERITED.has(k) ? `hasOwn(x, ${key})` : `(plain && OP[${key}] === undefined || hasOwn(x, ${key}))`;
}

/** Presence of an own property, `undefined` counting as absent. */
function present(k: string): string {
  const key = stringLiteral(k);
  return INHERITED.has(k) ? `(hasOwn(x, ${key}) && x[${key}] !== undefined)` : `(x[${key}] !== undefined && ${own(k)})`;
}

/**
 * The line that sets `plain`: the object's prototype is Object.prototype (as
 * for everything JSON.parse returns). The `constructor` load comes first
 * because it lets V8 know the object's map, and then fold the prototype test;
 * alone, Object.getPrototypeOf is a call. Other objects (null prototype,
 * class instances, Object.create, an own `constructor` key) take
 * hasOwnProperty for every key.
 */
const PLAIN = "const plain = x.constructor === Object && Object.getPrototypeOf(x) === OP;";

/**
 * In a key loop: skip `k` unless it is own (for-in also lists inherited
 * enumerable keys). V8 folds `hasOwnProperty.call(x, k)` away inside
 * `for (k in x)` when x has an enum cache, so this costs next to nothing.
 */
const SKIP_INHERITED = "if (!hasOwn(x, k)) continue;";

/** Formats avaspec can assert, and their functions in runtime/values/formats.ts. */
const FORMAT_FUNCTIONS: Readonly<Record<string, string>> = {
  "date-time": "dateTime",
  date: "date",
  time: "time",
  email: "email",
  hostname: "hostname",
  ipv4: "ipv4",
  ipv6: "ipv6",
  uri: "uri",
  uuid: "uuid",
};

export interface CompilerOptions {
  /** "annotate" (default, as 2020-12 says) or "assert" the formats in FORMAT_FUNCTIONS. */
  formats?: "annotate" | "assert";
}

/**
 * TypeScript gives up on control flow analysis (TS2563, "The containing
 * function or module body is too large for control flow analysis") when it
 * must walk back through about 2,000 branches in one function: an object of
 * about 280 plain string properties (six branches each) was enough, fewer
 * with enums (one per value). So property checks with more than FLAT_BRANCHES
 * branches in all (each `if`, `&&`, `||` and `?`) go into helper functions of
 * at most CHUNK_BRANCHES each, split at property boundaries.
 */
const FLAT_BRANCHES = 1000;
const CHUNK_BRANCHES = 400;
const branches = (lines: readonly string[]) => lines.reduce((n, l) => n + (l.match(/\bif \(|&&|\|\||\? /g)?.length ?? 0), 0);

/** Named schemas compiled one inside the other before the rest are queued (each level costs a few stack frames). */
const MAX_NAMED_DEPTH = 200;

export class ValidatorCompiler {
  /** Format functions the output uses (imported from runtime/values/formats.js). */
  readonly formatsUsed = new Set<string>();
  /** Hoisted constants (regexes, sets, literal values), then functions, in creation order. */
  readonly decls: (WriterFunction | RawText)[] = [];
  readonly problems: CompileProblem[] = [];
  /** Runtime helpers the output uses. */
  readonly helpers = new Set<string>();
  private readonly named = new Map<string, string>();
  private readonly byKey: Map<string, IrDocument["schemas"][number]>;
  private count = 0;
  private trueFn: string | undefined;
  private falseFn: string | undefined;

  constructor(
    schemas: IrDocument["schemas"],
    private readonly options: CompilerOptions = {},
  ) {
    this.byKey = new Map(schemas.map((s) => [s.key, s]));
  }

  /** The runtime function asserting a format, when assertion is on and the format is known. */
  private formatFn(format: string | undefined): string | undefined {
    if (this.options.formats !== "assert" || format === undefined) return undefined;
    const fn = FORMAT_FUNCTIONS[format];
    if (fn) this.formatsUsed.add(fn);
    return fn;
  }

  /** The check function for a named schema (compiled once, so recursion terminates). */
  namedCheck(key: string): string {
    const existing = this.named.get(key);
    if (existing) return existing;
    const s = this.byKey.get(key);
    if (!s) return this.constant(true);
    // a boolean schema is the shared constant (an alias declared before it would be read too early)
    if (s.schema.kind === "boolean") {
      const c = this.constant(s.schema.value);
      this.named.set(key, c);
      return c;
    }
    const fn = `$${s.name}`;
    this.named.set(key, fn);
    // past a few hundred named schemas inside each other (a chain of $refs) the rest wait; each keeps the place asked for
    const slot = this.decls.length;
    this.decls.push(() => undefined);
    this.nesting.run(() => this.emitFunction(fn, s.schema, false, slot));
    return fn;
  }

  private readonly nesting = new BoundedNesting(MAX_NAMED_DEPTH);

  /** Check functions per schema node, so asking twice never emits a second copy. */
  private readonly checks = new Map<IrSchema, string>();

  /** The check function for any schema. */
  check(s: IrSchema): string {
    if (s.kind === "ref" && !s.wireForm) return this.namedCheck(s.target);
    if (s.kind === "boolean") return this.constant(s.value);
    if (s.kind === "schema" && !s.wireForm && isEmpty(s) && !this.formatFn(s.format)) return this.constant(true);
    const cached = this.checks.get(s);
    if (cached) return cached;
    const fn = this.emitFunction(`$${++this.count}`, s, true);
    this.checks.set(s, fn);
    return fn;
  }

  /** Anonymous check functions by body text: identical subschemas share one function. */
  private readonly bodies = new Map<string, string>();

  private constant(value: boolean): string {
    if (value) {
      if (!this.trueFn) {
        this.trueFn = "$true";
        this.decls.push((w) => w.writeLine("const $true = () => true;"));
      }
      return this.trueFn;
    }
    if (!this.falseFn) {
      this.falseFn = "$false";
      this.helpers.add("fail");
      this.decls.push((w) => w.writeLine('const $false = (_x, p, e) => fail(e, p, "false", "no value is allowed here");'));
    }
    return this.falseFn;
  }

  private readonly hoisted = new Map<string, string>();

  /** Hoists a pure expression once per distinct text. */
  private hoist(text: string): string {
    const known = this.hoisted.get(text);
    if (known) return known;
    const name = `$c${++this.count}`;
    this.hoisted.set(text, name);
    this.decls.push((w) => w.writeLine(`const ${name} = /*#__PURE__*/ ${text};`));
    return name;
  }

  private hoistValue(value: unknown): string {
    const name = `$c${++this.count}`;
    this.decls.push((w) => {
      w.write(`const ${name} = `);
      writeValue(w, value);
      w.write(";").newLine();
    });
    return name;
  }

  /** A RegExp for a schema pattern, hoisted; a pattern JavaScript cannot compile is a problem, not broken output. */
  /**
   * The test for a pattern, as a function of the tested string's expression:
   * a hoisted regular expression (see pattern.ts for the rewrites that make it
   * faster), with a length range first where the rewrite implies one.
   */
  private regex(pattern: string, pointer: string, requestOnly = false): ((v: string) => string) | undefined {
    const flags = patternFlags(pattern);
    if (flags === undefined) {
      this.problems.push({ pointer, message: `pattern ${JSON.stringify(pattern)} is not a valid regular expression` });
      return undefined;
    }
    const plan = planPattern(pattern, flags);
    const compiled = `new RegExp(${stringLiteral(plan.source)}${plan.flags ? `, ${stringLiteral(plan.flags)}` : ""})`;
    if (requestOnly) {
      // x-avaspec-response-pattern: false: the same check in both directions, its test passing any string in a response
      // (the runtime's flag); the length range the pattern implies is the pattern's, so it goes too
      // (string arguments, not a RegExp: a bundler drops the pure call where no check uses it)
      this.helpers.add("requestOnly");
      const re = this.hoist(`requestOnly(${stringLiteral(plan.source)}${plan.flags ? `, ${stringLiteral(plan.flags)}` : ""})`);
      return (v) => `${re}.test(${v})`;
    }
    const re = this.hoist(compiled);
    const { minLength: min, maxLength: max } = plan;
    return (v) => {
      const len = min !== undefined && min === max ? [`${v}.length === ${min}`] : [min !== undefined ? `${v}.length >= ${min}` : "", max !== undefined ? `${v}.length <= ${max}` : ""].filter(Boolean);
      return len.length > 0 ? `(${[...len, `${re}.test(${v})`].join(" && ")})` : `${re}.test(${v})`;
    };
  }

  /** Emits the function for `s` as `fn`; an anonymous one may come back as an identical existing function. */
  private emitFunction(fn: string, s: IrSchema, anonymous = false, reserved?: number): string {
    const slot = reserved ?? this.decls.length;
    if (reserved === undefined) this.decls.push(() => undefined);
    if (s.wireForm) {
      this.decls[slot] = wireFormCheck(this, fn, s);
      return fn;
    }
    const L = new Lines();
    if (s.kind === "ref") {
      const target = this.namedCheck(s.target);
      this.decls[slot] = (w) => w.writeLine(`const ${fn} = (x, p, e) => ${target}(x, p, e);`);
      return fn;
    }
    if (s.kind === "boolean") {
      const target = this.constant(s.value);
      this.decls[slot] = (w) => w.writeLine(`const ${fn} = ${target};`);
      return fn;
    }
    this.body(L, s);
    const lines = L.out;
    // schemas of the same shape compile to the same body: one function, and the others name it
    const key = lines.join("\n");
    const same = this.bodies.get(key);
    if (same && anonymous) return same;
    if (same) {
      this.decls[slot] = (w) => w.writeLine(`const ${fn} = ${same};`);
      return fn;
    }
    this.bodies.set(key, fn);
    // the bulk of a large module's output: already formatted, so printed as is
    this.decls[slot] = new RawText(`function ${fn}(x, p, e) {\n${lines.map((l) => `  ${l}\n`).join("")}}\n`);
    return fn;
  }

  /**
   * An inline boolean expression equivalent to the check of a leaf schema
   * (type, enum, const, string and number bounds only), or undefined. Call
   * sites test it first and call the full check only to collect issues.
   */
  predicate(s: IrSchema, v: string, depth = 0): string | undefined {
    // a value in a server's wire form fails the documented predicate and still passes: the full check decides
    if (depth > 8 || s.wireForm) return undefined;
    if (s.kind === "boolean") return s.value ? "true" : "false";
    if (s.kind === "ref") {
      const target = this.byKey.get(s.target);
      return target ? this.predicate(target.schema, v, depth + 1) : undefined;
    }
    const leafKeys = new Set(["types", "enum", "const", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"]);
    const meta = new Set(["kind", "pointer", "title", "description", "deprecated", "readOnly", "writeOnly", "default", "examples", "integer", "knownValues", "requestPattern", "wireForm"]);
    for (const k of Object.keys(s)) if (!leafKeys.has(k) && !meta.has(k) && (s as unknown as Record<string, unknown>)[k] !== undefined) return undefined;
    const parts: string[] = [];
    if (s.types && s.types.length > 0) {
      const types = s.types.includes("number") ? s.types.filter((t) => t !== "integer") : s.types;
      parts.push(`(${this.typeTest(types, v, s.format)})`);
    }
    // a value the type test rules out can never match; comparing with it would not type-check after the narrowing (TS2367)
    const possible = (x: unknown) => !s.types || s.types.length === 0 || fitsTypes(x, s.types);
    if (s.const) {
      if (!isScalar(s.const.value)) return undefined;
      parts.push(possible(s.const.value) ? `${v} === ${literal(s.const.value)}` : "false");
    }
    if (s.enum) {
      if (!s.enum.every(isScalar) || s.enum.length > 32) return undefined;
      const values = s.enum.filter(possible);
      parts.push(values.length === 0 ? "false" : `(${values.map((x) => `${v} === ${literal(x)}`).join(" || ")})`);
    }
    const str: string[] = [];
    if (s.minLength !== undefined) (this.helpers.add("length"), str.push(`length(${v}) >= ${s.minLength}`));
    if (s.maxLength !== undefined) (this.helpers.add("length"), str.push(`length(${v}) <= ${s.maxLength}`));
    if (s.pattern !== undefined) {
      const re = this.regex(s.pattern, s.pointer, s.requestPattern);
      if (!re) return undefined;
      str.push(re(v));
    }
    const fmt = this.formatFn(s.format);
    if (fmt) str.push(`${fmt}(${v})`);
    if (str.length > 0) parts.push(`(typeof ${v} !== "string" || (${str.join(" && ")}))`);
    const num: string[] = [];
    if (s.minimum !== undefined) num.push(`${v} >= ${s.minimum}`);
    if (s.maximum !== undefined) num.push(`${v} <= ${s.maximum}`);
    if (s.exclusiveMinimum !== undefined) num.push(`${v} > ${s.exclusiveMinimum}`);
    if (s.exclusiveMaximum !== undefined) num.push(`${v} < ${s.exclusiveMaximum}`);
    if (s.multipleOf !== undefined) (this.helpers.add("multipleOf"), num.push(`multipleOf(${v}, ${s.multipleOf})`));
    if (num.length > 0) parts.push(`(typeof ${v} !== "number" || (${num.join(" && ")}))`);
    return parts.length === 0 ? "true" : parts.join(" && ");
  }

  /** Named schemas being inlined right now (never inline one into itself). */
  private readonly inlining = new Set<string>();

  /**
   * A small named object schema (type, properties, required; no composition or
   * key loops) can be emitted in place, as Ajv does, instead of called.
   */
  private inlinable(schema: IrSchema): IrObjectLikeSchema | undefined {
    if (schema.kind !== "ref" || schema.wireForm || this.inlining.has(schema.target) || this.inlining.size >= 2) return undefined;
    const s = this.byKey.get(schema.target)?.schema;
    if (!s || s.kind !== "schema") return undefined;
    const allowed = new Set(["kind", "pointer", "title", "description", "deprecated", "readOnly", "writeOnly", "default", "examples", "types", "properties", "required"]);
    if (Object.keys(s).some((k) => !allowed.has(k) && (s as unknown as Record<string, unknown>)[k] !== undefined)) return undefined;
    if (!(s.types?.length === 1 && s.types[0] === "object") || (s.properties?.length ?? 0) > 12) return undefined;
    return s;
  }

  /** Checks a subschema at a call site: inlined, or the inline predicate first and the full check only to collect issues. */
  private subSchema(L: Lines, schema: IrSchema, x: string, path: string, guard?: string): void {
    // `guard` must also hold for a failure to count; it is tested after the
    // cheap predicate where there is one, else before the check
    const inline = this.inlinable(schema);
    const pred = inline && schema.kind === "ref" ? undefined : this.predicate(schema, "v");
    if (guard !== undefined && (pred === undefined || pred === "true")) {
      L.block(`if (${guard})`, () => this.subSchema(L, schema, x, path));
      return;
    }
    if (inline && schema.kind === "ref") {
      // the body runs in a block that rebinds x and p; its failures set the caller's ok
      const target = schema.target;
      const n = ++this.count;
      // bind outside the block: inside it, `x` and `p` are the new bindings
      L.line(`const x${n} = ${x};`);
      L.line(`const p${n} = e === null ? p : ${path};`);
      L.block("", () => {
        L.line(`const x = x${n};`);
        L.line(`const p = p${n};`);
        this.inlining.add(target);
        try {
          this.body(L, inline, true);
        } finally {
          this.inlining.delete(target);
        }
      });
      return;
    }
    const check = this.check(schema);
    if (check === "$true") return;
    if (pred === undefined || pred === "true") {
      this.sub(L, check, x, path);
      return;
    }
    const simple = /^v\d+$/.test(x);
    const body = (v: string) =>
      L.block(`if (!(${simple ? pred.replace(/\bv\b/g, v) : pred})${guard === undefined ? "" : ` && ${guard}`})`, () => {
        L.line("if (e === null) return false;");
        L.line(`${check}(${v}, ${path}, e);`);
        L.line("ok = false;");
      });
    if (simple) body(x);
    else
      L.block("", () => {
        L.line(`const v = ${x};`);
        body("v");
      });
  }

  private failStmt(L: Lines, keyword: string, message: string, expected?: unknown, path = "p"): void {
    this.helpers.add("fail");
    const exp = expected === undefined ? "" : `, ${expected}`;
    L.line(`if (e === null) return false;`);
    L.line(`ok = fail(e, ${path}, ${stringLiteral(keyword)}, ${message}${exp});`);
  }

  private sub(L: Lines, check: string, x: string, path: string): void {
    if (check === "$true") return;
    // the answer-only pass (e === null) never builds a path
    const arg = path === "p" || path === "pk" ? path : `e === null ? p : ${path}`;
    L.block(`if (!${check}(${x}, ${arg}, e))`, () => {
      L.line("if (e === null) return false;");
      L.line("ok = false;");
    });
  }

  /** The test of a `type` list on `v`; registers the helpers it calls (the only way TYPE_TEST is read). */
  private typeTest(types: readonly string[], v: string, format?: string): string {
    if (types.includes("object")) this.helpers.add("isObject");
    // raw bytes may also come as a Blob, an ArrayBuffer or a typed array
    const binary = format === "binary" && types.includes("string");
    if (binary) this.helpers.add("isBinary");
    return [...types.map((t) => TYPE_TEST[t]!.replace(/\bx\b/g, v)), ...(binary ? [`isBinary(${v})`] : [])].join(" || ");
  }

  private body(L: Lines, s: IrObjectLikeSchema, inline = false): void {
    if (!inline) L.line("let ok = true;");
    if (s.types && s.types.length > 0) {
      const types = s.types.includes("number") ? s.types.filter((t) => t !== "integer") : s.types;
      // a single object or array type: its keywords go in the else branch, so the type is tested once
      const single = types.length === 1 && (types[0] === "object" || types[0] === "array") ? types[0] : undefined;
      L.block(`if (!(${this.typeTest(types, "x", s.format)}))`, () => this.failStmt(L, "type", stringLiteral(`must be ${types.join(" or ")}`), literal(types.join(","))));
      if (single) {
        L.block("else", () => (single === "object" ? this.objectKeywords(L, s, true) : this.arrayKeywords(L, s, true)));
        this.rest(L, s, single, inline);
        return;
      }
    }
    this.rest(L, s, undefined, inline);
  }

  private rest(L: Lines, s: IrObjectLikeSchema, done: "object" | "array" | undefined, inline = false): void {
    if (s.const) {
      const v = s.const.value;
      const cond = isScalar(v) ? `x !== ${literal(v)}` : (this.helpers.add("equal"), `!equal(x, ${this.hoistValue(v)})`);
      L.block(`if (${cond})`, () => this.failStmt(L, "const", stringLiteral(`must be equal to ${JSON.stringify(v)}`)));
    }
    if (s.enum) {
      let cond: string;
      if (s.enum.length === 0) cond = "true";
      else if (s.enum.every(isScalar) && s.enum.length <= 32) cond = s.enum.map((v) => `x !== ${literal(v)}`).join(" && ");
      else if (s.enum.every(isScalar)) cond = `!${this.hoist(`new Set([${s.enum.map((v) => literal(v)).join(", ")}])`)}.has(x)`;
      else {
        this.helpers.add("equal");
        const list = this.hoistValue(s.enum);
        cond = `!${list}.some((v) => equal(x, v))`;
      }
      const shown = JSON.stringify(s.enum).slice(0, 200);
      L.block(`if (${cond})`, () => this.failStmt(L, "enum", stringLiteral(`must be one of ${shown}`)));
    }
    this.stringKeywords(L, s);
    this.numberKeywords(L, s);
    if (done !== "object") this.objectKeywords(L, s, false);
    if (done !== "array") this.arrayKeywords(L, s, false);
    this.composition(L, s);
    this.unevaluated(L, s);
    if (!inline) L.line("return ok;");
  }

  /** Annotation functions per schema (by node, or by target for refs) and variant. */
  private readonly annotationFns = new Map<IrSchema | string, Map<string, string>>();

  /**
   * `unevaluatedProperties` / `unevaluatedItems`: the keys and indexes that the
   * schema's own keywords and its in-place subschemas (allOf, successful
   * anyOf/oneOf branches, if/then/else, dependentSchemas, $ref) evaluated are
   * collected first; the rest must match.
   */
  private unevaluated(L: Lines, s: IrObjectLikeSchema): void {
    if (s.unevaluatedProperties) {
      const ann = this.annotations(s, "props", true);
      const u = s.unevaluatedProperties;
      this.helpers.add("isObject");
      this.helpers.add("hasOwn");
      this.helpers.add("esc");
      L.block("if (isObject(x))", () => {
        L.line("const seen = new Set();");
        L.line(`${ann}(x, seen);`);
        L.block("for (const k in x)", () => {
          L.line(SKIP_INHERITED);
          L.line("if (seen.has(k)) continue;");
          L.line('const pk = e === null ? p : p + "/" + esc(k);');
          if (u.kind === "boolean" && !u.value) this.failStmt(L, "unevaluatedProperties", '"must not have unevaluated property \'" + k + "\'"', "false", "pk");
          else this.sub(L, this.check(u), "x[k]", "pk");
        });
      });
    }
    if (s.unevaluatedItems) {
      const ann = this.annotations(s, "items", true);
      const u = s.unevaluatedItems;
      L.block("if (Array.isArray(x))", () => {
        L.line("const seen = { n: 0, all: false, at: new Set() };");
        L.line(`${ann}(x, seen);`);
        L.block("if (!seen.all)", () => {
          L.block("for (let i = seen.n; i < x.length; i++)", () => {
            L.line("if (seen.at.has(i)) continue;");
            if (u.kind === "boolean" && !u.value) this.failStmt(L, "unevaluatedItems", '"must not have unevaluated item " + i', "false", 'p + "/" + i');
            else this.sub(L, this.check(u), "x[i]", 'p + "/" + i');
          });
        });
      });
    }
  }

  /** A function adding what a schema evaluates on an instance to `seen` (property names, or item counts). */
  private annotations(s: IrSchema, kind: "props" | "items", skipOwnUnevaluated = false): string {
    const owner = s.kind === "ref" ? s.target : s;
    const variant = `${kind}:${skipOwnUnevaluated}`;
    let byVariant = this.annotationFns.get(owner);
    if (!byVariant) this.annotationFns.set(owner, (byVariant = new Map()));
    const cached = byVariant.get(variant);
    if (cached) return cached;
    const fn = `$a${++this.count}`;
    byVariant.set(variant, fn);
    const slot = this.decls.length;
    this.decls.push(() => undefined);
    const L = new Lines();
    const target = s.kind === "ref" ? this.byKey.get(s.target)?.schema : s;
    if (target && target.kind === "schema") this.annotationBody(L, target, kind, skipOwnUnevaluated);
    else if (target && target.kind === "ref") L.line(`${this.annotations(target, kind)}(x, seen);`);
    const lines = L.out;
    this.decls[slot] = (w) => {
      w.writeLine(`function ${fn}(x, seen) {`);
      for (const l of lines) w.writeLine(`  ${l}`);
      w.writeLine("}");
    };
    return fn;
  }

  private annotationBody(L: Lines, s: IrObjectLikeSchema, kind: "props" | "items", skipOwnUnevaluated: boolean): void {
    const inPlace = (sub: IrSchema | undefined, guard?: string) => {
      if (!sub || sub.kind === "boolean") return;
      const call = `${this.annotations(sub, kind)}(x, seen);`;
      if (guard) L.block(`if (${guard})`, () => L.line(call));
      else L.line(call);
    };
    if (kind === "props") {
      this.helpers.add("isObject");
      this.helpers.add("hasOwn");
      L.line("if (!isObject(x)) return;");
      const all = s.additionalProperties !== undefined || (!skipOwnUnevaluated && s.unevaluatedProperties !== undefined);
      if ((!all && (s.properties?.length ?? 0) > 0) || Object.keys(s.dependentSchemas ?? {}).length > 0) this.plain(L);
      if (all) {
        L.block("for (const k in x)", () => {
          L.line(SKIP_INHERITED);
          L.line("seen.add(k);");
        });
      } else {
        for (const p of s.properties ?? []) L.line(`if (${present(p.name)}) seen.add(${stringLiteral(p.name)});`);
        const patterns = (s.patternProperties ?? []).map((pp) => this.regex(pp.pattern, pp.schema.pointer)).filter((r) => r !== undefined);
        if (patterns.length > 0)
          L.block("for (const k in x)", () => {
            L.line(SKIP_INHERITED);
            L.line(`if (${patterns.map((r) => r("k")).join(" || ")}) seen.add(k);`);
          });
      }
      for (const [k, dep] of Object.entries(s.dependentSchemas ?? {})) inPlace(dep, `${present(k)} && ${this.check(dep)}(x, "", null)`);
    } else {
      L.line("if (!Array.isArray(x)) return;");
      if (s.items !== undefined || (!skipOwnUnevaluated && s.unevaluatedItems !== undefined)) L.line("seen.all = true;");
      if (s.prefixItems) L.line(`seen.n = Math.max(seen.n, Math.min(x.length, ${s.prefixItems.length}));`);
      if (s.contains) L.line(`for (let i = 0; i < x.length; i++) if (${this.check(s.contains)}(x[i], "", null)) seen.at.add(i);`);
    }
    for (const sub of s.allOf ?? []) inPlace(sub);
    for (const list of [s.anyOf, s.oneOf]) for (const sub of list ?? []) inPlace(sub, `${this.check(sub)}(x, "", null)`);
    if (s.if) {
      const cond = this.check(s.if);
      L.block(`if (${cond}(x, "", null))`, () => {
        inPlace(s.if);
        inPlace(s.then);
      });
      if (s.else) L.block("else", () => inPlace(s.else));
    }
  }

  /** Sets `plain` for `own` and `present`. */
  private plain(L: Lines): void {
    this.helpers.add("OP");
    L.line(PLAIN);
  }

  private stringKeywords(L: Lines, s: IrObjectLikeSchema): void {
    const fmt = this.formatFn(s.format);
    if (s.minLength === undefined && s.maxLength === undefined && s.pattern === undefined && !fmt) return;
    const re = s.pattern !== undefined ? this.regex(s.pattern, s.pointer, s.requestPattern) : undefined;
    L.block(`if (typeof x === "string")`, () => {
      if (s.minLength !== undefined || s.maxLength !== undefined) {
        this.helpers.add("length");
        L.line("const n = length(x);");
        if (s.minLength !== undefined) L.block(`if (n < ${s.minLength})`, () => this.failStmt(L, "minLength", stringLiteral(`must have at least ${s.minLength} characters`), String(s.minLength)));
        if (s.maxLength !== undefined) L.block(`if (n > ${s.maxLength})`, () => this.failStmt(L, "maxLength", stringLiteral(`must have at most ${s.maxLength} characters`), String(s.maxLength)));
      }
      if (re) L.block(`if (!${re("x")})`, () => this.failStmt(L, "pattern", stringLiteral(`must match pattern ${s.pattern}`), stringLiteral(s.pattern!)));
      if (fmt) L.block(`if (!${fmt}(x))`, () => this.failStmt(L, "format", stringLiteral(`must be a valid ${s.format}`), stringLiteral(s.format!)));
    });
  }

  private numberKeywords(L: Lines, s: IrObjectLikeSchema): void {
    const checks: [string | undefined, string, string, number | undefined][] = [
      [s.minimum !== undefined ? `x < ${s.minimum}` : undefined, "minimum", `must be >= ${s.minimum}`, s.minimum],
      [s.maximum !== undefined ? `x > ${s.maximum}` : undefined, "maximum", `must be <= ${s.maximum}`, s.maximum],
      [s.exclusiveMinimum !== undefined ? `x <= ${s.exclusiveMinimum}` : undefined, "exclusiveMinimum", `must be > ${s.exclusiveMinimum}`, s.exclusiveMinimum],
      [s.exclusiveMaximum !== undefined ? `x >= ${s.exclusiveMaximum}` : undefined, "exclusiveMaximum", `must be < ${s.exclusiveMaximum}`, s.exclusiveMaximum],
    ];
    const active = checks.filter((c) => c[0] !== undefined);
    if (active.length === 0 && s.multipleOf === undefined) return;
    L.block(`if (typeof x === "number")`, () => {
      for (const [cond, kw, msg, exp] of active) L.block(`if (${cond})`, () => this.failStmt(L, kw, stringLiteral(msg), String(exp)));
      if (s.multipleOf !== undefined) {
        this.helpers.add("multipleOf");
        L.block(`if (!multipleOf(x, ${s.multipleOf}))`, () => this.failStmt(L, "multipleOf", stringLiteral(`must be a multiple of ${s.multipleOf}`), String(s.multipleOf)));
      }
    });
  }

  private objectKeywords(L: Lines, s: IrObjectLikeSchema, known: boolean): void {
    const props = s.properties ?? [];
    const loop = s.additionalProperties !== undefined || (s.patternProperties?.length ?? 0) > 0 || s.propertyNames !== undefined;
    const any = props.length > 0 || (s.required?.length ?? 0) > 0 || loop || s.minProperties !== undefined || s.maxProperties !== undefined || s.dependentRequired || s.dependentSchemas;
    if (!any) return;
    this.helpers.add("isObject");
    L.blockIf(known, "if (isObject(x))", () => {
      this.helpers.add("hasOwn");
      if (props.length > 0 || (s.required?.length ?? 0) > 0 || s.dependentRequired || s.dependentSchemas) this.plain(L);
      // a missing property is reported at its own path, so the issue names the field
      const required = new Set(s.required ?? []);
      const checked = new Set<string>();
      // each property's lines apart, to be split into helper functions when there are many (see FLAT_BRANCHES)
      const groups: string[][] = [];
      for (const p of s.properties ?? []) {
        const key = stringLiteral(p.name);
        const path = `p + ${stringLiteral("/" + escapeToken(p.name))}`;
        const trivial = this.check(p.schema) === "$true";
        if (trivial && !required.has(p.name)) continue;
        checked.add(p.name);
        const v = `v${checked.size}`;
        const G = new Lines();
        groups.push(G.out);
        if (INHERITED.has(p.name)) {
          G.line(`const ${v} = hasOwn(x, ${key}) ? x[${key}] : undefined;`);
          G.block(`if (${v} !== undefined)`, () => {
            if (!trivial) this.subSchema(G, p.schema, v, path);
          });
        } else {
          G.line(`const ${v} = x[${key}];`);
          if (required.has(p.name)) {
            G.block(`if (${v} !== undefined && ${own(p.name)})`, () => {
              if (!trivial) this.subSchema(G, p.schema, v, path);
            });
          } else {
            // an optional value that passes is fine whether own or inherited: ownership is asked only on failure
            G.block(`if (${v} !== undefined)`, () => this.subSchema(G, p.schema, v, path, own(p.name)));
          }
        }
        if (required.has(p.name)) G.block("else", () => this.failStmt(G, "required", stringLiteral("is required"), key, path));
      }
      for (const r of required) {
        if (checked.has(r)) continue;
        const G = new Lines();
        groups.push(G.out);
        G.block(`if (!${present(r)})`, () => this.failStmt(G, "required", stringLiteral("is required"), stringLiteral(r), `p + ${stringLiteral("/" + escapeToken(r))}`));
      }
      this.propertyChecks(L, groups);
      if (s.minProperties !== undefined || s.maxProperties !== undefined) {
        L.line("let count = 0;");
        L.block("for (const k in x)", () => {
          L.line(SKIP_INHERITED);
          L.line("if (x[k] !== undefined) count++;");
        });
        if (s.minProperties !== undefined) L.block(`if (count < ${s.minProperties})`, () => this.failStmt(L, "minProperties", stringLiteral(`must have at least ${s.minProperties} properties`), String(s.minProperties)));
        if (s.maxProperties !== undefined) L.block(`if (count > ${s.maxProperties})`, () => this.failStmt(L, "maxProperties", stringLiteral(`must have at most ${s.maxProperties} properties`), String(s.maxProperties)));
      }
      for (const [k, needs] of Object.entries(s.dependentRequired ?? {})) {
        L.block(`if (${present(k)})`, () => {
          for (const n of needs) L.block(`if (!${present(n)})`, () => this.failStmt(L, "dependentRequired", stringLiteral(`must have property '${n}' when property '${k}' is present`), stringLiteral(n)));
        });
      }
      for (const [k, dep] of Object.entries(s.dependentSchemas ?? {})) {
        const check = this.check(dep);
        L.block(`if (${present(k)})`, () => this.sub(L, check, "x", "p"));
      }
      if (loop) this.keyLoop(L, s);
    });
  }

  /** Helper functions of property checks by body text: identical ones share one function. */
  private readonly chunks = new Map<string, string>();

  /**
   * The property checks of an object (`x`, `plain`, `p`, `e` and `ok` in
   * scope), in place, or in helper functions `$propsN` called in turn when
   * they have many branches (see FLAT_BRANCHES). A helper returns false as
   * soon as a check fails when only the answer matters (e === null), else
   * after collecting its issues, so calling it changes nothing for the caller.
   */
  private propertyChecks(L: Lines, groups: string[][]): void {
    const weights = groups.map(branches);
    if (weights.reduce((n, w) => n + w, 0) <= FLAT_BRANCHES) {
      for (const g of groups) L.lines(g);
      return;
    }
    const parts: { lines: string[]; weight: number }[] = [];
    groups.forEach((g, i) => {
      const last = parts.at(-1);
      if (last && last.weight + weights[i]! <= CHUNK_BRANCHES) (append(last.lines, g), (last.weight += weights[i]!));
      else parts.push({ lines: [...g], weight: weights[i]! });
    });
    for (const part of parts) {
      const body = ["let ok = true;", ...part.lines, "return ok;"].map((l) => `  ${l}\n`).join("");
      let fn = this.chunks.get(body);
      if (!fn) {
        fn = `$props${this.chunks.size + 1}`;
        this.chunks.set(body, fn);
        this.decls.push(new RawText(`function ${fn}(x, plain, p, e) {\n${body}}\n`));
      }
      L.block(`if (!${fn}(x, plain, p, e))`, () => {
        L.line("if (e === null) return false;");
        L.line("ok = false;");
      });
    }
  }

  private keyLoop(L: Lines, s: IrObjectLikeSchema): void {
    const patterns = (s.patternProperties ?? []).map((pp) => ({ re: this.regex(pp.pattern, pp.schema.pointer), check: this.check(pp.schema) }));
    const names = this.check(s.propertyNames ?? { kind: "boolean", value: true, pointer: s.pointer });
    const ap = s.additionalProperties;
    const apCheck = ap && !(ap.kind === "boolean") ? this.check(ap) : undefined;
    const declared = (s.properties ?? []).map((p) => p.name);
    let isDeclared = "false";
    if (declared.length > 0 && declared.length <= 8) isDeclared = declared.map((n) => `k === ${stringLiteral(n)}`).join(" || ");
    else if (declared.length > 8) isDeclared = `${this.hoist(`new Set([${declared.map((n) => stringLiteral(n)).join(", ")}])`)}.has(k)`;
    this.helpers.add("esc");
    L.block("for (const k in x)", () => {
      L.line(SKIP_INHERITED);
      L.line('const pk = e === null ? p : p + "/" + esc(k);');
      if (names !== "$true") this.sub(L, names, "k", "pk");
      const needMatch = ap !== undefined && !(ap.kind === "boolean" && ap.value);
      if (needMatch && patterns.length > 0) L.line("let matched = false;");
      for (const pt of patterns) {
        if (!pt.re) continue;
        L.block(`if (${pt.re("k")})`, () => {
          if (needMatch) L.line("matched = true;");
          this.sub(L, pt.check, "x[k]", "pk");
        });
      }
      if (needMatch) {
        const cond = [patterns.length > 0 ? "!matched" : undefined, isDeclared === "false" ? undefined : `!(${isDeclared})`].filter(Boolean).join(" && ");
        L.blockIf(cond === "", `if (${cond})`, () => {
          if (ap!.kind === "boolean") this.failStmt(L, "additionalProperties", '"must not have additional property \'" + k + "\'"', "false", "pk");
          else this.sub(L, apCheck!, "x[k]", "pk");
        });
      }
    });
  }

  private arrayKeywords(L: Lines, s: IrObjectLikeSchema, known: boolean): void {
    const any = s.items || s.prefixItems || s.minItems !== undefined || s.maxItems !== undefined || s.uniqueItems || s.contains;
    if (!any) return;
    L.blockIf(known, "if (Array.isArray(x))", () => {
      if (s.minItems !== undefined) L.block(`if (x.length < ${s.minItems})`, () => this.failStmt(L, "minItems", stringLiteral(`must have at least ${s.minItems} items`), String(s.minItems)));
      if (s.maxItems !== undefined) L.block(`if (x.length > ${s.maxItems})`, () => this.failStmt(L, "maxItems", stringLiteral(`must have at most ${s.maxItems} items`), String(s.maxItems)));
      if (s.uniqueItems) {
        this.helpers.add("unique");
        L.block("if (!unique(x))", () => this.failStmt(L, "uniqueItems", stringLiteral("must not contain duplicate items")));
      }
      const prefix = s.prefixItems ?? [];
      prefix.forEach((item, i) => {
        const check = this.check(item);
        if (check !== "$true") L.block(`if (x.length > ${i})`, () => this.sub(L, check, `x[${i}]`, `p + "/${i}"`));
      });
      if (s.items && !(s.items.kind === "boolean" && s.items.value)) {
        if (s.items.kind === "boolean") {
          L.block(`if (x.length > ${prefix.length})`, () => this.failStmt(L, "items", stringLiteral(`must have at most ${prefix.length} items`), String(prefix.length)));
        } else {
          const items = s.items;
          L.block(`for (let i = ${prefix.length}; i < x.length; i++)`, () => this.subSchema(L, items, "x[i]", 'p + "/" + i'));
        }
      }
      if (s.contains) {
        const check = this.check(s.contains);
        const min = s.minContains ?? 1;
        L.line("let found = 0;");
        L.line(`for (const item of x) if (${check}(item, p, null)) found++;`);
        if (min > 0) L.block(`if (found < ${min})`, () => this.failStmt(L, "contains", stringLiteral(min === 1 ? "must contain a matching item" : `must contain at least ${min} matching items`), String(min)));
        if (s.maxContains !== undefined) L.block(`if (found > ${s.maxContains})`, () => this.failStmt(L, "maxContains", stringLiteral(`must contain at most ${s.maxContains} matching items`), String(s.maxContains)));
      }
    });
  }

  /**
   * What the branches of an anyOf/oneOf allow, for its message, when some
   * are literal values (a block tag beside a quantity):
   * `: one of "latest", "safe", or a string matching ^0x…$`; "" otherwise.
   */
  private allowed(branches: IrSchema[]): string {
    const literals: JsonValue[] = [];
    const others = new Set<string>();
    const visit = (b: IrSchema, depth: number): void => {
      let t: IrSchema | undefined = b;
      for (let hops = 0; t?.kind === "ref" && hops < 8; hops++) t = this.byKey.get(t.target)?.schema;
      if (!t || t.kind !== "schema" || depth > 4) return void others.add("another value");
      if (t.const && isScalar(t.const.value)) literals.push(t.const.value);
      else if (t.enum && t.enum.every(isScalar)) append(literals, t.enum);
      else if ((t.anyOf || t.oneOf) && !t.types) for (const sub of t.anyOf ?? t.oneOf ?? []) visit(sub, depth + 1);
      else if (t.pattern !== undefined) others.add(`a string matching ${t.pattern}`);
      else if (t.types) others.add(`a value of type ${t.types.join(" | ")}`);
      else others.add("another value");
    };
    for (const b of branches) visit(b, 0);
    if (literals.length === 0) return "";
    const text = `: one of ${[...new Set(literals.map((v) => JSON.stringify(v)))].join(", ")}${others.size > 0 ? `, or ${[...others].join(", or ")}` : ""}`;
    return text.length > 300 ? `${text.slice(0, 299)}…` : text;
  }

  private composition(L: Lines, s: IrObjectLikeSchema): void {
    for (const part of s.allOf ?? []) this.sub(L, this.check(part), "x", "p");
    if (s.anyOf) {
      const checks = s.anyOf.map((v) => this.check(v));
      if (!checks.includes("$true")) L.block(`if (!(${checks.map((c) => `${c}(x, p, null)`).join(" || ")}))`, () => this.failStmt(L, "anyOf", stringLiteral(`must match a schema in anyOf${this.allowed(s.anyOf!)}`)));
    }
    if (s.oneOf) {
      const checks = s.oneOf.map((v) => this.check(v));
      L.line("let matches = 0;");
      for (const c of checks) L.line(`if (${c}(x, p, null)) matches++;`);
      L.block("if (matches !== 1)", () => this.failStmt(L, "oneOf", `(matches === 0 ? ${stringLiteral(`must match a schema in oneOf${this.allowed(s.oneOf!)}`)} : "must match exactly one schema in oneOf")`));
    }
    if (s.not) {
      const check = this.check(s.not);
      L.block(`if (${check}(x, p, null))`, () => this.failStmt(L, "not", stringLiteral("must not match the schema in not")));
    }
    if (s.if && (s.then || s.else)) {
      const cond = this.check(s.if);
      const then = s.then ? this.check(s.then) : undefined;
      const els = s.else ? this.check(s.else) : undefined;
      L.block(`if (${cond}(x, p, null))`, () => {
        if (then) this.sub(L, then, "x", "p");
      });
      if (els) L.block(`if (!${cond}(x, p, null))`, () => this.sub(L, els, "x", "p"));
    }
  }
}

/** A schema node without any assertion (only annotations): always valid. */
function isEmpty(s: IrObjectLikeSchema): boolean {
  const assertions = ["types", "enum", "const", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "allOf", "anyOf", "oneOf", "not", "if", "unevaluatedProperties", "unevaluatedItems"] as const;
  return !assertions.some((k) => s[k] !== undefined && s[k] !== false);
}
