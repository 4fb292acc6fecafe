/**
 * The client object's shape: operations nested by group (`node.cChain.eth`),
 * the groups that are functions of their endpoint's path variables
 * (`node.l1({ blockchainId })`), and the WebSocket forms' trees; written
 * once as the client interface and once as the factory's object.
 */
import { isStreamed } from "../../ir/streams.js";
import type { IrEndpointGroup, IrOperation, IrPaging, IrWebSocket } from "../../ir/types.js";
import type { TextWriter } from "../../writer.js";
import { identifier, propertyKey, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { writeValue } from "../value.js";
import { endpointTypeName } from "./endpoint-groups.js";
import { pagingValue } from "./paging.js";
import { headArgument, type Ranged } from "./ranges.js";

export type Paging = Map<IrOperation, IrPaging>;

export interface GroupNode {
  ops: IrOperation[];
  children: Map<string, GroupNode>;
  /** A group that is a function of its endpoint's path variables, and the factory's builder of what it returns. */
  endpoint?: { group: IrEndpointGroup; builder: string; docs: string };
}

export function groupTree(ops: IrOperation[], endpoints: readonly IrEndpointGroup[] = [], docs?: (g: IrEndpointGroup) => string): GroupNode {
  const root: GroupNode = { ops: [], children: new Map() };
  const at = new Map(endpoints.map((g, i) => [g.group.join("."), { group: g, builder: `buildEndpoint${i || ""}`, docs: docs?.(g) ?? "" }]));
  for (const op of ops) {
    let node = root;
    op.group.forEach((g, i) => {
      let child = node.children.get(g);
      if (!child) node.children.set(g, (child = { ops: [], children: new Map(), ...(at.has(op.group.slice(0, i + 1).join(".")) ? { endpoint: at.get(op.group.slice(0, i + 1).join(".")) } : {}) }));
      node = child;
    });
    node.ops.push(op);
  }
  return root;
}

/**
 * A group's members as the interface types them. `head` gives what a
 * subgroup's type takes from elsewhere (shared-methods.ts), written before
 * its own members: `Pick<…> & { … }`, or only `Pick<…>` when `alone` (it has
 * no member of its own).
 */
export function writeGroup(w: TextWriter, node: GroupNode, path: string[], extra: (path: string[]) => void, method: (op: IrOperation) => void, head: (path: string[]) => { type: string; alone: boolean } | undefined = () => undefined): void {
  for (const op of node.ops) method(op);
  extra(path);
  for (const [name, child] of node.children) {
    const at = [...path, name];
    if (child.endpoint) {
      // a function of the endpoint's path variables, returning that endpoint's methods
      writeDocs(w, child.endpoint.docs);
      w.write(`${propertyKey(name, "method")}(endpoint: ${endpointTypeName(child.endpoint.group)}): `);
    } else w.write(`readonly ${propertyKey(name)}: `);
    const taken = head(at);
    if (taken) w.write(taken.alone ? taken.type : `${taken.type} & `);
    if (!taken?.alone) w.inlineBlock(() => writeGroup(w, child, at, extra, method, head));
    w.write(";").newLine();
  }
}

/**
 * The factory's object for a group; `client` types the members below
 * `path.slice(from)` (`from`: the part of the path the type already covers).
 * `extra` writes members of its own at a path and returns the subgroups it
 * wrote (which are then not written here).
 */
export function writeFactoryObject(w: TextWriter, node: GroupNode, members: { paging: Paging; ranged: Ranged }, path: string[], client: string, extra: (path: string[]) => readonly string[] | void, from = 0): void {
  const { paging, ranged } = members;
  w.inlineBlock(() => {
    for (const op of node.ops) {
      const paged = paging.get(op);
      const head = ranged.get(op);
      if (isStreamed(op)) w.writeLine(`${propertyKey(op.names.method, "value")}: streamMethod(http, ${identifier(op.names.descriptor)}),`);
      else if (op.protocol === "http" && !paged) w.writeLine(`${propertyKey(op.names.method, "value")}: httpMethod(http, ${identifier(op.names.descriptor)}),`);
      else if (paged) {
        // a list over a declared range: its pages, and iterate over windows of the range
        w.write(`${propertyKey(op.names.method, "value")}: ${ranged.has(op) ? "rangedPaged" : "paged"}(http, ${identifier(op.names.descriptor)}, `);
        writeValue(w, pagingValue(op.id || op.names.method, paged));
        w.write(`${ranged.has(op) ? headArgument(head) : ""}),`).newLine();
      } else if (op.protocol === "json-rpc" && ranged.has(op) && !op.resultByParam) {
        w.writeLine(`${propertyKey(op.names.method, "value")}: rangedCall(call, ${identifier(op.names.descriptor)}${headArgument(head)}),`);
      } else if (op.protocol === "json-rpc" && op.resultByParam) {
        // an overloaded method: the one implementation is typed by the general signature, then as the overloads
        const member = [...path.slice(from), op.names.method].map((k) => `[${stringLiteral(k)}]`).join("");
        w.writeLine(`${propertyKey(op.names.method, "value")}: ((params: ${identifier(op.names.params)}, callOptions?: CallOptions) => call(${identifier(op.names.descriptor)}, params, callOptions)) as ${client}${member},`);
      } else w.writeLine(`${propertyKey(op.names.method, "value")}: (params, callOptions) => call(${identifier(op.names.descriptor)}, params, callOptions),`);
    }
    const written = extra(path) ?? [];
    for (const [name, child] of node.children) {
      if (written.includes(name)) continue;
      w.write(`${propertyKey(name, "value")}: `);
      // the builder is written ahead of the factory's object (writeEndpointBuilders)
      if (child.endpoint) w.write(`(endpoint) => ${child.endpoint.builder}(endpointCall(call, endpoint))`);
      else writeFactoryObject(w, child, members, [...path, name], client, extra, from);
      w.write(",").newLine();
    }
  });
}

/** Visits the groups that are functions of their endpoint's variables (none is inside another: ir/endpoints.ts). */
export function writeEndpointBuilders(w: TextWriter, node: GroupNode, path: string[], write: (node: GroupNode, path: string[]) => void): void {
  for (const [name, child] of node.children) {
    if (child.endpoint) write(child, [...path, name]);
    else writeEndpointBuilders(w, child, [...path, name], write);
  }
}

/** The operations of one WebSocket form as a tree below its group. */
export function socketTree(ops: IrOperation[], socket: IrWebSocket): GroupNode {
  const root: GroupNode = { ops: [], children: new Map() };
  for (const op of ops) {
    if (op.protocol !== "json-rpc" || op.file !== socket.file) continue;
    let node = root;
    for (const g of op.group.slice(socket.group.length)) {
      let child = node.children.get(g);
      if (!child) node.children.set(g, (child = { ops: [], children: new Map() }));
      node = child;
    }
    node.ops.push(op);
  }
  return root;
}
