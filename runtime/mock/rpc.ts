/**
 * The JSON-RPC side of a mock service: a POST to an endpoint is answered as
 * JSON-RPC 2.0 says (-32700 parse error, -32600 invalid request and empty
 * batch, -32601 unknown method, -32602 params the generated check rejects,
 * batches, no reply to notifications), and a call's result is, in order:
 * the override's, the result of the spec's example whose params are the
 * call's, or one synthesized from the result schema, seeded by the call's
 * params (so the same call always gets the same result) and checked like
 * every mock body. An example answers only its own params, as with
 * @open-rpc/mock-server: `sum(1, 2)` does not get the `7` of `sum(3, 4)`.
 *
 * The service does not import this file: a table with JSON-RPC methods hands
 * it over (`rpc: jsonRpcMocks`), so a package of HTTP APIs ships without it.
 */
import { wireBody } from "./bodies.js";
import type { MockRequest, MockResponse, MockRpcContext, MockRpcEntry, MockRpcMethod, MockRpcSide, MockTable } from "./types.js";
import type { RpcMethods } from "./routes.js";
import { equal, hasOwn, run, setOwn } from "../values/validate.js";
import { jsonText } from "../errors/errors.js";
import { serverForm } from "../values/wire-forms.js";

export function rpcError(id: unknown, code: number, message: string, data?: unknown): unknown {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * The result a call with these (named) params gets when no override steers
 * it: the result of the example with these params, else one synthesized
 * from the schema with the params as its salt. A table without pairings
 * (made by hand) answers every call with its one example.
 */
export function rpcResult(entry: MockRpcEntry, table: MockTable, named: Record<string, unknown>, ctx: Pick<MockRpcContext, "synthesized" | "examples">): unknown {
  if (ctx.examples) {
    const pair = entry.pairs?.find((p) => equal(p.params, named));
    if (pair) return structuredClone(pair.result);
    if (entry.pairs === undefined && entry.example !== undefined) return structuredClone(entry.example);
  }
  // synthesizing everything (no examples): an example still stands in for a schema no attempt could satisfy, as for HTTP bodies
  const fallback = ctx.examples ? undefined : (entry.pairs?.[0]?.result ?? entry.example);
  return ctx.synthesized(entry, table, `params:${jsonText(named)}`, fallback);
}

/** Answers a POST to a JSON-RPC endpoint: one call or a batch. */
export async function answerRpc(methods: RpcMethods, request: MockRequest, ctx: MockRpcContext): Promise<MockResponse> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body ?? "");
  } catch {
    return ctx.json(200, rpcError(null, -32700, "Parse error"), "parse-error");
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return ctx.json(200, rpcError(null, -32600, "Invalid Request: empty batch"), "batch");
    const out: unknown[] = [];
    const handled: string[] = [];
    for (const call of parsed) {
      const r = await one(methods, call, ctx);
      if (r.network) return ctx.dropped(r.handled);
      handled.push(r.handled);
      if (r.reply !== undefined) out.push(r.reply);
    }
    // a batch of notifications gets no reply at all
    return out.length === 0 ? { status: 204, headers: {}, body: "", handled: handled.join(",") } : ctx.json(200, out, handled.join(","));
  }
  const r = await one(methods, parsed, ctx);
  if (r.network) return ctx.dropped(r.handled);
  return r.reply === undefined ? { status: 204, headers: {}, body: "", handled: r.handled } : ctx.json(r.status ?? 200, r.reply, r.handled, r.headers);
}

