/**
 * The loader reads most YAML with js-yaml and a YAML 1.2 core schema of its
 * own (generator/load/load.ts); the `yaml` package reads the rest and gives
 * positions. Both must give the same values: checked on every YAML document
 * of the repository, on scalars where YAML 1.1, js-yaml's own core schema and
 * YAML 1.2 disagree, and on random JSON values written as YAML.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { loadText } from "../../generator/load/load.js";
import { ROOT } from "../helpers/cli.js";

const reference = (text: string): unknown => parse(text, { uniqueKeys: true, strict: true, maxAliasCount: 100, logLevel: "error" });
const loaded = (text: string) => loadText("x.yaml", text);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === "node_modules" || name === "golden") return [];
    return statSync(full).isDirectory() ? yamlFiles(full) : /\.ya?ml$/.test(name) ? [full] : [];
  });
}

describe("YAML loading", () => {
  const files = [...yamlFiles(join(ROOT, "spec")), ...yamlFiles(join(ROOT, "test/fixtures"))];
  it("finds the repository's YAML documents", () => expect(files.length).toBeGreaterThan(20));
  it.each(files.map((f) => [f.slice(ROOT.length)]))("%s reads as the yaml package reads it", (rel) => {
    const text = readFileSync(join(ROOT, rel), "utf8");
    const r = loaded(text);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.document!.root).toEqual(reference(text));
  });

  const scalars = ["1_000", "0b101", "0o17", "017", "0x1F", "0X1F", "+12", "-0", ".5", "5.", "1e3", "1E-3", "+.inf", "-.Inf", ".NaN", ".nan", "nan", "~", "", "null", "Null", "NULL", "nUll", "true", "True", "TRUE", "tRue", "yes", "no", "on", "off", "y", "2020-01-01", "2001-12-14t21:59:43.10-05:00", "12:30:00", "1:20", "0.", "-.5e+2", "'quoted'", '"a\\tb\\u00e9"', "!!str 5", "!!int '7'", "<<"];
  it.each(scalars)("scalar %j reads as YAML 1.2 core", (s) => {
    const text = `v: ${s}\n`;
    const r = loaded(text);
    expect(r.document!.root).toEqual(reference(text));
  });

  it.each([
    ["block scalars", "a: |\n  one\n  two\n\nb: >-\n  folded\n  text\n\n  para\nc: |+\n  keep\n\n"],
    ["flow collections", "a: {b: [1, 2, {c: d}], 'e f': g}\n"],
    ["merge key without the merge type", "a: &x {b: 1}\nc:\n  <<: *x\n  d: 2\n"],
    ["complex key", "? [a, b]\n: c\n"],
    ["__proto__ key", "__proto__: {polluted: true}\nconstructor: x\n"],
  ])("%s read as the yaml package reads them", (_name, text) => {
    const r = loaded(text);
    expect(r.document!.root).toEqual(reference(text));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("reports an unknown directive as the yaml package does (a warning), and reads the document", () => {
    const r = loaded("%FOO bar\n---\na: 1\n");
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: "load/syntax", severity: "warning" })]);
    expect(r.document!.root).toEqual({ a: 1 });
  });

  it("reports duplicate keys and bad syntax at their position (the yaml package's path)", () => {
    expect(loaded("a: 1\nb: 2\na: 3\n").diagnostics[0]).toMatchObject({ code: "load/syntax", severity: "error", line: 3 });
    expect(loaded("a: [1, 2\nb: 3\n").diagnostics[0]).toMatchObject({ code: "load/syntax", severity: "error" });
  });

  it("locates pointers in documents read by the fast path", () => {
    const r = loaded("openapi: 3.1.0\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get: {}\n");
    expect(r.document!.locate("#/paths/~1a/get")).toEqual({ line: 7, col: 5 });
    expect(r.document!.locate("#/info/version")).toEqual({ line: 4, col: 3 });
  });

  it("reads random JSON values written as YAML as the yaml package does", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stringify({ v: value });
        expect(loaded(text).document!.root).toEqual(reference(text));
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
