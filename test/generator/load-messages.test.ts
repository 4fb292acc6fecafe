/**
 * Documents avaspec cannot read say what they are and what to do: Swagger
 * 1.2, UTF-16/32, JSON with comments wherever they are, JSON that breaks off
 * or breaks the grammar (one JSON message at its position, never the YAML
 * parser's guesses), several YAML documents in one file; bytes that are not
 * UTF-8 are read but warned about. Each through the real CLI, with the
 * output left untouched.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { parseDiagnostics, ROOT, runCli } from "../helpers/cli.js";

const PETSTORE = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function generate(name: string, bytes: string | Buffer): { status: number | null; stderr: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-msg-"));
  dirs.push(dir);
  writeFileSync(join(dir, name), bytes);
  const r = runCli(["generate", "--input", name, "--out", "out"], dir);
  return { status: r.status, stderr: r.stderr, dir };
}

it("names a Swagger version other than 2.0 (which is converted on load) and says what is read", () => {
  const r = generate("api.yaml", "swagger: '1.2'\ninfo: {title: S, version: '1'}\npaths: {}\n");
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('api.yaml:1:1 at #/swagger: this is a Swagger "1.2" document; avaspec reads Swagger "2.0" (converted to OpenAPI 3.0 on load), OpenAPI 3.0 and 3.1 [openapi/swagger-2]');
  expect(r.stderr).not.toContain('"openapi" version');
  expect(existsSync(join(r.dir, "out"))).toBe(false);
});

it.each([
  ["UTF-16 (little-endian)", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(PETSTORE, "utf16le")])],
  ["UTF-16 (big-endian)", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(PETSTORE, "utf16le").swap16()])],
  ["UTF-16 (little-endian)", Buffer.from(PETSTORE, "utf16le")],
])("names the encoding of a %s file", (name, bytes) => {
  const r = generate("api.yaml", bytes);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`the file is ${name}; avaspec reads UTF-8 [load/encoding]`);
  expect(r.stderr).toContain("iconv");
});

it("points at a comment in JSON", () => {
  const r = generate("api.json", '{\n  "openapi": "3.1.0",\n  // the title\n  "info": {"title": "C", "version": "1"},\n  "paths": {}\n}\n');
  expect(r.status).toBe(1);
  expect(r.stderr).toContain("api.json:3:3 at #: JSON does not allow comments [load/json-comments]");
});

it("warns about bytes that are not UTF-8, at their position, and still generates", () => {
  const text = PETSTORE.replace("title: Petstore", "title: Pet\u00e9store");
  const latin1 = Buffer.from(text, "latin1");
  const r = generate("api.yaml", latin1);
  expect(r.status).toBe(0);
  expect(r.stderr).toMatch(/api\.yaml:3:\d+ at #: bytes that are not UTF-8 were read as U\+FFFD \(�\) \[load\/encoding\] \(warning\)/);
  // valid UTF-8 with the same character: no warning
  expect(generate("api.yaml", Buffer.from(text, "utf8")).stderr).toBe("");
});

// issue 26, item 18: a comment after a value read as YAML ("missing info"), one before the document as YAML syntax errors
it.each([
  ["after a value", '{\n  "openapi": "3.1.0", // the version\n  "info": {"title": "C", "version": "1"},\n  "paths": {}\n}\n', "api.json:2:23"],
  ["before the document", '/* the API */\n{\n  "openapi": "3.1.0",\n  "info": {"title": "C", "version": "1"},\n  "paths": {}\n}\n', "api.json:1:1"],
  ["at the end of a line, in a file not named .json", '{\n  "openapi": "3.1.0",\n  "info": {"title": "C", "version": "1"}, /* info */\n  "paths": {}\n}\n', "api.yaml:3:43"],
])("points at a comment in JSON %s, with one diagnostic", (_where, text, at) => {
  const r = generate(at.split(":")[0]!, text);
  expect(r.status).toBe(1);
  expect(parseDiagnostics(r.stderr).map((d) => d.line)).toEqual([`${at} at #: JSON does not allow comments [load/json-comments]`]);
  expect(existsSync(join(r.dir, "out"))).toBe(false);
});

