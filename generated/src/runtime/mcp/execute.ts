/// <reference types="node" />
/**
 * Code mode's `execute`: the agent's snippet run in the sandbox
 * (sandbox.ts: QuickJS in WebAssembly, in a worker), with the package's
 * clients as its only way out. Each client call the snippet makes comes back
 * here as a `HostCall` and goes through the host (host.ts): the read-only
 * policy, the arguments taken as data, the real client, errors as messages.
 * The result goes back as JSON text, cut at the server's result limit; a
 * failure (a syntax error, a thrown error, a limit reached, a refusal) is a
 * tool error saying which and why.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogIndex } from "./catalog.js";
import type { McpHost } from "./host.js";
import { allowed, type AccessPolicy } from "./policy.js";
import { cut, jsonText, redact } from "./results.js";
import { DEFAULT_LIMITS, runSnippet, type SandboxLimits } from "./sandbox.js";
import type { ListedTool } from "./tools.js";

export type ExecuteLimits = SandboxLimits;

const EXECUTE_SCHEMA = {
  type: "object",
  properties: {
    code: { type: "string", description: "The body of an async function (TypeScript or JavaScript) using the clients; `return` the answer as JSON." },
  },
  required: ["code"],
  additionalProperties: false,
} as const;

/** The `execute` tool as listed: what is in scope, what is not, the limits. */
export function executeTool(index: CatalogIndex, limits: Partial<ExecuteLimits> | undefined, policy: AccessPolicy): ListedTool {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const clients = index.catalog.clients.map((c) => c.name).join(", ");
  const example = index.catalog.operations.find((op) => op.access.readOnly)?.example ?? "";
  const writes = policy.allowWrites ? "Writes are allowed." : policy.allow.length > 0 ? `Writes are refused except ${policy.allow.join(", ")}.` : "Read-only: calls that write, spend or sign are refused.";
  return {
    name: "execute",
    title: "Run code against the API",
    description: [
      `Runs a snippet, the body of an async function, with the clients ${clients} in scope (find methods with search), and returns its JSON result; bigints become strings.`,
      `Make several calls, filter and compute in one snippet and return only what is needed, e.g. \`const r = ${example}; return r;\`.`,
      `${writes} No fetch, require, import, process or file system. Limits: ${l.timeMs / 1000} s, ${Math.round(l.memoryBytes / 2 ** 20)} MiB, ${l.calls} calls.`,
    ].join(" "),
    inputSchema: EXECUTE_SCHEMA,
    // a snippet calls only what the policy allows: read-only unless a write is allowed
    annotations: { readOnlyHint: !index.catalog.operations.some((op) => !op.access.readOnly && allowed(op, policy)), idempotentHint: false, destructiveHint: index.catalog.operations.some((op) => op.access.destructive && allowed(op, policy)), openWorldHint: true },
  };
}

const LOG_CHARS = 2000;

function logText(logs: readonly string[]): string {
  if (logs.length === 0) return "";
  const text = logs.join("\n");
  return `\n--- console (${logs.length} line${logs.length === 1 ? "" : "s"}) ---\n${text.length > LOG_CHARS ? `${text.slice(0, LOG_CHARS)}…` : text}`;
}

/** Runs the snippet of an `execute` call; the result as the agent gets it. */
export async function runExecute(index: CatalogIndex, host: McpHost, args: Record<string, unknown> | undefined, limits: Partial<ExecuteLimits> | undefined, resultBytes: number): Promise<CallToolResult> {
  const secrets = host.options.secrets;
  const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: "text", text: redact(t, secrets) }], ...(isError ? { isError: true } : {}) });
  const code = args?.["code"];
  if (typeof code !== "string" || code.trim() === "") return text("execute takes { code }: the body of an async function using the clients, e.g. `return await …`", true);
  const outcome = await runSnippet(code, index.surface(), host.hostCall, limits, { secrets });
  if (outcome.ok) return text(`${cut(jsonText(outcome.result, 1), resultBytes).text}${logText(outcome.logs)}`);
  const where = "location" in outcome && outcome.location ? ` (line ${outcome.location.line}, column ${outcome.location.column})` : "";
  return text(`${outcome.reason}: ${outcome.message}${where}; ${outcome.calls} client call${outcome.calls === 1 ? "" : "s"} made${logText(outcome.logs)}`, true);
}
