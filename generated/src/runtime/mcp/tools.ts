/**
 * The tools an MCP server lists. Code mode (the default): two, `search` and
 * `execute`, whatever the size of the API. Tools mode: one per operation,
 * its input schema from the catalog and its annotations from its access,
 * chosen by `--include`/`--exclude` patterns (path, tool name or tag, see
 * policy.ts) and refused as a whole when more than `--max-tools` remain
 * (agents cap their tools: Cursor at 40), with the counts to narrow by.
 */
import { dotted, type CatalogIndex, type McpOperation } from "./catalog.js";
import { allowed, matches, type AccessPolicy } from "./policy.js";

export interface ToolSelection {
  /** Only operations matching one of these (default: all). */
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** The most tools listed (default 100); more is a configuration error. */
  readonly maxTools?: number;
}

export const DEFAULT_MAX_TOOLS = 100;

/** An MCP tool as `tools/list` returns it. */
export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { readonly [key: string]: unknown };
  annotations: { title?: string; readOnlyHint: boolean; idempotentHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

/** Too many tools for the selection: what to narrow it by. */
export class ToolCountError extends Error {
  override name = "ToolCountError";
}

/** The operations tools mode serves. */
export function selectOperations(index: CatalogIndex, selection: ToolSelection): McpOperation[] {
  const chosen = index.catalog.operations.filter((op) => (selection.include?.length ? selection.include.some((p) => matches(op, p)) : true) && !(selection.exclude ?? []).some((p) => matches(op, p)));
  const max = selection.maxTools ?? DEFAULT_MAX_TOOLS;
  if (chosen.length > max) {
    const groups = new Map<string, number>();
    for (const op of chosen) groups.set(dotted(op.path.slice(0, -1)), (groups.get(dotted(op.path.slice(0, -1))) ?? 0) + 1);
    const largest = [...groups].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([g, n]) => `${g}.* (${n})`);
    throw new ToolCountError(
      `tools mode would list ${chosen.length} tools, more than --max-tools ${max}. Narrow it with --include or --exclude (a dotted path pattern, a tool name or a tag), e.g. --include "${largest[0]?.split(" ")[0] ?? "*"}"; the largest groups: ${largest.join(", ")}. Or use code mode (the default), which serves every operation with two tools.`,
    );
  }
  return chosen;
}

function toolDescription(op: McpOperation, policy: AccessPolicy): string {
  // the result's type by name: the JSON the call returns shows its members
  const returns = op.signature.slice(op.signature.lastIndexOf("): Promise<") + 11, -1).replace(/ \/\* = [\s\S]*\*\/$/, "");
  const lines = [[op.summary, op.description].filter(Boolean).join(" ") || dotted(op.path), `${op.wire}. Returns: ${returns}`];
  if (op.stream) lines.push("A stream: returns the items that arrive within this server's limits (count and time), `complete` when the stream ended by itself.");
  if (!allowed(op, policy)) lines.push("Refused by this server (read-only): writes need --allow-writes or --allow.");
  if (op.deprecated) lines.push("Deprecated.");
  return lines.join("\n");
}

/** One operation as a tool. */
export function toolOf(index: CatalogIndex, op: McpOperation, policy: AccessPolicy): ListedTool {
  return {
    name: op.tool,
    title: dotted(op.path),
    description: toolDescription(op, policy),
    inputSchema: index.inputSchema(op),
    annotations: { readOnlyHint: op.access.readOnly, idempotentHint: op.access.idempotent, destructiveHint: op.access.destructive, openWorldHint: true },
  };
}
