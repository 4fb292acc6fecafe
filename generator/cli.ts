/**
 * avaspec CLI.
 *   avaspec generate [--config avaspec.config.(ts|json)] [--check | --watch] [--dump-ir <file>]
 *   avaspec generate --input <spec> --out <dir> [--name <pkg>] [--client-name <Name>] [--targets <list>]
 *   avaspec mock [--port 4010] [--host 127.0.0.1] [--seed N] [--synthesize]
 * Exit codes: 0 ok, 1 diagnostics or drift, 2 usage/config error.
 */
import { existsSync, watch as fsWatch, writeFileSync, type FSWatcher } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { MockServiceOptions } from "../runtime/mock.js";
import type { MockServerOptions, RunningMockServer } from "../runtime/mock-server.js";
import { ConfigError, findConfig, inputPath, loadConfigFile, oneOffConfig, specEntries, type ResolvedConfig } from "./config.js";
import { generate } from "./generate.js";
import { formatDiagnostic } from "./load/diagnostics.js";
import { checkTree, writeTree } from "./write.js";

const USAGE = `usage: avaspec generate [--config <file>] [--check | --watch] [--dump-ir <file>]
       avaspec generate --input <spec> --out <dir> [--name <package>] [--client-name <Name>] [--targets <list>] [--allow-ref <prefix>…] [--check | --watch]
       avaspec mock [--config <file>] [--port <n>] [--host <addr>] [--seed <n>] [--synthesize]

generate:
  --config <file>    config file (default: the first of avaspec.config.ts, .mts, .js, .mjs, .json)
  --input <spec>     one OpenAPI or OpenRPC document, without a config…
  --out <dir>        …generated into this folder
  --name <package>   with --input: the package name (default: the folder's name)
  --client-name <N>  with --input: the client name (default: from the spec's file name)
  --targets <list>   with --input: what to emit, from types,validators,client,mocks (default all)
  --allow-ref <pre>  with --input: follow external $refs whose target starts with this folder or URL (repeatable; default none)
  --check            do not write; exit 1 and list the files that differ
  --watch            regenerate on every change to a spec or the config; diagnostics do not stop it
  --dump-ir <file>   also write the IR of every input as JSON (debugging)
mock (serves the generated package's mocks of every API on one origin):
  --config <file>    whose generated package to serve (default: avaspec.config.json)
  --port <n>         port (default 4010)
  --host <addr>      interface (default 127.0.0.1)
  --seed <n>         seed of the synthesized data (default 1)
  --synthesize       synthesize every body from the schemas, ignoring the spec's examples`;

/** \`avaspec mock\`: the standalone mock server, until SIGINT or SIGTERM. */
async function mock(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: { config: { type: "string" }, port: { type: "string", default: "4010" }, host: { type: "string", default: "127.0.0.1" }, seed: { type: "string", default: "1" }, synthesize: { type: "boolean", default: false } } });
  } catch (e) {
    console.error(`avaspec: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const port = Number(args.values.port);
  const seed = Number(args.values.seed);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || !Number.isInteger(seed)) {
    console.error(`avaspec: --port must be 0–65535 and --seed an integer\n\n${USAGE}`);
    return 2;
  }
  let entry: string;
  let out: string;
  try {
    const config = await loadConfigFile(findConfig(args.values.config));
    out = config.out;
    entry = join(inputPath(config, config.out), "src/mock-server/index.ts");
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`avaspec: ${e.message}`);
    return 2;
  }
  if (!existsSync(entry)) {
    console.error(`avaspec: ${entry} does not exist; run \`avaspec generate\` first`);
    return 1;
  }
  const { startMockServer } = (await import(pathToFileURL(entry).href)) as { startMockServer: (o: MockServiceOptions & MockServerOptions) => Promise<RunningMockServer> };
  const server = await startMockServer({ port, host: args.values.host!, seed, examples: !args.values.synthesize });
  console.log(`avaspec mock: every API of ${out}/ on ${server.url} (seed ${seed}); Ctrl-C stops`);
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  console.log("avaspec mock: stopped");
  return 0;
}

