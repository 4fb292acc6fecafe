/**
 * `x-avaspec-limits` into the IR: an operation's own (its cost, range and
 * signals) and a document's (its root's and its servers'). The validator has
 * reported every malformed member (validate/limits.ts); what is read here is
 * what passed, by the same function.
 */
import { readLimits } from "../validate/limits.js";
import type { IrDocumentLimits, IrLimits } from "./limits-types.js";

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const nobody = () => {};

/** The operation's or method's declaration, to spread into its IR node. */
export function operationLimits(node: Record<string, unknown>): { limits?: IrLimits } {
  const limits = readLimits(node, "#", "operation", nobody);
  return limits ? { limits } : {};
}

/** The document's declaration (its root's and each server's with one), when it has any. */
export function documentLimits(root: Record<string, unknown>, file: string): IrDocumentLimits | undefined {
  const own = readLimits(root, "#", "document", nobody);
  const servers: IrDocumentLimits["servers"] = [];
  for (const s of Array.isArray(root["servers"]) ? root["servers"] : []) {
    if (!isObj(s) || typeof s["url"] !== "string") continue;
    const limits = readLimits(s, "#", "document", nobody);
    if (limits) servers.push({ url: s["url"], limits });
  }
  if (!own && servers.length === 0) return undefined;
  return { kind: "limits", file, pointer: "#/x-avaspec-limits", group: [], limits: own ?? {}, servers };
}
