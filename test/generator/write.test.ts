/**
 * Writes never destroy what avaspec did not write: the output folder's
 * manifest decides what a run may replace or remove; refusals are one-line
 * messages with the folder as it was; a killed run leaves the previous output
 * (or, past its commit point, the new one) and nothing temporary once the
 * next run has looked.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MANIFEST_FILE, STAGING_DIR, writeTree } from "../../generator/write.js";
import { CLI, ROOT, runCli } from "../helpers/cli.js";

const PETSTORE = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
const RPC = readFileSync(join(ROOT, "test/fixtures/rpc-by-name/spec.yaml"), "utf8");

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-write-"));
  dirs.push(dir);
  return dir;
}

/** Every file under a folder with its sha256, and every folder: the whole state. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = relative(root, full);
      if (statSync(full).isDirectory()) {
        out[rel + "/"] = "dir";
        walk(full);
      } else out[rel] = createHash("sha256").update(readFileSync(full)).digest("hex");
    }
  };
  walk(root);
  return out;
}
const leftovers = (root: string) => Object.keys(snapshot(root)).filter((p) => /\.tmp-|\.old-|avaspec-staging|\.avaspec\.config\./.test(p));

/** A project with a git folder, sources and notes; the spec is kept in another folder. */
function project(): { dir: string; spec: string } {
  const dir = temp();
  const specs = temp();
  mkdirSync(join(dir, ".git/objects"), { recursive: true });
  writeFileSync(join(dir, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/app.ts"), "export const app = 1;\n");
  writeFileSync(join(dir, "notes.txt"), "mine\n");
  writeFileSync(join(specs, "api.yaml"), PETSTORE);
  return { dir, spec: join(specs, "api.yaml") };
}

describe("--out and user files", () => {
  it.each([
    [".", "api.yaml", "api.yaml"],
    [".", "specs/api.yaml", "specs/api.yaml"],
    ["specs", "specs/api.yaml", "specs/api.yaml"],
  ])("refuses --out %s when it holds the input %s, even with --force, and changes nothing", (out, input, shown) => {
    const { dir } = project();
    mkdirSync(join(dir, "specs"));
    writeFileSync(join(dir, input), PETSTORE);
    const before = snapshot(dir);
    for (const force of [[], ["--force"]]) {
      const r = runCli(["generate", "--input", input, "--out", out, ...force], dir);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`holds the input ${shown}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(snapshot(dir)).toEqual(before);
    }
  });

  it("refuses a non-empty folder without a manifest; --force generates into it and keeps every other file", () => {
    const { dir, spec } = project();
    const before = snapshot(dir);
    const refused = runCli(["generate", "--input", spec, "--out", "."], dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`has no ${MANIFEST_FILE}`);
    expect(refused.stderr).toContain("--force");
    expect(snapshot(dir)).toEqual(before);

    const forced = runCli(["generate", "--input", spec, "--out", ".", "--force"], dir);
    expect(forced.stderr).toBe("");
    expect(forced.status).toBe(0);
    const after = snapshot(dir);
    for (const [path, hash] of Object.entries(before)) expect(after[path], path).toBe(hash);
    expect(existsSync(join(dir, "src/api/client.ts"))).toBe(true);
    expect(existsSync(join(dir, MANIFEST_FILE))).toBe(true);
    expect(leftovers(dir)).toEqual([]);

    // the folder is avaspec's now: a second run needs no --force and still keeps the user's files
    const again = runCli(["generate", "--input", spec, "--out", "."], dir);
    expect(again.status).toBe(0);
    expect(snapshot(dir)).toEqual(after);
  });

  it("refuses to replace a file avaspec did not write in its own folder, unless --force", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    // an avaspec folder whose manifest does not list README.md: that README is the user's
    mkdirSync(join(dir, "client"));
    writeFileSync(join(dir, "client/README.md"), "my readme\n");
    writeFileSync(join(dir, "client", MANIFEST_FILE), JSON.stringify({ avaspec: 1, files: ["package.json"] }));
    const before = snapshot(dir);
    const r = runCli(["generate", "--input", "api.yaml", "--out", "client"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("that avaspec did not write would be replaced: README.md");
    expect(snapshot(dir)).toEqual(before);
    const forced = runCli(["generate", "--input", "api.yaml", "--out", "client", "--force"], dir);
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain("--force replaced 1 file avaspec had not written: README.md");
  });

  it.each([
    ["a file", (dir: string) => (writeFileSync(join(dir, "api.json"), "{}\n"), "api.json"), "is a file, not a folder"],
    ["a path through a file", (dir: string) => (writeFileSync(join(dir, "f"), "x\n"), "f/client"), "runs through a file"],
  ])("--out naming %s is a one-line diagnostic and leaves everything as it was", (_what, make, message) => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    const out = make(dir);
    const before = snapshot(dir);
    const r = runCli(["generate", "--input", "api.yaml", "--out", out], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(snapshot(dir)).toEqual(before);
  });

  it.runIf(existsSync("/proc/self"))("--out in a folder nobody can write (/proc) is a one-line diagnostic, not a hang or a stack trace", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    const r = spawnSync(process.execPath, [CLI, "generate", "--input", "api.yaml", "--out", "/proc/avaspec-cannot-write"], { cwd: dir, encoding: "utf8", timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("cannot create the output folder /proc/avaspec-cannot-write: ENOENT; nothing was written");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("--check compares only what avaspec writes: user files are no drift, a stale generated file is", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    expect(runCli(["generate", "--input", "api.yaml", "--out", "client"], dir).status).toBe(0);
    writeFileSync(join(dir, "client/notes.txt"), "mine\n");
    expect(runCli(["generate", "--input", "api.yaml", "--out", "client", "--check"], dir).status).toBe(0);
    writeFileSync(join(dir, "client/src/api/client.ts"), "// edited\n");
    const r = runCli(["generate", "--input", "api.yaml", "--out", "client", "--check"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("changed: client/src/api/client.ts");
    expect(r.stderr).not.toContain("notes.txt");
  });

  it("refuses a manifest that names paths outside its folder", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    mkdirSync(join(dir, "client"));
    writeFileSync(join(dir, "victim.txt"), "keep\n");
    writeFileSync(join(dir, "client", MANIFEST_FILE), JSON.stringify({ avaspec: 1, files: ["../victim.txt"] }));
    const r = runCli(["generate", "--input", "api.yaml", "--out", "client"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("is not an avaspec manifest");
    expect(readFileSync(join(dir, "victim.txt"), "utf8")).toBe("keep\n");
  });
});

describe("regenerating after the spec shrinks", () => {
  const config = (inputs: object[]) => JSON.stringify({ out: "pkg", package: { name: "pkg" }, inputs });
  it("removes exactly the files of a removed input, keeps a user file beside them, and drops a removed operation everywhere", () => {
    const dir = temp();
    writeFileSync(join(dir, "pets.yaml"), PETSTORE);
    writeFileSync(join(dir, "rpc.yaml"), RPC);
    const both = [
      { spec: "pets.yaml", output: "pets", clientName: "Pets" },
      { spec: "rpc.yaml", output: "chain", clientName: "Chain" },
    ];
    writeFileSync(join(dir, "avaspec.config.json"), config(both));
    expect(runCli(["generate"], dir).status).toBe(0);
    writeFileSync(join(dir, "pkg/src/chain/extra.ts"), "// mine\n");
    const before = snapshot(join(dir, "pkg"));

    writeFileSync(join(dir, "avaspec.config.json"), config(both.slice(0, 1)));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(0);
    const after = snapshot(join(dir, "pkg"));
    const gone = Object.keys(before).filter((p) => !(p in after)).sort();
    // the JSON-RPC client's runtime, and the mocks' JSON-RPC side, go with the package's last JSON-RPC input
    const runtime = ["src/runtime/jsonrpc/", "src/runtime/jsonrpc/eip1193.ts", "src/runtime/jsonrpc/endpoints.ts", "src/runtime/jsonrpc/index.ts", "src/runtime/jsonrpc/jsonrpc.ts", "src/runtime/mock/rpc.ts"];
    expect(gone).toEqual(["spec/rpc.json", "src/chain/client.ts", "src/chain/index.ts", "src/chain/mocks.ts", "src/chain/types.ts", "src/chain/validators.d.ts", "src/chain/validators.js", ...runtime].sort());
    expect(r.stdout).toContain(`removed ${gone.filter((p) => !p.endsWith("/")).length} no longer generated`);
    expect(readFileSync(join(dir, "pkg/src/chain/extra.ts"), "utf8")).toBe("// mine\n");
    expect(Object.keys(after).filter((p) => !(p in before))).toEqual([]);

    // an operation removed from the spec: no file removed, the operation gone from every file, the other files unchanged
    // a removed operation is a breaking change: the document's major version goes up with it
    const withoutDelete = PETSTORE.replace(/\n {4}delete:\n {6}operationId: deletePet\n(?: {6,}.*\n)*/, "\n").replace(/^( {2}version: )1\.0\.0$/m, "$12.0.0");
    writeFileSync(join(dir, "pets.yaml"), withoutDelete);
    expect(readFileSync(join(dir, "pets.yaml"), "utf8")).not.toContain("deletePet");
    expect(runCli(["generate"], dir).status).toBe(0);
    const third = snapshot(join(dir, "pkg"));
    expect(Object.keys(third).sort()).toEqual(Object.keys(after).sort());
    for (const file of Object.keys(third).filter((p) => !p.endsWith("/"))) expect(readFileSync(join(dir, "pkg", file), "utf8"), file).not.toMatch(/deletePet/);
    const changed = Object.keys(third).filter((p) => third[p] !== after[p]);
    expect(changed).toContain("src/pets/client.ts");
    expect(changed).not.toContain("src/runtime/http/http.ts");
  });
});

describe("a killed write", () => {
  /** Starts a generate that pauses in a phase, waits for its staging folder, kills it, and returns how it ended. */
  async function killDuring(dir: string, phase: "stage" | "apply", signal: NodeJS.Signals, args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, AVASPEC_TEST_PAUSE: `${phase}:${phase === "stage" ? 200 : 30_000}` }, stdio: "ignore" });
    const staging = join(dir, "client", STAGING_DIR);
    const ready = phase === "stage" ? join(staging, "files") : join(staging, "journal.json");
    const deadline = Date.now() + 30_000;
    while (!existsSync(ready)) {
      if (Date.now() > deadline) throw new Error(`no ${ready}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, phase === "stage" ? 300 : 100));
    child.kill(signal);
    return new Promise((resolve) => child.on("exit", (code, sig) => resolve({ code, signal: sig })));
  }

  function generated(): { dir: string; before: Record<string, string> } {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    expect(runCli(["generate", "--input", "api.yaml", "--out", "client"], dir).status).toBe(0);
    // the spec changes (a renamed method: a breaking change, so a major version): the next run writes different files
    writeFileSync(join(dir, "api.yaml"), PETSTORE.replace("operationId: listPets", "operationId: listAllPets").replace(/^( {2}version: )1\.0\.0$/m, "$12.0.0"));
    return { dir, before: snapshot(join(dir, "client")) };
  }
  const args = ["generate", "--input", "api.yaml", "--out", "client"];

  it("SIGTERM while staging: the previous output is intact and no temporary folder is left", async () => {
    const { dir, before } = generated();
    const end = await killDuring(dir, "stage", "SIGTERM", args);
    expect(end.signal).toBe("SIGTERM");
    expect(snapshot(join(dir, "client"))).toEqual(before);
    expect(leftovers(dir)).toEqual([]);
  }, 60_000);

  it("SIGKILL while staging: the previous output is intact; the next run removes the staging folder and writes", async () => {
    const { dir, before } = generated();
    const end = await killDuring(dir, "stage", "SIGKILL", args);
    expect(end.signal).toBe("SIGKILL");
    const after = snapshot(join(dir, "client"));
    expect(Object.fromEntries(Object.entries(after).filter(([p]) => !p.startsWith(STAGING_DIR)))).toEqual(before);
    // --check sees the leftover without touching it
    const check = runCli([...args, "--check"], dir);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(STAGING_DIR);
    expect(runCli(args, dir).status).toBe(0);
    expect(leftovers(dir)).toEqual([]);
    expect(readFileSync(join(dir, "client/src/api/client.ts"), "utf8")).toContain("listAllPets");
  }, 60_000);

  it("SIGKILL after the commit point: the next run finishes the write", async () => {
    const { dir } = generated();
    const end = await killDuring(dir, "apply", "SIGKILL", args);
    expect(end.signal).toBe("SIGKILL");
    const r = runCli(args, dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("finished the write a killed run had started");
    expect(leftovers(dir)).toEqual([]);
    expect(runCli([...args, "--check"], dir).status).toBe(0);
  }, 60_000);
});

describe("a regenerate moves only what changed", () => {
  it("leaves files that already hold their text untouched (same inode), replaces the changed ones, and the output is complete", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    const args = ["generate", "--input", "api.yaml", "--out", "client", "--targets", "types,validators,client"];
    expect(runCli(args, dir).status).toBe(0);
    const inodes = (rel: string) => statSync(join(dir, "client", rel)).ino;
    const runtime = "src/runtime/errors/errors.ts";
    const before = { runtime: inodes(runtime), client: inodes("src/api/client.ts") };
    // a description changes (with the patch release it calls for): the client module changes, the runtime does not
    writeFileSync(join(dir, "api.yaml"), PETSTORE.replace("description: Lists pets, optionally", "description: Lists every pet, optionally").replace(/^( {2}version: )1\.0\.0$/m, "$11.0.1"));
    expect(runCli(args, dir).status).toBe(0);
    expect(inodes(runtime)).toBe(before.runtime);
    expect(readFileSync(join(dir, "client/src/api/client.ts"), "utf8")).toContain("Lists every pet");
    expect(inodes("src/api/client.ts")).not.toBe(before.client);
    expect(runCli([...args, "--check"], dir).status).toBe(0);
    // a hand edit of a generated file is not "already holding its text": it is rewritten
    writeFileSync(join(dir, "client", runtime), "// edited\n");
    const edited = runCli(args, dir);
    expect(edited.status).toBe(0);
    expect(readFileSync(join(dir, "client", runtime), "utf8")).not.toBe("// edited\n");
    // what it says is what it did: one file written, the rest counted as unchanged, then nothing at all
    const total = JSON.parse(readFileSync(join(dir, "client", MANIFEST_FILE), "utf8")).files.length as number;
    expect(edited.stdout).toContain(`avaspec: wrote 1 file to client/ (${total - 1} unchanged)`);
    expect(runCli(args, dir).stdout).toContain(`avaspec: client/ already held what the specs produce (${total} files unchanged)`);
  });
});

describe("a stream of files (the CLI's generateStream)", () => {
  it("stages each file as it comes, so the writer holds one at a time, and writes the manifest of all", async () => {
    const out = join(temp(), "out");
    const stagedBefore: boolean[] = [];
    function* files(): Generator<[string, string]> {
      yield ["a.txt", "one\n"];
      // asked for the next file only once the previous one is in the staging folder
      stagedBefore.push(existsSync(join(out, STAGING_DIR, "files", "a.txt")));
      yield ["b/c.txt", "two\n"];
      stagedBefore.push(existsSync(join(out, STAGING_DIR, "files", "b/c.txt")));
    }
    const result = await writeTree(out, files());
    // the second check runs when the writer asks for a third file (the end of the stream)
    expect(stagedBefore).toEqual([true, true]);
    expect(result.written).toBe(2);
    expect(readFileSync(join(out, "b/c.txt"), "utf8")).toBe("two\n");
    expect(JSON.parse(readFileSync(join(out, MANIFEST_FILE), "utf8")).files).toEqual(["a.txt", "b/c.txt"]);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it("refuses a file in the way only once every path is known, with the output as it was and no staging folder", async () => {
    const out = temp();
    await writeTree(out, new Map([["a.txt", "mine\n"]]));
    writeFileSync(join(out, "b.txt"), "the user's\n");
    const before = snapshot(out);
    function* files(): Generator<[string, string]> {
      yield ["a.txt", "new\n"];
      yield ["b.txt", "would replace the user's file\n"];
    }
    await expect(writeTree(out, files())).rejects.toThrow(/1 file in .* that avaspec did not write would be replaced: b\.txt/);
    expect(snapshot(out)).toEqual(before);
  });
});
