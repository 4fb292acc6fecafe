/**
 * Include/exclude: which operations of a validated document become client
 * operations. Filters are `kind:pattern` strings, from the config
 * (`include`, `exclude` of an input) or the command line:
 *
 *   tag:orders          operations tagged "orders" (OpenAPI or OpenRPC tags)
 *   path:/v1/chains/**  OpenAPI operations under a path template
 *   op:getOrder         an OpenAPI operationId, or an OpenRPC method's name
 *   method:eth_*        OpenRPC methods by name, or OpenAPI operations by
 *                       HTTP method: as the loader names it (`get`, `query`,
 *                       an `additionalOperations` key such as `COPY`) or as
 *                       sent (`GET`, `QUERY`)
 *
 * Each pattern is a glob: `*` is any run of characters but `/`, `**` any run
 * at all, `?` one character but `/`; anything else is itself. An operation is
 * kept when it matches an include (or there is none) and no exclude.
 *
 * The document is cut before the IR is built, so an excluded operation leaves
 * nothing behind: no types, validators, descriptors or mocks. A component that
 * only excluded operations reached (through `$ref`s, discriminator mappings
 * and the subtypes of a reached discriminator) goes too; one that no
 * operation reached before the cut stays, as it would without filters (a
 * vendor's standalone types, such as event payloads). See docs/adr/0027.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import { isOpenApi32, pathItemOperations, wireMethod } from "../load/operations.js";
import * as ptr from "../load/pointer.js";

export const FILTER_KINDS = ["tag", "path", "op", "method"] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];
/** The syntax of one filter, for the config's check. */
export const FILTER_SYNTAX = /^(tag|path|op|method):(.+)$/;

export interface Filter {
  kind: FilterKind;
  pattern: string;
  text: string;
  /** Where the filter was written: a diagnostic about it (matches nothing) points there. */
  file: string;
  pointer: string;
  test: RegExp;
  /** Operations it matched, over every document of the input. */
  matched: number;
}

export interface Selection {
  include: Filter[];
  exclude: Filter[];
}

/** A glob as a whole-string regular expression. */
export function globRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      // `a/**` takes in `a` itself, and `**/b` a `b` at any depth
      if (glob[i + 2] === "/") (out += "(?:.*/)?"), (i += 2);
      else if (out.endsWith("/") && i + 2 === glob.length) (out = out.slice(0, -1) + "(?:/.*)?"), i++;
      else (out += ".*"), i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "s");
}

/** The filters of an input; `where(list, i)` names where the i-th of `include` or `exclude` was written. */
export function selectionOf(include: readonly string[], exclude: readonly string[], where: (list: "include" | "exclude", i: number) => { file: string; pointer: string }): Selection | undefined {
  if (include.length === 0 && exclude.length === 0) return undefined;
  const make = (list: "include" | "exclude") => (text: string, i: number): Filter => {
    const [, kind, pattern] = FILTER_SYNTAX.exec(text) ?? [, "op", text];
    return { kind: kind as FilterKind, pattern: pattern!, text, ...where(list, i), test: globRegExp(pattern!), matched: 0 };
  };
  return { include: include.map(make("include")), exclude: exclude.map(make("exclude")) };
}

/** What a filter can match in one operation. */
interface OperationFacts {
  tags: string[];
  path?: string;
  operationId?: string;
  /** An OpenRPC method's name. */
  rpcMethod?: string;
  /** An OpenAPI operation's HTTP method, as the loader names it (`get`, `query`, `COPY`). */
  httpMethod?: string;
}

function matches(f: Filter, op: OperationFacts): boolean {
  switch (f.kind) {
    case "tag":
      return op.tags.some((t) => f.test.test(t));
    case "path":
      return op.path !== undefined && f.test.test(op.path);
    case "op":
      return (op.operationId !== undefined && f.test.test(op.operationId)) || (op.rpcMethod !== undefined && f.test.test(op.rpcMethod));
    case "method":
      if (op.rpcMethod !== undefined) return f.test.test(op.rpcMethod);
      return op.httpMethod !== undefined && (f.test.test(op.httpMethod) || f.test.test(wireMethod(op.httpMethod)));
  }
}

/** Whether the selection keeps an operation; counts what each filter matched. */
function keeps(selection: Selection, op: OperationFacts): boolean {
  let included = selection.include.length === 0;
  for (const f of selection.include) if (matches(f, op)) (f.matched++, (included = true));
  let excluded = false;
  for (const f of selection.exclude) if (matches(f, op)) (f.matched++, (excluded = true));
  return included && !excluded;
}

