/**
 * OpenRPC 1.x document → IR. Methods become `json-rpc` operations; their
 * content descriptors become params and a result; schemas are draft-07.
 * This is the document's outline (methods in order, subscriptions, servers
 * and endpoints); each method is read by openrpc-methods.ts.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { buildInfo, buildServers, serverUrl } from "./servers.js";
import { isHttpServerUrl } from "../validate/suspicious.js";
import { SchemaBuilder } from "./schema.js";
import { OpenRpcMethods } from "./openrpc-methods.js";
import { readDeprecatedValues } from "./deprecated-values.js";
import { endpointTemplate } from "./endpoints.js";
import { documentLimits } from "./limits.js";
import { pathOf } from "./module.js";
import type { IrDocument, IrEndpointGroup, IrRpcOperation, IrSchema, IrSubscriptionKind, IrSubscriptions, IrWebSocket, JsonValue } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function buildOpenRpcIr(doc: LoadedDocument, diagnostics: Diagnostic[]): IrDocument {
  const root = doc.root as Record<string, unknown>;
  const schemas = new SchemaBuilder(doc, "draft-07", diagnostics, "#/components/schemas");
  schemas.buildNamedSchemas();

  /** Each error's `data` is a JSON Schema of what the server sends there (an extension proposed in open-rpc/spec#392), not a sample value. */
  const methods = new OpenRpcMethods(doc, schemas, diagnostics, root["x-error-data-schema"] === true);
  const deref = (node: unknown, pointer: string) => methods.deref(node, pointer);
  const operations: IrRpcOperation[] = [];
  (Array.isArray(root["methods"]) ? root["methods"] : []).forEach((m, i) => {
    const op = methods.method(m, ptr.join("#/methods", i));
    if (op) operations.push(op);
  });

  const servers = buildServers(root["servers"]);
  const info = buildInfo(root["info"]);
  const deprecatedValues = readDeprecatedValues(doc, diagnostics);
  const methodNames = new Set(operations.map((o) => o.transport.method));
  const report = (pointer: string, message: string) => {
    const { line, col } = doc.locate(pointer);
    diagnostics.push({ code: "extension/subscriptions", severity: "error", message, file: doc.file, pointer, line, col });
  };
  let subscriptions: IrSubscriptions | undefined;
  (Array.isArray(root["methods"]) ? root["methods"] : []).forEach((m, i) => {
    const d = deref(m, ptr.join("#/methods", i));
    if (!d || d.value["x-avaspec-subscriptions"] === undefined || typeof d.value["name"] !== "string") return;
    const built = buildSubscriptions(d.value["x-avaspec-subscriptions"], ptr.join(d.pointer, "x-avaspec-subscriptions"), d.value["name"], methodNames, (node, pointer) => schemas.build(node, pointer), report);
    if (built && subscriptions) report(built.pointer, `a second x-avaspec-subscriptions (one subscribe method per document)`);
    else if (built) subscriptions = built;
  });
  // a server whose path holds variables: the origin is the base URL, the path a template the caller fills in
  const httpIndex = servers.findIndex((s) => isHttpServerUrl(s.url));
  const template = httpIndex >= 0 ? endpointTemplate(servers[httpIndex]!) : undefined;
  const endpointGroup: IrEndpointGroup | undefined = template ? { kind: "endpoint-group", pointer: ptr.join("#/servers", httpIndex), file: doc.file, files: [doc.file], group: [], path: template.path, variables: template.variables } : undefined;
  const wsIndex = servers.findIndex((s) => /^wss?:\/\//i.test(s.url));
  if (template && wsIndex >= 0) {
    const pointer = ptr.join("#/servers", wsIndex);
    const { line, col } = doc.locate(pointer);
    diagnostics.push({ code: "openrpc/server-url", severity: "warning", message: "the WebSocket form of an endpoint whose path holds variables is not generated: only its HTTP form is", file: doc.file, pointer, line, col });
  }
  const webSocket: IrWebSocket | undefined =
    wsIndex >= 0 && !template ? { kind: "websocket", pointer: ptr.join("#/servers", wsIndex), file: doc.file, group: [], endpoint: "", path: pathOf(servers[wsIndex]!.url), ...(subscriptions ? { subscriptions } : {}) } : undefined;
  if (subscriptions && !webSocket) report(subscriptions.pointer, "x-avaspec-subscriptions needs a ws: or wss: server in the document's servers (subscriptions are served over WebSocket)");
  schemas.settleWireForms();
  // checked by validateOpenRpc (checkEip1193)
  const eip1193 = root["x-avaspec-eip1193"];
  const limits = documentLimits(root, doc.file);
  return {
    kind: "document",
    sources: [{ file: doc.file, format: "openrpc", version: String(root["openrpc"]), title: info.title }],
    info,
    servers,
    // as for OpenAPI: a ws:, javascript: or file: server is never the HTTP base URL (the validator warned about it)
    defaultBaseUrl: template ? template.origin : serverUrl(servers.find((s) => isHttpServerUrl(s.url))),
    securitySchemes: [],
    schemas: [...schemas.named.values()],
    operations,
    ...(eip1193 === true ? { providers: [{ kind: "eip1193" as const, pointer: "#/x-avaspec-eip1193", file: doc.file, group: [], endpoint: "" }] } : {}),
    ...(webSocket ? { webSockets: [webSocket] } : {}),
    ...(deprecatedValues.length > 0 ? { deprecatedValues } : {}),
    ...(endpointGroup ? { endpointGroups: [endpointGroup] } : {}),
    ...(limits ? { limits: [limits] } : {}),
    names: { factory: "", client: "", options: "", defaultBaseUrl: "", results: "", resultPairs: "", core: "", coreFactory: "" },
  };
}

