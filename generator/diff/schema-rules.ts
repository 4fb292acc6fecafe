/**
 * The diff rules for schemas, read in a direction: what a request accepts
 * (narrowing breaks an existing client) and what a response sends (widening
 * breaks an existing reader). Schemas are compared through their `$ref`s, each
 * pair once per direction; an object that became a union (or back) is judged
 * as a whole.
 */
import type { PatternSample } from "../emit/validators/pattern.js";
import { samplePattern } from "../emit/validators/pattern.js";
import { patternFlags } from "../ir/resolve.js";
import type { IrNamedSchema, IrObjectLikeSchema, IrSchema, JsonType } from "../ir/types.js";
import { pairBranches } from "./branches.js";
import type { Change, ChangeClass, ChangeList, Dir } from "./changes.js";

const covers = (types: JsonType[], t: JsonType) => types.includes(t) || (t === "integer" && types.includes("number"));

export class SchemaRules {
  /** A schema reached from many operations is compared once per direction (its changes are reported at the first). */
  readonly seen = new Set<string>();
  private readonly ids = new WeakMap<object, number>();
  private lastId = 0;

  constructor(
    private readonly changes: ChangeList,
    private readonly oldByKey: Map<string, IrNamedSchema>,
    private readonly newByKey: Map<string, IrNamedSchema>,
  ) {}

  private idOf(s: object): number {
    return this.ids.get(s) ?? (this.ids.set(s, ++this.lastId), this.lastId);
  }

  private resolve(s: IrSchema, byKey: Map<string, IrNamedSchema>): Exclude<IrSchema, { kind: "ref" }> | undefined {
    let cur: IrSchema | undefined = s;
    for (let hops = 0; cur?.kind === "ref" && hops < 64; hops++) cur = byKey.get(cur.target)?.schema;
    return cur === undefined || cur.kind === "ref" ? undefined : cur;
  }

  /** The JSON types a schema allows (undefined: any); a union without types of its own allows its branches' (3.0 `nullable` adds "null"). */
  private typesOf(s: IrObjectLikeSchema, byKey: Map<string, IrNamedSchema>, depth = 0): JsonType[] | undefined {
    const own: JsonType[] | undefined = s.types ?? (s.properties || s.additionalProperties ? ["object"] : s.items || s.prefixItems ? ["array"] : undefined);
    const branches = s.oneOf ?? s.anyOf;
    if (!branches || depth > 8 || (own && !own.every((t) => t === "null"))) return own;
    const each = branches.map((b) => {
      const r = this.resolve(b, byKey);
      return r?.kind === "schema" ? this.typesOf(r, byKey, depth + 1) : undefined;
    });
    return each.every((t) => t !== undefined) ? [...new Set([...(own ?? []), ...each.flat()])] : undefined;
  }

