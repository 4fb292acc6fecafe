/**
 * The package as users get it: `npm pack` in generated/, installed from the
 * tarball into a clean temporary project (offline, scripts off), then used
 * from a Node ESM script against a loopback mock and from TypeScript under
 * both `nodenext` and `bundler` resolution. publint and
 * @arethetypeswrong/cli check the tarball too.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, run, tempDir, tool, type PackResult } from "./helpers.js";


let tarball: string;
let packed: PackResult;
let project: string;

const npm = (args: string[], cwd: string) => run("npm", args, { cwd, env: { npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" }, timeout: 300_000 });

beforeAll(async () => {
  const out = tempDir("pack");
  // prepack builds dist/ with tsc
  const r = await npm(["pack", "--json", "--pack-destination", out], join(ROOT, "generated"));
  expect(r.code, r.stderr).toBe(0);
  packed = (JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as PackResult[])[0]!;
  tarball = join(out, packed.filename);
  console.log(`${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes packed`);

  project = tempDir("consumer");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const i = await npm(["install", "--ignore-scripts", "--offline", "--no-package-lock", tarball], project);
  expect(i.code, i.stderr).toBe(0);
}, 600_000);

describe("the tarball", () => {
  it("holds dist (JS + .d.ts), src, the bundled spec documents, the README and the CHANGELOG, and nothing else", () => {
    const paths = packed.files.map((f) => f.path);
    const top = [...new Set(paths.map((p) => p.split("/")[0]))].sort();
    expect(top).toEqual(["CHANGELOG.md", "README.md", "dist", "package.json", "spec", "src"]);
    // the version is the one the ledger derived from the specs' info.version
    const ledger = JSON.parse(readFileSync(join(ROOT, "generated/versions.json"), "utf8")) as { version: string };
    expect(packed.version).toBe(ledger.version);
    expect(paths).not.toContain("versions.json");
    for (const entry of ["index", "data-api/index", "metrics-api/index", "node/index", "mocks/index", "mock-server/index"]) {
      expect(paths).toContain(`dist/${entry}.js`);
      expect(paths).toContain(`dist/${entry}.d.ts`);
    }
    // 3 OpenAPI and 20 OpenRPC documents (issue 27: the Subnet-EVM L1's two are generated too)
    expect(paths.filter((p) => p.startsWith("spec/"))).toHaveLength(23);
    expect(paths.some((p) => p.includes(".test.") || p.startsWith("test/"))).toBe(false);
  });

  it("installs with zero runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(project, "node_modules/@avaspec/client/package.json"), "utf8"));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependenciesMeta?.msw?.optional).toBe(true);
    // the MCP server's SDK is an optional peer too (ADR 0021): installing the clients brings none of it
    expect(pkg.peerDependenciesMeta?.["@modelcontextprotocol/sdk"]?.optional).toBe(true);
    const lock = JSON.parse(readFileSync(join(project, "node_modules/.package-lock.json"), "utf8"));
    expect(Object.keys(lock.packages)).toEqual(["node_modules/@avaspec/client"]);
  });

  it("ships the spec documents other tools load from node_modules", () => {
    const doc = JSON.parse(readFileSync(join(project, "node_modules/@avaspec/client/spec/data-api.openapi.json"), "utf8"));
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  });

  it("works from a Node ESM script: Data API and node JSON-RPC calls against the package's own loopback mock", async () => {
    writeFileSync(
      join(project, "main.mjs"),
      `import { startMockServer } from "@avaspec/client/mock-server";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createNodeClient } from "@avaspec/client/node";
import { ApiError } from "@avaspec/client";
import spec from "@avaspec/client/spec/node-info.openrpc.json" with { type: "json" };

const mock = await startMockServer({ port: 0, log: null });
try {
  const data = createDataApiClient({ baseUrl: mock.url, validateResponse: "strict" });
  const chain = await data.getChainInfo({ chainId: "43114" });
  const node = createNodeClient({ baseUrl: mock.url, validateResponse: "strict" });
  const { version } = await node.info.getNodeVersion();
  const missing = await data.getChainInfo({ chainId: "" }).catch((e) => e);
  console.log(JSON.stringify({ chainName: chain.chainName, version, validation: missing.name, isApiError: missing instanceof ApiError, methods: spec.methods.length }));
} finally {
  await mock.close();
}
`,
    );
    const r = await run(process.execPath, ["main.mjs"], { cwd: project });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ validation: "ValidationError", isApiError: false, methods: 13 });
    expect(typeof out.chainName).toBe("string");
    expect(out.version).toMatch(/^avalanchego\//);
  });

  it("its mcp command, without the SDK installed, says what to run instead", async () => {
    const r = await run(join(project, "node_modules/.bin/client"), ["mcp"], { cwd: project });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("client mcp: the MCP server needs @modelcontextprotocol/sdk, an optional peer dependency of @avaspec/client (code mode's execute also needs quickjs-emscripten-core, @jitl/quickjs-wasmfile-release-sync, sucrase): install them beside the package (npm install @modelcontextprotocol/sdk quickjs-emscripten-core @jitl/quickjs-wasmfile-release-sync sucrase), or run npx -y -p @avaspec/client -p @modelcontextprotocol/sdk -p quickjs-emscripten-core -p @jitl/quickjs-wasmfile-release-sync -p sucrase client mcp\n");
  });

  it("with the SDK installed beside it, `npx client mcp` serves an MCP client over stdio", async () => {
    const dir = tempDir("consumer-mcp");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer-mcp", private: true, type: "module" }));
    const i = await npm(["install", "--ignore-scripts", "--offline", "--no-package-lock", tarball, "@modelcontextprotocol/sdk", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "sucrase"], dir);
    expect(i.code, i.stderr).toBe(0);
    const transport = new StdioClientTransport({ command: "npx", args: ["--offline", "--no-install", "client", "mcp", "--base-url", "http://127.0.0.1:9"], cwd: dir, stderr: "pipe" });
    const client = new Client({ name: "interop", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("@avaspec/client");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search");
      const found = (await client.callTool({ name: "search", arguments: { query: "getNodeVersion" } })) as { content: { type: string; text: string }[] };
      expect(found.content[0]!.text).toContain("node.info.getNodeVersion");
      // execute runs in the sandbox from the installed packages; the mock-less base URL makes the client call fail, as a message
      const ran = (await client.callTool({ name: "execute", arguments: { code: "return [1, 2, 3].map((x) => x * 2);" } })) as { content: { type: string; text: string }[]; isError?: boolean };
      expect(ran.isError).toBeUndefined();
      expect(JSON.parse(ran.content[0]!.text)).toEqual([2, 4, 6]);
    } finally {
      await client.close();
    }

    // an agent ends a stdio server by closing its input: after a snippet has run, the server exits by itself (it used to
    // stay alive on the sandbox worker's output streams, an orphan once npx was killed)
    const server = spawn(process.execPath, [join(dir, "node_modules/.bin/client"), "mcp", "--base-url", "http://127.0.0.1:9"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => server.once("exit", (code, signal) => resolve({ code, signal })));
    const answered = new Promise<void>((resolve) => {
      let out = "";
      server.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes('"id":3')) resolve();
      });
    });
    const send = (m: object) => server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "interop", version: "1" } } });
    send({ method: "notifications/initialized" });
    send({ id: 3, method: "tools/call", params: { name: "execute", arguments: { code: "return 1 + 1;" } } });
    await answered;
    server.stdin.end();
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 300_000);

  const usage = `import { createDataApiClient, type DataApiClient } from "@avaspec/client/data-api";
import { createNodeClient } from "@avaspec/client/node";
import { AvaspecError, RateLimitError } from "@avaspec/client";
import type { ChainInfo } from "@avaspec/client/data-api";

export async function use(): Promise<string> {
  const data: DataApiClient = createDataApiClient({ retry: { retries: 1 }, timeoutMs: 5_000 });
  const chain: ChainInfo = await data.getChainInfo({ chainId: "43114" });
  for await (const tx of data.listErc20Transactions.iterate({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" }, { limit: 1 })) console.log(tx.logIndex);
  const node = createNodeClient();
  const height: bigint = await node.cChain.eth.blockNumber();
  const e: unknown = null;
  if (e instanceof RateLimitError) console.log(e.retryAfterMs);
  if (e instanceof AvaspecError) console.log(e.attempts);
  return chain.chainName + height;
}
`;

  it.each(["nodenext", "bundler"])("type-checks from TypeScript with moduleResolution %s", async (resolution) => {
    const dir = join(project, `ts-${resolution}`);
    mkdirSync(dir, { recursive: true });
    const compilerOptions = { strict: true, noEmit: true, target: "es2022", lib: ["es2022", "dom"], types: [], module: resolution === "bundler" ? "esnext" : "nodenext", moduleResolution: resolution };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["use.ts"] }));
    writeFileSync(join(dir, "use.ts"), usage);
    const ok = await tool("tsc", ["-p", dir]);
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    // control: a wrong parameter name fails
    writeFileSync(join(dir, "use.ts"), usage.replace('{ chainId: "43114" });\n  for', '{ chainID: "43114" });\n  for'));
    const bad = await tool("tsc", ["-p", dir]);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain("chainID");
  });

  it("publint reports no errors or warnings", async () => {
    const r = await tool("publint", ["run", tarball, "--level", "suggestion"]);
    expect(r.stdout + r.stderr).not.toMatch(/error|warning/i);
    expect(r.code).toBe(0);
  });

  it("@arethetypeswrong/cli finds no problems (ESM-only profile)", async () => {
    const r = await tool("attw", [tarball, "--profile", "esm-only", "--format", "json"]);
    const report = JSON.parse(r.stdout) as { analysis: { problems: { kind: string; entrypoint: string; resolutionKind?: string }[] } };
    // the esm-only profile ignores CommonJS resolution (node10, node16 from CJS): the package is ESM only
    const counted = report.analysis.problems.filter((p) => p.resolutionKind !== "node10" && p.resolutionKind !== "node16-cjs");
    expect(counted).toEqual([]);
    expect(r.code).toBe(0);
  });
});