/** One generation: diagnostics to stderr, then write (or compare, with --check). Returns the exit code. */
function runOnce(config: ResolvedConfig, options: { check: boolean; dumpIr?: string }): number {
  const result = generate(config);
  for (const d of result.diagnostics) console.error(formatDiagnostic(d, result.sources.get(d.file)) + "\n");
  if (options.dumpIr) writeFileSync(options.dumpIr, JSON.stringify(result.irs, null, 2) + "\n");
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const outDir = inputPath(config, config.out);
  if (errors > 0) {
    console.error(`avaspec: ${errors} error${errors === 1 ? "" : "s"}; ${config.out}/ was left untouched`);
    return 1;
  }
  if (options.check) {
    const drift = checkTree(outDir, result.files);
    const total = drift.changed.length + drift.missing.length + drift.extra.length;
    if (total === 0) {
      console.log(`avaspec: ${config.out}/ is up to date (${result.files.size} files)`);
      return 0;
    }
    console.error(`avaspec: ${config.out}/ is not what the specs produce (${total} file${total === 1 ? "" : "s"}); run \`${config.regenerate}\``);
    for (const f of drift.changed) console.error(`  changed: ${config.out}/${f}`);
    for (const f of drift.missing) console.error(`  missing: ${config.out}/${f}`);
    for (const f of drift.extra) console.error(`  extra:   ${config.out}/${f}`);
    return 1;
  }
  writeTree(outDir, result.files);
  console.log(`avaspec: wrote ${result.files.size} files to ${config.out}/`);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: "string" },
        input: { type: "string" },
        out: { type: "string" },
        name: { type: "string" },
        "client-name": { type: "string" },
        targets: { type: "string" },
        "allow-ref": { type: "string", multiple: true },
        check: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        "dump-ir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    console.error(`avaspec: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = args.values;
  if (v.help) {
    console.log(USAGE);
    return 0;
  }
  const [command = "generate"] = args.positionals;
  if (command !== "generate") {
    console.error(`avaspec: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  const oneOff = v.input !== undefined || v.out !== undefined;
  if (oneOff && (v.input === undefined || v.out === undefined || v.config !== undefined)) {
    console.error(`avaspec: --input and --out go together, without --config\n\n${USAGE}`);
    return 2;
  }
  if (!oneOff && (v.name !== undefined || v["client-name"] !== undefined || v.targets !== undefined || v["allow-ref"] !== undefined)) {
    console.error(`avaspec: --name, --client-name, --targets and --allow-ref are for --input; set them in the config otherwise\n\n${USAGE}`);
    return 2;
  }
  if (v.watch && v.check) {
    console.error(`avaspec: --watch and --check do not go together\n\n${USAGE}`);
    return 2;
  }
  const configFile = oneOff ? undefined : findConfig(v.config);
  const load = async (): Promise<ResolvedConfig> =>
    configFile === undefined ? oneOffConfig(v.input!, v.out!, { name: v.name, clientName: v["client-name"], targets: v.targets, allowRefs: v["allow-ref"] }) : await loadConfigFile(configFile);
  let config: ResolvedConfig;
  try {
    config = await load();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`avaspec: ${e.message}`);
    return 2;
  }
  const options = { check: v.check!, ...(v["dump-ir"] ? { dumpIr: v["dump-ir"] } : {}) };
  if (!v.watch) return runOnce(config, options);
  return watch(config, configFile, load, options);
}

/**
 * `--watch`: generates, then again after every change to a spec (or the
 * config), until SIGINT/SIGTERM. Diagnostics are printed and the watch goes
 * on; the output keeps its last good state.
 */
async function watch(first: ResolvedConfig, configFile: string | undefined, load: () => Promise<ResolvedConfig>, options: { check: boolean; dumpIr?: string }): Promise<number> {
  let config = first;
  runOnce(config, options);
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  const files = () => new Set([...config.inputs.flatMap((i) => specEntries(i).map((e) => inputPath(config, e.spec))), ...(configFile ? [resolve(configFile)] : [])]);
  // folders, not files: editors save by replacing the file, which ends a watch on it
  const rewatch = () => {
    for (const w of watchers.splice(0)) w.close();
    const wanted = files();
    for (const dir of new Set([...wanted].map((f) => dirname(f)))) {
      watchers.push(
        fsWatch(dir, (_event, name) => {
          if (name !== null && !wanted.has(join(dir, name.toString()))) return;
          clearTimeout(timer);
          timer = setTimeout(() => (running = running.then(regenerate)), 50);
        }),
      );
    }
    console.log(`avaspec: watching ${wanted.size} file${wanted.size === 1 ? "" : "s"}; Ctrl-C stops`);
  };
  const regenerate = async () => {
    const started = Date.now();
    try {
      config = await load();
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      console.error(`avaspec: ${e.message}`);
      return;
    }
    const code = runOnce(config, options);
    console.log(`avaspec: ${code === 0 ? "regenerated" : "kept the last good output"} in ${Date.now() - started} ms`);
    rewatch();
  };
  rewatch();
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  clearTimeout(timer);
  for (const w of watchers) w.close();
  await running;
  return 0;
}

const argv = process.argv.slice(2);
if (argv[0] === "mock") process.exitCode = await mock(argv.slice(1));
else process.exitCode = await main(argv);
