/**
 * The generated mocks: every body valid (generated validator and Ajv from the
 * spec documents), deterministic per seed, paging, steering, the clients'
 * call suites through MSW's setupServer and through the standalone server.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import Ajv from "ajv";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError, NetworkError, RpcError, ValidationError } from "@avaspec/client";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { createNodeClient } from "@avaspec/client/node";
import { createMocks, createMockService, mockTables, type MockService } from "@avaspec/client/mocks";
import { startMockServer, type RunningMockServer } from "@avaspec/client/mock-server";
import { rng, synthesize, type MockHttpEntry, type MockRpcEntry, type MockTable } from "../../generated/src/runtime/mock/mock.js";
import type { ValidationIssue } from "../../generated/src/runtime/errors/errors.js";
import { escapeToken } from "../../generator/load/pointer.js";
import { clientMethod, methodCases, nodeSpecs, resolveRef } from "../helpers/node-specs.js";
import { loadSpec, operations } from "../helpers/spec.js";

const data = loadSpec("data-api.openapi.json");
const metrics = loadSpec("metrics-api.openapi.json");
const tables = Object.values(mockTables) as MockTable[];
const entries = tables.flatMap((t) => t.entries);
const idOf = (e: MockHttpEntry | MockRpcEntry) => (e.kind === "http" ? e.op.id : e.method.method);

// ---------------------------------------------------------------- Ajv from the spec documents themselves

const healthDoc = JSON.parse(readFileSync(new URL("../../generated/spec/node-health.openapi.json", import.meta.url), "utf8"));
const ajv2020 = new Ajv2020({ strict: false, validateFormats: false });
ajv2020.addSchema({ ...data, $id: "data" }, "data").addSchema({ ...metrics, $id: "metrics" }, "metrics").addSchema({ ...healthDoc, $id: "health" }, "health");
const ajv7 = new Ajv.default({ strict: false, validateFormats: false });
const rpcSchema = new Map<string, (v: unknown) => boolean>();
for (const spec of nodeSpecs()) {
  if (!spec.doc.openrpc) continue;
  const id = `rpc:${spec.file}`;
  ajv7.addSchema({ $id: id, components: spec.doc.components ?? {} }, id);
  for (const raw of spec.doc.methods) {
    const m = resolveRef(spec.doc, raw);
    const result = resolveRef(spec.doc, m.result);
    if (!result?.schema) continue;
    const schema = JSON.parse(JSON.stringify(result.schema).replace(/"#\/components\//g, `"${id}#/components/`));
    rpcSchema.set(m.name, ajv7.compile(schema));
  }
}
function ajvFor(e: MockHttpEntry | MockRpcEntry): ((v: unknown) => boolean) | undefined {
  if (e.kind === "rpc") return rpcSchema.get(e.method.method);
  for (const [doc, key] of [[data, "data"], [metrics, "metrics"], [healthDoc, "health"]] as const) {
    const found = operations(doc as typeof data).find((o) => o.id === e.op.id);
    if (!found) continue;
    const pointer = `/paths/${escapeToken(found.path)}/${found.method}/responses/${e.status}/content/application~1json/schema`;
    return ajv2020.getSchema(`${key}#${pointer}`) as (v: unknown) => boolean;
  }
  return undefined;
}

describe("mock bodies", () => {
  it("cover every Data, Metrics and node operation and method", () => {
    expect(entries.filter((e) => e.kind === "http").map(idOf).sort()).toEqual(
      [...operations(data), ...operations(metrics), ...operations(healthDoc)].map((o) => o.id).sort(),
    );
    expect(entries.filter((e) => e.kind === "rpc")).toHaveLength(methodCases().length);
  });

  // examples first (the default), then pure synthesis under several seeds
  const modes = [{ examples: true, seed: 1 }, ...[1, 2, 3, 42, 20261122].map((seed) => ({ examples: false, seed }))];
  let cases = 0;
  it.each(modes)("validate with the generated validator and with Ajv from the spec (examples $examples, seed $seed)", ({ examples, seed }) => {
    const service = createMockService(tables, { examples, seed });
    for (const table of tables) for (const e of table.entries) {
      const body = service.sample(idOf(e));
      const check = table.results?.get(e.kind === "http" ? e.op : e.method);
      if (!check) continue;
      const issues: ValidationIssue[] = [];
      expect(check(body, "", issues), `${idOf(e)}: ${JSON.stringify(issues)}`).toBe(true);
      const oracle = ajvFor(e);
      expect(oracle, `${idOf(e)} has an Ajv schema`).toBeDefined();
      expect(oracle!(body), `${idOf(e)} (Ajv): ${JSON.stringify((oracle as { errors?: unknown }).errors)}`).toBe(true);
      cases++;
    }
  });
  afterAll(() => {
    // 152 operations and methods with a body schema × 6 modes
    expect(cases).toBeGreaterThanOrEqual(6 * 140);
  });

  it("synthesizes every named schema of every module so that its own isX accepts it (3 seeds)", async () => {
    const modules: [MockTable, Record<string, unknown>][] = [
      [mockTables.dataApi, await import("@avaspec/client/data-api")],
      [mockTables.metricsApi, await import("@avaspec/client/metrics-api")],
      [mockTables.node, await import("@avaspec/client/node")],
    ];
    let checked = 0;
    for (const [table, mod] of modules) {
      for (const name of Object.keys(table.defs)) {
        const guard = mod[`is${name}`] as ((v: unknown) => boolean) | undefined;
        if (!guard) continue;
        for (const seed of [1, 2, 3]) {
          const value = synthesize({ $ref: name }, table.defs, rng(seed));
          expect(guard(value), `${name} (seed ${seed}): ${JSON.stringify(value).slice(0, 300)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3 * 150);
  });

  it("are the same bytes for the same seed and differ for another", () => {
    const a = createMockService(tables, { examples: false, seed: 7 });
    const b = createMockService(tables, { examples: false, seed: 7 });
    const c = createMockService(tables, { examples: false, seed: 8 });
    let differ = 0;
    for (const e of entries) {
      const id = idOf(e);
      expect(JSON.stringify(a.sample(id))).toBe(JSON.stringify(b.sample(id)));
      if (JSON.stringify(a.sample(id)) !== JSON.stringify(c.sample(id))) differ++;
    }
    expect(differ).toBeGreaterThan(entries.length * 0.8);
  });
});

// ---------------------------------------------------------------- the clients' call suites

/** Params for a Data/Metrics operation from the spec's parameter and body examples. */
function exampleParams(doc: typeof data, op: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const raw of op.parameters ?? []) {
    const p = resolveRef(doc, raw);
    const v = p.example ?? p.schema?.example ?? (Object.values(p.examples ?? {})[0] as { value?: unknown } | undefined)?.value;
    // the spec's example page tokens (pageToken, and getAvgTps's startKey) were never issued by the mock, which rejects them as the service would
    if (v !== undefined && p.name !== "pageToken" && p.name !== "startKey") out[p.name] = v;
  }
  const media = op.requestBody?.content?.["application/json"];
  if (media) out["body"] = media.example ?? (Object.values(media.examples ?? {})[0] as { value?: unknown }).value;
  return out;
}

