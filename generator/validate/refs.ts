/** `$ref` checks shared by every format: each resolves (by the loader's resolver), and only to the document itself. */
import type { LoadedDocument } from "../load/load.js";
import { forEachRef } from "../load/vocabulary.js";

export type Report = (code: string, pointer: string, message: string, hint?: string, severity?: "error" | "warning") => void;

export function checkRefs(doc: LoadedDocument, node: unknown, pointer: string, report: Report): void {
  forEachRef(node, pointer, (_holder, ref, here) => {
    // resolved where it is written: a schema's $id there moves the base it is read against
    const found = doc.resolve(ref, here.slice(0, -"/$ref".length));
    if (found?.outside !== undefined) {
      report("ref/base", here, `$ref ${JSON.stringify(ref)} finds nothing in the schema resource it is written in (${found.outside}, from an $id); it is read as a pointer into the document`, "JSON Schema resolves a $ref against the nearest $id: write the pointer relative to that schema, or drop the $id", "warning");
    } else if (found) {
      return;
    } else if (!ref.startsWith("#")) {
      report("ref/external", here, `external $ref ${JSON.stringify(ref)} is not allowed`, "avaspec reads local references only unless the input allows the target: add its folder or URL prefix to the input's refs.allow (or --allow-ref)");
    } else {
      report("ref/dangling", here, `$ref ${JSON.stringify(ref)} does not resolve`, "check the spelling of the target, or add it under components");
    }
  });
}

