/**
 * The code frame under a diagnostic shows the part of the line around the
 * column: a minified JSON document is one line of megabytes (Microsoft Graph
 * beta's is 47 MB), and printing that line whole under each of its warnings
 * wrote gigabytes to stderr. Through the real CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { formatDiagnostic } from "../../generator/load/diagnostics.js";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "avaspec-frame-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("prints a window of a one-line document around the column, the caret under the offending token", () => {
  const filler = "x".repeat(1_000_000);
  const missing = (n: number) => ({ get: { operationId: `get${n}`, responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: `#/components/schemas/Missing${n}` } } } } } } });
  const doc = { openapi: "3.1.0", info: { title: "One line", version: "1", description: filler }, paths: { "/a": missing(1), "/b": missing(2) } };
  writeFileSync(join(dir, "api.json"), JSON.stringify(doc));
  const r = runCli(["generate", "--input", "api.json", "--out", "out"], dir);
  expect(r.status).toBe(1);
  // two diagnostics of a few lines each, not two copies of a megabyte line
  expect(r.stderr.length).toBeLessThan(4000);
  const lines = r.stderr.split("\n");
  const heads = lines.filter((l) => /^api\.json:1:\d+ at #\/paths\/~1[ab]\//.test(l));
  expect(heads).toHaveLength(2);
  for (const head of heads) {
    const i = lines.indexOf(head);
    const frame = lines.slice(i).find((l) => l.startsWith(">    1 | "))!;
    const caret = lines[lines.indexOf(frame) + 1]!;
    expect(frame.length).toBeLessThanOrEqual(9 + 1 + 120 + 1);
    expect(frame.slice(9, 10)).toBe("…");
    // the caret is under the character the head's column names
    const col = Number(/^api\.json:1:(\d+)/.exec(head)![1]);
    const text = JSON.stringify(doc);
    const at = caret.indexOf("^");
    expect(frame[at]).toBe(text[col - 1]);
    expect(frame.slice(at, at + 8)).toBe(text.slice(col - 1, col + 7));
  }
});

it("keeps short lines whole, without marks", () => {
  const d = { code: "x/y", severity: "error" as const, message: "m", file: "f.yaml", pointer: "#/a", line: 2, col: 3 };
  expect(formatDiagnostic(d, "a: 1\nb: 2\nc: 3\n")).toBe(["f.yaml:2:3 at #/a: m [x/y]", "     1 | a: 1", ">    2 | b: 2", "       |   ^", "     3 | c: 3"].join("\n"));
  // CRLF line breaks are not part of the line
  expect(formatDiagnostic({ ...d, line: 1, col: 1 }, "a: 1\r\nb: 2\r\n")).toBe(["f.yaml:1:1 at #/a: m [x/y]", ">    1 | a: 1", "       | ^", "     2 | b: 2"].join("\n"));
});
