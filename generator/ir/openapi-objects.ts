/**
 * The objects of an OpenAPI document read into the IR, one kind per method:
 * a `$ref` chain followed, media content, a parameter, a security
 * requirement, a request body, the responses, and the operation that holds
 * them. build-openapi.ts walks the document and asks this reader for each.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { operationStatus } from "../validate/extensions.js";
import { operationLimits } from "./limits.js";
import { paginationDeclaration } from "../validate/pagination.js";
import { isIgnoredHeaderParameter } from "../validate/wire.js";
import { defaultDescribesSuccess, formEncoding, ownServer } from "./openapi-wire.js";
import type { SchemaBuilder } from "./schema.js";
import { withAncestors } from "./tags.js";
import type { IrHttpOperation, IrMediaContent, IrParameter, IrRequestBody, IrResponse, JsonValue, ParameterLocation } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** An object reached through `$ref`s: where it is, and the component name of the first ref followed. */
export interface Dereferenced {
  value: Record<string, unknown>;
  pointer: string;
  refId?: string;
}

/** One operation of a path item, as build-openapi.ts finds it. */
export interface OperationSite {
  path: string;
  /** A fixed field in lowercase (`get`, `query`) or an `additionalOperations` key as written. */
  method: string;
  /** Where the operation sits below its path item: `["get"]`, `["additionalOperations", "COPY"]`. */
  keys: string[];
  item: Dereferenced;
  op: Record<string, unknown>;
  /** The path item's parameters, read once for all its operations. */
  pathParams: (IrParameter | undefined)[];
  defaultBaseUrl: string;
  /** The document's `security`, for operations that declare none. */
  documentSecurity: unknown;
  /** Each tag's 3.2 `parent`: an operation's tags are followed by their ancestors. */
  tagParents: ReadonlyMap<string, string>;
}

export class OpenApiObjects {
  constructor(
    private readonly doc: LoadedDocument,
    private readonly schemas: SchemaBuilder,
    private readonly diagnostics: Diagnostic[],
  ) {
    this.querystring = /^3\.2\./.test(String((doc.root as Record<string, unknown> | undefined)?.["openapi"]));
  }

  /** The whole query string as one parameter (`in: querystring`) is OpenAPI 3.2's. */
  private readonly querystring: boolean;

  /** Follows `$ref` chains (e.g. to components.parameters); returns the object and its pointer. */
  deref(node: unknown, pointer: string): Dereferenced | undefined {
    let cur = node;
    let at = pointer;
    let refId: string | undefined;
    for (let hops = 0; isObj(cur) && typeof cur["$ref"] === "string"; hops++) {
      if (hops > 32) return undefined;
      const r = this.doc.resolve(cur["$ref"], at);
      if (!r) return undefined;
      refId ??= ptr.parse(r.pointer)?.at(-1);
      cur = r.value;
      at = r.pointer;
    }
    return isObj(cur) ? { value: cur, pointer: at, ...(refId !== undefined ? { refId } : {}) } : undefined;
  }

  content(node: unknown, pointer: string): IrMediaContent[] {
    if (!isObj(node)) return [];
    const out = Object.keys(node).map((contentType) => {
      const media = isObj(node[contentType]) ? (node[contentType] as Record<string, unknown>) : {};
      const mp = ptr.join(pointer, contentType);
      const m: IrMediaContent = { contentType, schema: "schema" in media ? this.schemas.build(media["schema"], ptr.join(mp, "schema")) : { kind: "boolean", value: true, pointer: mp } };
      if ("itemSchema" in media) m.itemSchema = this.schemas.build(media["itemSchema"], ptr.join(mp, "itemSchema"));
      if ("example" in media) m.example = media["example"] as JsonValue;
      const encoding = formEncoding(contentType, media["encoding"]);
      if (encoding) m.encoding = encoding;
      return m;
    });
    // JSON first: it is what the client speaks by default.
    return out.sort((a, b) => rankMedia(a.contentType) - rankMedia(b.contentType));
  }

  parameter(node: unknown, pointer: string): IrParameter | undefined {
    const d = this.deref(node, pointer);
    if (!d) return undefined;
    const p = d.value;
    const where = String(p["in"]) as ParameterLocation;
    if (!["path", "query", "header", "cookie", ...(this.querystring ? ["querystring"] : [])].includes(where) || typeof p["name"] !== "string") {
      const { line, col } = this.doc.locate(d.pointer);
      this.diagnostics.push({ code: "parameter/invalid", severity: "error", message: `a parameter needs a "name" and "in" of path, query, header or cookie${this.querystring ? ", or querystring" : where === "querystring" ? " (querystring is OpenAPI 3.2's)" : ""}`, file: this.doc.file, pointer: d.pointer, line, col });
      return undefined;
    }
    // OpenAPI ignores these (the validator warned): media types and security schemes say them
    if (isIgnoredHeaderParameter(where, p["name"])) return undefined;
    const style = (str(p["style"]) ?? (where === "query" || where === "cookie" ? "form" : "simple")) as IrParameter["style"];
    let schema = "schema" in p ? this.schemas.build(p["schema"], ptr.join(d.pointer, "schema")) : undefined;
    let contentType: string | undefined;
    if (!schema && isObj(p["content"])) {
      const media = this.content(p["content"], ptr.join(d.pointer, "content"))[0];
      schema = media?.schema;
      contentType = media?.contentType;
    }
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
    if (contentType) out.contentType = contentType;
    if (str(p["description"])) out.description = p["description"] as string;
    if (typeof p["x-avaspec-token-lifetime"] === "number") out.tokenLifetime = p["x-avaspec-token-lifetime"];
    if ("example" in p) out.example = p["example"] as JsonValue;
    else if (isObj(p["examples"])) {
      const first = Object.values(p["examples"])[0];
      const ex = this.deref(first, "");
      if (ex && "value" in ex.value) out.example = ex.value["value"] as JsonValue;
    }
    return out;
  }

