/**
 * The mock service over generated tables: request in, response out, the
 * same for MSW, the standalone mock server and the WebSocket bridge (see
 * mock.ts for what it promises). Routing by path is routes.ts, bodies
 * bodies.ts; the HTTP side is here. The JSON-RPC side (rpc.ts) and the
 * default subscriptions (the synthetic chain, chain.ts) come with the tables
 * that need them (`MockTable.rpc`, `MockTable.chain`): this file imports
 * neither, so a package of HTTP APIs ships neither.
 */
import type { MockAnswers, MockHttpEntry, MockOverride, MockRequest, MockResponse, MockRpcContext, MockRpcEntry, MockRpcSide, MockService, MockServiceOptions, MockTable } from "./types.js";
import { ValidationError } from "../errors/errors.js";
import { mockBodies, wireBody, type MockBodies } from "./bodies.js";
import { mockRoutes, type HttpRoute } from "./routes.js";
import { STREAM_INTERVAL_MS, STREAM_ITEMS, streamedAnswer, streamOf } from "./streams.js";
import { run, setOwn } from "../values/validate.js";
import { isStackOverflow, overflowIssue } from "../errors/depth.js";
import { serverForm } from "../values/wire-forms.js";
import { exactJson } from "../values/exact.js";
import type { ParamSpec } from "../http/http.js";

const REASONS: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };
const JSON_HEADERS = { "content-type": "application/json" };

const json = (status: number, value: unknown, handled: string, headers: Record<string, string> = {}): MockResponse => ({ status, headers: { ...JSON_HEADERS, ...headers }, body: jsonText(value), handled });

/** JSON text of a body; one holding a bigint (an integer beyond 2^53 an override gave, format int64) with all its digits, which JSON.stringify refuses. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return exactJson(value) ?? "null";
  }
}
const errorBody = (status: number, message: string | string[]) => ({ message, statusCode: status, error: REASONS[status] ?? "Error" });
const dropped = (handled: string): MockResponse => ({ status: 0, headers: {}, body: "", networkError: true, handled });

/** Waits out an override's delay; true when it asks for a network error. */
async function steer(o: MockOverride | undefined): Promise<boolean> {
  if (o?.delay) await new Promise((r) => setTimeout(r, o.delay));
  return o?.networkError === true;
}

/** A mock service over the generated tables of one or more APIs; `A` (types only) is what they answer, for typed overrides. */
export function createMockService<A extends MockAnswers = MockAnswers>(tables: readonly MockTable[], options: MockServiceOptions = {}): MockService<A> {
  const examples = options.examples ?? true;
  const overrides = new Map<string, MockOverride>();
  const routes = mockRoutes(tables);
  const bodies = mockBodies({ seed: options.seed ?? 1, pages: Math.max(1, options.pages ?? 3), examples });
  const rpcSide = jsonRpcSide(tables);
  const subscriptions = options.subscriptions === undefined ? tables.find((t) => t.chain)?.chain?.() : (options.subscriptions ?? undefined);
  // the endpoints of WebSocket paths: their chain reads come from the subscriptions' chain, over HTTP too, so both agree
  const chainEndpoints = new Set(routes.webSockets.map((w) => w.endpoint));
  const chain: MockRpcContext["chain"] = (endpoint, method, params) => (chainEndpoints.has(endpoint) ? subscriptions?.answer?.(endpoint, method, params) : undefined);
  const rpc: MockRpcContext = { overrides, synthesized: bodies.synthesized, examples, serverShapes: options.wireShapes === "server", chain, steer, json, dropped };
  const byId = new Map<string, { entry: MockHttpEntry | MockRpcEntry; table: MockTable }>();
  for (const table of tables) for (const entry of table.entries) byId.set(entry.kind === "http" ? entry.op.id : entry.method.method, { entry, table });

  const service: MockService = {
    ids: [...byId.keys()],
    webSockets: routes.webSockets,
    ...(subscriptions ? { subscriptions } : {}),
    async handle(request) {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return undefined;
      }
      const method = request.method.toUpperCase();
      if (method === "POST") {
        const methods = routes.rpc(url.pathname);
        // a table with JSON-RPC methods always brings its side (jsonRpcSide)
        if (methods) return rpcSide!.answer(methods, request, rpc);
      }
      const found = routes.http(method, url.pathname);
      return found ? answerHttp(found.route, request, url, found.groups, overrides, bodies, rpc.serverShapes, options.stream) : undefined;
    },
    override(id, o) {
      if (!byId.has(id)) throw new Error(`avaspec mock: no operation or method "${id}" (known: ${[...byId.keys()].slice(0, 8).join(", ")}, …)`);
      if (o.body !== undefined) unservable(id, o.body);
      overrides.set(id, o);
    },
    reset() {
      overrides.clear();
    },
    sample(id) {
      const found = byId.get(id);
      if (!found) throw new Error(`avaspec mock: no operation or method "${id}"`);
      const { entry, table } = found;
      if (entry.kind === "rpc") return rpcSide!.result(entry, table, {}, rpc);
      return entry.paging ? bodies.page(entry, table, {})?.body : bodies.body(entry, table, "0");
    },
  };
  // `A` is types only: the service checks ids and answers bodies as given at run time
  return service as unknown as MockService<A>;
}

