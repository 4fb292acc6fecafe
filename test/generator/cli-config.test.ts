/**
 * Config and command line beyond the repo's own config: one-off generation
 * (`--input` / `--out`), per-input targets, a TypeScript config, and
 * `--watch`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, ROOT, runCli } from "../helpers/cli.js";

/** A module's client code: client.ts, and for an HTTP module the functions.js and functions.d.ts that hold its factories. */
function clientCode(moduleDir: string): string {
  return ["client.ts", "functions.d.ts", "functions.js"].map((f) => join(moduleDir, f)).filter((f) => existsSync(f)).map((f) => readFileSync(f, "utf8")).join("\n");
}

const PETSTORE = join(ROOT, "test/fixtures/petstore-30/spec.yaml");
const RPC = join(ROOT, "test/fixtures/rpc-by-name/spec.yaml");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-cfg-"));
  dirs.push(dir);
  return dir;
}
const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** Type-checks a generated package strictly, with the repo's node_modules (msw, @types/node) in reach. */
function typecheck(pkg: string): { status: number | null; output: string } {
  if (!existsSync(join(pkg, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
  const r = spawnSync(process.execPath, [TSC, "-p", join(pkg, "tsconfig.json"), "--noEmit"], { encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe("generate --input <spec> --out <dir>", () => {
  it("generates a whole package from one document without a config, and --check agrees", () => {
    const dir = temp();
    const r = runCli(["generate", "--input", PETSTORE, "--out", "pets-client"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const pkg = join(dir, "pets-client");
    expect(json(join(pkg, "package.json"))).toMatchObject({ name: "pets-client", version: "1.0.0" });
    // spec.yaml would be "spec", a folder of the package itself: the module is "api"
    for (const f of ["src/api/client.ts", "src/api/validators.js", "src/api/mocks.ts", "src/mocks/index.ts"]) expect(existsSync(join(pkg, f)), f).toBe(true);
    // generic on the number policy: the petstore's ids are int64
    expect(clientCode(join(pkg, "src/api"))).toMatch(/export declare function createApiClient[<(]/);
    expect(runCli(["generate", "--input", PETSTORE, "--out", "pets-client", "--check"], dir).status).toBe(0);
    expect(typecheck(pkg)).toMatchObject({ status: 0 });
  }, 120_000);

  it("takes the package name, client name and targets from flags; types and validators only leave out client, mocks and msw", () => {
    const dir = temp();
    const r = runCli(["generate", "--input", RPC, "--out", "out", "--name", "@me/rpc-types", "--client-name", "Chain", "--targets", "types,validators"], dir);
    expect(r.status).toBe(0);
    const pkg = join(dir, "out");
    const manifest = json(join(pkg, "package.json"));
    expect(manifest["name"]).toBe("@me/rpc-types");
    expect(manifest["peerDependencies"]).toBeUndefined();
    expect(Object.keys(manifest["exports"] as object)).toEqual([".", "./api", "./spec/*", "./package.json"]);
    for (const f of ["src/api/types.ts", "src/api/validators.js", "src/api/index.ts"]) expect(existsSync(join(pkg, f)), f).toBe(true);
    for (const f of ["src/api/client.ts", "src/api/mocks.ts", "src/mocks/index.ts", "src/mock-server/index.ts", "src/runtime/mock/msw.ts", "src/runtime/mock/mock.ts"]) expect(existsSync(join(pkg, f)), f).toBe(false);
    expect(readFileSync(join(pkg, "src/api/index.ts"), "utf8")).not.toContain("client.js");
    expect(readFileSync(join(pkg, "README.md"), "utf8")).toContain("Types and validators only");
    expect(typecheck(pkg)).toMatchObject({ status: 0 });
  }, 120_000);

  it.each([
    [["--input", PETSTORE], "--input and --out go together"],
    [["--out", "x"], "--input and --out go together"],
    [["--input", PETSTORE, "--out", "x", "--config", "c.json"], "without --config"],
    [["--name", "x"], "--name, --client-name, --targets, --allow-ref, --overlay, --include and --exclude are for --input"],
    [["--allow-ref", "."], "--allow-ref, --overlay, --include and --exclude are for --input"],
    [["--overlay", "fix.overlay.yaml"], "--overlay, --include and --exclude are for --input"],
    [["--exclude", "tag:x"], "set them in the config otherwise (overlays, include, exclude of an input)"],
    [["--input", PETSTORE, "--out", "x", "--exclude", "getOrder"], '"getOrder" is not a filter'],
    [["--input", PETSTORE, "--out", "x", "--targets", "client"], '"client" needs "types" and "validators" too'],
    [["--input", PETSTORE, "--out", "x", "--targets", "types,sdk"], 'unknown target "sdk"'],
    [["--input", PETSTORE, "--out", "x", "--watch", "--check"], "--watch and --check do not go together"],
  ])("refuses %j", (args, message) => {
    const dir = temp();
    const r = runCli(["generate", ...args], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(join(dir, "x"))).toBe(false);
  });
});

describe("avaspec.config.ts", () => {
  it("is found without --config, runs as TypeScript, and gives each input its own output, client name and targets", () => {
    const dir = temp();
    writeFileSync(
      join(dir, "avaspec.config.ts"),
      [
        `import { defineConfig, type Target } from "avaspec";`,
        `const typesOnly: Target[] = ["types"];`,
        `export default defineConfig({`,
        `  out: "pkg",`,
        `  package: { name: "@scratch/two" },`,
        `  inputs: [`,
        `    { spec: ${JSON.stringify(PETSTORE)}, output: "pets", clientName: "Pets" },`,
        `    { spec: ${JSON.stringify(RPC)}, output: "chain", clientName: "Chain", targets: typesOnly },`,
        `  ],`,
        `});`,
      ].join("\n"),
    );
    writeFileSync(join(dir, "avaspec.config.json"), "{ not the one to read");
    // avaspec installed in the project, as `npm install -D avaspec` leaves it
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules/avaspec"), "dir");
    const r = runCli(["generate"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const pkg = join(dir, "pkg");
    expect(clientCode(join(pkg, "src/pets"))).toMatch(/export declare function createPetsClient[<(]/);
    expect(existsSync(join(pkg, "src/chain/types.ts"))).toBe(true);
    expect(existsSync(join(pkg, "src/chain/validators.js"))).toBe(false);
    expect(existsSync(join(pkg, "src/chain/client.ts"))).toBe(false);
    // mocks of the input that has them
    expect(readFileSync(join(pkg, "src/mocks/index.ts"), "utf8")).toContain("../pets/mocks.js");
    expect(readFileSync(join(pkg, "src/mocks/index.ts"), "utf8")).not.toContain("../chain/");
    expect(typecheck(pkg)).toMatchObject({ status: 0 });
  }, 120_000);

  it("reports a config module that throws, or has no default export, as a config error", () => {
    const dir = temp();
    writeFileSync(join(dir, "avaspec.config.ts"), "export const config = {};\n");
    expect(runCli(["generate"], dir)).toMatchObject({ status: 2, stderr: expect.stringContaining("must default-export the config") });
    writeFileSync(join(dir, "avaspec.config.ts"), 'throw new Error("boom");\nexport default {};\n');
    expect(runCli(["generate"], dir)).toMatchObject({ status: 2, stderr: expect.stringContaining("cannot load config: boom") });
  });

  it("refuses an output that is a folder of the package itself", () => {
    const dir = temp();
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "pkg", package: { name: "x" }, inputs: [{ spec: PETSTORE, output: "spec", clientName: "Api" }] }));
    expect(runCli(["generate"], dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('output "spec" is a folder of the package itself') });
  });
});

describe("generate --watch", () => {
  /** Lines of a child's stream, with a way to wait for one. */
  function lines(child: ChildProcess, stream: "stdout" | "stderr") {
    const seen: { text: string; at: number }[] = [];
    let buffer = "";
    child[stream]!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const text of parts) seen.push({ text, at: Date.now() });
    });
    // the other stream too, for the message of a wait that fails
    const others: { text: string }[] = [];
    child[stream === "stdout" ? "stderr" : "stdout"]!.setEncoding("utf8").on("data", (chunk: string) => {
      for (const text of chunk.split("\n")) if (text !== "") others.push({ text });
    });
    return {
      seen,
      async next(pattern: RegExp, after: number, timeoutMs = 60_000): Promise<{ text: string; at: number }> {
        const until = Date.now() + timeoutMs;
        for (;;) {
          const hit = seen.find((l) => l.at >= after && pattern.test(l.text));
          if (hit) return hit;
          if (Date.now() > until) throw new Error(`no ${stream} line like ${pattern} within ${timeoutMs} ms; got:\n${seen.map((l) => l.text).join("\n")}${others.length > 0 ? `\n(the other stream:)\n${others.map((l) => l.text).join("\n")}` : ""}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      },
    };
  }

  it("regenerates on a spec change, reports a broken spec without exiting, and recovers", async () => {
    const dir = temp();
    const spec = readFileSync(PETSTORE, "utf8");
    writeFileSync(join(dir, "api.yaml"), spec);
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "w" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api" }] }));
    const child = spawn(process.execPath, [CLI, "generate", "--watch"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    children.push(child);
    const out = lines(child, "stdout");
    const err = lines(child, "stderr");
    await out.next(/^avaspec: watching 2 files/, 0, 60_000);
    const types = join(dir, "out/src/api/types.ts");
    expect(readFileSync(types, "utf8")).not.toContain("Watched change");

    // a change: regenerated (how fast is a benchmark's question, never a test's: machines are shared)
    let wrote = Date.now();
    writeFileSync(join(dir, "api.yaml"), spec.replace("title: Petstore (OpenAPI 3.0 fixture)", "title: Watched change one"));
    await out.next(/^avaspec: regenerated in \d+ ms/, wrote);
    expect(clientCode(join(dir, "out/src/api"))).toContain("Watched change one");

    // broken: diagnostics with file:line:col, the output keeps its last good state, the watch goes on
    wrote = Date.now();
    writeFileSync(join(dir, "api.yaml"), spec.replace("operationId: listPets", "operationId: 42"));
    await err.next(/^api\.yaml:\d+:\d+ at #\/paths\/~1pets\/get\/operationId: /, wrote);
    await out.next(/^avaspec: kept the last good output/, wrote);
    expect(child.exitCode).toBeNull();
    expect(clientCode(join(dir, "out/src/api"))).toContain("Watched change one");

    // fixed again
    wrote = Date.now();
    writeFileSync(join(dir, "api.yaml"), spec.replace("title: Petstore (OpenAPI 3.0 fixture)", "title: Watched change two"));
    await out.next(/^avaspec: regenerated/, wrote);
    expect(clientCode(join(dir, "out/src/api"))).toContain("Watched change two");

    const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  }, 300_000);

  it("does not record releases: every save diffs against the last recorded release, which a plain generate then records once", async () => {
    const dir = temp();
    const spec = readFileSync(PETSTORE, "utf8");
    writeFileSync(join(dir, "api.yaml"), spec);
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "w" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api" }] }));
    expect(runCli(["generate"], dir).status).toBe(0);
    const recorded = ["package.json", "versions.json", "CHANGELOG.md", "spec/api.json"].map((f) => readFileSync(join(dir, "out", f), "utf8"));
    const child = spawn(process.execPath, [CLI, "generate", "--watch"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    children.push(child);
    const out = lines(child, "stdout");
    const err = lines(child, "stderr");
    await out.next(/^avaspec: watching 2 files/, 0, 60_000);

    // a breaking change without a version bump: the code follows, the release waits (a warning while editing)
    const withoutDelete = spec.replace(/\n {4}delete:\n {6}operationId: deletePet\n(?: {6,}.*\n)*/, "\n");
    let wrote = Date.now();
    writeFileSync(join(dir, "api.yaml"), withoutDelete);
    await err.next(/need info\.version 2\.0\.0 or more, but info\.version stayed at 1\.0\.0 \[versions\/too-small\] \(warning\)/, wrote);
    await out.next(/^avaspec: the specs changed since release; `avaspec generate` \(without --watch\) will record 2\.0\.0/, wrote);
    await out.next(/^avaspec: regenerated/, wrote);
    expect(clientCode(join(dir, "out/src/api"))).not.toContain("deletePet");
    expect(["package.json", "versions.json", "CHANGELOG.md", "spec/api.json"].map((f) => readFileSync(join(dir, "out", f), "utf8"))).toEqual(recorded);

    // a second save still diffs against the recorded release: still 2.0.0, not 3.0.0
    wrote = Date.now();
    writeFileSync(join(dir, "api.yaml"), withoutDelete.replace("operationId: listPets", "operationId: listAllPets"));
    await out.next(/will record 2\.0\.0/, wrote);
    // one save can raise two change events: the regeneration of the first save may still be the one reporting,
    // so wait for the output that has the rename (bounded like every wait here)
    for (const until = Date.now() + 15_000; !clientCode(join(dir, "out/src/api")).includes("listAllPets"); ) {
      if (Date.now() > until) throw new Error("the watch never regenerated the renamed method");
      await new Promise((r) => setTimeout(r, 50));
    }
    // saved again as it was: the same warnings are counted, not printed again
    const shownBefore = err.seen.filter((l) => /\[versions\/too-small\]/.test(l.text)).length;
    wrote = Date.now();
    writeFileSync(join(dir, "api.yaml"), withoutDelete.replace("operationId: listPets", "operationId: listAllPets"));
    await err.next(/^avaspec: \d+ warnings? as before, not shown again/, wrote);
    expect(err.seen.filter((l) => /\[versions\/too-small\]/.test(l.text)).length).toBe(shownBefore);
    // stopped once that run is over (a stop in the middle of a write ends in the signal, by design)
    await out.next(/^avaspec: watching 2 files/, err.seen.at(-1)!.at);
    const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);

    // the plain generate records it, once the version says so
    expect(runCli(["generate"], dir).status).toBe(1);
    writeFileSync(join(dir, "api.yaml"), withoutDelete.replace("operationId: listPets", "operationId: listAllPets").replace(/^( {2}version: )1\.0\.0$/m, "$12.0.0"));
    expect(runCli(["generate"], dir).status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8")).version).toBe("2.0.0");
    const changelog = readFileSync(join(dir, "out/CHANGELOG.md"), "utf8");
    expect(changelog).toContain("DELETE /pets/{petId} was removed (`operation-removed`)");
    expect(changelog).toContain("(`method-renamed`)");
  }, 300_000);
});
