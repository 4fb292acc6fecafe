/**
 * The operations of an OpenAPI path item. 3.0 and 3.1 name eight methods as
 * fixed fields; 3.2 adds `query` and `additionalOperations`, a map whose keys
 * are any other method exactly as it is sent (`COPY`, `PURGE`). Every walker
 * of path items (validators, reference checks, the IR) asks this module, so a
 * 3.2 operation is seen by all of them and a 3.0/3.1 document reads as before.
 */
import { HTTP_METHODS } from "./vocabulary.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** 3.2's fixed operation fields: 3.0/3.1's and `query`. */
const FIXED_32 = [...HTTP_METHODS, "query"] as const;
const FIXED: ReadonlySet<string> = new Set(FIXED_32);

/** One operation of a path item: its method, its key path below the item, and the operation object (unchecked). */
export interface PathItemOperation {
  /** A fixed field's name in lowercase (`get`, `query`), or an `additionalOperations` key as written. */
  method: string;
  /** Below the path item: `["get"]` or `["additionalOperations", "COPY"]`. */
  keys: string[];
  op: unknown;
}

/** Whether a document is OpenAPI 3.2 (its path items may hold `query` and `additionalOperations`). */
export function isOpenApi32(root: unknown): boolean {
  return isObj(root) && typeof root["openapi"] === "string" && /^3\.2\./.test(root["openapi"]);
}

/** The path item's operations in document order of kind: the fixed fields, then `additionalOperations` in key order. */
export function pathItemOperations(item: Record<string, unknown>, is32: boolean): PathItemOperation[] {
  const out: PathItemOperation[] = [];
  for (const method of is32 ? FIXED_32 : HTTP_METHODS) if (item[method] !== undefined) out.push({ method, keys: [method], op: item[method] });
  const extra = item["additionalOperations"];
  if (is32 && isObj(extra)) for (const method of Object.keys(extra)) out.push({ method, keys: ["additionalOperations", method], op: extra[method] });
  return out;
}

/** The method on the wire: a fixed field's name in capitals, an `additionalOperations` key as written (3.2 sends it with that capitalization). */
export function wireMethod(method: string): string {
  return FIXED.has(method) ? method.toUpperCase() : method;
}

/** Whether a method is one of the fixed fields (else it came from `additionalOperations`). */
export function isFixedMethod(method: string): boolean {
  return FIXED.has(method);
}
