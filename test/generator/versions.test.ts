/**
 * The package version and CHANGELOG follow the spec documents' info.version
 * through the ledger (versions.json) the previous generation left behind.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nextLedger, parseLedger, type Ledger, type SpecVersion } from "../../generator/versions.js";
import { ROOT, runCli } from "../helpers/cli.js";

const spec = (document: string, version: string, title = document): SpecVersion => ({ document, title, version, file: document, locate: () => ({ line: 3, col: 12 }) });
const start = (...specs: SpecVersion[]): Ledger => nextLedger(undefined, specs).ledger;

describe("nextLedger", () => {
  it("starts the package at the highest document version, every document new", () => {
    const l = start(spec("a.yaml", "1.2.0"), spec("b.yaml", "1.10.0"), spec("c.yaml", "1.9.9"));
    expect(l.version).toBe("1.10.0");
    expect(l.releases).toEqual([{ version: "1.10.0", changes: ["a.yaml", "b.yaml", "c.yaml"].map((d) => ({ document: d, title: d, to: expect.any(String) })) }]);
  });

  it("starts at 0.1.0 when no document has a semantic version", () => {
    expect(start(spec("a.yaml", "2024-01-01")).version).toBe("0.1.0");
  });

  it.each([
    ["1.0.1", "1.0.1"],
    ["1.1.0", "1.1.0"],
    ["2.0.0", "2.0.0"],
    ["1.0.1-rc.1", "1.0.1"],
  ])("one document 1.0.0 → %s makes the package 1.0.0 → %s", (to, want) => {
    const before = start(spec("a.yaml", "1.0.0"), spec("b.yaml", "1.0.0"));
    const { ledger, diagnostics } = nextLedger(before, [spec("a.yaml", to), spec("b.yaml", "1.0.0")]);
    expect(diagnostics).toEqual([]);
    expect(ledger.version).toBe(want);
    expect(ledger.releases[0]).toEqual({ version: want, changes: [{ document: "a.yaml", title: "a.yaml", from: "1.0.0", to }] });
    expect(ledger.releases).toHaveLength(2);
  });

  it("takes the biggest change when several documents move", () => {
    const before = start(spec("a.yaml", "1.0.0"), spec("b.yaml", "3.4.5"));
    expect(before.version).toBe("3.4.5");
    const { ledger } = nextLedger(before, [spec("a.yaml", "1.0.1"), spec("b.yaml", "3.5.0")]);
    expect(ledger.version).toBe("3.5.0");
    expect(ledger.releases[0]!.changes.map((c) => c.document)).toEqual(["a.yaml", "b.yaml"]);
  });

  it("bumps minor for a new document and major for a removed one", () => {
    const before = start(spec("a.yaml", "1.0.0"));
    const added = nextLedger(before, [spec("a.yaml", "1.0.0"), spec("b.yaml", "0.3.0")]).ledger;
    expect(added.version).toBe("1.1.0");
    expect(added.releases[0]!.changes).toEqual([{ document: "b.yaml", title: "b.yaml", to: "0.3.0" }]);
    const removed = nextLedger(added, [spec("b.yaml", "0.3.0")]).ledger;
    expect(removed.version).toBe("2.0.0");
    expect(removed.releases[0]!.changes).toEqual([{ document: "a.yaml", title: "a.yaml", from: "1.0.0" }]);
  });

  it("a free-form version change counts as minor", () => {
    const before = start(spec("a.yaml", "2024-01-01"));
    expect(nextLedger(before, [spec("a.yaml", "2024-06-01")]).ledger.version).toBe("0.2.0");
  });

  it("leaves the ledger alone when nothing moved", () => {
    const before = start(spec("a.yaml", "1.0.0"));
    expect(nextLedger(before, [spec("a.yaml", "1.0.0")]).ledger).toEqual(before);
  });

  it.each([
    ["1.0.0", "0.9.9"],
    ["1.0.0", "1.0.0-rc.1"],
    ["1.0.0-rc.2", "1.0.0-rc.1"],
    ["1.0.0-beta", "1.0.0-alpha"],
    ["1.0.0-alpha.1", "1.0.0-alpha"],
  ])("refuses %s → %s at #/info/version", (from, to) => {
    const before = start(spec("a.yaml", from));
    const { ledger, diagnostics } = nextLedger(before, [spec("a.yaml", to)]);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: "error", file: "a.yaml", pointer: "#/info/version", line: 3, col: 12, code: "versions/backwards" })]);
    expect(diagnostics[0]!.message).toContain(`from ${from} to ${to}`);
    expect(ledger.version).toBe(before.version);
  });

  it("orders prereleases as semver does", () => {
    const before = start(spec("a.yaml", "1.0.0-alpha"));
    for (const to of ["1.0.0-alpha.1", "1.0.0-beta", "1.0.0-beta.11", "1.0.0"]) {
      expect(nextLedger(before, [spec("a.yaml", to)]).diagnostics, to).toEqual([]);
    }
  });

  it("rejects a ledger that is not one", () => {
    for (const text of ["{", "[]", '{"version":"x","documents":{},"releases":[]}', '{"version":"1.0.0","documents":{"a":1},"releases":[]}', '{"version":"1.0.0","documents":{},"releases":{}}']) {
      expect(parseLedger(text, "out/versions.json").diagnostic, text).toMatchObject({ severity: "error", file: "out/versions.json", code: "versions/ledger" });
    }
    expect(parseLedger(JSON.stringify(start(spec("a.yaml", "1.0.0"))), "v.json").ledger?.version).toBe("1.0.0");
  });
});

describe("through the CLI", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const GOOD = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
  const withVersion = (v: string) => GOOD.replace(/^(  version: ).*$/m, `$1${v}`);

  function scratch(): string {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-versions-"));
    dirs.push(dir);
    writeFileSync(join(dir, "api.yaml"), withVersion("1.0.0"));
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "scratch" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api" }] }));
    return dir;
  }
  const pkgVersion = (dir: string) => (JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8")) as { version: string }).version;

  it("bumps the package and writes a CHANGELOG entry when a spec's version moves; --check catches the drift first", () => {
    const dir = scratch();
    expect(runCli(["generate"], dir).status).toBe(0);
    expect(pkgVersion(dir)).toBe("1.0.0");
    expect(readFileSync(join(dir, "out/CHANGELOG.md"), "utf8")).toContain("## 1.0.0\n\n- Petstore (OpenAPI 3.0 fixture) (`api.yaml`): `1.0.0`, new");
    expect(JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8")).files).toContain("CHANGELOG.md");

    writeFileSync(join(dir, "api.yaml"), withVersion("1.1.0"));
    const check = runCli(["generate", "--check"], dir);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("changed: out/package.json");
    expect(check.stderr).toContain("changed: out/CHANGELOG.md");

    expect(runCli(["generate"], dir).status).toBe(0);
    expect(pkgVersion(dir)).toBe("1.1.0");
    const changelog = readFileSync(join(dir, "out/CHANGELOG.md"), "utf8");
    expect(changelog.indexOf("## 1.1.0")).toBeLessThan(changelog.indexOf("## 1.0.0"));
    expect(changelog).toContain("- Petstore (OpenAPI 3.0 fixture) (`api.yaml`): `1.0.0` → `1.1.0`");
    // a second run with no spec change is a no-op
    expect(runCli(["generate", "--check"], dir).status).toBe(0);

    writeFileSync(join(dir, "api.yaml"), withVersion("2.0.0"));
    expect(runCli(["generate"], dir).status).toBe(0);
    expect(pkgVersion(dir)).toBe("2.0.0");
  });

  it("a version that goes down is an error at #/info/version and leaves the output untouched", () => {
    const dir = scratch();
    writeFileSync(join(dir, "api.yaml"), withVersion("1.2.0"));
    expect(runCli(["generate"], dir).status).toBe(0);
    const before = readFileSync(join(dir, "out/package.json"), "utf8");
    writeFileSync(join(dir, "api.yaml"), withVersion("1.1.0"));
    const r = runCli(["generate"], dir);
    expect(r.status).not.toBe(0);
    const line = GOOD.split("\n").findIndex((l) => /^ {2}version: /.test(l)) + 1;
    expect(r.stderr).toMatch(new RegExp(`api\\.yaml:${line}:\\d+ at #/info/version: info\\.version went from 1\\.2\\.0 to 1\\.1\\.0`));
    expect(r.stderr).toContain("left untouched");
    expect(readFileSync(join(dir, "out/package.json"), "utf8")).toBe(before);
  });

  it("a corrupt ledger is an error, not a silent restart", () => {
    const dir = scratch();
    expect(runCli(["generate"], dir).status).toBe(0);
    writeFileSync(join(dir, "out/versions.json"), "{ not json");
    const r = runCli(["generate"], dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("out/versions.json:1:1 at #: not valid JSON");
    expect(existsSync(join(dir, "out/CHANGELOG.md"))).toBe(true);
  });

  it("refuses a hand-set package.version", () => {
    const dir = scratch();
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "scratch", version: "9.9.9" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api" }] }));
    const r = runCli(["generate"], dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('"package.version" is not set by hand');
  });
});
