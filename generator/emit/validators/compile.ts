/**
 * JSON Schema (as IR) → plain TypeScript check functions. Each schema node
 * becomes a function `(x, p, e) => boolean`: `e` collects issues, or is null
 * when only the answer matters (inside anyOf, oneOf, not, if, contains).
 * Keywords follow 2020-12 semantics; the IR already normalised OpenAPI 3.0
 * and draft-07 forms. Spec strings reach the output only through escape.ts.
 *
 * This class holds what the checks share (the functions already emitted,
 * hoisted constants, the helpers used) and writes a schema's body by
 * keyword family: scalars.ts, objects.ts, arrays.ts, composition.ts,
 * unevaluated.ts, each over the CheckEmitter interface (emitter.ts).
 */
import type { WriterFunction } from "../../writer.js";
import { RawText } from "../../print.js";
import type { IrDocument, IrObjectLikeSchema, IrSchema } from "../../ir/types.js";
import { patternFlags } from "../../ir/resolve.js";
import { BoundedNesting } from "../../nesting.js";
import { literal, stringLiteral } from "../escape.js";
import { writeValue } from "../value.js";
import { planPattern } from "./pattern.js";
import { wireFormCheck } from "./wire-forms.js";
import type { CallSite, CheckEmitter } from "./emitter.js";
import { Lines } from "./lines.js";
import { predicate } from "./predicate.js";
import { numberKeywords, stringKeywords, valueKeywords } from "./scalars.js";
import { objectKeywords } from "./objects.js";
import { arrayKeywords } from "./arrays.js";
import { composition } from "./composition.js";
import { Annotations } from "./unevaluated.js";

export interface CompileProblem {
  pointer: string;
  message: string;
}

const TYPE_TEST: Record<string, string> = {
  string: 'typeof x === "string"',
  number: 'typeof x === "number"',
  integer: "Number.isInteger(x)",
  // a JSON integer beyond 2^53 (format int64) as a client reads it under numbers: "bigint"
  bigint: 'typeof x === "bigint"',
  boolean: 'typeof x === "boolean"',
  null: "x === null",
  array: "Array.isArray(x)",
  object: "isObject(x)",
};

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

/** Named schemas compiled one inside the other before the rest are queued (each level costs a few stack frames). */
const MAX_NAMED_DEPTH = 200;


export class ValidatorCompiler implements CheckEmitter {
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
  private readonly annotations = new Annotations(this);

  constructor(
    schemas: IrDocument["schemas"],
    private readonly options: CompilerOptions = {},
  ) {
    this.byKey = new Map(schemas.map((s) => [s.key, s]));
  }

  resolve(key: string): IrSchema | undefined {
    return this.byKey.get(key)?.schema;
  }

  nextId(): number {
    return ++this.count;
  }

  declare(decl: WriterFunction | RawText): void {
    this.decls.push(decl);
  }

  reserve(): (decl: WriterFunction | RawText) => void {
    const slot = this.decls.length;
    this.decls.push(() => undefined);
    return (decl) => void (this.decls[slot] = decl);
  }

  /** Shared functions by prefix, then body text. */
  private readonly sharedFns = new Map<string, Map<string, string>>();

  shared(prefix: string, params: string, body: string): string {
    let byBody = this.sharedFns.get(prefix);
    if (!byBody) this.sharedFns.set(prefix, (byBody = new Map()));
    let fn = byBody.get(body);
    if (!fn) {
      fn = `${prefix}${byBody.size + 1}`;
      byBody.set(body, fn);
      this.decls.push(new RawText(`function ${fn}(${params}) {\n${body}}\n`));
    }
    return fn;
  }

  formatFn(format: string | undefined): string | undefined {
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
    const fill = this.reserve();
    this.nesting.run(() => this.emitFunction(fn, s.schema, false, fill));
    return fn;
  }

  private readonly nesting = new BoundedNesting(MAX_NAMED_DEPTH);

  /** Check functions per schema node, so asking twice never emits a second copy. */
  private readonly checks = new Map<IrSchema, string>();

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

