/**
 * External `$ref`s, opt-in. By default a spec is read alone and any `$ref`
 * that leaves it is a diagnostic (validate/refs.ts). An input may allow
 * targets by prefix: folders (`refs.allow: ["./shared/"]`) or URL prefixes
 * (`"https://schemas.example.com/"`). Allowed targets are read (files) or
 * fetched (http/https, in a child process with a timeout, since generation is
 * synchronous) and bundled into the document, as `redocly bundle` would:
 *
 * - a schema (`…#/components/schemas/X`, `#/definitions/X`, `#/$defs/X`, or a
 *   whole file that is a schema) is copied under `components/schemas` once,
 *   and every `$ref` to it becomes local, so recursion keeps working;
 * - an OpenRPC error (`…#/components/errors/X`) is copied under
 *   `components/errors` once the same way: a method shared by `$ref` keeps
 *   its errors' names, so its error classes are the other document's;
 * - anything else (a path item, a parameter, a response) is copied in place.
 *
 * References inside a fetched document are resolved against that document,
 * and must be allowed too. Nothing is read or fetched unless allowed.
 */
import { spawnSync } from "node:child_process";
import { isAbsolute, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic } from "./diagnostics.js";
import { loadFile, loadText, type LoadedDocument } from "./load.js";
import * as ptr from "./pointer.js";
import { documentUri, idRulesOf, SchemaResources } from "./resources.js";
import { forEachRef } from "./vocabulary.js";

