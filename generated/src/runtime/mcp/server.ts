/// <reference types="node" />
/**
 * A generated package's MCP server (`<package>/mcp`): the official SDK's
 * low-level `Server`, answering `tools/list` and `tools/call` from the
 * package's catalog, in one of two modes:
 *
 * - code mode (the default): `search` finds operations and shows their
 *   signatures; `execute` runs a snippet against the clients in a sandbox
 *   (execute.ts), each client call going through the host;
 * - tools mode: one tool per operation (tools.ts).
 *
 * Every call goes through `McpHost` (host.ts): the read-only policy, the
 * arguments taken as data and checked, the real client, typed errors as
 * messages. Failures are tool results with `isError`, never protocol errors
 * or stack traces. Node only, like the mock server: the SDK and the
 * transports need it.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CatalogIndex, type McpCatalog } from "./catalog.js";
import { executeTool, runExecute, type ExecuteLimits } from "./execute.js";
import { McpCallError, McpHost, type McpClients } from "./host.js";
import { READ_ONLY, type AccessPolicy } from "./policy.js";
import { cut, errorText, jsonText, redact } from "./results.js";
import { search, type SearchOptions } from "./search.js";
import type { StreamCollectLimits } from "./streams.js";
import { selectOperations, toolOf, type ListedTool, type ToolSelection } from "./tools.js";

export interface McpServerOptions {
  /** `code` (default): `search` and `execute`; `tools`: one tool per operation. */
  mode?: "code" | "tools";
  /** Read-only unless this allows writes. */
  policy?: AccessPolicy;
  /** Tools mode: which operations, and how many tools at most. */
  tools?: ToolSelection;
  /** The largest result returned, in bytes (default 24,000); a longer one is cut with a note. */
  resultBytes?: number;
  search?: SearchOptions;
  /** Code mode: the sandbox's limits (time, memory, result size, client calls). */
  limits?: Partial<ExecuteLimits>;
  /** Values never returned to the agent (API keys); the package's entry adds the keys it gives the clients. */
  secrets?: readonly string[];
  /** A streamed operation's call returns the items that arrive, at most `maxItems` (default 100) within `maxMs` (default 5,000). */
  stream?: Partial<StreamCollectLimits>;
  /** The server's name and version in `initialize` (default: the package's). */
  name?: string;
  version?: string;
}

export const DEFAULT_RESULT_BYTES = 24_000;

const SEARCH_SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", description: "Words or a method name, e.g. \"validators stake\", \"erc20 transfers\", \"getBalance\". Empty: list the clients and groups." },
    limit: { type: "integer", minimum: 1, maximum: 20, description: "At most this many operations (default 8)." },
  },
  required: ["query"],
  additionalProperties: false,
} as const;

function searchTool(index: CatalogIndex): ListedTool {
  const clients = index.catalog.clients.map((c) => `${c.name} (${c.title})`).join(", ");
  return {
    name: "search",
    title: "Search the API",
    description: `Find operations of ${index.catalog.package} by words or names: ${index.catalog.operations.length} operations in ${clients}. Returns each one's TypeScript signature, doc and an example call, to use in execute.`,
    inputSchema: SEARCH_SCHEMA,
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  };
}

/** A tool result: text, cut at the size limit, secrets redacted. */
function textResult(text: string, secrets: readonly string[], isError = false): CallToolResult {
  return { content: [{ type: "text", text: redact(text, secrets) }], ...(isError ? { isError: true } : {}) };
}

/** The tools of a mode, computed once: a tools-mode selection that is too large fails here, before serving. */
function listTools(index: CatalogIndex, options: McpServerOptions, policy: AccessPolicy): ListedTool[] {
  if (options.mode === "tools") return selectOperations(index, options.tools ?? {}).map((op) => toolOf(index, op, policy));
  return [searchTool(index), executeTool(index, options.limits, policy)];
}

/**
 * An MCP server over the package's clients; connect it to a transport
 * (transports.ts). Throws a `ToolCountError` when tools mode would list more
 * tools than allowed.
 */
export function createMcpServer(catalog: McpCatalog, clients: McpClients, options: McpServerOptions = {}): Server {
  const index = new CatalogIndex(catalog);
  const policy = options.policy ?? READ_ONLY;
  const secrets = [...(options.secrets ?? [])].filter((s) => s.length > 0);
  const host = new McpHost(index, clients, { policy, secrets, ...(options.stream ? { stream: options.stream } : {}) });
  const tools = listTools(index, options, policy);
  const served = new Map(tools.map((t) => [t.name, t]));
  const limit = options.resultBytes ?? DEFAULT_RESULT_BYTES;
  const server = new Server({ name: options.name ?? catalog.package, version: options.version ?? "0.0.0" }, { capabilities: { tools: {} }, instructions: instructions(options.mode ?? "code", index) });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (!served.has(name)) return textResult(`There is no tool ${JSON.stringify(name)}; tools/list names the tools of this server.`, secrets, true);
    try {
      if (options.mode !== "tools" && name === "search") {
        const query = typeof args?.["query"] === "string" ? args["query"] : "";
        const n = typeof args?.["limit"] === "number" ? args["limit"] : undefined;
        return textResult(search(index, query, { ...options.search, ...(n !== undefined ? { limit: n } : {}) }), secrets);
      }
      if (options.mode !== "tools") return await runExecute(index, host, args, options.limits, limit);
      const op = index.byTool.get(name)!;
      const result = await host.call(op, args);
      return textResult(cut(jsonText(result, 1), limit, op).text, secrets);
    } catch (e) {
      return textResult(e instanceof McpCallError ? e.message : errorText(e, secrets), secrets, true);
    }
  });
  return server;
}

function instructions(mode: "code" | "tools", index: CatalogIndex): string {
  const clients = index.catalog.clients.map((c) => c.name).join(", ");
  return mode === "code"
    ? `Typed clients of ${index.catalog.package} (${clients}). Find operations with search, then call them from a snippet with execute: several calls, filtering and arithmetic in one snippet, returning only what is needed.`
    : `One tool per operation of ${index.catalog.package} (${clients}).`;
}
