/**
 * Nothing outside the output folder is written or removed, whatever the
 * folder holds: a link inside it is never followed (a folder replaced by a
 * link, a crafted manifest, a killed run's journal and staged files are all
 * things anyone can edit), while an `--out` that is itself a link means the
 * folder it points to. Each refusal is one line with a code, the path and
 * what to do, and leaves everything as it was.
 */
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { place } from "../../generator/safe-path.js";
import { MANIFEST_FILE, STAGING_DIR } from "../../generator/write.js";
import { ROOT, runCli } from "../helpers/cli.js";

const PETSTORE = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
const RPC = readFileSync(join(ROOT, "test/fixtures/rpc-by-name/spec.yaml"), "utf8");
const ARGS = ["generate", "--input", "api.yaml", "--out", "client"];

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-links-"));
  dirs.push(dir);
  return dir;
}

/** Every entry under a folder, links as links (never followed), files with their text: the whole state. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = relative(root, full);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out[rel] = `link → ${readlinkSync(full)}`;
      else if (st.isDirectory()) {
        out[rel + "/"] = "dir";
        walk(full);
      } else out[rel] = readFileSync(full, "utf8");
    }
  };
  walk(root);
  return out;
}

/** The spec and its generated client/, made once: each test starts from a copy. */
let template: string;
beforeAll(() => {
  template = mkdtempSync(join(tmpdir(), "avaspec-links-template-"));
  writeFileSync(join(template, "api.yaml"), PETSTORE);
  expect(runCli(ARGS, template).status).toBe(0);
});
afterAll(() => rmSync(template, { recursive: true, force: true }));

/** A folder with the spec and its generated client/, and a folder of the user's outside it. */
function generated(): { dir: string; elsewhere: string } {
  const dir = temp();
  cpSync(template, dir, { recursive: true });
  const elsewhere = join(dir, "elsewhere");
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, "important.txt"), "precious\n");
  return { dir, elsewhere };
}

function addToManifest(out: string, ...entries: string[]): void {
  const file = join(out, MANIFEST_FILE);
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { avaspec: 1; files: string[] };
  manifest.files = [...manifest.files, ...entries].sort();
  writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
}

/** A refusal: exit 1, one line naming the code, nothing changed anywhere under `dir`. */
function expectRefused(r: ReturnType<typeof runCli>, dir: string, before: Record<string, string>, code: string): void {
  expect(r.status).toBe(1);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain(`[${code}]`);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(snapshot(dir)).toEqual(before);
}

