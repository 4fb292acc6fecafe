/**
 * What the client says about each operation in its doc comments: summary,
 * description, where it goes on the wire, lifecycle, and the errors it
 * throws. The JSON-RPC standard errors most methods declare are listed once,
 * on the client interface, and named by one line on each method that throws
 * them all; a method's own errors stay on the method.
 */
import type { IrDocument, IrOperation, IrRpcError } from "../../ir/types.js";
import { comment, identifier } from "../escape.js";
import { httpThrowsDocs } from "./http-errors.js";
import { httpTarget } from "./http-wire.js";

/** The codes JSON-RPC 2.0 defines for every server (parse error, invalid request, method not found, invalid params, internal error). */
const PREDEFINED = new Set([-32700, -32600, -32601, -32602, -32603]);

/**
 * The standard errors of a module's JSON-RPC methods: the predefined codes and
 * the generic "Server error" of the implementation-defined range, by class
 * name, in the order the first method that declares them lists them. Empty
 * when fewer than two methods would share the list (nothing to say once).
 */
export function standardErrors(ir: IrDocument): IrRpcError[] {
  const found = new Map<string, IrRpcError>();
  let methods = 0;
  for (const op of ir.operations) {
    if (op.protocol !== "json-rpc") continue;
    const own = op.errors.filter(isStandard);
    if (own.length > 0) methods++;
    for (const e of own) if (!found.has(e.className)) found.set(e.className, e);
  }
  const all = [...found.values()];
  // worth a shared line only where methods declare the whole set
  const full = ir.operations.filter((op) => op.protocol === "json-rpc" && all.every((s) => op.errors.some((e) => e.className === s.className))).length;
  return methods > 1 && full > 1 ? all : [];
}

function isStandard(e: IrRpcError): boolean {
  return PREDEFINED.has(e.code) || (e.code <= -32000 && e.code >= -32099 && e.message.toLowerCase() === "server error");
}

/** The `@throws` lines of the client interface: every standard error, once. */
export function standardErrorDocs(standard: readonly IrRpcError[]): string | undefined {
  if (standard.length === 0) return undefined;
  const lines = standard.map((e) => `@throws {@link ${identifier(e.className)}} ${comment(errorSummary(e))}`);
  return `Methods marked "the standard JSON-RPC errors" may throw each of these; a method's own errors are listed on it.\n\n${lines.join("\n")}`;
}

/** Where an operation goes on the wire, as its doc comment says: `GET /v1/chains` (a code span), or JSON-RPC `eth_chainId` at `/ext/bc/C/rpc`. */
export function wireDocs(op: IrOperation): string {
  return op.protocol === "http" ? `\`${comment(`${op.transport.method.toUpperCase()} ${httpTarget(op)}`)}\`` : comment(`JSON-RPC \`${op.transport.method}\` at \`${op.endpoint || "/"}\``);
}

/**
 * A method's doc comment; `standard` (from {@link standardErrors}) and
 * `client` name where the shared errors are listed; `wire` replaces the line
 * {@link wireDocs} writes ("" leaves it out).
 */
export function methodDocs(op: IrOperation, standard: readonly IrRpcError[] = [], client?: string, wire = wireDocs(op)): string {
  const wrapped = op.protocol === "json-rpc" && op.result?.wire ? `Servers may also send the result wrapped, as \`{ ${comment(JSON.stringify(op.result.wire.property))}: … }\`; it is unwrapped before it is checked and returned.` : undefined;
  const unimplemented = op.unimplemented ? `Not served everywhere: ${comment(op.unimplemented)}` : undefined;
  const since = op.lifecycle?.addedIn ? `@since ${comment(op.lifecycle.addedIn)}` : undefined;
  return [op.summary ? comment(op.summary) : undefined, op.description ? comment(op.description) : undefined, wire, wrapped, unimplemented, since, deprecatedTag(op), throwsDocs(op, standard, client)]
    .filter(Boolean)
    .join("\n\n");
}

function throwsDocs(op: IrOperation, standard: readonly IrRpcError[], client: string | undefined): string | undefined {
  if (op.protocol !== "json-rpc") return httpThrowsDocs(op);
  const errors = [...new Map(op.errors.map((e) => [e.className, e])).values()];
  const shared = client !== undefined && standard.length > 0 && standard.every((s) => errors.some((e) => e.className === s.className));
  const own = shared ? errors.filter((e) => !standard.some((s) => s.className === e.className)) : errors;
  const lines = own.map((e) => `@throws {@link ${identifier(e.className)}} ${comment(errorSummary(e))}`);
  if (shared) lines.push(`@throws the standard JSON-RPC errors (listed on {@link ${identifier(client)}})`);
  return lines.join("\n") || undefined;
}

/**
 * The doc comment of an operation's tree-shakable function: the summary and
 * what a caller must see at the call (deprecation), then where the rest is
 * written: the client method of the same name.
 */
export function functionDocs(op: IrOperation, client: string, core: string, pagedNote: string | undefined): string {
  const member = [...op.group, op.names.method].join(".");
  const summary = op.summary ? `${comment(op.summary.trim().replace(/\.$/, ""))}: the` : "The";
  const first = `${summary} tree-shakable form of \`${comment(member)}\` (described on {@link ${identifier(client)}}); \`client\` is a {@link ${core}}.`;
  return [first, pagedNote, deprecatedTag(op)].filter(Boolean).join("\n\n");
}

/** `@deprecated`, with the release that deprecated or removed it. */
export function deprecatedTag(op: IrOperation): string | undefined {
  if (!op.deprecated) return undefined;
  const l = op.lifecycle;
  // the marker says when the removal takes effect (a release, or an upgrade at its activation): the sentence claims nothing more
  if (l?.removedIn) return `@deprecated ${l.deprecatedIn ? `Deprecated in ${comment(l.deprecatedIn)} and removed` : "Removed"} in ${comment(l.removedIn)}. Servers do not serve it from then on.`;
  if (l?.deprecatedIn) return `@deprecated Since ${comment(l.deprecatedIn)}.`;
  return "@deprecated";
}

/** What the first call of a deprecated operation warns (a string literal in the descriptor). */
export function deprecationMessage(op: IrOperation): string | undefined {
  if (!op.deprecated) return undefined;
  const name = op.protocol === "json-rpc" ? op.transport.method : `${op.id || op.names.method} (${op.transport.method.toUpperCase()} ${op.endpoint}${op.transport.path})`;
  const l = op.lifecycle;
  if (l?.removedIn) return `${name} is ${l.deprecatedIn ? `deprecated in ${l.deprecatedIn} and ` : ""}removed in ${l.removedIn}; servers do not serve it from then on`;
  return `${name} is deprecated${l?.deprecatedIn ? ` since ${l.deprecatedIn}` : ""}`;
}

/** `code -32000: "alias length is too long"`. */
export function errorSummary(e: IrRpcError): string {
  return `code ${e.code}${e.message ? `: ${JSON.stringify(e.message)}` : ""}`;
}
