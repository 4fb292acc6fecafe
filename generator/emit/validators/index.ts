/**
 * Target `validators`: for every named schema and every operation a
 * `validateX(value)` returning `{ ok, value } | { ok, issues }` and a Standard
 * Schema v1 object. Checks are plain functions; only the schemas an exported
 * validator reaches end up in a bundle that imports it. The module is
 * JavaScript (validators.js) with a declaration file (validators.d.ts): on a
 * large spec its checks are most of the package, and TypeScript would
 * otherwise parse and analyse every line of them.
 */
import { Kind } from "../../structure-kind.js";
import type { WriterFunction } from "../../writer.js";
import { append } from "../../append.js";
import type { Statement } from "../../print.js";
import { httpResult, schemasOf } from "../../ir/results.js";
import type { IrDocument, IrObjectLikeSchema, IrOperation, IrSchema, IrSubscriptionKind } from "../../ir/types.js";
import { comment } from "../escape.js";
import { ValidatorCompiler, type CompileProblem, type CompilerOptions } from "./compile.js";
import { IntegerWalkers } from "./integers.js";
import { WIRE_FORM_HELPERS, wireLeaf } from "./wire-forms.js";
import { webhookValidator } from "../webhooks.js";
import { decodedType, exportDts, exportJs, internalsDts, type ValidatorExport } from "./exports.js";
import { numberedTypes, resultKind } from "../types/numbered.js";

/** The runtime function that makes a walker a descriptor's codec (numbers.ts, exact.ts, wire-forms.ts). */
type Codec = "decoder" | "exactDecoder" | "encoder" | "jsonRpcEncoder" | "normalizer";

/** The schema a call's params object must match (path/query/header params and `body`, or the JSON-RPC params). */
function paramsSchema(op: IrOperation): IrSchema {
  if (op.protocol === "json-rpc" && op.transport.form === "one-object") return op.params[0]!.schema;
  const list = op.protocol === "http" ? [...op.parameters.map((p) => ({ name: p.key, schema: p.schema, required: p.required })), ...(op.requestBody ? [{ name: "body", schema: op.requestBody.content[0]?.schema ?? { kind: "boolean" as const, value: true, pointer: op.requestBody.pointer }, required: op.requestBody.required }] : [])] : op.params.map((p) => ({ name: p.name, schema: p.schema, required: p.required }));
  const s: IrObjectLikeSchema = { kind: "schema", pointer: op.pointer, types: ["object"], properties: list, required: list.filter((p) => p.required).map((p) => p.name) };
  return s;
}

/** The schema of a successful response body / JSON-RPC result, if the spec gives one that describes the value returned (not bytes, not a text's content). */
function resultSchema(ir: IrDocument, op: IrOperation): IrSchema | undefined {
  if (op.protocol === "json-rpc") return op.result?.schema;
  const bodies = httpResult(op, schemasOf(ir)).schemas;
  if (bodies.length === 0) return undefined;
  return bodies.length === 1 ? bodies[0] : { kind: "schema", pointer: op.pointer, anyOf: bodies };
}

export interface ValidatorModule {
  /** validators.js: the checks and the exported validators, as JavaScript. */
  statements: Statement[];
  /** validators.d.ts: what TypeScript sees of validators.js (the exports, with their docs). */
  declarations: Statement[];
  problems: CompileProblem[];
  /** Per operation: check function names for params and result, for the client's descriptors. */
  checks: Map<IrOperation, { params: string; result?: string }>;
  /** Per operation: integer walkers of params and result, when they hold string-encoded integers, and the normaliser of a result that holds wire forms. */
  walkers: Map<IrOperation, { params?: string; result?: string; forms?: string }>;
  /** Whether a schema holds a string-encoded integer (the number policy applies to its values). */
  hasIntegers(schema: IrSchema): boolean;
  /** Whether a schema holds a JSON-number integer that may pass 2^53 (format int64): a body of it is written with `exactBody`. */
  hasNumbers(schema: IrSchema): boolean;
  /** Per operation whose params or result hold such integers: which (their docs say how they are read and sent). */
  jsonIntegers: Map<IrOperation, { params: boolean; result: boolean }>;
  /** Per subscription kind: the decoder of its payload and the encoder of its params, when they hold integers. */
  subscriptionCodecs: Map<IrSubscriptionKind, { params?: string; result?: string }>;
  /** Per subscription kind: the check of its payload (what `validateResponse` checks notifications against). */
  subscriptionChecks: Map<IrSubscriptionKind, string>;
  /** What the module index re-exports. */
  publicNames: string[];
}

