/**
 * OpenAPI 3.1 `webhooks` → IR: for each webhook operation, the JSON request
 * body the API sends, as a named schema (an inline one named for the
 * webhook). A webhook without a JSON body has nothing to generate, and says so.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { HTTP_METHODS } from "../load/vocabulary.js";
import type { SchemaBuilder } from "./schema.js";
import type { IrWebhook } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Follows `$ref`s from an object (validation reported the ones that dangle or go round). */
function deref(doc: LoadedDocument, node: unknown, pointer: string): { value: Record<string, unknown>; pointer: string } | undefined {
  let cur = node;
  let at = pointer;
  for (let hops = 0; isObj(cur) && typeof cur["$ref"] === "string"; hops++) {
    const r = hops > 32 ? undefined : doc.resolve(cur["$ref"], at);
    if (!r) return undefined;
    cur = r.value;
    at = r.pointer;
  }
  return isObj(cur) ? { value: cur, pointer: at } : undefined;
}

export function buildWebhooks(doc: LoadedDocument, schemas: SchemaBuilder, diagnostics: Diagnostic[]): IrWebhook[] {
  const root = doc.root as Record<string, unknown>;
  const hooks = isObj(root["webhooks"]) ? root["webhooks"] : {};
  const out: IrWebhook[] = [];
  for (const name of Object.keys(hooks)) {
    const item = deref(doc, hooks[name], ptr.join("#/webhooks", name));
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const op = item.value[method];
      if (!isObj(op)) continue;
      const opPtr = ptr.join(item.pointer, method);
      const body = op["requestBody"] === undefined ? undefined : deref(doc, op["requestBody"], ptr.join(opPtr, "requestBody"));
      const content = body && isObj(body.value["content"]) ? body.value["content"] : {};
      const json = Object.keys(content).find((t) => /^application\/(.+\+)?json\b/i.test(t) && isObj(content[t]) && "schema" in (content[t] as object));
      if (json === undefined) {
        const { line, col } = doc.locate(opPtr);
        diagnostics.push({ code: "openapi/webhook", severity: "warning", message: `webhook ${JSON.stringify(name)} (${method.toUpperCase()}) has no JSON request body with a schema: nothing is generated for it`, file: doc.file, pointer: opPtr, line, col, hint: "avaspec generates a type and a validator for each webhook's JSON payload" });
        continue;
      }
      const several = HTTP_METHODS.filter((m) => isObj(item.value[m])).length > 1;
      const schemaPtr = ptr.join(body!.pointer, "content", json, "schema");
      const hook: IrWebhook = { kind: "webhook", pointer: opPtr, file: doc.file, name, method, key: "", contentType: json, payload: schemas.nameAt(schemaPtr, `${name}${several ? ` ${method}` : ""} webhook`) };
      if (typeof op["summary"] === "string") hook.summary = op["summary"];
      if (typeof op["description"] === "string") hook.description = op["description"];
      out.push(hook);
    }
  }
  return out;
}
