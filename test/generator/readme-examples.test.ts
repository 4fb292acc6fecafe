/**
 * The generated README of every package (ours and each fixture's golden)
 * documents each entry point with examples that compile against the package:
 * its `ts` blocks go through the real tsc (see test/helpers/readme.ts).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";
import { readmeModules, typecheckReadme } from "../helpers/readme.js";

const packages = ["generated", ...readdirSync(join(ROOT, "test/fixtures")).map((f) => `test/fixtures/${f}/golden`).filter((d) => existsSync(join(ROOT, d, "README.md")))];

function load(dir: string) {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown>; bin?: Record<string, string> };
  return { pkg, readme: readFileSync(join(ROOT, dir, "README.md"), "utf8") };
}

describe.each(packages)("%s/README.md", (dir) => {
  it("compiles: every TypeScript example type-checks against the package", () => {
    const { pkg, readme } = load(dir);
    const r = typecheckReadme(readme, join(ROOT, dir), pkg.name);
    expect(r.modules.length).toBeGreaterThan(0);
    expect(r.output).toBe("");
    expect(r.status).toBe(0);
  });

  it("has an example for each entry point the package exports, and no section for one it does not", () => {
    const { pkg, readme } = load(dir);
    const code = readmeModules(readme)
      .map((m) => m.code)
      .join("\n");
    const imported = (subpath: string) => code.includes(`from ${JSON.stringify(subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`)}`);
    for (const entry of Object.keys(pkg.exports).filter((e) => !e.includes("*") && e !== "./package.json")) expect(imported(entry), `an example imports ${entry}`).toBe(true);
    const mocked = "./mocks" in pkg.exports;
    expect(readme.includes("## Mocks with MSW"), "MSW section").toBe(mocked);
    expect(readme.includes("## Mock server"), "mock server section").toBe(mocked);
    if (mocked) {
      expect(code).toContain("mocks.override(");
      expect(code).toMatch(/startMockServer\(\{ port: 0, seed: 1, log: null \}\)/);
      // the command the README names is the one package.json installs
      const [command] = Object.keys(pkg.bin ?? {});
      expect(command).toBeDefined();
      expect(readme).toContain(`npx ${command} --port 4010 --seed 1`);
    } else expect(Object.keys(pkg.bin ?? {}).filter((b) => pkg.bin![b] !== "dist/mcp/cli.js")).toEqual([]);
    // the MCP command the README names is the one package.json installs, named like the package (what npx runs)
    const mcp = "./mcp" in pkg.exports;
    expect(readme.includes("## MCP server"), "MCP section").toBe(mcp);
    if (mcp) expect(readme).toContain(`${pkg.name.replace(/^@[^/]+\//, "")} mcp`);
    if (mcp) expect(pkg.bin?.[pkg.name.replace(/^@[^/]+\//, "")]).toBe("dist/mcp/cli.js");
    // pagination and batching only where the spec has them
    const clientSources = Object.keys(pkg.exports)
      .filter((e) => existsSync(join(ROOT, dir, "src", e.slice(2), "client.ts")))
      .map((e) => readFileSync(join(ROOT, dir, "src", e.slice(2), "client.ts"), "utf8"))
      .join("\n");
    expect(readme.includes("## Pagination"), "pagination section").toBe(clientSources.includes("PagedMethod<"));
    if (readme.includes("## Pagination")) expect(code).toMatch(/\.iterate\([\s\S]*\.pages\(/);
    expect(readme.includes("## Batching"), "batching section").toBe(/^\s*batch<const R/m.test(clientSources));
    if (readme.includes("## Batching")) expect(code).toContain(".batch((c) =>");
    // a WebSocket section where a client has a WebSocket form: open it, call over it, subscribe (iterator and callbacks), close it
    const sockets = /^\s*readonly ws: /m.test(clientSources);
    expect(readme.includes("## WebSocket"), "WebSocket section").toBe(sockets);
    if (/readonly subscribe: \{\s*(\/\*\*|\w)/.test(clientSources)) {
      const section = readmeModules(readme).find((m) => m.heading.startsWith("WebSocket"))!.code;
      for (const part of [/\.ws\.subscribe\.\w+\(/, /for await \(const \w+ of /, /onData: /, /\.unsubscribe\(\)/, /\.ws\.close\(\)/]) expect(section).toMatch(part);
      expect(readme).toMatch(/\*\*Reconnect\*\*/);
    }
    // Standard Schema where there is a named schema; a package without any shows an operation's params validator
    if (readme.includes("## Validators")) expect(code).toMatch(/\["~standard"\]\.validate\(|validate\w+Params\(/);
  });
});

