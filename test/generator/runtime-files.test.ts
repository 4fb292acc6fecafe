/**
 * A generated package ships the runtime files its own modules reach, and no
 * others: an OpenAPI-only package carries no JSON-RPC or WebSocket client
 * code (nor re-exports it), one without mocks no mock code, and every
 * runtime file a package holds is imported, directly or through other
 * runtime files, by its modules. The reachability is computed here from the
 * files' text, apart from the generator's own closure.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../generator/config.js";
import { generate } from "../../generator/generate.js";
import { exportedNames, runtimeImportsOf } from "../../generator/emit/runtime-files.js";
import { ts } from "ts-morph";
import { ROOT } from "../helpers/cli.js";

/** A runtime file of the JSON-RPC or WebSocket client: the transports, EIP-1193, endpoint binding, the WebSocket pieces. */
const RPC_OR_WS = /^src\/runtime\/(.*[/-])?(jsonrpc|eip1193|endpoints|ws)([/.-]|$)/;
const MOCK = /^src\/runtime\/(.*[/-])?(mock|msw)([/.-]|$)/;

function generated(fixture: string, targets?: string[]): Map<string, string> {
  const config = loadConfig(join(ROOT, `test/fixtures/${fixture}/avaspec.config.json`));
  const inputs = targets ? config.inputs.map((i) => ({ ...i, targets: targets as never })) : config.inputs;
  const { files, diagnostics } = generate({ ...config, inputs });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return files;
}

const runtimeOf = (files: ReadonlyMap<string, string>) => [...files.keys()].filter((p) => p.startsWith("src/runtime/")).sort();

/** The runtime files reachable from the package's other modules, following every relative import and re-export. */
function reachable(files: ReadonlyMap<string, string>): string[] {
  const seen = new Set<string>();
  const todo = [...files.keys()].filter((p) => /^src\/.*\.(ts|js)$/.test(p) && !p.startsWith("src/runtime/"));
  while (todo.length > 0) {
    const path = todo.pop()!;
    for (const m of files.get(path)!.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"(\.{1,2}\/[^"]+)"/g)) {
      const target = posix.normalize(posix.join(posix.dirname(path), m[1]!)).replace(/\.js$/, ".ts");
      if (!target.startsWith("src/runtime/") || seen.has(target)) continue;
      expect(files.has(target), `${path} imports ${m[1]}, which the package does not have`).toBe(true);
      seen.add(target);
      todo.push(target);
    }
  }
  return [...seen].sort();
}

function packageFiles(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) {
      if (name !== "node_modules" && name !== "dist") for (const [p, t] of packageFiles(dir, rel)) out.set(p, t);
    } else if (/\.(ts|js)$/.test(name)) out.set(rel, readFileSync(join(dir, rel), "utf8"));
  }
  return out;
}

