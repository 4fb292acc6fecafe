/**
 * What the pieces of the client emitter share: the statements being written,
 * the facts about the module every piece asks (which operations page, decode
 * integers, have a WebSocket form), and small writers of params types.
 */
import type { StatementStructures } from "ts-morph";
import type { TextWriter, WriterFunction } from "../../writer.js";
import type { IrDocument, IrOperation, IrRpcError, IrSchema, IrWebSocket } from "../../ir/types.js";
import { comment } from "../escape.js";
import type { CodeRef } from "../value.js";
import { jsDoc, printType, toTypeNode, typeText, writeMember, type Marker, type Member, type TypeContext, type TypeNode } from "../types/type-node.js";
import { numberedName, type NumberedKind } from "../types/numbered.js";
import type { Paging } from "./groups.js";
import type { Ranged } from "./ranges.js";

/** The import name of the types module inside client.ts. */
export const TYPES_NS = "T";

export interface Emitted {
  statements: (StatementStructures | WriterFunction)[];
  usesTypes: boolean;
  /** The runtime marker types the module's own type text names (`IntegerString`, `HexEncoded`). */
  markers: Set<Marker>;
  usesEncodable: boolean;
}

export interface ProviderNames {
  /** The viem-style RpcSchema type (`CChainRpcSchema`). */
  schema: string;
  /** The descriptors it serves (`cChainProviderMethods`). */
  methods: string;
  endpoint: string;
}

export interface ClientContext {
  ir: IrDocument;
  out: Emitted;
  /** Results are response shapes, params request shapes (readOnly members out, writeOnly in). */
  ctx: TypeContext;
  requestCtx: TypeContext;
  /** Response shapes as the client returns them, under its number policy `N` (types/numbered.ts). */
  policyCtx: TypeContext;
  /** How each operation's result type follows the policy: `X<N>`, `Numbered<X, N>`, or (absent) not at all. */
  resultKinds: ReadonlyMap<IrOperation, NumberedKind>;
  schemaNames: ReadonlySet<string>;
  /** List operations, once: the interface, the factory and the functions need them. */
  paging: Paging;
  /** Operations with a declared range, and their head (ranges.ts): they get `iterate` over any range. */
  ranged: Ranged;
  hasHttp: boolean;
  hasRpc: boolean;
  /** Results hold string-encoded integers somewhere: the client is typed by the number policy. */
  numbered: boolean;
  defaultNumbers: "bigint" | "string";
  /** Operations whose results hold string-encoded integers. */
  decodes: ReadonlySet<IrOperation>;
  /** Operations whose params or results hold JSON integers that may pass 2^53 (format int64), and which. */
  jsonIntegers: ReadonlyMap<IrOperation, { params: boolean; result: boolean }>;
  /** EIP-1193 providers by group path (`cChain`). */
  providers: ReadonlyMap<string, ProviderNames>;
  /** The WebSocket forms of JSON-RPC endpoints the module has operations of. */
  sockets: readonly IrWebSocket[];
  /** The standard JSON-RPC errors, documented once on the client interface. */
  standard: readonly IrRpcError[];
}

export function resultType(c: ClientContext, op: IrOperation): string {
  if (c.schemaNames.has(op.names.response)) {
    c.out.usesTypes = true;
    return `${TYPES_NS}.${op.names.response}`;
  }
  return op.names.response;
}

/**
 * The number policy: a result that holds integers is typed by the client's
 * `numbers` (`type` names the result: `T.Block` or the client's own alias).
 */
export function decoded(c: ClientContext, op: IrOperation, type: string): string {
  const kind = c.resultKinds.get(op);
  if (kind === "leaf") c.out.markers.add("Numbered");
  return numberedName(type, kind);
}

/** A result type written from its schema, under the policy where the operation's result follows it. */
export function policyType(c: ClientContext, op: IrOperation, schema: IrSchema): string {
  return typeText(toTypeNode(schema, c.resultKinds.has(op) ? c.policyCtx : c.ctx));
}

/** Whether an operation can be called without params. */
export function paramsOptional(op: IrOperation): boolean {
  return op.protocol === "http" ? !op.parameters.some((p) => p.required) && !op.requestBody?.required : !op.params.some((p) => p.required);
}

export function docsOf(description: string | undefined, deprecated: boolean, schema: IrSchema): string | undefined {
  const own = [description ? comment(description) : undefined, deprecated ? "@deprecated" : undefined].filter(Boolean).join("\n");
  const fromSchema = jsDoc(schema, "");
  return [own, fromSchema].filter((x) => x).join("\n") || undefined;
}

export interface IntegerWalkerRefs {
  paramIntegers: CodeRef | undefined;
  resultIntegers: CodeRef | undefined;
  /** The result's wire-form normaliser (`x-avaspec-wire-form`). */
  resultForms: CodeRef | undefined;
}

export const ENCODABLE_NOTE = "\n\nIntegers the spec sends as strings may be given as a bigint, a number or a string; they are sent in the spec's wire form (a fraction, a negative value for an unsigned integer or one out of range is a ValidationError).";

/** The note of params that hold JSON integers that may pass 2^53 (format int64). */
export const JSON_INTEGERS_NOTE = "\n\nIntegers the spec marks may be given as a bigint or a number (a string too where the spec sends them as strings); they are sent in the spec's wire form, a JSON integer beyond 2^53 with all its digits (a fraction, a number beyond 2^53, which may have lost digits already: pass a bigint, a negative value for an unsigned integer or one out of range is a ValidationError).";

/** A params type: `Encodable<…>` when its integers may be given as bigints and numbers. */
export function encodableType(out: Emitted, integers: IntegerWalkerRefs, type: TypeNode | WriterFunction): TypeNode | WriterFunction {
  if (!integers.paramIntegers) return type;
  out.usesEncodable = true;
  return (w: TextWriter) => {
    w.write("Encodable<");
    if (typeof type === "function") type(w);
    else printType(w, type);
    w.write(">");
  };
}

export function writeObjectType(w: TextWriter, members: Member[]): void {
  if (members.length === 0) {
    w.write("Record<string, never>");
    return;
  }
  w.write("{").newLine();
  w.indent(() => members.forEach((m) => writeMember(w, m)));
  w.write("}");
}
