/**
 * `avaspec diff`: what changed between two versions of a document, and whom
 * it breaks. Both sides are built into the IR, so OpenAPI 3.0/3.1 and OpenRPC
 * share one engine. Each change has a rule id, a class, a message and both
 * sides' places:
 *
 * - `breaking-wire`: an existing client's request, or an existing caller's
 *   reading of a response, breaks. A request type breaks when it narrows
 *   (fewer values accepted), a response type when it widens (values a reader
 *   did not expect): the rules say which side each applies to.
 * - `breaking-code`: the wire is the same but the generated TypeScript API
 *   breaks (a method or schema renamed, a type removed, a method moved).
 * - `deprecation`, `addition`, `documentation`.
 *
 * Operations are matched by what identifies them on the wire: HTTP method
 * and path (path parameter names ignored), JSON-RPC endpoint and method name.
 * Schemas are compared through `$ref`s, so moving a definition or renaming
 * a reference with the same structure is no wire change.
 */
import { patternFlags } from "../ir/resolve.js";
import { samplePattern, type PatternSample } from "../emit/validators/pattern.js";
import { pairBranches, shape } from "./branches.js";
import type { IrDocument, IrHttpOperation, IrNamedSchema, IrObjectLikeSchema, IrOperation, IrRpcOperation, IrSchema, JsonType } from "../ir/types.js";

export type ChangeClass = "breaking-wire" | "breaking-code" | "deprecation" | "addition" | "documentation";

/** Most severe first. */
export const CHANGE_CLASSES: readonly ChangeClass[] = ["breaking-wire", "breaking-code", "deprecation", "addition", "documentation"];

export interface Place {
  file: string;
  line: number;
  col: number;
  pointer: string;
}

export interface Change {
  rule: string;
  class: ChangeClass;
  message: string;
  /** `GET /v1/chains/{chainId}`, `eth_getBalance` (document-level changes have none). */
  operation?: string;
  old?: Place;
  new?: Place;
}

/** One side of a diff: the module's IR and where its pointers are. */
export interface DiffSide {
  ir: IrDocument;
  locate(file: string, pointer: string): { line: number; col: number };
  /** The document file of schema pointers that belong to no operation (single-document modules: the one file). */
  file: string;
  /** How a file is shown (a revision read into a temporary folder shows as `rev:path`). */
  display?(file: string): string;
}

type Dir = "request" | "response";

const opKey = (op: IrOperation): string => (op.protocol === "http" ? `${op.transport.method.toUpperCase()} ${op.endpoint}${op.transport.path.replace(/\{[^}]*\}/g, "{}")}` : `${op.endpoint} ${op.transport.method}`);
const opLabel = (op: IrOperation): string => (op.protocol === "http" ? `${op.transport.method.toUpperCase()} ${op.endpoint}${op.transport.path}` : op.transport.method);

