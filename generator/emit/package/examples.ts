/**
 * The values of the package README's examples: every name comes from the IR,
 * and every value is made to fit the parameter's type and pass its schema (a
 * schema's example or default when the schema accepts it, else a sample of
 * its type that does: sample-values.ts), so the examples compile against the
 * package and their calls pass its validators
 * (test/generator/readme-examples.test.ts).
 */
import { isStreamed } from "../../ir/streams.js";
import { endpointGroupOf } from "../../ir/endpoints.js";
import type { PackageConfig, Target } from "../../config.js";
import { followRefs, namedSchema, rpcFields } from "../../ir/resolve.js";
import { isIdentifierName } from "../../ir/naming.js";
import type { IrDocument, IrOperation, IrParameter, IrRpcOperation, IrSchema, JsonValue } from "../../ir/types.js";
import { identifier, propertyKey, stringLiteral } from "../escape.js";
import { branchFor } from "./branches.js";
import { sampleNumber, sampleString, scalarFits } from "./sample-values.js";
import { wireMethod } from "../../load/operations.js";

/** One input of the package: its IR, output folder, documents and targets. */
export interface PackageInput {
  ir: IrDocument;
  output: string;
  /** The loaded spec documents, bundled as JSON for other tools. */
  documents: { file: string; root: unknown }[];
  /** What the input emits. */
  targets: ReadonlySet<Target>;
}

export type Lookup = (key: string) => IrSchema | undefined;

/** The members TypeScript gives every object literal (lib's `Object` interface). */
const INHERITED = new Set(["constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"]);

/** Sets `k` as an own data property: a spec's `__proto__` key stays a key. */
function setOwn(o: Record<string, JsonValue>, k: string, v: JsonValue): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/**
 * A spec example trimmed to what the request type admits: readOnly members
 * are not part of a request's type, and an object without
 * `additionalProperties` is a closed type in TypeScript, so a member the
 * schema does not list would not compile in an object literal.
 */
function fit(value: JsonValue, s: IrSchema | undefined, lookup: Lookup, depth = 0, context?: IrSchema): JsonValue {
  // a scalar the schema refuses (an example that breaks its own pattern) would fail the call: a sample that passes instead
  if (value === null || typeof value !== "object") return !s || depth > 24 || scalarFits(value, s, lookup) ? value : sampleOf(s, lookup, depth + 1, context);
  if (!s || depth > 24) return value;
  if (s.kind === "ref") return fit(value, lookup(s.target), lookup, depth + 1, context);
  if (s.kind === "boolean") return value;
  if (Array.isArray(value)) return s.items || s.prefixItems ? value.map((v, i) => fit(v, s.prefixItems?.[i] ?? s.items, lookup, depth + 1)) : value;
  const props = new Map<string, IrSchema>();
  // members every variant requires: the schema's own and its allOf parts' (readOnly and writeOnly ones carry the flag on the property)
  const required = new Map<string, IrSchema | undefined>();
  let open = false;
  const collect = (x: IrSchema | undefined, d: number, all: boolean): void => {
    if (!x || d > 24) return void (open = true);
    if (x.kind === "ref") return collect(lookup(x.target), d + 1, all);
    if (x.kind === "boolean") return;
    for (const p of x.properties ?? []) {
      if (!props.has(p.name)) props.set(p.name, p.schema);
      // an object literal has Object.prototype's members, so an optional `toString?: number` must be given to compile
      if (all && (p.required || INHERITED.has(p.name))) required.set(p.name, p.schema);
    }
    // a name only listed in `required` is typed by the parent's property of that name (a branch of its oneOf/anyOf), or additionalProperties
    if (all) for (const name of x.required ?? []) if (!required.has(name)) required.set(name, x.properties?.find((p) => p.name === name)?.schema ?? propertyOf(context, name, lookup) ?? x.additionalProperties);
    if ((x.additionalProperties && !(x.additionalProperties.kind === "boolean" && !x.additionalProperties.value)) || x.patternProperties?.length) open = true;
    const parts = [...(x.allOf ?? []), ...(x.oneOf ?? []), ...(x.anyOf ?? [])];
    if (!x.properties && !x.additionalProperties && parts.length === 0) open = true;
    for (const sub of x.allOf ?? []) collect(sub, d + 1, all);
    // the branch the example is meant for is its type (its required members too), not every branch's members at once
    const branches = [...(x.oneOf ?? []), ...(x.anyOf ?? [])];
    const chosen = branches.length > 1 ? branchFor(value as Record<string, JsonValue>, branches, lookup) : undefined;
    for (const sub of chosen ? [chosen] : branches) collect(sub, d + 1, chosen !== undefined && all);
  };
  collect(s, depth, true);
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = props.get(k);
    if (p ? p.readOnly === true : !open) continue;
    setOwn(out, k, p ? fit(v, p, lookup, depth + 1) : v);
  }
  // an example (or a default) that leaves out a required member would not compile: add a sample of it
  for (const [name, p] of required) if (p?.readOnly !== true && !Object.prototype.hasOwnProperty.call(out, name)) setOwn(out, name, sampleOf(p, lookup, depth + 1));
  return out;
}

