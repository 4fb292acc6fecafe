/**
 * The client side of endpoints whose path holds variables (ir/endpoints.ts):
 * the type of the variables' object, and the words of the group member that
 * takes it. The client object's member is a function (`node.l1({
 * blockchainId })`) built over `endpointCall`; the functional form takes a
 * core bound with `withEndpoint`; descriptors go through `bindEndpoint`.
 */
import type { IrDocument, IrEndpointGroup } from "../../ir/types.js";
import { literal, comment, identifier, propertyKey } from "../escape.js";
import type { WriterFunction } from "../../writer.js";
import { writeDocs } from "../types/type-node.js";

/** The name the naming pass gave the group's variables type (`L1Endpoint`). */
export function endpointTypeName(g: IrEndpointGroup): string {
  if (!g.names) throw new Error("internal: the naming pass names every endpoint group");
  return identifier(g.names.type);
}

/** The endpoints below a group, as written in the spec (`/ext/bc/{blockchainId}/rpc`). */
function pathsOf(ir: IrDocument, g: IrEndpointGroup): string[] {
  return [...new Set(ir.operations.filter((op) => g.files.includes(op.file)).map((op) => op.endpoint))];
}

/** `export type L1Endpoint = { blockchainId: string }`: each variable a string (its enum's values when it has one), documented. */
export function endpointTypes(ir: IrDocument): WriterFunction[] {
  return (ir.endpointGroups ?? []).map((g) => (w) => {
    writeDocs(w, `The path variables of ${pathsOf(ir, g).map((p) => `\`${comment(p)}\``).join(", ")}: what \`${comment(g.group.join("."))}(…)\` takes (each value is percent-encoded into the path).`);
    w.write(`export type ${endpointTypeName(g)} = {`).newLine();
    w.indent(() => {
      for (const v of g.variables) {
        writeDocs(w, [v.description ? comment(v.description) : undefined, `The spec's example: \`${comment(JSON.stringify(v.default))}\`.`].filter(Boolean).join("\n\n"));
        w.writeLine(`readonly ${propertyKey(v.name)}: ${v.enum && v.enum.length > 0 ? v.enum.map((e) => literal(e)).join(" | ") : "string"};`);
      }
    });
    w.write("};").newLine();
  });
}

/** The JSDoc of the group member that takes the variables. */
export function endpointMemberDocs(ir: IrDocument, g: IrEndpointGroup): string {
  const names = g.variables.map((v) => v.name);
  return [
    `The methods of ${pathsOf(ir, g).map((p) => `\`${comment(p)}\``).join(", ")} at the endpoint these variables name (${names.map((n) => `\`${comment(n)}\``).join(", ")}): \`${comment(g.group.join("."))}({ ${names.map((n) => comment(n)).join(", ")} })\`.`,
    "The same transport as the rest of the client: its retries, timeouts, batching (`batch` groups calls by endpoint), number policy and errors. A value is percent-encoded; an empty one, `.` or `..` fails the call with a ValidationError, before anything is sent.",
  ].join("\n\n");
}
