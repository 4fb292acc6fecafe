/** What a client's doc comments say about an operation: summary, description, where it goes on the wire, lifecycle, errors. */
import type { IrOperation, IrRpcError } from "../../ir/types.js";
import { comment, identifier } from "../escape.js";
import { httpTarget } from "./http-wire.js";

export function methodDocs(op: IrOperation): string {
  const wire = op.protocol === "http" ? `${op.transport.method.toUpperCase()} ${httpTarget(op)}` : `JSON-RPC \`${op.transport.method}\` at \`${op.endpoint || "/"}\``;
  const throws = op.protocol === "json-rpc" ? [...new Map(op.errors.map((e) => [e.className, e])).values()].map((e) => `@throws {@link ${identifier(e.className)}} ${comment(errorSummary(e))}`).join("\n") : "";
  const wrapped = op.protocol === "json-rpc" && op.result?.wire ? `Servers may also send the result wrapped, as \`{ ${comment(JSON.stringify(op.result.wire.property))}: … }\`; it is unwrapped before it is checked and returned.` : undefined;
  const unimplemented = op.unimplemented ? `Not served everywhere: ${comment(op.unimplemented)}` : undefined;
  const since = op.lifecycle?.addedIn ? `@since ${comment(op.lifecycle.addedIn)}` : undefined;
  return [op.summary ? comment(op.summary) : undefined, op.description ? comment(op.description) : undefined, op.protocol === "http" ? `\`${comment(wire)}\`` : comment(wire), wrapped, unimplemented, since, deprecatedTag(op), throws || undefined]
    .filter(Boolean)
    .join("\n\n");
}

/** `@deprecated`, with the release that deprecated or removed it. */
function deprecatedTag(op: IrOperation): string | undefined {
  if (!op.deprecated) return undefined;
  const l = op.lifecycle;
  // the marker says when the removal takes effect (a release, or an upgrade at its activation): the sentence claims nothing more
  if (l?.removedIn) return `@deprecated ${l.deprecatedIn ? `Deprecated in ${comment(l.deprecatedIn)} and removed` : "Removed"} in ${comment(l.removedIn)}. Servers do not serve it from then on.`;
  if (l?.deprecatedIn) return `@deprecated Since ${comment(l.deprecatedIn)}.`;
  return "@deprecated";
}

/** `code -32000: "alias length is too long"`. */
export function errorSummary(e: IrRpcError): string {
  return `code ${e.code}${e.message ? `: ${JSON.stringify(e.message)}` : ""}`;
}

