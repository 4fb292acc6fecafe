/**
 * Issue 30 (2): `x-avaspec-advice`, the spec's advice for error messages, is
 * checked before anything is generated: a malformed value is an
 * `extension/advice` error at its pointer (with its line and column), the
 * run exits 1 and writes nothing. test/client/shop-errors.test.ts calls the
 * advice of a well-formed one.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDiagnostics, runCli } from "../helpers/cli.js";

describe("x-avaspec-advice", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "avaspec-advice-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a malformed value is an extension/advice error at its pointer; nothing is written", () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "Advice", version: "1" },
      "x-avaspec-advice": { "404": "Check the id.", "4xx": "Lower-case ranges are not OpenAPI's.", "5XX": "", teapot: "x" },
      paths: {
        "/things/{id}": {
          get: {
            operationId: "getThing",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok" }, "404": { description: "none", "x-avaspec-advice": ["Check", "the id"] }, default: { $ref: "#/components/responses/Oops" } },
          },
        },
      },
      components: { responses: { Oops: { description: "oops", "x-avaspec-advice": 42 } } },
    };
    writeFileSync(join(dir, "doc.json"), JSON.stringify(doc, null, 2));
    const r = runCli(["generate", "--input", "doc.json", "--out", "out"], dir);
    expect(r.status).toBe(1);
    expect(existsSync(join(dir, "out"))).toBe(false);
    const found = parseDiagnostics(r.stderr).map((d) => [d.code, d.pointer, d.message]);
    expect(found).toEqual([
      ["extension/advice", "#/x-avaspec-advice/4xx", 'x-avaspec-advice: "4xx" is not a status code, a range such as "5XX" or "default"'],
      ["extension/advice", "#/x-avaspec-advice/5XX", 'x-avaspec-advice: the advice for 5XX must be a sentence, got ""'],
      ["extension/advice", "#/x-avaspec-advice/teapot", 'x-avaspec-advice: "teapot" is not a status code, a range such as "5XX" or "default"'],
      ["extension/advice", "#/paths/~1things~1{id}/get/responses/404/x-avaspec-advice", 'x-avaspec-advice on a response must be a sentence (what to do about it), got ["Check","the id"]'],
      ["extension/advice", "#/components/responses/Oops/x-avaspec-advice", "x-avaspec-advice on a response must be a sentence (what to do about it), got 42"],
    ]);
    // file:line:col at the pointer
    expect(r.stderr).toMatch(/doc\.json:\d+:\d+ at #\/components\/responses\/Oops\/x-avaspec-advice/);
  });

  it("at the root it must be a map", () => {
    writeFileSync(join(dir, "list.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "A", version: "1" }, "x-avaspec-advice": "Try again.", paths: {} }));
    const r = runCli(["generate", "--input", "list.json", "--out", "out-2"], dir);
    expect(r.status).toBe(1);
    expect(parseDiagnostics(r.stderr).map((d) => [d.code, d.pointer])).toEqual([["extension/advice", "#/x-avaspec-advice"]]);
  });
});
