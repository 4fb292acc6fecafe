/**
 * OpenAPI 3.0/3.1 document → IR. Runs only on documents that passed
 * validation, but stays defensive: anything unexpected becomes a diagnostic.
 */
import { readDeprecatedValues } from "./deprecated-values.js";
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { HTTP_METHODS } from "../validate/openapi.js";
import { isHttpServerUrl } from "../validate/suspicious.js";
import { operationStatus } from "../validate/extensions.js";
import { isIgnoredHeaderParameter } from "../validate/wire.js";
import { paginationDeclaration } from "../validate/pagination.js";
import { defaultDescribesSuccess, formEncoding, ownServer } from "./openapi-wire.js";
import { SchemaBuilder } from "./schema.js";
import { buildWebhooks } from "./webhooks.js";
import { checkOnePreferred, readPreferred } from "./api-keys.js";
import type { IrApiKeyScheme, IrDocument, IrHttpOperation, IrMediaContent, IrParameter, IrRequestBody, IrResponse, IrServer, JsonValue, ParameterLocation } from "./types.js";

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

  /** Follows `$ref` chains (e.g. to components.parameters); returns the object and its pointer. */
  const deref = (node: unknown, pointer: string): { value: Record<string, unknown>; pointer: string; refId?: string } | undefined => {
    let cur = node;
    let at = pointer;
    let refId: string | undefined;
    for (let hops = 0; isObj(cur) && typeof cur["$ref"] === "string"; hops++) {
      if (hops > 32) return undefined;
      const r = doc.resolve(cur["$ref"], at);
      if (!r) return undefined;
      refId ??= ptr.parse(r.pointer)?.at(-1);
      cur = r.value;
      at = r.pointer;
    }
    return isObj(cur) ? { value: cur, pointer: at, ...(refId !== undefined ? { refId } : {}) } : undefined;
  };

  const content = (node: unknown, pointer: string): IrMediaContent[] => {
    if (!isObj(node)) return [];
    const out = Object.keys(node).map((contentType) => {
      const media = isObj(node[contentType]) ? (node[contentType] as Record<string, unknown>) : {};
      const mp = ptr.join(pointer, contentType);
      const m: IrMediaContent = { contentType, schema: "schema" in media ? schemas.build(media["schema"], ptr.join(mp, "schema")) : { kind: "boolean", value: true, pointer: mp } };
      if ("example" in media) m.example = media["example"] as JsonValue;
      const encoding = formEncoding(contentType, media["encoding"]);
      if (encoding) m.encoding = encoding;
      return m;
    });
    // JSON first: it is what the client speaks by default.
    return out.sort((a, b) => rankMedia(a.contentType) - rankMedia(b.contentType));
  };

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
  const security = (list: unknown): IrHttpOperation["security"] => {
    if (!Array.isArray(list)) return { schemes: [], optional: true };
    const schemes: string[] = [];
    let optional = list.length === 0;
    for (const req of list) {
      if (!isObj(req)) continue;
      const keys = Object.keys(req);
      if (keys.length === 0) optional = true;
      for (const k of keys) if (!schemes.includes(k)) schemes.push(k);
    }
    return { schemes, optional };
  };

  const parameter = (node: unknown, pointer: string): IrParameter | undefined => {
    const d = deref(node, pointer);
    if (!d) return undefined;
    const p = d.value;
    const where = String(p["in"]) as ParameterLocation;
    if (!["path", "query", "header", "cookie"].includes(where) || typeof p["name"] !== "string") {
      const { line, col } = doc.locate(d.pointer);
      diagnostics.push({ code: "parameter/invalid", severity: "error", message: 'a parameter needs a "name" and "in" of path, query, header or cookie', file: doc.file, pointer: d.pointer, line, col });
      return undefined;
    }
    // OpenAPI ignores these (the validator warned): media types and security schemes say them
    if (isIgnoredHeaderParameter(where, p["name"])) return undefined;
    const style = (str(p["style"]) ?? (where === "query" || where === "cookie" ? "form" : "simple")) as IrParameter["style"];
    let schema = "schema" in p ? schemas.build(p["schema"], ptr.join(d.pointer, "schema")) : undefined;
    if (!schema && isObj(p["content"])) schema = content(p["content"], ptr.join(d.pointer, "content"))[0]?.schema;
    const out: IrParameter = {
      kind: "parameter",
      pointer: d.pointer,
      name: p["name"],
      key: p["name"],
      in: where,
      required: p["required"] === true,
      deprecated: p["deprecated"] === true,
      style,
      explode: typeof p["explode"] === "boolean" ? p["explode"] : style === "form",
      schema: schema ?? { kind: "boolean", value: true, pointer: d.pointer },
    };
    if (where === "query" && p["allowReserved"] === true) out.allowReserved = true;
    if (str(p["description"])) out.description = p["description"] as string;
    if (typeof p["x-avaspec-token-lifetime"] === "number") out.tokenLifetime = p["x-avaspec-token-lifetime"];
    if ("example" in p) out.example = p["example"] as JsonValue;
    else if (isObj(p["examples"])) {
      const first = Object.values(p["examples"])[0];
      const ex = deref(first, "");
      if (ex && "value" in ex.value) out.example = ex.value["value"] as JsonValue;
    }
    return out;
  };

  const servers = buildServers(root["servers"]);
  // a javascript:, file: or data: URL is never a base URL (the validator warned about it)
  const defaultBaseUrl = serverUrl(servers.find((s) => isHttpServerUrl(s.url)));
  const operations: IrHttpOperation[] = [];
  const paths = isObj(root["paths"]) ? root["paths"] : {};
  for (const path of Object.keys(paths)) {
    const itemPtr = ptr.join("#/paths", path);
    const item = deref(paths[path], itemPtr);
    if (!item) continue;
    const pathParams = Array.isArray(item.value["parameters"]) ? item.value["parameters"].map((p, i) => parameter(p, ptr.join(item.pointer, "parameters", i))) : [];
    for (const method of HTTP_METHODS) {
      const op = item.value[method];
      if (!isObj(op)) continue;
      const opPtr = ptr.join(item.pointer, method);
      const opParams = Array.isArray(op["parameters"]) ? op["parameters"].map((p, i) => parameter(p, ptr.join(opPtr, "parameters", i))) : [];
      // operation-level parameters override path-level ones with the same name and location;
      // each operation gets its own copy of a path-level one (the naming pass sets its key per operation)
      const merged = new Map<string, IrParameter>();
      for (const p of [...pathParams.map((p) => p && { ...p }), ...opParams]) if (p) merged.set(`${p.in}:${p.name}`, p);

      let requestBody: IrRequestBody | undefined;
      if (op["requestBody"] !== undefined) {
        const rb = deref(op["requestBody"], ptr.join(opPtr, "requestBody"));
        if (rb) {
          requestBody = { kind: "request-body", pointer: rb.pointer, required: rb.value["required"] === true, content: content(rb.value["content"], ptr.join(rb.pointer, "content")) };
          if (str(rb.value["description"])) requestBody.description = rb.value["description"] as string;
        }
      }
      const responses: IrResponse[] = [];
      const rs = isObj(op["responses"]) ? op["responses"] : {};
      for (const status of Object.keys(rs)) {
        const r = deref(rs[status], ptr.join(opPtr, "responses", status));
        if (!r) continue;
        const resp: IrResponse = {
          kind: "response",
          pointer: r.pointer,
          status,
          success: /^2(\d\d|XX)$/i.test(status),
          description: str(r.value["description"]) ?? "",
          content: content(r.value["content"], ptr.join(r.pointer, "content")),
        };
        if (r.refId !== undefined) resp.componentId = r.refId;
        // names only: a Link header says the operation pages by it
        if (isObj(r.value["headers"]) && Object.keys(r.value["headers"]).length > 0) resp.headers = Object.keys(r.value["headers"]).map((h) => h.toLowerCase()).sort();
        responses.push(resp);
      }
      defaultDescribesSuccess(responses);
      const ir: IrHttpOperation = {
        kind: "operation",
        protocol: "http",
        pointer: opPtr,
        file: doc.file,
        group: [],
        endpoint: "",
        id: str(op["operationId"]) ?? "",
        names: { method: "", params: "", response: "", descriptor: "", validateParams: "", validateResult: "", function: "" },
        ...operationStatus(op),
        // RFC 9110's idempotent methods, unless the spec says otherwise
        idempotent: typeof op["x-avaspec-idempotent"] === "boolean" ? op["x-avaspec-idempotent"] : ["get", "head", "options", "put", "delete"].includes(method),
        tags: Array.isArray(op["tags"]) ? op["tags"].filter((t): t is string => typeof t === "string") : [],
        transport: { kind: "http", pointer: item.pointer, method, path },
        parameters: [...merged.values()],
        responses,
        security: security(op["security"] ?? root["security"]),
      };
      if (str(op["summary"])) ir.summary = op["summary"] as string;
      if (str(op["description"])) ir.description = op["description"] as string;
      if (requestBody) ir.requestBody = requestBody;
      // checked by the validator (which reported what is wrong with it)
      const paging = paginationDeclaration(op, opPtr, () => {});
      if (paging) ir.pagingDeclared = paging;
      const server = ownServer(op["servers"], item.value["servers"], defaultBaseUrl);
      if (server !== undefined) ir.server = server;
      operations.push(ir);
    }
  }

  const webhooks = buildWebhooks(doc, schemas, diagnostics);
  schemas.settleWireForms();
  const deprecatedValues = readDeprecatedValues(doc, diagnostics);
  const info = buildInfo(root["info"]);
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
    names: { factory: "", client: "", options: "", defaultBaseUrl: "", results: "", resultPairs: "", core: "", coreFactory: "" },
  };
}

