/**
 * Methods declared once where the API is shared. Two groups of one client
 * often serve the same methods: an OpenRPC document for one chain and
 * another for chains of the same kind (`cChain.eth` and `l1(…).eth` both
 * serve `eth_chainId`, `eth_getBalance`…), or two OpenAPI paths of one
 * operation. Where a method is the same in both — same name, params type,
 * result type and documentation but for where it goes on the wire — the
 * later group's interface takes it from the first by `Pick`, and the first
 * one's doc comment names both places.
 *
 * Only the interface's declarations are shared: each group keeps its own
 * params and result types (public names), descriptors and functions, since
 * each goes to its own endpoint.
 */
import type { IrOperation } from "../../ir/types.js";
import { comment, literal, stringLiteral } from "../escape.js";
import { toTypeNode, typeText } from "../types/type-node.js";
import { decoded, paramsOptional, type ClientContext } from "./context.js";
import type { OperationShape } from "./descriptors.js";
import { methodDocs, wireDocs } from "./docs.js";
import type { GroupNode } from "./groups.js";
import { itemType } from "./paging.js";

export interface SharedMethods {
  /** By group path (`l1.eth`): the groups it takes methods from, in the order they come first, each with the methods' names. */
  picks: Map<string, { from: string[]; names: string[] }[]>;
  /** Operations the interface does not declare in their own group: another group's declaration stands for them. */
  taken: Set<IrOperation>;
  /** The wire line of each declaration that stands for others too: its own place, then theirs. */
  wire: Map<IrOperation, string>;
}

interface Place {
  node: GroupNode;
  path: string[];
  /** The members on the way there, as a reader calls them: `l1(…)` for a group that is a function of its endpoint. */
  call: string[];
  /** Reached by indexed access from the client interface (no endpoint function on the way), so `Pick` can name it. */
  addressable: boolean;
}

/** Every group of the tree, in the order the interface writes them (a group before its subgroups). */
function places(node: GroupNode, path: string[] = [], call: string[] = [], addressable = true, into: Place[] = []): Place[] {
  into.push({ node, path, call, addressable });
  for (const [name, child] of node.children) {
    const endpoint = child.endpoint !== undefined;
    places(child, [...path, name], [...call, endpoint ? `${name}(…)` : name], addressable && !endpoint, into);
  }
  return into;
}

/**
 * What the interface would say about an operation, but for the wire line:
 * two operations with the same signature are one declaration. Types are
 * compared by their text (a params type's members with their docs), so
 * two types of different names and the same shape match.
 */
function signatureOf(c: ClientContext, op: IrOperation, shape: OperationShape): string {
  const paged = c.paging.get(op);
  const byParam = op.protocol === "json-rpc" ? op.resultByParam : undefined;
  return JSON.stringify([
    op.protocol,
    op.names.method,
    paramsOptional(op),
    shape.params,
    decoded(c, op, shape.result),
    paged ? itemType("R", paged) : null,
    c.ranged.has(op),
    byParam ? [byParam.param, byParam.variants.map((v) => [literal(v.value), typeText(toTypeNode(v.schema, c.ctx))])] : null,
    methodDocs(op, c.standard, c.ir.names.client, ""),
  ]);
}

export function sharedMethods(c: ClientContext, tree: GroupNode, shapes: ReadonlyMap<IrOperation, OperationShape>): SharedMethods {
  const all = places(tree);
  const signatures = new Map<IrOperation, string>();
  for (const { node } of all) for (const op of node.ops) signatures.set(op, signatureOf(c, op, shapes.get(op)!));
  // the declaration of each signature: the first operation of an addressable group that has it
  const first = new Map<string, { op: IrOperation; place: Place }>();
  for (const place of all) {
    if (!place.addressable) continue;
    for (const op of place.node.ops) if (!first.has(signatures.get(op)!)) first.set(signatures.get(op)!, { op, place });
  }
  const shared: SharedMethods = { picks: new Map(), taken: new Set(), wire: new Map() };
  const also = new Map<IrOperation, string[]>();
  for (const place of all) {
    if (place.path.length === 0) continue;
    const bySource = new Map<Place, string[]>();
    for (const op of place.node.ops) {
      const declared = first.get(signatures.get(op)!);
      if (!declared || declared.place === place) continue;
      bySource.set(declared.place, [...(bySource.get(declared.place) ?? []), op.names.method]);
      shared.taken.add(op);
      also.set(declared.op, [...(also.get(declared.op) ?? []), `, and as \`${comment([...place.call, op.names.method].join("."))}\` ${otherWire(declared.op, op)}`]);
    }
    if (bySource.size > 0) shared.picks.set(place.path.join("."), [...bySource].map(([source, names]) => ({ from: source.path, names })));
  }
  for (const [op, lines] of also) shared.wire.set(op, wireDocs(op) + lines.join(""));
  return shared;
}

/** Where `other` goes, beside the declaration `op`'s own wire line: the endpoint when only that differs. */
function otherWire(op: IrOperation, other: IrOperation): string {
  if (op.protocol === "json-rpc" && other.protocol === "json-rpc" && op.transport.method === other.transport.method) return `at \`${comment(other.endpoint || "/")}\``;
  return `(${wireDocs(other)})`;
}

/**
 * The `Pick`s of a group's type (`Pick<NodeClient<N>["cChain"]["eth"],
 * "chainId" | …>`), joined by `&`; undefined when it takes no method. A long
 * list of names is written one a line.
 */
export function picksOf(shared: SharedMethods, path: string[], client: string): string | undefined {
  const picks = shared.picks.get(path.join("."));
  return picks
    ?.map((p) => {
      const from = `${client}${p.from.map((k) => `[${stringLiteral(k)}]`).join("")}`;
      const names = p.names.map((k) => stringLiteral(k));
      const line = `Pick<${from}, ${names.join(" | ")}>`;
      return line.length <= 120 ? line : `Pick<\n  ${from},\n${names.map((k) => `  | ${k}`).join("\n")}\n>`;
    })
    .join(" & ");
}
