/**
 * OpenAPI 3.0/3.1/3.2 document → IR. Runs only on documents that passed
 * validation, but stays defensive: anything unexpected becomes a diagnostic.
 * This is the document's outline (schemas, security schemes, servers, the
 * paths walked in order); its objects are read by openapi-objects.ts.
 */
import { readDeprecatedValues } from "./deprecated-values.js";
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { isOpenApi32, pathItemOperations } from "../load/operations.js";
import { isHttpServerUrl } from "../validate/suspicious.js";
import { OpenApiObjects } from "./openapi-objects.js";
import { SchemaBuilder } from "./schema.js";
import { buildInfo, buildServers, serverUrl } from "./servers.js";
import { tagParents } from "./tags.js";
import { buildWebhooks } from "./webhooks.js";
import { readAdvice } from "./advice.js";
import { documentLimits } from "./limits.js";
import { checkOnePreferred, readPreferred } from "./api-keys.js";
import type { IrApiKeyScheme, IrDocument, IrHttpOperation } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function buildOpenApiIr(doc: LoadedDocument, diagnostics: Diagnostic[]): IrDocument {
  const root = doc.root as Record<string, unknown>;
  const version = String(root["openapi"]);
  const schemas = new SchemaBuilder(doc, version.startsWith("3.0") ? "openapi-3.0" : "openapi-3.1", diagnostics, "#/components/schemas");
  schemas.buildNamedSchemas();
  const components = isObj(root["components"]) ? root["components"] : {};
  const report = (code: string, pointer: string, message: string, hint?: string) => {
    const { line, col } = doc.locate(pointer);
    diagnostics.push({ code, severity: "error", message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };

  const objects = new OpenApiObjects(doc, schemas, diagnostics);
  const deref = (node: unknown, pointer: string) => objects.deref(node, pointer);

  const securitySchemes: IrApiKeyScheme[] = [];
  if (isObj(components["securitySchemes"])) {
    for (const id of Object.keys(components["securitySchemes"])) {
      const d = deref(components["securitySchemes"][id], ptr.join("#/components/securitySchemes", id));
      if (d && d.value["type"] === "apiKey" && typeof d.value["name"] === "string" && ["header", "query", "cookie"].includes(String(d.value["in"]))) {
        const preferred = readPreferred(d.value, d.pointer, report);
        securitySchemes.push({ kind: "api-key", id, pointer: d.pointer, name: d.value["name"], in: d.value["in"] as IrApiKeyScheme["in"], ...(str(d.value["description"]) ? { description: str(d.value["description"])! } : {}), ...(preferred ? { preferred } : {}) });
      } else if (d) readPreferred(d.value, d.pointer, report);
    }
    checkOnePreferred(securitySchemes, report);
  }
  const servers = buildServers(root["servers"]);
  // a javascript:, file: or data: URL is never a base URL (the validator warned about it)
  const defaultBaseUrl = serverUrl(servers.find((s) => isHttpServerUrl(s.url)));
  const operations: IrHttpOperation[] = [];
  const paths = isObj(root["paths"]) ? root["paths"] : {};
  const is32 = isOpenApi32(root);
  const parents = tagParents(root);
  for (const path of Object.keys(paths)) {
    const itemPtr = ptr.join("#/paths", path);
    const item = deref(paths[path], itemPtr);
    if (!item) continue;
    const pathParams = Array.isArray(item.value["parameters"]) ? item.value["parameters"].map((p, i) => objects.parameter(p, ptr.join(item.pointer, "parameters", i))) : [];
    for (const { method, keys, op } of pathItemOperations(item.value, is32)) {
      if (!isObj(op)) continue;
      operations.push(objects.operation({ path, method, keys, item, op, pathParams, defaultBaseUrl, documentSecurity: root["security"], tagParents: parents }));
    }
  }

  const advice = readAdvice(root, operations);
  const webhooks = buildWebhooks(doc, schemas, diagnostics);
  schemas.settleWireForms();
  const deprecatedValues = readDeprecatedValues(doc, diagnostics);
  const info = buildInfo(root["info"]);
  const limits = documentLimits(root, doc.file);
  return {
    kind: "document",
    sources: [{ file: doc.file, format: "openapi", version, title: info.title }],
    info,
    servers,
    defaultBaseUrl,
    securitySchemes,
    schemas: [...schemas.named.values()],
    operations,
    ...(webhooks.length > 0 ? { webhooks } : {}),
    ...(deprecatedValues.length > 0 ? { deprecatedValues } : {}),
    ...(advice ? { advice } : {}),
    ...(limits ? { limits: [limits] } : {}),
    names: { factory: "", client: "", options: "", defaultBaseUrl: "", results: "", resultPairs: "", core: "", coreFactory: "" },
  };
}
