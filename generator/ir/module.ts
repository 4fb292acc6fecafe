/**
 * Module pass: merges the IR documents of one config input into one output
 * module. Each operation gets its group path on the client and its endpoint
 * below the base URL; schemas of the same name and structure across
 * documents (the indexer documents share theirs) are kept once, and each
 * schema learns its document's qualifier for names two documents both use.
 */
import * as ptr from "../load/pointer.js";
import { toIdentifier } from "./naming.js";
import { UNGROUPED_ENDPOINT_MEMBER } from "./endpoints.js";
import { mergeAdvice } from "./advice.js";
import type { IrDocument, IrNamedSchema, IrSchema } from "./types.js";

export interface ModulePart {
  ir: IrDocument;
  /** Group path for the part's operations (`["index", "cBlock"]`). */
  group: string[];
  /** For JSON-RPC: `eth_baseFee` → group `eth`, method `baseFee`; otherwise the namespace is only stripped. */
  splitNamespaces: boolean;
}

/**
 * The words that qualify a document's schema names in a merged module: its
 * configured group (`index.cBlock`), else the one namespace all its methods
 * share (`platform.*` → `platform`), else its title.
 */
function qualifierOf(part: ModulePart): string {
  if (part.group.length > 0) return part.group.join(" ");
  const namespaces = new Set(part.ir.operations.map((op) => op.group[0]));
  const only = namespaces.size === 1 ? [...namespaces][0] : undefined;
  return only ?? part.ir.info.title;
}

/** `admin.alias` → ["admin", "alias"], `eth_baseFee` → ["eth", "baseFee"], `getFoo` → [undefined, "getFoo"]. */
function splitMethodName(name: string): [string | undefined, string] {
  const m = /^([A-Za-z][A-Za-z0-9]*)[._](.+)$/.exec(name);
  return m ? [m[1], m[2]!] : [undefined, name];
}

/** The path of a server URL without its trailing slash (`https://host/ext/bc/C/rpc` → `/ext/bc/C/rpc`, `wss://host/ext/bc/C/ws` → `/ext/bc/C/ws`; none: ""). */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, "");
  } catch {
    return url.startsWith("/") ? url.replace(/\/+$/, "") : "";
  }
}

export function mergeModule(parts: ModulePart[], options: { title?: string; description?: string; baseUrl?: string }): IrDocument {
  const first = parts[0]!.ir;
  const defaultBaseUrl = options.baseUrl ?? first.defaultBaseUrl;
  const base = defaultBaseUrl.replace(/\/+$/, "");
  const merged: IrDocument = {
    kind: "document",
    sources: parts.flatMap((p) => p.ir.sources),
    info: { ...first.info, ...(options.title ? { title: options.title } : {}), ...(options.description ? { description: options.description } : {}) },
    servers: first.servers,
    defaultBaseUrl,
    securitySchemes: parts.flatMap((p) => p.ir.securitySchemes),
    schemas: parts.flatMap((p) => p.ir.schemas),
    operations: [],
    names: first.names,
  };
  for (const part of parts) {
    const own = part.ir.defaultBaseUrl.replace(/\/+$/, "");
    // an endpoint whose path holds variables keeps them: its group becomes a function of them (ir/endpoints.ts)
    const template = part.ir.endpointGroups?.[0];
    const group = template && part.group.length === 0 ? [UNGROUPED_ENDPOINT_MEMBER] : part.group;
    const endpoint = template ? (own === base || own === "" ? "" : pathOf(own)) + template.path : own === base || own === "" ? "" : pathOf(own);
    if (template) (merged.endpointGroups ??= []).push({ ...template, files: [...template.files], group: [...group], ...(part.group.length === 0 ? { synthetic: true } : {}) });
    for (const op of part.ir.operations) {
      op.group = [...group];
      op.endpoint = endpoint;
      if (op.protocol === "json-rpc") {
        const [ns, local] = splitMethodName(op.transport.method);
        if (ns !== undefined && part.splitNamespaces) op.group.push(ns);
        op.nameHint = ns !== undefined ? local : op.transport.method;
      }
      merged.operations.push(op);
    }
    for (const provider of part.ir.providers ?? []) (merged.providers ??= []).push({ ...provider, group: [...group], endpoint });
    for (const socket of part.ir.webSockets ?? []) (merged.webSockets ??= []).push({ ...socket, group: [...group], endpoint });
    for (const hook of part.ir.webhooks ?? []) (merged.webhooks ??= []).push(hook);
    for (const d of part.ir.deprecatedValues ?? []) (merged.deprecatedValues ??= []).push(d);
    for (const l of part.ir.limits ?? []) (merged.limits ??= []).push({ ...l, group: [...group] });
    if (parts.length > 1) {
      const qualifier = qualifierOf(part);
      for (const s of part.ir.schemas) s.qualifier = qualifier;
    }
  }
  if (parts.length > 1) dedupeSchemas(merged);
  const advice = mergeAdvice(parts.map((p) => p.ir));
  if (advice) merged.advice = advice;
  return merged;
}

