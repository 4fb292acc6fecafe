/**
 * Issue 30: `avaspec diff --base <rev>` in a repository without an avaspec
 * config compares the OpenAPI and OpenRPC documents that changed since the
 * revision (it failed on the missing avaspec.config.json). Real git, real CLI.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { Change } from "../../generator/diff/index.js";
import { ROOT, runCli } from "../helpers/cli.js";

it("compares the OpenAPI and OpenRPC documents that changed since the revision, and says so when none did", () => {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-diff-noconfig-"));
  try {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdio: "pipe" });
    git("init", "-q");
    const spec = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
    writeFileSync(join(dir, "shop.yaml"), spec);
    writeFileSync(join(dir, "data.json"), '{"not": "a spec"}\n');
    git("add", ".");
    git("commit", "-qm", "one");
    // nothing changed: an answer (exit 0), not a missing-config error
    const none = runCli(["diff", "--base", "HEAD"], dir);
    expect(none.status, none.stderr).toBe(0);
    expect(none.stdout).toContain("no OpenAPI or OpenRPC document changed since HEAD");
    writeFileSync(join(dir, "shop.yaml"), spec.replace("operationId: listPets", "operationId: listAllPets"));
    writeFileSync(join(dir, "data.json"), '{"still": "not a spec"}\n');
    const r = runCli(["diff", "--base", "HEAD", "--format", "json"], dir);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { documents: { file: string; changes: Change[] }[] };
    expect(out.documents.map((d) => d.file)).toEqual(["shop.yaml"]);
    expect(out.documents[0]!.changes.map((c) => c.rule)).toEqual(["method-renamed"]);
    // a revision git does not know is a usage error that says so
    const bad = runCli(["diff", "--base", "no-such-revision"], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("bad revision 'no-such-revision'");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
