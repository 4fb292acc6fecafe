/**
 * The avaspec command line: `generate` (the default) and `mock`; `--help`
 * and `--version`. Exit codes: 0 ok, 1 diagnostics, drift or a refused
 * write, 2 usage or config error. Nothing here throws at the user: every
 * failure is one line on stderr (70 for an internal error).
 */
import { existsSync, readFileSync, watch as fsWatch, writeFileSync, type FSWatcher } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { mockServerCommand as MockServerCommand, StartMockServer } from "../runtime/mock/server.js";
import type { CreateMcpServer, mcpCommand as McpCommand } from "../runtime/mcp/command.js";

/** What `avaspec mcp` takes from a package's built `mcp` entry. */
interface McpEntry {
  mcpCommand: typeof McpCommand;
  createMcpServer: CreateMcpServer;
  mcpClientNames: readonly string[];
}
import { packageRoot } from "./assets.js";
import { ConfigError, displayPath, findConfig, inputPath, loadConfigFile, oneOffConfig, specEntries, type ResolvedConfig } from "./config.js";
import { generateStream } from "./generate.js";
import { diffCommand } from "./diff/command.js";
import { formatDiagnostic, SourceLines } from "./load/diagnostics.js";
import { realPathOf } from "./safe-path.js";
import { checkTree, isInside, MANIFEST_FILE, WriteError, writeTree } from "./write.js";
import { closest } from "./suggest.js";
import { progress, type Progress } from "./progress.js";

/** The commands, for "did you mean" (`generate` is also the default). */
const COMMANDS = ["generate", "mock", "diff"];

const USAGE = `avaspec: TypeScript clients, validators and mocks from OpenAPI 3.0/3.1/3.2 and OpenRPC 1.x documents

usage:
  avaspec generate [--config <file>] [--check | --watch] [--force] [--lenient-versions] [--progress] [--dump-ir <file>]
  avaspec generate --input <spec> --out <dir> [--name <package>] [--client-name <Name>] [--targets <list>] [--allow-ref <prefix>]…
                   [--overlay <file>]… [--include <filter>]… [--exclude <filter>]… [--check | --watch] [--force]
  avaspec mock [--config <file> | --dir <package>] [--port <n>] [--host <addr>] [--seed <n>] [--synthesize] [--limits]
  avaspec mcp [--config <file> | --dir <package>] [--mode code|tools] [--allow-writes] [--http <port>] … (avaspec mcp --dir <package> --help)
  avaspec diff <old-spec> <new-spec> | <spec> --base <rev> [--format text|markdown|json] [--fail-on breaking-wire|breaking-code|deprecation]
  avaspec --help | --version

commands:
  generate           write the package the config (or --input/--out) describes; the default command
  mock               serve the generated package's mocks of every API on one origin (needs the package built: npm run build in it)
  mcp                serve the generated package's MCP server for AI agents, read-only by default (needs the package built)
  diff               what changed between two versions of a document, classed breaking-wire, breaking-code, deprecation, addition, documentation (avaspec diff --help)

generate:
  --config <file>    config file (default: the first of avaspec.config.ts, .mts, .js, .mjs, .json)
  --input <spec>     one OpenAPI or OpenRPC document (YAML or JSON), without a config…
  --out <dir>        …generated into this folder (a new, empty or earlier avaspec output folder)
  --name <package>   with --input: the package name (default: the folder's name)
  --client-name <N>  with --input: the client name (default: from the spec's file name)
  --targets <list>   with --input: what to emit, from types,validators,client,mocks (default all)
  --allow-ref <pre>  with --input: follow external $refs whose target starts with this folder or URL (repeatable; default none)
  --overlay <file>   with --input: apply this Overlay 1.0 document to the spec before validating it (repeatable, in order)
  --include <filter> with --input: generate only the operations it matches (repeatable): tag:<tag>, path:<glob>,
                     op:<operationId or method>, method:<glob>, e.g. --include tag:orders --include 'path:/v1/chains/**'
  --exclude <filter> with --input: leave out the operations it matches (repeatable, same filters; wins over --include)
  --check            do not write; exit 1 and list the files that differ
  --watch            regenerate on every change to a spec or the config; diagnostics do not stop it (the version,
                     CHANGELOG and shipped spec copies wait for a plain generate, which records the release)
  --force            generate into a non-empty folder that has no ${MANIFEST_FILE}, replacing files in the way
                     (avaspec never removes a file it did not write: other files are always kept)
  --lenient-versions a document whose info.version moved less than its changes need (versions/too-small) is a
                     warning, not an error; the package version follows the changes either way
  --progress         say each step (reading, compiling, printing) as it starts, also off a terminal (on a terminal
                     a status line shows it anyway)
  --dump-ir <file>   also write the IR of every input as JSON (debugging)

mock:
  --config <file>    whose generated package to serve (default: as for generate)
  --dir <package>    …or the generated package in this folder (e.g. the --out of a one-off generate)
  --port <n>         port (default 4010; 0 picks a free one)
  --host <addr>      interface (default 127.0.0.1)
  --seed <n>         seed of the synthesized data (default 1)
  --synthesize       synthesize every body from the schemas, ignoring the spec's examples
  --limits           enforce the declared limits (x-avaspec-limits: plans per API key, batch and range caps) and
                     refuse over them as the services do
  --plan <name>      with --limits: the plan of requests with an API key (default: the first that needs a key)
  --faults <rate>    with --limits: refuse this share (0-1) of the requests at random, seeded by --seed

options:
  -h, --help         this text
  -v, --version      avaspec's version

examples:
  npx avaspec generate --input openapi.yaml --out client        # one spec → ./client (package "client")
  npx avaspec generate --input rpc.openrpc.json --out rpc-client --name @acme/rpc --client-name Chain
  npx avaspec generate                                           # as avaspec.config.ts says
  npx avaspec generate --check                                   # CI: fail when the output is stale
  npx avaspec generate --watch                                   # regenerate on save
  (cd client && npm install && npm run build) && npx avaspec mock --dir client --port 4010

The output folder holds ${MANIFEST_FILE}, the list of files avaspec wrote there: a new run replaces
and removes only those. Exit codes: 0 ok; 1 diagnostics, drift or a refused write; 2 usage or config error.`;

