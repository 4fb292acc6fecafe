/**
 * Documents avaspec cannot read say what they are and what to do: Swagger
 * 2.0, UTF-16/32, JSON with comments; bytes that are not UTF-8 are read but
 * warned about. Each through the real CLI, with the output left untouched.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

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

it("names Swagger 2.0 and says how to convert it", () => {
  const r = generate("api.yaml", "swagger: '2.0'\ninfo: {title: S, version: '1'}\npaths: {}\n");
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('api.yaml:1:1 at #/swagger: this is a Swagger "2.0" (OpenAPI 2.0) document; avaspec reads OpenAPI 3.0 and 3.1 [openapi/swagger-2]');
  expect(r.stderr).toContain("swagger2openapi");
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
