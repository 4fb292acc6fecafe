/**
 * An MCP client (the official SDK's `Client`) connected over Streamable HTTP
 * to a package's MCP server, itself calling the package's mock server: both
 * real servers on 127.0.0.1.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type RunningMcpServer } from "../../runtime/mcp/transports.js";

export interface Connected {
  client: Client;
  server: RunningMcpServer;
  close(): Promise<void>;
}

/** An SDK client over Streamable HTTP to a server made by `make` for each request. */
export async function connectHttp(make: () => Server): Promise<Connected> {
  const server = await serveHttp(make, { port: 0 });
  const client = new Client({ name: "avaspec-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return { client, server, close: async () => { await client.close(); await server.close(); } };
}

/** A tool call's text (its one text content). */
export function textOf(result: unknown): string {
  const r = result as CallToolResult;
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { text: textOf(r), isError: r.isError === true };
}
