/**
 * JSON-Schema-Test-Suite conformance of the generated validators. Prints the
 * pass rate per draft; fails when it drops below the committed baseline or
 * when a test fails that the committed skip list does not explain. Then the
 * suite's schemas that are resources of their own (`$id`), read as a
 * component of an OpenAPI 3.1 document by the generator's front end: the
 * resolver that generation uses is the one this suite measures.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { compileInOpenApi } from "../helpers/compile-schema.js";
import { DRAFTS, runSuite, selfContainedGroups } from "./suite.js";

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

describe("JSON-Schema-Test-Suite draft2020-12: schemas with $id, as components of an OpenAPI 3.1 document (issue 26, item 17)", () => {
  const groups = selfContainedGroups();

  it("finds the groups: $refs to $defs and anchors inside an $id, and to embedded resources by their $id", () => {
    expect(groups.length).toBeGreaterThanOrEqual(15);
  });

  it.each(groups.map((g) => [`${g.file} > ${g.description}`, g] as const))("%s", (_name, g) => {
    const compiled = compileInOpenApi(g.schema);
    expect(compiled.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.pointer}: ${d.message}`)).toEqual([]);
    for (const t of g.tests) expect(compiled.valid(t.data), t.description).toBe(t.valid);
  });
});
