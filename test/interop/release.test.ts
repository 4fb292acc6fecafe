/**
 * Issue 30, publishing honestly: `npm run release` packs both packages and
 * checks them (drift, files, metadata, `npm publish --dry-run`), and what it
 * makes installs: the avaspec tarball and the client tarball into an empty
 * project, offline, the client's mocks reaching `msw` installed beside it.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT, run, tempDir } from "./helpers.js";

const env = { npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

it("packs and checks both packages, and the tarballs install into an empty project", async () => {
  const out = tempDir("release");
  const r = await run(process.execPath, [join(ROOT, "scripts/release.mjs"), "--out", out], { cwd: ROOT, env, timeout: 600_000 });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^avaspec@\d+\.\d+\.\d+: .*avaspec-\d+\.\d+\.\d+\.tgz \(\d+ files/m);
  expect(r.stdout).toMatch(/^@avaspec\/client@\d+\.\d+\.\d+: .*avaspec-client-\d+\.\d+\.\d+\.tgz/m);
  expect(r.stdout).toContain("both tarballs pass (files, metadata, npm publish --dry-run)");
  const version = (JSON.parse(readFileSync(join(ROOT, "generated/package.json"), "utf8")) as { version: string }).version;
  const client = join(out, `avaspec-client-${version}.tgz`);
  expect(existsSync(client)).toBe(true);

  const project = tempDir("release-consumer");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const i = await run("npm", ["install", "--offline", "--ignore-scripts", "--no-package-lock", client, "msw@2"], { cwd: project, env, timeout: 300_000 });
  expect(i.code, i.stderr).toBe(0);
  writeFileSync(join(project, "check.mjs"), 'const m = await import("@avaspec/client/mocks"); console.log(typeof m.createMocks);\n');
  const c = await run(process.execPath, ["check.mjs"], { cwd: project, timeout: 60_000 });
  expect(c.stdout.trim(), c.stderr).toBe("function");
}, 900_000);

it("a project that installs the package's folder with --install-links gets the mocks' msw from its own node_modules", async () => {
  // a plain file: link would resolve msw from the package's folder (where it is not, outside this repository)
  const copy = tempDir("linked-package");
  cpSync(join(ROOT, "generated"), copy, { recursive: true, filter: (src) => !src.includes("node_modules") });
  const project = tempDir("linked-consumer");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const i = await run("npm", ["install", "--offline", "--no-package-lock", "--install-links", copy, "msw@2"], { cwd: project, env, timeout: 300_000 });
  expect(i.code, i.stderr).toBe(0);
  writeFileSync(join(project, "check.mjs"), 'const m = await import("@avaspec/client/mocks"); console.log(typeof m.createMocks);\n');
  const c = await run(process.execPath, ["check.mjs"], { cwd: project, timeout: 60_000 });
  expect(c.stdout.trim(), c.stderr).toBe("function");
}, 900_000);