/** A small value of a schema's request type: its example when it has one, else built from types, bounds and required members. */
export function sampleOf(s: IrSchema | undefined, lookup: Lookup, depth = 0, context?: IrSchema): JsonValue {
  if (!s || depth > 12) return null;
  // the schema's example or default, unless the schema refuses it
  const given = [...(s.examples ?? []), ...(s.default !== undefined ? [s.default] : [])].find((v) => scalarFits(v, s, lookup));
  if (given !== undefined) return fit(given, s, lookup, depth, context);
  if (s.kind === "ref") return sampleOf(lookup(s.target), lookup, depth + 1, context);
  if (s.kind === "boolean") return null;
  if (s.const) return s.const.value;
  const values = s.enum ?? s.knownValues;
  if (values && values.length > 0) return values[0]!;
  const types = s.types ?? (s.properties || s.additionalProperties || s.required ? ["object"] : s.items || s.prefixItems ? ["array"] : undefined);
  const branch = s.oneOf?.[0] ?? s.anyOf?.[0];
  let value: JsonValue;
  switch (types?.find((t) => t !== "null") ?? types?.[0]) {
    case "string":
      value = sampleString(s);
      break;
    case "integer":
    case "number":
      value = sampleNumber(s, (types?.find((t) => t !== "null") ?? types?.[0]) === "integer");
      break;
    case "boolean":
      value = true;
      break;
    case "null":
      value = null;
      break;
    case "array":
      value = s.prefixItems ? s.prefixItems.map((x) => sampleOf(x, lookup, depth + 1)) : Array.from({ length: Math.min(s.minItems ?? 0, 8) }, () => sampleOf(s.items, lookup, depth + 1));
      break;
    case "object":
      // its required members (and allOf parts'), sampled
      value = fit({}, s, lookup, depth, context);
      break;
    default: {
      // no type of its own: what its parts say
      if (!s.allOf?.length) return branch ? sampleOf(branch, lookup, depth + 1) : null;
      // `allOf: [{ $ref: SomeEnum }]` (a ref with siblings, in 3.0) is that part's value; object parts merge
      const concrete = s.allOf.map((part) => sampleOf(part, lookup, depth + 1)).find((v) => v !== null && (typeof v !== "object" || Array.isArray(v)));
      if (concrete !== undefined) return concrete;
      value = fit({}, s, lookup, depth, context);
    }
  }
  // a scalar the branches constrain further: the first branch's own sample
  if (branch && (value === null || typeof value !== "object") && !scalarFits(value, s, lookup)) return sampleOf(branch, lookup, depth + 1);
  // the first oneOf/anyOf branch adds its required members
  // (a branch may require a member only the parent describes: `anyOf: [{ required: [a] }, …]`)
  if (branch && typeof value === "object" && value !== null && !Array.isArray(value)) {
    const more = sampleOf(branch, lookup, depth + 1, s);
    if (typeof more === "object" && more !== null && !Array.isArray(more)) for (const [k, v] of Object.entries(more)) setOwn(value, k, v);
  }
  return value;
}

