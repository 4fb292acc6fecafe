/**
 * A generated package stands on its own:
 * - its browser-facing entry points (everything but `mock-server`) compile
 *   without Node's types, so no Node-only global (`Buffer`, `process`…) hides
 *   in them behind the mock server's `/// <reference types="node" />`;
 * - copied out of this repository, `npm install` + `npm run build` pass with
 *   only what its package.json declares, with MSW installed (MSW's real types
 *   checked) and without it; a consumer of the other entry points needs
 *   neither MSW nor @types/node; its mock server command runs.
 * The npm part installs from the npm cache when it can (`--prefer-offline`):
 * TypeScript, @types/node and MSW, a few seconds per package.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TYPESCRIPT_RANGE } from "../../generator/emit/package/index.js";
import { ROOT, runCli } from "../helpers/cli.js";

const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const packages = ["generated", ...readdirSync(join(ROOT, "test/fixtures")).map((f) => `test/fixtures/${f}/golden`).filter((d) => existsSync(join(ROOT, d, "tsconfig.json")))];

interface Manifest {
  name: string;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: { node?: string };
}
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
/** The subpaths of the package's modules (`.`, `./api`, `./mocks`…), without `./spec/*` and `./package.json`. */
const entries = (m: Manifest) => Object.keys(m.exports).filter((e) => !e.includes("*") && e !== "./package.json");

function tsc(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [TSC, ...args, "--pretty", "false"], { cwd, encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

/** A tsconfig in a fresh folder under .tmp (so msw resolves from this repository), its `files` given. */
function project(name: string, compilerOptions: Record<string, unknown>, files: string[], extra: Record<string, string> = {}): string {
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, ".tmp", `${name}-`));
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [...files, ...Object.keys(extra)] }));
  return dir;
}

const BROWSER = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], strict: true, noUncheckedIndexedAccess: true, verbatimModuleSyntax: true, skipLibCheck: true, noEmit: true };