export function diffModules(oldSide: DiffSide, newSide: DiffSide): Change[] {
  const changes: Change[] = [];
  const oldByKey = new Map(oldSide.ir.schemas.map((s) => [s.key, s]));
  const newByKey = new Map(newSide.ir.schemas.map((s) => [s.key, s]));
  const place = (side: DiffSide, file: string | undefined, pointer: string): Place => {
    const f = file ?? side.file;
    const { line, col } = side.locate(f, pointer);
    return { file: side.display ? side.display(f) : f, line, col, pointer };
  };
  const add = (rule: string, cls: ChangeClass, message: string, at: { operation?: string; old?: [string | undefined, string]; new?: [string | undefined, string] }) => {
    changes.push({ rule, class: cls, message, ...(at.operation ? { operation: at.operation } : {}), ...(at.old ? { old: place(oldSide, at.old[0], at.old[1]) } : {}), ...(at.new ? { new: place(newSide, at.new[0], at.new[1]) } : {}) });
  };

  /** A change's operation and the places it has (old, new, or both). */
  const sides = (operation: string, old: [string, string] | undefined, now: [string, string] | undefined) => ({ operation, ...(old ? { old } : {}), ...(now ? { new: now } : {}) });

  // ---- schemas, in a direction --------------------------------------------------------------
  const resolve = (s: IrSchema, byKey: Map<string, IrNamedSchema>): Exclude<IrSchema, { kind: "ref" }> | undefined => {
    let cur: IrSchema | undefined = s;
    for (let hops = 0; cur?.kind === "ref" && hops < 64; hops++) cur = byKey.get(cur.target)?.schema;
    return cur === undefined || cur.kind === "ref" ? undefined : cur;
  };
  /** The JSON types a schema allows (undefined: any); a union without types of its own allows its branches' (3.0 `nullable` adds "null"). */
  const typesOf = (s: IrObjectLikeSchema, byKey: Map<string, IrNamedSchema>, depth = 0): JsonType[] | undefined => {
    const own: JsonType[] | undefined = s.types ?? (s.properties || s.additionalProperties ? ["object"] : s.items || s.prefixItems ? ["array"] : undefined);
    const branches = s.oneOf ?? s.anyOf;
    if (!branches || depth > 8 || (own && !own.every((t) => t === "null"))) return own;
    const each = branches.map((b) => {
      const r = resolve(b, byKey);
      return r?.kind === "schema" ? typesOf(r, byKey, depth + 1) : undefined;
    });
    return each.every((t) => t !== undefined) ? [...new Set([...(own ?? []), ...each.flat()])] : undefined;
  };
  const covers = (types: JsonType[], t: JsonType) => types.includes(t) || (t === "integer" && types.includes("number"));

  const ids = new WeakMap<object, number>();
  let lastId = 0;
  const idOf = (s: object) => ids.get(s) ?? (ids.set(s, ++lastId), lastId);
  function compare(o0: IrSchema, n0: IrSchema, dir: Dir, operation: string, files: [string | undefined, string | undefined], path: string, seen: Set<string>): void {
    const o = resolve(o0, oldByKey);
    const n = resolve(n0, newByKey);
    if (!o || !n) return;
    // keyed by the schemas themselves (past their $refs), so a shared schema is compared once per direction; not by
    // pointer: a 3.0 `nullable` union wraps the union it makes nullable under the same pointer
    const key = `${idOf(o)}|${idOf(n)}|${dir}`;
    if (seen.has(key)) return;
    seen.add(key);
    const at = { operation, old: [files[0], o.pointer] as [string | undefined, string], new: [files[1], n.pointer] as [string | undefined, string] };
    const where = path === "" ? "" : ` at ${path}`;
    const narrowing = dir === "request" ? "breaking-wire" : "addition";
    if (o.kind === "boolean" || n.kind === "boolean") {
      const ob = o.kind === "boolean" ? o.value : true;
      const nb = n.kind === "boolean" ? n.value : true;
      if (ob && !nb && dir === "request") add("request-type-narrowed", "breaking-wire", `${dir}${where} accepts nothing any more`, at);
      return;
    }
    if (o.description !== n.description && path !== "") add("description-changed", "documentation", `description${where} changed`, at);
    if (n.deprecated && !o.deprecated) add("schema-deprecated", "deprecation", `${dir}${where} is deprecated`, at);
    // the number policy: a string newly read as an integer (or no longer) changes the generated type, not the wire
    const oi = o.integer ? `${o.integer.encoding}${o.integer.signed ? ", signed" : ""}${o.integer.bits ? `, ${o.integer.bits} bits` : ""}` : undefined;
    const ni = n.integer ? `${n.integer.encoding}${n.integer.signed ? ", signed" : ""}${n.integer.bits ? `, ${n.integer.bits} bits` : ""}` : undefined;
    if (oi !== ni) add(oi === undefined ? "integer-marked" : ni === undefined ? "integer-unmarked" : "integer-changed", "breaking-code", `${dir}${where}: ${oi === undefined ? `now a string-encoded integer (${ni}): bigint where the client reads numbers as bigint` : ni === undefined ? "no longer a string-encoded integer: a string again" : `integer form ${oi} → ${ni}`}`, at);
    // types
    const ot = typesOf(o, oldByKey);
    const nt = typesOf(n, newByKey);
    const removed = ot && nt ? ot.filter((t) => !covers(nt, t)) : !ot && nt ? ["any type"] : [];
    const added = ot && nt ? nt.filter((t) => !covers(ot, t)) : ot && !nt ? ["any type"] : [];
    if (removed.length > 0 && dir === "request") add("request-type-narrowed", "breaking-wire", `request${where} no longer accepts ${removed.join(", ")}`, at);
    if (added.length > 0 && dir === "response") add("response-type-widened", "breaking-wire", `response${where} may now be ${added.join(", ")}`, at);
    if (added.length > 0 && dir === "request") add("request-type-widened", "addition", `request${where} also accepts ${added.join(", ")}`, at);
    // enums (an open enumeration's known values are never a contract); a const is an enum of one value
    const oe = o.enum ?? (o.const ? [o.const.value] : undefined);
    const ne = n.enum ?? (n.const ? [n.const.value] : undefined);
    const str = (v: unknown) => JSON.stringify(v);
    if (oe && ne) {
      const gone = oe.filter((v) => !ne.some((w) => str(w) === str(v)));
      const fresh = ne.filter((v) => !oe.some((w) => str(w) === str(v)));
      if (gone.length > 0 && dir === "request") add("request-enum-value-removed", "breaking-wire", `request${where} no longer accepts ${gone.map(str).join(", ")}`, at);
      if (fresh.length > 0 && dir === "response") add("response-enum-value-added", "breaking-wire", `response${where} may now be ${fresh.map(str).join(", ")} (a closed enumeration)`, at);
      if (fresh.length > 0 && dir === "request") add("request-enum-value-added", "addition", `request${where} also accepts ${fresh.map(str).join(", ")}`, at);
      if (gone.length > 0 && dir === "response") add("response-enum-value-removed", "documentation", `response${where} no longer sends ${gone.map(str).join(", ")}`, at);
    } else if (!oe && ne && dir === "request") add("request-enum-added", "breaking-wire", `request${where} now accepts only ${ne.map(str).join(", ")}`, at);
    else if (oe && !ne && n.knownValues) {
      // opened (x-avaspec-open-enum, x-extensible-enum): values beyond the known ones may come, and are accepted
      if (dir === "response") add("response-enum-opened", "breaking-wire", `response${where} may now send values beyond ${oe.map(str).join(", ")} (an open enumeration)`, at);
      else add("request-enum-opened", "addition", `request${where} accepts values beyond ${oe.map(str).join(", ")}`, at);
    } else if (oe && !ne && dir === "response") add("response-enum-removed", "breaking-wire", `response${where} is no longer limited to ${oe.map(str).join(", ")}`, at);
    // bounds and patterns narrow a request
    if (dir === "request") {
      const tighter = (label: string, up: boolean, ov: number | undefined, nv: number | undefined) => {
        if (nv === undefined || ov === nv) return;
        if (ov === undefined || (up ? nv > ov : nv < ov)) add("request-bound-tightened", narrowing, `request${where}: ${label} ${ov === undefined ? "added" : `${ov} →`} ${nv}`, at);
      };
      tighter("minimum", true, o.minimum, n.minimum);
      tighter("maximum", false, o.maximum, n.maximum);
      tighter("exclusiveMinimum", true, o.exclusiveMinimum, n.exclusiveMinimum);
      tighter("exclusiveMaximum", false, o.exclusiveMaximum, n.exclusiveMaximum);
      tighter("minLength", true, o.minLength, n.minLength);
      tighter("maxLength", false, o.maxLength, n.maxLength);
      tighter("minItems", true, o.minItems, n.minItems);
      tighter("maxItems", false, o.maxItems, n.maxItems);
      if (n.pattern !== undefined && o.pattern === undefined) add("request-pattern-added", "breaking-wire", `request${where}: pattern added: ${n.pattern}`, at);
      else if (n.pattern !== undefined && n.pattern !== o.pattern) {
        // a changed pattern narrows unless every string the old one allows still matches: strings drawn from the old one tell
        const widened = stillMatches(o.pattern!, n.pattern);
        add("request-pattern-changed", widened ? "documentation" : "breaking-wire", `request${where}: pattern changed: ${o.pattern} → ${n.pattern}${widened ? " (strings of the old pattern still match)" : ""}`, at);
      }
      if (n.format !== undefined && n.format !== o.format) add("request-format-changed", "breaking-wire", `request${where}: format ${o.format === undefined ? "added" : `${o.format} →`} ${n.format}`, at);
      if (n.uniqueItems && !o.uniqueItems) add("request-bound-tightened", "breaking-wire", `request${where}: items must now be unique`, at);
      const oOpen = o.additionalProperties === undefined || (o.additionalProperties.kind === "boolean" && o.additionalProperties.value);
      const nClosed = n.additionalProperties?.kind === "boolean" && !n.additionalProperties.value;
      if (oOpen && nClosed) add("request-additional-properties-closed", "breaking-wire", `request${where} no longer accepts properties it does not declare`, at);
    }
    // an object restructured into a union of types (or back) is judged as a whole, not as every property removed
    const ou = o.oneOf ?? o.anyOf;
    const nu = n.oneOf ?? n.anyOf;
    if ((!ou && o.properties && nu && !n.properties) || (ou && !o.properties && !nu && n.properties)) {
      restructured(o, n, dir, operation, files, path, at);
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
      if (dir === "request" && nReq.has(name)) add("request-property-added-required", "breaking-wire", `request${where} requires a new property "${name}"`, { ...at, new: [files[1], p.schema.pointer] });
      else add(`${dir}-property-added`, "addition", `${dir}${where} has a new property "${name}"`, { ...at, new: [files[1], p.schema.pointer] });
    }
    for (const [name, p] of oProps) {
      if (nProps.has(name)) continue;
      if (dir === "response") add("response-property-removed", "breaking-wire", `response${where} no longer has "${name}"`, { ...at, old: [files[0], p.schema.pointer] });
      else add("request-property-removed", n.additionalProperties?.kind === "boolean" && !n.additionalProperties.value ? "breaking-wire" : "documentation", `request${where} no longer declares "${name}"`, { ...at, old: [files[0], p.schema.pointer] });
    }
    for (const [name, op] of oProps) {
      const np = nProps.get(name);
      if (!np) continue;
      if (dir === "request" && !oReq.has(name) && nReq.has(name)) add("request-property-became-required", "breaking-wire", `request${where}: "${name}" is now required`, { ...at, old: [files[0], op.schema.pointer], new: [files[1], np.schema.pointer] });
      if (dir === "response" && oReq.has(name) && !nReq.has(name)) add("response-property-became-optional", "breaking-wire", `response${where}: "${name}" may now be missing`, { ...at, old: [files[0], op.schema.pointer], new: [files[1], np.schema.pointer] });
      compare(op.schema, np.schema, dir, operation, files, sub(name), seen);
    }
    // required names without a declared property
    if (dir === "request") for (const name of nReq) if (!oReq.has(name) && !nProps.has(name)) add("request-property-became-required", "breaking-wire", `request${where}: "${name}" is now required`, at);
    if (o.additionalProperties && n.additionalProperties && o.additionalProperties.kind !== "boolean" && n.additionalProperties.kind !== "boolean") compare(o.additionalProperties, n.additionalProperties, dir, operation, files, sub("*"), seen);
    if (o.items && n.items) compare(o.items, n.items, dir, operation, files, sub("[]"), seen);
    // unions: a branch more widens, a branch fewer narrows; branches pair by the schema they name or by their content, not by position
    for (const k of ["anyOf", "oneOf"] as const) {
      const ob = o[k];
      const nb = n[k];
      if (!ob || !nb) continue;
      const { pairs, gone, fresh, oldLabel, newLabel } = pairBranches(o, n, ob, nb, oldByKey, newByKey);
      if (gone.length > 0 && dir === "request") add("request-union-branch-removed", "breaking-wire", `request${where}: ${k} no longer has ${gone.map(oldLabel).join(", ")}`, at);
      if (fresh.length > 0 && dir === "response") add("response-union-branch-added", "breaking-wire", `response${where}: ${k} has ${fresh.length} more branch${fresh.length > 1 ? "es" : ""}: ${fresh.map(newLabel).join(", ")}`, at);
      for (const [i, j] of pairs) compare(ob[i]!, nb[j]!, dir, operation, files, `${path}(${k}[${j}])`, seen);
    }
    for (let i = 0; i < Math.min(o.allOf?.length ?? 0, n.allOf?.length ?? 0); i++) compare(o.allOf![i]!, n.allOf![i]!, dir, operation, files, path, seen);
  }

  /** Wire breaks a comparison would report, without reporting them. */
  const probe = (o: IrSchema, n: IrSchema, dir: Dir, operation: string, files: [string | undefined, string | undefined], path: string): Change[] => {
    const mark = changes.length;
    compare(o, n, dir, operation, files, path, new Set());
    return changes.splice(mark).filter((c) => c.class === "breaking-wire");
  };

  /**
   * An object that became a union of types, or a union that became an object. A response breaks when a value it may
   * now send does not read as the old type: for object → union, an old property no branch has, a required one some
   * branch may leave out, or a branch's property that changed incompatibly; for union → object, when no old branch
   * reads the new object. A request breaks when a value an old client sends is refused: object → union, when no
   * branch accepts the old object; union → object, when the object does not accept every old branch. Otherwise the
   * wire is unchanged and only the generated type changed shape (breaking-code for a response, which readers narrow;
   * an addition for a request, whose old values still type-check).
   */
  function restructured(o: IrObjectLikeSchema, n: IrObjectLikeSchema, dir: Dir, operation: string, files: [string | undefined, string | undefined], path: string, at: { operation: string; old: [string | undefined, string]; new: [string | undefined, string] }): void {
    const where = path === "" ? "" : ` at ${path}`;
    const toUnion = !(o.oneOf ?? o.anyOf);
    const k = toUnion ? (n.oneOf ? "oneOf" : "anyOf") : o.oneOf ? "oneOf" : "anyOf";
    const branches = (toUnion ? n[k] : o[k])!;
    const reasons: string[] = [];
    const firstOf = (found: Change[][]) => found.reduce((a, b) => (b.length < a.length ? b : a))[0]?.message;
    if (toUnion && dir === "response") {
      // branches of other types (null, a string) are the type check's: "may now be null", not every property missing
      const resolved = branches.map((b) => resolve(b, newByKey)).filter((b): b is IrObjectLikeSchema => b?.kind === "schema" && (typesOf(b, newByKey)?.includes("object") ?? true));
      const oReq = new Set(o.required ?? []);
      for (const p of o.properties ?? []) {
        const having = resolved.filter((b) => b.properties?.some((q) => q.name === p.name));
        if (having.length === 0) reasons.push(`"${p.name}" is in no branch`);
        else if (oReq.has(p.name) && (having.length < resolved.length || having.some((b) => !(b.required ?? []).includes(p.name)))) reasons.push(`"${p.name}" may be missing`);
        for (const b of having) {
          const found = probe(p.schema, b.properties!.find((q) => q.name === p.name)!.schema, dir, operation, files, path === "" ? `/${p.name}` : `${path}/${p.name}`);
          if (found.length > 0) reasons.push(found[0]!.message);
        }
      }
    } else if (toUnion) {
      const found = branches.map((b) => probe(o, b, dir, operation, files, path));
      if (found.every((f) => f.length > 0)) reasons.push(`no branch accepts every old value (closest: ${firstOf(found)})`);
    } else if (dir === "response") {
      const found = branches.map((b) => probe(b, n, dir, operation, files, path));
      if (found.every((f) => f.length > 0)) reasons.push(`no old branch reads the new object (closest: ${firstOf(found)})`);
    } else {
      const found = branches.map((b) => probe(b, n, dir, operation, files, path)).filter((f) => f.length > 0);
      if (found.length > 0) reasons.push(`${found.length} old branch${found.length > 1 ? "es are" : " is"} refused: ${found[0]![0]!.message}`);
    }
    const cls: ChangeClass = reasons.length > 0 ? "breaking-wire" : dir === "response" ? "breaking-code" : "addition";
    const shown = [...new Set(reasons)];
    const why = shown.length > 0 ? `: ${shown.slice(0, 3).join("; ")}${shown.length > 3 ? `; and ${shown.length - 3} more` : ""}` : dir === "response" ? " (its object values read as before)" : " (old values are still accepted)";
    add(`${dir}-restructured`, cls, `${dir}${where} ${toUnion ? `is now a ${k} of ${branches.length} types (was an object)` : `is now an object (was a ${k} of ${branches.length} types)`}${why}`, at);
  }

  // a schema reached from many operations is compared once per direction (its changes are reported at the first)
  const seen = new Set<string>();

  // ---- operations ---------------------------------------------------------------------------
  const oldOps = new Map(oldSide.ir.operations.map((op) => [opKey(op), op]));
  const newOps = new Map(newSide.ir.operations.map((op) => [opKey(op), op]));
  for (const [k, op] of oldOps) if (!newOps.has(k)) add(op.protocol === "http" ? "operation-removed" : "method-removed", "breaking-wire", `${opLabel(op)} was removed`, { operation: opLabel(op), old: [op.file, op.pointer] });
  for (const [k, op] of newOps) if (!oldOps.has(k)) add(op.protocol === "http" ? "operation-added" : "method-added", "addition", `${opLabel(op)} is new`, { operation: opLabel(op), new: [op.file, op.pointer] });
  for (const [k, o] of oldOps) {
    const n = newOps.get(k);
    if (!n) continue;
    const operation = opLabel(n);
    const at = { operation, old: [o.file, o.pointer] as [string, string], new: [n.file, n.pointer] as [string, string] };
    const files: [string, string] = [o.file, n.file];
    if (n.deprecated && !o.deprecated) add("operation-deprecated", "deprecation", `${operation} is deprecated${n.lifecycle?.removedIn ? ` (removed in ${n.lifecycle.removedIn})` : n.lifecycle?.deprecatedIn ? ` (since ${n.lifecycle.deprecatedIn})` : ""}`, at);
    if (o.deprecated && !n.deprecated) add("operation-undeprecated", "documentation", `${operation} is no longer deprecated`, at);
    if ((o.description ?? "") !== (n.description ?? "") || (o.summary ?? "") !== (n.summary ?? "")) add("operation-description-changed", "documentation", `${operation}: summary or description changed`, at);
    if (o.names.method !== n.names.method) add("method-renamed", "breaking-code", `${operation}: the generated method ${[...o.group, o.names.method].join(".")} is now ${[...n.group, n.names.method].join(".")}`, at);
    else if (o.group.join(".") !== n.group.join(".")) add("method-moved", "breaking-code", `${operation}: the generated method moved from ${[...o.group, o.names.method].join(".")} to ${[...n.group, n.names.method].join(".")}`, at);
    if (o.protocol === "http" && n.protocol === "http") compareHttp(o, n, operation, files);
    if (o.protocol === "json-rpc" && n.protocol === "json-rpc") compareRpc(o, n, operation, files);
  }

  function compareHttp(o: IrHttpOperation, n: IrHttpOperation, operation: string, files: [string, string]): void {
    const at = (op: [string, string] | undefined, np: [string, string] | undefined) => sides(operation, op, np);
    const byName = (list: IrHttpOperation["parameters"]) => new Map(list.map((p) => [p.name, p]));
    const oParams = byName(o.parameters);
    const nParams = byName(n.parameters);
    for (const [name, p] of oParams) {
      const q = nParams.get(name);
      if (!q) add("param-removed", "breaking-wire", `${operation}: ${p.in} parameter "${name}" was removed`, at([files[0], p.pointer], undefined));
      else if (q.in !== p.in) add("param-moved", "breaking-wire", `${operation}: parameter "${name}" moved from ${p.in} to ${q.in}`, at([files[0], p.pointer], [files[1], q.pointer]));
      else {
        if (!p.required && q.required) add("param-became-required", "breaking-wire", `${operation}: ${q.in} parameter "${name}" is now required`, at([files[0], p.pointer], [files[1], q.pointer]));
        if (q.deprecated && !p.deprecated) add("param-deprecated", "deprecation", `${operation}: ${q.in} parameter "${name}" is deprecated`, at([files[0], p.pointer], [files[1], q.pointer]));
        if (q.style !== p.style || q.explode !== p.explode) add("param-style-changed", "breaking-wire", `${operation}: ${q.in} parameter "${name}" is serialised differently (${p.style}${p.explode ? ", exploded" : ""} → ${q.style}${q.explode ? ", exploded" : ""})`, at([files[0], p.pointer], [files[1], q.pointer]));
        compare(p.schema, q.schema, "request", operation, files, `${q.in} ${name}`, seen);
      }
    }
    for (const [name, q] of nParams) {
      if (oParams.has(name)) continue;
      if (q.required) add("param-added-required", "breaking-wire", `${operation}: new required ${q.in} parameter "${name}"`, at(undefined, [files[1], q.pointer]));
      else add("param-added", "addition", `${operation}: new optional ${q.in} parameter "${name}"`, at(undefined, [files[1], q.pointer]));
    }
    // request body
    const ob = o.requestBody;
    const nb = n.requestBody;
    if (!ob && nb?.required) add("request-body-added-required", "breaking-wire", `${operation}: a request body is now required`, at(undefined, [files[1], nb.pointer]));
    else if (ob && !nb) add("request-body-removed", "breaking-wire", `${operation}: the request body was removed`, at([files[0], ob.pointer], undefined));
    else if (ob && nb) {
      if (!ob.required && nb.required) add("request-body-became-required", "breaking-wire", `${operation}: the request body is now required`, at([files[0], ob.pointer], [files[1], nb.pointer]));
      for (const c of ob.content) if (!nb.content.some((d) => d.contentType === c.contentType)) add("request-media-type-removed", "breaking-wire", `${operation}: the request body is no longer accepted as ${c.contentType}`, at([files[0], ob.pointer], [files[1], nb.pointer]));
      const oc = ob.content[0];
      const nc = nb.content.find((d) => d.contentType === oc?.contentType);
      if (oc && nc) compare(oc.schema, nc.schema, "request", operation, files, "body", seen);
    }
    // responses: callers read the success bodies and handle the documented errors (as JSON-RPC's `errors`)
    for (const r of o.responses) {
      const s = n.responses.find((x) => x.status === r.status);
      if (!s) {
        if (r.success) add("success-status-removed", "breaking-wire", `${operation}: the ${r.status} response was removed`, at([files[0], r.pointer], undefined));
        else add("error-status-removed", "breaking-wire", `${operation}: the ${r.status} error response was removed`, at([files[0], r.pointer], undefined));
        continue;
      }
      for (const c of r.content) {
        const d = s.content.find((x) => x.contentType === c.contentType);
        if (!d) add("response-media-type-removed", "breaking-wire", `${operation}: the ${r.status} response is no longer ${c.contentType}`, at([files[0], c.schema.pointer.endsWith("/schema") ? c.schema.pointer.slice(0, -"/schema".length) : r.pointer], [files[1], s.pointer]));
        else compare(c.schema, d.schema, "response", operation, files, `${r.status}`, seen);
      }
    }
    for (const s of n.responses) {
      if (o.responses.some((r) => r.status === s.status)) continue;
      if (s.success) add("success-status-added", "addition", `${operation}: new ${s.status} response`, at(undefined, [files[1], s.pointer]));
      else add("error-status-added", "addition", `${operation}: declares a ${s.status} error response`, at(undefined, [files[1], s.pointer]));
    }
    // security
    const wasOpen = o.security.schemes.length === 0 || o.security.optional;
    const nowClosed = n.security.schemes.length > 0 && !n.security.optional;
    if (wasOpen && nowClosed) add("security-added", "breaking-wire", `${operation}: now requires ${n.security.schemes.join(" or ")}`, at([files[0], o.pointer], [files[1], n.pointer]));
  }

  function compareRpc(o: IrRpcOperation, n: IrRpcOperation, operation: string, files: [string, string]): void {
    const at = (op: [string, string] | undefined, np: [string, string] | undefined) => sides(operation, op, np);
    const positional = (op: IrRpcOperation) => op.transport.form !== "by-name";
    if (positional(o) !== positional(n)) add("param-structure-changed", "breaking-wire", `${operation}: params are now sent ${positional(n) ? "by position" : "by name"}`, at([files[0], o.pointer], [files[1], n.pointer]));
    const oNames = o.params.map((p) => p.name);
    const nNames = n.params.map((p) => p.name);
    if (positional(o) && positional(n)) {
      const kept = oNames.filter((x) => nNames.includes(x));
      const order = nNames.filter((x) => oNames.includes(x));
      if (kept.join("\u0000") !== order.join("\u0000")) add("params-reordered", "breaking-wire", `${operation}: params were reordered (${oNames.join(", ")} → ${nNames.join(", ")})`, at([files[0], o.pointer], [files[1], n.pointer]));
      // a new param before an old one shifts the old one's position
      nNames.forEach((name, i) => {
        if (!oNames.includes(name) && nNames.slice(i + 1).some((x) => oNames.includes(x))) add("param-inserted", "breaking-wire", `${operation}: param "${name}" was inserted at position ${i + 1}`, at(undefined, [files[1], n.params[i]!.pointer]));
      });
    }
    for (const p of o.params) {
      const q = n.params.find((x) => x.name === p.name);
      if (!q) {
        add("param-removed", "breaking-wire", `${operation}: param "${p.name}" was removed`, at([files[0], p.pointer], undefined));
        continue;
      }
      if (!p.required && q.required) add("param-became-required", "breaking-wire", `${operation}: param "${p.name}" is now required`, at([files[0], p.pointer], [files[1], q.pointer]));
      if (q.deprecated && !p.deprecated) add("param-deprecated", "deprecation", `${operation}: param "${p.name}" is deprecated`, at([files[0], p.pointer], [files[1], q.pointer]));
      compare(p.schema, q.schema, "request", operation, files, p.name, seen);
    }
    for (const q of n.params) {
      if (o.params.some((p) => p.name === q.name)) continue;
      if (q.required) add("param-added-required", "breaking-wire", `${operation}: new required param "${q.name}"`, at(undefined, [files[1], q.pointer]));
      else add("param-added", "addition", `${operation}: new optional param "${q.name}"`, at(undefined, [files[1], q.pointer]));
    }
    if (o.result && n.result) compare(o.result.schema, n.result.schema, "response", operation, files, "result", seen);
    else if (o.result && !n.result) add("result-removed", "breaking-wire", `${operation}: the result was removed`, at([files[0], o.result.pointer], undefined));
    const oCodes = new Set(o.errors.map((e) => e.code));
    const nCodes = new Set(n.errors.map((e) => e.code));
    for (const e of o.errors) if (!nCodes.has(e.code)) add("error-removed", "breaking-wire", `${operation}: error ${e.code} (${e.message}) is no longer declared`, at([files[0], e.pointer], undefined));
    for (const e of n.errors) if (!oCodes.has(e.code)) add("error-added", "addition", `${operation}: declares error ${e.code} (${e.message})`, at(undefined, [files[1], e.pointer]));
  }

  // ---- document level: servers, named schemas ---------------------------------------------------
  const newServers = new Set(newSide.ir.servers.map((s) => s.url));
  oldSide.ir.servers.forEach((s, i) => {
    if (!newServers.has(s.url)) add("server-removed", "breaking-wire", `server ${s.url} was removed`, { old: [undefined, `#/servers/${i}`] });
  });
  // the document's own title and description: its README and doc comments
  const [oi, ni] = [oldSide.ir.info, newSide.ir.info];
  if (oi.title !== ni.title) add("document-title-changed", "documentation", `the title changed from ${JSON.stringify(oi.title)} to ${JSON.stringify(ni.title)}`, { old: [undefined, "#/info/title"], new: [undefined, "#/info/title"] });
  if ((oi.description ?? "") !== (ni.description ?? "")) add("document-description-changed", "documentation", "the document's description changed", { old: [undefined, oi.description !== undefined ? "#/info/description" : "#/info"], new: [undefined, ni.description !== undefined ? "#/info/description" : "#/info"] });
  const newNames = new Map(newSide.ir.schemas.map((s) => [s.name, s]));
  const oldNames = new Map(oldSide.ir.schemas.map((s) => [s.name, s]));
  const fresh = newSide.ir.schemas.filter((s) => !oldNames.has(s.name));
  const gone = oldSide.ir.schemas.filter((s) => !newNames.has(s.name));
  // structures computed once: a type renamed is one that left and one that came with the same structure
  const freshByShape = new Map<string, IrNamedSchema>();
  for (const f of fresh) {
    const k = JSON.stringify(shape(f.schema, newByKey));
    if (!freshByShape.has(k)) freshByShape.set(k, f);
  }
  const renamedTo = new Set<IrNamedSchema>();
  for (const s of gone) {
    const same = freshByShape.get(JSON.stringify(shape(s.schema, oldByKey)));
    if (same && !renamedTo.has(same)) {
      renamedTo.add(same);
      add("schema-renamed", "breaking-code", `type ${s.name} is now ${same.name}`, { old: [undefined, s.pointer], new: [undefined, same.pointer] });
    } else add("schema-removed", "breaking-code", `type ${s.name} is no longer generated`, { old: [undefined, s.pointer] });
  }
  for (const s of fresh) if (!renamedTo.has(s)) add("schema-added", "addition", `new type ${s.name}`, { new: [undefined, s.pointer] });

  const rank = (c: ChangeClass) => CHANGE_CLASSES.indexOf(c);
  return changes.sort((a, b) => rank(a.class) - rank(b.class) || (a.operation ?? "").localeCompare(b.operation ?? "") || a.rule.localeCompare(b.rule) || a.message.localeCompare(b.message));
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

/** How many changes of each class. */
export function summarize(changes: readonly { class: ChangeClass }[]): Record<ChangeClass, number> {
  const out = Object.fromEntries(CHANGE_CLASSES.map((c) => [c, 0])) as Record<ChangeClass, number>;
  for (const c of changes) out[c.class]++;
  return out;
}

/** Whether a `--fail-on` level is reached: `breaking-wire` fails on wire breaks only, `breaking-code` on either kind of break, `deprecation` on those and deprecations. */
export function failsOn(changes: readonly Change[], level: "breaking-wire" | "breaking-code" | "deprecation"): boolean {
  const limit = CHANGE_CLASSES.indexOf(level);
  return changes.some((c) => CHANGE_CLASSES.indexOf(c.class) <= limit);
}

/** Human text: one line per change, most severe first. */
export function formatText(changes: readonly Change[]): string {
  if (changes.length === 0) return "no changes\n";
  const lines = changes.map((c) => `${c.class.padEnd(13)} ${c.rule}: ${c.message}${c.new ? `\n    new: ${c.new.file}:${c.new.line}:${c.new.col} at ${c.new.pointer}` : ""}${c.old ? `\n    old: ${c.old.file}:${c.old.line}:${c.old.col} at ${c.old.pointer}` : ""}`);
  const s = summarize(changes);
  return `${lines.join("\n")}\n\n${CHANGE_CLASSES.map((c) => `${s[c]} ${c}`).join(", ")}\n`;
}

/** Markdown for a PR comment or a CHANGELOG section: grouped by operation, classes as headings. */
export function formatMarkdown(changes: readonly Change[]): string {
  if (changes.length === 0) return "No changes.\n";
  const s = summarize(changes);
  const out = [`**${CHANGE_CLASSES.filter((c) => s[c] > 0).map((c) => `${s[c]} ${c}`).join(", ")}**`, ""];
  for (const cls of CHANGE_CLASSES) {
    const list = changes.filter((c) => c.class === cls);
    if (list.length === 0) continue;
    out.push(`### ${cls}`, "");
    const groups = new Map<string, Change[]>();
    for (const c of list) groups.set(c.operation ?? "(document)", [...(groups.get(c.operation ?? "(document)") ?? []), c]);
    for (const [operation, items] of groups) {
      out.push(`- \`${operation.replace(/`/g, "'")}\``);
      for (const c of items) out.push(`  - ${c.message.replace(/\r?\n/g, " ")} (\`${c.rule}\`${c.new ? `, ${c.new.file}:${c.new.line}` : c.old ? `, was ${c.old.file}:${c.old.line}` : ""})`);
    }
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

/** The documented JSON form (version 1). */
export function formatJson(changes: readonly Change[]): string {
  return `${JSON.stringify({ version: 1, changes, summary: summarize(changes) }, null, 2)}\n`;
}
