/**
 * The members whose declaration has a range (`x-avaspec-limits` `range`)
 * get `iterate` over any range (runtime/ranges/ranged.ts): a JSON-RPC
 * method through `rangedCall`, a list operation through `rangedPaged`. The
 * declared `head` (a method or operation id of the same document, checked by
 * the validator) is passed as its descriptor, for an absent or `latest` end.
 */
import type { IrOperation } from "../../ir/types.js";
import { identifier } from "../escape.js";

/** The operations with a range, and the operation their declared head names (undefined: none). */
export type Ranged = ReadonlyMap<IrOperation, IrOperation | undefined>;

/** The ranged operations of a module: a JSON-RPC method, or an HTTP list operation (one that pages). */
export function rangedOperations(ops: readonly IrOperation[], paged: (op: IrOperation) => boolean): Ranged {
  const ranged = new Map<IrOperation, IrOperation | undefined>();
  for (const op of ops) {
    const range = op.limits?.range;
    if (!range || (op.protocol === "http" && !paged(op))) continue;
    const head = range.head === undefined ? undefined : ops.find((o) => o.file === op.file && o.id === range.head);
    ranged.set(op, head);
  }
  return ranged;
}

/** The arguments after the descriptor: the head's descriptor, when there is one. */
export function headArgument(head: IrOperation | undefined): string {
  return head ? `, ${identifier(head.names.descriptor)}` : "";
}

/** A JSON-RPC member's type: `RangedMethod<P, R>` (the call, and `iterate`). */
export function rangedMethodType(params: string, result: string): string {
  return `RangedMethod<${params}, ${result}>`;
}
