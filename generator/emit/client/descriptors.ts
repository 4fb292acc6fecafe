/**
 * Per operation: its params and result types and its descriptor, the plain
 * data the runtime sends it by (JSON-RPC descriptors in client.ts, HTTP ones
 * in operations.js).
 */
import { rpcFields } from "../../ir/resolve.js";
import { isStreamed } from "../../ir/streams.js";
import type { IrDocument, IrHttpOperation, IrOperation, IrParameter, IrRpcOperation, IrRpcParam } from "../../ir/types.js";
import { TextWriter } from "../../writer.js";
import { comment, identifier, propertyKey } from "../escape.js";
import { constValue, typeAlias } from "../statements.js";
import { CodeRef, type CodeCall } from "../value.js";
import { printType, toTypeNode, UNKNOWN, type Member, type TypeContext, type TypeNode } from "../types/type-node.js";
import { NUMBERS_DECLARATION } from "../types/numbered.js";
import { docsOf, ENCODABLE_NOTE, encodableType, JSON_INTEGERS_NOTE, paramsOptional, TYPES_NS, writeObjectType, type Emitted, type IntegerWalkerRefs } from "./context.js";
import { deprecationMessage } from "./docs.js";
import { httpDescriptor, httpResultType, httpTarget } from "./http-wire.js";
import type { OperationsModule } from "./operations.js";
import { DeprecatedValueWatches } from "./deprecated-values.js";
import { operationLimitsValue } from "./limits.js";
import type { ValidatorModule } from "../validators/index.js";
import { resultType, type ClientContext } from "./context.js";

export interface Descriptors {
  /** The checks and codecs of validators.js that client.ts names. */
  used: Set<string>;
  /** Descriptor and result check, for the result pairs. */
  results: [CodeRef, CodeRef][];
  watches: DeprecatedValueWatches;
  /** Each operation's params and result types as text, by which shared-methods.ts finds methods declared alike. */
  shapes: Map<IrOperation, OperationShape>;
}

/** The text after `=` of an operation's params type, and its result type (`T.Name` for a named schema). */
export interface OperationShape {
  params: string;
  result: string;
}

function typeTextOf(type: TypeNode | ((w: TextWriter) => void)): string {
  const w = new TextWriter();
  if (typeof type === "function") type(w);
  else printType(w, type);
  return w.toString();
}

/** Every operation's types and descriptor, in the order of the IR. */
export function emitOperations(c: ClientContext, validators: Pick<ValidatorModule, "checks" | "walkers" | "hasNumbers">, operations: OperationsModule): Descriptors {
  const { ir, out } = c;
  const byKey = new Map(ir.schemas.map((s) => [s.key, s]));
  const used = new Set<string>();
  // values the server no longer takes: their notices go before the first descriptor that names one
  const watches = new DeprecatedValueWatches(ir, (key) => byKey.get(key)?.schema);
  const noticesAt = out.statements.length;
  /** Runtime encoders the descriptors name (parameter styles, body encoders): imported by name. */
  const encoders = new Set<string>();
  const results: [CodeRef, CodeRef][] = [];
  const shapes = new Map<IrOperation, OperationShape>();
  for (const op of ir.operations) {
    const checks = validators.checks.get(op);
    // an operation without parameters needs no generated check: the runtime refuses params that are not an object
    const noParams = op.protocol === "http" ? op.parameters.length === 0 && !op.requestBody : op.params.length === 0;
    const check = checks && !noParams ? new CodeRef(checks.params) : undefined;
    // client.ts names the checks of its result pairs and JSON-RPC descriptors; operations.js those of the HTTP descriptors
    const named = op.protocol === "http" ? undefined : used;
    if (checks && check) named?.add(checks.params);
    if (checks?.result) {
      used.add(checks.result);
      results.push([new CodeRef(identifier(op.names.descriptor)), new CodeRef(checks.result)]);
    }
    const walk = validators.walkers.get(op);
    if (walk) [walk.params, walk.result, walk.forms].forEach((n) => n && named?.add(n));
    const integers = { paramIntegers: walk?.params ? new CodeRef(walk.params) : undefined, resultIntegers: walk?.result ? new CodeRef(walk.result) : undefined, resultForms: walk?.forms ? new CodeRef(walk.forms) : undefined };
    const optional = paramsOptional(op);
    const types = `<${identifier(op.names.params)}${optional ? " | undefined" : ""}, ${resultType(c, op)}>`;
    const values = watches.watch(op);
    // operations.d.ts names client.ts's types through its namespace import
    const declared = `<C.${identifier(op.names.params)}${optional ? " | undefined" : ""}, ${c.schemaNames.has(op.names.response) ? `${TYPES_NS}.` : "C."}${identifier(op.names.response)}>`;
    // a result alias of the client's own that holds integers takes the number policy (types/numbered.ts)
    const resultCtx = c.resultKinds.get(op) === "generic" && !c.schemaNames.has(op.names.response) ? c.policyCtx : c.ctx;
    // a JSON body that may hold integers beyond 2^53 is written with their digits (runtime/values/exact.ts)
    const body = op.protocol === "http" ? op.requestBody?.content[0] : undefined;
    const exactBody = body !== undefined && validators.hasNumbers(body.schema);
    const shape = op.protocol === "http" ? emitHttpOperation(ir, op, resultCtx, c.requestCtx, c.schemaNames, out, check, declared, encoders, integers, operations, values, exactBody, c.jsonIntegers.get(op)?.params) : emitRpcOperation(op, resultCtx, c.requestCtx, c.schemaNames, byKey, out, check, types, integers, values, c.jsonIntegers.get(op)?.params);
    shapes.set(op, shape);
  }
  out.statements.splice(noticesAt, 0, ...watches.statements());
  for (const c of watches.httpConstants()) operations.addConstant(c);
  return { used, results, watches, shapes };
}

