/**
 * The package version and CHANGELOG follow what changed in the spec documents
 * (the diff against the copies the previous release shipped) and their
 * info.version, through the ledger (versions.json) the previous generation
 * left behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { levelOfChanges, nextLedger, parseLedger, type Ledger, type RecordedChange, type SpecVersion } from "../../generator/versions.js";
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

  it("a free-form version change counts as minor (a patch release below 1.0.0)", () => {
    const before = start(spec("a.yaml", "2024-01-01"));
    expect(before.version).toBe("0.1.0");
    expect(nextLedger(before, [spec("a.yaml", "2024-06-01")]).ledger.version).toBe("0.1.1");
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

const change = (cls: RecordedChange["class"], rule = `some-${cls}`): RecordedChange => ({ rule, class: cls, message: `${rule} happened`, operation: "GET /x" });
const changed = (document: string, version: string, ...changes: RecordedChange[]): SpecVersion => ({ ...spec(document, version), diff: { changes } });

describe("nextLedger, driven by the diff", () => {
  it("levels: breaking → major, addition or deprecation → minor, documentation → patch, nothing → none", () => {
    expect(levelOfChanges([change("documentation"), change("breaking-code")])).toBe("major");
    expect(levelOfChanges([change("breaking-wire")])).toBe("major");
    expect(levelOfChanges([change("documentation"), change("deprecation")])).toBe("minor");
    expect(levelOfChanges([change("addition")])).toBe("minor");
    expect(levelOfChanges([change("documentation")])).toBe("patch");
    expect(levelOfChanges([])).toBeUndefined();
  });

  it.each([
    // class, document version after, package version after (package and document start at 1.0.0)
    ["breaking-wire", "2.0.0", "2.0.0"],
    ["breaking-code", "2.0.0", "2.0.0"],
    ["addition", "1.1.0", "1.1.0"],
    ["deprecation", "1.1.0", "1.1.0"],
    ["documentation", "1.0.1", "1.0.1"],
    // a bigger bump than the changes need is the author's call, and the package follows it
    ["documentation", "2.0.0", "2.0.0"],
  ] as const)("a %s change with info.version 1.0.0 → %s releases the package as %s, listing the change", (cls, to, want) => {
    const before = start(spec("a.yaml", "1.0.0"), spec("b.yaml", "1.0.0"));
    const { ledger, diagnostics } = nextLedger(before, [changed("a.yaml", to, change(cls)), spec("b.yaml", "1.0.0")]);
    expect(diagnostics).toEqual([]);
    expect(ledger.version).toBe(want);
    expect(ledger.releases[0]).toEqual({ version: want, changes: [{ document: "a.yaml", title: "a.yaml", from: "1.0.0", to, changes: [change(cls)] }] });
  });

  it.each([
    ["breaking-wire", "1.0.0", "2.0.0"],
    ["breaking-wire", "1.1.0", "2.0.0"],
    ["breaking-code", "1.0.5", "2.0.0"],
    ["addition", "1.0.0", "1.1.0"],
    ["deprecation", "1.0.1", "1.1.0"],
    ["documentation", "1.0.0", "1.0.1"],
  ] as const)("refuses a %s change with info.version 1.0.0 → %s (needs %s) at #/info/version; lenient, warns and still bumps the package", (cls, to, needs) => {
    const before = start(spec("a.yaml", "1.0.0"));
    const strict = nextLedger(before, [changed("a.yaml", to, change("documentation"), change(cls))]);
    expect(strict.diagnostics).toEqual([expect.objectContaining({ code: "versions/too-small", severity: "error", file: "a.yaml", pointer: "#/info/version", line: 3, col: 12 })]);
    expect(strict.diagnostics[0]!.message).toContain(`need info.version ${needs} or more`);
    expect(strict.diagnostics[0]!.message).toContain(`GET /x: some-${cls} happened [some-${cls}]`);
    expect(strict.diagnostics[0]!.hint).toContain("--lenient-versions");
    const lenient = nextLedger(before, [changed("a.yaml", to, change("documentation"), change(cls))], { lenient: true });
    expect(lenient.diagnostics).toEqual([expect.objectContaining({ code: "versions/too-small", severity: "warning" })]);
    expect(lenient.ledger.version).toBe(needs);
  });

  it("below 1.0.0 the minor plays the major's role, for the package and for a document's info.version", () => {
    const before = start(spec("a.yaml", "0.3.0"));
    expect(before.version).toBe("0.3.0");
    // breaking: 0.3.0 → 0.4.0 is enough, 0.3.1 is not
    expect(nextLedger(before, [changed("a.yaml", "0.4.0", change("breaking-wire"))])).toMatchObject({ diagnostics: [], ledger: { version: "0.4.0" } });
    expect(nextLedger(before, [changed("a.yaml", "0.3.1", change("breaking-wire"))]).diagnostics[0]!.message).toContain("need info.version 0.4.0 or more");
    // an addition: a patch bump covers it, and the package takes a patch release
    expect(nextLedger(before, [changed("a.yaml", "0.3.1", change("addition"))])).toMatchObject({ diagnostics: [], ledger: { version: "0.3.1" } });
    expect(nextLedger(before, [changed("a.yaml", "0.3.0", change("addition"))]).diagnostics[0]!.message).toContain("need info.version 0.3.1 or more, but info.version stayed at 0.3.0");
    // a document's minor bump below 1.0 announces a breaking change: the package takes its major role too
    const pkg = start(spec("a.yaml", "1.0.0"), spec("b.yaml", "0.3.0"));
    expect(nextLedger(pkg, [spec("a.yaml", "1.0.0"), changed("b.yaml", "0.4.0", change("documentation"))]).ledger.version).toBe("2.0.0");
  });

  it("a prerelease package is released by dropping its tag when the level allows", () => {
    for (const [from, cls, want] of [
      ["2.0.0-rc.1", "breaking-wire", "2.0.0"],
      ["1.1.0-beta", "addition", "1.1.0"],
      ["1.1.0-beta", "breaking-wire", "2.0.0"],
      ["1.0.1-rc.1", "documentation", "1.0.1"],
    ] as const) {
      const before = start(spec("a.yaml", from));
      // info.version left as it was (lenient): the level is the changes' alone
      expect(nextLedger(before, [changed("a.yaml", from, change(cls))], { lenient: true }).ledger.version, `${from} + ${cls}`).toBe(want);
    }
  });

  it("no change and the same info.version: no release (reordered keys and $ref moves diff to nothing)", () => {
    const before = start(spec("a.yaml", "1.0.0"));
    expect(nextLedger(before, [changed("a.yaml", "1.0.0")])).toEqual({ ledger: before, diagnostics: [] });
  });

  it("a copy that cannot be compared warns at #/info/version and counts as a patch unless info.version says more", () => {
    const before = start(spec("a.yaml", "1.0.0"));
    const unavailable = (version: string): SpecVersion => ({ ...spec("a.yaml", version), diff: { unavailable: "out/spec/a.json is missing" } });
    const same = nextLedger(before, [unavailable("1.0.0")]);
    expect(same.diagnostics).toEqual([expect.objectContaining({ code: "versions/baseline", severity: "warning", pointer: "#/info/version" })]);
    expect(same.diagnostics[0]!.message).toContain("out/spec/a.json is missing");
    expect(same.ledger.version).toBe("1.0.1");
    expect(nextLedger(before, [unavailable("2.0.0")]).ledger.version).toBe("2.0.0");
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

  const withoutDelete = (text: string) => {
    const a = text.indexOf("    delete:\n");
    const b = text.indexOf("  /pets/{petId}/status:");
    expect(a).toBeGreaterThan(0);
    return text.slice(0, a) + text.slice(b);
  };
  const versionLine = GOOD.split("\n").findIndex((l) => /^ {2}version: /.test(l)) + 1;

  it("a breaking change the document's info.version does not announce is refused at #/info/version, output untouched; announced, the package takes a major release listing it", () => {
    const dir = scratch();
    expect(runCli(["generate"], dir).status).toBe(0);
    const before = ["package.json", "CHANGELOG.md", "versions.json", "spec/api.json"].map((f) => readFileSync(join(dir, "out", f), "utf8"));

    writeFileSync(join(dir, "api.yaml"), withoutDelete(withVersion("1.0.1")));
    const refused = runCli(["generate"], dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`api.yaml:${versionLine}:3 at #/info/version: the changes since release 1.0.0 (1 breaking-wire; DELETE /pets/{petId} was removed [operation-removed]) need info.version 2.0.0 or more, but info.version only went from 1.0.0 to 1.0.1`);
    expect(refused.stderr).toContain("left untouched");
    expect(["package.json", "CHANGELOG.md", "versions.json", "spec/api.json"].map((f) => readFileSync(join(dir, "out", f), "utf8"))).toEqual(before);

    writeFileSync(join(dir, "api.yaml"), withoutDelete(withVersion("2.0.0")));
    expect(runCli(["generate"], dir).status).toBe(0);
    expect(pkgVersion(dir)).toBe("2.0.0");
    const changelog = readFileSync(join(dir, "out/CHANGELOG.md"), "utf8");
    expect(changelog).toContain("## 2.0.0\n\n- Petstore (OpenAPI 3.0 fixture) (`api.yaml`): `1.0.0` → `2.0.0`\n  - **breaking-wire**: DELETE /pets/{petId} was removed (`operation-removed`)\n");
    const ledger = JSON.parse(readFileSync(join(dir, "out/versions.json"), "utf8")) as Ledger;
    expect(ledger.releases[0]!.changes[0]!.changes).toContainEqual({ rule: "operation-removed", class: "breaking-wire", message: "DELETE /pets/{petId} was removed", operation: "DELETE /pets/{petId}" });
    // the shipped copy moved on: generating again is a no-op
    expect(runCli(["generate", "--check"], dir).status).toBe(0);
  });

  it("--lenient-versions makes the refusal a warning; the package version still follows the changes", () => {
    const dir = scratch();
    expect(runCli(["generate"], dir).status).toBe(0);
    writeFileSync(join(dir, "api.yaml"), withoutDelete(withVersion("1.0.0")));
    const r = runCli(["generate", "--lenient-versions"], dir);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("need info.version 2.0.0 or more, but info.version stayed at 1.0.0 [versions/too-small] (warning)");
    expect(pkgVersion(dir)).toBe("2.0.0");
    expect(readFileSync(join(dir, "out/CHANGELOG.md"), "utf8")).toContain("(`api.yaml`): `1.0.0`, same info.version\n  - **breaking-wire**: DELETE /pets/{petId} was removed");
  });

  it("an addition needs a minor bump; reordered keys are no change and no release", () => {
    const dir = scratch();
    expect(runCli(["generate"], dir).status).toBe(0);
    const withParam = (text: string) => text.replace("filtered by tags and status.\n      parameters:\n", "filtered by tags and status.\n      parameters:\n        - name: order\n          in: query\n          schema: { type: string }\n");
    expect(withParam(GOOD)).not.toBe(GOOD);
    writeFileSync(join(dir, "api.yaml"), withParam(withVersion("1.0.1")));
    expect(runCli(["generate"], dir).stderr).toContain("need info.version 1.1.0 or more");
    writeFileSync(join(dir, "api.yaml"), withParam(withVersion("1.1.0")));
    expect(runCli(["generate"], dir).status).toBe(0);
    expect(pkgVersion(dir)).toBe("1.1.0");
    expect(readFileSync(join(dir, "out/CHANGELOG.md"), "utf8")).toContain('  - **addition**: GET /pets: new optional query parameter "order" (`param-added`)');

    // the same document with its top-level keys in another order: no change, no release
    const lines = withParam(withVersion("1.1.0")).split("\n");
    const pathsAt = lines.indexOf("paths:");
    const componentsAt = lines.indexOf("components:");
    expect(pathsAt).toBeGreaterThan(0);
    expect(componentsAt).toBeGreaterThan(pathsAt);
    const tail = lines.slice(componentsAt).join("\n").replace(/\n*$/, "\n");
    writeFileSync(join(dir, "api.yaml"), [...lines.slice(0, pathsAt), ...tail.split("\n").slice(0, -1), ...lines.slice(pathsAt, componentsAt)].join("\n") + "\n");
    const reordered = runCli(["generate"], dir);
    expect(reordered.status, reordered.stderr).toBe(0);
    expect(pkgVersion(dir)).toBe("1.1.0");
  });

  it("spec strings in the CHANGELOG are escaped: a removed property named like markup stays text", () => {
    const dir = scratch();
    const hostile = "x</li><script>alert(1)</script>|`y";
    const withProperty = (text: string) => text.replace("        tag:\n          type: string\n", `        ${JSON.stringify(hostile)}:\n          type: string\n        tag:\n          type: string\n`);
    expect(withProperty(GOOD)).not.toBe(GOOD);
    writeFileSync(join(dir, "api.yaml"), withProperty(withVersion("1.0.0")));
    expect(runCli(["generate", "--force"], dir).status).toBe(0);
    writeFileSync(join(dir, "api.yaml"), withVersion("2.0.0"));
    const r = runCli(["generate"], dir);
    expect(r.status, r.stderr).toBe(0);
    const changelog = readFileSync(join(dir, "out/CHANGELOG.md"), "utf8");
    expect(changelog).not.toContain("<script>");
    // markup as entities, Markdown punctuation escaped (a lone backtick would open a code span)
    expect(changelog).toContain('- **breaking-wire**: `GET /pets`: response at 200/items/\\[\\] no longer has "x&lt;/li&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\|\\`y" (`response-property-removed`)\n');
  });

  it("documents with the same base name ship as separate copies, each the baseline of its own document", () => {
    const dir = scratch();
    mkdirSync(join(dir, "a"));
    mkdirSync(join(dir, "b"));
    writeFileSync(join(dir, "a/api.yaml"), withVersion("1.0.0"));
    writeFileSync(join(dir, "b/api.yaml"), readFileSync(join(ROOT, "test/fixtures/rpc-by-name/spec.yaml"), "utf8"));
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "scratch" }, inputs: [{ spec: "a/api.yaml", output: "pets", clientName: "Pets" }, { spec: "b/api.yaml", output: "rpc", clientName: "Rpc" }] }));
    expect(runCli(["generate"], dir).status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "out/spec/a-api.json"), "utf8")).openapi).toBe("3.0.3");
    expect(JSON.parse(readFileSync(join(dir, "out/spec/b-api.json"), "utf8")).openrpc).toBeDefined();
    expect(existsSync(join(dir, "out/spec/api.json"))).toBe(false);
    // each compared with its own copy: nothing changed, nothing to release
    const again = runCli(["generate", "--check"], dir);
    expect(again.status, again.stderr).toBe(0);
    writeFileSync(join(dir, "a/api.yaml"), withoutDelete(withVersion("1.0.0")));
    const r = runCli(["generate"], dir);
    expect(r.stderr).toContain("a/api.yaml:");
    expect(r.stderr).toContain("DELETE /pets/{petId} was removed [operation-removed]");
    expect(r.stderr).not.toContain("b/api.yaml:");
  });

  it("a document with allowed external $refs is compared with them followed", () => {
    const dir = scratch();
    mkdirSync(join(dir, "shared"));
    const shared = (props: string) => `type: object\nproperties:\n${props}`;
    writeFileSync(join(dir, "shared/thing.yaml"), shared("  id: { type: string }\n  name: { type: string }\n"));
    writeFileSync(join(dir, "api.yaml"), "openapi: 3.0.3\ninfo: { title: Things, version: 1.0.0 }\npaths:\n  /thing:\n    get:\n      operationId: getThing\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: './shared/thing.yaml' }\n");
    writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "scratch" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api", refs: { allow: ["./shared/"] } }] }));
    expect(runCli(["generate", "--force"], dir).status).toBe(0);
    writeFileSync(join(dir, "shared/thing.yaml"), shared("  id: { type: string }\n"));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('GET /thing: response at 200 no longer has "name" [response-property-removed]) need info.version 2.0.0 or more');
    expect(r.stderr).not.toContain("versions/baseline");
  });

  it("a shipped copy that no longer builds is a warning, and the version follows info.version alone", () => {
    const dir = scratch();
    expect(runCli(["generate"], dir).status).toBe(0);
    writeFileSync(join(dir, "out/spec/api.json"), '{ "openapi": "3.0.3" }\n');
    writeFileSync(join(dir, "api.yaml"), withVersion("1.0.0").replace("A pet in the store", "A pet in the shop"));
    const r = runCli(["generate", "--force"], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("cannot compare with the copy release 1.0.0 shipped");
    expect(r.stderr).toContain("[versions/baseline] (warning)");
    expect(pkgVersion(dir)).toBe("1.0.1");
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