/** The spec's own name of a named schema: its component key, or the last segment of its pointer. */
export function schemaSourceName(s: IrNamedSchema): string {
  return s.id.startsWith("#") ? (ptr.parse(s.id)?.at(-1) ?? "Schema") : s.id;
}

/** What only documents a schema (or says where it was written): two schemas differing only there are one type. */
const DOCUMENTATION = new Set(["pointer", "title", "description", "examples"]);

/**
 * Keeps one of several named schemas that have the same name (as a
 * TypeScript identifier) and the same structure, and rewrites references to
 * it. Same structure: equal once the documentation keys (pointer, title,
 * description, examples) are dropped, with every $ref compared by what its
 * target is rather than where it is; refs are followed (partition refinement,
 * so cycles are fine): `A → B` in one document and `A → B'` in another are
 * one type only if `B` and `B'` are. Everything else (types, formats,
 * patterns, enums, bounds, default, deprecated, readOnly/writeOnly…) must be
 * equal. Different schemas under one name stay apart; the naming pass
 * qualifies them by their document.
 */
function dedupeSchemas(ir: IrDocument): void {
  const byKey = new Map(ir.schemas.map((s) => [s.key, s]));
  let classOf = new Map(ir.schemas.map((s) => [s.key, toIdentifier(schemaSourceName(s), "pascal")]));
  for (let count = new Set(classOf.values()).size; ; ) {
    const signature = (schema: IrSchema) =>
      JSON.stringify(schema, (k, v: unknown) => (DOCUMENTATION.has(k) ? undefined : k === "target" && typeof v === "string" && byKey.has(v) ? `ref:${classOf.get(v)}` : v));
    const ids = new Map<string, string>();
    const next = new Map<string, string>();
    for (const s of ir.schemas) {
      const sig = `${classOf.get(s.key)}\u0000${signature(s.schema)}`;
      let id = ids.get(sig);
      if (id === undefined) ids.set(sig, (id = `${classOf.get(s.key)}#${ids.size}`));
      next.set(s.key, id);
    }
    classOf = next;
    if (ids.size === count) break;
    count = ids.size;
  }
  const kept = new Map<string, string>();
  const canonical = new Map<string, string>();
  for (const s of ir.schemas) {
    const c = classOf.get(s.key)!;
    const keep = kept.get(c);
    if (keep === undefined) kept.set(c, s.key);
    else canonical.set(s.key, keep);
  }
  if (canonical.size === 0) return;
  ir.schemas = ir.schemas.filter((s) => !canonical.has(s.key));
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(rewrite);
    else if (typeof node === "object" && node !== null) {
      const o = node as Record<string, unknown>;
      if (o["kind"] === "ref" && typeof o["target"] === "string" && canonical.has(o["target"])) o["target"] = canonical.get(o["target"]);
      if (typeof o["target"] === "string" && !("kind" in o) && canonical.has(o["target"])) o["target"] = canonical.get(o["target"]); // discriminator mapping
      for (const v of Object.values(o)) rewrite(v);
    }
  };
  rewrite(ir.schemas);
  rewrite(ir.operations);
  rewrite(ir.webhooks);
  rewrite(ir.deprecatedValues);
}
