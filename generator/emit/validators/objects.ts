/**
 * The object keywords (properties, required, bounds, dependent keywords and
 * the key loop of additionalProperties / patternProperties / propertyNames),
 * as check statements on `x`.
 */
import type { IrObjectLikeSchema } from "../../ir/types.js";
import { append } from "../../append.js";
import { escapeToken } from "../../load/pointer.js";
import { stringLiteral } from "../escape.js";
import type { CheckEmitter } from "./emitter.js";
import { Lines } from "./lines.js";

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
export function present(k: string): string {
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
export function setPlain(c: CheckEmitter, L: Lines): void {
  c.helpers.add("OP");
  L.line("const plain = x.constructor === Object && Object.getPrototypeOf(x) === OP;");
}

/**
 * In a key loop: skip `k` unless it is own (for-in also lists inherited
 * enumerable keys). V8 folds `hasOwnProperty.call(x, k)` away inside
 * `for (k in x)` when x has an enum cache, so this costs next to nothing.
 */
export const SKIP_INHERITED = "if (!hasOwn(x, k)) continue;";

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

/** `known`: the caller already tested that `x` is an object. */
export function objectKeywords(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema, known: boolean): void {
  const props = s.properties ?? [];
  const loop = s.additionalProperties !== undefined || (s.patternProperties?.length ?? 0) > 0 || s.propertyNames !== undefined;
  const any = props.length > 0 || (s.required?.length ?? 0) > 0 || loop || s.minProperties !== undefined || s.maxProperties !== undefined || s.dependentRequired || s.dependentSchemas;
  if (!any) return;
  c.helpers.add("isObject");
  L.blockIf(known, "if (isObject(x))", () => {
    c.helpers.add("hasOwn");
    if (props.length > 0 || (s.required?.length ?? 0) > 0 || s.dependentRequired || s.dependentSchemas) setPlain(c, L);
    propertyChecks(c, L, propertyGroups(c, s));
    propertyCount(c, L, s);
    for (const [k, needs] of Object.entries(s.dependentRequired ?? {})) {
      L.block(`if (${present(k)})`, () => {
        for (const n of needs) L.block(`if (!${present(n)})`, () => c.failStmt(L, "dependentRequired", stringLiteral(`must have property '${n}' when property '${k}' is present`), stringLiteral(n)));
      });
    }
    for (const [k, dep] of Object.entries(s.dependentSchemas ?? {})) {
      const check = c.check(dep);
      L.block(`if (${present(k)})`, () => c.sub(L, check, "x", "p"));
    }
    if (loop) keyLoop(c, L, s);
  });
}

/**
 * Each property's check lines apart (to be split into helper functions when
 * there are many, see FLAT_BRANCHES). A missing required property is reported
 * at its own path, so the issue names the field.
 */
function propertyGroups(c: CheckEmitter, s: IrObjectLikeSchema): string[][] {
  const required = new Set(s.required ?? []);
  const checked = new Set<string>();
  const groups: string[][] = [];
  for (const p of s.properties ?? []) {
    const key = stringLiteral(p.name);
    const path = `p + ${stringLiteral("/" + escapeToken(p.name))}`;
    const trivial = c.check(p.schema) === "$true";
    if (trivial && !required.has(p.name)) continue;
    checked.add(p.name);
    const v = `v${checked.size}`;
    const G = new Lines();
    groups.push(G.out);
    if (INHERITED.has(p.name)) {
      G.line(`const ${v} = hasOwn(x, ${key}) ? x[${key}] : undefined;`);
      if (required.has(p.name)) {
        G.block(`if (${v} === undefined)`, () => c.failStmt(G, "required", stringLiteral("is required"), key, path));
        if (!trivial) c.subSchema(G, p.schema, v, path, { chained: true });
      } else c.subSchema(G, p.schema, v, path, { pre: `${v} !== undefined` });
    } else {
      G.line(`const ${v} = x[${key}];`);
      if (required.has(p.name)) {
        G.block(`if (${v} === undefined || !${own(p.name)})`, () => c.failStmt(G, "required", stringLiteral("is required"), key, path));
        if (!trivial) c.subSchema(G, p.schema, v, path, { chained: true });
      } else {
        // an optional value that passes is fine whether own or inherited: ownership is asked only on failure
        c.subSchema(G, p.schema, v, path, { pre: `${v} !== undefined`, guard: own(p.name) });
      }
    }
  }
  for (const r of required) {
    if (checked.has(r)) continue;
    const G = new Lines();
    groups.push(G.out);
    G.block(`if (!${present(r)})`, () => c.failStmt(G, "required", stringLiteral("is required"), stringLiteral(r), `p + ${stringLiteral("/" + escapeToken(r))}`));
  }
  return groups;
}

function propertyCount(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  if (s.minProperties === undefined && s.maxProperties === undefined) return;
  L.line("let count = 0;");
  L.block("for (const k in x)", () => {
    L.line(SKIP_INHERITED);
    L.line("if (x[k] !== undefined) count++;");
  });
  if (s.minProperties !== undefined) L.block(`if (count < ${s.minProperties})`, () => c.failStmt(L, "minProperties", stringLiteral(`must have at least ${s.minProperties} properties`), String(s.minProperties)));
  if (s.maxProperties !== undefined) L.block(`if (count > ${s.maxProperties})`, () => c.failStmt(L, "maxProperties", stringLiteral(`must have at most ${s.maxProperties} properties`), String(s.maxProperties)));
}

/**
 * The property checks of an object (`x`, `plain`, `p`, `e` and `ok` in
 * scope), in place, or in helper functions `$propsN` called in turn when
 * they have many branches (see FLAT_BRANCHES). A helper returns false as
 * soon as a check fails when only the answer matters (e === null), else
 * after collecting its issues, so calling it changes nothing for the caller.
 */
function propertyChecks(c: CheckEmitter, L: Lines, groups: string[][]): void {
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
    const fn = c.shared("$props", "x, plain, p, e", body);
    L.block(`if (!${fn}(x, plain, p, e))`, () => {
      L.line("if (e === null) return false;");
      L.line("ok = false;");
    });
  }
}

