#!/usr/bin/env node
/**
 * The generator's layers, and the check that its imports respect them:
 *
 *   node scripts/layers.mjs [root]
 *
 * prints every import cycle between generator/ files and every import from a
 * lower layer up to a higher one, and exits 1 when there is any. `npm test`
 * runs it (test/generator/layers.test.ts). The order and the reasons for it
 * are in docs/adr/0018-generator-layers.md; README's "How it works" is the map.
 *
 * Imports are read with TypeScript's own pre-processor (static imports,
 * re-exports, `import type`, dynamic `import()`), not with a regular
 * expression: the emitters hold import statements of the generated code in
 * strings. A type-only import counts: it is a dependency a reader follows.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";

/**
 * Bottom to top. A file may import files of its own layer and of layers below
 * it. An entry is a folder (`load/`) or a file (`load/pointer.ts`) under
 * generator/; a file is in the layer of its most specific entry, so the few
 * modules every stage shares are named one by one at the bottom although
 * they live in a stage's folder.
 */
export const LAYERS = [
  {
    name: "base",
    why: "helpers with no knowledge of specs: pointers, diagnostics, names, escaping, text writing, regular-expression analysis, paths, bounded recursion, the ts-morph structure kinds",
    entries: ["append.ts", "nesting.ts", "suggest.ts", "progress.ts", "assets.ts", "safe-path.ts", "writer.ts", "load/pointer.ts", "load/diagnostics.ts", "ir/naming.ts", "emit/escape.ts", "emit/validators/pattern.ts", "structure-kind.ts"],
  },
  { name: "vocabulary", why: "what a JSON Schema or spec keyword means (name maps, data members, $ref sites) and the IR's types", entries: ["load/vocabulary.ts", "ir/types.ts", "ir/json.ts", "ir/paging-types.ts", "ir/operation-marks.ts", "ir/transport-types.ts", "ir/limits-types.ts"] },
  { name: "config", why: "avaspec.config.json read and resolved", entries: ["config.ts"] },
  { name: "load", why: "a file read into a located document; $ref resolution (SchemaResources); bundling", entries: ["load/"] },
  { name: "validate", why: "a loaded document checked: refs, extensions, spec rules", entries: ["validate/"] },
  { name: "ir", why: "a valid document turned into the IR, and the passes over a module's IR", entries: ["ir/"] },
  { name: "changes", why: "two IRs compared (the diff rules) and the version ledger that follows the changes", entries: ["diff/", "versions.ts"] },
  { name: "front-end", why: "one config input built: load, validate and IR for each of its specs, merged into a module", entries: ["front-end.ts"] },
  { name: "print", why: "statements printed to text", entries: ["print.ts"] },
  { name: "emit", why: "a module's IR turned into statements: types, validators, client, mocks, package files", entries: ["emit/"] },
  { name: "release", why: "a document compared with a release of it: `avaspec diff` and the ledger's diffs", entries: ["diff/side.ts", "diff/release.ts", "diff/command.ts"] },
  { name: "generate", why: "the whole generation: every input, the release, the files to write", entries: ["generate.ts"] },
  { name: "write", why: "files written safely into the output folder", entries: ["write.ts"] },
  { name: "cli", why: "entry points: the command line and the public module", entries: ["cli.ts", "public.ts"] },
];

/** The layer index of `file` (a path relative to generator/, with /), or -1 when no entry covers it. */
export function layerOf(file, layers = LAYERS) {
  let best = -1;
  let bestLength = -1;
  layers.forEach((layer, index) => {
    for (const entry of layer.entries) {
      const covers = entry.endsWith("/") ? file.startsWith(entry) : file === entry;
      if (covers && entry.length > bestLength) [best, bestLength] = [index, entry.length];
    }
  });
  return best;
}

function sourceFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** Every relative import between the files of `folder` (generator/, or runtime/): a map from file to the files it imports (paths relative to the folder). */
export function importGraph(root, folder = "generator") {
  const base = join(root, folder);
  const graph = new Map();
  for (const path of sourceFiles(base)) {
    const from = relative(base, path).split(sep).join("/");
    const targets = new Set();
    for (const { fileName } of ts.preProcessFile(readFileSync(path, "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = relative(base, resolve(dirname(path), fileName.replace(/\.js$/, ".ts"))).split(sep).join("/");
      // runtime/ files the generator uses (the mock server, wire rules) are outside the layers
      if (!target.startsWith("..")) targets.add(target);
    }
    graph.set(from, [...targets].sort());
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): each is an import cycle. */
export function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  // iterative Tarjan: a deep chain of imports must not overflow the stack
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node), low.get(frame.node)));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Imports from a file to a file of a higher layer, and files no layer covers. */
export function layerViolations(graph, layers = LAYERS) {
  const upward = [];
  const unplaced = [];
  for (const [from, targets] of graph) {
    const own = layerOf(from, layers);
    if (own < 0) {
      unplaced.push(from);
      continue;
    }
    for (const to of targets) {
      const theirs = layerOf(to, layers);
      if (theirs > own) upward.push({ from, to, fromLayer: layers[own].name, toLayer: layers[theirs].name });
    }
  }
  return { upward, unplaced };
}

/**
 * runtime/ has no layer table: its folders are concerns a package takes or
 * leaves (generator/emit/runtime-files.ts), not stages, but an import cycle
 * there is as hard to read and would tie concerns together.
 */
export function check(root) {
  const graph = importGraph(root);
  const runtime = existsSync(join(root, "runtime")) ? importGraph(root, "runtime") : new Map();
  const found = cycles(runtime);
  const known = (c) => KNOWN_RUNTIME_CYCLES.includes(c.join(" → "));
  const gone = KNOWN_RUNTIME_CYCLES.filter((k) => runtime.size > 0 && !found.some((c) => c.join(" → ") === k));
  return { graph, cycles: cycles(graph), ...layerViolations(graph), runtime, runtimeCycles: found.filter((c) => !known(c)), knownRuntimeCycles: found.filter(known), goneRuntimeCycles: gone };
}

/**
 * Runtime cycles that were there when the check was added, to be broken by
 * the splits they go with: the list only shrinks, a cycle broken must be
 * struck from it. Both are gone (issue 28): the WebSocket transport's public
 * types moved below its parts (ws/types.ts), and the walker types below the
 * integer and wire-form codecs (values/walk.ts). Empty, it makes any runtime
 * cycle fail the check.
 */
export const KNOWN_RUNTIME_CYCLES = [];

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
  const result = check(root);
  const edges = [...result.graph.values()].reduce((n, t) => n + t.length, 0);
  console.log(`generator/: ${result.graph.size} files, ${edges} imports, ${LAYERS.length} layers`);
  for (const c of result.cycles) console.log(`cycle: ${c.join(" → ")}`);
  for (const u of result.upward) console.log(`upward import: ${u.from} (${u.fromLayer}) imports ${u.to} (${u.toLayer})`);
  for (const f of result.unplaced) console.log(`no layer: ${f} (add it to LAYERS in scripts/layers.mjs)`);
  const runtimeEdges = [...result.runtime.values()].reduce((n, t) => n + t.length, 0);
  console.log(`runtime/: ${result.runtime.size} files, ${runtimeEdges} imports`);
  for (const c of result.runtimeCycles) console.log(`runtime cycle: ${c.join(" → ")}`);
  for (const c of result.knownRuntimeCycles) console.log(`known runtime cycle (KNOWN_RUNTIME_CYCLES): ${c.join(" → ")}`);
  for (const c of result.goneRuntimeCycles) console.log(`runtime cycle broken, strike it from KNOWN_RUNTIME_CYCLES: ${c}`);
  const bad = result.cycles.length + result.upward.length + result.unplaced.length + result.runtimeCycles.length + result.goneRuntimeCycles.length;
  const known = result.knownRuntimeCycles.length;
  // the known runtime cycles are listed above: "no cycles" then means no new one, and says how many remain
  console.log(bad === 0 ? `no cycles, no upward imports${known > 0 ? ` (besides the ${known} known runtime cycle${known === 1 ? "" : "s"} above, which may only go)` : ""}` : `${result.cycles.length + result.runtimeCycles.length} cycle(s), ${result.upward.length} upward import(s), ${result.unplaced.length} file(s) without a layer`);
  process.exitCode = bad === 0 ? 0 : 1;
}