describe("the runtime a package ships", () => {
  it("an OpenAPI-only package without mocks has no JSON-RPC, WebSocket or mock file, and its root exports no JSON-RPC API", () => {
    const files = generated("petstore-30", ["types", "validators", "client"]);
    const runtime = runtimeOf(files);
    expect(runtime.filter((p) => RPC_OR_WS.test(p) || MOCK.test(p))).toEqual([]);
    expect(runtime).toContain("src/runtime/http/http.ts");
    expect(files.get("src/index.ts")).not.toMatch(/jsonrpc|ws\//);
  });

  it("an OpenAPI-only package with mocks has the mock runtime but no JSON-RPC or WebSocket client", () => {
    const files = generated("petstore-30");
    const runtime = runtimeOf(files);
    expect(runtime.filter((p) => RPC_OR_WS.test(p) && !/mock/.test(p))).toEqual([]);
    expect(runtime).toContain("src/runtime/mock/service.ts");
  });

  it("the mocks of an OpenAPI-only package bring no JSON-RPC answering, synthetic chain or WebSocket serving; a JSON-RPC package's no WebSocket serving without WebSocket paths", () => {
    const rpcSide = ["src/runtime/mock/rpc.ts"];
    const chainAndSockets = ["chain.ts", "socket-hub.ts", "msw-ws.ts", "server-ws.ts", "ws-server.ts", "ws-frames.ts"].map((f) => `src/runtime/mock/${f}`);
    const petstore = runtimeOf(generated("petstore-30"));
    expect(petstore).toContain("src/runtime/mock/server.ts");
    expect(petstore).toContain("src/runtime/mock/msw.ts");
    expect(petstore.filter((p) => [...rpcSide, ...chainAndSockets].includes(p))).toEqual([]);
    for (const dir of ["petstore-30", "pagination-31", "recursive-31"]) expect(packageFiles(join(ROOT, "test/fixtures", dir, "golden")).get("src/mocks/index.ts"), dir).not.toMatch(/push\(|WebSocket|socket-hub/);
    const rpcOnly = runtimeOf(generated("rpc-by-name"));
    expect(rpcOnly).toEqual(expect.arrayContaining(rpcSide));
    expect(rpcOnly.filter((p) => chainAndSockets.includes(p))).toEqual([]);
    // @avaspec/client has JSON-RPC methods and a WebSocket path: every piece, as before
    expect(runtimeOf(packageFiles(join(ROOT, "generated")))).toEqual(expect.arrayContaining([...rpcSide, ...chainAndSockets]));
  });

  it("a JSON-RPC package has the JSON-RPC client; types alone bring neither client nor mocks", () => {
    expect(runtimeOf(generated("rpc-by-name"))).toContain("src/runtime/jsonrpc/jsonrpc.ts");
    const typesOnly = runtimeOf(generated("rpc-by-name", ["types"]));
    expect(typesOnly.filter((p) => RPC_OR_WS.test(p) || MOCK.test(p) || p.startsWith("src/runtime/http/"))).toEqual([]);
  });

  it("every runtime file a package holds is reached from its modules, in generated/ and every fixture's golden", () => {
    const dirs = [join(ROOT, "generated"), ...readdirSync(join(ROOT, "test/fixtures")).map((f) => join(ROOT, "test/fixtures", f, "golden")).filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory())];
    for (const dir of dirs) {
      const files = packageFiles(dir);
      expect(runtimeOf(files), dir).toEqual(reachable(files));
    }
  });

  it("a fresh generation ships exactly the reachable runtime, for targets with and without mocks", () => {
    for (const [fixture, targets] of [["petstore-30", undefined], ["petstore-30", ["types", "validators"]], ["rpc-endpoint-variables", undefined], ["wire-forms-31", ["types", "client"]]] as const) {
      const files = generated(fixture, targets ? [...targets] : undefined);
      expect(runtimeOf(files), fixture).toEqual(reachable(files));
    }
  });
});

describe("reading the runtime's exports and every file's imports as text (no TypeScript in a generation)", () => {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));

  it("finds the names TypeScript finds a runtime file exporting", () => {
    for (const file of walk(join(ROOT, "runtime")).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith("index.ts"))) {
      const text = readFileSync(file, "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
      const names: string[] = [];
      for (const s of source.statements) {
        if (ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause)) names.push(...s.exportClause.elements.map((e) => e.name.text));
        const exported = ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported) continue;
        if (ts.isVariableStatement(s)) names.push(...s.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : [])));
        else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) names.push(s.name.text);
      }
      expect(exportedNames(text).sort(), file).toEqual(names.sort());
    }
  });

  it("finds the runtime imports TypeScript's pre-processor finds, in the runtime and in generated/", () => {
    const files = [...walk(join(ROOT, "runtime")), ...walk(join(ROOT, "generated/src"))].filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"));
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const path = posix.join("src", file.startsWith(join(ROOT, "runtime")) ? "runtime" : "", posix.relative(file.startsWith(join(ROOT, "runtime")) ? join(ROOT, "runtime") : join(ROOT, "generated/src"), file));
      const expected = ts
        .preProcessFile(text, true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((f) => f.startsWith("."))
        .map((f) => posix.normalize(posix.join(posix.dirname(path), f)).replace(/\.js$/, ".ts"))
        .filter((t) => t.startsWith("src/runtime/"));
      expect(runtimeImportsOf(path, text).sort(), file).toEqual(expected.sort());
    }
  });
});
