/**
 * `avaspec diff <old> <new>` and `avaspec diff <spec> --base <rev>`: builds
 * both sides into the IR (as `generate` does, so a broken side gets the same
 * `file:line:col at #/pointer: message` diagnostics) and prints the changes
 * as text, Markdown or JSON. Exit codes: 0, or 1 when `--fail-on` is
 * reached; 2 for usage errors, documents that do not build, and an OpenAPI
 * document against an OpenRPC one.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, findConfig, inputPath, loadConfigFile, specEntries, type Selected } from "../config.js";
import { formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic } from "../load/diagnostics.js";
import { allowList } from "../load/bundle.js";
import { buildSide, incomparable } from "./side.js";
import { diffModules, failsOn, formatJson, formatMarkdown, formatText, summarize, type Change } from "./index.js";

export const DIFF_USAGE = `avaspec diff: what changed between two versions of an OpenAPI or OpenRPC document, and whom it breaks

usage:
  avaspec diff <old-spec> <new-spec> [--format text|markdown|json] [--fail-on breaking-wire|breaking-code|deprecation] [--allow-ref <prefix>]…
               [--overlay <file>]… [--include <filter>]… [--exclude <filter>]…
  avaspec diff <spec> --base <git-revision> [...]      the spec at that revision (e.g. origin/main) against the working tree
  avaspec diff --base <git-revision> [--config <file>] [...]
                                                      every document of the config's inputs, each at that revision against the working tree
                                                      (without a config: every OpenAPI or OpenRPC document changed since that revision)
                                                      (json: { "version": 1, "documents": [{ "file", "changes", "summary" }] })

classes: breaking-wire, breaking-code, deprecation, addition, documentation
--allow-ref: follow external $refs whose target starts with this folder or URL, on both sides (with --base and no files: each input's refs.allow)
--overlay, --include, --exclude: read both sides as generate does with them (with --base and a spec file, the overlay as the revision had it
                                  on the old side; with --base and no files: each input's overlays and filters)
exit: 0; 1 when a change of the --fail-on class (or a more severe one) is found; 2 for a usage error, a document that does not build, or an OpenAPI document against an OpenRPC one`;

export async function diffCommand(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { format: { type: "string", default: "text" }, "fail-on": { type: "string" }, base: { type: "string" }, config: { type: "string" }, "allow-ref": { type: "string", multiple: true }, overlay: { type: "string", multiple: true }, include: { type: "string", multiple: true }, exclude: { type: "string", multiple: true }, help: { type: "boolean", short: "h" } } });
  } catch (e) {
    console.error(`avaspec: ${(e as Error).message}\n\n${DIFF_USAGE}`);
    return 2;
  }
  const v = args.values;
  if (v.help) {
    console.log(DIFF_USAGE);
    return 0;
  }
  const format = v.format!;
  const failOn = v["fail-on"];
  if (!["text", "markdown", "json"].includes(format)) return usage(`--format must be text, markdown or json, got ${JSON.stringify(format)}`);
  if (failOn !== undefined && !["breaking-wire", "breaking-code", "deprecation"].includes(failOn)) return usage(`--fail-on must be breaking-wire, breaking-code or deprecation, got ${JSON.stringify(failOn)}`);
  const files = args.positionals;
  if (v.base !== undefined && files.length === 0) {
    if (v["allow-ref"]) return usage("--allow-ref goes with spec files; the config's inputs have refs.allow");
    if (v.overlay || v.include || v.exclude) return usage("--overlay, --include and --exclude go with spec files; the config's inputs have overlays, include and exclude");
    return diffConfig(v.base, v.config, format, failOn);
  }
  if (v.config !== undefined) return usage("--config goes with --base and no spec files");
  const allow = allowList(v["allow-ref"] ?? [], process.cwd());
  if (v.base !== undefined && files.length !== 1) return usage("with --base, give one spec file");
  if (v.base === undefined && files.length !== 2) return usage("give the old and the new spec file (or one spec and --base <revision>)");
  const selected: Selected = { ...(v.overlay ? { overlays: v.overlay.map((o) => resolve(o)) } : {}), ...(v.include ? { include: v.include } : {}), ...(v.exclude ? { exclude: v.exclude } : {}) };
  const result = v.base !== undefined ? againstBase(files[0]!, v.base, allow, selected) : between(files[0]!, files[0]!, files[1]!, allow, allow, selected, selected);
  if (typeof result === "number") return result;
  process.stdout.write(format === "json" ? formatJson(result) : format === "markdown" ? formatMarkdown(result) : formatText(result));
  return failOn !== undefined && failsOn(result, failOn as "breaking-wire") ? 1 : 0;
}

/** The changes from `oldFile` (shown as `oldShown`) to `newFile`, or exit code 2 with the diagnostics printed when a side does not build. */
/** `oldAllow` and `newAllow`: absolute folder or URL prefixes the sides' external $refs may reach (the old side's may be a copy of the new one's folder). */
function between(oldFile: string, oldShown: string, newFile: string, oldAllow: string[] = [], newAllow: string[] = [], oldSelected: Selected = {}, newSelected: Selected = {}): Change[] | number {
  const diagnostics: Diagnostic[] = [];
  for (const [file, shown] of [[oldFile, oldShown], [newFile, newFile]] as const) if (existsSync(file) && statSync(file).isDirectory()) return usage(`${shown} is a folder; give the spec file in it`);
  const oldSide = buildSide(oldFile, oldShown, diagnostics, { allowRefs: oldAllow, ...oldSelected });
  const newSide = buildSide(newFile, newFile, diagnostics, { allowRefs: newAllow, ...newSelected });
  if (oldSide && newSide && !hasErrors(diagnostics)) {
    const why = incomparable(oldSide, newSide);
    if (why === undefined) return diffModules(oldSide, newSide);
    console.error(`avaspec: ${why}`);
    return 2;
  }
  sortDiagnostics(diagnostics);
  for (const d of diagnostics) console.error(formatDiagnostic(d));
  console.error("avaspec: diff stopped: a document does not build");
  return 2;
}

