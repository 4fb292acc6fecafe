/**
 * avaspec CLI.
 *   avaspec generate [--config avaspec.config.json] [--check] [--dump-ir <file>]
 *   avaspec mock [--port 4010] [--host 127.0.0.1] [--seed N] [--synthesize]
 * Exit codes: 0 ok, 1 diagnostics or drift, 2 usage/config error.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { MockServiceOptions } from "../runtime/mock.js";
import type { MockServerOptions, RunningMockServer } from "../runtime/mock-server.js";
import { ConfigError, inputPath, loadConfig } from "./config.js";
import { generate } from "./generate.js";
import { formatDiagnostic } from "./load/diagnostics.js";
import { checkTree, writeTree } from "./write.js";

const USAGE = `usage: avaspec generate [--config <file>] [--check] [--dump-ir <file>]
       avaspec mock [--config <file>] [--port <n>] [--host <addr>] [--seed <n>] [--synthesize]

generate:
  --config <file>    config file (default: avaspec.config.json)
  --check            do not write; exit 1 and list the files that differ
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
    args = parseArgs({ args: argv, options: { config: { type: "string", default: "avaspec.config.json" }, port: { type: "string", default: "4010" }, host: { type: "string", default: "127.0.0.1" }, seed: { type: "string", default: "1" }, synthesize: { type: "boolean", default: false } } });
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
    const config = loadConfig(args.values.config!);
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

export function main(argv: string[]): number {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { config: { type: "string", default: "avaspec.config.json" }, check: { type: "boolean", default: false }, "dump-ir": { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (e) {
    console.error(`avaspec: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command = "generate"] = args.positionals;
  if (command !== "generate") {
    console.error(`avaspec: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(args.values.config!);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`avaspec: ${e.message}`);
      return 2;
    }
    throw e;
  }
  const result = generate(config);
  for (const d of result.diagnostics) console.error(formatDiagnostic(d, result.sources.get(d.file)) + "\n");
  if (args.values["dump-ir"]) writeFileSync(args.values["dump-ir"], JSON.stringify(result.irs, null, 2) + "\n");
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const outDir = inputPath(config, config.out);
  if (errors > 0) {
    console.error(`avaspec: ${errors} error${errors === 1 ? "" : "s"}; ${config.out}/ was left untouched`);
    return 1;
  }
  if (args.values.check) {
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

const argv = process.argv.slice(2);
if (argv[0] === "mock") process.exitCode = await mock(argv.slice(1));
else process.exitCode = main(argv);