  hoist(text: string): string {
    const known = this.hoisted.get(text);
    if (known) return known;
    const name = `$c${++this.count}`;
    this.hoisted.set(text, name);
    this.decls.push((w) => w.writeLine(`const ${name} = /*#__PURE__*/ ${text};`));
    return name;
  }

  hoistValue(value: unknown): string {
    const name = `$c${++this.count}`;
    this.decls.push((w) => {
      w.write(`const ${name} = `);
      writeValue(w, value);
      w.write(";").newLine();
    });
    return name;
  }

  /**
   * The test for a pattern, as a function of the tested string's expression:
   * a hoisted regular expression (see pattern.ts for the rewrites that make it
   * faster), with a length range first where the rewrite implies one. A
   * pattern JavaScript cannot compile is a problem, not broken output.
   */
  regex(pattern: string, pointer: string, requestOnly = false): ((v: string) => string) | undefined {
    const flags = patternFlags(pattern);
    if (flags === undefined) {
      this.problems.push({ pointer, message: `pattern ${JSON.stringify(pattern)} is not a valid regular expression` });
      return undefined;
    }
    const plan = planPattern(pattern, flags);
    const args = `${stringLiteral(plan.source)}${plan.flags ? `, ${stringLiteral(plan.flags)}` : ""}`;
    if (requestOnly) {
      // x-avaspec-response-pattern: false: the same check in both directions, its test passing any string in a response
      // (the runtime's flag); the length range the pattern implies is the pattern's, so it goes too
      // (string arguments, not a RegExp: a bundler drops the pure call where no check uses it)
      this.helpers.add("requestOnly");
      const re = this.hoist(`requestOnly(${args})`);
      return (v) => `${re}.test(${v})`;
    }
    const re = this.hoist(`new RegExp(${args})`);
    const { minLength: min, maxLength: max } = plan;
    return (v) => {
      const len = min !== undefined && min === max ? [`${v}.length === ${min}`] : [min !== undefined ? `${v}.length >= ${min}` : "", max !== undefined ? `${v}.length <= ${max}` : ""].filter(Boolean);
      return len.length > 0 ? `(${[...len, `${re}.test(${v})`].join(" && ")})` : `${re}.test(${v})`;
    };
  }

  /** Emits the function for `s` as `fn`; an anonymous one may come back as an identical existing function. */
  private emitFunction(fn: string, s: IrSchema, anonymous: boolean, reserved?: (decl: WriterFunction | RawText) => void): string {
    const fill = reserved ?? this.reserve();
    if (s.wireForm) {
      fill(wireFormCheck(this, fn, s));
      return fn;
    }
    if (s.kind === "ref") {
      const target = this.namedCheck(s.target);
      fill((w) => w.writeLine(`const ${fn} = (x, p, e) => ${target}(x, p, e);`));
      return fn;
    }
    if (s.kind === "boolean") {
      const target = this.constant(s.value);
      fill((w) => w.writeLine(`const ${fn} = ${target};`));
      return fn;
    }
    const L = new Lines();
    this.body(L, s);
    const lines = L.out;
    // schemas of the same shape compile to the same body: one function, and the others name it
    const key = lines.join("\n");
    const same = this.bodies.get(key);
    if (same && anonymous) return same;
    if (same) {
      fill((w) => w.writeLine(`const ${fn} = ${same};`));
      return fn;
    }
    this.bodies.set(key, fn);
    // the bulk of a large module's output: already formatted, so printed as is
    fill(new RawText(`function ${fn}(x, p, e) {\n${lines.map((l) => `  ${l}\n`).join("")}}\n`));
    return fn;
  }