describe("a link inside the output folder is never followed", () => {
  it("a manifest entry beyond a link to another folder: refused, the file there kept", () => {
    const { dir, elsewhere } = generated();
    symlinkSync("../elsewhere", join(dir, "client/cache"));
    addToManifest(join(dir, "client"), "cache/important.txt");
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/link");
    expect(r.stderr).toContain("client/cache is a symbolic link (to ../elsewhere) and cache/important.txt lies beyond it");
    expect(r.stderr).toContain("Replace the link with a real folder, or move it away, and run again; nothing was written");
    expect(readFileSync(join(elsewhere, "important.txt"), "utf8")).toBe("precious\n");

    // once the link is gone, the same manifest removes nothing of the user's: the entry is simply not there
    rmSync(join(dir, "client/cache"));
    const again = runCli(ARGS, dir);
    expect(again.stderr).toBe("");
    expect(again.status).toBe(0);
    expect(readFileSync(join(elsewhere, "important.txt"), "utf8")).toBe("precious\n");
  });

  it("no crafting: a module folder replaced by a link to the user's folder keeps the user's files when the spec drops the module", () => {
    const dir = temp();
    writeFileSync(join(dir, "pets.yaml"), PETSTORE);
    writeFileSync(join(dir, "rpc.yaml"), RPC);
    const config = (inputs: object[]) => JSON.stringify({ out: "pkg", package: { name: "pkg" }, inputs });
    const pets = { spec: "pets.yaml", output: "pets", clientName: "Pets" };
    writeFileSync(join(dir, "avaspec.config.json"), config([pets, { spec: "rpc.yaml", output: "chain", clientName: "Chain" }]));
    expect(runCli(["generate"], dir).status).toBe(0);
    // the user keeps their own chain module elsewhere, files of the same names, and links it in
    mkdirSync(join(dir, "mine"));
    const theirs = readdirSync(join(dir, "pkg/src/chain")).sort();
    for (const name of theirs) writeFileSync(join(dir, "mine", name), `// mine: ${name}\n`);
    rmSync(join(dir, "pkg/src/chain"), { recursive: true });
    symlinkSync("../../mine", join(dir, "pkg/src/chain"));

    writeFileSync(join(dir, "avaspec.config.json"), config([pets]));
    const before = snapshot(dir);
    const r = runCli(["generate"], dir);
    expectRefused(r, dir, before, "write/link");
    expect(r.stderr).toContain("pkg/src/chain is a symbolic link (to ../../mine)");
    expect(theirs).toContain("client.ts");
    expect(readdirSync(join(dir, "mine")).sort()).toEqual(theirs);

    // --check names what generate would refuse to remove, without touching it
    const check = runCli(["generate", "--check"], dir);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("extra:   pkg/src/chain/client.ts (beyond the symbolic link src/chain");
    expect(snapshot(dir)).toEqual(before);
  });

  it("a dangling link where a generated folder goes: refused before anything moves (it used to fail halfway, every run)", () => {
    const { dir } = generated();
    writeFileSync(join(dir, "api.yaml"), PETSTORE.replace("operationId: listPets", "operationId: listAllPets").replace(/^( {2}version: )1\.0\.0$/m, "$12.0.0"));
    rmSync(join(dir, "client/src/api"), { recursive: true });
    symlinkSync(join(dir, "not-yet"), join(dir, "client/src/api"));
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/link");
    expect(r.stderr).toContain("client/src/api is a symbolic link");
  });

  it("new files are not written through a link to the user's folder", () => {
    const { dir, elsewhere } = generated();
    rmSync(join(dir, "client/src/api"), { recursive: true });
    symlinkSync("../../elsewhere", join(dir, "client/src/api"));
    const before = snapshot(dir);
    expectRefused(runCli(ARGS, dir), dir, before, "write/link");
    expect(readdirSync(elsewhere)).toEqual(["important.txt"]);
  });

  it("a link where avaspec wrote a file is not avaspec's: refused without --force; --force replaces the link, never what it points to", () => {
    const { dir, elsewhere } = generated();
    rmSync(join(dir, "client/README.md"));
    symlinkSync("../elsewhere/important.txt", join(dir, "client/README.md"));
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("that avaspec did not write would be replaced: README.md");
    expect(snapshot(dir)).toEqual(before);
    const forced = runCli([...ARGS, "--force"], dir);
    expect(forced.status).toBe(0);
    expect(lstatSync(join(dir, "client/README.md")).isFile()).toBe(true);
    expect(readFileSync(join(elsewhere, "important.txt"), "utf8")).toBe("precious\n");
  });

  it("a link or folder where a no-longer-generated file was is left alone and leaves the manifest", () => {
    const { dir, elsewhere } = generated();
    symlinkSync("../elsewhere/important.txt", join(dir, "client/old.txt"));
    mkdirSync(join(dir, "client/old-folder"));
    writeFileSync(join(dir, "client/old-folder/mine.txt"), "mine\n");
    addToManifest(join(dir, "client"), "old.txt", "old-folder");
    const r = runCli(ARGS, dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("left old-folder, old.txt alone");
    expect(readlinkSync(join(dir, "client/old.txt"))).toBe("../elsewhere/important.txt");
    expect(readFileSync(join(dir, "client/old-folder/mine.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(elsewhere, "important.txt"), "utf8")).toBe("precious\n");
    const manifest = JSON.parse(readFileSync(join(dir, "client", MANIFEST_FILE), "utf8")) as { files: string[] };
    expect(manifest.files).not.toContain("old.txt");
    expect(manifest.files).not.toContain("old-folder");
  });
});

describe("the manifest and a killed run's journal are untrusted", () => {
  it.each([["../victim.txt"], ["/tmp/victim.txt"], ["src/../../victim.txt"], [STAGING_DIR + "/journal.json"]])("a manifest entry %s is refused, naming it, and nothing is removed", (entry) => {
    const { dir } = generated();
    writeFileSync(join(dir, "victim.txt"), "keep\n");
    addToManifest(join(dir, "client"), entry);
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/manifest");
    expect(r.stderr).toContain(`it lists ${JSON.stringify(entry)}, which is not a path inside the output folder`);
  });

  /** What a killed run leaves (its process gone): the staging folder with a committed journal. */
  function killedRun(out: string, journal: object): string {
    const staging = join(out, STAGING_DIR);
    mkdirSync(join(staging, "files"), { recursive: true });
    // pid 2^31-1 is beyond any pid_max: a process that is gone
    writeFileSync(join(staging, "owner.json"), JSON.stringify({ pid: 2 ** 31 - 1 }) + "\n");
    writeFileSync(join(staging, "journal.json"), JSON.stringify(journal) + "\n");
    return staging;
  }

  it("a journal that removes ../victim.txt is refused; the victim stays", () => {
    const { dir } = generated();
    writeFileSync(join(dir, "victim.txt"), "keep\n");
    killedRun(join(dir, "client"), { files: [], remove: ["../victim.txt"] });
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/journal");
    expect(r.stderr).toContain(`client/${STAGING_DIR}/journal.json is not a journal avaspec wrote`);
  });

  it("a staged folder that is a link out: the journal is refused and the file beyond the link is not moved into the output", () => {
    const { dir, elsewhere } = generated();
    const staging = killedRun(join(dir, "client"), { files: ["cache/important.txt"], remove: [] });
    symlinkSync(elsewhere, join(staging, "files/cache"));
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/staging");
    expect(readFileSync(join(elsewhere, "important.txt"), "utf8")).toBe("precious\n");
  });

  it("a journal whose target is beyond a link is refused before anything moves", () => {
    const { dir, elsewhere } = generated();
    symlinkSync("../elsewhere", join(dir, "client/cache"));
    const staging = killedRun(join(dir, "client"), { files: ["README.md"], remove: ["cache/important.txt"] });
    writeFileSync(join(staging, "files/README.md"), "new readme\n");
    const before = snapshot(dir);
    expectRefused(runCli(ARGS, dir), dir, before, "write/link");
    expect(readFileSync(join(elsewhere, "important.txt"), "utf8")).toBe("precious\n");
  });
});

describe("--out is a link; the staging folder is a link", () => {
  it("an --out that is a link to a folder generates into that folder, and again, and --check agrees", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    mkdirSync(join(dir, "real"));
    symlinkSync("real", join(dir, "client"));
    const first = runCli(ARGS, dir);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(readlinkSync(join(dir, "client"))).toBe("real");
    expect(readFileSync(join(dir, "real/src/api/client.ts"), "utf8")).toContain("listPets");
    const again = runCli(ARGS, dir);
    expect(again.stderr).toBe("");
    expect(again.status).toBe(0);
    expect(runCli([...ARGS, "--check"], dir).status).toBe(0);
  });

  it("an --out that is a link to the spec's own folder is refused like the folder itself", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    symlinkSync(".", join(dir, "client"));
    const before = snapshot(dir);
    const r = runCli([...ARGS, "--force"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("holds the input api.yaml");
    expect(snapshot(dir)).toEqual(before);
  });

  it("an --out that is a dangling link is a one-line refusal", () => {
    const dir = temp();
    writeFileSync(join(dir, "api.yaml"), PETSTORE);
    symlinkSync("nowhere", join(dir, "client"));
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/out");
    expect(r.stderr).toContain("client is a symbolic link to nowhere, which does not exist");
  });

  it.each([
    ["a link", (path: string) => symlinkSync("/nonexistent-avaspec", path)],
    ["a file", (path: string) => writeFileSync(path, "x\n")],
  ])("a staging path that is %s is reported as what it is, not as another avaspec writing; gone, the run works", (_what, make) => {
    const { dir } = generated();
    make(join(dir, "client", STAGING_DIR));
    const before = snapshot(dir);
    const r = runCli(ARGS, dir);
    expectRefused(r, dir, before, "write/staging");
    expect(r.stderr).not.toContain("another avaspec");
    expect(r.stderr).toContain(`client/${STAGING_DIR} is a`);
    expect(r.stderr).toContain("remove it and run again");
    rmSync(join(dir, "client", STAGING_DIR));
    expect(runCli(ARGS, dir).status).toBe(0);
  });
});

describe("safe-path: place()", () => {
  it("walks from the root with lstat and stops at the first component that is not a real folder", () => {
    const root = temp();
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/b/f.txt"), "x");
    symlinkSync(join(root, "a"), join(root, "inner-link"));
    writeFileSync(join(root, "file"), "x");
    expect(place(root, "a/b/f.txt")).toEqual({ kind: "file" });
    expect(place(root, "a/b")).toEqual({ kind: "folder" });
    expect(place(root, "a/missing/deeper.txt")).toEqual({ kind: "missing" });
    // a link pointing back inside the folder is refused all the same: the rule does not depend on where links lead
    expect(place(root, "inner-link/b/f.txt")).toEqual({ kind: "missing", blocked: { at: "inner-link", kind: "link" } });
    expect(place(root, "inner-link")).toEqual({ kind: "link" });
    expect(place(root, "file/x")).toEqual({ kind: "missing", blocked: { at: "file", kind: "file" } });
    for (const bad of ["../x", "/etc/passwd", "a/./b", "a//b", "", "a\\b", "C:/x"]) expect(() => place(root, bad)).toThrow(/internal: unchecked path/);
  });
});