/** Longest chain of in-place copies followed before giving up (a ref cycle through non-schemas). */
const MAX_INLINE_DEPTH = 32;
const FETCH_TIMEOUT_MS = 15_000;
const MAX_FETCH_BYTES = 50 * 1024 * 1024;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The allowlist as absolute file paths and URL prefixes; relative entries are relative to `root` (the config's folder). */
export function allowList(entries: readonly string[], root: string): string[] {
  return entries.map((e) => (/^https?:\/\//i.test(e) ? e : e.startsWith("file:") ? fileURLToPath(e) : resolvePath(root, e)));
}

function locationOf(url: URL): string {
  return url.protocol === "file:" ? fileURLToPath(url) : url.href;
}

/** Fetches a URL synchronously (a child Node process; the generator itself is synchronous). */
function fetchText(url: string): { text?: string; error?: string } {
  const script = `const r = await fetch(process.argv[1], { redirect: "error", signal: AbortSignal.timeout(${FETCH_TIMEOUT_MS}) }); if (!r.ok) { process.stderr.write("HTTP " + r.status); process.exit(2); } const t = await r.text(); if (t.length > ${MAX_FETCH_BYTES}) { process.stderr.write("larger than ${MAX_FETCH_BYTES} bytes"); process.exit(2); } process.stdout.write(t);`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script, url], { encoding: "utf8", timeout: FETCH_TIMEOUT_MS + 5_000, maxBuffer: MAX_FETCH_BYTES + 1024 });
  if (r.status === 0) return { text: r.stdout };
  return { error: r.error ? r.error.message : (r.stderr.trim().split("\n").pop() ?? `exit ${r.status}`) };
}

const SCHEMA_HOME = /^\/(?:components\/schemas|definitions|\$defs)\/([^/]+)$/;
const ERROR_HOME = /^\/components\/errors\/([^/]+)$/;
const SCHEMA_KEYS = ["type", "properties", "items", "allOf", "anyOf", "oneOf", "enum", "const", "$schema", "additionalProperties"];

/**
 * Bundles the allowed external references of a loaded document into its
 * root. Returns the diagnostics of references that could not be bundled; a
 * reference that is not allowed is left alone (validation reports it).
 */
export function bundleExternalRefs(doc: LoadedDocument, allow: readonly string[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (allow.length === 0 || !isObj(doc.root)) return diagnostics;
  const root = doc.root;
  const rootUrl = pathToFileURL(isAbsolute(doc.file) ? doc.file : resolvePath(doc.file));
  const documents = new Map<string, { root: unknown } | { error: string }>([[rootUrl.href, { root }]]);
  const hoisted = new Map<string, string>();
  const allowed = (url: URL) => {
    const where = locationOf(url);
    return allow.some((a) => (/^https?:\/\//i.test(a) ? where.startsWith(a) : url.protocol === "file:" && (where === a || where.startsWith(a.endsWith("/") ? a : `${a}/`))));
  };
  const load = (url: URL): { root: unknown } | { error: string } => {
    const key = url.href;
    let found = documents.get(key);
    if (!found) {
      if (url.protocol === "file:") {
        const r = loadFile(fileURLToPath(url));
        found = r.document ? { root: r.document.root } : { error: r.diagnostics[0]?.message ?? "cannot read it" };
      } else {
        const f = fetchText(url.href);
        const r = f.text === undefined ? undefined : loadText(url.href, f.text);
        found = r?.document ? { root: r.document.root } : { error: f.error ?? r?.diagnostics[0]?.message ?? "cannot parse it" };
      }
      documents.set(key, found);
    }
    return found;
  };
  // a Swagger 2.0 document is converted after bundling: its schemas live under `definitions`
  const swagger2 = root["swagger"] !== undefined && root["openapi"] === undefined;
  const names = (kind: "schemas" | "errors" = "schemas") => {
    if (swagger2) return (isObj(root["definitions"]) ? root["definitions"] : (root["definitions"] = {})) as Json;
    const components = (isObj(root["components"]) ? root["components"] : (root["components"] = {})) as Json;
    return (isObj(components[kind]) ? components[kind] : (components[kind] = {})) as Json;
  };

  /** Resolves one `$ref` found in the document at `base`; `at` is where its chain started in the root document. */
  const resolveRef = (holder: Json, ref: string, base: URL, at: string, depth: number): void => {
    {
      // local refs of the root document stay; those of a fetched one point into it
      if (ref.startsWith("#") && base.href === rootUrl.href) return;
      const target = new URL(ref, base);
      const fragment = decodeURIComponent(target.hash.replace(/^#/, ""));
      target.hash = "";
      const fail = (message: string) => {
        const { line, col } = doc.locate(at);
        diagnostics.push({ code: "ref/external", severity: "error", message: `$ref ${JSON.stringify(ref)}: ${message}`, file: doc.file, pointer: at, line, col, hint: "check the reference, or bundle the documents first" });
      };
      if (!allowed(target)) {
        if (base.href !== rootUrl.href) fail(`${locationOf(target)} is not in refs.allow`);
        return;
      }
      const source = load(target);
      if ("error" in source) return fail(`cannot read ${locationOf(target)}: ${source.error}`);
      const tokens = ptr.parse(`#${fragment}`);
      const got = tokens ? ptr.get(source.root, tokens) : { found: false as const };
      if (!got.found) return fail(`nothing at #${fragment} in ${locationOf(target)}`);
      const value = got.value;
      const errorName = root["openrpc"] !== undefined && isObj(value) ? ERROR_HOME.exec(fragment)?.[1] : undefined;
      const schemaName = errorName ?? SCHEMA_HOME.exec(fragment)?.[1] ?? (fragment === "" && isObj(value) && SCHEMA_KEYS.some((k) => k in value) ? target.pathname.split("/").pop()!.replace(/\.(ya?ml|json)$/i, "") : undefined);
      const key = `${target.href}#${fragment}`;
      if (schemaName !== undefined) {
        let local = hoisted.get(key);
        if (!local) {
          const kind = errorName !== undefined ? "errors" : "schemas";
          const schemas = names(kind);
          let name = schemaName.replace(/[^A-Za-z0-9_.-]/g, "_") || "Schema";
          for (let n = 2; name in schemas; n++) name = `${schemaName}${n}`;
          local = swagger2 ? `#/definitions/${ptr.escapeToken(name)}` : `#/components/${kind}/${ptr.escapeToken(name)}`;
          hoisted.set(key, local);
          const copy = structuredClone(value);
          schemas[name] = copy;
          rewrite(copy, target, at, depth);
        }
        for (const k of Object.keys(holder)) if (k !== "$ref") delete holder[k];
        holder["$ref"] = local;
        return;
      }
      if (depth >= MAX_INLINE_DEPTH) return fail(`references lead more than ${MAX_INLINE_DEPTH} levels deep (a cycle?)`);
      if (!isObj(value)) return fail(`#${fragment} in ${locationOf(target)} is not an object`);
      const copy = structuredClone(value);
      delete holder["$ref"];
      // the referring object's own keys (a description, say) win over the copy's
      for (const [k, v] of Object.entries(copy)) if (!(k in holder)) holder[k] = v;
      rewrite(holder, target, at, depth + 1);
    }
  };
  /** Resolves every ref under `node`, a copy from the document at `base`. */
  const rewrite = (node: unknown, base: URL, at: string, depth: number): void => forEachRef(node, "#", (holder, ref) => resolveRef(holder, ref, base, at, depth));
  // a ref to an `$id` of the document itself is not external (indexed before anything is bundled in)
  const self = { root };
  const own = new SchemaResources([{ doc: self, uri: documentUri(root) }], idRulesOf(root));
  // each external ref of the root document starts a chain, reported at its own position
  forEachRef(root, "#", (holder, ref, pointer) => {
    if (!ref.startsWith("#") && !own.resolve(self, pointer.slice(0, -"/$ref".length), ref)) resolveRef(holder, ref, rootUrl, pointer, 0);
  });
  return diagnostics;
}
