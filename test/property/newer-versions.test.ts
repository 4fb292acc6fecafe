/**
 * The property generator's OpenAPI 3.2 and OpenRPC 1.4 documents, quickly,
 * in `npm test` (the full random run, generate + tsc + import, is
 * random-specs.test.ts in `npm run test:slow`): every document is valid by
 * its specification (valid.ts: the official 3.2 schema, the 1.3 meta-schema
 * with 1.4.x), avaspec builds it without an error, and the QUERY and
 * additionalOperations methods the documents hold are operations of the IR.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { oneOffConfig } from "../../generator/config.js";
import { buildModule } from "../../generator/front-end.js";
import type { Diagnostic } from "../../generator/load/diagnostics.js";
import { arbitraryDocument, documentSeed, type DocKind } from "./arbitrary.js";
import { documentProblems } from "./valid.js";

const SEED = 20261126;
const dir = mkdtempSync(join(tmpdir(), "avaspec-newer-versions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function build(doc: unknown, name: string) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const config = oneOffConfig(file, join(dir, "out"));
  const diagnostics: Diagnostic[] = [];
  const built = buildModule(config, config.inputs[0]!, diagnostics);
  return { built, errors: diagnostics.filter((d) => d.severity === "error").map((d) => `${d.pointer}: ${d.message}`) };
}

describe.each([["openapi-3.2", 25], ["openrpc", 25]] as [DocKind, number][])("%s documents", (kind, count) => {
  const docs = Array.from({ length: count }, (_, i) => arbitraryDocument(documentSeed(SEED, i), kind));
  const methods = new Set<string>();

  it("are valid by their specification and build without an error", () => {
    docs.forEach((doc, i) => {
      expect(documentProblems(doc, kind), `document ${i}`).toEqual([]);
      const { built, errors } = build(doc, `${kind}-${i}`);
      expect(errors, `document ${i}`).toEqual([]);
      for (const op of built?.ir.operations ?? []) if (op.protocol === "http") methods.add(op.transport.method);
    });
  });

  if (kind === "openapi-3.2") {
    it("hold QUERY and additionalOperations operations, which the IR keeps", () => {
      expect(docs.some((d) => JSON.stringify(d).includes('"additionalOperations"'))).toBe(true);
      expect(methods.has("query")).toBe(true);
      expect([...methods].some((m) => m === m.toUpperCase())).toBe(true);
    });
  } else {
    it("include OpenRPC 1.4 documents", () => {
      expect(docs.filter((d) => String(d["openrpc"]).startsWith("1.4.")).length).toBeGreaterThan(0);
    });
  }
});