type Client = Record<string, any>;
/** The client method of an operation: its operationId, camel-cased where it has hyphens (`data-health-check` → `dataHealthCheck`). */
const methodName = (id: string) => id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
/** Whether the operation's success response has a body (reindexNft's 201 has none). */
const hasBody = (op: any) => Object.entries(op.responses ?? {}).some(([s, r]: [string, any]) => /^2/.test(s) && r.content);
function httpCalls(doc: typeof data, client: Client) {
  return operations(doc).map((o) => ({ id: o.id, hasBody: hasBody(o.op), call: () => client[methodName(o.id)]!(exampleParams(doc, o.op)) as Promise<unknown> }));
}
function nodeCalls(node: Client) {
  return methodCases().map((c) => ({
    id: c.wire,
    call: () => {
      const fn = clientMethod(node, c);
      return c.args === undefined ? fn() : fn(c.args);
    },
  }));
}

function suites(baseUrls: () => { data: string; metrics: string; node: string }) {
  const warned: string[] = [];
  const clients = () => {
    const u = baseUrls();
    return {
      data: createDataApiClient({ baseUrl: u.data, validateResponse: "strict" }),
      // getAvgTps is deprecated; its warning is checked in fidelity-metrics.test.ts
      metrics: createMetricsApiClient({ baseUrl: u.metrics, validateResponse: "strict", deprecationWarnings: false }),
      // deprecated and removed methods warn on first call: captured, and checked below
      node: createNodeClient({ baseUrl: u.node, validateResponse: "strict", deprecationWarnings: (m) => warned.push(m) }),
    };
  };
  it("answers every Data and Metrics operation with a body the client validates strictly", async () => {
    const c = clients();
    const calls = [...httpCalls(data, c.data), ...httpCalls(metrics, c.metrics)];
    // the 81 operations of the Data API's current document and the 16 of the Metrics API's, plus the Metrics requirement's two routes
    expect(calls).toHaveLength(81 + 16 + 2);
    for (const { id, call, hasBody } of calls) {
      if (hasBody) await expect(call(), id).resolves.toBeDefined();
      else await expect(call(), id).resolves.toBeUndefined();
    }
  });
  it("answers every node JSON-RPC method and health endpoint", async () => {
    const c = clients();
    const calls = nodeCalls(c.node);
    // 203 methods of the primary network's endpoints and 66 of a Subnet-EVM L1's, called at the spec's example blockchain ID
    expect(calls.length).toBe(269);
    for (const { id, call } of calls) {
      const result = await call().catch((e: unknown) => e);
      expect(result instanceof Error ? `${id}: ${(result as Error).message}` : "ok").toBe("ok");
    }
    expect(warned).toContain("platform.getBalance is deprecated");
    expect(warned.some((w) => w.startsWith("eth_accounts is removed in Helicon"))).toBe(true);
    for (const id of ["getHealth", "getHealthCheck", "getReadiness", "getLiveness"]) {
      const fn = (c.node.http as Record<string, (() => Promise<unknown>) | undefined>)[id];
      if (fn) await expect(fn(), id).resolves.toBeDefined();
    }
  });
}