/** avaspec's own version, from its package.json. */
function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

/** The generated package a `mock` or `mcp` command serves: `--dir`, or the config's output; the rest of the arguments are the package's own command's. */
async function packageOf(argv: string[]): Promise<{ out: string; rest: string[] } | number> {
  let args;
  try {
    args = parseArgs({ args: argv, strict: false, options: { config: { type: "string" }, dir: { type: "string" } } });
  } catch (e) {
    console.error(`avaspec: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { config: configFile, dir } = args.values as { config?: string; dir?: string };
  if (dir !== undefined && configFile !== undefined) {
    console.error(`avaspec: --dir and --config do not go together\n\n${USAGE}`);
    return 2;
  }
  let out: string;
  try {
    if (dir !== undefined) out = dir.replace(/\/+$/, "") || ".";
    else {
      const config = await loadConfigFile(findConfig(configFile));
      out = displayPath(inputPath(config, config.out));
    }
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`avaspec: ${e.message}`);
    return 2;
  }
  const rest = argv.filter((a, i) => !["--dir", "--config"].includes(a) && !["--dir", "--config"].includes(argv[i - 1] ?? "") && !/^--(dir|config)=/.test(a));
  return { out, rest };
}

/** `avaspec mock`: the standalone mock server, until SIGINT or SIGTERM. */
async function mock(argv: string[]): Promise<number> {
  const found = await packageOf(argv);
  if (typeof found === "number") return found;
  const { out, rest } = found;
  const entry = join(resolve(out), "dist/mock-server/index.js");
  const command = join(resolve(out), "dist/runtime/mock/server.js");
  if (!existsSync(entry) || !existsSync(command)) {
    console.error(`avaspec: ${displayPath(entry)} does not exist; generate the package (with the mocks target) and build it first: avaspec generate && (cd ${out} && npm install && npm run build)`);
    return 1;
  }
  const { startMockServer } = (await import(pathToFileURL(entry).href)) as { startMockServer: StartMockServer };
  const { mockServerCommand } = (await import(pathToFileURL(command).href)) as { mockServerCommand: typeof MockServerCommand };
  return mockServerCommand("avaspec mock", startMockServer, rest);
}

/** `avaspec mcp`: the generated package's MCP server (its built `mcp` entry), on stdio or Streamable HTTP. */
async function mcp(argv: string[]): Promise<number> {
  const found = await packageOf(argv);
  if (typeof found === "number") return found;
  const { out, rest } = found;
  const entry = join(resolve(out), "dist/mcp/index.js");
  if (!existsSync(entry)) {
    console.error(`avaspec: ${displayPath(entry)} does not exist; generate the package (with a client, and package.mcp not false) and build it first: avaspec generate && (cd ${out} && npm install && npm run build)`);
    return 1;
  }
  let module: McpEntry;
  try {
    module = (await import(pathToFileURL(entry).href)) as McpEntry;
  } catch (e) {
    if ((e as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" || !String((e as Error).message).includes("@modelcontextprotocol/sdk")) throw e;
    console.error(`avaspec: the MCP server needs @modelcontextprotocol/sdk where the package can import it: (cd ${out} && npm install), or npm install @modelcontextprotocol/sdk beside it`);
    return 1;
  }
  return module.mcpCommand("avaspec", module.createMcpServer, module.mcpClientNames, rest);
}

/** The config's output folder, or a message when it would swallow an input (the spec or the config itself). */
function outputProblem(config: ResolvedConfig, configFile: string | undefined): string | undefined {
  // compared where the paths really lead: an --out that is a link to the spec's folder holds the spec too
  const outDir = realPathOf(inputPath(config, config.out));
  for (const input of config.inputs) {
    for (const e of specEntries(input)) {
      const spec = realPathOf(inputPath(config, e.spec));
      if (isInside(spec, outDir)) return `the output folder ${config.out}/ holds the input ${e.spec}; generate into a folder of its own (e.g. --out client)`;
    }
  }
  if (configFile !== undefined && isInside(realPathOf(configFile), outDir)) return `the output folder ${config.out}/ holds the config ${configFile}; set "out" to a folder of its own`;
  return undefined;
}

/** One generation: diagnostics to stderr, then write (or compare, with --check). Returns the exit code. */
async function runOnce(config: ResolvedConfig, options: { check: boolean; force: boolean; lenientVersions: boolean; preview?: boolean; dumpIr?: string; configFile?: string; shownWarnings?: Set<string>; progress?: boolean }): Promise<number> {
  const shown = progress(process.stderr, options.progress ?? false);
  try {
    return await generateOnce(config, options, shown);
  } finally {
    shown?.done();
  }
}

async function generateOnce(config: ResolvedConfig, options: Parameters<typeof runOnce>[1], shown: Progress | undefined): Promise<number> {
  const problem = outputProblem(config, options.configFile);
  if (problem) {
    console.error(`avaspec: ${problem}`);
    return 1;
  }
  // the files are printed as the write (or the comparison) takes them, so a write holds one at a time
  const result = generateStream(config, { lenientVersions: options.lenientVersions, preview: options.preview ?? false, ...(shown ? { onProgress: (step: string) => shown.step(step) } : {}) });
  shown?.done();
  const lines = new Map<string, SourceLines>();
  let repeated = 0;
  for (const d of result.diagnostics) {
    const text = result.sources.get(d.file);
    if (text !== undefined && !lines.has(d.file)) lines.set(d.file, new SourceLines(text));
    const shown = formatDiagnostic(d, lines.get(d.file));
    // --watch: a warning already shown by an earlier run of the watch is counted, not printed again (errors always are)
    if (d.severity === "warning" && options.shownWarnings) {
      if (options.shownWarnings.has(shown)) {
        repeated++;
        continue;
      }
      options.shownWarnings.add(shown);
    }
    console.error(shown + "\n");
  }
  if (repeated > 0) console.error(`avaspec: ${repeated} warning${repeated === 1 ? "" : "s"} as before, not shown again`);
  if (options.dumpIr) writeFileSync(options.dumpIr, JSON.stringify(result.irs, null, 2) + "\n");
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const outDir = inputPath(config, config.out);
  if (errors > 0) {
    console.error(`avaspec: ${errors} error${errors === 1 ? "" : "s"}; ${config.out}/ was left untouched`);
    return 1;
  }
  try {
    if (options.check) {
      const files = new Map(shown ? shown.count(result.files, "compared") : result.files);
      const drift = checkTree(outDir, files);
      const total = drift.changed.length + drift.missing.length + drift.extra.length;
      if (total === 0) {
        console.log(`avaspec: ${config.out}/ is up to date (${files.size} files)`);
        return 0;
      }
      console.error(`avaspec: ${config.out}/ is not what the specs produce (${total} file${total === 1 ? "" : "s"}); run \`${config.regenerate}\``);
      for (const f of drift.changed) console.error(`  changed: ${config.out}/${f}`);
      for (const f of drift.missing) console.error(`  missing: ${config.out}/${f}`);
      for (const f of drift.extra) console.error(`  extra:   ${config.out}/${f}`);
      return 1;
    }
    const written = await writeTree(outDir, shown ? shown.count(result.files, "printed") : result.files, { force: options.force });
    shown?.done();
    if (written.recovered === "finished journal") console.log(`avaspec: finished the write a killed run had started in ${config.out}/`);
    if (written.replaced.length > 0) console.log(`avaspec: --force replaced ${written.replaced.length} file${written.replaced.length === 1 ? "" : "s"} avaspec had not written: ${written.replaced.join(", ")}`);
    if (written.kept.length > 0) console.log(`avaspec: left ${written.kept.join(", ")} alone: no longer generated, but a link or folder now stands where avaspec wrote a file (removed from ${MANIFEST_FILE})`);
    const removed = written.removed.length > 0 ? `, removed ${written.removed.length} no longer generated` : "";
    const files = (n: number) => `${n} file${n === 1 ? "" : "s"}`;
    const kept = written.unchanged > 0 ? ` (${written.unchanged} unchanged)` : "";
    console.log(written.written === 0 && removed === "" ? `avaspec: ${config.out}/ already held what the specs produce (${files(written.unchanged)} unchanged)` : `avaspec: wrote ${files(written.written)} to ${config.out}/${kept}${removed}`);
    if (result.pendingVersion) console.log(`avaspec: the specs changed since release; \`avaspec generate\` (without --watch) will record ${result.pendingVersion}`);
    return 0;
  } catch (e) {
    if (!(e instanceof WriteError)) throw e;
    console.error(`avaspec: ${e.message}`);
    return 1;
  }
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
        overlay: { type: "string", multiple: true },
        include: { type: "string", multiple: true },
        exclude: { type: "string", multiple: true },
        check: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        "dump-ir": { type: "string" },
        force: { type: "boolean", default: false },
        "lenient-versions": { type: "boolean", default: false },
        progress: { type: "boolean", default: false },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
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
  if (v.version) {
    console.log(version());
    return 0;
  }
  const [command = "generate"] = args.positionals;
  if (command !== "generate") {
    const near = closest(command, COMMANDS);
    console.error(`avaspec: unknown command ${JSON.stringify(command)}${near ? `; did you mean \`avaspec ${near}\`?` : ""} (\`avaspec --help\` lists the commands: ${COMMANDS.join(", ")})`);
    return 2;
  }
  const oneOff = v.input !== undefined || v.out !== undefined;
  if (oneOff && (v.input === undefined || v.out === undefined || v.config !== undefined)) {
    console.error(`avaspec: --input and --out go together, without --config\n\n${USAGE}`);
    return 2;
  }
  if (!oneOff && (v.name !== undefined || v["client-name"] !== undefined || v.targets !== undefined || v["allow-ref"] !== undefined || v.overlay || v.include || v.exclude)) {
    console.error(`avaspec: --name, --client-name, --targets, --allow-ref, --overlay, --include and --exclude are for --input; set them in the config otherwise (overlays, include, exclude of an input)\n\n${USAGE}`);
    return 2;
  }
  if (v.watch && v.check) {
    console.error(`avaspec: --watch and --check do not go together\n\n${USAGE}`);
    return 2;
  }
  const configFile = oneOff ? undefined : findConfig(v.config);
  const load = async (): Promise<ResolvedConfig> =>
    configFile === undefined ? oneOffConfig(v.input!, v.out!, { name: v.name, clientName: v["client-name"], targets: v.targets, allowRefs: v["allow-ref"], overlays: v.overlay, include: v.include, exclude: v.exclude }) : await loadConfigFile(configFile);
  let config: ResolvedConfig;
  try {
    config = await load();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`avaspec: ${e.message}`);
    return 2;
  }
  const options = { check: v.check!, force: v.force!, lenientVersions: v["lenient-versions"]!, progress: v.progress!, ...(v["dump-ir"] ? { dumpIr: v["dump-ir"] } : {}), ...(configFile ? { configFile } : {}) };
  if (!v.watch) return runOnce(config, options);
  return watch(config, configFile, load, options);
}

