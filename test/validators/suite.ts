/** Runs the official JSON-Schema-Test-Suite (required tests) through avaspec's validator compiler. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Dialect } from "../../generator/ir/schema.js";
import { ROOT } from "../helpers/cli.js";
import { compileSchema } from "../helpers/compile-schema.js";
import { SchemaResources } from "../../generator/load/resources.js";
import { forEachRef } from "../../generator/load/vocabulary.js";

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

/**
 * The 2020-12 groups whose schema is a resource of its own (an absolute
 * `$id`) with every `$ref` inside it, found by the resolver over that schema
 * alone (no remotes, no meta-schemas; `$dynamicRef` aside, which the suite
 * skips): what a schema with `$id` inside an OpenAPI 3.1 document can use.
 */
export function selfContainedGroups(): { file: string; description: string; schema: unknown; tests: { description: string; data: unknown; valid: boolean }[] }[] {
  const dir = join(SUITE, "draft2020-12");
  const out: ReturnType<typeof selfContainedGroups> = [];
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    for (const g of JSON.parse(readFileSync(join(dir, file), "utf8")) as ReturnType<typeof selfContainedGroups>) {
      const s = g.schema;
      if (typeof s !== "object" || s === null || typeof (s as { $id?: unknown }).$id !== "string" || !/^[a-z]+:/.test((s as { $id: string }).$id)) continue;
      if (JSON.stringify(s).includes('"$dynamicRef"')) continue;
      const doc = { root: s };
      const alone = new SchemaResources([{ doc, uri: "https://avaspec.test/schema.json" }], "2020-12");
      let refs = 0;
      let resolved = 0;
      forEachRef(s, "#", (_holder, ref, at) => {
        refs++;
        if (alone.resolve(doc, at.slice(0, -"/$ref".length), ref)) resolved++;
      });
      if (refs > 0 && resolved === refs) out.push({ ...g, file });
    }
  }
  return out;
}
