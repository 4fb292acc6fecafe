/**
 * avaspec as users install it: `npm pack` of the repository (prepack bundles
 * the CLI), the tarball installed into an empty project, and from there
 * `npx avaspec generate` on an OpenAPI and an OpenRPC document. Each generated
 * package is installed and built on its own (its own package.json only: no
 * msw, nothing of this repository), a Node script imports the built clients
 * and calls a loopback `node:http` server, and the generated mock server
 * answers, started by `npx avaspec mock --dir` and programmatically.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, run, tempDir, type PackResult } from "./helpers.js";


const env = { npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
const npm = (args: string[], cwd: string) => run("npm", args, { cwd, env, timeout: 300_000 });
const npx = (args: string[], cwd: string) => run("npx", ["--no-install", ...args], { cwd, env, timeout: 300_000 });

let packed: PackResult;
let project: string;

beforeAll(async () => {
  const out = tempDir("avaspec-pack");
  const r = await npm(["pack", "--json", "--pack-destination", out], ROOT);
  expect(r.code, r.stderr).toBe(0);
  packed = (JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as PackResult[])[0]!;
  console.log(`${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
  project = tempDir("avaspec-user");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "avaspec-user", private: true, type: "module" }));
  // the CLI's dependencies come from the npm cache the repository's own install filled
  const i = await npm(["install", "--prefer-offline", "--no-package-lock", join(out, packed.filename)], project);
  expect(i.code, i.stderr).toBe(0);
}, 600_000);

describe("the avaspec tarball", () => {
  it("holds the bundled CLI, its public module, the runtime it copies, the templates, README and LICENSE, and nothing else", () => {
    const paths = packed.files.map((f) => f.path);
    expect([...new Set(paths.map((p) => p.split("/")[0]))].sort()).toEqual(["LICENSE", "README.md", "bin", "dist", "package.json", "runtime", "templates"]);
    for (const p of ["bin/avaspec.mjs", "dist/cli.mjs", "dist/index.js", "dist/types/public.d.ts", "runtime/http/http.ts", "runtime/jsonrpc/jsonrpc.ts", "templates/package-readme.md.hbs"]) expect(paths).toContain(p);
    expect(paths.filter((p) => p.endsWith(".test.ts"))).toEqual([]);
    expect(paths.filter((p) => p.startsWith("generator/") || p.startsWith("test/") || p.startsWith("spec/"))).toEqual([]);
  });

  it("declares its runtime dependencies and engines, and runs without tsx", () => {
    const pkg = JSON.parse(readFileSync(join(project, "node_modules/avaspec/package.json"), "utf8")) as { dependencies: Record<string, string>; engines: { node: string }; bin: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["handlebars", "js-yaml", "json-p3", "swagger2openapi", "ts-morph", "yaml"]);
    expect(pkg.engines.node).toBe("^20.19.0 || >=22.12.0");
    expect(pkg.bin).toEqual({ avaspec: "bin/avaspec.mjs" });
    expect(existsSync(join(project, "node_modules/tsx"))).toBe(false);
    expect(readFileSync(join(project, "node_modules/avaspec/dist/cli.mjs"), "utf8")).not.toMatch(/from ["']tsx|require\(["']tsx/);
  });

  it("answers --version and --help, which lists every command and option", async () => {
    const v = await npx(["avaspec", "--version"], project);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(packed.version);
    const h = await npx(["avaspec", "--help"], project);
    expect(h.code).toBe(0);
    for (const word of ["avaspec generate", "avaspec mock", "--config", "--input", "--out", "--name", "--client-name", "--targets", "--allow-ref", "--overlay", "--include", "--exclude", "--check", "--watch", "--force", "--dump-ir", "--dir", "--port", "--host", "--seed", "--synthesize", "--version", "examples:"]) expect(h.stdout).toContain(word);
    const bad = await npx(["avaspec", "frobnicate"], project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown command "frobnicate"');
  });

  it("converts a Swagger 2.0 document with its swagger2openapi dependency (in a worker thread) and reports a broken one at its own line", async () => {
    copyFileSync(join(ROOT, "test/fixtures/swagger2-apis-guru/xkcd.swagger.yaml"), join(project, "xkcd.swagger.yaml"));
    const ok = await npx(["avaspec", "generate", "--input", "xkcd.swagger.yaml", "--out", "xkcd-client"], project);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(project, "xkcd-client/src/xkcd/client.ts"), "utf8")).toContain("getByComicIdInfo0Json");
    writeFileSync(join(project, "broken.swagger.yaml"), readFileSync(join(ROOT, "test/fixtures/swagger2-apis-guru/xkcd.swagger.yaml"), "utf8").replace("$ref: '#/definitions/comic'", "$ref: '#/definitions/comix'"));
    const broken = await npx(["avaspec", "generate", "--input", "broken.swagger.yaml", "--out", "broken-client"], project);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^broken\.swagger\.yaml:35:13 at #\/paths\/~1info\.0\.json\/get\/responses\/200\/schema\/\$ref: \$ref "#\/definitions\/comix" does not resolve \[ref\/dangling\]$/m);
    expect(existsSync(join(project, "broken-client"))).toBe(false);
  });

  it("is importable for avaspec.config.ts: defineConfig with its types", async () => {
    writeFileSync(join(project, "check.mjs"), `import { defineConfig, TARGETS } from "avaspec";\nconsole.log(JSON.stringify({ same: defineConfig({ x: 1 }).x, targets: TARGETS }));\n`);
    const r = await run(process.execPath, ["check.mjs"], { cwd: project });
    expect(JSON.parse(r.stdout)).toEqual({ same: 1, targets: ["types", "validators", "client", "mocks"] });
    expect(readFileSync(join(project, "node_modules/avaspec/dist/types/public.d.ts"), "utf8")).toContain("defineConfig");
  });
});

/** A generated package installed and built by itself; returns the build's output. */
async function installAndBuild(dir: string): Promise<void> {
  const i = await npm(["install", "--prefer-offline"], dir);
  expect(i.code, i.stdout + i.stderr).toBe(0);
  // the optional msw peer is not installed: the build must not need it
  expect(existsSync(join(dir, "node_modules/msw"))).toBe(false);
  const b = await npm(["run", "build"], dir);
  expect(b.code, b.stdout + b.stderr).toBe(0);
}