/**
 * `--watch`: generates, then again after every change to a spec (or the
 * config), until SIGINT/SIGTERM. Diagnostics are printed and the watch goes
 * on; the output keeps its last good state.
 */
async function watch(first: ResolvedConfig, configFile: string | undefined, load: () => Promise<ResolvedConfig>, recordOptions: Parameters<typeof runOnce>[1]): Promise<number> {
  let config = first;
  // saves on the way to a release are not releases: the version ledger waits for a plain generate
  const options = { ...recordOptions, preview: true, shownWarnings: new Set<string>() };
  await runOnce(config, options);
  // one watcher per folder, kept across runs (a folder's watcher is made again only when the set of folders
  // changes): a save right after a run is seen by the watcher that saw the run's own save
  const watchers = new Map<string, FSWatcher>();
  let wanted = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  const files = () => new Set([...config.inputs.flatMap((i) => specEntries(i).flatMap((e) => [e.spec, ...(e.overlays ?? [])].map((f) => inputPath(config, f)))), ...(configFile ? [resolve(configFile)] : [])]);
  // folders, not files: editors save by replacing the file, which ends a watch on it
  const rewatch = () => {
    wanted = files();
    const dirs = new Set([...wanted].map((f) => dirname(f)));
    for (const [dir, w] of watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      watchers.set(
        dir,
        fsWatch(dir, (_event, name) => {
          if (name !== null && !wanted.has(join(dir, name.toString()))) return;
          clearTimeout(timer);
          // a failure nobody foresaw is reported and the watch goes on (a rejected chain would drop every later change)
          timer = setTimeout(() => (running = running.then(regenerate).catch((e: unknown) => console.error(internalError(e)))), 50);
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
    const code = await runOnce(config, options);
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
  for (const w of watchers.values()) w.close();
  await running;
  return 0;
}

/** A failure nobody foresaw, as one line (AVASPEC_DEBUG=1 adds its stack). */
function internalError(e: unknown): string {
  return `avaspec: internal error: ${e instanceof Error ? e.message : String(e)}${process.env["AVASPEC_DEBUG"] ? `\n${(e as Error).stack ?? ""}` : " (AVASPEC_DEBUG=1 shows where)"}`;
}

/** Runs a command; a failure nobody foresaw is one line too (AVASPEC_DEBUG=1 prints its stack). */
async function run(argv: string[]): Promise<number> {
  try {
    if (argv[0] === "mock" && !argv.includes("--help") && !argv.includes("-h")) return await mock(argv.slice(1));
    if (argv[0] === "mcp") return await mcp(argv.slice(1));
    if (argv[0] === "diff") return await diffCommand(argv.slice(1));
    return await main(argv[0] === "mock" ? ["--help"] : argv);
  } catch (e) {
    console.error(internalError(e));
    return 70;
  }
}

process.exitCode = await run(process.argv.slice(2));