  compare(o0: IrSchema, n0: IrSchema, dir: Dir, operation: string, files: [string | undefined, string | undefined], path: string, seen: Set<string> = this.seen): void {
    const o = this.resolve(o0, this.oldByKey);
    const n = this.resolve(n0, this.newByKey);
    if (!o || !n) return;
    // keyed by the schemas themselves (past their $refs), so a shared schema is compared once per direction; not by
    // pointer: a 3.0 `nullable` union wraps the union it makes nullable under the same pointer
    const key = `${this.idOf(o)}|${this.idOf(n)}|${dir}`;
    if (seen.has(key)) return;
    seen.add(key);
    const at = { operation, old: [files[0], o.pointer] as [string | undefined, string], new: [files[1], n.pointer] as [string | undefined, string] };
    const where = path === "" ? "" : ` at ${path}`;
    const narrowing = dir === "request" ? "breaking-wire" : "addition";
    if (o.kind === "boolean" || n.kind === "boolean") {
      const ob = o.kind === "boolean" ? o.value : true;
      const nb = n.kind === "boolean" ? n.value : true;
      if (ob && !nb && dir === "request") this.changes.add("request-type-narrowed", "breaking-wire", `${dir}${where} accepts nothing any more`, at);
      return;
    }
    if (o.description !== n.description && path !== "") this.changes.add("description-changed", "documentation", `description${where} changed`, at);
    if (n.deprecated && !o.deprecated) this.changes.add("schema-deprecated", "deprecation", `${dir}${where} is deprecated`, at);
    // the number policy: a string newly read as an integer (or no longer) changes the generated type, not the wire
    const oi = o.integer ? `${o.integer.encoding}${o.integer.signed ? ", signed" : ""}${o.integer.bits ? `, ${o.integer.bits} bits` : ""}` : undefined;
    const ni = n.integer ? `${n.integer.encoding}${n.integer.signed ? ", signed" : ""}${n.integer.bits ? `, ${n.integer.bits} bits` : ""}` : undefined;
    if (oi !== ni) this.changes.add(oi === undefined ? "integer-marked" : ni === undefined ? "integer-unmarked" : "integer-changed", "breaking-code", `${dir}${where}: ${oi === undefined ? `now an integer the number policy reads (${ni}): bigint where the client reads numbers as bigint` : ni === undefined ? "no longer an integer the number policy reads: its plain type again" : `integer form ${oi} → ${ni}`}`, at);
    // types
    const ot = this.typesOf(o, this.oldByKey);
    const nt = this.typesOf(n, this.newByKey);
    const removed = ot && nt ? ot.filter((t) => !covers(nt, t)) : !ot && nt ? ["any type"] : [];
    const added = ot && nt ? nt.filter((t) => !covers(ot, t)) : ot && !nt ? ["any type"] : [];
    if (removed.length > 0 && dir === "request") this.changes.add("request-type-narrowed", "breaking-wire", `request${where} no longer accepts ${removed.join(", ")}`, at);
    if (added.length > 0 && dir === "response") this.changes.add("response-type-widened", "breaking-wire", `response${where} may now be ${added.join(", ")}`, at);
    if (added.length > 0 && dir === "request") this.changes.add("request-type-widened", "addition", `request${where} also accepts ${added.join(", ")}`, at);
    // enums (an open enumeration's known values are never a contract); a const is an enum of one value
    const oe = o.enum ?? (o.const ? [o.const.value] : undefined);
    const ne = n.enum ?? (n.const ? [n.const.value] : undefined);
    const str = (v: unknown) => JSON.stringify(v);
    if (oe && ne) {
      const gone = oe.filter((v) => !ne.some((w) => str(w) === str(v)));
      const fresh = ne.filter((v) => !oe.some((w) => str(w) === str(v)));
      if (gone.length > 0 && dir === "request") this.changes.add("request-enum-value-removed", "breaking-wire", `request${where} no longer accepts ${gone.map(str).join(", ")}`, at);
      if (fresh.length > 0 && dir === "response") this.changes.add("response-enum-value-added", "breaking-wire", `response${where} may now be ${fresh.map(str).join(", ")} (a closed enumeration)`, at);
      if (fresh.length > 0 && dir === "request") this.changes.add("request-enum-value-added", "addition", `request${where} also accepts ${fresh.map(str).join(", ")}`, at);
      if (gone.length > 0 && dir === "response") this.changes.add("response-enum-value-removed", "documentation", `response${where} no longer sends ${gone.map(str).join(", ")}`, at);
    } else if (!oe && ne && dir === "request") this.changes.add("request-enum-added", "breaking-wire", `request${where} now accepts only ${ne.map(str).join(", ")}`, at);
    else if (oe && !ne && n.knownValues) {
      // opened (x-avaspec-open-enum, x-extensible-enum): values beyond the known ones may come, and are accepted
      if (dir === "response") this.changes.add("response-enum-opened", "breaking-wire", `response${where} may now send values beyond ${oe.map(str).join(", ")} (an open enumeration)`, at);
      else this.changes.add("request-enum-opened", "addition", `request${where} accepts values beyond ${oe.map(str).join(", ")}`, at);
    } else if (oe && !ne && dir === "response") this.changes.add("response-enum-removed", "breaking-wire", `response${where} is no longer limited to ${oe.map(str).join(", ")}`, at);
    // bounds and patterns narrow a request
    if (dir === "request") {
      const tighter = (label: string, up: boolean, ov: number | undefined, nv: number | undefined) => {
        if (nv === undefined || ov === nv) return;
        if (ov === undefined || (up ? nv > ov : nv < ov)) this.changes.add("request-bound-tightened", narrowing, `request${where}: ${label} ${ov === undefined ? "added" : `${ov} →`} ${nv}`, at);
      };
      tighter("minimum", true, o.minimum, n.minimum);
      tighter("maximum", false, o.maximum, n.maximum);
      tighter("exclusiveMinimum", true, o.exclusiveMinimum, n.exclusiveMinimum);
      tighter("exclusiveMaximum", false, o.exclusiveMaximum, n.exclusiveMaximum);
      tighter("minLength", true, o.minLength, n.minLength);
      tighter("maxLength", false, o.maxLength, n.maxLength);
      tighter("minItems", true, o.minItems, n.minItems);
      tighter("maxItems", false, o.maxItems, n.maxItems);
      if (n.pattern !== undefined && o.pattern === undefined) this.changes.add("request-pattern-added", "breaking-wire", `request${where}: pattern added: ${n.pattern}`, at);
      else if (n.pattern !== undefined && n.pattern !== o.pattern) {
        // a changed pattern narrows unless every string the old one allows still matches: strings drawn from the old one tell
        const widened = stillMatches(o.pattern!, n.pattern);
        this.changes.add("request-pattern-changed", widened ? "documentation" : "breaking-wire", `request${where}: pattern changed: ${o.pattern} → ${n.pattern}${widened ? " (strings of the old pattern still match)" : ""}`, at);
      }
      if (n.format !== undefined && n.format !== o.format) this.changes.add("request-format-changed", "breaking-wire", `request${where}: format ${o.format === undefined ? "added" : `${o.format} →`} ${n.format}`, at);
      if (n.uniqueItems && !o.uniqueItems) this.changes.add("request-bound-tightened", "breaking-wire", `request${where}: items must now be unique`, at);
      const oOpen = o.additionalProperties === undefined || (o.additionalProperties.kind === "boolean" && o.additionalProperties.value);
      const nClosed = n.additionalProperties?.kind === "boolean" && !n.additionalProperties.value;
      if (oOpen && nClosed) this.changes.add("request-additional-properties-closed", "breaking-wire", `request${where} no longer accepts properties it does not declare`, at);
    }
    // an object restructured into a union of types (or back) is judged as a whole, not as every property removed
    const ou = o.oneOf ?? o.anyOf;
    const nu = n.oneOf ?? n.anyOf;
    if ((!ou && o.properties && nu && !n.properties) || (ou && !o.properties && !nu && n.properties)) {
      this.restructured(o, n, dir, operation, files, path, at);
      return;
    }
    // properties
    const oProps = new Map((o.properties ?? []).map((p) => [p.name, p]));
    const nProps = new Map((n.properties ?? []).map((p) => [p.name, p]));
    const oReq = new Set(o.required ?? []);
    const nReq = new Set(n.required ?? []);
    const sub = (name: string) => (path === "" ? `/${name}` : `${path}/${name}`);
    for (const [name, p] of nProps) {
      if (oProps.has(name)) continue;
      if (dir === "request" && nReq.has(name)) this.changes.add("request-property-added-required", "breaking-wire", `request${where} requires a new property "${name}"`, { ...at, new: [files[1], p.schema.pointer] });
      else this.changes.add(`${dir}-property-added`, "addition", `${dir}${where} has a new property "${name}"`, { ...at, new: [files[1], p.schema.pointer] });
    }
    for (const [name, p] of oProps) {
      if (nProps.has(name)) continue;
      if (dir === "response") this.changes.add("response-property-removed", "breaking-wire", `response${where} no longer has "${name}"`, { ...at, old: [files[0], p.schema.pointer] });
      else this.changes.add("request-property-removed", n.additionalProperties?.kind === "boolean" && !n.additionalProperties.value ? "breaking-wire" : "documentation", `request${where} no longer declares "${name}"`, { ...at, old: [files[0], p.schema.pointer] });
    }
    for (const [name, op] of oProps) {
      const np = nProps.get(name);
      if (!np) continue;
      if (dir === "request" && !oReq.has(name) && nReq.has(name)) this.changes.add("request-property-became-required", "breaking-wire", `request${where}: "${name}" is now required`, { ...at, old: [files[0], op.schema.pointer], new: [files[1], np.schema.pointer] });
      if (dir === "response" && oReq.has(name) && !nReq.has(name)) this.changes.add("response-property-became-optional", "breaking-wire", `response${where}: "${name}" may now be missing`, { ...at, old: [files[0], op.schema.pointer], new: [files[1], np.schema.pointer] });
      this.compare(op.schema, np.schema, dir, operation, files, sub(name), seen);
    }
    // required names without a declared property
    if (dir === "request") for (const name of nReq) if (!oReq.has(name) && !nProps.has(name)) this.changes.add("request-property-became-required", "breaking-wire", `request${where}: "${name}" is now required`, at);
    if (o.additionalProperties && n.additionalProperties && o.additionalProperties.kind !== "boolean" && n.additionalProperties.kind !== "boolean") this.compare(o.additionalProperties, n.additionalProperties, dir, operation, files, sub("*"), seen);
    if (o.items && n.items) this.compare(o.items, n.items, dir, operation, files, sub("[]"), seen);
    // unions: a branch more widens, a branch fewer narrows; branches pair by the schema they name or by their content, not by position
    for (const k of ["anyOf", "oneOf"] as const) {
      const ob = o[k];
      const nb = n[k];
      if (!ob || !nb) continue;
      const { pairs, gone, fresh, oldLabel, newLabel } = pairBranches(o, n, ob, nb, this.oldByKey, this.newByKey);
      if (gone.length > 0 && dir === "request") this.changes.add("request-union-branch-removed", "breaking-wire", `request${where}: ${k} no longer has ${gone.map(oldLabel).join(", ")}`, at);
      if (fresh.length > 0 && dir === "response") this.changes.add("response-union-branch-added", "breaking-wire", `response${where}: ${k} has ${fresh.length} more branch${fresh.length > 1 ? "es" : ""}: ${fresh.map(newLabel).join(", ")}`, at);
      for (const [i, j] of pairs) this.compare(ob[i]!, nb[j]!, dir, operation, files, `${path}(${k}[${j}])`, seen);
    }
    for (let i = 0; i < Math.min(o.allOf?.length ?? 0, n.allOf?.length ?? 0); i++) this.compare(o.allOf![i]!, n.allOf![i]!, dir, operation, files, path, seen);
  }

