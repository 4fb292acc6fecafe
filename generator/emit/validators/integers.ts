/**
 * Integer walkers (the number policy): for every schema that contains a
 * string-encoded integer (IR `integer`, from `x-avaspec-integer` or a string
 * with an integer format), a function `(x, f, p) => x'` that visits exactly
 * those integers by the schema and passes each to `f` — the runtime's
 * `decodeLeaf` (wire → bigint) or `encodeLeaf` (bigint | number → wire).
 * Walkers copy what they change (runtime `withKey`). A union picks its branch
 * with the branches' generated checks (runtime `walkUnion`). Keywords that
 * cannot be followed without evaluating the instance (if/then/else, not,
 * contains, dependentSchemas, patternProperties) are not walked: integers
 * under them keep their wire form.
 */
import { RawText } from "../../print.js";
import type { IrDocument, IrIntegerString, IrObjectLikeSchema, IrRefSchema, IrSchema } from "../../ir/types.js";
import { escapeToken } from "../../load/pointer.js";
import { stringLiteral } from "../escape.js";
import type { ValidatorCompiler } from "./compile.js";

/**
 * The leaf spec the runtime reads: "hex", "decimal/64", "signed decimal/64";
 * a JSON number's sign is the default, so "number/64", "unsigned number/64".
 */
function leafSpec(i: IrIntegerString): string {
  const bits = i.bits === undefined ? "" : `/${i.bits}`;
  if (i.encoding === "number") return `${i.signed ? "" : "unsigned "}number${bits}`;
  return `${i.signed ? "signed " : ""}${i.encoding}${bits}`;
}

/** The integer leaf of a schema node, as its spec. */
const integerLeaf = (s: IrSchema): string | undefined => (s.kind === "schema" && s.integer ? leafSpec(s.integer) : undefined);

/** A JSON number's leaf goes through runtime/values/exact.ts (`numberLeaf`), which reads and writes it with every digit. */
const numberCall = (spec: string): string | undefined => (/^(unsigned )?number/.test(spec) ? "numberLeaf" : undefined);

/**
 * Which leaves a family of walkers visits, and the prefix of their names:
 * the string-encoded integers (`i$…`, the default), or any other values a
 * schema node marks (the wire forms' `w$…` walkers, wire-forms.ts).
 */
export interface WalkerLeaves {
  prefix: string;
  leaf(s: IrSchema): string | undefined;
  /** A runtime helper that takes a leaf instead of `f` (`helper(x, f, spec, p)`), for leaves `f` alone cannot convert. */
  helper?(spec: string): string | undefined;
}

export class IntegerWalkers {
  /** Walker functions, in creation order (printed after the checks they use). */
  readonly decls: RawText[] = [];
  /** Runtime helpers the walkers use. */
  readonly helpers = new Set<string>();
  private readonly byKey: Map<string, IrDocument["schemas"][number]>;
  /** Named schemas that reach an integer. */
  private readonly withIntegers = new Set<string>();
  /** Named schemas that reach a leaf with a helper (a JSON-number integer). */
  private readonly withHelpers = new Set<string>();
  private readonly named = new Map<string, string>();
  private readonly anonymous = new Map<IrSchema, string | null>();
  private readonly bodies = new Map<string, string>();
  private count = 0;

  constructor(
    schemas: IrDocument["schemas"],
    private readonly compiler: ValidatorCompiler,
    private readonly leaves: WalkerLeaves = { prefix: "i$", leaf: integerLeaf, helper: numberCall },
  ) {
    this.byKey = new Map(schemas.map((s) => [s.key, s]));
    // the named schemas that reach an integer (and those that reach a JSON-number one): a fixpoint over $refs (cycles included)
    for (const [set, leaf] of [[this.withIntegers, (s: IrSchema) => this.leaves.leaf(s) !== undefined], [this.withHelpers, (s: IrSchema) => this.helperLeaf(s)]] as const) {
      for (let changed = true; changed; ) {
        changed = false;
        for (const s of schemas) {
          if (!set.has(s.key) && this.reaches(s.schema, set, leaf)) {
            set.add(s.key);
            changed = true;
          }
        }
      }
    }
  }

  private helperLeaf(s: IrSchema): boolean {
    const spec = this.leaves.leaf(s);
    return spec !== undefined && this.leaves.helper?.(spec) !== undefined;
  }

