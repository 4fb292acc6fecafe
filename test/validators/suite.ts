/** Runs the official JSON-Schema-Test-Suite (required tests) through avaspec's validator compiler. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Dialect } from "../../generator/ir/schema.js";
import { ROOT } from "../helpers/cli.js";
import { compileSchema } from "../helpers/compile-schema.js";

export const SUITE = join(ROOT, "test/json-schema-test-suite/tests");
export const DRAFTS: { draft: "draft2020-12" | "draft7"; dialect: Dialect }[] = [
  { draft: "draft2020-12", dialect: "openapi-3.1" },
  { draft: "draft7", dialect: "draft-07" },
];

export interface SuiteResult {
  passed: number;
  total: number;
  /** `file > group > test` of every failing test. */
  failures: string[];
}

export const testId = (file: string, group: string, test: string) => `${file} > ${group} > ${test}`;

export function runSuite(draft: string, dialect: Dialect): SuiteResult {
  const dir = join(SUITE, draft);
  const result: SuiteResult = { passed: 0, total: 0, failures: [] };
  if (!existsSync(dir)) return result;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const groups = JSON.parse(readFileSync(join(dir, file), "utf8")) as { description: string; schema: unknown; tests: { description: string; data: unknown; valid: boolean }[] }[];
    for (const g of groups) {
      let compiled: ReturnType<typeof compileSchema> | undefined;
      try {
        compiled = compileSchema(g.schema, dialect, `${draft}/${file}`);
        if (compiled.diagnostics.some((d) => d.severity === "error")) compiled = undefined;
      } catch {
        compiled = undefined;
      }
      for (const t of g.tests) {
        result.total++;
        let ok = false;
        try {
          // both modes must agree: answer-only and collecting
          ok = compiled !== undefined && compiled.valid(t.data) === t.valid && (compiled.issues(t.data).length === 0) === t.valid;
        } catch {
          ok = false;
        }
        if (ok) result.passed++;
        else result.failures.push(testId(file, g.description, t.description));
      }
    }
  }
  return result;
}