  /** Wire breaks a comparison would report, without reporting them. */
  private probe(o: IrSchema, n: IrSchema, dir: Dir, operation: string, files: [string | undefined, string | undefined], path: string): Change[] {
    const mark = this.changes.list.length;
    this.compare(o, n, dir, operation, files, path, new Set());
    return this.changes.list.splice(mark).filter((c) => c.class === "breaking-wire");
  }

  /**
   * An object that became a union of types, or a union that became an object. A response breaks when a value it may
   * now send does not read as the old type: for object → union, an old property no branch has, a required one some
   * branch may leave out, or a branch's property that changed incompatibly; for union → object, when no old branch
   * reads the new object. A request breaks when a value an old client sends is refused: object → union, when no
   * branch accepts the old object; union → object, when the object does not accept every old branch. Otherwise the
   * wire is unchanged and only the generated type changed shape (breaking-code for a response, which readers narrow;
   * an addition for a request, whose old values still type-check).
   */
  private restructured(o: IrObjectLikeSchema, n: IrObjectLikeSchema, dir: Dir, operation: string, files: [string | undefined, string | undefined], path: string, at: { operation: string; old: [string | undefined, string]; new: [string | undefined, string] }): void {
    const where = path === "" ? "" : ` at ${path}`;
    const toUnion = !(o.oneOf ?? o.anyOf);
    const k = toUnion ? (n.oneOf ? "oneOf" : "anyOf") : o.oneOf ? "oneOf" : "anyOf";
    const branches = (toUnion ? n[k] : o[k])!;
    const reasons: string[] = [];
    const firstOf = (found: Change[][]) => found.reduce((a, b) => (b.length < a.length ? b : a))[0]?.message;
    if (toUnion && dir === "response") {
      // branches of other types (null, a string) are the type check's: "may now be null", not every property missing
      const resolved = branches.map((b) => this.resolve(b, this.newByKey)).filter((b): b is IrObjectLikeSchema => b?.kind === "schema" && (this.typesOf(b, this.newByKey)?.includes("object") ?? true));
      const oReq = new Set(o.required ?? []);
      for (const p of o.properties ?? []) {
        const having = resolved.filter((b) => b.properties?.some((q) => q.name === p.name));
        if (having.length === 0) reasons.push(`"${p.name}" is in no branch`);
        else if (oReq.has(p.name) && (having.length < resolved.length || having.some((b) => !(b.required ?? []).includes(p.name)))) reasons.push(`"${p.name}" may be missing`);
        for (const b of having) {
          const found = this.probe(p.schema, b.properties!.find((q) => q.name === p.name)!.schema, dir, operation, files, path === "" ? `/${p.name}` : `${path}/${p.name}`);
          if (found.length > 0) reasons.push(found[0]!.message);
        }
      }
    } else if (toUnion) {
      const found = branches.map((b) => this.probe(o, b, dir, operation, files, path));
      if (found.every((f) => f.length > 0)) reasons.push(`no branch accepts every old value (closest: ${firstOf(found)})`);
    } else if (dir === "response") {
      const found = branches.map((b) => this.probe(b, n, dir, operation, files, path));
      if (found.every((f) => f.length > 0)) reasons.push(`no old branch reads the new object (closest: ${firstOf(found)})`);
    } else {
      const found = branches.map((b) => this.probe(b, n, dir, operation, files, path)).filter((f) => f.length > 0);
      if (found.length > 0) reasons.push(`${found.length} old branch${found.length > 1 ? "es are" : " is"} refused: ${found[0]![0]!.message}`);
    }
    const cls: ChangeClass = reasons.length > 0 ? "breaking-wire" : dir === "response" ? "breaking-code" : "addition";
    const shown = [...new Set(reasons)];
    const why = shown.length > 0 ? `: ${shown.slice(0, 3).join("; ")}${shown.length > 3 ? `; and ${shown.length - 3} more` : ""}` : dir === "response" ? " (its object values read as before)" : " (old values are still accepted)";
    this.changes.add(`${dir}-restructured`, cls, `${dir}${where} ${toUnion ? `is now a ${k} of ${branches.length} types (was an object)` : `is now an object (was a ${k} of ${branches.length} types)`}${why}`, at);
  }
}

/** Whether 64 strings drawn from `oldPattern` (seeded) all match `newPattern`; false when no strings can be drawn. */
function stillMatches(oldPattern: string, newPattern: string): boolean {
  const sample = samplePattern(oldPattern);
  const flags = patternFlags(newPattern);
  if (!sample || flags === undefined) return false;
  const re = new RegExp(newPattern, flags);
  let seed = 0x9e3779b9;
  const next = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const draw = (alternatives: PatternSample): string => {
    let out = "";
    for (const [unit, min, max] of alternatives[Math.floor(next() * alternatives.length)]!) {
      const count = min + Math.floor(next() * (Math.min(max, min + 6) - min + 1));
      for (let i = 0; i < count; i++) out += typeof unit === "string" ? unit[Math.floor(next() * unit.length)] : draw(unit);
    }
    return out;
  };
  for (let i = 0; i < 64; i++) if (!re.test(draw(sample))) return false;
  return true;
}
