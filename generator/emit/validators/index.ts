/**
 * Target `validators`: for every named schema and every operation a
 * `validateX(value)` returning `{ ok, value } | { ok, issues }` and a Standard
 * Schema v1 object. Checks are plain functions; only the schemas an exported
 * validator reaches end up in a bundle that imports it.
 */
import { StructureKind } from "ts-morph";
import type { WriterFunction } from "../../writer.js";
import { append } from "../../append.js";
import type { Statement } from "../../print.js";
import { httpResult, schemasOf } from "../../ir/results.js";
import type { IrDocument, IrObjectLikeSchema, IrOperation, IrSchema, IrSubscriptionKind } from "../../ir/types.js";
import { comment, identifier, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { ValidatorCompiler, type CompileProblem, type CompilerOptions } from "./compile.js";
import { IntegerWalkers } from "./integers.js";
import { webhookValidator } from "../webhooks.js";

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
  statements: Statement[];
  problems: CompileProblem[];
  /** Per operation: check function names for params and result, for the client's descriptors. */
  checks: Map<IrOperation, { params: string; result?: string }>;
  /** Per operation: integer walkers of params and result, when they hold string-encoded integers. */
  walkers: Map<IrOperation, { params?: string; result?: string }>;
  /** Whether a schema holds a string-encoded integer (the number policy applies to its values). */
  hasIntegers(schema: IrSchema): boolean;
  /** Per subscription kind: the decoder of its payload and the encoder of its params, when they hold integers. */
  subscriptionCodecs: Map<IrSubscriptionKind, { params?: string; result?: string }>;
  /** Per subscription kind: the check of its payload (what `validateResponse` checks notifications against). */
  subscriptionChecks: Map<IrSubscriptionKind, string>;
  /** What the module index re-exports. */
  publicNames: string[];
}

/** Namespace of the client module's types (operation params and result aliases) in validators.ts: imported type-only, so importing the validators loads no client code. */
const CLIENT_NS = "C";

