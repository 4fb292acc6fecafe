/** The exported error classes of a module's declared JSON-RPC errors. */
import type { IrDocument, IrRpcError } from "../../ir/types.js";
import { comment, identifier, stringLiteral } from "../escape.js";
import { printType, toTypeNode, writeDocs, type TypeContext, type TypeNode } from "../types/type-node.js";
import type { Emitted } from "./context.js";
import { errorSummary } from "./docs.js";


/**
 * One class per declared JSON-RPC error (named by the naming pass; errors that
 * are the same share it), extending `RpcServerError` for the server range
 * -32000…-32099 and `RpcError` otherwise, so `instanceof` works on what a
 * call throws. The statics say which replies it answers to; a `data` schema
 * types `data`. Returns the runtime base classes used.
 */
export function emitRpcErrors(ir: IrDocument, ctx: TypeContext, out: Emitted): Set<string> {
  const bases = new Set<string>();
  const classes = new Map<string, { error: IrRpcError; data: TypeNode | undefined; methods: string[] }>();
  for (const op of ir.operations) {
    if (op.protocol !== "json-rpc") continue;
    for (const e of op.errors) {
      const entry = classes.get(e.className) ?? { error: e, data: undefined, methods: [] };
      if (!entry.methods.includes(op.transport.method)) entry.methods.push(op.transport.method);
      // the same error written in several merged documents: the docs of whichever describes it, the data type of whichever types it
      if (!entry.error.description && e.description) entry.error = e;
      const data = e.data ? toTypeNode(e.data, ctx) : undefined;
      if (!entry.data && data && !(data.k === "raw" && data.text === "unknown")) entry.data = data;
      classes.set(e.className, entry);
    }
  }
  // classes that share their code with another error of the same method: matched by message too
  const shared = new Set<string>();
  for (const op of ir.operations) {
    if (op.protocol !== "json-rpc") continue;
    for (const e of op.errors) if (op.errors.some((o) => o.code === e.code && o.className !== e.className)) shared.add(e.className);
  }
  for (const [name, { error: e, data, methods }] of classes) {
    const base = e.code <= -32000 && e.code >= -32099 ? "RpcServerError" : "RpcError";
    bases.add(base);
    const shown = methods.slice(0, 5).map((m) => `\`${m}\``).join(", ") + (methods.length > 5 ? ` and ${methods.length - 5} more` : "");
    const docs = [
      comment(`JSON-RPC error ${errorSummary(e)}${e.source !== e.message ? ` (${e.source})` : ""}, declared by ${shown}.`),
      e.description ? comment(e.description) : undefined,
      shared.has(name) ? comment(`Where a method declares another error with code ${e.code} as well, a reply with that code is this one only when its message starts with ${JSON.stringify(e.message)} (ignoring case); one that matches none of them is an \`RpcServerError\` or \`RpcError\`.`) : undefined,
    ].filter(Boolean).join("\n\n");
    out.statements.push((w) => {
      writeDocs(w, docs);
      w.write(`export class ${identifier(name)} extends ${base} `).inlineBlock(() => {
        w.writeLine(`static readonly code = ${e.code};`);
        w.writeLine(`static readonly rpcMessage = ${stringLiteral(e.message)};`);
        w.writeLine(`override name = ${stringLiteral(name)};`);
        if (data) {
          w.write("declare readonly data: ");
          printType(w, { k: "union", parts: [data, { k: "raw", text: "undefined" }] });
          w.write(";").newLine();
        }
      });
      w.newLine();
    });
  }
  return bases;
}