/** The JSON-RPC side the tables hand over; a table with JSON-RPC methods and none (one written by hand) is refused. */
function jsonRpcSide(tables: readonly MockTable[]): MockRpcSide | undefined {
  const side = tables.find((t) => t.rpc)?.rpc;
  const bare = side ? undefined : tables.find((t) => t.entries.some((e) => e.kind === "rpc"));
  if (bare) throw new Error(`avaspec mock: a table has JSON-RPC methods (${bare.entries.find((e): e is MockRpcEntry => e.kind === "rpc")!.method.method}, …) but no \`rpc\` to answer them: give it \`rpc: jsonRpcMocks\` (runtime/mock/rpc.ts)`);
  return side;
}

/**
 * Refuses, when it is set, an override body nested deeper than JSON.stringify
 * can write: no response could carry it. (A bigint in it is fine: the wire
 * form is written when it is served.)
 */
function unservable(id: string, body: unknown): void {
  try {
    JSON.stringify(body, (_, v: unknown) => (typeof v === "bigint" ? 0 : v));
  } catch (error) {
    if (!isStackOverflow(error)) return;
    const issue = overflowIssue(error, "", "served");
    throw new ValidationError(`avaspec mock: the override body of ${id} at ${issue.path || "/"} ${issue.message}`, { issues: [issue] });
  }
}

async function answerHttp(route: HttpRoute, request: MockRequest, url: URL, groups: string[], overrides: ReadonlyMap<string, MockOverride>, bodies: MockBodies, serverShapes: boolean, stream: MockServiceOptions["stream"]): Promise<MockResponse> {
  const { entry, table } = route;
  const id = entry.op.id;
  const o = overrides.get(id);
  if (await steer(o)) return dropped(id);
  const params = readParams(entry, request, url, route.names, groups);
  if (params instanceof Error) return json(400, errorBody(400, [params.message]), id);
  // through run: a request nested too deep to check fails with an issue saying so (depth.ts)
  const checked = entry.op.check ? run(entry.op.check, params) : undefined;
  if (checked && !checked.ok) return json(400, errorBody(400, checked.issues.map((i) => `${i.path.slice(1).replace(/\//g, ".") || "params"} ${i.message}`)), id);
  if (o?.status !== undefined && o.status >= 400 && o.body === undefined) return json(o.status, errorBody(o.status, REASONS[o.status] ?? "Error"), id, o.headers);
  let value: unknown;
  let headers: Record<string, string> | undefined = o?.headers;
  try {
    // an override's 2XX body may hold bigints and numbers for string-encoded integers: served in the wire form
    if (o?.body !== undefined) value = o.status === undefined || (o.status >= 200 && o.status <= 299) ? wireBody(entry.op.resultIntegers, o.body, id) : o.body;
    else if (entry.paging) {
      // the next page's URL points where the client called: the base it called, then the path and query below it
      const page = bodies.page(entry, table, params, (request.base ?? url.origin) + url.pathname + url.search);
      // page() answers undefined for a token this service did not issue
      if (page === undefined) return json(400, errorBody(400, [`${pageParam(entry)} is not a page this service serves: a page token it did not issue (or one that expired), or a page before the first`]), id);
      value = page.body;
      headers = { ...page.headers, ...headers };
    } else value = bodies.body(entry, table, "0");
    // values servers send in another form than documented (x-avaspec-wire-form) go in that form when asked; overrides as given
    if (serverShapes && o?.body === undefined && entry.op.resultForms) value = serverForm(entry.op.resultForms.walk, value);
  } catch (e) {
    return json(500, errorBody(500, [e instanceof Error ? e.message : String(e)]), id);
  }
  const status = o?.status ?? entry.status;
  if (entry.op.response === "none" || value === undefined) return { status, headers: { ...headers }, body: "", handled: id };
  if (streamOf(entry) && status >= 200 && status <= 299) {
    const lastEventId = Object.entries(request.headers).find(([k]) => k.toLowerCase() === "last-event-id")?.[1];
    return streamedAnswer({ entry, table, bodies, first: value, status, headers, lastEventId, items: stream?.items ?? STREAM_ITEMS, intervalMs: stream?.intervalMs ?? STREAM_INTERVAL_MS });
  }
  if (entry.op.response === "text") return { status, headers: { "content-type": entry.op.accept ?? "text/plain", ...headers }, body: typeof value === "string" ? value : JSON.stringify(value), handled: id }; // a text's schema may describe its content (events, a count): that content as JSON
  return json(status, value, id, headers);
}