/** One document against its version at `base`: its folder at that revision (its $refs may point beside it) read into a temporary folder. */
function againstBase(newFile: string, base: string, allow: string[] = [], selected: Selected = {}): Change[] | number {
  if (!existsSync(newFile)) return usage(`${newFile} does not exist`);
  if (statSync(newFile).isDirectory()) return usage(`${newFile} is a folder; give the spec file in it`);
  let top: string;
  try {
    top = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: dirname(resolve(newFile)), encoding: "utf8" }).trim();
  } catch {
    return usage(`${newFile} is not in a git repository (--base reads the old version from git)`);
  }
  const inRepo = relative(top, resolve(newFile)).split("\\").join("/");
  const dir = mkdtempSync(join(tmpdir(), "avaspec-diff-"));
  try {
    try {
      const archive = execFileSync("git", ["archive", "--format=tar", base, dirname(inRepo) === "." ? inRepo : dirname(inRepo)], { cwd: top, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
      execFileSync("tar", ["-x", "-C", dir], { input: archive });
    } catch (e) {
      return usage(`cannot read ${inRepo} at ${base}: ${(e as { stderr?: Buffer }).stderr?.toString().trim() || (e as Error).message}`);
    }
    const oldFile = join(dir, inRepo);
    // a document the revision did not have: all of it is new
    if (!existsSync(oldFile)) return [{ rule: "document-added", class: "addition", message: `${newFile} did not exist at ${base}: all of it is new` }];
    // an allowed folder of the working tree is, for the old side, that folder in the revision's copy
    const oldAllow = allow.map((a) => (a === top || a.startsWith(`${top}/`) ? join(dir, relative(top, a)) : a));
    return between(oldFile, `${base}:${relative(process.cwd(), newFile)}`, newFile, oldAllow, allow, { ...selected, overlays: overlaysAt(base, top, dir, selected.overlays ?? []) }, selected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The overlays as the revision had them, copied into its folder `dir` (one it did not have is left out). */
function overlaysAt(base: string, top: string, dir: string, overlays: readonly string[]): string[] {
  return overlays.flatMap((o) => {
    const inRepo = relative(top, resolve(o)).split("\\").join("/");
    const copy = join(dir, inRepo);
    if (existsSync(copy)) return [copy];
    try {
      const text = execFileSync("git", ["show", `${base}:${inRepo}`], { cwd: top, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
      mkdirSync(dirname(copy), { recursive: true });
      writeFileSync(copy, text);
      return [copy];
    } catch {
      return [];
    }
  });
}

function usage(message: string): number {
  console.error(`avaspec: ${message}\n\n${DIFF_USAGE}`);
  return 2;
}

/** `--base` without files: every document of the config's inputs, each against its version at that revision. */
async function diffConfig(base: string, configOption: string | undefined, format: string, failOn: string | undefined): Promise<number> {
  let specs: { file: string; allow: string[]; selected?: Selected }[];
  try {
    const file = findConfig(configOption);
    if (configOption === undefined && !existsSync(file)) {
      // no config: the OpenAPI and OpenRPC documents that changed since the revision
      const changed = changedDocuments(base);
      if (typeof changed === "string") return usage(changed);
      // nothing changed is an answer, not an error: a CI check on a change that leaves the specs alone passes
      if (changed.length === 0 && format !== "json") {
        console.log(`avaspec: no OpenAPI or OpenRPC document changed since ${base} (no avaspec config here, so the changed files were read from git)`);
        return 0;
      }
      return report(changed.map((f) => ({ file: f, allow: [] })), base, format, failOn);
    }
    const config = await loadConfigFile(file);
    // each document with its overlays and the input's filters, as generation reads it
    specs = config.inputs.flatMap((input) =>
      specEntries(input).map((e) => ({ file: relative(process.cwd(), inputPath(config, e.spec)), allow: allowList(input.refs?.allow ?? [], config.root), selected: { overlays: (e.overlays ?? []).map((o) => inputPath(config, o)), ...(input.include ? { include: input.include } : {}), ...(input.exclude ? { exclude: input.exclude } : {}) } })),
    );
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`avaspec: ${e.message}`);
    return 2;
  }
  return report(specs, base, format, failOn);
}

/** Each document against its version at `base`, printed in the format; the exit code. */
function report(specs: { file: string; allow: string[]; selected?: Selected }[], base: string, format: string, failOn: string | undefined): number {
  const documents: { file: string; changes: Change[] }[] = [];
  for (const spec of specs) {
    const changes = againstBase(spec.file, base, spec.allow, spec.selected);
    if (typeof changes === "number") return changes;
    documents.push({ file: spec.file, changes });
  }
  if (format === "json") process.stdout.write(`${JSON.stringify({ version: 1, documents: documents.map((d) => ({ file: d.file, changes: d.changes, summary: summarize(d.changes) })) }, null, 2)}\n`);
  else for (const d of documents) process.stdout.write(`${format === "markdown" ? `## ${d.file}\n\n` : `== ${d.file}\n`}${format === "markdown" ? formatMarkdown(d.changes) : formatText(d.changes)}${format === "markdown" ? "" : "\n"}`);
  return failOn !== undefined && documents.some((d) => failsOn(d.changes, failOn as "breaking-wire")) ? 1 : 0;
}

/** A file whose first member is `openapi` or `openrpc` (JSON or YAML): a spec document. */
const SPEC_START = /^\s*(?:\{\s*)?["']?(?:openapi|openrpc)["']?\s*:/;

/**
 * Without a config, `--base` compares what changed: the working tree's
 * OpenAPI and OpenRPC documents (`.json`, `.yaml`, `.yml`) that differ from
 * the revision, paths relative to the current folder; or why there are none.
 */
function changedDocuments(base: string): string[] | string {
  let names: string[];
  try {
    const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const listed = execFileSync("git", ["diff", "--name-only", "--no-renames", base, "--", "."], { cwd: process.cwd(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const untracked = execFileSync("git", ["ls-files", "--others", "--exclude-standard", "--", "."], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    names = [...listed.split("\n").filter(Boolean).map((f) => relative(process.cwd(), join(top, f))), ...untracked.split("\n").filter(Boolean)];
  } catch (e) {
    const why = (e as { stderr?: Buffer }).stderr?.toString().trim();
    return `no avaspec config here, and the changed documents cannot be listed from git${why ? ` (${why})` : ""}: give spec files, or --config`;
  }
  const specs = [...new Set(names)].filter((f) => /\.(json|ya?ml)$/i.test(f) && existsSync(f) && SPEC_START.test(readFileSync(f, "utf8").slice(0, 4096).replace(/^(?:\s*#.*\n|\s*---\s*\n)*/, ""))).sort();
  return specs;
}
