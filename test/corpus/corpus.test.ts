/**
 * Real-world corpus (`npm run test:corpus`): public OpenAPI and OpenRPC
 * documents shipped in npm packages (test/corpus/package.json, exact versions
 * in its lockfile) go through the real CLI, and the package it writes must
 * pass `tsc --strict`. Warnings are allowed and listed; an error, or a type
 * error in the output, fails that document.
 *
 * Each package is written to test/corpus/.out/<name>/package (git-ignored), with
 * the config beside it so a failure can be rerun by hand. Being inside the repo,
 * the generated imports of `msw` and Node's types resolve from the root's
 * node_modules, as they would from a user's project; the output is not touched.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI, parseDiagnostics, ROOT, runNode, TSC } from "../helpers/cli.js";

const CORPUS = fileURLToPath(new URL("./", import.meta.url));
const MODULES = join(CORPUS, "node_modules");
const OUT = join(CORPUS, ".out");

interface CorpusDocument {
  /** Folder under .out/ and the row in the table. */
  name: string;
  /** npm package that ships the document, and the document's path in it. */
  pkg: string;
  file: string;
  /** What makes it worth having: format, style, size. */
  note: string;
  /** GitHub's document takes about 20 s to generate and a minute or more to type-check on two cores. */
  timeout?: number;
}

const OPENRPC_EXAMPLES = ["api-with-examples", "link-example", "params-by-name-petstore", "petstore-expanded", "petstore", "simple-math"];

const DOCUMENTS: CorpusDocument[] = [
  { name: "github", pkg: "@octokit/openapi", file: "generated/api.github.com.json", note: "OpenAPI 3.0.3 JSON, 13 MB: GitHub REST", timeout: 600_000 },
  { name: "figma", pkg: "@figma/rest-api-spec", file: "openapi/openapi.yaml", note: "OpenAPI 3.1.0 YAML: discriminators, webhooks" },
  { name: "rclone", pkg: "rclone-openapi", file: "openapi.yaml", note: "OpenAPI 3.1.0 YAML: RPC over POST, multipart" },
  { name: "blockfrost", pkg: "@blockfrost/openapi", file: "openapi.yaml", note: "OpenAPI 3.0.3 YAML: nullable, CBOR and multipart bodies" },
  { name: "shipengine", pkg: "shipengine-openapi", file: "openapi.yaml", note: "OpenAPI 3.0.0 YAML: long component names, nullable" },
  { name: "dialogporten", pkg: "@digdir/dialogporten-schema", file: "swagger.verified.json", note: "OpenAPI 3.0.0 JSON from ASP.NET (BOM, json-patch)" },
  ...OPENRPC_EXAMPLES.map((n) => ({ name: `openrpc-${n}`, pkg: "@open-rpc/examples", file: `build/service-descriptions/${n}-openrpc.json`, note: "OpenRPC 1.0.0-rc1 JSON" })),
];

interface Row {
  name: string;
  source: string;
  kind: string;
  ops: number;
  specBytes: number;
  genMs: number;
  diagnostics: number;
  outBytes: number;
  outFiles: number;
  tscMs?: number;
  typeErrors?: number;
  pass: boolean;
}

const rows: Row[] = [];

/** Operations in the document: HTTP operations under `paths`, or OpenRPC methods. */
function countOperations(path: string): { kind: string; ops: number } {
  const text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  const doc = (path.endsWith(".json") ? JSON.parse(text) : parse(text)) as { openapi?: string; openrpc?: string; paths?: Record<string, Record<string, unknown>>; methods?: unknown[] };
  if (doc.openrpc !== undefined) return { kind: `OpenRPC ${doc.openrpc}`, ops: doc.methods?.length ?? 0 };
  const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
  let ops = 0;
  for (const item of Object.values(doc.paths ?? {})) for (const key of Object.keys(item ?? {})) if (methods.has(key)) ops++;
  return { kind: `OpenAPI ${doc.openapi}`, ops };
}

function treeSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const secs = (ms: number | undefined) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`);

describe("real-world corpus: generate, then tsc --strict", () => {
  it("has its documents installed (npm ci --prefix test/corpus)", () => {
    for (const d of DOCUMENTS) expect(existsSync(join(MODULES, d.pkg, d.file)), `${d.pkg}/${d.file}`).toBe(true);
  });

  for (const d of DOCUMENTS) {
    it(`${d.name} (${d.pkg}/${d.file})`, { timeout: d.timeout ?? 180_000 }, async () => {
      const spec = join(MODULES, d.pkg, d.file);
      const version = (JSON.parse(readFileSync(join(MODULES, d.pkg, "package.json"), "utf8")) as { version: string }).version;
      const { kind, ops } = countOperations(spec);
      const dir = join(OUT, d.name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const config = join(dir, "avaspec.config.json");
      const command = `node bin/avaspec.mjs generate --config ${relative(ROOT, config)}`;
      writeFileSync(config, JSON.stringify({ out: "package", regenerate: command, package: { name: `corpus-${d.name}` }, inputs: [{ spec: relative(dir, spec), output: "api", clientName: "Api" }] }, null, 2) + "\n");

      const gen = await runNode([CLI, "generate", "--config", config], ROOT, d.timeout ?? 180_000);
      const diagnostics = parseDiagnostics(gen.stderr).map((x) => x.line);
      const row: Row = { name: d.name, source: `${d.pkg}@${version}`, kind, ops, specBytes: statSync(spec).size, genMs: gen.ms, diagnostics: diagnostics.length, outBytes: 0, outFiles: 0, pass: false };
      rows.push(row);
      console.log(`${d.name}: ${d.note}; ${ops} operations; generated in ${secs(gen.ms)} with ${diagnostics.length} diagnostic(s)${diagnostics.length ? ":\n  " + diagnostics.join("\n  ") : ""}`);
      expect(gen.code, `generate failed (rerun: ${command}):\n${gen.stderr.slice(0, 20_000)}`).toBe(0);

      const pkg = join(dir, "package");
      const size = treeSize(join(pkg, "src"));
      row.outBytes = size.bytes;
      row.outFiles = size.files;
      const tsc = await runNode([TSC, "-p", join(pkg, "tsconfig.json"), "--noEmit", "--strict", "--pretty", "false"], ROOT, d.timeout ?? 180_000);
      const errors = tsc.stdout.split("\n").filter((l) => /error TS\d+/.test(l));
      row.tscMs = tsc.ms;
      row.typeErrors = errors.length;
      console.log(`${d.name}: src/ ${kb(size.bytes)} in ${size.files} files; tsc --strict in ${secs(tsc.ms)}, ${errors.length} error(s)${errors.length ? ":\n  " + errors.slice(0, 50).join("\n  ") : ""}`);
      expect(tsc.code, `tsc --strict failed on ${relative(ROOT, pkg)}:\n${(tsc.stdout + tsc.stderr).slice(0, 20_000)}`).toBe(0);
      row.pass = true;
    });
  }

  afterAll(() => {
    const head = ["document", "source", "kind", "ops", "spec", "generate", "diagnostics", "src/", "tsc --strict", "result"];
    const body = rows.map((r) => [r.name, r.source, r.kind, String(r.ops), kb(r.specBytes), secs(r.genMs), String(r.diagnostics), r.outFiles ? `${kb(r.outBytes)} (${r.outFiles} files)` : "–", r.typeErrors === undefined ? "–" : `${secs(r.tscMs)}${r.typeErrors ? `, ${r.typeErrors} errors` : ""}`, r.pass ? "pass" : "FAIL"]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
    const table = [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
    const passed = rows.filter((r) => r.pass).length;
    console.log(`\nCorpus: ${passed} of ${rows.length} documents generate and type-check\n${table}\n`);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, "results.md"), table + "\n");
  });
});
