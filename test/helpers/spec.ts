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

/** The 200 example of an operation (inline or via `examples`). */
export function okExample(doc: Doc, operationId: string): unknown {
  const found = operations(doc).find((o) => o.id === operationId);
  const media = found?.op.responses?.["200"]?.content?.["application/json"];
  if (!media) throw new Error(`no 200 JSON response for ${operationId}`);
  if ("example" in media) return media.example;
  const first = Object.values(media.examples ?? {})[0] as { value?: unknown } | undefined;
  if (first?.value === undefined) throw new Error(`no 200 example for ${operationId}`);
  return first.value;
}