  /** The subschemas a walker follows. */
  private static children(s: IrObjectLikeSchema): IrSchema[] {
    return [...(s.properties ?? []).map((p) => p.schema), ...(s.additionalProperties ? [s.additionalProperties] : []), ...(s.prefixItems ?? []), ...(s.items ? [s.items] : []), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  }

  /** Whether a schema reaches a leaf `leaf` takes, with named schemas (`named`) as known so far. */
  private reaches(s: IrSchema, named: ReadonlySet<string> = this.withIntegers, leaf: (s: IrSchema) => boolean = (x) => this.leaves.leaf(x) !== undefined): boolean {
    if (leaf(s)) return true;
    if (s.kind === "ref") return named.has(s.target);
    if (s.kind === "boolean") return false;
    return IntegerWalkers.children(s).some((c) => this.reaches(c, named, leaf));
  }

  /** Whether values of the schema can hold a string-encoded integer. */
  has(s: IrSchema): boolean {
    return this.reaches(s);
  }

  /** Whether values of the schema can hold a JSON-number integer (format int64), which reading needs the text for. */
  hasNumbers(s: IrSchema): boolean {
    return this.reaches(s, this.withHelpers, (x) => this.helperLeaf(x));
  }

  /** The walker of a schema, or undefined when it holds no integer. */
  walker(s: IrSchema): string | undefined {
    if (!this.reaches(s)) return undefined;
    if (s.kind === "ref" && this.leaves.leaf(s) === undefined) return this.namedWalker(s.target);
    if (s.kind === "boolean") return undefined;
    const known = this.anonymous.get(s);
    if (known !== undefined) return known ?? undefined;
    const fn = this.emit(`${this.leaves.prefix}${++this.count}`, s, true);
    this.anonymous.set(s, fn);
    return fn;
  }

  /** The walker of a named schema (emitted once, so recursion terminates). */
  namedWalker(key: string): string | undefined {
    if (!this.withIntegers.has(key)) return undefined;
    const existing = this.named.get(key);
    if (existing) return existing;
    const s = this.byKey.get(key)!;
    const fn = `${this.leaves.prefix}${s.name}`;
    this.named.set(key, fn);
    if (s.schema.kind === "ref" && this.leaves.leaf(s.schema) === undefined) {
      const target = this.namedWalker(s.schema.target)!;
      this.decls.push(new RawText(`const ${fn} = (x, f, p) => ${target}(x, f, p);\n`));
      this.helpers.add("Walk");
      return fn;
    }
    this.emit(fn, s.schema as IrObjectLikeSchema | IrRefSchema, false);
    return fn;
  }

  private emit(fn: string, s: IrObjectLikeSchema | IrRefSchema, anonymous: boolean): string {
    const slot = this.decls.length;
    this.decls.push(new RawText(""));
    const lines = this.body(s);
    if (anonymous) {
      const key = lines.join("\n");
      const same = this.bodies.get(key);
      if (same) {
        this.decls.splice(slot, 1);
        return same;
      }
      this.bodies.set(key, fn);
    }
    this.helpers.add("Leaf");
    this.decls[slot] = new RawText(`function ${fn}(x, f, p) {\n${lines.map((l) => `  ${l}\n`).join("")}}\n`);
    return fn;
  }

  private body(s: IrObjectLikeSchema | IrRefSchema): string[] {
    const out: string[] = [];
    const leaf = this.leaves.leaf(s);
    const helper = leaf === undefined ? undefined : this.leaves.helper?.(leaf);
    if (helper) this.helpers.add(helper);
    if (leaf !== undefined) out.push(helper ? `x = ${helper}(x, f, ${stringLiteral(leaf)}, p);` : `x = f(x, ${stringLiteral(leaf)}, p);`);
    if (s.kind === "ref") {
      // a reference with a leaf of its own (a wire form beside a $ref): the leaf, then what the target holds
      const target = this.namedWalker(s.target);
      if (target) out.push(`x = ${target}(x, f, p);`);
      out.push("return x;");
      return out;
    }
    for (const member of s.allOf ?? []) {
      const w = this.walker(member);
      if (w) out.push(`x = ${w}(x, f, p);`);
    }
    for (const list of [s.anyOf, s.oneOf]) {
      const branches = (list ?? []).flatMap((b) => {
        const w = this.walker(b);
        return w ? [`[${w}, ${this.compiler.check(b)}]`] : [];
      });
      if (branches.length > 0) {
        this.helpers.add("walkUnion");
        out.push(`x = walkUnion(x, f, p, [${branches.join(", ")}], ${this.compiler.check(s)});`);
      }
    }
    const props = (s.properties ?? []).flatMap((prop) => {
      const w = this.walker(prop.schema);
      return w ? [{ name: prop.name, w }] : [];
    });
    const extra = s.additionalProperties ? this.walker(s.additionalProperties) : undefined;
    if (props.length > 0 || extra) {
      this.helpers.add("isObject").add("prop");
      out.push("if (isObject(x)) {");
      out.push("  let c;");
      for (const { name, w } of props) out.push(`  c = prop(x, c, ${stringLiteral(name)}, ${stringLiteral(`/${escapeToken(name)}`)}, ${w}, f, p);`);
      if (extra) {
        this.helpers.add("withKey");
        const known = (s.properties ?? []).map((p) => p.name);
        out.push("  for (const k of Object.keys(x)) {");
        if (known.length > 0) out.push(`    if (${known.map((k) => `k === ${stringLiteral(k)}`).join(" || ")}) continue;`);
        out.push(`    const v = x[k];`);
        out.push(`    if (v !== undefined) c = withKey(x, c, k, v, ${extra}(v, f, p + "/" + k.replace(/~/g, "~0").replace(/\\//g, "~1")));`);
        out.push("  }");
      }
      out.push("  if (c !== undefined) x = c;");
      out.push("}");
    }
    const prefix = (s.prefixItems ?? []).map((item) => this.walker(item));
    const items = s.items ? this.walker(s.items) : undefined;
    if (prefix.some((w) => w !== undefined) || items) {
      out.push("if (Array.isArray(x)) {");
      if (prefix.some((w) => w !== undefined)) {
        this.helpers.add("withKey");
        out.push("  let c;");
        prefix.forEach((w, i) => {
          if (w) out.push(`  if (x.length > ${i}) c = withKey(x, c, ${i}, x[${i}], ${w}(x[${i}], f, p + "/${i}"));`);
        });
        out.push("  if (c !== undefined) x = c;");
      }
      if (items) {
        this.helpers.add("items");
        out.push(`  x = items(x, ${prefix.length}, ${items}, f, p);`);
      }
      out.push("}");
    }
    out.push("return x;");
    return out;
  }
}
