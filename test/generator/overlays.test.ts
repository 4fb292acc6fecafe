/**
 * Overlays (OpenAPI Overlay Specification 1.0 and 1.1, issue 31): the specification's
 * own material (compliant sets with their expected output, the documents its
 * JSON Schema accepts and refuses, in test/fixtures/overlay-spec, Apache-2.0),
 * then overlays through the real CLI: on an OpenAPI and an OpenRPC document,
 * from the command line and the config, a target that selects nothing, an
 * overlay that breaks the document (the validator's diagnostics, at the spec
 * for what the spec wrote, at the overlay for what an action inserted), and
 * the version ledger reading the document with its overlays.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import type { Diagnostic } from "../../generator/load/diagnostics.js";
import { readOverlay } from "../../generator/load/overlay-document.js";
import { overlaid, scratchFolders } from "../helpers/overlaid.js";
import { parseDiagnostics, ROOT, runCli } from "../helpers/cli.js";

const SPEC = join(ROOT, "test/fixtures/overlay-spec");
const scratch = scratchFolders("avaspec-overlay-");

/** `file:line:col` of a diagnostic the CLI printed. */
const position = (d: { line: string }) => d.line.split(" at ")[0];

describe("the Overlay specification's compliant sets", () => {
  const sets = readdirSync(join(SPEC, "compliant-sets"));
  const version = (set: string) => /^overlay: '?(1\.\d+)\./m.exec(readFileSync(join(SPEC, "compliant-sets", set, "overlay.yaml"), "utf8"))?.[1];

  it.each(sets)("%s: the document after the overlay is the set's output.yaml", (set) => {
    const dir = join(SPEC, "compliant-sets", set);
    const r = overlaid(join(dir, "openapi.yaml"), [join(dir, "overlay.yaml")]);
    // remove-server's overlay says it extends openapi-with-servers.yaml, a name the set's document does not have
    expect(r.diagnostics.map((d) => d.code)).toEqual(set === "remove-server" ? ["overlay/extends"] : []);
    expect(r.ok).toBe(true);
    expect(r.root).toEqual(YAML.parse(readFileSync(join(dir, "output.yaml"), "utf8")));
  });

  it("covers seven 1.0 sets and one 1.1 set; a version after 1.1 is refused at its version, not half applied", () => {
    expect(sets.map(version).sort()).toEqual([...Array(7).fill("1.0"), "1.1"]);
    const dir = scratch({ "openapi.yaml": "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths: {}\n", "overlay.yaml": "overlay: 1.2.0\ninfo: { title: t, version: '1' }\nactions:\n  - { target: $.info, update: { title: changed } }\n" });
    const r = overlaid(join(dir, "openapi.yaml"), [join(dir, "overlay.yaml")]);
    expect(r.ok).toBe(false);
    expect((r.root as { info: { title: string } }).info.title).toBe("t");
    expect(r.diagnostics[0]).toMatchObject({ code: "overlay/invalid", pointer: "#/overlay", line: 1, col: 1, message: 'unsupported overlay version "1.2.0"; avaspec applies Overlay Specification 1.0.x and 1.1.x' });
  });
});

describe("extends", () => {
  it("an overlay that extends another file than the document it is applied to: a warning at its extends, applied all the same; a URL is not compared", () => {
    const spec = "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths: {}\n";
    const dir = scratch({ "openapi.yaml": spec, "other.yaml": spec });
    const withExtends = (target: string) => {
      writeFileSync(join(dir, "o.yaml"), `overlay: 1.1.0\ninfo: { title: t, version: '1' }\nextends: '${target}'\nactions:\n  - { target: $.info, update: { title: changed } }\n`);
      const r = overlaid(join(dir, "openapi.yaml"), [join(dir, "o.yaml")]);
      expect(r.ok).toBe(true);
      expect((r.root as { info: { title: string } }).info.title).toBe("changed");
      return r.diagnostics.map((d) => [d.code, d.severity, d.pointer, `${d.line}:${d.col}`, d.message.replace(dir, "<dir>")]);
    };
    expect(withExtends("./openapi.yaml")).toEqual([]);
    expect(withExtends("openapi.yaml#ignored")).toEqual([]);
    expect(withExtends("https://example.com/specs/other.yaml")).toEqual([]);
    const warned = withExtends("./other.yaml");
    expect(warned).toHaveLength(1);
    expect(warned[0]!.slice(0, 4)).toEqual(["overlay/extends", "warning", "#/extends", "3:1"]);
    expect(warned[0]![4]).toMatch(/^this overlay extends \.\/other\.yaml \(.*other\.yaml\), not .*openapi\.yaml, the document it was applied to$/);
  });
});

