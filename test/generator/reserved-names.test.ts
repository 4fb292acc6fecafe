/**
 * Generated validator modules import runtime helpers by name; the naming pass
 * must keep every one of them reserved, or a schema named after one (`Object`
 * gives the guard `isObject`) would collide with the import.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VALIDATOR_RUNTIME_NAMES } from "../../generator/ir/passes.js";
import { ROOT } from "../helpers/cli.js";

const exportsOf = (file: string) => [...readFileSync(join(ROOT, file), "utf8").matchAll(/^export (?:function|const|type|interface) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]!);

describe("names the validators import from the runtime", () => {
  it("are all reserved", () => {
    const runtime = [...exportsOf("runtime/values/validate.ts"), ...exportsOf("runtime/values/formats.ts")];
    expect(runtime.length).toBeGreaterThan(10);
    expect(runtime.filter((n) => !VALIDATOR_RUNTIME_NAMES.includes(n))).toEqual([]);
  });

  it("so schemas named Object and Binary get guards of their own (the generality fixture type-checks with them)", () => {
    const validators = readFileSync(join(ROOT, "test/fixtures/generality-31/golden/src/api/validators.js"), "utf8");
    const declarations = readFileSync(join(ROOT, "test/fixtures/generality-31/golden/src/api/validators.d.ts"), "utf8");
    const imports = /^import \{([^}]*)\} from "\.\.\/runtime\/values\/validate\.js";$/m.exec(validators)?.[1]?.split(",").map((n) => n.trim());
    expect(imports).toEqual(expect.arrayContaining(["isObject", "isBinary"]));
    expect(validators).toContain("export function isObject2(value) {");
    expect(declarations).toContain("export declare function isObject2(value: unknown): value is T.Object;");
    expect(declarations).toContain("export declare function isBinary2(value: unknown): value is T.Binary;");
  });
});