/** Namespace of the client module's types (operation params and result aliases) in validators.d.ts: imported type-only, so importing the validators loads no client code. */
const CLIENT_NS = "C";

export function emitValidators(ir: IrDocument, options: CompilerOptions & { clientTypes?: boolean } = {}): ValidatorModule {
  const { clientTypes = false, ...compilerOptions } = options;
  const compiler = new ValidatorCompiler(ir.schemas, compilerOptions);
  const integers = new IntegerWalkers(ir.schemas, compiler);
  // the walkers that convert what servers send in another form (x-avaspec-wire-form) to the documented one
  const forms = new IntegerWalkers(ir.schemas, compiler, { prefix: "w$", leaf: wireLeaf });
  const exports: ValidatorExport[] = [];
  let usesTypes = false;
  const typeOf = (name: string) => {
    usesTypes = true;
    return `T.${name}`;
  };
  // what a descriptor names: a walker with the leaf of one direction (`Integers`), one constant per walker and direction
  const codecs = new Map<string, { name: string; walker: string; fn: Codec }>();
  const codec = (walker: string, fn: Codec) => {
    const name = `${fn === "decoder" || fn === "exactDecoder" ? "dec" : fn === "encoder" ? "enc" : fn === "jsonRpcEncoder" ? "rpcEnc" : "norm"}${walker.slice(1)}`;
    codecs.set(name, { name, walker, fn });
    return name;
  };
  // how each named type follows the number policy, so `validateX(v, { numbers })` is typed `T.X<N>` (types/numbered.ts)
  const numbered = numberedTypes(ir.schemas);
  // a result with JSON-number integers (format int64) is read with the text, so no digit beyond 2^53 is lost (runtime/values/exact.ts)
  const reading = (s: IrSchema): Codec => (integers.hasNumbers(s) ? "exactDecoder" : "decoder");
  // JSON-RPC envelopes are written with JSON.stringify: params with such integers refuse a bigint beyond 2^53
  const writing = (s: IrSchema, rpc: boolean): Codec => (rpc && integers.hasNumbers(s) ? "jsonRpcEncoder" : "encoder");
  for (const s of ir.schemas) {
    const check = compiler.namedCheck(s.key);
    const type = typeOf(s.name);
    const what = `a \`${comment(s.name)}\``;
    const walker = integers.namedWalker(s.key);
    const wire = forms.namedWalker(s.key);
    const kind = walker ? numbered.get(s.key) : undefined;
    exports.push({ kind: "validate", name: s.names.validate, check, type, what, response: true, ...(walker ? { walker } : {}), ...(wire ? { forms: wire } : {}), ...(kind ? { numbered: kind } : {}) });
    exports.push({ kind: "standard", name: s.names.standard, check, type, what, ...(wire ? { documented: codec(wire, "normalizer") } : {}) });
    exports.push({ kind: "guard", name: s.names.guard, check, type, what: `\`${comment(s.name)}\`` });
  }
  const checks = new Map<IrOperation, { params: string; result?: string }>();
  const jsonIntegers = new Map<IrOperation, { params: boolean; result: boolean }>();
  const walkers = new Map<IrOperation, { params?: string; result?: string; forms?: string }>();
  let usesUnwrapped = false;
  let usesClientTypes = false;
  const schemaTypes = new Set(ir.schemas.map((s) => s.name));
  const schemaValidators = new Set(ir.schemas.map((s) => s.names.validate));
  // what an operation validator's value is: the client module's params / result type (unknown without a client module)
  const opType = (name: string) => {
    if (schemaTypes.has(name)) return typeOf(name);
    if (!clientTypes) return "unknown";
    usesClientTypes = true;
    return `${CLIENT_NS}.${name}`;
  };
  for (const op of ir.operations) {
    const params = compiler.check(paramsSchema(op));
    const result = resultSchema(ir, op);
    const resultCheck = result ? compiler.check(result) : undefined;
    checks.set(op, { params, ...(resultCheck ? { result: resultCheck } : {}) });
    const paramWalker = integers.walker(paramsSchema(op));
    const resultWalker = result ? integers.walker(result) : undefined;
    const json = { params: integers.hasNumbers(paramsSchema(op)), result: result !== undefined && integers.hasNumbers(result) };
    if (json.params || json.result) jsonIntegers.set(op, json);
    const resultForms = result ? forms.walker(result) : undefined;
    if (paramWalker || resultWalker || resultForms) walkers.set(op, { ...(paramWalker ? { params: codec(paramWalker, writing(paramsSchema(op), op.protocol === "json-rpc")) } : {}), ...(resultWalker ? { result: codec(resultWalker, reading(result!)) } : {}), ...(resultForms ? { forms: codec(resultForms, "normalizer") } : {}) });
    const label = comment([...op.group, op.names.method].join("."));
    exports.push({ kind: "validate", name: op.names.validateParams, check: params, type: opType(op.names.params), what: `the params of \`${label}\`` });
    const wrappedIn = op.protocol === "json-rpc" ? op.result?.wire?.property : undefined;
    if (wrappedIn !== undefined) usesUnwrapped = true;
    // a response that is one named schema may share that schema's validator (the naming pass gave it its name)
    if (resultCheck && !schemaValidators.has(op.names.validateResult)) {
      const what = `the result of \`${label}\`${wrappedIn === undefined ? "" : ` (also as servers may send it, wrapped as \`{ ${comment(JSON.stringify(wrappedIn))}: … }\`: the value is the unwrapped result)`}`;
      const kind = resultWalker && clientTypes ? resultKind(ir, op) : undefined;
      exports.push({ kind: "validate", name: op.names.validateResult, check: resultCheck, type: opType(op.names.response), what, response: true, ...(wrappedIn !== undefined ? { wrappedIn } : {}), ...(resultWalker ? { walker: resultWalker } : {}), ...(resultForms ? { forms: resultForms } : {}), ...(kind ? { numbered: kind } : {}) });
    }
  }
  const hooks = webhookValidator(ir, (s) => compiler.check(s), typeOf);
  const subscriptionCodecs = new Map<IrSubscriptionKind, { params?: string; result?: string }>();
  const subscriptionChecks = new Map<IrSubscriptionKind, string>();
  for (const socket of ir.webSockets ?? []) {
    for (const kind of socket.subscriptions?.kinds ?? []) {
      subscriptionChecks.set(kind, compiler.check(kind.result));
      const paramsObject: IrObjectLikeSchema = { kind: "schema", pointer: kind.pointer, types: ["object"], properties: kind.params.map((p) => ({ name: p.name, schema: p.schema, required: p.required })), required: kind.params.filter((p) => p.required).map((p) => p.name) };
      const paramWalker = integers.walker(paramsObject);
      const resultWalker = integers.walker(kind.result);
      if (paramWalker || resultWalker) subscriptionCodecs.set(kind, { ...(paramWalker ? { params: codec(paramWalker, writing(paramsObject, true)) } : {}), ...(resultWalker ? { result: codec(resultWalker, reading(kind.result)) } : {}) });
    }
  }
  const usesWalkers = exports.some((e) => e.kind === "validate" && e.walker !== undefined);
  const codecFns = [...new Set([...codecs.values()].map((c) => c.fn))].sort();
  const fromValidate = new Set(["isObject", "hasOwn"]);
  const walkerHelpers = [...integers.helpers, ...forms.helpers];
  const helpers = [...new Set([...[...compiler.helpers].filter((h) => !WIRE_FORM_HELPERS.has(h)), ...walkerHelpers.filter((h) => fromValidate.has(h))])].sort();
  // Leaf and Walk are types: JavaScript imports only values
  const integerHelpers = [...new Set(walkerHelpers)].filter((h) => !fromValidate.has(h) && h !== "Leaf" && h !== "Walk").sort();
  const EXACT = new Set(["numberLeaf", "exactDecoder", "jsonRpcEncoder"]);
  const exactImports = [...integerHelpers, ...codecFns].filter((f) => EXACT.has(f)).sort();
  const numbersImports = [...integerHelpers.filter((h) => !EXACT.has(h)), ...codecFns.filter((f) => f !== "normalizer" && !EXACT.has(f)), ...(usesWalkers ? ["validated"] : [])];
  const formsImports = [...new Set([...[...compiler.helpers].filter((h) => WIRE_FORM_HELPERS.has(h)), ...(codecFns.includes("normalizer") ? ["normalizer"] : []), ...(exports.some((e) => e.kind === "validate" && e.forms !== undefined && e.walker === undefined) ? ["normalized"] : [])])].sort();
  const usesRun = hooks !== undefined || exports.some((e) => e.kind === "validate" && e.walker === undefined);
  const validateImports = [...helpers, ...(exports.some((e) => e.kind === "guard") ? ["is"] : []), ...(usesRun ? ["run"] : []), ...(exports.some((e) => e.kind === "standard") ? ["standard"] : []), ...(usesUnwrapped ? ["unwrapped"] : [])];
  const statements: Statement[] = [];
  if (validateImports.length > 0) statements.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "../runtime/values/validate.js", namedImports: validateImports });
  if (numbersImports.length > 0) statements.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "../runtime/values/numbers.js", namedImports: numbersImports });
  if (exactImports.length > 0) statements.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "../runtime/values/exact.js", namedImports: exactImports });
  if (formsImports.length > 0) statements.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "../runtime/values/wire-forms.js", namedImports: formsImports });
  if (compiler.formatsUsed.size > 0) statements.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "../runtime/values/formats.js", namedImports: [...compiler.formatsUsed].sort() });
  const codecDecls: WriterFunction[] = [...codecs.values()].map(({ name, walker, fn }) => (w) => w.writeLine(`const ${name} = /*#__PURE__*/ ${fn}(${walker});`));
  append(statements, compiler.decls, integers.decls, forms.decls, codecDecls, exports.map(exportJs), hooks ? [hooks.js] : []);
  // the client's descriptors use the checks directly; the module index does not re-export them
  const codecNames = new Set(codecs.keys());
  const internal = [...new Set([...[...checks.values(), ...walkers.values(), ...subscriptionCodecs.values()].flatMap((c: { params?: string; result?: string; forms?: string }) => [c.params, c.result, c.forms].filter((n) => n !== undefined)), ...subscriptionChecks.values()])].sort();
  if (internal.length > 0) statements.push({ kind: Kind.ExportDeclaration, namedExports: internal });

  const declarations: Statement[] = [];
  const typeImports = [...(internal.some((n) => !codecNames.has(n)) ? ["Check"] : []), ...(exports.some((e) => e.kind === "standard") ? ["StandardSchemaV1"] : []), ...(hooks !== undefined || exports.some((e) => e.kind === "validate") ? ["ValidationResult"] : [])];
  if (typeImports.length > 0) declarations.push({ kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: "../runtime/values/validate.js", namedImports: typeImports });
  const codecType = (name: string) => ({ decoder: "Decoder", exactDecoder: "Decoder", encoder: "Encoder", jsonRpcEncoder: "Encoder", normalizer: "Normalizer" })[codecs.get(name)!.fn] as "Decoder" | "Encoder" | "Normalizer";
  const codecTypes = new Set(internal.filter((n) => codecNames.has(n)).map(codecType));
  const policyTypes = exports.flatMap((e) => (e.kind === "validate" && e.walker !== undefined ? [decodedType(e).startsWith("Decoded<") ? "Decoded" : decodedType(e).startsWith("Numbered<") ? "Numbered" : ""] : []));
  const numbersTypes = [...new Set([...policyTypes.filter(Boolean), ...[...codecTypes].filter((t) => t !== "Normalizer"), ...(usesWalkers ? ["Numbers"] : [])])].sort();
  if (numbersTypes.length > 0) declarations.push({ kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: "../runtime/values/numbers.js", namedImports: numbersTypes });
  if (codecTypes.has("Normalizer")) declarations.push({ kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: "../runtime/values/wire-forms.js", namedImports: ["Normalizer"] });
  if (usesTypes) declarations.push({ kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
  if (usesClientTypes) declarations.push({ kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: CLIENT_NS, moduleSpecifier: "./client.js" });
  for (const e of exports) declarations.push(exportDts(e));
  if (hooks) declarations.push(hooks.dts);
  if (internal.length > 0) declarations.push(internalsDts(internal.map((name) => ({ name, type: codecNames.has(name) ? codecType(name) : "Check" }))));
  const publicNames = [...new Set([...ir.schemas.flatMap((s) => [s.names.validate, s.names.standard, s.names.guard]), ...ir.operations.flatMap((op) => [op.names.validateParams, ...(checks.get(op)?.result ? [op.names.validateResult] : [])]), ...(hooks ? [ir.names.webhooks!.validate] : [])])];
  return { statements, declarations, problems: compiler.problems, checks, walkers, hasIntegers: (schema) => integers.has(schema), hasNumbers: (schema) => integers.hasNumbers(schema), jsonIntegers, subscriptionCodecs, subscriptionChecks, publicNames };
}