export function emitHttpOperation(ir: IrDocument, op: IrHttpOperation, ctx: TypeContext, requestCtx: TypeContext, schemaNames: ReadonlySet<string>, out: Emitted, check: CodeRef | undefined, types: string, encoders: Set<string>, integers: IntegerWalkerRefs, operations: OperationsModule, deprecatedValues: CodeCall | undefined, exactBody = false, jsonParams = false): OperationShape {
  const members: Member[] = op.parameters.map((p: IrParameter) => {
    const docs = docsOf(p.description, p.deprecated, p.schema);
    return { key: propertyKey(p.key), optional: !p.required, type: toTypeNode(p.schema, requestCtx), ...(docs ? { docs } : {}) };
  });
  const body = op.requestBody?.content[0];
  if (op.requestBody) {
    members.push({ key: "body", optional: !op.requestBody.required, type: body ? toTypeNode(body.schema, requestCtx) : UNKNOWN, docs: comment(op.requestBody.description ?? "The request body.") });
  }
  const params = encodableType(out, integers, (w) => writeObjectType(w, members));
  out.statements.push(typeAlias(op.names.params, `Parameters of \`${comment([...op.group, op.names.method].join("."))}\`.${integers.paramIntegers ? (exactBody || jsonParams ? JSON_INTEGERS_NOTE : ENCODABLE_NOTE) : ""}`, params));
  let result = `${TYPES_NS}.${op.names.response}`;
  if (!schemaNames.has(op.names.response)) {
    const { type, docs } = httpResultType(ir, op, ctx);
    out.statements.push(typeAlias(op.names.response, docs, type, ctx.numbers === undefined ? "" : NUMBERS_DECLARATION));
    result = typeTextOf(type);
  }
  const descriptor = httpDescriptor(ir, op, encoders, { idempotent: op.idempotent || undefined, deprecated: deprecationMessage(op), deprecatedValues, limits: operationLimitsValue(op.limits), check, ...integers }, exactBody);
  operations.add({ name: op.names.descriptor, docs: `Wire description of \`${comment(op.names.method)}\` (${descriptor.method} ${comment(httpTarget(op))}).`, type: `${isStreamed(op) ? "StreamOperation" : "HttpOperation"}${types}`, value: descriptor });
  return { params: typeTextOf(params), result };
}

export function emitRpcOperation(op: IrRpcOperation, ctx: TypeContext, requestCtx: TypeContext, schemaNames: ReadonlySet<string>, byKey: Map<string, IrDocument["schemas"][number]>, out: Emitted, check: CodeRef | undefined, types: string, integers: IntegerWalkerRefs, deprecatedValues: CodeCall | undefined, jsonParams = false): OperationShape {
  const docs = (integers.paramIntegers ? (text: string) => text + (jsonParams ? JSON_INTEGERS_NOTE : ENCODABLE_NOTE) : (text: string) => text)(`Params of \`${comment([...op.group, op.names.method].join("."))}\` (JSON-RPC \`${comment(op.transport.method)}\`, sent ${op.transport.form === "by-name" ? "by name" : op.transport.form === "by-position" ? "by position" : "as an array holding one object"}).`);
  let params: TypeNode | ((w: TextWriter) => void);
  if (op.transport.form === "one-object") params = encodableType(out, integers, toTypeNode(op.params[0]!.schema, requestCtx));
  else {
    const members: Member[] = op.params.map((p: IrRpcParam) => {
      const d = docsOf(p.description, p.deprecated, p.schema);
      return { key: propertyKey(p.name), optional: !p.required, type: toTypeNode(p.schema, requestCtx), ...(d ? { docs: d } : {}) };
    });
    params = encodableType(out, integers, (w) => writeObjectType(w, members));
  }
  out.statements.push(typeAlias(op.names.params, docs, params));
  const fields = rpcFields(op, (key) => byKey.get(key)?.schema).map((f) => ({ name: f.name, required: f.required || undefined }));
  let result = `${TYPES_NS}.${op.names.response}`;
  if (!schemaNames.has(op.names.response)) {
    const t: TypeNode = op.result ? toTypeNode(op.result.schema, ctx) : { k: "raw", text: "void" };
    out.statements.push(typeAlias(op.names.response, `Result of \`${comment(op.transport.method)}\`.${op.result?.description ? `\n\n${comment(op.result.description)}` : ""}`, t, ctx.numbers === undefined ? "" : NUMBERS_DECLARATION));
    result = typeTextOf(t);
  }
  const errors = [...new Set(op.errors.map((e) => e.className))].map((name) => new CodeRef(identifier(name)));
  const descriptor = { method: op.transport.method, endpoint: op.endpoint, form: op.transport.form, idempotent: op.idempotent || undefined, deprecated: deprecationMessage(op), deprecatedValues, limits: operationLimitsValue(op.limits), wrappedIn: op.result?.wire?.property, params: fields, check, ...integers, errors: errors.length > 0 ? errors : undefined };
  out.statements.push(constValue(op.names.descriptor, `Wire description of JSON-RPC \`${comment(op.transport.method)}\`.`, `RpcMethod${types}`, descriptor));
  return { params: typeTextOf(params), result };
}