/** A filter that matched no operation of any document of the input, as warnings. */
export function unmatchedFilters(selection: Selection): Diagnostic[] {
  return [...selection.include, ...selection.exclude]
    .filter((f) => f.matched === 0)
    .map((f) => ({ code: "filter/no-match", severity: "warning" as const, message: `the filter ${JSON.stringify(f.text)} matches no operation`, file: f.file, pointer: f.pointer, line: 1, col: 1, hint: "filters are tag:<tag>, path:<glob>, op:<operationId or method name>, method:<glob>; a pattern is matched as a glob (* ** ?)" }));
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Cuts the document (in place) to the operations the selection keeps, and the components only the others reached. */
export function selectOperations(doc: LoadedDocument, selection: Selection): void {
  const root = doc.root as Json;
  const isRpc = "openrpc" in root;
  const before = reachable(doc, []);
  if (isRpc) cutMethods(doc, selection);
  else cutPaths(doc, selection);
  const components = isObj(root["components"]) ? root["components"] : {};
  const entries = Object.entries(components).flatMap(([section, map]) => (isObj(map) ? Object.keys(map).map((name) => ({ section, name, at: ptr.join("#/components", section, name) })) : []));
  // what no operation reached stays, and so does what it reaches: a kept standalone type must not lose a $ref's target
  const after = reachable(doc, entries.filter((e) => !before.has(e.at)).map((e) => e.at));
  for (const e of entries) if (e.section !== "securitySchemes" && before.has(e.at) && !after.has(e.at)) delete (components[e.section] as Json)[e.name];
}

function deref(doc: LoadedDocument, value: unknown, from: string): Json | undefined {
  if (isObj(value) && typeof value["$ref"] === "string") {
    const r = doc.resolve(value["$ref"], from);
    return isObj(r?.value) ? r.value : undefined;
  }
  return isObj(value) ? value : undefined;
}

function cutPaths(doc: LoadedDocument, selection: Selection): void {
  const root = doc.root as Json;
  const paths = root["paths"];
  if (!isObj(paths)) return;
  // the loader's own list of a path item's operations: a method it sees is one a filter sees, in every version
  const is32 = isOpenApi32(root);
  for (const [path, raw] of Object.entries(paths)) {
    const at = ptr.join("#/paths", path);
    const item = deref(doc, raw, at);
    if (!item) continue;
    const ops = pathItemOperations(item, is32).filter((o) => isObj(o.op));
    const dropped = ops.filter(({ method, op }) => {
      const o = op as Json;
      const tags = Array.isArray(o["tags"]) ? o["tags"].filter((t): t is string => typeof t === "string") : [];
      return !keeps(selection, { tags, path, httpMethod: method, ...(typeof o["operationId"] === "string" ? { operationId: o["operationId"] } : {}) });
    });
    if (dropped.length === 0) continue;
    if (dropped.length === ops.length) {
      delete paths[path];
      continue;
    }
    // a path item shared by $ref is cut in a copy of its own: the other users keep all of it
    const extra = item["additionalOperations"];
    const own = item === raw ? item : { ...item, ...(isObj(extra) ? { additionalOperations: { ...extra } } : {}) };
    for (const { keys } of dropped) {
      const holder = keys.length === 1 ? own : (own[keys[0]!] as Json);
      delete holder[keys[keys.length - 1]!];
    }
    if (own !== item) paths[path] = own;
  }
}

function cutMethods(doc: LoadedDocument, selection: Selection): void {
  const root = doc.root as Json;
  const methods = root["methods"];
  if (!Array.isArray(methods)) return;
  root["methods"] = methods.filter((raw, i) => {
    const m = deref(doc, raw, `#/methods/${i}`);
    if (!m || typeof m["name"] !== "string") return true;
    const tags = Array.isArray(m["tags"]) ? m["tags"].map((t, j) => deref(doc, t, `#/methods/${i}/tags/${j}`)?.["name"]).filter((t): t is string => typeof t === "string") : [];
    return keeps(selection, { tags, rpcMethod: m["name"] });
  });
}

/**
 * The component entries (`#/components/<section>/<name>`) reached from the
 * document outside its components: through `$ref`s and discriminator
 * mappings, transitively, and the schemas that extend (allOf) a reached
 * schema with a discriminator, which an implicit mapping names by their key.
 */
function reachable(doc: LoadedDocument, seeds: readonly string[]): Set<string> {
  const root = doc.root as Json;
  const components = isObj(root["components"]) ? root["components"] : {};
  const reached = new Set<string>();
  const queue: [unknown, string][] = Object.entries(root)
    .filter(([k]) => k !== "components")
    .map(([k, v]) => [v, ptr.join("#", k)]);
  const reachEntry = (section: string, name: string) => {
    const entry = ptr.join("#/components", section, name);
    if (reached.has(entry)) return;
    reached.add(entry);
    const map = components[section];
    queue.push([isObj(map) ? map[name] : undefined, entry]);
  };
  for (const seed of seeds) {
    const [, section, name] = ptr.parse(seed)!;
    reachEntry(section!, name!);
  }
  const reach = (ref: string, from: string) => {
    const target = doc.resolve(ref, from)?.pointer;
    const tokens = target === undefined ? undefined : ptr.parse(target);
    if (tokens && tokens[0] === "components" && tokens.length >= 3) reachEntry(tokens[1]!, tokens[2]!);
  };
  const drain = () => {
    while (queue.length > 0) {
      const [node, at] = queue.pop()!;
      if (typeof node !== "object" || node === null) continue;
      if (isObj(node)) {
        if (typeof node["$ref"] === "string") reach(node["$ref"], at);
        const mapping = isObj(node["discriminator"]) ? (node["discriminator"] as Json)["mapping"] : undefined;
        if (isObj(mapping)) for (const v of Object.values(mapping)) if (typeof v === "string") reach(v.includes("#") || v.includes("/") ? v : `#/components/schemas/${v}`, at);
      }
      for (const [k, v] of Object.entries(node)) if (typeof v === "object" && v !== null) queue.push([v, ptr.join(at, k)]);
    }
  };
  drain();
  const schemas = isObj(components["schemas"]) ? components["schemas"] : {};
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, schema] of Object.entries(schemas)) {
      const at = ptr.join("#/components/schemas", name);
      if (reached.has(at) || !isObj(schema) || !Array.isArray(schema["allOf"])) continue;
      const extendsReached = schema["allOf"].some((part, i) => {
        if (!isObj(part) || typeof part["$ref"] !== "string") return false;
        const r = doc.resolve(part["$ref"], ptr.join(at, "allOf", i));
        return r !== undefined && reached.has(r.pointer) && isObj(r.value) && isObj(r.value["discriminator"]);
      });
      if (extendsReached) {
        reached.add(at);
        queue.push([schema, at]);
        drain();
        grew = true;
      }
    }
  }
  return reached;
}
