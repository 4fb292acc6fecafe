/**
 * OpenAPI 3.2 documents against the official schema (openapi32-meta.ts).
 * Ajv's findings become diagnostics at the node at fault, so a 3.2 document
 * the schema refuses reads like any other broken spec:
 * `file:line:col at #/pointer: message`.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import * as ptr from "../load/pointer.js";
import { openApi32MetaValidator } from "./openapi32-meta.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

type Report = (code: string, pointer: string, message: string, hint?: string) => void;

let validator: ValidateFunction | undefined;

/** Reports what the OpenAPI 3.2 schema refuses in `root`; true when it refused anything. */
export function checkOpenApi32Schema(root: unknown, report: Report): boolean {
  const validate = (validator ??= openApi32MetaValidator());
  if (validate(root)) return false;
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    const { pointer, detail } = where(e);
    // a refused key comes twice (its own rule, then `propertyNames`): once is enough
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    report("openapi/schema", pointer, `does not match the OpenAPI 3.2 schema: ${plainer(e) ?? e.message ?? e.keyword}${detail}`, `see the OpenAPI 3.2 specification for ${definitionOf(e.schemaPath)}`);
  }
  return true;
}

/** What a rule whose own message says nothing ("must NOT be valid") means, in words. */
function plainer(e: ErrorObject): string | undefined {
  // the parameters list's own rules (the precompiled validator's schema paths are relative to each $def: matched by the node)
  if (!/\/parameters$/.test(e.instancePath) || (e.keyword !== "not" && e.keyword !== "contains")) return undefined;
  return e.keyword === "not" ? "query parameters cannot be beside a querystring parameter (it is the whole query)" : "an operation has one querystring parameter at most";
  return undefined;
}

/** The node a finding is about: a key Ajv names (an unknown or forbidden member) is pointed at itself. */
function where(e: ErrorObject): { pointer: string; detail: string } {
  const at = `#${e.instancePath}`;
  const key = e.keyword === "additionalProperties" ? (e.params as { additionalProperty?: string }).additionalProperty : e.propertyName;
  if (typeof key === "string") return { pointer: ptr.join(at, key), detail: ` (${JSON.stringify(key)})` };
  return { pointer: at, detail: "" };
}

/** `#/$defs/path-item/properties/...` → `the path-item object`; the root's own rules → `the document`. */
function definitionOf(schemaPath: string): string {
  const m = /^#\/\$defs\/([^/]+)/.exec(schemaPath);
  return m ? `the ${m[1]} object` : "the OpenAPI object";
}

/** A tag's `parent` must name a tag of the document, and following parents must not come back to where it started. */
export function checkTagParents(root: Record<string, unknown>, report: Report): void {
  const tags = Array.isArray(root["tags"]) ? root["tags"] : [];
  const parents = new Map<string, string>();
  tags.forEach((t) => {
    if (isObj(t) && typeof t["name"] === "string" && typeof t["parent"] === "string") parents.set(t["name"], t["parent"]);
  });
  const names = new Set(tags.flatMap((t) => (isObj(t) && typeof t["name"] === "string" ? [t["name"]] : [])));
  tags.forEach((t, i) => {
    if (!isObj(t) || typeof t["name"] !== "string" || typeof t["parent"] !== "string") return;
    const at = ptr.join("#/tags", i, "parent");
    if (!names.has(t["parent"])) return report("openapi/tag-parent", at, `tag ${JSON.stringify(t["name"])} names parent ${JSON.stringify(t["parent"])}, which is not a tag of the document`, "add the parent tag to the document's tags, or fix its name");
    const chain = [t["name"]];
    for (let p = parents.get(t["name"]); p !== undefined; p = parents.get(p)) {
      if (p === t["name"]) return report("openapi/tag-parent", at, `tag ${JSON.stringify(t["name"])} is its own ancestor: ${[...chain, p].join(" → ")}`, "tags form a tree: one of these parents must go");
      if (chain.includes(p)) return;
      chain.push(p);
    }
  });
}