describe("through MSW setupServer", () => {
  const mocks = createMocks({ seed: 3 });
  const server = setupServer(...mocks.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => mocks.reset());
  afterAll(() => server.close());
  suites(() => ({ data: "https://glacier-api.avax.network", metrics: "https://metrics.avax.network", node: "https://api.avax.network" }));

  const data = createDataApiClient({ validateResponse: "strict", retry: false });
  const node = createNodeClient();

  it("pages: pageSize items per page, nextPageToken chained across pages, none on the last", async () => {
    const seen: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await data.listErc20Transactions({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", pageSize: 7, ...(token ? { pageToken: token } : {}) });
      seen.push(page.transactions.length);
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 10);
    expect(seen).toEqual([7, 7, 7]);
    expect(token).toBeUndefined();
    await expect(data.listErc20Transactions({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", pageToken: "made-up" })).rejects.toMatchObject({ statusCode: 400 });
  });

  it("rejects invalid params with 400 and the API's error body", async () => {
    const res = await fetch("https://glacier-api.avax.network/v1/chains/43114/addresses/0x71C7656EC7ab88b098defB751B7401B5f6d8976F/transactions:listErc20?pageSize=500");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string[]; statusCode: number; error: string };
    expect(body).toMatchObject({ statusCode: 400, error: "Bad Request" });
    expect(body.message.join(" ")).toMatch(/pageSize/);
  });

  it("is steered per test: status, body, JSON-RPC error, network error; reset between tests", async () => {
    mocks.override("getChainInfo", { status: 503 });
    await expect(data.getChainInfo({ chainId: "43114" })).rejects.toSatisfy((e) => e instanceof ApiError && e.statusCode === 503);
    mocks.override("getChainInfo", { status: 404 });
    await expect(data.getChainInfo({ chainId: "43114" })).rejects.toMatchObject({ statusCode: 404, error: "Not Found" });
    mocks.override("getChainInfo", { networkError: true });
    await expect(data.getChainInfo({ chainId: "43114" })).rejects.toBeInstanceOf(NetworkError);
    // a body the operation does not answer compiles only through the untyped service (test/mocks/override-types.test.ts)
    (mocks as MockService).override("getChainInfo", { body: { chainId: 5 } });
    await expect(data.getChainInfo({ chainId: "43114" })).rejects.toBeInstanceOf(ValidationError);
    mocks.override("getChainInfo", { delay: 30, headers: { "x-mock": "yes" } });
    const started = Date.now();
    await expect(data.getChainInfo({ chainId: "43114" })).resolves.toMatchObject({ chainId: "43114" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    mocks.override("info.getNodeVersion", { rpcError: { code: -32000, message: "node is bootstrapping" } });
    await expect(node.info.getNodeVersion()).rejects.toSatisfy((e) => e instanceof RpcError && e.code === -32000);
    mocks.reset();
    await expect(data.getChainInfo({ chainId: "43114" })).resolves.toMatchObject({ chainId: "43114" });
    expect(() => (mocks as MockService).override("noSuchOperation", { status: 500 })).toThrow(/noSuchOperation/);
  });

  it("steers nothing left over from the previous test", async () => {
    await expect(node.info.getNodeVersion()).resolves.toBeDefined();
  });
});

describe("JSON-RPC conformance", () => {
  const service = createMockService(tables);
  const post = async (body: string) => {
    const r = await service.handle({ method: "POST", url: "http://x/ext/info", headers: { "content-type": "application/json" }, body });
    return { status: r!.status, body: r!.body === "" ? undefined : JSON.parse(r!.body) };
  };
  it("parse error -32700 with id null", async () => expect((await post("{not json")).body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
  it("invalid request -32600", async () => {
    expect((await post(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "info.getNodeVersion" }))).body).toMatchObject({ id: 1, error: { code: -32600 } });
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: {}, method: "info.getNodeVersion" }))).body).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await post("1")).body).toMatchObject({ id: null, error: { code: -32600 } });
  });
  it("empty batch is one -32600 error", async () => expect((await post("[]")).body).toMatchObject({ id: null, error: { code: -32600 } }));
  it("a batch of notifications gets no reply", async () => {
    const r = await post(JSON.stringify([{ jsonrpc: "2.0", method: "info.getNodeVersion" }, { jsonrpc: "2.0", method: "info.getNetworkID" }]));
    expect(r).toEqual({ status: 204, body: undefined });
  });
  it("a mixed batch answers each call in order, skipping notifications", async () => {
    const r = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "info.getNodeVersion" },
        { jsonrpc: "2.0", method: "info.getNodeVersion" },
        { jsonrpc: "2.0", id: "b", method: "info.nope" },
        { jsonrpc: "2.0", id: 3, method: "info.isBootstrapped", params: { chain: 5 } },
        7,
      ]),
    );
    expect(r.body).toHaveLength(4);
    expect(r.body[0]).toMatchObject({ id: 1, result: expect.anything() });
    expect(r.body[1]).toMatchObject({ id: "b", error: { code: -32601 } });
    expect(r.body[2]).toMatchObject({ id: 3, error: { code: -32602, data: [expect.objectContaining({ path: "/chain" })] } });
    expect(r.body[3]).toMatchObject({ id: null, error: { code: -32600 } });
  });
  it("unknown method -32601 and invalid params -32602", async () => {
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "eth_chainId" }))).body).toMatchObject({ id: 9, error: { code: -32601 } });
    expect((await post(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "info.isBootstrapped", params: {} }))).body).toMatchObject({ id: 9, error: { code: -32602 } });
  });
});

describe("the standalone mock server over real HTTP", () => {
  let server: RunningMockServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startMockServer({ port: 0, seed: 5, log: (l) => lines.push(l) });
  });
  afterAll(() => server.close());
  suites(() => ({ data: server.url, metrics: server.url, node: server.url }));

  it("answers CORS preflights and sets CORS headers, logs one line per request", async () => {
    const pre = await fetch(`${server.url}/v1/chains`, { method: "OPTIONS", headers: { origin: "http://app.test", "access-control-request-method": "GET" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const res = await fetch(`${server.url}/v1/chains/43114`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(lines.at(-1)).toMatch(/^GET \/v1\/chains\/43114 → 200 \(getChainInfo\) \d+ms$/);
    expect((await fetch(`${server.url}/nothing/here`)).status).toBe(404);
  });
});
