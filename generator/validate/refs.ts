/** `$ref` checks shared by every format: local only, and resolvable. */
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keys whose values are data, not spec structure: a `$ref` inside them is not a reference. */
const DATA_KEYS = new Set(["example", "default", "enum", "const", "value"]);

/** Whether a member holds data (examples, defaults, enums, `x-` extensions), not spec structure. */
export function isDataMember(key: string, value: unknown): boolean {
  return DATA_KEYS.has(key) || key.startsWith("x-") || (key === "examples" && Array.isArray(value));
}

/** Maps whose keys are user-chosen names (a property may well be called "value" or "enum"). */
export const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas", "parameters", "responses", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems", "examples", "dependentSchemas", "encoding", "content", "variables", "paths", "webhooks", "mapping", "contentDescriptors", "errors", "examplePairingObjects"]);

export type Report = (code: string, pointer: string, message: string, hint?: string) => void;

/** Calls `visit` for every structural `$ref` under `node` (not those inside examples, defaults, enums or `x-` extensions), with the object holding it. */
export function forEachRef(node: unknown, pointer: string, visit: (holder: Record<string, unknown>, ref: string, pointer: string) => void, ownKey = ""): void {
  // only containers are walked into (a scalar holds no $ref): no pointer is made for the many scalars of a big document
  if (Array.isArray(node)) {
    node.forEach((v, i) => {
      if (typeof v === "object" && v !== null) forEachRef(v, ptr.join(pointer, i), visit);
    });
    return;
  }
  const isNameMap = NAME_MAPS.has(ownKey);
  if (!isObj(node)) return;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (key === "$ref" && typeof value === "string" && !isNameMap) {
      visit(node, value, ptr.join(pointer, key));
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (!isNameMap && isDataMember(key, value)) continue;
    forEachRef(value, ptr.join(pointer, key), visit, isNameMap ? "" : key);
  }
}

export function checkRefs(doc: LoadedDocument, node: unknown, pointer: string, report: Report): void {
  forEachRef(node, pointer, (_holder, ref, here) => {
    if (!ref.startsWith("#")) {
      report("ref/external", here, `external $ref ${JSON.stringify(ref)} is not allowed`, "avaspec reads local references only unless the input allows the target: add its folder or URL prefix to the input's refs.allow (or --allow-ref)");
    } else if (!doc.resolve(ref)) {
      report("ref/dangling", here, `$ref ${JSON.stringify(ref)} does not resolve`, "check the spelling of the target, or add it under components");
    }
  });
}
