/**
 * Issue 30 (publishing): the registry metadata a config gives its package
 * (`repository`, which `npm publish --provenance` checks, `homepage`, `bugs`,
 * `keywords`) reaches the generated package.json; a malformed value is a
 * config error. Through the real CLI.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(pkg: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-meta-"));
  dirs.push(dir);
  cpSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), join(dir, "api.yaml"));
  writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "@shop/client", ...pkg }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Shop", targets: ["types", "validators", "client"] }] }));
  return dir;
}

it("copies repository, homepage, bugs and keywords into package.json", () => {
  const meta = { repository: { type: "git", url: "git+https://github.com/shop/clients.git", directory: "out" }, homepage: "https://shop.example/docs", bugs: { url: "https://github.com/shop/clients/issues" }, keywords: ["shop", "openapi"] };
  const dir = project(meta);
  const r = runCli(["generate"], dir);
  expect(r.status, r.stderr).toBe(0);
  const pkg = JSON.parse(readFileSync(join(dir, "out/package.json"), "utf8")) as Record<string, unknown>;
  expect({ repository: pkg["repository"], homepage: pkg["homepage"], bugs: pkg["bugs"], keywords: pkg["keywords"] }).toEqual(meta);
});

it("refuses a malformed value with a config error naming the field", () => {
  const r = runCli(["generate"], project({ repository: { type: "git" } }));
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('"package.repository" must be a URL or { "type": "git", "url": … }');
  expect(runCli(["generate"], project({ keywords: "shop" })).stderr).toContain('"package.keywords" must be a list of strings');
});
