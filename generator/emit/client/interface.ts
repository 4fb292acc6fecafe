/**
 * The client interface: operations nested by group, each group's EIP-1193
 * provider, and each WebSocket form. A WebSocket form whose groups are the
 * same as the HTTP groups beside it is typed from them (`Pick` of the HTTP
 * groups), so each method is declared, and documented, once.
 */
import { isStreamed } from "../../ir/streams.js";
import type { IrOperation, IrWebSocket } from "../../ir/types.js";
import type { TextWriter } from "../../writer.js";
import { comment, identifier, literal, propertyKey, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { decoded, paramsOptional, policyType, resultType, type ClientContext } from "./context.js";
import { methodDocs, standardErrorDocs } from "./docs.js";
import { socketTree, writeGroup, type GroupNode } from "./groups.js";
import { itemType } from "./paging.js";
import { picksOf, type SharedMethods } from "./shared-methods.js";
import type { ValidatorModule } from "../validators/index.js";
import { payloadFollowsPolicy } from "./sockets.js";

/** The interface statement; `tree` is the client's group tree. */
export function writeClientInterface(c: ClientContext, tree: GroupNode, subscriptionCodecs: ValidatorModule["subscriptionCodecs"], shared: SharedMethods): (w: TextWriter) => void {
  const { ir, numbered, defaultNumbers } = c;
  const client = identifier(ir.names.client);
  const clientDocs = [comment(ir.info.title), ir.info.description ? comment(ir.info.description) : "", standardErrorDocs(c.standard) ?? ""].filter(Boolean).join("\n\n");
  const method = (w: TextWriter, op: IrOperation) => {
    if (!shared.taken.has(op)) writeMethod(c, w, op, shared.wire.get(op));
  };
  // a group that takes methods from another: `Pick`s of it, and its own members unless it has none
  const head = (path: string[]) => {
    const type = picksOf(shared, path, `${client}${numbered ? "<N>" : ""}`);
    if (type === undefined) return undefined;
    const node = nodeAt(tree, path)!;
    const own = node.children.size > 0 || node.ops.some((op) => !shared.taken.has(op)) || c.providers.has(path.join(".")) || c.sockets.some((s) => s.group.join(".") === path.join("."));
    return { type, alone: !own };
  };
  return (w) => {
    writeDocs(w, numbered ? `${clientDocs}\n\n@typeParam N - How integers the spec sends as strings come back (the \`numbers\` option): \`${defaultNumbers}\` unless the options say otherwise.` : clientDocs);
    w.write(`export interface ${client}${numbered ? `<N extends Numbers = ${stringLiteral(defaultNumbers)}>` : ""} `).inlineBlock(() => {
      writeGroup(w, tree, [], (path) => {
        const p = c.providers.get(path.join("."));
        if (p) {
          writeDocs(w, `EIP-1193 provider for these JSON-RPC methods over this client's transport (its retries, batching, timeouts and errors): \`custom(provider)\` in viem, \`new BrowserProvider(provider)\` in ethers. \`params\` is the positional array as on the wire; a method the document does not declare is sent as given. Over HTTP, \`on\` and \`removeListener\` never call their listeners.`);
          w.writeLine(`readonly provider: Eip1193Provider<${p.schema}>;`);
        }
        const socket = c.sockets.find((s) => s.group.join(".") === path.join("."));
        // a socket's own tree declares each of its methods, taken here or not
        if (socket) writeSocketMember(c, w, socket, nodeAt(tree, path), path, subscriptionCodecs, (op) => writeMethod(c, w, op, shared.wire.get(op)));
      }, (op) => method(w, op), head);
      if (c.hasRpc) {
        writeDocs(w, "Sends every JSON-RPC call `build` makes in one batch (chunks of at most `batch.maxSize`, default 40).\nResults come back in call order; one failing call does not fail the others.");
        w.writeLine(`batch<const R extends readonly Promise<unknown>[]>(build: (client: Omit<${client}${numbered ? "<N>" : ""}, "batch">) => R): Promise<BatchResults<R>>;`);
      }
    });
    w.newLine();
  };
}

/** `wire`: the wire line of a declaration that other groups take too (shared-methods.ts). */
function writeMethod(c: ClientContext, w: TextWriter, op: IrOperation, wire?: string): void {
  const optional = paramsOptional(op);
  const docs = methodDocs(op, c.standard, c.ir.names.client, wire);
  writeDocs(w, docs);
  const paged = c.paging.get(op);
  if (paged) {
    // a list operation: the call, plus .pages() and .iterate() over every page
    const result = resultType(c, op);
    w.writeLine(`readonly ${propertyKey(op.names.method)}: ${c.ranged.has(op) ? "RangedPagedMethod" : "PagedMethod"}<${identifier(op.names.params)}${optional ? " | void" : ""}, ${decoded(c, op, result)}, ${itemType(decoded(c, op, result), paged)}>;`);
    return;
  }
  if (c.ranged.has(op) && !(op.protocol === "json-rpc" && op.resultByParam)) {
    // a read over a declared range: the call, and .iterate() over any range
    w.writeLine(`readonly ${propertyKey(op.names.method)}: RangedMethod<${identifier(op.names.params)}${optional ? " | undefined" : ""}, ${decoded(c, op, resultType(c, op))}>;`);
    return;
  }
  if (isStreamed(op)) {
    // the call returns the stream of items at once
    w.writeLine(`readonly ${propertyKey(op.names.method)}: StreamMethod<${identifier(op.names.params)}${optional ? " | void" : ""}, ${decoded(c, op, resultType(c, op))}>;`);
    return;
  }
  if (op.protocol === "http") {
    // the call, and `.withResponse` for its status and headers too
    w.writeLine(`readonly ${propertyKey(op.names.method)}: HttpMethod<${identifier(op.names.params)}${optional ? " | void" : ""}, ${decoded(c, op, resultType(c, op))}>;`);
    return;
  }
  // a result typed by a param's value: one overload per value, then the general signature
  const byParam = op.protocol === "json-rpc" ? op.resultByParam : undefined;
  for (const v of byParam?.variants ?? []) {
    w.writeLine(`${propertyKey(op.names.method, "method")}(params: ${identifier(op.names.params)} & { ${propertyKey(byParam!.param)}: ${literal(v.value)} }, options?: CallOptions): Promise<${policyType(c, op, v.schema)}>;`);
    writeDocs(w, docs);
  }
  w.writeLine(`${propertyKey(op.names.method, "method")}(params${optional ? "?" : ""}: ${identifier(op.names.params)}, options?: CallOptions): Promise<${decoded(c, op, resultType(c, op))}>;`);
}

export function nodeAt(tree: GroupNode, path: string[]): GroupNode | undefined {
  let node: GroupNode | undefined = tree;
  for (const k of path) node = node?.children.get(k);
  return node;
}

/** The operations of a group and its subgroups. */
function opsBelow(node: GroupNode, into = new Set<IrOperation>()): Set<IrOperation> {
  node.ops.forEach((op) => into.add(op));
  for (const child of node.children.values()) opsBelow(child, into);
  return into;
}

/**
 * The members of the HTTP group a WebSocket form can be typed from: each of
 * its subgroups whose operations are exactly the socket's operations of that
 * name. Undefined when the socket has operations outside such subgroups (then
 * it is written out).
 */
export function sharedSocketGroups(httpNode: GroupNode | undefined, socketNode: GroupNode): string[] | undefined {
  if (!httpNode || socketNode.ops.length > 0 || socketNode.children.size === 0) return undefined;
  const names: string[] = [];
  for (const [name, child] of socketNode.children) {
    const http = httpNode.children.get(name);
    if (!http || http.endpoint) return undefined;
    const a = opsBelow(child);
    const b = opsBelow(http);
    if (a.size !== b.size || [...a].some((op) => !b.has(op))) return undefined;
    names.push(name);
  }
  return names;
}

function writeSocketMember(c: ClientContext, w: TextWriter, socket: IrWebSocket, httpNode: GroupNode | undefined, path: string[], subscriptionCodecs: ValidatorModule["subscriptionCodecs"], method: (op: IrOperation) => void): void {
  const client = `${identifier(c.ir.names.client)}${c.numbered ? "<N>" : ""}`;
  const N = c.numbered ? "N" : '"string"';
  const own = socketTree(c.ir.operations, socket);
  const shared = sharedSocketGroups(httpNode, own);
  const at = path.map((k) => `[${stringLiteral(k)}]`).join("");
  writeDocs(w, `The same methods over the WebSocket endpoint ${comment(socket.path)} (one socket, opened on first use: calls and batches multiplexed by id)${shared ? ` — ${shared.map((k) => `\`${comment(k)}\``).join(", ")} as documented above —` : ","} and its subscriptions: async iterators (or onData/onError) that survive reconnects (keep-alive, backoff with jitter, resubscription, the gap backfilled in order and deduplicated, reorgs reported). Options: \`webSocket\` (URL, a WebSocket constructor on Node 20, keep-alive, reconnect, buffer).`);
  if (shared) w.write(`readonly ws: Pick<${client}${at}, ${shared.map((k) => stringLiteral(k)).join(" | ")}> & `);
  else w.write("readonly ws: ");
  w.inlineBlock(() => {
    if (!shared) writeGroup(w, own, [], () => undefined, method);
    w.write("readonly subscribe: ").inlineBlock(() => {
      for (const k of socket.subscriptions?.kinds ?? []) {
        const names = k.names!;
        const payload = payloadFollowsPolicy(c, k, subscriptionCodecs.get(k)) ? `${identifier(names.payload)}<${N}>` : identifier(names.payload);
        const paramsType = `SubscriptionParams<typeof ${identifier(names.descriptor)}>`;
        writeDocs(w, `\`${comment(socket.subscriptions!.subscribe)}\` kind \`${comment(k.kind)}\`${k.description ? `: ${comment(k.description)}` : ""}${k.backfill ? `\n\nAfter a reconnect, what was missed is fetched with \`${comment(k.backfill.method)}\` and delivered in order before new events, each event once.` : ""}`);
        if (k.params.length === 0) w.writeLine(`${propertyKey(names.method, "method")}(options?: SubscribeOptions<${payload}>): Subscription<${payload}>;`);
        else w.writeLine(`${propertyKey(names.method, "method")}(params${k.params.some((p) => p.required) ? "" : "?"}: ${paramsType}, options?: SubscribeOptions<${payload}>): Subscription<${payload}>;`);
      }
    });
    w.write(";").newLine();
    writeDocs(w, "Sends every call `build` makes as one batch message over the socket; results in call order.");
    w.writeLine(`batch<const R extends readonly Promise<unknown>[]>(build: (ws: Omit<${client}${at}["ws"], "subscribe" | "batch" | "close">) => R): Promise<BatchResults<R>>;`);
    writeDocs(w, "Closes the socket and ends every subscription (the next call opens a new one).");
    w.writeLine("close(): Promise<void>;");
  });
  w.write(";").newLine();
}
