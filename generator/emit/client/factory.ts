/**
 * The client factory: settles the transports once, then builds the object the
 * interface describes from a `call` (the transport's, or a batch's). A
 * WebSocket form typed from the HTTP groups beside it is built by the same
 * builder as those groups, over the socket's `call`.
 */
import type { TextWriter } from "../../writer.js";
import { comment, identifier, propertyKey, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import type { ClientContext } from "./context.js";
import { socketTree, writeEndpointBuilders, writeFactoryObject, type GroupNode } from "./groups.js";
import { nodeAt, sharedSocketGroups } from "./interface.js";
import { descriptorOf } from "./sockets.js";

/** The doc comment of the client factory. */
export function factoryDocs(c: ClientContext): string {
  const { ir, numbered, defaultNumbers } = c;
  const json = c.jsonIntegers.size > 0 ? ` JSON integers that may pass 2^53 (\`format: int64\`) are read with all their digits as bigints under \`numbers: "bigint"\`; otherwise they stay numbers, and one beyond 2^53, which a number cannot hold, fails the call with a ValidationError.` : "";
  return `Creates a client for ${comment(ir.info.title)}: one method per operation.${numbered ? `\n\nIntegers the spec sends as strings come back as \`${defaultNumbers}\`${defaultNumbers === "bigint" ? "s" : "s, as on the wire"} unless \`numbers\` says otherwise; parameters take them as a bigint, a number or a string.${json}` : ""}`;
}

export function writeClientFactory(c: ClientContext, tree: GroupNode): (w: TextWriter) => void {
  const { ir, numbered, defaultNumbers } = c;
  return (w) => {
    const client = identifier(ir.names.client);
    // the implementation is typed with the wire's strings; the runtime decodes as `numbers` says, and the result is typed by N
    const wire = numbered ? `${client}<"string">` : client;
    writeDocs(w, factoryDocs(c));
    const signature = numbered ? `<N extends Numbers = ${stringLiteral(defaultNumbers)}>(options: ${identifier(ir.names.options)} & { numbers?: N } = {}): ${client}<N>` : `(options: ${identifier(ir.names.options)} = {}): ${client}`;
    w.write(`export function ${identifier(ir.names.factory)}${signature} `).inlineBlock(() => {
      const base = identifier(ir.names.defaultBaseUrl);
      const results = identifier(ir.names.results);
      const numbersArg = numbered && defaultNumbers !== "string" ? `, ${stringLiteral(defaultNumbers)}` : "";
      const advice = ir.names.advice ? `${numbersArg || ', "string"'}, ${identifier(ir.names.advice)}` : numbersArg;
      if (c.hasHttp) w.writeLine(`const http = resolveHttpConfig(options, ${base}, ${results}${advice});`);
      if (!c.hasRpc) {
        w.write(numbered ? `const client: ${wire} = ` : "return ");
        writeFactoryObject(w, tree, c, [], wire, () => {});
        w.write(";").newLine();
        if (numbered) w.writeLine(`return client as unknown as ${client}<N>;`);
        return;
      }
      w.writeLine(`const rpc = createRpcTransport(options, ${base}, ${results}${numbersArg});`);
      const extra = writeRpcBuilders(c, w, tree, wire, numbersArg);
      w.write(`const build = (call: RpcCall): Omit<${wire}, "batch"> => (`);
      writeFactoryObject(w, tree, c, [], wire, extra);
      w.write(");").newLine();
      if (numbered) {
        w.writeLine(`const client: ${wire} = { ...build(rpc.call), batch: (fn) => rpc.batch((call) => fn(build(call))) };`);
        w.writeLine(`return client as unknown as ${client}<N>;`);
      } else w.writeLine(`return { ...build(rpc.call), batch: (fn) => rpc.batch((call) => fn(build(call))) };`);
    });
  };
}

/** The WebSocket transport and builders, and the endpoint groups' builders; returns what the main object adds at each path. */
function writeRpcBuilders(c: ClientContext, w: TextWriter, tree: GroupNode, wire: string, numbersArg: string): (path: string[]) => readonly string[] | void {
  const { ir, sockets } = c;
  const results = identifier(ir.names.results);
  const base = identifier(ir.names.defaultBaseUrl);
  const member = (path: string[]) => path.map((k) => `[${stringLiteral(k)}]`).join("");
  const shared = new Map<string, string[] | undefined>();
  if (sockets.length > 0) {
    // one WebSocket transport for every ws form of the module; it connects on first use
    const probe = sockets.map((k) => k.subscriptions?.probe && descriptorOf(ir, k.file, k.subscriptions.probe)).find((d) => d !== undefined);
    w.writeLine(`const ws = createWsTransport(options, ${base}, ${identifier(ir.names.webSockets!)}, ${probe ? probe.name : "undefined"}, ${results}${numbersArg || ', "string"'});`);
    for (const socket of sockets) {
      const fn = `buildWs${sockets.indexOf(socket) || ""}`;
      const own = socketTree(ir.operations, socket);
      const groups = sharedSocketGroups(nodeAt(tree, socket.group), own);
      shared.set(socket.group.join("."), groups);
      w.write(`const ${fn} = (call: RpcCall): Omit<${wire}${member([...socket.group, "ws"])}, "subscribe" | "batch" | "close"> => (`);
      // the groups the HTTP client shares with the socket: built here for both
      if (groups) writeFactoryObject(w, { ops: [], children: new Map(groups.map((k) => [k, nodeAt(tree, [...socket.group, k])!])) }, c, socket.group, wire, () => undefined);
      else writeFactoryObject(w, own, c, [...socket.group, "ws"], wire, () => undefined);
      w.write(");").newLine();
    }
  }
  const extra = (path: string[]): readonly string[] | void => {
    const p = c.providers.get(path.join("."));
    if (p) w.writeLine(`provider: createEip1193Provider<${p.schema}>(call, ${stringLiteral(p.endpoint)}, ${p.methods}),`);
    const socket = sockets.find((s) => s.group.join(".") === path.join("."));
    if (!socket) return;
    const fn = `buildWs${sockets.indexOf(socket) || ""}`;
    const groups = shared.get(path.join("."));
    if (groups) w.writeLine(`...${fn}(call),`);
    w.write("ws: ").inlineBlock(() => {
      w.writeLine(`...${fn}(ws.call),`);
      w.write("subscribe: ").inlineBlock(() => {
        for (const k of socket.subscriptions?.kinds ?? []) {
          const d = identifier(k.names!.descriptor);
          if (k.params.length === 0) w.writeLine(`${propertyKey(k.names!.method, "value")}: (subscribeOptions) => ws.subscribe(${d}, {}, subscribeOptions),`);
          else w.writeLine(`${propertyKey(k.names!.method, "value")}: (params, subscribeOptions) => ws.subscribe(${d}, params ?? {}, subscribeOptions),`);
        }
      });
      w.write(",").newLine();
      w.writeLine(`batch: (fn) => ws.batch((call) => fn(${fn}(call))),`);
      w.writeLine("close: () => ws.close(),");
    });
    w.write(",").newLine();
    return groups;
  };
  writeEndpointBuilders(w, tree, [], (node, path) => {
    w.write(`const ${node.endpoint!.builder} = (call: RpcCall): ReturnType<${wire}${member(path)}> => (`);
    writeFactoryObject(w, node, c, path, `ReturnType<${wire}${member(path)}>`, extra, path.length);
    w.write(");").newLine();
  });
  return extra;
}