async function one(methods: RpcMethods, call: unknown, ctx: MockRpcContext): Promise<{ reply?: unknown; handled: string; network?: boolean; status?: number; headers?: Record<string, string> }> {
  if (typeof call !== "object" || call === null || Array.isArray(call)) return { reply: rpcError(null, -32600, "Invalid Request"), handled: "invalid" };
  const c = call as Record<string, unknown>;
  const idOk = !hasOwn(c, "id") || c["id"] === null || typeof c["id"] === "string" || (typeof c["id"] === "number" && Number.isFinite(c["id"]));
  const params = c["params"];
  if (c["jsonrpc"] !== "2.0" || typeof c["method"] !== "string" || !idOk || (params !== undefined && (typeof params !== "object" || params === null))) {
    return { reply: rpcError(idOk && hasOwn(c, "id") ? c["id"] : null, -32600, "Invalid Request"), handled: "invalid" };
  }
  const notification = !hasOwn(c, "id");
  const id = notification ? null : c["id"];
  const name = c["method"];
  const found = methods.get(name);
  if (!found) return { reply: notification ? undefined : rpcError(id, -32601, `Method not found: ${name}`), handled: name };
  const { entry, table } = found;
  const o = ctx.overrides.get(name);
  if (await ctx.steer(o)) return { handled: name, network: true };
  const named = namedParams(entry.method, params);
  if (named instanceof Error) return { reply: notification ? undefined : rpcError(id, -32602, `Invalid params: ${named.message}`), handled: name };
  // through run: params nested too deep to check fail with an issue saying so (depth.ts)
  const checked = entry.method.check ? run(entry.method.check, named) : undefined;
  if (checked && !checked.ok) {
    return { reply: notification ? undefined : rpcError(id, -32602, "Invalid params", checked.issues.map((i) => ({ path: i.path, message: i.message }))), handled: name };
  }
  if (notification) return { handled: name };
  // an override's status and headers apply to the HTTP response of a single call
  const http = { ...(o?.status ? { status: o.status } : {}), ...(o?.headers ? { headers: o.headers } : {}) };
  if (o?.rpcError) return { reply: rpcError(id, o.rpcError.code, o.rpcError.message, o.rpcError.data), handled: name, ...http };
  const chained = o?.body === undefined ? ctx.chain?.(entry.method.endpoint, name, params) : undefined;
  if (chained) return { reply: "error" in chained ? rpcError(id, chained.error.code, chained.error.message) : { jsonrpc: "2.0", id, result: chained.result }, handled: name, ...http };
  let result: unknown;
  try {
    result = o?.body !== undefined ? wireBody(entry.method.resultIntegers, o.body, name) : rpcResult(entry, table, named, ctx);
    if (o?.body === undefined && ctx.serverShapes && entry.method.resultForms) result = serverForm(entry.method.resultForms.walk, result);
    if (o?.body === undefined && ctx.serverShapes && entry.method.wrappedIn !== undefined) result = { [entry.method.wrappedIn]: result };
  } catch (e) {
    // this call alone fails, as JSON-RPC says: the other calls of a batch keep their replies
    return { reply: rpcError(id, -32603, "Internal error", { reason: `the mock cannot make a result for ${name}: ${e instanceof Error ? e.message : String(e)}` }), handled: name };
  }
  return { reply: { jsonrpc: "2.0", id, result }, handled: name, ...http };
}

/** JSON-RPC params in the named form the generated params check takes. */
export function namedParams(m: MockRpcMethod, params: unknown): Record<string, unknown> | Error {
  if (params === undefined) return {};
  if (m.form === "one-object") {
    if (!Array.isArray(params)) return new Error("params must be an array holding one object");
    if (params.length === 0) return {};
    if (params.length > 1 || typeof params[0] !== "object" || params[0] === null || Array.isArray(params[0])) return new Error("params must be an array holding one object");
    return params[0] as Record<string, unknown>;
  }
  if (Array.isArray(params)) {
    if (params.length > m.params.length) return new Error(`at most ${m.params.length} params`);
    const out: Record<string, unknown> = {};
    params.forEach((v, i) => {
      if (v !== null) setOwn(out, m.params[i]!.name, v);
    });
    return out;
  }
  if (m.form === "by-position") return new Error("params must be an array");
  return params as Record<string, unknown>;
}

/** What a table with JSON-RPC methods hands the mock service (MockTable.rpc). */
export const jsonRpcMocks: MockRpcSide = { answer: answerRpc, result: rpcResult };
