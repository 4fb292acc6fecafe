/** `$ref` checks shared by every format: local only, and resolvable. */
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keys whose values are data, not spec structure: a `$ref` inside them is not a reference. */
const DATA_KEYS = new Set(["example", "default", "enum", "const", "value"]);
/** Maps whose keys are user-chosen names (a property may well be called "value" or "enum"). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas", "parameters", "responses", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems", "examples", "dependentSchemas", "encoding", "content", "variables", "paths", "webhooks", "mapping", "contentDescriptors", "errors", "examplePairingObjects"]);

export type Report = (code: string, pointer: string, message: string, hint?: string) => void;

export function checkRefs(doc: LoadedDocument, node: unknown, pointer: string, ownKey: string, report: (code: string, pointer: string, message: string, hint?: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((v, i) => checkRefs(doc, v, ptr.join(pointer, i), "", report));
    return;
  }
  const isNameMap = NAME_MAPS.has(ownKey);
  if (!isObj(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const here = ptr.join(pointer, key);
    if (key === "$ref" && typeof value === "string" && !isNameMap) {
      if (!value.startsWith("#")) {
        report("ref/external", here, `external $ref ${JSON.stringify(value)} is not allowed`, "avaspec resolves local references only; bundle the document first");
      } else if (!doc.resolve(value)) {
        report("ref/dangling", here, `$ref ${JSON.stringify(value)} does not resolve`, "check the spelling of the target, or add it under components");
      }
      continue;
    }
    if (!isNameMap && (DATA_KEYS.has(key) || key.startsWith("x-") || (key === "examples" && Array.isArray(value)))) continue;
    checkRefs(doc, value, here, isNameMap ? "" : key, report);
  }
}