  subSchema(L: Lines, schema: IrSchema, x: string, path: string, where: CallSite = {}): void {
    const check = this.check(schema);
    if (check === "$true") return;
    const pred = predicate(this, schema, "v");
    const head = where.chained ? "else if" : "if";
    const simple = /^v\d+$/.test(x);
    if (pred === undefined || pred === "true") {
      // no cheap test: the check itself decides, after the guard (the answer-only pass never builds a path)
      const arg = path === "p" || path === "pk" ? path : `e === null ? p : ${path}`;
      const cond = [where.pre, where.guard, `!${check}(${x}, ${arg}, e)`].filter((c) => c !== undefined).join(" && ");
      L.block(`${head} (${cond})`, () => {
        L.line("if (e === null) return false;");
        L.line("ok = false;");
      });
      return;
    }
    const failing = (v: string) => {
      const cond = [where.pre, `!(${simple ? pred.replace(/\bv\b/g, v) : pred})`, where.guard].filter((c) => c !== undefined).join(" && ");
      L.block(`${head} (${cond})`, () => {
        L.line("if (e === null) return false;");
        L.line(`${check}(${v}, ${path}, e);`);
        L.line("ok = false;");
      });
    };
    if (simple) failing(x);
    else
      L.block("", () => {
        L.line(`const v = ${x};`);
        failing("v");
      });
  }

  failStmt(L: Lines, keyword: string, message: string, expected?: unknown, path = "p"): void {
    this.helpers.add("fail");
    const exp = expected === undefined ? "" : `, ${expected}`;
    L.line(`if (e === null) return false;`);
    L.line(`ok = fail(e, ${path}, ${stringLiteral(keyword)}, ${message}${exp});`);
  }

  sub(L: Lines, check: string, x: string, path: string): void {
    if (check === "$true") return;
    // the answer-only pass (e === null) never builds a path
    const arg = path === "p" || path === "pk" ? path : `e === null ? p : ${path}`;
    L.block(`if (!${check}(${x}, ${arg}, e))`, () => {
      L.line("if (e === null) return false;");
      L.line("ok = false;");
    });
  }

  /** The test of a `type` list on `v`; registers the helpers it calls (the only way TYPE_TEST is read). */
  typeTest(types: readonly string[], v: string, format?: string): string {
    if (types.includes("object")) this.helpers.add("isObject");
    // raw bytes may also come as a Blob, an ArrayBuffer or a typed array
    const binary = format === "binary" && types.includes("string");
    if (binary) this.helpers.add("isBinary");
    return [...types.map((t) => TYPE_TEST[t]!.replace(/\bx\b/g, v)), ...(binary ? [`isBinary(${v})`] : [])].join(" || ");
  }

  /** A schema's function body: its type, then each keyword family; `ok` collects the verdict. */
  private body(L: Lines, s: IrObjectLikeSchema): void {
    L.line("let ok = true;");
    let done: "object" | "array" | undefined;
    if (s.types && s.types.length > 0) {
      const types = s.types.includes("number") ? s.types.filter((t) => t !== "integer") : s.types;
      // a single object or array type: its keywords go in the else branch, so the type is tested once
      done = types.length === 1 && (types[0] === "object" || types[0] === "array") ? types[0] : undefined;
      const tested = s.integer?.encoding === "number" ? [...types, "bigint"] : types;
      L.block(`if (!(${this.typeTest(tested, "x", s.format)}))`, () => this.failStmt(L, "type", stringLiteral(`must be ${types.join(" or ")}`), literal(types.join(","))));
      if (done === "object") L.block("else", () => objectKeywords(this, L, s, true));
      if (done === "array") L.block("else", () => arrayKeywords(this, L, s, true));
    }
    valueKeywords(this, L, s);
    stringKeywords(this, L, s);
    numberKeywords(this, L, s);
    if (done !== "object") objectKeywords(this, L, s, false);
    if (done !== "array") arrayKeywords(this, L, s, false);
    composition(this, L, s);
    this.annotations.unevaluated(L, s);
    L.line("return ok;");
  }
}

/** A schema node without any assertion (only annotations): always valid. */
function isEmpty(s: IrObjectLikeSchema): boolean {
  const assertions = ["types", "enum", "const", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "allOf", "anyOf", "oneOf", "not", "if", "unevaluatedProperties", "unevaluatedItems"] as const;
  return !assertions.some((k) => s[k] !== undefined && s[k] !== false);
}