export function emitValidators(ir: IrDocument, options: CompilerOptions & { clientTypes?: boolean } = {}): ValidatorModule {
  const { clientTypes = false, ...compilerOptions } = options;
  const compiler = new ValidatorCompiler(ir.schemas, compilerOptions);
  const integers = new IntegerWalkers(ir.schemas, compiler);
  const exports: WriterFunction[] = [];
  let usesTypes = false;
  const typeOf = (name: string) => {
    usesTypes = true;
    return `T.${name}`;
  };
  for (const s of ir.schemas) {
    const check = compiler.namedCheck(s.key);
    const type = typeOf(s.name);
    exports.push(exported(s.names.validate, s.names.standard, check, type, `a \`${comment(s.name)}\``, undefined, integers.namedWalker(s.key)));
    exports.push((w) => {
      w.blankLine();
      writeDocs(w, `Whether a value is a valid \`${comment(s.name)}\` (a type guard; no issues are collected).`);
      w.writeLine(`export function ${identifier(s.names.guard)}(value: unknown): value is ${type} {`);
      // through the runtime, so a value nested too deep to check answers false instead of overflowing the stack
      w.writeLine(`  return is(${check}, value);`);
      w.writeLine("}");
    });
  }
  const checks = new Map<IrOperation, { params: string; result?: string }>();
  const walkers = new Map<IrOperation, { params?: string; result?: string }>();
  // what a descriptor names: a walker with the leaf of one direction (`Integers`), one constant per walker and direction
  const codecs = new Map<string, { name: string; walker: string; fn: "decoder" | "encoder" }>();
  const codec = (walker: string, fn: "decoder" | "encoder") => {
    const name = `${fn === "decoder" ? "dec" : "enc"}${walker.slice(1)}`;
    codecs.set(name, { name, walker, fn });
    return name;
  };
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
    if (paramWalker || resultWalker) walkers.set(op, { ...(paramWalker ? { params: codec(paramWalker, "encoder") } : {}), ...(resultWalker ? { result: codec(resultWalker, "decoder") } : {}) });
    const label = comment([...op.group, op.names.method].join("."));
    exports.push(exported(op.names.validateParams, undefined, params, opType(op.names.params), `the params of \`${label}\``));
    const wrappedIn = op.protocol === "json-rpc" ? op.result?.wire?.property : undefined;
    if (wrappedIn !== undefined) usesUnwrapped = true;
    // a response that is one named schema may share that schema's validator (the naming pass gave it its name)
    if (resultCheck && !schemaValidators.has(op.names.validateResult)) exports.push(exported(op.names.validateResult, undefined, resultCheck, opType(op.names.response), `the result of \`${label}\`${wrappedIn === undefined ? "" : ` (also as servers may send it, wrapped as \`{ ${comment(JSON.stringify(wrappedIn))}: … }\`: the value is the unwrapped result)`}`, wrappedIn, resultWalker));
  }
  const hooks = webhookValidator(ir, (s) => compiler.check(s), typeOf);
  if (hooks) exports.push(hooks);
  const subscriptionCodecs = new Map<IrSubscriptionKind, { params?: string; result?: string }>();
  const subscriptionChecks = new Map<IrSubscriptionKind, string>();
  for (const socket of ir.webSockets ?? []) {
    for (const kind of socket.subscriptions?.kinds ?? []) {
      subscriptionChecks.set(kind, compiler.check(kind.result));
      const paramsObject: IrObjectLikeSchema = { kind: "schema", pointer: kind.pointer, types: ["object"], properties: kind.params.map((p) => ({ name: p.name, schema: p.schema, required: p.required })), required: kind.params.filter((p) => p.required).map((p) => p.name) };
      const paramWalker = integers.walker(paramsObject);
      const resultWalker = integers.walker(kind.result);
      if (paramWalker || resultWalker) subscriptionCodecs.set(kind, { ...(paramWalker ? { params: codec(paramWalker, "encoder") } : {}), ...(resultWalker ? { result: codec(resultWalker, "decoder") } : {}) });
    }
  }
  const codecFns = [...new Set([...codecs.values()].map((c) => c.fn))].sort();
  const fromValidate = new Set(["isObject", "hasOwn"]);
  const helpers = [...new Set([...compiler.helpers, ...[...integers.helpers].filter((h) => fromValidate.has(h))])].sort();
  const integerHelpers = [...integers.helpers].filter((h) => !fromValidate.has(h) && h !== "Leaf" && h !== "Walk").sort();
  const integerTypes = [...integers.helpers].filter((h) => h === "Leaf" || h === "Walk").sort();
  const validatesIntegers = integers.decls.length > 0;
  const statements: Statement[] = [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: "../runtime/validate.js",
      namedImports: [...helpers, ...(ir.schemas.length > 0 ? ["is"] : []), "run", "standard", ...(usesUnwrapped ? ["unwrapped"] : []), { name: "Check", isTypeOnly: true }, { name: "StandardSchemaV1", isTypeOnly: true }, { name: "ValidationResult", isTypeOnly: true }],
    },
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: "../runtime/errors.js", namedImports: [{ name: "ValidationIssue", isTypeOnly: true }] },
  ];
  if (validatesIntegers) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: "../runtime/numbers.js",
      namedImports: [...integerHelpers, ...codecFns, "validated", ...integerTypes.map((name) => ({ name, isTypeOnly: true })), { name: "Decoded", isTypeOnly: true }, ...[...new Set([...codecs.values()].map((c) => (c.fn === "decoder" ? "Decoder" : "Encoder")))].sort().map((name) => ({ name, isTypeOnly: true })), { name: "Numbers", isTypeOnly: true }],
    });
  }
  if (compiler.formatsUsed.size > 0) statements.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: "../runtime/formats.js", namedImports: [...compiler.formatsUsed].sort() });
  if (usesTypes) statements.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" });
  if (usesClientTypes) statements.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, namespaceImport: CLIENT_NS, moduleSpecifier: "./client.js" });
  const codecDecls: WriterFunction[] = [...codecs.values()].map(({ name, walker, fn }) => (w) => w.writeLine(`const ${name}: ${fn === "decoder" ? "Decoder" : "Encoder"} = /*#__PURE__*/ ${fn}(${walker});`));
  append(statements, compiler.decls, integers.decls, codecDecls, exports);
  // the client's descriptors use the checks directly; the module index does not re-export them
  const internal = [...new Set([...[...checks.values(), ...walkers.values(), ...subscriptionCodecs.values()].flatMap((c) => [...(c.params ? [c.params] : []), ...(c.result ? [c.result] : [])]), ...subscriptionChecks.values()])].sort();
  if (internal.length > 0) statements.push({ kind: StructureKind.ExportDeclaration, namedExports: internal });
  const publicNames = [...new Set([...ir.schemas.flatMap((s) => [s.names.validate, s.names.standard, s.names.guard]), ...ir.operations.flatMap((op) => [op.names.validateParams, ...(checks.get(op)?.result ? [op.names.validateResult] : [])]), ...(hooks ? [ir.names.webhooks!.validate] : [])])];
  return { statements, problems: compiler.problems, checks, walkers, hasIntegers: (schema) => integers.has(schema), subscriptionCodecs, subscriptionChecks, publicNames };
}

function exported(fnName: string, standardName: string | undefined, check: string, type: string, what: string, wrappedIn?: string, walker?: string): WriterFunction {
  return (w) => {
    const value = wrappedIn === undefined ? "value" : `unwrapped(value, ${stringLiteral(wrappedIn)})`;
    if (walker === undefined) {
      writeDocs(w, `Validates ${what}: every issue with its JSON-pointer path, keyword and expected value.`);
      w.writeLine(`export function ${identifier(fnName)}(value: unknown): ValidationResult<${type}> {`);
      w.writeLine(`  return run<${type}>(${check}, ${value});`);
    } else {
      writeDocs(w, `Validates ${what} in its wire form: every issue with its JSON-pointer path, keyword and expected value. With \`numbers: "bigint"\`, the valid value comes back with its string-encoded integers as bigints (a copy; the input is left as it is).`);
      w.writeLine(`export function ${identifier(fnName)}<N extends Numbers = "string">(value: unknown, options?: { readonly numbers?: N }): ValidationResult<Decoded<${type}, N>> {`);
      w.writeLine(`  return validated<Decoded<${type}, N>>(${check}, ${walker}, ${value}, options?.numbers);`);
    }
    w.writeLine("}");
    if (standardName) {
      w.blankLine();
      writeDocs(w, `${what.charAt(0).toUpperCase()}${what.slice(1)} as a Standard Schema v1 validator.`);
      w.writeLine(`export const ${identifier(standardName)}: StandardSchemaV1<unknown, ${type}> = /*#__PURE__*/ standard<${type}>(${check});`);
    }
  };
}