/**
 * `x-avaspec-subscriptions` on the subscribe method: `{ unsubscribe,
 * notification, probe?, kinds: [{ kind, params?, result, backfill? }] }`,
 * with `backfill` `{ by: blocks, method, params? }` or `{ by: range, method,
 * head, block?, blockParams?, filter?, key }`. Method names must be the
 * document's own.
 */
function buildSubscriptions(node: unknown, pointer: string, subscribe: string, methods: Set<string>, build: (node: unknown, pointer: string) => IrSchema, report: (pointer: string, message: string) => void): IrSubscriptions | undefined {
  if (!isObj(node)) return report(pointer, "x-avaspec-subscriptions must be an object { unsubscribe, notification, kinds }"), undefined;
  const method = (key: string, required: boolean): string | undefined => {
    const v = node[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== "string" || v === "") return report(ptr.join(pointer, key), `x-avaspec-subscriptions.${key} must be a method name`), undefined;
    return v;
  };
  const unsubscribe = method("unsubscribe", true);
  const notification = method("notification", true);
  const probe = method("probe", false);
  for (const [key, name] of [["unsubscribe", unsubscribe], ["probe", probe]] as const) {
    if (name !== undefined && !methods.has(name)) report(ptr.join(pointer, key), `x-avaspec-subscriptions.${key} names ${JSON.stringify(name)}, which is not a method of this document`);
  }
  if (!Array.isArray(node["kinds"]) || node["kinds"].length === 0) return report(ptr.join(pointer, "kinds"), "x-avaspec-subscriptions.kinds must be a non-empty list"), undefined;
  const kinds: IrSubscriptionKind[] = [];
  const seen = new Set<string>();
  node["kinds"].forEach((k, i) => {
    const at = ptr.join(pointer, "kinds", i);
    if (!isObj(k) || typeof k["kind"] !== "string" || k["kind"] === "") return report(at, "a subscription kind needs a non-empty kind name");
    if (seen.has(k["kind"])) return report(ptr.join(at, "kind"), `two subscription kinds named ${JSON.stringify(k["kind"])}`);
    seen.add(k["kind"]);
    if (k["result"] === undefined) return report(at, `subscription kind ${JSON.stringify(k["kind"])} needs a result schema (the notification's payload)`);
    const params: IrSubscriptionKind["params"] = [];
    if (k["params"] !== undefined && !Array.isArray(k["params"])) return report(ptr.join(at, "params"), "params must be a list of { name, schema, required? }");
    for (const [j, p] of ((k["params"] as unknown[] | undefined) ?? []).entries()) {
      if (!isObj(p) || typeof p["name"] !== "string") return report(ptr.join(at, "params", j), "a param needs a name and a schema");
      params.push({ name: p["name"], schema: build(p["schema"] ?? true, ptr.join(at, "params", j, "schema")), required: p["required"] === true, ...(typeof p["description"] === "string" ? { description: p["description"] } : {}) });
    }
    const kind: IrSubscriptionKind = { kind: k["kind"], pointer: at, params, result: build(k["result"], ptr.join(at, "result")), ...(typeof k["description"] === "string" ? { description: k["description"] } : {}) };
    const b = k["backfill"];
    if (b !== undefined) {
      const bat = ptr.join(at, "backfill");
      const known = (key: string) => {
        const v = isObj(b) ? b[key] : undefined;
        if (typeof v !== "string" || !methods.has(v)) return report(ptr.join(bat, key), `backfill.${key} must name a method of this document, got ${JSON.stringify(v)}`), undefined;
        return v;
      };
      if (!isObj(b) || (b["by"] !== "blocks" && b["by"] !== "range")) report(bat, 'backfill must be { by: blocks, method } or { by: range, method, head, key }');
      else if (b["by"] === "blocks") {
        const m = known("method");
        if (m) kind.backfill = { by: "blocks", method: m, extra: Array.isArray(b["params"]) ? (b["params"] as JsonValue[]) : [] };
      } else {
        const m = known("method");
        const head = known("head");
        const key = b["key"];
        if (!Array.isArray(key) || key.length === 0 || !key.every((x) => typeof x === "string")) report(ptr.join(bat, "key"), "backfill.key must list the payload fields that tell events apart (e.g. [blockHash, logIndex])");
        else if (m && head) {
          const filter = typeof b["filter"] === "string" ? b["filter"] : undefined;
          if (filter !== undefined && !params.some((p) => p.name === filter)) report(ptr.join(bat, "filter"), `backfill.filter names ${JSON.stringify(filter)}, which is not a param of this kind`);
          // optional: a read of one block by number, to find where a reorganisation during an outage began
          const block = b["block"] === undefined ? undefined : known("block");
          const blockParams = b["blockParams"];
          if (blockParams !== undefined && !Array.isArray(blockParams)) report(ptr.join(bat, "blockParams"), "backfill.blockParams must list the params after the block number (e.g. [false])");
          kind.backfill = { by: "range", method: m, head, key: key as string[], ...(filter !== undefined ? { filter } : {}), ...(block ? { block, blockExtra: Array.isArray(blockParams) ? (blockParams as JsonValue[]) : [] } : {}) };
        }
      }
    }
    kinds.push(kind);
  });
  if (!unsubscribe || !notification || kinds.length === 0) return undefined;
  return { pointer, subscribe, unsubscribe, notification, ...(probe ? { probe } : {}), kinds };
}
