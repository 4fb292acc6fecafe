/**
 * Opt-in format assertion against the official suite's optional format tests,
 * and the default (annotation only) that ignores formats.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { compileSchema } from "../helpers/compile-schema.js";

const DIR = join(ROOT, "test/json-schema-test-suite/tests/draft2020-12/optional/format");
/** Committed minimum pass rate per format; raise it when the implementation improves. */
const BASELINE: Record<string, number> = JSON.parse(readFileSync(join(ROOT, "test/validators/format-baseline.json"), "utf8"));

describe.each(Object.keys(BASELINE))("format %s (assert)", (format) => {
  const groups = JSON.parse(readFileSync(join(DIR, `${format}.json`), "utf8")) as { schema: unknown; tests: { description: string; data: unknown; valid: boolean }[] }[];
  let passed = 0;
  let total = 0;
  const failures: string[] = [];
  for (const g of groups) {
    const c = compileSchema(g.schema, "openapi-3.1", "format.json", { formats: "assert" });
    for (const t of g.tests) {
      total++;
      if (c.valid(t.data) === t.valid && (c.issues(t.data).length === 0) === t.valid) passed++;
      else failures.push(`${t.description}: ${JSON.stringify(t.data)}`);
    }
  }
  console.log(`format ${format}: ${passed}/${total}${failures.length ? `; failing: ${failures.slice(0, 3).join(" | ")}` : ""}`);

  it(`passes at least ${BASELINE[format]} of the suite's tests`, () => {
    expect(passed).toBeGreaterThanOrEqual(BASELINE[format]!);
  });
});

describe("format is an annotation by default", () => {
  it("does not assert unless asked", () => {
    const c = compileSchema({ type: "string", format: "email" }, "openapi-3.1");
    expect(c.valid("not an email")).toBe(true);
    const asserted = compileSchema({ type: "string", format: "email" }, "openapi-3.1", "f.json", { formats: "assert" });
    expect(asserted.valid("not an email")).toBe(false);
    expect(asserted.issues("not an email")[0]).toMatchObject({ keyword: "format", expected: "email" });
    // like every string keyword, format applies to strings only
    expect(compileSchema({ format: "email" }, "openapi-3.1", "f.json", { formats: "assert" }).valid(42)).toBe(true);
  });
});
