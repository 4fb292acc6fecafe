#!/usr/bin/env node
/**
 * `npm run release`: packs the two packages of this repository, avaspec (the
 * generator) and the generated `@avaspec/client`, into `release/`, with what
 * a registry publish needs, and checks them: the generated package has no
 * drift from the specs, each tarball holds exactly the files it should, the
 * metadata a registry page and `npm publish --provenance` read is there, and
 * `npm publish --dry-run` of each tarball succeeds. Nothing is published:
 * the tarballs are what users install until then (`npm install ./release/…`).
 *
 * `node scripts/release.mjs [--out <folder>]`; exits 1 when a check fails.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
const outArg = process.argv.indexOf("--out");
const out = resolve(outArg > 0 ? process.argv[outArg + 1] : join(ROOT, "release"));

/** What each tarball may hold at its top level, and what it must hold. */
const PACKAGES = [
  { dir: ROOT, top: ["LICENSE", "README.md", "bin", "dist", "package.json", "runtime", "templates"], must: ["bin/avaspec.mjs", "dist/cli.mjs", "LICENSE", "README.md"] },
  { dir: join(ROOT, "generated"), top: ["CHANGELOG.md", "README.md", "dist", "package.json", "spec", "src"], must: ["dist/index.js", "dist/index.d.ts", "README.md", "CHANGELOG.md"] },
];
/** Metadata a registry page and a provenance publish read. */
const FIELDS = ["name", "version", "description", "license", "exports", "engines"];

const problems = [];
const notes = [];
const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" } });

// the package must be what the specs produce
try {
  execFileSync(process.execPath, [join(ROOT, "bin/avaspec.mjs"), "generate", "--check"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
} catch (e) {
  problems.push(`generated/ differs from what the specs produce: run npm run generate first\n${e.stderr?.toString() ?? ""}`);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const packed = [];
for (const p of PACKAGES) {
  const pkg = JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8"));
  for (const f of FIELDS) if (pkg[f] === undefined) problems.push(`${pkg.name}: package.json has no "${f}"`);
  if (pkg.private) problems.push(`${pkg.name}: package.json says "private": true`);
  if (pkg.repository === undefined) notes.push(`${pkg.name}: no "repository" in package.json; \`npm publish --provenance\` needs it to name the GitHub repository the release is built from`);
  // prepack builds dist/ first
  const info = JSON.parse(npm(["pack", "--json", "--pack-destination", out], p.dir).replace(/^[^[]*/, ""))[0];
  const files = info.files.map((f) => f.path);
  const tops = [...new Set(files.map((f) => f.split("/")[0]))].sort();
  const extra = tops.filter((t) => !p.top.includes(t));
  if (extra.length > 0) problems.push(`${pkg.name}: the tarball holds ${extra.join(", ")}, which no user needs`);
  for (const m of p.must) if (!files.includes(m)) problems.push(`${pkg.name}: the tarball lacks ${m}`);
  const tests = files.filter((f) => /(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(f));
  if (tests.length > 0) problems.push(`${pkg.name}: the tarball holds tests: ${tests.slice(0, 5).join(", ")}`);
  const tarball = join(out, info.filename);
  try {
    npm(["publish", "--dry-run", "--access", "public", tarball], out);
  } catch (e) {
    problems.push(`${pkg.name}: npm publish --dry-run failed: ${e.stderr?.toString().split("\n").filter((l) => /ERR!/.test(l)).join(" ") || e.message}`);
  }
  packed.push({ name: pkg.name, version: info.version, tarball: relative(process.cwd(), tarball), files: info.entryCount, size: info.size, unpacked: info.unpackedSize });
}

for (const p of packed) console.log(`${p.name}@${p.version}: ${p.tarball} (${p.files} files, ${(p.size / 1024).toFixed(0)} KB packed, ${(p.unpacked / 1024 / 1024).toFixed(1)} MB unpacked)`);
for (const n of notes) console.log(`note: ${n}`);
if (problems.length > 0) {
  for (const p of problems) console.error(`release: ${p}`);
  process.exit(1);
}
console.log(`release: both tarballs pass (files, metadata, npm publish --dry-run). Install them with npm install ${packed.map((p) => `./${p.tarball}`).join(" ")}; publish each with npm publish --provenance --access public <tarball> from CI.`);
