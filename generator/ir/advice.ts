/**
 * `x-avaspec-advice` into the IR: the document's root map (`IrDocument.advice`,
 * which the client factory passes to every call) and each operation's
 * responses' own sentences (`IrHttpOperation.advice`, in its descriptor: a
 * response's sentence wins over the root's for its status). Read after
 * validation (validate/extensions.ts `checkAdvice`): every value here is
 * well-formed.
 */
import type { IrDocument, IrHttpOperation } from "./types.js";

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** The root's map, and `advice` on the operations whose responses have some. */
export function readAdvice(root: Record<string, unknown>, operations: readonly IrHttpOperation[]): Record<string, string> | undefined {
  for (const op of operations) {
    const own: Record<string, string> = {};
    for (const r of op.responses) if (r.advice !== undefined) own[r.status === "default" ? r.status : r.status.toUpperCase()] = r.advice;
    if (Object.keys(own).length > 0) op.advice = sortedKeys(own);
  }
  const top = root["x-avaspec-advice"];
  if (!isObj(top)) return undefined;
  const map: Record<string, string> = {};
  for (const [key, text] of Object.entries(top)) if (typeof text === "string") map[key] = text;
  return sortedKeys(map);
}

/**
 * A module's root advice from its documents': theirs when every document
 * with HTTP operations says the same (or only one has operations); else
 * each operation carries its own document's map under its own sentences,
 * and the module has none.
 */
export function mergeAdvice(parts: readonly IrDocument[]): Record<string, string> | undefined {
  const withHttp = parts.filter((p) => p.operations.some((op) => op.protocol === "http"));
  const texts = new Set(withHttp.map((p) => JSON.stringify(p.advice ?? null)));
  if (texts.size <= 1) return withHttp[0]?.advice;
  for (const part of withHttp) {
    for (const op of part.operations) if (op.protocol === "http" && part.advice) op.advice = sortedKeys({ ...part.advice, ...op.advice });
  }
  return undefined;
}

/** Codes first, then ranges, then `default`, so that equal advice reads the same however the spec ordered it. */
function sortedKeys(byStatus: Record<string, string>): Record<string, string> {
  const rank = (k: string) => (k === "default" ? "3" : /X/i.test(k) ? `2${k}` : `1${k}`);
  return Object.fromEntries(Object.keys(byStatus).sort((a, b) => (rank(a) < rank(b) ? -1 : 1)).map((k) => [k, byStatus[k]!]));
}
