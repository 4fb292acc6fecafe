/**
 * What an MCP server lets an agent call. Read-only by default: an operation
 * the catalog classes as a write (generator/emit/mcp/access.ts: the HTTP
 * method, the JSON-RPC method's namespace and verb, the spec's
 * `x-avaspec-mcp`) is refused unless the server was started with
 * `--allow-writes` or names it in `--allow`. The refusal says how to allow it.
 *
 * Patterns (`--allow`, `--include`, `--exclude`) match an operation's dotted
 * path (`node.platform.issueTx`), its tool name (`node_platform_issueTx`) or
 * one of its tags; `*` stands for any run of characters except `.`, `**`
 * for any run at all.
 */
import { dotted, type McpOperation } from "./catalog.js";

export interface AccessPolicy {
  /** Every write allowed (`--allow-writes`). */
  readonly allowWrites: boolean;
  /** Writes allowed one by one (`--allow <pattern>`). */
  readonly allow: readonly string[];
}

export const READ_ONLY: AccessPolicy = { allowWrites: false, allow: [] };

const compiled = new Map<string, RegExp>();

/** A pattern as a regular expression: `*` within a dotted segment, `**` across them; everything else literal. */
function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re) return re;
  const body = pattern
    .split("**")
    .map((part) => part.split("*").map((lit) => lit.replace(/[\\^$.+?()[\]{}|]/g, "\\$&")).join("[^.]*"))
    .join(".*");
  re = new RegExp(`^${body}$`);
  compiled.set(pattern, re);
  return re;
}

/** Whether an operation matches a pattern: by dotted path, tool name or tag. */
export function matches(op: McpOperation, pattern: string): boolean {
  const re = patternRegExp(pattern);
  return re.test(dotted(op.path)) || re.test(op.tool) || op.tags.some((t) => re.test(t));
}

/** Whether the policy lets the operation run. */
export function allowed(op: McpOperation, policy: AccessPolicy): boolean {
  return op.access.readOnly || policy.allowWrites || policy.allow.some((p) => matches(op, p));
}

/** Why a write is refused, and how to allow it. */
export function refusal(op: McpOperation): string {
  const what = op.access.destructive ? "changes or deletes data" : "writes (it changes state, spends or signs)";
  return `${dotted(op.path)} (${op.wire}) ${what}, and this MCP server is read-only. Whoever runs the server can allow it: restart it with --allow ${dotted(op.path)} (this one), or --allow-writes (every write).`;
}
