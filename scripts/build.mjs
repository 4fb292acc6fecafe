#!/usr/bin/env node
/**
 * Builds the avaspec CLI as the npm package ships it (no tsx at run time):
 *   dist/cli.mjs    the generator and CLI bundled by esbuild into one ES module;
 *                   ts-morph, handlebars and yaml stay dependencies, loaded with
 *                   require (no ESM/CJS export scan of ts-morph's big files)
 *   dist/index.js   the public module (`defineConfig` and the config types)
 *   dist/types/     its declarations
 * The OpenRPC meta-schema and the OpenAPI 3.2 schema validators are compiled
 * ahead of time by Ajv's standalone code instead of at every run
 * (generator/validate/openrpc-meta.ts and openapi32-meta.ts are replaced in
 * the bundle). Run by `npm run build:cli` and on `npm pack`.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
/** Packages the CLI needs at run time: `dependencies` of package.json, never bundled. */
const RUNTIME_DEPENDENCIES = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies ?? {});

/**
 * Ajv's standalone module for the OpenRPC meta-schema, made from the very
 * schemas and options generator/validate/openrpc-meta.ts compiles at run time
 * from sources (that module is compiled here and asked for them).
 */
async function openRpcMetaModule() {
  const sources = join(DIST, `.openrpc-meta.${process.pid}.mjs`);
  await esbuild.build({ entryPoints: [join(ROOT, "generator/validate/openrpc-meta.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: sources, logLevel: "warning" });
  let meta;
  try {
    meta = await import(pathToFileURL(sources).href);
  } finally {
    rmSync(sources, { force: true });
  }
  const Ajv = require("ajv").default;
  const standaloneCode = require("ajv/dist/standalone").default;
  const { openrpc, jsonSchema } = meta.metaSchemas();
  const ajv = new Ajv({ ...meta.AJV_OPTIONS, code: { source: true, esm: true } });
  ajv.addSchema(jsonSchema, meta.JSON_SCHEMA_META_ID);
  const validate = ajv.compile(openrpc);
  return `${standaloneCode(ajv, validate)}\nexport function openRpcMetaValidator() { return validate; }\n`;
}

/**
 * Ajv's standalone module for the vendored OpenAPI 3.2 schema, with the
 * options generator/validate/openapi32-meta.ts compiles it with from sources.
 */
async function openApi32MetaModule() {
  const sources = join(DIST, `.openapi32-meta.${process.pid}.mjs`);
  await esbuild.build({ entryPoints: [join(ROOT, "generator/validate/openapi32-meta.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: sources, logLevel: "warning" });
  let meta;
  try {
    meta = await import(pathToFileURL(sources).href);
  } finally {
    rmSync(sources, { force: true });
  }
  const Ajv2020 = require("ajv/dist/2020").default;
  const standaloneCode = require("ajv/dist/standalone").default;
  const schema = meta.openApi32Schema(readFileSync(join(ROOT, "generator/validate", meta.OPENAPI_32_SCHEMA_FILE), "utf8"));
  const ajv = new Ajv2020({ ...meta.AJV_OPTIONS, code: { source: true, esm: true } });
  const validate = ajv.compile(schema);
  // minified: unminified it is a third of the CLI's size, parsed at every start for the few runs that read a 3.2 document
  const code = `${standaloneCode(ajv, validate)}\nexport function openApi32MetaValidator() { return validate; }\n`;
  return (await esbuild.transform(code, { minify: true, format: "esm", target: "node20" })).code;
}

const plugin = {
  name: "avaspec-cli",
  setup(build) {
    build.onResolve({ filter: /\/(openrpc|openapi32)-meta\.js$/ }, (args) => ({ path: args.path.includes("openapi32") ? "openapi32-meta" : "openrpc-meta", namespace: "avaspec-aot" }));
    build.onLoad({ filter: /.*/, namespace: "avaspec-aot" }, async (args) => ({ contents: await (args.path === "openapi32-meta" ? openApi32MetaModule() : openRpcMetaModule()), loader: "js", resolveDir: ROOT }));
    // dependencies load through require: Node then skips the ESM export scan of their CommonJS
    const deps = new RegExp(`^(${RUNTIME_DEPENDENCIES.map((d) => d.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`);
    build.onResolve({ filter: deps }, (args) => (args.namespace === "avaspec-dep" ? { path: args.path, external: true } : { path: args.path, namespace: "avaspec-dep" }));
    build.onLoad({ filter: /.*/, namespace: "avaspec-dep" }, (args) => ({ contents: LAZY_DEPENDENCIES.has(args.path) ? lazyModule(args.path) : `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

/**
 * Dependencies required the first time one of their exports is read, not when
 * the CLI starts: ts-morph (a third of a second to load) serves only code
 * generation, and `avaspec diff` or `mock` never touch it; json-p3 (5 to 30 ms
 * here) serves only inputs with overlays. The module is an
 * object with a getter per export, named from the installed package at build
 * time (esbuild's interop copies them as getters, so each read still reaches
 * the real module).
 */
const LAZY_DEPENDENCIES = new Set(["ts-morph", "json-p3"]);
function lazyModule(name) {
  const id = JSON.stringify(name);
  const getters = Object.keys(require(name)).map((k) => `${JSON.stringify(k)}: { enumerable: true, get: () => load()[${JSON.stringify(k)}] }`);
  return `let loaded;\nconst load = () => (loaded ??= require(${id}));\nmodule.exports = Object.defineProperties({}, {\n${getters.join(",\n")}\n});\n`;
}

const banner = `import { createRequire as __avaspecCreateRequire } from "node:module";\nconst require = __avaspecCreateRequire(import.meta.url);`;

export async function build() {
  mkdirSync(DIST, { recursive: true });
  const common = { bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "warning", legalComments: "none", charset: "utf8", write: false };
  const outputs = [
    ...(await esbuild.build({ ...common, entryPoints: [join(ROOT, "generator/cli.ts")], outfile: join(DIST, "cli.mjs"), plugins: [plugin], banner: { js: banner } })).outputFiles,
    ...(await esbuild.build({ ...common, entryPoints: [join(ROOT, "generator/public.ts")], outfile: join(DIST, "index.js"), packages: "external" })).outputFiles,
  ];
  // each file replaced by a rename: a CLI started meanwhile (a test, a watch) reads the old or the new one, never half of one
  for (const f of outputs) {
    writeFileSync(`${f.path}.${process.pid}.tmp`, f.contents);
    renameSync(`${f.path}.${process.pid}.tmp`, f.path);
  }
  rmSync(join(DIST, "types"), { recursive: true, force: true });
  declarations();
}

/** dist/types/: declarations of generator/public.ts and what it re-exports, by the project's TypeScript compiler. */
function declarations() {
  const tsc = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");
  const args = [tsc, "--ignoreConfig", "--declaration", "--emitDeclarationOnly", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "--rootDir", join(ROOT, "generator"), "--outDir", join(DIST, "types"), join(ROOT, "generator/public.ts")];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`declarations of generator/public.ts failed:\n${r.stdout}${r.stderr}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
