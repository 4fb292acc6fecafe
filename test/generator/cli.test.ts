/**
 * The CLI as users run it: --check on drift, and broken specs reported as
 * `file:line:col at #/pointer: message` with the output folder untouched.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import YAML from "yaml";
import { ROOT, runCli } from "../helpers/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A scratch project: one spec, a config, and an output folder with known content. */
function scratch(specText: string, file = "api.yaml"): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-cli-"));
  dirs.push(dir);
  writeFileSync(join(dir, file), specText);
  writeFileSync(
    join(dir, "avaspec.config.json"),
    JSON.stringify({ out: "out", package: { name: "scratch" }, inputs: [{ spec: file, output: "api", clientName: "Api" }] }),
  );
  return dir;
}

const GOOD = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");

describe("npm run generate -- --check", () => {
  it("passes on the committed generated/", () => {
    const r = runCli(["generate", "--check"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("generated/ is up to date");
  });

  it("fails and names the files that drifted", () => {
    const dir = scratch(GOOD);
    expect(runCli(["generate", "--config", "avaspec.config.json"], dir).status).toBe(0);
    writeFileSync(join(dir, "out/src/api/types.ts"), "// edited by hand\n");
    rmSync(join(dir, "out/README.md"));
    writeFileSync(join(dir, "out/src/stray.ts"), "export {};\n");
    // a file an earlier run wrote that the specs no longer produce
    writeFileSync(join(dir, "out/src/old.ts"), "export {};\n");
    const manifest = JSON.parse(readFileSync(join(dir, "out/.avaspec-manifest.json"), "utf8")) as { files: string[] };
    writeFileSync(join(dir, "out/.avaspec-manifest.json"), JSON.stringify({ ...manifest, files: [...manifest.files, "src/old.ts"].sort() }, null, 2) + "\n");
    const r = runCli(["generate", "--check"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("changed: out/src/api/types.ts");
    expect(r.stderr).toContain("missing: out/README.md");
    expect(r.stderr).toContain("extra:   out/src/old.ts");
    expect(r.stderr).toContain("changed: out/.avaspec-manifest.json");
    // a file avaspec did not write is the user's business, not drift
    expect(r.stderr).not.toContain("stray");
    // --check writes nothing
    expect(readFileSync(join(dir, "out/src/api/types.ts"), "utf8")).toBe("// edited by hand\n");
  });

  it("regenerating keeps dist/, node_modules/ and every file avaspec did not write, and removes what it wrote and no longer generates", () => {
    const dir = scratch(GOOD);
    runCli(["generate"], dir);
    cpSync(join(dir, "out/package.json"), join(dir, "out/dist/keep.json"), { recursive: true });
    writeFileSync(join(dir, "out/src/stray.ts"), "export {};\n");
    writeFileSync(join(dir, "out/src/old.ts"), "export {};\n");
    const manifest = JSON.parse(readFileSync(join(dir, "out/.avaspec-manifest.json"), "utf8")) as { files: string[] };
    writeFileSync(join(dir, "out/.avaspec-manifest.json"), JSON.stringify({ ...manifest, files: [...manifest.files, "src/old.ts"].sort() }, null, 2) + "\n");
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("removed 1 no longer generated");
    expect(readFileSync(join(dir, "out/dist/keep.json"), "utf8")).toContain('"name": "scratch"');
    expect(readFileSync(join(dir, "out/src/stray.ts"), "utf8")).toBe("export {};\n");
    expect(() => readFileSync(join(dir, "out/src/old.ts"))).toThrow();
  });
});

/** Broken specs: each must report the exact position and leave out/ byte-identical. */
const broken: { name: string; spec: string; where: string; message: RegExp; token: string }[] = [
  {
    name: "a dangling $ref",
    spec: GOOD.replace("$ref: '#/components/schemas/Category'", "$ref: '#/components/schemas/Categroy'"),
    where: "api.yaml:LINE:COL at #/components/schemas/NewPet/properties/category/allOf/0/$ref",
    message: /\$ref "#\/components\/schemas\/Categroy" does not resolve \[ref\/dangling\]/,
    token: "$ref: '#/components/schemas/Categroy'",
  },
  {
    name: "a duplicate operationId",
    spec: GOOD.replace("operationId: deletePet", "operationId: listPets"),
    where: "api.yaml:LINE:COL at #/paths/~1pets~1{petId}/delete/operationId",
    message: /duplicate operationId "listPets" \(first used at #\/paths\/~1pets\/get\/operationId\) \[operation\/duplicate-id\]/,
    token: "operationId: listPets",
  },
  {
    name: "an x-avaspec-idempotent that is not a boolean",
    spec: GOOD.replace("      operationId: listPets\n", "      operationId: listPets\n      x-avaspec-idempotent: sometimes\n"),
    where: "api.yaml:LINE:COL at #/paths/~1pets/get/x-avaspec-idempotent",
    message: /x-avaspec-idempotent must be true or false, got "sometimes" \[extension\/idempotent\]/,
    token: "x-avaspec-idempotent: sometimes",
  },
  {
    name: "an x-avaspec-mcp whose member is not a boolean",
    spec: GOOD.replace("      operationId: listPets\n", "      operationId: listPets\n      x-avaspec-mcp: { readOnly: yes please }\n"),
    where: "api.yaml:LINE:COL at #/paths/~1pets/get/x-avaspec-mcp/readOnly",
    message: /x-avaspec-mcp\.readOnly must be true or false, got "yes please" \[extension\/mcp\]/,
    token: "readOnly: yes please }",
  },
  {
    name: "an x-avaspec-mcp with a member it does not have",
    spec: GOOD.replace("      operationId: listPets\n", "      operationId: listPets\n      x-avaspec-mcp: { readonly: true }\n"),
    where: "api.yaml:LINE:COL at #/paths/~1pets/get/x-avaspec-mcp/readonly",
    message: /x-avaspec-mcp has no member "readonly"; it takes readOnly, idempotent, destructive, exclude \[extension\/mcp\]/,
    token: "readonly: true }",
  },
  {
    name: "an x-avaspec-token-lifetime that is not whole seconds",
    spec: GOOD.replace("        - name: limit\n          in: query\n", "        - name: limit\n          in: query\n          x-avaspec-token-lifetime: 24h\n"),
    where: "api.yaml:LINE:COL at #/paths/~1pets/get/parameters/0/x-avaspec-token-lifetime",
    message: /x-avaspec-token-lifetime must be a whole number of seconds above 0, got "24h" \[extension\/token-lifetime\]/,
    token: "x-avaspec-token-lifetime: 24h",
  },
  {
    name: "a YAML syntax error",
    spec: GOOD.replace("title: Petstore", "title: Pet: store"),
    where: "api.yaml:3:10 at #",
    message: /Nested mappings are not allowed in compact mappings \[load\/syntax\]/,
    token: ": store",
  },
  {
    name: "a duplicate YAML key",
    spec: GOOD.replace("  version: 1.0.0\n", "  version: 1.0.0\n  version: 2.0.0\n"),
    where: "api.yaml:5:3 at #",
    message: /Map keys must be unique \[load\/syntax\]/,
    token: "version: 2.0.0",
  },
];

describe.each(broken)("a spec with $name", ({ spec, where, message, token }) => {
  it("prints file:line:col at #/pointer: message, exits non-zero and leaves the output untouched", () => {
    expect(spec).not.toBe(GOOD);
    const dir = scratch(GOOD);
    expect(runCli(["generate"], dir).status).toBe(0);
    const before = readFileSync(join(dir, "out/src/api/types.ts"), "utf8");
    writeFileSync(join(dir, "api.yaml"), spec);
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    const line = r.stderr.split("\n")[0]!;
    expect(line).toMatch(message);
    const m = /^(.+?):(\d+):(\d+) at (\S+): /.exec(line);
    expect(m, line).not.toBeNull();
    const [, file, ln, col, pointer] = m!;
    if (where.includes(":LINE:COL")) {
      const [expectedFile, expectedPointer] = where.split(":LINE:COL at ");
      expect([file, pointer]).toEqual([expectedFile, expectedPointer]);
    } else expect(`${file}:${ln}:${col} at ${pointer}`).toBe(where);
    // the reported line and column really point at the offending text
    const srcLine = spec.split("\n")[Number(ln) - 1]!;
    expect(srcLine.slice(Number(col) - 1)).toContain(token);
    expect(srcLine.indexOf(token)).toBeGreaterThanOrEqual(Number(col) - 1 - token.length);
    expect(r.stderr).toContain("left untouched");
    expect(readFileSync(join(dir, "out/src/api/types.ts"), "utf8")).toBe(before);
  });
});

describe("other bad input", () => {
  it("refuses an external $ref", () => {
    const dir = scratch(GOOD.replace("$ref: '#/components/schemas/Category'", "$ref: 'https://example.com/x.yaml#/Category'"));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at #\/components\/schemas\/NewPet\/properties\/category\/allOf\/0\/\$ref: external \$ref/);
  });

  it.each(["./common.yaml#/components/schemas/Category", "file:///etc/passwd", "http://127.0.0.1:1/x.json#/Category"])("refuses the external $ref %s by default, reading nothing", (ref) => {
    const dir = scratch(GOOD.replace("$ref: '#/components/schemas/Category'", `$ref: '${ref}'`));
    writeFileSync(join(dir, "common.yaml"), "components: { schemas: { Category: { type: string } } }\n");
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api\.yaml:\d+:\d+ at #\/components\/schemas\/NewPet\/properties\/category\/allOf\/0\/\$ref: external \$ref/);
    expect(r.stderr).toContain("left untouched");
  });

  it("rejects a YAML alias bomb with a diagnostic, at its first alias", () => {
    const levels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    const bomb = [`  a: &a [${Array(9).fill('"lol"').join(", ")}]`, ...levels.slice(1).map((n, i) => `  ${n}: &${n} [${Array(9).fill(`*${levels[i]}`).join(", ")}]`)];
    const dir = scratch(GOOD.replace("paths:", `x-bomb:\n${bomb.join("\n")}\npaths:`));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api\.yaml:(\d+):(\d+) at #: YAML aliases expand more than 100 times \(the "billion laughs" pattern\) \[load\/aliases\]/);
    const [, line, col] = /^api\.yaml:(\d+):(\d+)/.exec(r.stderr)!;
    expect(readFileSync(join(dir, "api.yaml"), "utf8").split("\n")[Number(line) - 1]!.slice(Number(col) - 1)).toMatch(/^\*a\b/);
    expect(r.stderr).not.toContain("    at ");
  });

  it("reports a 10,000-deep nested schema as too deep, not as a stack overflow", () => {
    const depth = 10_000;
    const deep = `{"openapi":"3.1.0","info":{"title":"D","version":"1"},"paths":{},"components":{"schemas":{"Deep":${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)}}}}`;
    const dir = scratch(deep, "api.json");
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api\.json:1:\d+ at #: nesting deeper than 256 levels \[load\/depth\]/);
    expect(r.stderr).not.toMatch(/call stack|RangeError/);
    expect(r.stderr).toContain("left untouched");
  });

  it("reports deep block YAML at the pointer where it goes too deep", () => {
    let yaml = "openapi: 3.1.0\ninfo: {title: D, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Deep:\n";
    let indent = "      ";
    for (let i = 0; i < 300; i++, indent += "    ") yaml += `${indent}type: object\n${indent}properties:\n${indent}  a:\n`;
    const dir = scratch(yaml + `${indent}type: string\n`);
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api\.yaml:\d+:\d+ at #\/components\/schemas\/Deep(\/properties\/a){127}: nesting deeper than 256 levels \[load\/depth\]/);
  });

  describe("a JSON spec (read by JSON.parse, positions found only when a diagnostic needs them)", () => {
    const json = JSON.stringify(YAML.parse(GOOD), null, 2);

    it("generates the same package as the YAML form, byte for byte but for the source name", () => {
      const fromYaml = scratch(GOOD);
      const fromJson = scratch("\uFEFF" + json, "api.json");
      writeFileSync(join(fromJson, "avaspec.config.json"), readFileSync(join(fromJson, "avaspec.config.json"), "utf8").replace('"api.yaml"', '"api.json"'));
      expect(runCli(["generate"], fromYaml).status).toBe(0);
      expect(runCli(["generate"], fromJson).status).toBe(0);
      for (const f of ["src/api/types.ts", "src/api/validators.js", "src/api/validators.d.ts", "src/api/client.ts"]) {
        expect(readFileSync(join(fromJson, "out", f), "utf8").replace("api.json", "api.yaml"), f).toBe(readFileSync(join(fromYaml, "out", f), "utf8"));
      }
    });

    it("points a diagnostic at the line and column of the JSON text", () => {
      const broken = json.replace('"#/components/schemas/Category"', '"#/components/schemas/Categroy"');
      const dir = scratch(broken, "api.json");
      writeFileSync(join(dir, "avaspec.config.json"), readFileSync(join(dir, "avaspec.config.json"), "utf8").replace('"api.yaml"', '"api.json"'));
      const r = runCli(["generate"], dir);
      expect(r.status).toBe(1);
      const [, line, col] = /^api\.json:(\d+):(\d+) at #\/components\/schemas\/NewPet\/properties\/category\/allOf\/0\/\$ref: /.exec(r.stderr) ?? [];
      expect(line, r.stderr).toBeDefined();
      expect(broken.split("\n")[Number(line) - 1]!.slice(Number(col) - 1)).toMatch(/^"\$ref": "#\/components\/schemas\/Categroy"/);
    });

    it("still refuses a duplicate key, which JSON.parse would drop silently", () => {
      const dup = json.replace('"title": "Petstore (OpenAPI 3.0 fixture)",', '"title": "Petstore (OpenAPI 3.0 fixture)",\n    "title": "Again",');
      const dir = scratch(dup, "api.json");
      writeFileSync(join(dir, "avaspec.config.json"), readFileSync(join(dir, "avaspec.config.json"), "utf8").replace('"api.yaml"', '"api.json"'));
      const r = runCli(["generate"], dir);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^api\.json:\d+:\d+ at #: Map keys must be unique \[load\/syntax\]/);
    });
  });

  it("reports a pattern that is not a regular expression, at its position", () => {
    const dir = scratch(GOOD.replace(/(\n\s+)minLength: 1/, '$1minLength: 1$1pattern: "([a-z"'));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api\.yaml:\d+:\d+ at #\/components\/schemas\/NewPet\/properties\/name\/pattern: pattern "\(\[a-z" is not a valid regular expression \[schema\/pattern\]/);
    expect(r.stderr).toContain("left untouched");
  });

  it.each([
    ["^(?i:ab)c$", "inline modifiers like (?i:…)"],
    ["(?<y>a)|(?<y>b)", "a capture group name used twice"],
  ])("reports a pattern that only Node 24 compiles (%s) on every Node, so the output loads everywhere", (pattern, reason) => {
    const dir = scratch(GOOD.replace(/(\n\s+)minLength: 1/, `$1minLength: 1$1pattern: ${JSON.stringify(pattern)}`));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`pattern ${JSON.stringify(pattern)} uses ${reason}, which Node 20 and 22 cannot compile [schema/pattern]`);
  });

  it("reports a missing spec file", () => {
    const dir = scratch(GOOD);
    rmSync(join(dir, "api.yaml"));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/api\.yaml:1:1 at #: cannot read spec: file not found/);
  });

  it("reports an undeclared path parameter at the operation", () => {
    const dir = scratch(GOOD.replace("/pets/{petId}/status:", "/pets/{petId}/status/{extra}:"));
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("path template parameter {extra}");
  });

  it("--help lists every command and every option of parseArgs, with examples; --version is the package's", () => {
    const h = runCli(["--help"]);
    expect(h.status).toBe(0);
    // avaspec mock hands its options to the package's mock command (runtime/mock/server.ts)
    const cli = readFileSync(join(ROOT, "generator/cli.ts"), "utf8") + readFileSync(join(ROOT, "runtime/mock/server.ts"), "utf8");
    const options = [...cli.matchAll(/^\s+"?([a-z][a-z-]*)"?: \{ type: "(?:string|boolean)"/gm), ...cli.matchAll(/[{,] ([a-z]+): \{ type: "(?:string|boolean)"/g)].map((m) => m[1]!);
    expect(new Set(options).size).toBeGreaterThan(15);
    for (const o of new Set(options)) expect(h.stdout, o).toContain(`--${o}`);
    for (const c of ["avaspec generate", "avaspec mock", "examples:"]) expect(h.stdout).toContain(c);
    expect(runCli(["mock", "--help"]).stdout).toBe(h.stdout);
    const v = runCli(["--version"]);
    expect(v.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version);
  });

  it("rejects an unknown command in one line naming the commands, with the nearest one when it is a slip", () => {
    const r = runCli(["frobnicate"]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('avaspec: unknown command "frobnicate" (`avaspec --help` lists the commands: generate, mock, diff)');
    const slip = runCli(["generat"]);
    expect(slip.status).toBe(2);
    expect(slip.stderr).toContain('unknown command "generat"; did you mean `avaspec generate`?');
    expect(runCli(["dfif"]).stderr).toContain("did you mean `avaspec diff`?");
  });
});

describe("progress (issue 30)", () => {
  it("says each step with --progress, and nothing extra off a terminal without it", () => {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-progress-"));
    try {
      cpSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), join(dir, "api.yaml"));
      const quiet = runCli(["generate", "--input", "api.yaml", "--out", "a"], dir);
      expect(quiet.status).toBe(0);
      expect(quiet.stderr).toBe("");
      const told = runCli(["generate", "--input", "api.yaml", "--out", "b", "--progress"], dir);
      expect(told.status).toBe(0);
      const steps = told.stderr.trim().split("\n");
      expect(steps[0]).toBe("avaspec: reading api.yaml…");
      expect(steps[1]).toBe("avaspec: compiling the validators of api…");
      expect(steps.slice(2).every((l) => /^avaspec: printed \d+ files…$/.test(l))).toBe(true);
      expect(steps.length).toBeGreaterThan(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