/** `servers` of OpenAPI and OpenRPC (same shape). */
export function buildServers(list: unknown): IrServer[] {
  return (Array.isArray(list) ? list : []).filter(isObj).map((s) => {
    const vars = isObj(s["variables"]) ? s["variables"] : {};
    return {
      url: str(s["url"]) ?? "/",
      ...(str(s["description"]) ? { description: s["description"] as string } : {}),
      variables: Object.keys(vars)
        .filter((name) => isObj(vars[name]))
        .map((name) => {
          const v = vars[name] as Record<string, unknown>;
          return {
            name,
            default: String(v["default"] ?? ""),
            ...(Array.isArray(v["enum"]) ? { enum: v["enum"].map(String) } : {}),
            ...(str(v["description"]) ? { description: v["description"] as string } : {}),
          };
        }),
    };
  });
}

export function buildInfo(node: unknown): IrDocument["info"] {
  const info = isObj(node) ? node : {};
  return { title: str(info["title"]) ?? "API", version: str(info["version"]) ?? "0.0.0", ...(str(info["description"]) ? { description: info["description"] as string } : {}) };
}

/** A server's URL with every variable at its default ("" when there is no server). */
export function serverUrl(server: IrServer | undefined): string {
  if (!server) return "";
  return server.url.replace(/\{([^}]+)\}/g, (m, name: string) => server.variables.find((v) => v.name === name)?.default ?? m);
}

function rankMedia(type: string): number {
  if (/^application\/(.+\+)?json\b/i.test(type)) return 0;
  if (/^text\//i.test(type)) return 1;
  return 2;
}
