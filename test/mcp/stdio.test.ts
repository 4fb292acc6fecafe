/**
 * Issue 29: the package's own command, `<package> mcp` (its `bin`,
 * src/mcp/cli.ts), as a real process that an agent starts, reached over stdio
 * by the SDK's `Client` and `StdioClientTransport`: for @avaspec/client and
 * for a package generated from a one-off OpenAPI document (the petstore
 * fixture), each against its own mock server. Base URLs and the API key come
 * from the environment; the key never comes back, even when the server echoes it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { startMockServer as startPetstoreMock } from "../fixtures/petstore-30/golden/src/mock-server/index.js";
import type { RunningMockServer } from "../fixtures/petstore-30/golden/src/runtime/mock/server.js";
import { runCli } from "../helpers/cli.js";
import { call } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = fileURLToPath(new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url));

/** The package's bin as a process on stdio; its stderr kept for the assertions. */
async function startCli(cli: string, args: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", TSX, cli, "mcp", ...args], cwd: ROOT, env: { PATH: process.env["PATH"] ?? "", ...env }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "avaspec-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

const KEY = "glacier-test-key-4f1d9a";

describe("@avaspec/client mcp over stdio", () => {
  let mock: MockServer;
  let cli: Awaited<ReturnType<typeof startCli>>;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 1, log: null });
    cli = await startCli("generated/src/mcp/cli.ts", ["--mode", "tools", "--include", "dataApi.supportedChains", "--include", "node.info.*", "--include", "node.cChain.eth.sendRawTransaction"], { AVASPEC_MCP_BASE_URL: mock.url, AVASPEC_MCP_API_KEY: KEY });
  });
  afterAll(async () => {
    await cli?.close();
    await mock?.close();
  });

  it("initializes, says on stderr how it serves, and lists the chosen tools", async () => {
    expect(cli.client.getServerVersion()).toMatchObject({ name: "@avaspec/client" });
    expect(cli.stderr()).toContain("client mcp: tools mode, read-only, on stdio");
    const { tools } = await cli.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["dataApi_supportedChains", "node_cChain_eth_sendRawTransaction", ...["acps", "getBlockchainID", "getNetworkID", "getNetworkName", "getNodeID", "getNodeIP", "getNodeVersion", "getTxFee", "getVMs", "isBootstrapped", "peers", "upgrades", "uptime"].map((m) => `node_info_${m}`)].sort());
  });

  it("calls the mock server through the clients: an HTTP operation and a JSON-RPC method", async () => {
    const chains = await call(cli.client, "dataApi_supportedChains");
    expect(chains.isError, chains.text).toBe(false);
    expect(JSON.parse(chains.text)).toHaveProperty("chains");
    const version = await call(cli.client, "node_info_getNodeVersion");
    expect(JSON.parse(version.text)).toHaveProperty("version");
  });

  it("refuses a write and keeps serving", async () => {
    const refused = await call(cli.client, "node_cChain_eth_sendRawTransaction", { signedTransaction: "0x00" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("restart it with --allow node.cChain.eth.sendRawTransaction (this one), or --allow-writes");
    expect((await call(cli.client, "node_info_getNodeID")).isError).toBe(false);
  });

  it("never returns the API key, not even when the server echoes it", async () => {
    mock.override("supportedChains", { body: { chains: [], note: `you sent ${KEY}` } as never });
    try {
      const echoed = await call(cli.client, "dataApi_supportedChains");
      expect(echoed.text).toContain("you sent [redacted]");
      expect(echoed.text).not.toContain(KEY);
    } finally {
      mock.reset();
    }
    mock.override("supportedChains", { status: 401, body: { message: `bad key ${KEY}`, statusCode: 401, error: "Unauthorized" } as never });
    try {
      const failed = await call(cli.client, "dataApi_supportedChains");
      expect(failed.isError).toBe(true);
      expect(failed.text).toMatch(/^UnauthorizedError \(HTTP 401\): supportedChains failed with 401 Unauthorized: bad key \[redacted\]/);
    } finally {
      mock.reset();
    }
  });
});

describe("a package generated from a one-off OpenAPI document (petstore-30), over stdio", () => {
  let mock: RunningMockServer;
  let cli: Awaited<ReturnType<typeof startCli>>;
  beforeAll(async () => {
    mock = await startPetstoreMock({ port: 0, seed: 1, log: null });
    cli = await startCli("test/fixtures/petstore-30/golden/src/mcp/cli.ts", ["--base-url", `api=${mock.url}`], {});
  });
  afterAll(async () => {
    await cli?.close();
    await mock?.close();
  });

  it("code mode: search names the operations and their access", async () => {
    expect(cli.client.getServerVersion()).toMatchObject({ name: "@fixtures/petstore-30" });
    const { tools } = await cli.client.listTools();
    expect(tools.map((t) => t.name)).toContain("search");
    const found = await call(cli.client, "search", { query: "pet by id" });
    expect(found.text.split("\n")[0]).toBe("## api.getPetById — GET /pets/{petId}; read-only");
    expect((await call(cli.client, "search", { query: "delete pet" })).text).toMatch(/## api\.deletePet — DELETE \/pets\/\{petId\}; writes \(destructive\)/);
  });
});

describe("closing the input", () => {
  it("answers what was asked before the input closed, then exits 0 (a client that writes its request and closes at once)", async () => {
    const mock = await startPetstoreMock({ port: 0, seed: 1, log: null });
    // the call is still in flight when the input closes
    mock.override("getPetById", { delay: 400 });
    try {
      const child = spawn(process.execPath, ["--import", TSX, "test/fixtures/petstore-30/golden/src/mcp/cli.ts", "mcp", "--mode", "tools", "--base-url", `api=${mock.url}`], { cwd: ROOT, env: { PATH: process.env["PATH"] ?? "" }, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.resume();
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      const lines = [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "avaspec-test", version: "1.0.0" } } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "api_getPetById", arguments: { petId: 7 } } },
      ];
      child.stdin.end(lines.map((l) => JSON.stringify(l) + "\n").join(""));
      expect(await exited).toBe(0);
      const answers = stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id?: number; result?: { isError?: boolean; content?: { text?: string }[] } });
      expect(answers.map((a) => a.id)).toEqual([1, 2]);
      expect(answers[1]!.result?.isError ?? false, answers[1]!.result?.content?.[0]?.text).toBe(false);
      expect(JSON.parse(answers[1]!.result!.content![0]!.text!)).toHaveProperty("id");
    } finally {
      await mock.close();
    }
  }, 30_000);
});

describe("avaspec mcp", () => {
  it("is in avaspec's help, and says what to do when the package is not built or the options clash", () => {
    expect(runCli(["--help"]).stdout).toContain("avaspec mcp [--config <file> | --dir <package>] [--mode code|tools]");
    const empty = mkdtempSync(join(tmpdir(), "avaspec-mcp-"));
    try {
      const r = runCli(["mcp", "--dir", empty]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("dist/mcp/index.js does not exist; generate the package (with a client, and package.mcp not false) and build it first");
      const both = runCli(["mcp", "--dir", empty, "--config", "x.json"]);
      expect(both.status).toBe(2);
      expect(both.stderr).toContain("avaspec: --dir and --config do not go together");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
