/**
 * JSON-Schema-Test-Suite conformance of the generated validators. Prints the
 * pass rate per draft; fails when it drops below the committed baseline or
 * when a test fails that the committed skip list does not explain.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { DRAFTS, runSuite } from "./suite.js";

const baseline = JSON.parse(readFileSync(join(ROOT, "test/validators/suite-baseline.json"), "utf8")) as Record<string, { passed: number; total: number }>;
const skips = JSON.parse(readFileSync(join(ROOT, "test/validators/suite-skips.json"), "utf8")) as Record<string, Record<string, string>>;

describe.each(DRAFTS)("JSON-Schema-Test-Suite $draft (required tests)", ({ draft, dialect }) => {
  const r = runSuite(draft, dialect);
  const rate = (100 * r.passed) / r.total;
  console.log(`conformance ${draft}: ${r.passed}/${r.total} passed (${rate.toFixed(1)}%), ${r.failures.length} on the skip list`);

  it("runs the whole suite", () => {
    expect(r.total).toBe(baseline[draft]!.total);
  });

  it("passes at least the committed baseline", () => {
    expect(r.passed).toBeGreaterThanOrEqual(baseline[draft]!.passed);
  });

  it("every failing test is on the skip list with a reason", () => {
    const unexplained = r.failures.filter((f) => !skips[draft]?.[f]);
    expect(unexplained).toEqual([]);
  });
});