describe.each(packages)("%s/README.md speaks of the package's own protocols", (dir) => {
  it("JSON-RPC only when a module has JSON-RPC methods, HTTP operations only when one has some", () => {
    const { pkg, readme } = load(dir);
    const modules = Object.keys(pkg.exports).filter((e) => existsSync(join(ROOT, dir, "src", e.slice(2), "client.ts")));
    const source = (m: string, file: string) => (existsSync(join(ROOT, dir, "src", m.slice(2), file)) ? readFileSync(join(ROOT, dir, "src", m.slice(2), file), "utf8") : "");
    const rpc = modules.some((m) => source(m, "client.ts").includes(": RpcMethod<"));
    const http = modules.some((m) => source(m, "operations.d.ts").includes("HttpOperation<"));
    expect(rpc || http, "the package has a client").toBe(true);
    for (const text of ["JSON-RPC", "RpcError", "RpcProtocolError", "x-avaspec-idempotent", "createRpcTransport", "<method>Method", "rpcError", "retryOnRpcCodes"]) expect(readme.includes(text), text).toBe(rpc);
    for (const text of ["callHttp", "<operation>Operation", "operationServers", "HTTP handlers", "Idempotent requests (GET"]) expect(readme.includes(text), text).toBe(http);
    // the tree-shakable functions it names are the package's own
    const named = /named by group and method \(([^)]*)\)/.exec(readme)?.[1] ?? "";
    for (const [, name] of named.matchAll(/`(\w+)`/g)) expect(modules.some((m) => new RegExp(`\\b${name}\\b`).test(source(m, "client.ts") + source(m, "functions.d.ts"))), name!).toBe(true);
  });
});

describe("the README check", () => {
  it("fails on an example that calls a method the client does not have, naming it", () => {
    const { pkg, readme } = load("test/fixtures/petstore-30/golden");
    const broken = readme.replace(/(const result = await api\.)(\w+)\(/, "$1$2Typo(");
    expect(broken).not.toBe(readme);
    const r = typecheckReadme(broken, join(ROOT, "test/fixtures/petstore-30/golden"), pkg.name);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/Property '\w+Typo' does not exist/);
    expect(r.output).toContain("[## Petstore");
  });

  it("fails on a global example whose argument has the wrong type", () => {
    const { pkg, readme } = load("generated");
    const broken = readme.replace("const mocks = createMocks({ seed: 1 });", 'const mocks = createMocks({ seed: "1" });');
    expect(broken).not.toBe(readme);
    const r = typecheckReadme(broken, join(ROOT, "generated"), pkg.name);
    expect(r.status).not.toBe(0);
    expect(r.output).toContain("[## Mocks with MSW");
  });
});

describe("a package generated with fewer targets", () => {
  it.each([
    ["types,validators,client", "features-31"],
    ["types,validators", "rpc-by-name"],
  ])("--targets %s (%s): the README leaves out what the package does not have, and still compiles", (targets, fixture) => {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-readme-"));
    try {
      const r = runCli(["generate", "--input", join(ROOT, `test/fixtures/${fixture}/spec.yaml`), "--out", "pkg", "--name", "@me/pkg", "--targets", targets], dir);
      expect(r.status, r.stderr).toBe(0);
      const readme = readFileSync(join(dir, "pkg/README.md"), "utf8");
      for (const section of ["## Mocks with MSW", "## Mock server", "/mocks", "msw"]) expect(readme).not.toContain(section);
      const client = targets.includes("client");
      for (const section of ["## Errors", "## Retries and timeouts", "## Smallest bundles", "## Batching", "## Pagination"]) if (!client) expect(readme).not.toContain(section);
      expect(readme).toContain("## Validators");
      const check = typecheckReadme(readme, join(dir, "pkg"), "@me/pkg");
      expect(check.output).toBe("");
      expect(check.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an example of a oneOf list whose items are of different branches", () => {
  // each item is fitted to its own branch (the one its fixed `type` names), not to the first branch that has a member
  // of that name: fitted to Native's closed `params`, the erc20 item would lose `contract` and no longer compile
  const branch = (type: string, params: Record<string, unknown>) => ({ type: "object", required: ["type", "params"], properties: { type: { type: "string", enum: [type] }, params: { type: "object", required: Object.keys(params), properties: params } } });
  const doc = {
    openapi: "3.1.0",
    info: { title: "Queries", version: "1" },
    paths: {
      "/query": {
        post: {
          operationId: "runQuery",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Query" },
                example: { parts: [{ type: "native", params: { minBalance: "1" } }, { type: "erc20", params: { minBalance: "2", contract: "0xabc" } }] },
              },
            },
          },
          responses: { "204": { description: "done" } },
        },
      },
    },
    components: {
      schemas: {
        Query: { type: "object", required: ["parts"], properties: { parts: { type: "array", items: { oneOf: [{ $ref: "#/components/schemas/Native" }, { $ref: "#/components/schemas/Erc20" }] } } } },
        Native: branch("native", { minBalance: { type: "string" } }),
        Erc20: branch("erc20", { minBalance: { type: "string" }, contract: { type: "string" } }),
      },
    },
  };

  it("keeps each item's own members, and compiles", () => {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-readme-"));
    try {
      writeFileSync(join(dir, "doc.json"), JSON.stringify(doc));
      const r = runCli(["generate", "--input", "doc.json", "--out", "pkg", "--name", "@me/pkg", "--targets", "types,validators,client"], dir);
      expect(r.status, r.stderr).toBe(0);
      const readme = readFileSync(join(dir, "pkg/README.md"), "utf8");
      expect(readme).toContain('parts: [{ type: "native", params: { minBalance: "1" } }, { type: "erc20", params: { minBalance: "2", contract: "0xabc" } }]');
      const check = typecheckReadme(readme, join(dir, "pkg"), "@me/pkg");
      expect(check.output).toBe("");
      expect(check.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
