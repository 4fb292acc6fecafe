/**
 * Whether an operation only reads, for the generated MCP server's read-only
 * default and its tools' annotations (`readOnlyHint`, `idempotentHint`,
 * `destructiveHint`). The rule is general, not a list of Avalanche methods:
 *
 * - HTTP: GET, HEAD, OPTIONS and TRACE read; PUT and DELETE are idempotent
 *   writes; POST and PATCH are writes (a POST that only queries is marked
 *   `x-avaspec-mcp: { readOnly: true }`). DELETE, PUT and PATCH may destroy
 *   or overwrite; POST adds.
 * - JSON-RPC, by the wire name: a privileged namespace (`admin`, `personal`,
 *   `miner`, `engine`, `clique`, `keystore`) writes whatever the method; else
 *   the method's verb (its first word, after the namespace: `eth_sendRawTransaction`
 *   → `send`, `platform.issueTx` → `issue`) decides, writes being the verbs
 *   of WRITE_VERBS.
 * - `x-avaspec-mcp` on the operation overrides each member it gives.
 */
import type { IrOperation } from "../../ir/types.js";

export interface McpAccess {
  readOnly: boolean;
  idempotent: boolean;
  destructive: boolean;
}

/** Namespaces whose every method is privileged: node administration, accounts and keys, block production. */
export const WRITE_NAMESPACES = ["admin", "personal", "miner", "engine", "clique", "keystore"];

/** Verbs that change state, spend, sign or make the server do work beyond answering. */
export const WRITE_VERBS = [
  "add", "alias", "approve", "burn", "cancel", "create", "delete", "deploy", "drop", "export", "import", "issue", "kill", "load", "lock",
  "mint", "new", "put", "register", "remove", "replace", "resend", "reset", "send", "set", "sign", "start", "stop", "submit", "transfer",
  "uninstall", "unlock", "update", "write",
];

/** Verbs among WRITE_VERBS that destroy or overwrite rather than add. */
const DESTRUCTIVE_VERBS = new Set(["burn", "cancel", "delete", "drop", "kill", "remove", "replace", "reset", "set", "uninstall", "update", "write"]);

/** `eth_sendRawTransaction` → { namespace: "eth", verb: "send" }; `platform.issueTx` → { "platform", "issue" }; `getHeight` → { "", "get" }. */
export function nameParts(method: string): { namespace: string; verb: string } {
  const split = method.match(/^([A-Za-z0-9]+)[._](.+)$/);
  const [namespace, rest] = split ? [split[1]!, split[2]!] : ["", method];
  const verb = (rest.match(/^[a-z]+|^[A-Z][a-z]*|^[A-Z]+(?![a-z])/)?.[0] ?? rest).toLowerCase();
  return { namespace: namespace.toLowerCase(), verb };
}

function rpcAccess(method: string): McpAccess {
  const { namespace, verb } = nameParts(method);
  const writes = WRITE_NAMESPACES.includes(namespace) || WRITE_VERBS.includes(verb);
  return { readOnly: !writes, idempotent: !writes, destructive: writes && DESTRUCTIVE_VERBS.has(verb) };
}

function httpAccess(method: string, idempotent: boolean): McpAccess {
  if (["get", "head", "options", "trace", "query"].includes(method)) return { readOnly: true, idempotent: true, destructive: false };
  return { readOnly: false, idempotent, destructive: method !== "post" };
}

/** The operation's access, by the rule above and its `x-avaspec-mcp`. */
export function accessOf(op: IrOperation): McpAccess {
  const ruled = op.protocol === "http" ? httpAccess(op.transport.method, op.idempotent) : rpcAccess(op.transport.method);
  // the spec's x-avaspec-idempotent counts for JSON-RPC methods too
  if (op.protocol === "json-rpc" && op.idempotent) ruled.idempotent = true;
  const marks = op.mcp ?? {};
  const readOnly = marks.readOnly ?? ruled.readOnly;
  return {
    readOnly,
    idempotent: marks.idempotent ?? (readOnly || ruled.idempotent),
    destructive: marks.destructive ?? (readOnly ? false : ruled.destructive),
  };
}