/** The schema of a named member: the schema's own property, or one of its allOf parts'. */
function propertyOf(s: IrSchema | undefined, name: string, lookup: Lookup, depth = 0): IrSchema | undefined {
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema" || depth > 24) return undefined;
  const own = t.properties?.find((p) => p.name === name)?.schema;
  if (own) return own;
  for (const part of t.allOf ?? []) {
    const found = propertyOf(part, name, lookup, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function httpParamValue(p: IrParameter, lookup: Lookup): JsonValue {
  return p.example !== undefined ? fit(p.example, p.schema, lookup) : sampleOf(p.schema, lookup);
}

/** Call arguments for a README example: the spec's examples where it has them, fitted to the params type; else sampled from the schemas. */
export function exampleArgs(ir: IrDocument, op: IrOperation): Record<string, JsonValue> | undefined {
  const lookup: Lookup = (key) => namedSchema(ir, key)?.schema;
  if (op.protocol === "json-rpc") return rpcExampleArgs(op, lookup);
  const args: Record<string, JsonValue> = {};
  for (const p of op.parameters) if (p.required) setOwn(args, p.key, httpParamValue(p, lookup));
  if (op.requestBody?.required) {
    const c = op.requestBody.content[0];
    args["body"] = c ? (c.example !== undefined ? fit(c.example, c.schema, lookup) : sampleOf(c.schema, lookup)) : {};
  }
  return Object.keys(args).length > 0 ? args : undefined;
}

function rpcExampleArgs(op: IrRpcOperation, lookup: Lookup): Record<string, JsonValue> | undefined {
  const ex = op.examples[0];
  if (op.transport.form === "one-object") {
    const param = op.params[0]!;
    const v = ex?.params[0] ? fit(ex.params[0].value, param.schema, lookup) : param.required ? sampleOf(param.schema, lookup) : undefined;
    // a required params object is passed even when empty
    return typeof v === "object" && v !== null && !Array.isArray(v) && (Object.keys(v).length > 0 || param.required) ? v : undefined;
  }
  const args: Record<string, JsonValue> = {};
  if (ex && ex.params.length > 0) {
    // OpenRPC pairs example params with the method's by position; documents that name them after the params may leave some out
    const byName = ex.params.every((p) => op.params.some((x) => x.name === p.name));
    ex.params.forEach((p, i) => {
      const param = byName ? op.params.find((x) => x.name === p.name) : op.params[i];
      if (param) setOwn(args, param.name, fit(p.value, param.schema, lookup));
    });
  }
  // an example that leaves out a required param cannot be called as is
  for (const p of op.params) if (p.required && !Object.prototype.hasOwnProperty.call(args, p.name)) setOwn(args, p.name, sampleOf(p.schema, lookup));
  return Object.keys(args).length > 0 ? args : undefined;
}

/** Inline JS object text for a README snippet; keys and strings go through the escaping choke point. */
export function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${propertyKey(k, "value")}: ${inline(v)}`).join(", ")} }`;
  }
  return typeof value === "string" ? stringLiteral(value) : JSON.stringify(value);
}

/** `client.group.method`, with any group or method name that is not a plain identifier in brackets. */
export function memberPath(base: string, names: readonly string[]): string {
  return identifier(base) + names.map((n) => (isIdentifierName(n) && n !== "__proto__" ? `.${n}` : `[${stringLiteral(n)}]`)).join("");
}

/** `client.group.sub`, calling a group that takes its endpoint's path variables with the spec's examples of them (`node.l1({ blockchainId: "2YTRV…" }).eth`). */
export function groupPath(ir: IrDocument, base: string, names: readonly string[]): string {
  const g = endpointGroupOf(ir, names);
  if (!g) return memberPath(base, names);
  return `${memberPath(base, g.group)}(${inline(Object.fromEntries(g.variables.map((v) => [v.name, v.default])))})${memberPath(base, names.slice(g.group.length)).slice(identifier(base).length)}`;
}

/** An operation's place on the client in a table: `l1({ blockchainId }).eth.chainId` below a group that takes its endpoint's variables. */
export function methodLabel(ir: IrDocument, op: IrOperation): string {
  const path = [...op.group, op.names.method];
  const g = endpointGroupOf(ir, op.group);
  return g ? `${g.group.join(".")}({ ${g.variables.map((v) => v.name).join(", ")} }).${path.slice(g.group.length).join(".")}` : path.join(".");
}

/** For each group that takes its endpoint's path variables: what it takes, and an example of the three ways to call one of its methods. */
export function endpointExamples(pkg: PackageConfig, i: PackageInput, varName: string): { member: string; paths: string[]; type: string; example: string }[] {
  return (i.ir.endpointGroups ?? []).flatMap((g) => {
    const op = i.ir.operations.find((o) => g.files.includes(o.file) && o.protocol === "json-rpc" && !o.deprecated && !(o.protocol === "json-rpc" && o.params.some((p) => p.required)));
    if (!op || !g.names) return [];
    const values = inline(Object.fromEntries(g.variables.map((v) => [v.name, v.default])));
    const sub = `${pkg.name}/${i.output}`;
    const example = [
      importLine(["bindEndpoint", "createRpcTransport", "withEndpoint"], pkg.name),
      importLine([i.ir.names.coreFactory, i.ir.names.defaultBaseUrl, op.names.function, op.names.descriptor], sub),
      "",
      `const one = ${groupPath(i.ir, varName, [...op.group, op.names.method])}(); // the spec's example values`,
      `const two = await ${identifier(op.names.function)}(withEndpoint(${identifier(i.ir.names.coreFactory)}(), ${values}));`,
      `const three = await createRpcTransport({}, ${identifier(i.ir.names.defaultBaseUrl)}).call(bindEndpoint(${identifier(op.names.descriptor)}, ${values}), {});`,
      "console.log(await one, two, three);",
    ].join("\n");
    return [{ member: `${varName}.${g.group.join(".")}({ ${g.variables.map((v) => v.name).join(", ")} })`, paths: [...new Set(i.ir.operations.filter((o) => g.files.includes(o.file)).map((o) => o.endpoint))], type: g.names.type, example }];
  });
}

/** One operation's call in a README example: `client.group.method({ …args })`, or with `()` when nothing is required. */
export function callOf(ir: IrDocument, base: string, op: IrOperation, extra?: string): string {
  const args = exampleArgs(ir, op);
  const list = [args ? inline(args) : extra ? "undefined" : undefined, extra].filter((x) => x !== undefined);
  return `${groupPath(ir, base, [...op.group, op.names.method])}(${list.join(", ")})`;
}

export function wireOf(op: IrOperation): string {
  return op.protocol === "http" ? `${wireMethod(op.transport.method)} ${op.endpoint}${op.transport.path}` : `${op.transport.method} @ ${op.endpoint || "/"}`;
}

export function paramsOf(ir: IrDocument, op: IrOperation): string {
  let list: { name: string; required: boolean }[];
  if (op.protocol === "http") list = [...op.parameters.map((p) => ({ name: p.key, required: p.required })), ...(op.requestBody ? [{ name: "body", required: op.requestBody.required }] : [])];
  // for one-object methods callers pass the object's fields
  else list = rpcFields(op, (key) => namedSchema(ir, key)?.schema);
  const form = op.protocol === "json-rpc" ? ` (${op.transport.form})` : "";
  return list.length === 0 ? "none" : list.map((p) => `${p.name}${p.required ? "" : "?"}`).join(", ") + form;
}

/** The operation whose example call is shortest (not deprecated when there is a choice): the clearest example. */
/** Operations whose example call is written out to find the shortest: the likeliest by a cheap measure (on a document of 22,000 operations, writing every one took a second). */
const SHORTEST_CANDIDATES = 64;

export function shortestOp(i: PackageInput, ops: IrOperation[]): IrOperation | undefined {
  // the examples await one body and pass call options: a streamed operation (an ItemStream) does neither
  if (ops.some((op) => !isStreamed(op))) ops = ops.filter((op) => !isStreamed(op));
  let pool = ops.some((op) => !op.deprecated) ? ops.filter((op) => !op.deprecated) : ops;
  if (pool.length > SHORTEST_CANDIDATES) {
    // fewest required inputs, then the shortest method path; stable, so the spec's order breaks ties
    const required = (op: IrOperation) => (op.protocol === "http" ? op.parameters.filter((p) => p.required).length + (op.requestBody?.required ? 1 : 0) : op.params.filter((p) => p.required).length);
    const cheap = (op: IrOperation) => required(op) * 1000 + [...op.group, op.names.method].join(".").length;
    pool = pool.map((op) => ({ op, k: cheap(op) })).sort((a, b) => a.k - b.k).slice(0, SHORTEST_CANDIDATES).map((x) => x.op);
  }
  return pool.map((op) => ({ op, text: callOf(i.ir, "client", op) })).sort((a, b) => a.text.length - b.text.length)[0]?.op;
}

export const importLine = (names: string[], from: string) => `import { ${[...new Set(names)].sort().map(identifier).join(", ")} } from ${stringLiteral(from)};`;

/** The package's mock server command (package.json `bin`): `@me/api` → `me-api-mock`. */
export function mockCommandName(packageName: string): string {
  return `${packageName.replace(/^@/, "").replace(/[^A-Za-z0-9._-]+/g, "-")}-mock`;
}