describe.each(packages)("%s: browser-facing entry points", (dir) => {
  const pkg = join(ROOT, dir);
  const browserEntries = entries(manifest(pkg))
    // the mock server and the MCP server are Node-only, by a reference of their own
    .filter((e) => e !== "./mock-server" && e !== "./mcp")
    .map((e) => join(pkg, "src", e === "." ? "index.ts" : `${e.slice(2)}/index.ts`));

  it("compile without Node's types (`types: []`, the mock server left out)", () => {
    const p = project("browser", BROWSER, browserEntries);
    try {
      const r = tsc(["-p", join(p, "tsconfig.json")]);
      expect(r.output).toBe("");
      expect(r.status).toBe(0);
      const listed = tsc(["-p", join(p, "tsconfig.json"), "--listFilesOnly"]).output;
      expect(listed).not.toMatch(/@types\/node\//);
      expect(listed).not.toMatch(/runtime\/mock\/server\.ts/);
    } finally {
      rmSync(p, { recursive: true, force: true });
    }
  });
});

describe("the browser-facing check", () => {
  it("fails on a Node-only global", () => {
    const pkg = join(ROOT, "generated");
    const p = project("browser-control", BROWSER, [join(pkg, "src/index.ts")], { "uses-buffer.ts": `export const bytes = Buffer.from("x");\n` });
    try {
      const r = tsc(["-p", join(p, "tsconfig.json")]);
      expect(r.status).not.toBe(0);
      expect(r.output).toMatch(/Cannot find name 'Buffer'/);
    } finally {
      rmSync(p, { recursive: true, force: true });
    }
  });
});

describe("the generated package.json", () => {
  it("declares what the build needs: the repo's TypeScript, @types/node for the mock server, msw as an optional peer, Node 20+", () => {
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(TYPESCRIPT_RANGE).toBe(root.devDependencies["typescript"]);
    for (const dir of packages) {
      const m = manifest(join(ROOT, dir));
      expect(m.engines?.node, dir).toBe(">=20");
      expect(m.devDependencies?.["typescript"], dir).toBe(TYPESCRIPT_RANGE);
      const mocked = "./mocks" in m.exports;
      const mcp = "./mcp" in m.exports;
      expect(m.devDependencies?.["@types/node"] !== undefined, dir).toBe(mocked || mcp);
      expect(m.peerDependenciesMeta?.["msw"]?.optional === true, dir).toBe(mocked);
      // the MCP server's SDK and the sandbox's packages: optional peers, and devDependencies for the build (ADR 0021)
      for (const p of ["@modelcontextprotocol/sdk", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "sucrase"]) {
        expect(m.peerDependenciesMeta?.[p]?.optional === true, `${dir} ${p}`).toBe(mcp);
        expect(m.devDependencies?.[p] !== undefined, `${dir} ${p}`).toBe(mcp);
      }
      expect(Object.values(m.bin ?? {}).includes("dist/mock-server/cli.js"), dir).toBe(mocked);
      expect(Object.values(m.bin ?? {}).includes("dist/mcp/cli.js"), dir).toBe(mcp);
    }
  });
});

// ---------------------------------------------------------------- npm install + build, outside the repository

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** npm without the npm_* variables of a surrounding `npm test` (they would point it back at this repository). */
function npm(args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const r = spawnSync("npm", [...args, "--no-audit", "--no-fund", "--no-update-notifier"], { cwd, encoding: "utf8", env, timeout: 180_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A copy of a package in a fresh folder outside the repository, without dist/ or node_modules/. */
function copyOut(source: string): string {
  const t = mkdtempSync(join(tmpdir(), "avaspec-standalone-"));
  temps.push(t);
  const dir = join(t, "package");
  cpSync(source, dir, { recursive: true, filter: (src) => !/[\\/](dist|node_modules)$/.test(src) });
  return dir;
}

function buildsStandalone(dir: string): void {
  const m = manifest(dir);
  const install = npm(["install", "--prefer-offline"], dir);
  expect(install.status, install.output).toBe(0);
  expect(existsSync(join(dir, "node_modules/typescript")), "typescript installed").toBe(true);
  // msw is an optional peer: npm does not install it
  expect(existsSync(join(dir, "node_modules/msw")), "msw not installed").toBe(false);

  const build = () => {
    rmSync(join(dir, "dist"), { recursive: true, force: true });
    return npm(["run", "build"], dir);
  };
  let r = build();
  expect(r.status, `without msw:\n${r.output}`).toBe(0);
  for (const e of entries(m)) {
    const base = e === "." ? "index" : `${e.slice(2)}/index`;
    expect(existsSync(join(dir, "dist", `${base}.js`)), `dist/${base}.js`).toBe(true);
    expect(existsSync(join(dir, "dist", `${base}.d.ts`)), `dist/${base}.d.ts`).toBe(true);
  }

  // a consumer of every entry point but ./mocks, with no Node types and every .d.ts checked: needs neither msw nor @types/node
  const consumer = join(dir, "consumer");
  mkdirSync(consumer);
  const used = entries(m).filter((e) => e !== "./mocks" && e !== "./mcp");
  writeFileSync(join(consumer, "use.ts"), used.map((e, i) => `import * as m${i} from ${JSON.stringify(e === "." ? m.name : `${m.name}/${e.slice(2)}`)};`).join("\n") + `\nexport const modules = [${used.map((_, i) => `m${i}`).join(", ")}];\n`);
  writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...BROWSER, skipLibCheck: false }, files: ["use.ts"] }));
  r = tsc(["-p", join(consumer, "tsconfig.json")], consumer);
  expect(r.output).toBe("");
  expect(r.status).toBe(0);
  expect(tsc(["-p", join(consumer, "tsconfig.json"), "--listFilesOnly"], consumer).output).not.toMatch(/@types\/node\/|[\\/]msw[\\/]/);

  if (!m.bin) return;
  // the MCP command, its SDK installed as a devDependency; and avaspec mcp --dir, which loads the built entry
  const mcpBin = Object.entries(m.bin).find(([, target]) => target === "dist/mcp/cli.js");
  if (mcpBin) {
    const help = spawnSync(process.execPath, [join(dir, mcpBin[1]), "mcp", "--help"], { encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain(`usage: ${mcpBin[0]} mcp [--mode code|tools]`);
    const viaAvaspec = runCli(["mcp", "--dir", dir, "--help"], dir);
    expect(viaAvaspec.status, viaAvaspec.stderr).toBe(0);
    expect(viaAvaspec.stdout).toContain("usage: avaspec mcp [--mode code|tools]");
  }
  if (!Object.values(m.bin).includes("dist/mock-server/cli.js")) return;
  // the mock server command
  const [command, target] = Object.entries(m.bin)[0]!;
  const help = spawnSync(process.execPath, [join(dir, target), "--help"], { encoding: "utf8" });
  expect(help.status, help.stderr).toBe(0);
  expect(help.stdout).toContain(`usage: ${command} [--port 4010]`);

  // with msw installed the build checks msw.ts against MSW's real types: a misspelt MSW export fails it
  r = npm(["install", "--prefer-offline", "--save-dev", "msw@^2"], dir);
  expect(r.status, r.output).toBe(0);
  r = build();
  expect(r.status, `with msw:\n${r.output}`).toBe(0);
  const msw = join(dir, "src/runtime/mock/msw.ts");
  const source = readFileSync(msw, "utf8");
  writeFileSync(msw, source.replace("msw.HttpResponse.error()", "msw.HttpResponse.erorr()"));
  r = build();
  expect(r.status).not.toBe(0);
  expect(r.output).toMatch(/Property 'erorr' does not exist/);
  writeFileSync(msw, source);

  // and without it again
  rmSync(join(dir, "node_modules/msw"), { recursive: true, force: true });
  r = build();
  expect(r.status, `after removing node_modules/msw:\n${r.output}`).toBe(0);
}

describe("a generated package builds on its own (npm install + npm run build in a copy outside the repository)", () => {
  it("generated/ (@avaspec/client)", () => {
    buildsStandalone(copyOut(join(ROOT, "generated")));
  }, 180_000);

  it("a one-off package generated from a fixture spec with `avaspec generate --input`", () => {
    const t = mkdtempSync(join(tmpdir(), "avaspec-standalone-"));
    temps.push(t);
    const r = runCli(["generate", "--input", join(ROOT, "test/fixtures/features-31/spec.yaml"), "--out", "client"], t);
    expect(r.status, r.stderr).toBe(0);
    buildsStandalone(join(t, "client"));
  }, 180_000);
});
