/** Reads the bundled spec documents (what the package ships) for examples. */
import { readFileSync } from "node:fs";

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, any> };

export function loadSpec(name: "data-api.openapi.json" | "metrics-api.openapi.json"): Doc {
  return JSON.parse(readFileSync(new URL(`../../generated/spec/${name}`, import.meta.url), "utf8")) as Doc;
}

export function operations(doc: Doc): { id: string; method: string; path: string; op: any }[] {
  const out: { id: string; method: string; path: string; op: any }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) if (op?.operationId) out.push({ id: op.operationId, method, path, op });
  return out;
}

/** The success status an operation documents: 200, or 201 where the real service answers a creation with it. */
export function okStatus(doc: Doc, operationId: string): number {
  const found = operations(doc).find((o) => o.id === operationId);
  const status = Object.keys(found?.op.responses ?? {}).find((s) => /^2\d\d$/.test(s));
  if (!status) throw new Error(`no 2XX response for ${operationId}`);
  return Number(status);
}

/** The example of an operation's 2XX response (inline or via `examples`); undefined when that response has no body. */
export function okExample(doc: Doc, operationId: string): unknown {
  const found = operations(doc).find((o) => o.id === operationId);
  const response = found?.op.responses?.[String(okStatus(doc, operationId))];
  if (response && !response.content) return undefined;
  const media = response?.content?.["application/json"];
  if (!media) throw new Error(`no 2XX JSON response for ${operationId}`);
  if ("example" in media) return media.example;
  const first = Object.values(media.examples ?? {})[0] as { value?: unknown } | undefined;
  if (first?.value === undefined) throw new Error(`no 200 example for ${operationId}`);
  return first.value;
}