describe("overlays and filters from the installed CLI", () => {
  it("applies an overlay (JSONPath by the json-p3 it installed) and an exclude filter", async () => {
    copyFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), join(project, "pets-overlaid.yaml"));
    writeFileSync(join(project, "fix.overlay.yaml"), "overlay: 1.0.0\ninfo: { title: Fix, version: 1.0.0 }\nactions:\n  - target: $.paths['/pets'].get\n    update: { summary: Every pet in the store }\n");
    const r = await npx(["avaspec", "generate", "--input", "pets-overlaid.yaml", "--out", "pets-overlaid", "--overlay", "fix.overlay.yaml", "--exclude", "op:deletePet"], project);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const client = readFileSync(join(project, "pets-overlaid/src/pets-overlaid/client.ts"), "utf8");
    expect(client).toContain("Every pet in the store");
    expect(client).not.toContain("deletePet");
  });
});

describe("generated by the installed CLI, installed and built on their own", () => {
  beforeAll(async () => {
    copyFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), join(project, "petstore.yaml"));
    copyFileSync(join(ROOT, "test/fixtures/rpc-by-name/spec.yaml"), join(project, "calc.openrpc.yaml"));
    const a = await npx(["avaspec", "generate", "--input", "petstore.yaml", "--out", "pets-client"], project);
    expect(a.code, a.stderr).toBe(0);
    const b = await npx(["avaspec", "generate", "--input", "calc.openrpc.yaml", "--out", "calc-client"], project);
    expect(b.code, b.stderr).toBe(0);
    await installAndBuild(join(project, "pets-client"));
    await installAndBuild(join(project, "calc-client"));
  }, 600_000);

  it("a Node script imports both built clients and calls a loopback node:http server", async () => {
    writeFileSync(
      join(project, "call.mjs"),
      `import { createServer } from "node:http";
import { createPetstoreClient } from "./pets-client/dist/petstore/index.js";
import { createCalcClient } from "./calc-client/dist/calc/index.js";
import { ValidationError } from "./pets-client/dist/index.js";

const seen = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    seen.push(req.method + " " + req.url);
    res.setHeader("content-type", "application/json");
    if (req.url.startsWith("/v1/pets")) return res.end(JSON.stringify({ items: [{ id: 1, name: "Rex", status: "available" }], next: null }));
    const call = JSON.parse(body);
    res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: call.params.a + call.params.b }));
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = "http://127.0.0.1:" + server.address().port;
const pets = createPetstoreClient({ baseUrl: base + "/v1", validateResponse: "strict" });
const calc = createCalcClient({ baseUrl: base + "/rpc", validateResponse: "strict" });
const list = await pets.listPets({ limit: 5, status: "available" });
const sum = await calc.calc.add({ a: 2, b: 3 });
let refused;
try { await pets.listPets({ limit: 500 }); } catch (e) { refused = e instanceof ValidationError ? e.message : String(e); }
server.close();
console.log(JSON.stringify({ list, sum, refused, seen }));
`,
    );
    const r = await run(process.execPath, ["call.mjs"], { cwd: project, timeout: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { list: unknown; sum: number; refused: string; seen: string[] };
    expect(out.list).toEqual({ items: [{ id: 1, name: "Rex", status: "available" }], next: null });
    expect(out.sum).toBe(5);
    expect(out.refused).toContain("limit");
    // the refused call never reached the server
    expect(out.seen).toEqual(["GET /v1/pets?limit=5&status=available", "POST /rpc"]);
  });

  it("the generated mock server answers: programmatically and through the installed `avaspec mock --dir`", async () => {
    writeFileSync(
      join(project, "mock.mjs"),
      `import { startMockServer } from "./calc-client/dist/mock-server/index.js";
import { createCalcClient } from "./calc-client/dist/calc/index.js";
const server = await startMockServer({ port: 0, seed: 3, log: () => {} });
const calc = createCalcClient({ baseUrl: server.url, validateResponse: "strict" });
const pong = await calc.calc.ping();
await server.close();
console.log(JSON.stringify({ pong }));
`,
    );
    const r = await run(process.execPath, ["mock.mjs"], { cwd: project, timeout: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ pong: "pong" });

    // the bin npx runs, started directly so that SIGINT reaches it (npx would stand between)
    const child = spawn(join(project, "node_modules/.bin/avaspec"), ["mock", "--dir", "pets-client", "--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (d: Buffer) => (log += d));
    child.stderr.on("data", (d: Buffer) => (log += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL in: ${log}`)), 60_000);
      const look = () => {
        const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
        if (m) (clearTimeout(timer), resolve(m[1]!));
      };
      child.stdout.on("data", look);
      child.on("exit", () => (clearTimeout(timer), reject(new Error(`exited: ${log}`))));
    });
    const res = await fetch(`${url}/pets/1`);
    expect(res.status).toBe(200);
    const pet = (await res.json()) as { id: number; name: string };
    expect(typeof pet.id).toBe("number");
    expect(typeof pet.name).toBe("string");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(log).toMatch(/GET \/pets\/1 → 200 \(getPetById\)/);
  }, 120_000);
});