  /** OpenAPI 3.2: a querystring parameter is the whole query, so an operation has at most one, and no query parameters beside it. */
  private checkQuerystring(params: IrParameter[]): void {
    const whole = params.filter((p) => p.in === "querystring");
    if (whole.length === 0) return;
    const query = params.find((p) => p.in === "query");
    const extra = whole.length > 1 ? whole[1]! : query;
    if (!extra) return;
    const { line, col } = this.doc.locate(extra.pointer);
    const message = whole.length > 1 ? `an operation has one querystring parameter at most ("${whole[0]!.name}" and "${extra.name}")` : `a querystring parameter ("${whole[0]!.name}") is the whole query, so "${extra.name}" cannot be in the query beside it`;
    this.diagnostics.push({ code: "parameter/querystring", severity: "error", message, file: this.doc.file, pointer: extra.pointer, line, col });
  }

  security(list: unknown): IrHttpOperation["security"] {
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
  }

  requestBody(node: unknown, pointer: string): IrRequestBody | undefined {
    const rb = this.deref(node, pointer);
    if (!rb) return undefined;
    const requestBody: IrRequestBody = { kind: "request-body", pointer: rb.pointer, required: rb.value["required"] === true, content: this.content(rb.value["content"], ptr.join(rb.pointer, "content")) };
    if (str(rb.value["description"])) requestBody.description = rb.value["description"] as string;
    return requestBody;
  }

  responses(node: unknown, pointer: string): IrResponse[] {
    const responses: IrResponse[] = [];
    const rs = isObj(node) ? node : {};
    for (const status of Object.keys(rs)) {
      const r = this.deref(rs[status], ptr.join(pointer, status));
      if (!r) continue;
      const resp: IrResponse = {
        kind: "response",
        pointer: r.pointer,
        status,
        success: /^2(\d\d|XX)$/i.test(status),
        description: str(r.value["description"]) ?? "",
        content: this.content(r.value["content"], ptr.join(r.pointer, "content")),
      };
      if (r.refId !== undefined) resp.componentId = r.refId;
      // names only: a Link header says the operation pages by it
      if (isObj(r.value["headers"]) && Object.keys(r.value["headers"]).length > 0) resp.headers = Object.keys(r.value["headers"]).map((h) => h.toLowerCase()).sort();
      // checked by validateOpenApi (checkAdvice)
      if (typeof r.value["x-avaspec-advice"] === "string") resp.advice = r.value["x-avaspec-advice"];
      responses.push(resp);
    }
    defaultDescribesSuccess(responses);
    return responses;
  }

  operation({ path, method, keys, item, op, pathParams, defaultBaseUrl, documentSecurity, tagParents }: OperationSite): IrHttpOperation {
    const opPtr = ptr.join(item.pointer, ...keys);
    const opParams = Array.isArray(op["parameters"]) ? op["parameters"].map((p, i) => this.parameter(p, ptr.join(opPtr, "parameters", i))) : [];
    // operation-level parameters override path-level ones with the same name and location;
    // each operation gets its own copy of a path-level one (the naming pass sets its key per operation)
    const merged = new Map<string, IrParameter>();
    for (const p of [...pathParams.map((p) => p && { ...p }), ...opParams]) if (p) merged.set(`${p.in}:${p.name}`, p);
    this.checkQuerystring([...merged.values()]);
    const requestBody = op["requestBody"] !== undefined ? this.requestBody(op["requestBody"], ptr.join(opPtr, "requestBody")) : undefined;
    const ir: IrHttpOperation = {
      kind: "operation",
      protocol: "http",
      pointer: opPtr,
      file: this.doc.file,
      group: [],
      endpoint: "",
      id: str(op["operationId"]) ?? "",
      names: { method: "", params: "", response: "", descriptor: "", validateParams: "", validateResult: "", function: "" },
      ...operationStatus(op),
      ...operationLimits(op),
      // RFC 9110's idempotent methods and QUERY (safe and idempotent by its RFC), unless the spec says otherwise
      idempotent: typeof op["x-avaspec-idempotent"] === "boolean" ? op["x-avaspec-idempotent"] : ["get", "head", "options", "put", "delete", "query"].includes(method),
      tags: withAncestors(Array.isArray(op["tags"]) ? op["tags"].filter((t): t is string => typeof t === "string") : [], tagParents),
      transport: { kind: "http", pointer: item.pointer, method, path },
      parameters: [...merged.values()],
      responses: this.responses(op["responses"], ptr.join(opPtr, "responses")),
      security: this.security(op["security"] ?? documentSecurity),
    };
    if (str(op["summary"])) ir.summary = op["summary"] as string;
    if (str(op["description"])) ir.description = op["description"] as string;
    if (requestBody) ir.requestBody = requestBody;
    // checked by the validator (which reported what is wrong with it)
    const paging = paginationDeclaration(op, opPtr, () => {});
    if (paging) ir.pagingDeclared = paging;
    const server = ownServer(op["servers"], item.value["servers"], defaultBaseUrl);
    if (server !== undefined) ir.server = server;
    return ir;
  }
}

function rankMedia(type: string): number {
  if (/^application\/(.+\+)?json\b/i.test(type)) return 0;
  if (/^text\//i.test(type)) return 1;
  return 2;
}