/** One loop over the keys for additionalProperties, patternProperties and propertyNames. */
function keyLoop(c: CheckEmitter, L: Lines, s: IrObjectLikeSchema): void {
  const patterns = (s.patternProperties ?? []).map((pp) => ({ re: c.regex(pp.pattern, pp.schema.pointer), check: c.check(pp.schema) }));
  const names = c.check(s.propertyNames ?? { kind: "boolean", value: true, pointer: s.pointer });
  const ap = s.additionalProperties;
  const apCheck = ap && !(ap.kind === "boolean") ? c.check(ap) : undefined;
  const declared = (s.properties ?? []).map((p) => p.name);
  let isDeclared = "false";
  if (declared.length > 0 && declared.length <= 8) isDeclared = declared.map((n) => `k === ${stringLiteral(n)}`).join(" || ");
  else if (declared.length > 8) isDeclared = `${c.hoist(`new Set([${declared.map((n) => stringLiteral(n)).join(", ")}])`)}.has(k)`;
  c.helpers.add("esc");
  L.block("for (const k in x)", () => {
    L.line(SKIP_INHERITED);
    L.line('const pk = e === null ? p : p + "/" + esc(k);');
    if (names !== "$true") c.sub(L, names, "k", "pk");
    const needMatch = ap !== undefined && !(ap.kind === "boolean" && ap.value);
    if (needMatch && patterns.length > 0) L.line("let matched = false;");
    for (const pt of patterns) {
      if (!pt.re) continue;
      L.block(`if (${pt.re("k")})`, () => {
        if (needMatch) L.line("matched = true;");
        c.sub(L, pt.check, "x[k]", "pk");
      });
    }
    if (needMatch) {
      const cond = [patterns.length > 0 ? "!matched" : undefined, isDeclared === "false" ? undefined : `!(${isDeclared})`].filter(Boolean).join(" && ");
      L.blockIf(cond === "", `if (${cond})`, () => {
        if (ap!.kind === "boolean") c.failStmt(L, "additionalProperties", '"must not have additional property \'" + k + "\'"', "false", "pk");
        else c.sub(L, apCheck!, "x[k]", "pk");
      });
    }
  });
}
