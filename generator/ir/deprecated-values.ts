/**
 * `x-avaspec-deprecated-values` at a document's root: values of a named
 * schema that this document's server no longer takes (the C-Chain refuses
 * the block tag `accepted` from the Helicon activation on), with when and
 * what to do instead. A refusal belongs to the server, not to the schema:
 * another document may share the schema (a Subnet-EVM L1 reuses the
 * C-Chain's block tags and takes `accepted`), so the list sits on the
 * document and covers that document's operations only.
 *
 * ```yaml
 * x-avaspec-deprecated-values:
 *   - schema: "#/components/schemas/BlockTag"
 *     value: accepted
 *     removedIn: "Helicon (v1.15.0), at its activation: …"
 *     message: use "finalized"
 * ```
 *
 * Here: reading and checking the list (`extension/deprecated-values`), and
 * where in an operation's params each value can appear.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import type { IrDeprecatedValue, IrOperation, IrSchema, JsonValue } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const KEY = "x-avaspec-deprecated-values";
const FIELDS = new Set(["schema", "value", "deprecatedIn", "removedIn", "message"]);
const SHAPE = `${KEY} must be a list of { schema: "#/components/schemas/<name>", value, deprecatedIn?, removedIn?, message? }`;

/** The document's deprecated values, each checked; a malformed entry is a diagnostic and left out. */
export function readDeprecatedValues(doc: LoadedDocument, diagnostics: Diagnostic[]): IrDeprecatedValue[] {
  const root = doc.root as Record<string, unknown>;
  const list = root[KEY];
  if (list === undefined) return [];
  const report = (pointer: string, message: string, hint?: string) => {
    const { line, col } = doc.locate(pointer);
    diagnostics.push({ code: "extension/deprecated-values", severity: "error", message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };
  const at = `#/${KEY}`;
  if (!Array.isArray(list)) return report(at, SHAPE), [];
  const out: IrDeprecatedValue[] = [];
  list.forEach((entry, i) => {
    const where = ptr.join(at, i);
    if (!isObj(entry)) return report(where, SHAPE);
    const unknown = Object.keys(entry).find((k) => !FIELDS.has(k));
    if (unknown !== undefined) return report(ptr.join(where, unknown), `${KEY}: unknown key ${JSON.stringify(unknown)}`, `the keys are ${[...FIELDS].join(", ")}`);
    const schema = entry["schema"];
    if (typeof schema !== "string" || !/^#\/components\/schemas\/[^/]+$/.test(schema)) return report(ptr.join(where, "schema"), `${KEY}: schema must point at a named schema of this document, "#/components/schemas/<name>", got ${JSON.stringify(schema)}`);
    const target = doc.at(schema)?.value;
    if (!isObj(target)) return report(ptr.join(where, "schema"), `${KEY}: ${schema} is not a schema of this document`);
    const value = entry["value"];
    if (!["string", "number", "boolean"].includes(typeof value)) return report(ptr.join(where, "value"), `${KEY}: value must be a string, a number or a boolean, got ${JSON.stringify(value)}`);
    const listed = [...(Array.isArray(target["enum"]) ? target["enum"] : []), ...(Array.isArray(target["x-extensible-enum"]) ? target["x-extensible-enum"] : []), ...("const" in target ? [target["const"]] : [])];
    if (!listed.includes(value)) return report(ptr.join(where, "value"), `${KEY}: ${JSON.stringify(value)} is not a value ${schema} lists (enum, x-extensible-enum or const)`, "name a value the schema still lists: a deprecated value stays valid, the client only warns");
    const texts: Partial<Record<"deprecatedIn" | "removedIn" | "message", string>> = {};
    for (const k of ["deprecatedIn", "removedIn", "message"] as const) {
      const v = entry[k];
      if (v === undefined) continue;
      if (typeof v !== "string" || v.trim() === "") return report(ptr.join(where, k), `${KEY}: ${k} must be a non-empty string, got ${JSON.stringify(v)}`);
      texts[k] = v;
    }
    const name = ptr.parse(schema)!.at(-1)!;
    out.push({ kind: "deprecated-value", pointer: where, file: doc.file, target: `${doc.file}${schema}`, schemaName: name, value: value as JsonValue, ...texts });
  });
  return out;
}

/** What the first request carrying the value warns (once; `deprecationWarnings`): the release or upgrade as the spec words it, and its message. */
export function deprecatedValueNotice(d: IrDeprecatedValue): string {
  const when = d.removedIn ? ` is ${d.deprecatedIn ? `deprecated in ${d.deprecatedIn} and ` : ""}removed in ${d.removedIn}` : d.deprecatedIn ? ` is deprecated since ${d.deprecatedIn}` : " is deprecated";
  return `${JSON.stringify(d.value)} (${d.schemaName})${when}${d.message ? `. ${d.message}` : ""}`;
}

/** A path into a params object: property names, `null` for any item of an array or value of a map. */
export type ValuePath = (string | null)[];

/**
 * Where each deprecated value of the operation's document can sit in its
 * params object: every path to a use of a listed schema, through properties,
 * items, map values and union branches. A schema already on the path is not
 * entered again, so a value inside recursion is watched at its first level.
 */
export function deprecatedValuePaths(op: IrOperation, listed: readonly IrDeprecatedValue[], lookup: (key: string) => IrSchema | undefined): { notice: IrDeprecatedValue; paths: ValuePath[] }[] {
  const mine = listed.filter((d) => d.file === op.file);
  if (mine.length === 0) return [];
  const targets = new Set(mine.map((d) => d.target));
  const found = new Map<string, Map<string, ValuePath>>();
  const reach = reachability(targets, lookup);
  const visit = (s: IrSchema, path: ValuePath, seen: ReadonlySet<string>): void => {
    if (s.kind === "ref") {
      if (targets.has(s.target)) {
        const at = found.get(s.target) ?? found.set(s.target, new Map()).get(s.target)!;
        at.set(JSON.stringify(path), path);
      }
      const t = lookup(s.target);
      if (t && !seen.has(s.target) && reach(s.target)) visit(t, path, new Set([...seen, s.target]));
      return;
    }
    if (s.kind !== "schema") return;
    for (const p of s.properties ?? []) visit(p.schema, [...path, p.name], seen);
    for (const any of [s.additionalProperties, ...(s.patternProperties ?? []).map((p) => p.schema), s.items, ...(s.prefixItems ?? [])]) if (any) visit(any, [...path, null], seen);
    for (const branch of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.then ? [s.then] : []), ...(s.else ? [s.else] : [])]) visit(branch, path, seen);
  };
  if (op.protocol === "http") {
    for (const p of op.parameters) visit(p.schema, [p.key], new Set());
    const body = op.requestBody?.content[0];
    if (body) visit(body.schema, ["body"], new Set());
  } else if (op.transport.form === "one-object" && op.params[0]) visit(op.params[0].schema, [], new Set());
  else for (const p of op.params) visit(p.schema, [p.name], new Set());
  return mine.flatMap((notice) => {
    const paths = [...(found.get(notice.target)?.values() ?? [])];
    return paths.length > 0 ? [{ notice, paths }] : [];
  });
}

/** Whether a named schema reaches a listed one through its members (a fixpoint, cycles included), asked by key. */
function reachability(targets: ReadonlySet<string>, lookup: (key: string) => IrSchema | undefined): (key: string) => boolean {
  const memo = new Map<string, boolean>();
  const refs = (s: IrSchema | undefined, out: Set<string>): Set<string> => {
    if (!s) return out;
    if (s.kind === "ref") out.add(s.target);
    else if (s.kind === "schema") {
      for (const c of [...(s.properties ?? []).map((p) => p.schema), s.additionalProperties, ...(s.patternProperties ?? []).map((p) => p.schema), s.items, ...(s.prefixItems ?? []), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.then, s.else]) refs(c, out);
    }
    return out;
  };
  return (key) => {
    const known = memo.get(key);
    if (known !== undefined) return known;
    // breadth-first over the refs below `key`
    const queue = [key];
    const seen = new Set(queue);
    let reaches = false;
    while (queue.length > 0 && !reaches) {
      for (const next of refs(lookup(queue.shift()!), new Set())) {
        if (targets.has(next) || memo.get(next) === true) reaches = true;
        else if (!seen.has(next) && memo.get(next) !== false) (seen.add(next), queue.push(next));
      }
    }
    memo.set(key, reaches);
    return reaches;
  };
}
