/**
 * The package README's MCP section: how to add the server to an agent, run
 * it, and make it from code. Built from the catalog's names, each value
 * through the escaping choke point; the code example compiles against the
 * package (test/generator/readme-examples.test.ts).
 */
import type { PackageConfig } from "../../config.js";
import type { PackageInput } from "../package/examples.js";
import { stringLiteral } from "../escape.js";
import { buildCatalog } from "./catalog.js";
import { hasMcp, MCP_PEERS, npxLine, packageCommandName } from "./index.js";

/** The section's values: empty strings when the package has no MCP entry (the template leaves the section out). */
export function mcpReadme(pkg: PackageConfig, inputs: readonly PackageInput[]): { mcp: string; mcpCommand: string; mcpAgent: string; mcpCommandName: string } {
  if (!hasMcp(pkg, inputs)) return { mcp: "", mcpCommand: "", mcpAgent: "", mcpCommandName: "" };
  const catalog = buildCatalog(pkg.name, inputs)!;
  const command = packageCommandName(pkg.name);
  const first = catalog.clients[0]!;
  const write = catalog.operations.find((op) => !op.access.readOnly);
  const tools = `${first.name}.**`;
  const mcp = [
    `import { createMcpServer, serveHttp, serveStdio } from ${stringLiteral(`${pkg.name}/mcp`)};`,
    "",
    "// code mode, read-only, on stdio: what an agent starts as a command",
    "await serveStdio(createMcpServer({ clients: { baseUrl: \"http://127.0.0.1:4010\" } }));",
    "",
    `// tools mode over Streamable HTTP on 127.0.0.1: one tool per operation of ${first.name}${write ? ", one write allowed" : ""}`,
    "const http = await serveHttp(",
    `  () => createMcpServer({ mode: "tools", tools: { include: [${stringLiteral(tools)}] }${write ? `, policy: { allowWrites: false, allow: [${stringLiteral(write.path.join("."))}] }` : ""} }),`,
    "  { port: 3000 },",
    ");",
    "console.log(http.url); // http://127.0.0.1:3000/mcp",
  ].join("\n");
  const shell = (s: string) => (/^[\w@./:=*-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const mcpCommand = [
    `${npxLine(shell(pkg.name), shell(command))}   # code mode on stdio, read-only`,
    `npx ${shell(command)} mcp --mode tools --include ${shell(tools)} --http 3000     # with the package and the SDK installed`,
    `AVASPEC_MCP_BASE_URL=http://127.0.0.1:4010 npx ${shell(command)} mcp --allow-writes # every client against one origin, writes allowed`,
  ].join("\n");
  const mcpAgent = JSON.stringify({ mcpServers: { [command]: { command: "npx", args: ["-y", ...[pkg.name, ...MCP_PEERS].flatMap((p) => ["-p", p]), command, "mcp"], ...(catalog.clients.some((c) => c.apiKey) ? { env: { AVASPEC_MCP_API_KEY: "<your key>" } } : {}) } } }, null, 2);
  return { mcp, mcpCommand, mcpAgent, mcpCommandName: command };
}