// issue 26, item 19: a truncated JSON file got the YAML parser's messages, several times over
it("reports JSON that breaks off as one JSON diagnostic at the end, naming the container left open", () => {
  const json = JSON.stringify(JSON.parse(readFileSync(join(ROOT, "test/fixtures/petstore-30/golden/spec/spec.json"), "utf8")), null, 2);
  const cut = json.slice(0, json.indexOf('"responses"'));
  const r = generate("api.json", cut);
  expect(r.status).toBe(1);
  const found = parseDiagnostics(r.stderr);
  const lines = cut.split("\n");
  expect(found.map((d) => d.line)).toEqual([expect.stringMatching(new RegExp(`^api\\.json:${lines.length}:${lines.at(-1)!.length + 1} at #: the JSON text ends inside the object opened at line \\d+, column \\d+: it looks cut short \\[load/syntax\\]$`))]);
  expect(r.stderr).not.toMatch(/Flow map|flow collection/i);
  expect(existsSync(join(r.dir, "out"))).toBe(false);
});

it.each([
  ["a trailing comma", '{"openapi": "3.1.0", "info": {"title": "C", "version": "1"}, "paths": {},}', "api.json:1:74 at #: a comma before \"}\": JSON allows no trailing comma [load/syntax]"],
  ["single quotes", "{'openapi': '3.1.0'}", "api.json:1:2 at #: JSON property names take double quotes [load/syntax]"],
  ["a missing comma", '{\n  "openapi": "3.1.0"\n  "info": {}\n}', 'api.json:3:3 at #: expected "," or "}" after the value of "openapi" [load/syntax]'],
])("reports JSON with %s in JSON's terms, once", (_what, text, line) => {
  const r = generate("api.json", text);
  expect(r.status).toBe(1);
  expect(parseDiagnostics(r.stderr).map((d) => d.line)).toEqual([line]);
});

it("says a file holds several YAML documents at the second one, in its own words", () => {
  const r = generate("api.yaml", "openapi: 3.1.0\ninfo: {title: A, version: '1'}\npaths: {}\n---\nopenapi: 3.1.0\ninfo: {title: B, version: '1'}\npaths: {}\n");
  expect(r.status).toBe(1);
  expect(parseDiagnostics(r.stderr).map((d) => d.line)).toEqual(["api.yaml:4:1 at #: a second YAML document starts here; avaspec reads one document per file [load/syntax]"]);
  expect(r.stderr).toContain("hint: remove this --- line and what follows it, or give each document a file of its own");
  expect(r.stderr).not.toContain("parseAllDocuments");
  // a document that only starts with --- is one document
  expect(generate("api.yaml", "---\nopenapi: 3.1.0\ninfo: {title: A, version: '1'}\npaths: {}\n").status).toBe(0);
});

it("shows a window of a minified document's one line in a code frame, not the whole line for every diagnostic", () => {
  // a one-line JSON document of about 300 KB whose 40 operations each draw a warning (a header parameter named Authorization)
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) {
    paths[`/r${i}`] = { get: { operationId: `get${i}`, description: "x".repeat(7000), parameters: [{ name: "Authorization", in: "header", schema: { type: "string" } }], responses: { "200": { description: "ok" } } } };
  }
  const r = generate("min.json", JSON.stringify({ openapi: "3.1.0", info: { title: "Min", version: "1" }, paths }));
  expect(r.status).toBe(0);
  const frames = r.stderr.split("\n").filter((l) => /^[> ]\s+\d+ \| /.test(l));
  expect(frames.length).toBeGreaterThanOrEqual(40);
  for (const l of frames) expect(l.length).toBeLessThanOrEqual(140);
  // the caret stands under the parameter the message names
  const lines = r.stderr.split("\n");
  const at = lines.findIndex((l) => l.includes("#/paths/~1r7/get/parameters/0"));
  const frame = lines.slice(at).find((l) => l.startsWith(">"))!;
  const caret = lines[lines.indexOf(frame, at) + 1]!;
  expect(frame.slice(caret.indexOf("^"))).toMatch(/^\{"name":"Authorization"/);
  expect(r.stderr.length).toBeLessThan(40 * 1000);
});