describe.each(["1.0", "1.1"])("the Overlay %s schema's test documents", (v) => {
  const read = (kind: string) => readdirSync(join(SPEC, `tests-v${v}`, kind)).map((f) => join(SPEC, `tests-v${v}`, kind, f));

  it.each(read("pass"))("accepts %s", (file) => {
    const diagnostics: Diagnostic[] = [];
    expect(readOverlay(file, diagnostics)).toBeDefined();
    expect(diagnostics).toEqual([]);
  });

  it.each(read("fail"))("refuses %s with a located diagnostic", (file) => {
    const diagnostics: Diagnostic[] = [];
    expect(readOverlay(file, diagnostics)).toBeUndefined();
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const d of diagnostics) expect(d.file).toBe(file);
    expect(diagnostics.some((d) => d.severity === "error")).toBe(true);
  });
});

describe("the specification's examples on a document", () => {
  const doc = `openapi: 3.1.0
info: { title: Examples, version: 1.0.0 }
paths:
  /foo:
    get:
      parameters:
        - { name: dummy, in: query, schema: { type: string } }
        - { name: filter, in: query, schema: { type: string } }
      responses: { "200": { description: ok } }
  /bar:
    get:
      responses: { "200": { description: ok } }
`;

  it("the targeted, wildcard and array examples do what the text of the specification says", () => {
    const dir = scratch({ "openapi.yaml": doc });
    const ex = (name: string) => join(SPEC, "tests-v1.0/pass", name);
    const r = overlaid(join(dir, "openapi.yaml"), [ex("actions-targeted-overlay-example.yaml"), ex("actions-wildcard-overlay-example.yaml"), ex("actions-array-modification-example-update.yaml"), ex("actions-array-modification-example-remove.yaml")]);
    expect(r.diagnostics).toEqual([]);
    const paths = (r.root as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths;
    expect(paths["/foo"]!["get"]!["description"]).toBe("This is the new description");
    expect(paths["/bar"]!["post"]).toEqual({ description: "This is an updated description of a child object", "x-safe": false });
    expect(paths["/foo"]!["get"]!["x-safe"]).toBe(true);
    // the filter parameter got the schema of the wildcard example (merged), dummy was removed, newParam appended
    expect(paths["/foo"]!["get"]!["parameters"]).toEqual([
      { name: "filter", in: "query", schema: { type: "string", $ref: "#/components/schemas/filterSchema" } },
      { name: "newParam", in: "query", schema: { type: "string" } },
    ]);
    // /bar's get has no parameters array: the update example selects nothing there
    expect(paths["/bar"]!["get"]!["parameters"]).toBeUndefined();
  });

  it("an update with a __proto__ key writes a property of the document, never a prototype", () => {
    const dir = scratch({ "openapi.yaml": doc, "proto.overlay.json": '{ "overlay": "1.0.0", "info": { "title": "Hostile", "version": "1" }, "actions": [{ "target": "$.info", "update": { "__proto__": { "polluted": true }, "title": "Renamed" } }] }' });
    const r = overlaid(join(dir, "openapi.yaml"), [join(dir, "proto.overlay.json")]);
    expect(r.ok).toBe(true);
    const info = (r.root as { info: Record<string, unknown> }).info;
    expect(info["title"]).toBe("Renamed");
    expect(Object.prototype.hasOwnProperty.call(info, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(info)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("remove wins over update in one action (actions-update-with-remove)", () => {
    const dir = scratch({ "openapi.yaml": doc });
    const r = overlaid(join(dir, "openapi.yaml"), [join(SPEC, "tests-v1.0/pass/actions-update-with-remove.yaml")]);
    expect((r.root as { paths: Record<string, { get: Record<string, unknown> }> }).paths["/foo"]!.get["parameters"]).toBeUndefined();
  });
});

const PETSTORE = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
const RPC = readFileSync(join(ROOT, "test/fixtures/rpc-by-name/spec.yaml"), "utf8");
/** The pet store without its deletePet operation. */
function withoutDelete(text: string): string {
  const doc = YAML.parse(text) as { paths: Record<string, Record<string, unknown>> };
  delete doc.paths["/pets/{petId}"]!["delete"];
  return YAML.stringify(doc);
}

describe("avaspec generate with overlays (the real CLI)", () => {
  it("--overlay patches an OpenAPI document before validation; a target that selects nothing is a warning at that action", () => {
    const dir = scratch({
      "pet.yaml": PETSTORE,
      "fix.overlay.yaml": `overlay: 1.0.0
info: { title: Fix the pet store, version: 1.0.0 }
actions:
  - target: $.paths['/pets'].get
    description: a clearer summary
    update:
      summary: Every pet in the store
  - target: $.paths['/nothing-here']
    remove: true
  - target: $.paths['/pets/{petId}'].delete
    remove: true
`,
    });
    const r = runCli(["generate", "--input", "pet.yaml", "--out", "out", "--overlay", "fix.overlay.yaml"], dir);
    expect(r.status, r.stderr).toBe(0);
    const found = parseDiagnostics(r.stderr);
    expect(found).toEqual([expect.objectContaining({ file: "fix.overlay.yaml", pointer: "#/actions/1/target", code: "overlay/no-match", warning: true })]);
    expect(position(found[0]!)).toBe("fix.overlay.yaml:8:5");
    const client = readFileSync(join(dir, "out/src/pet/client.ts"), "utf8");
    expect(client).toContain("Every pet in the store");
    expect(client).not.toContain("deletePet");
    // the shipped spec copy is the document as generated: with its overlays
    const shipped = JSON.parse(readFileSync(join(dir, "out/spec/pet.json"), "utf8")) as { paths: Record<string, Record<string, unknown>> };
    expect(shipped.paths["/pets/{petId}"]!["delete"]).toBeUndefined();
  });

  it("an overlay on an OpenRPC document, from the config (overlays of a spec entry)", () => {
    const dir = scratch({
      "rpc.yaml": RPC,
      "rpc.overlay.yaml": `overlay: 1.0.0
info: { title: Retitle and trim, version: 1.0.0 }
actions:
  - target: $.methods[?@.name == 'calc.add']
    update:
      summary: Adds two numbers (patched)
  - target: $.methods[?@.name == 'calc.subtract']
    remove: true
`,
      "avaspec.config.json": JSON.stringify({ out: "out", package: { name: "rpc" }, inputs: [{ specs: [{ spec: "rpc.yaml", overlays: ["rpc.overlay.yaml"] }], output: "api", clientName: "Api" }] }),
    });
    const r = runCli(["generate"], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const client = readFileSync(join(dir, "out/src/api/client.ts"), "utf8");
    expect(client).toContain("Adds two numbers (patched)");
    expect(client).toContain("add");
    expect(client).not.toContain("subtract");
  });

  it("an overlay that breaks the document gets the validator's diagnostics: at the overlay for what it inserted, at the spec for what the spec wrote", () => {
    const dir = scratch({
      "pet.yaml": PETSTORE,
      "break.overlay.yaml": `overlay: 1.0.0
info: { title: Break it, version: 1.0.0 }
actions:
  - target: $.paths['/pets'].get
    update:
      operationId: 12
  - target: $.components.schemas.PetList
    remove: true
`,
      "avaspec.config.json": JSON.stringify({ out: "out", package: { name: "pets" }, inputs: [{ spec: "pet.yaml", overlays: ["break.overlay.yaml"], output: "pet", clientName: "Pet" }] }),
    });
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("out/ was left untouched");
    const found = parseDiagnostics(r.stderr);
    // the operationId the overlay wrote: its line in the overlay, with the document's pointer in the hint
    const id = found.find((d) => d.code === "operation/id")!;
    expect(id).toMatchObject({ file: "break.overlay.yaml", pointer: "#/actions/0/update/operationId" });
    expect(position(id)).toBe("break.overlay.yaml:6:7");
    expect(r.stderr).toContain("#/paths/~1pets/get/operationId of pet.yaml was put there by this overlay action");
    // the $ref the spec wrote, to the schema the overlay removed: at the spec's line
    const ref = found.find((d) => d.file === "pet.yaml")!;
    const refLine = PETSTORE.split("\n").findIndex((l) => l.includes("$ref: '#/components/schemas/PetList'")) + 1;
    expect(position(ref)).toBe(`pet.yaml:${refLine}:17`);
    expect(ref.message).toContain("PetList");
  });

  it("an overlay that breaks an OpenRPC document: the meta-schema's diagnostic at the overlay action", () => {
    const dir = scratch({ "rpc.yaml": RPC, "break.overlay.yaml": "overlay: 1.0.0\ninfo: { title: Break, version: 1.0.0 }\nactions:\n  - target: $.methods[?@.name == 'calc.add']\n    update:\n      paramStructure: sideways\n" });
    const r = runCli(["generate", "--input", "rpc.yaml", "--out", "out", "--overlay", "break.overlay.yaml"], dir);
    expect(r.status).toBe(1);
    const found = parseDiagnostics(r.stderr);
    // the value the overlay wrote, at the overlay; the meta-schema's oneOf findings about the method (which the spec wrote) at the spec
    expect(found.find((d) => d.message.includes("allowed values"))).toMatchObject({ file: "break.overlay.yaml", pointer: "#/actions/0/update/paramStructure" });
    expect(position(found.find((d) => d.message.includes("allowed values"))!)).toBe("break.overlay.yaml:6:7");
    const methodLine = RPC.split("\n").indexOf("  - name: calc.add") + 1;
    for (const d of found.filter((d) => !d.message.includes("allowed values"))) expect([d.pointer, position(d)]).toEqual(["#/methods/1", `rpc.yaml:${methodLine}:5`]);
    expect(r.stderr).toContain("#/methods/1/paramStructure of rpc.yaml was put there by this overlay action");
  });

  it("a broken overlay document: file:line:col at #/pointer in the overlay, and nothing generated", () => {
    const dir = scratch({ "pet.yaml": PETSTORE, "bad.overlay.yaml": "overlay: 1.0.0\ninfo: { title: Bad, version: 1.0.0 }\nactions:\n  - target: $.paths[\n    update: {}\n  - target: paths\n    remove: yes\n" });
    const r = runCli(["generate", "--input", "pet.yaml", "--out", "out", "--overlay", "bad.overlay.yaml"], dir);
    expect(r.status).toBe(1);
    const found = parseDiagnostics(r.stderr);
    expect(found.map((d) => [position(d), d.pointer, d.code])).toEqual([
      ["bad.overlay.yaml:4:5", "#/actions/0/target", "overlay/invalid"],
      ["bad.overlay.yaml:6:5", "#/actions/1/target", "overlay/invalid"],
      ["bad.overlay.yaml:7:5", "#/actions/1/remove", "overlay/invalid"],
    ]);
    expect(found[0]!.message).toContain("not a JSONPath (RFC 9535)");
  });

  it("the version ledger reads the document with its overlays: a second run records no change", () => {
    const dir = scratch({
      "pet.yaml": PETSTORE,
      "fix.overlay.yaml": "overlay: 1.0.0\ninfo: { title: Fix, version: 1.0.0 }\nactions:\n  - target: $.paths['/pets/{petId}'].delete\n    remove: true\n",
      "avaspec.config.json": JSON.stringify({ out: "out", package: { name: "pets" }, inputs: [{ spec: "pet.yaml", overlays: ["fix.overlay.yaml"], output: "pet", clientName: "Pet" }] }),
    });
    expect(runCli(["generate"], dir).status).toBe(0);
    const versions = readFileSync(join(dir, "out/versions.json"), "utf8");
    // a change to the document under the overlay is seen by the ledger as the generation sees it
    writeFileSync(join(dir, "pet.yaml"), PETSTORE.replace("summary: Create a pet", "summary: Create a pet (edited)").replace("  version: 1.0.0", "  version: 1.0.1"));
    const second = runCli(["generate"], dir);
    expect(second.status, second.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, "out/versions.json"), "utf8")) as { releases: { version: string; changes: { changes?: { rule: string }[] }[] }[] };
    // exactly the edit: the operation the overlay removes is neither "added" (the document alone) nor "removed"
    expect(after.releases[0]!.version).toBe("1.0.1");
    expect(after.releases[0]!.changes.flatMap((c) => c.changes ?? []).map((c) => c.rule)).toEqual(["operation-description-changed"]);
    expect(versions).toContain('"version": "1.0.0"');
    expect(runCli(["generate", "--check"], dir).status).toBe(0);
  });

  it("avaspec diff --base with a config reads each side with its overlays as generation does (the overlay at that revision, then now)", () => {
    const dir = scratch({
      "pet.yaml": PETSTORE,
      "fix.overlay.yaml": "overlay: 1.0.0\ninfo: { title: Fix, version: 1.0.0 }\nactions:\n  - target: $.paths['/pets/{petId}'].delete\n    remove: true\n",
      "avaspec.config.json": JSON.stringify({ out: "out", package: { name: "pets" }, inputs: [{ spec: "pet.yaml", overlays: ["fix.overlay.yaml"], output: "pet", clientName: "Pet" }] }),
    });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "one");
    // the spec stays; the overlay now also removes createPet
    writeFileSync(join(dir, "fix.overlay.yaml"), readFileSync(join(dir, "fix.overlay.yaml"), "utf8") + "  - target: $.paths['/pets'].post\n    remove: true\n");
    const r = runCli(["diff", "--base", "HEAD", "--format", "json"], dir);
    expect(r.status, r.stderr).toBe(0);
    const changes = (JSON.parse(r.stdout) as { documents: { changes: { rule: string; operation?: string }[] }[] }).documents[0]!.changes;
    expect(changes.map((c) => [c.rule, c.operation])).toEqual([["operation-removed", "POST /pets"]]);
  });

  it("avaspec diff <old> <new> --overlay / --exclude reads both documents as generate would with them", () => {
    const dir = scratch({
      "old.yaml": PETSTORE,
      // the vendor's new version drops deletePet; our overlay removes it anyway, so we lose nothing
      "new.yaml": withoutDelete(PETSTORE),
      "fix.overlay.yaml": "overlay: 1.0.0\ninfo: { title: Fix, version: 1.0.0 }\nactions:\n  - target: $.paths['/pets/{petId}'].delete\n    remove: true\n",
    });
    const plain = runCli(["diff", "old.yaml", "new.yaml", "--format", "json"], dir);
    expect(plain.status, plain.stderr).toBe(0);
    expect((JSON.parse(plain.stdout) as { changes: { rule: string }[] }).changes.map((c) => c.rule)).toContain("operation-removed");
    for (const extra of [["--overlay", "fix.overlay.yaml"], ["--exclude", "path:/pets/{petId}"]]) {
      const r = runCli(["diff", "old.yaml", "new.yaml", "--format", "json", "--fail-on", "breaking-wire", ...extra], dir);
      expect(r.status, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { changes: { rule: string }[] }).changes.filter((c) => c.rule === "operation-removed")).toEqual([]);
    }
    const misplaced = runCli(["diff", "--base", "HEAD", "--overlay", "fix.overlay.yaml"], dir);
    expect(misplaced.status).toBe(2);
    expect(misplaced.stderr).toContain("--overlay, --include and --exclude go with spec files");
  });
});