/** The parameter that names the page a request asks for, for errors. */
function pageParam(entry: MockHttpEntry): string {
  const p = entry.paging!;
  return (p.cursors?.map((c) => c.param.join(".")) ?? [p.param!.join(".")]).join(" or ");
}

/** The params object of an HTTP request, as the client would have passed it; strings read as the param's type. */
function readParams(entry: MockHttpEntry, request: MockRequest, url: URL, names: string[], groups: string[]): Record<string, unknown> | Error {
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => setOwn(out, k, v);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v;
  for (const p of entry.op.params) {
    const type = entry.types[p.name] ?? "string";
    let raw: string | string[] | undefined;
    if (p.in === "path") {
      const i = names.indexOf(p.name);
      try {
        // an array travels in the simple style, its items comma-separated, each percent-encoded
        raw = i < 0 ? undefined : type === "array" ? groups[i]!.split(",").map(decodeURIComponent) : decodeURIComponent(groups[i]!);
      } catch {
        return new Error(`${p.name} is not valid percent-encoding`);
      }
    } else if (p.in === "querystring" || (p.in === "query" && p.content === "json")) {
      const value = readContentParam(p, url, entry.types);
      if (value instanceof Error) return value;
      if (value !== undefined) set(p.name, value);
      continue;
    } else if (p.in === "query") {
      const all = url.searchParams.getAll(p.name);
      raw = type === "array" ? (all.length === 1 && p.explode === false ? all[0]!.split(",") : all) : all[0];
      if (type === "array" && all.length === 0) raw = undefined;
    } else if (p.in === "header") raw = headers[p.name.toLowerCase()];
    if (raw !== undefined) set(p.name, Array.isArray(raw) ? raw.map((r) => coerce(r, entry.types[`${p.name}[]`] ?? "string")) : coerce(raw, type));
  }
  if (entry.op.body && request.body !== undefined && request.body !== "") {
    try {
      set("body", entry.op.body.contentType.includes("json") ? JSON.parse(request.body) : request.body);
    } catch {
      return new Error("body is not valid JSON");
    }
  }
  return out;
}

/** A query parameter given by `content: application/json`, or OpenAPI 3.2's querystring (the whole query: form fields, JSON or text). */
function readContentParam(p: ParamSpec, url: URL, types: Readonly<Record<string, string>>): unknown {
  if (p.in === "querystring" && p.content === "form") {
    if (url.search.length <= 1) return undefined;
    const out: Record<string, unknown> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      const type = types[`${p.name}.${key}`] ?? "string";
      setOwn(out, key, type === "array" ? all.map((r) => coerce(r, types[`${p.name}.${key}[]`] ?? "string")) : coerce(all[0]!, type));
    }
    return out;
  }
  const raw = p.in === "querystring" ? (url.search.length <= 1 ? undefined : url.search.slice(1)) : url.searchParams.get(p.name) ?? undefined;
  if (raw === undefined) return undefined;
  try {
    // searchParams has decoded a query parameter already
    const text = p.in === "querystring" ? decodeURIComponent(raw) : raw;
    return p.content === "json" ? JSON.parse(text) : text;
  } catch {
    return new Error(`${p.in === "querystring" ? "the query string" : p.name} is not ${p.content === "json" ? "JSON" : "valid percent-encoding"}`);
  }
}

function coerce(raw: string, type: string): unknown {
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw)) return Number(raw);
  if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}
