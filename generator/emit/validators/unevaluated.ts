/**
 * `unevaluatedProperties` / `unevaluatedItems`: the keys and indexes that the
 * schema's own keywords and its in-place subschemas (allOf, successful
 * anyOf/oneOf branches, if/then/else, dependentSchemas, $ref) evaluated are
 * collected first by an annotation function `$aN(x, seen)`; the rest must match.
 */
import type { IrObjectLikeSchema, IrSchema } from "../../ir/types.js";
import { stringLiteral } from "../escape.js";
import type { CheckEmitter } from "./emitter.js";
import { Lines } from "./lines.js";
import { present, setPlain, SKIP_INHERITED } from "./objects.js";

type Kind = "props" | "items";

export class Annotations {
  /** Annotation functions per schema (by node, or by target for refs) and variant. */
  private readonly fns = new Map<IrSchema | string, Map<string, string>>();

  constructor(private readonly c: CheckEmitter) {}

  /** The statements checking the unevaluated properties and items of `x`. */
  unevaluated(L: Lines, s: IrObjectLikeSchema): void {
    const c = this.c;
    if (s.unevaluatedProperties) {
      const ann = this.function(s, "props", true);
      const u = s.unevaluatedProperties;
      c.helpers.add("isObject");
      c.helpers.add("hasOwn");
      c.helpers.add("esc");
      L.block("if (isObject(x))", () => {
        L.line("const seen = new Set();");
        L.line(`${ann}(x, seen);`);
        L.block("for (const k in x)", () => {
          L.line(SKIP_INHERITED);
          L.line("if (seen.has(k)) continue;");
          L.line('const pk = e === null ? p : p + "/" + esc(k);');
          if (u.kind === "boolean" && !u.value) c.failStmt(L, "unevaluatedProperties", '"must not have unevaluated property \'" + k + "\'"', "false", "pk");
          else c.sub(L, c.check(u), "x[k]", "pk");
        });
      });
    }
    if (s.unevaluatedItems) {
      const ann = this.function(s, "items", true);
      const u = s.unevaluatedItems;
      L.block("if (Array.isArray(x))", () => {
        L.line("const seen = { n: 0, all: false, at: new Set() };");
        L.line(`${ann}(x, seen);`);
        L.block("if (!seen.all)", () => {
          L.block("for (let i = seen.n; i < x.length; i++)", () => {
            L.line("if (seen.at.has(i)) continue;");
            if (u.kind === "boolean" && !u.value) c.failStmt(L, "unevaluatedItems", '"must not have unevaluated item " + i', "false", 'p + "/" + i');
            else c.sub(L, c.check(u), "x[i]", 'p + "/" + i');
          });
        });
      });
    }
  }

  /** A function adding what a schema evaluates on an instance to `seen` (property names, or item counts). */
  private function(s: IrSchema, kind: Kind, skipOwnUnevaluated = false): string {
    const owner = s.kind === "ref" ? s.target : s;
    const variant = `${kind}:${skipOwnUnevaluated}`;
    let byVariant = this.fns.get(owner);
    if (!byVariant) this.fns.set(owner, (byVariant = new Map()));
    const cached = byVariant.get(variant);
    if (cached) return cached;
    const fn = `$a${this.c.nextId()}`;
    byVariant.set(variant, fn);
    const fill = this.c.reserve();
    const L = new Lines();
    const target = s.kind === "ref" ? this.c.resolve(s.target) : s;
    if (target && target.kind === "schema") this.body(L, target, kind, skipOwnUnevaluated);
    else if (target && target.kind === "ref") L.line(`${this.function(target, kind)}(x, seen);`);
    const lines = L.out;
    fill((w) => {
      w.writeLine(`function ${fn}(x, seen) {`);
      for (const l of lines) w.writeLine(`  ${l}`);
      w.writeLine("}");
    });
    return fn;
  }

  private body(L: Lines, s: IrObjectLikeSchema, kind: Kind, skipOwnUnevaluated: boolean): void {
    const c = this.c;
    const inPlace = (sub: IrSchema | undefined, guard?: string) => {
      if (!sub || sub.kind === "boolean") return;
      const call = `${this.function(sub, kind)}(x, seen);`;
      if (guard) L.block(`if (${guard})`, () => L.line(call));
      else L.line(call);
    };
    if (kind === "props") this.ownProperties(L, s, skipOwnUnevaluated, inPlace);
    else {
      L.line("if (!Array.isArray(x)) return;");
      if (s.items !== undefined || (!skipOwnUnevaluated && s.unevaluatedItems !== undefined)) L.line("seen.all = true;");
      if (s.prefixItems) L.line(`seen.n = Math.max(seen.n, Math.min(x.length, ${s.prefixItems.length}));`);
      if (s.contains) L.line(`for (let i = 0; i < x.length; i++) if (${c.check(s.contains)}(x[i], "", null)) seen.at.add(i);`);
    }
    for (const sub of s.allOf ?? []) inPlace(sub);
    for (const list of [s.anyOf, s.oneOf]) for (const sub of list ?? []) inPlace(sub, `${c.check(sub)}(x, "", null)`);
    if (s.if) {
      const cond = c.check(s.if);
      L.block(`if (${cond}(x, "", null))`, () => {
        inPlace(s.if);
        inPlace(s.then);
      });
      if (s.else) L.block("else", () => inPlace(s.else));
    }
  }

  /** The property names the schema's own object keywords evaluate. */
  private ownProperties(L: Lines, s: IrObjectLikeSchema, skipOwnUnevaluated: boolean, inPlace: (sub: IrSchema | undefined, guard?: string) => void): void {
    const c = this.c;
    c.helpers.add("isObject");
    c.helpers.add("hasOwn");
    L.line("if (!isObject(x)) return;");
    const all = s.additionalProperties !== undefined || (!skipOwnUnevaluated && s.unevaluatedProperties !== undefined);
    if ((!all && (s.properties?.length ?? 0) > 0) || Object.keys(s.dependentSchemas ?? {}).length > 0) setPlain(c, L);
    if (all) {
      L.block("for (const k in x)", () => {
        L.line(SKIP_INHERITED);
        L.line("seen.add(k);");
      });
    } else {
      for (const p of s.properties ?? []) L.line(`if (${present(p.name)}) seen.add(${stringLiteral(p.name)});`);
      const patterns = (s.patternProperties ?? []).map((pp) => c.regex(pp.pattern, pp.schema.pointer)).filter((r) => r !== undefined);
      if (patterns.length > 0)
        L.block("for (const k in x)", () => {
          L.line(SKIP_INHERITED);
          L.line(`if (${patterns.map((r) => r("k")).join(" || ")}) seen.add(k);`);
        });
    }
    for (const [k, dep] of Object.entries(s.dependentSchemas ?? {})) inPlace(dep, `${present(k)} && ${c.check(dep)}(x, "", null)`);
  }
}
