/**
 * Module pass: merges the IR documents of one config input into one output
 * module. Each operation gets its group path on the client and its endpoint
 * below the base URL; schemas identical across documents (the indexer
 * documents share theirs) are kept once.
 */
import type { IrDocument, IrSchema } from "./types.js";

export interface ModulePart {
  ir: IrDocument;
  /** Group path for the part's operations (`["index", "cBlock"]`). */
  group: string[];
  /** For JSON-RPC: `eth_baseFee` → group `eth`, method `baseFee`; otherwise the namespace is only stripped. */
  splitNamespaces: boolean;
}

/** `admin.alias` → ["admin", "alias"], `eth_baseFee` → ["eth", "baseFee"], `getFoo` → [undefined, "getFoo"]. */
function splitMethodName(name: string): [string | undefined, string] {
  const m = /^([A-Za-z][A-Za-z0-9]*)[._](.+)$/.exec(name);
  return m ? [m[1], m[2]!] : [undefined, name];
}

function pathOf(url: string): string {
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
    const endpoint = own === base || own === "" ? "" : pathOf(own);
    for (const op of part.ir.operations) {
      op.group = [...part.group];
      op.endpoint = endpoint;
      if (op.protocol === "json-rpc") {
        const [ns, local] = splitMethodName(op.transport.method);
        if (ns !== undefined && part.splitNamespaces) op.group.push(ns);
        op.nameHint = ns !== undefined ? local : op.transport.method;
      }
      merged.operations.push(op);
    }
    for (const provider of part.ir.providers ?? []) (merged.providers ??= []).push({ ...provider, group: [...part.group], endpoint });
  }
  if (parts.length > 1) dedupeSchemas(merged);
  return merged;
}

/** Keeps one of several named schemas with the same id and the same content; rewrites references. */
function dedupeSchemas(ir: IrDocument): void {
  const idOf = new Map(ir.schemas.map((s) => [s.key, s.id]));
  const signature = (schema: IrSchema) =>
    JSON.stringify(schema, (k, v: unknown) => (k === "pointer" ? undefined : k === "target" && typeof v === "string" ? `ref:${idOf.get(v)}` : v));
  const canonical = new Map<string, string>();
  const kept = new Map<string, string>();
  for (const s of ir.schemas) {
    const sig = `${s.id}\u0000${signature(s.schema)}`;
    const keep = kept.get(sig);
    if (keep === undefined) kept.set(sig, s.key);
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
}
