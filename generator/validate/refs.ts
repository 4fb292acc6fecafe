/** `$ref` checks shared by every format: each resolves (by the loader's resolver), and only to the document itself. */
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { isOpenApi32, pathItemOperations } from "../load/operations.js";
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

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * OpenAPI component maps whose entries are objects other than schemas, with
 * what one entry is (a schema's own ref cycle is the IR's `ref/cycle`
 * warning). OpenRPC's components cannot be references (its meta-schema
 * requires their members).
 */
const OBJECT_COMPONENTS: Record<string, string> = { parameters: "parameter", responses: "response", requestBodies: "request body", headers: "header", pathItems: "path item", examples: "example", links: "link", callbacks: "callback", securitySchemes: "security scheme" };

/**
 * `$ref` chains between objects that are not schemas (parameters, responses,
 * path items, OpenRPC methods and content descriptors…) that go round: such
 * a reference never reaches the object it stands for, and the generator
 * would drop it without a word. Each cycle is an error once, at the first
 * place that leads into it: in document order the operations' own lists,
 * then the components.
 */
export function checkObjectRefCycles(doc: LoadedDocument, format: "openapi" | "openrpc", report: Report): void {
  const reported = new Set<string>();
  const follow = (node: unknown, pointer: string, what: string): Record<string, unknown> | undefined => {
    const chain: string[] = [];
    let cur = node;
    let at = pointer;
    while (isObj(cur) && typeof cur["$ref"] === "string") {
      const r = doc.resolve(cur["$ref"], at);
      // a ref that does not resolve is checkRefs' to report
      if (!r) return undefined;
      const from = chain.indexOf(r.pointer);
      if (from >= 0 || r.pointer === pointer) {
        // the same cycle reached from several places is one mistake
        const key = (from >= 0 ? chain.slice(from) : [pointer, ...chain]).sort().join("\u0000");
        if (!reported.has(key)) {
          reported.add(key);
          report("ref/cycle", pointer, `this ${what}'s $ref goes round without reaching a ${what}: ${[pointer, ...chain, r.pointer].join(" → ")}`, `point one of these $refs at the ${what} itself`);
        }
        return undefined;
      }
      chain.push(r.pointer);
      cur = r.value;
      at = r.pointer;
    }
    return isObj(cur) ? cur : undefined;
  };
  const root = doc.root;
  if (!isObj(root)) return;
  const list = (holder: Record<string, unknown>, key: string, at: string, what: string) => {
    const items = holder[key];
    if (Array.isArray(items)) items.forEach((p, i) => follow(p, ptr.join(at, key, i), what));
  };
  if (format === "openapi") {
    const is32 = isOpenApi32(root);
    for (const top of ["paths", "webhooks"]) {
      for (const [name, node] of Object.entries(isObj(root[top]) ? root[top] : {})) {
        const at = ptr.join(`#/${top}`, name);
        const item = follow(node, at, "path item");
        if (!item) continue;
        list(item, "parameters", at, "parameter");
        for (const { keys, op } of pathItemOperations(item, is32)) {
          if (!isObj(op)) continue;
          const opAt = ptr.join(at, ...keys);
          list(op, "parameters", opAt, "parameter");
          if (op["requestBody"] !== undefined) follow(op["requestBody"], ptr.join(opAt, "requestBody"), "request body");
          for (const [status, r] of Object.entries(isObj(op["responses"]) ? op["responses"] : {})) follow(r, ptr.join(opAt, "responses", status), "response");
        }
      }
    }
  } else {
    (Array.isArray(root["methods"]) ? root["methods"] : []).forEach((m, i) => {
      const at = ptr.join("#/methods", i);
      const method = follow(m, at, "method");
      if (!method) return;
      list(method, "params", at, "content descriptor");
      list(method, "errors", at, "error");
      if (method["result"] !== undefined) follow(method["result"], ptr.join(at, "result"), "content descriptor");
    });
  }
  const components = isObj(root["components"]) ? root["components"] : {};
  if (format === "openapi") {
    for (const [key, what] of Object.entries(OBJECT_COMPONENTS)) {
      for (const [name, node] of Object.entries(isObj(components[key]) ? components[key] : {})) follow(node, ptr.join("#/components", key, name), what);
    }
  }
}
