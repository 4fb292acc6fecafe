#!/usr/bin/env node
/**
 * Smoke test of the BUILT @avaspec/client (generated/dist), run by
 * run.mjs under each Node version of the matrix; it can also run alone:
 *
 *   npm run build && node test/node-matrix/smoke.mjs [--results out.json]
 *
 * Imports the package by its name (the root workspace links
 * node_modules/@avaspec/client → generated, whose exports point at dist/),
 * then, with traffic to 127.0.0.1 only:
 *  - a real node:http server answering a Data API route and a JSON-RPC
 *    endpoint, called through createDataApiClient / createNodeClient with
 *    validateResponse "strict" (good bodies, bad bodies, an RPC error, a batch,
 *    a timeout and a caller's abort);
 *  - the package's own mock server (startMockServer, port 0);
 *  - the package's MSW handlers (createMocks) under msw's setupServer, at base
 *    URLs on the local server, so a request MSW failed to intercept reaches it
 *    (and fails the check) instead of leaving the machine.
 * Prints one line per check; exits 1 if any failed.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const resultsArg = process.argv.indexOf("--results");
const resultsFile = resultsArg > 0 ? process.argv[resultsArg + 1] : undefined;
const results = [];

// The whole smoke test must settle within a minute, whatever hangs.
const watchdog = setTimeout(() => {
  console.error("smoke: still running after 60 s; giving up");
  finish(true);
}, 60_000);
watchdog.unref();

async function check(name, fn) {
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - started });
    console.log(`ok     ${name}`);
  } catch (error) {
    results.push({ name, ok: false, ms: Date.now() - started, error: String(error?.stack ?? error) });
    console.log(`FAILED ${name}\n       ${String(error?.stack ?? error).split("\n").slice(0, 8).join("\n       ")}`);
  }
}

function finish(timedOut = false) {
  const failed = results.filter((r) => !r.ok).length + (timedOut ? 1 : 0);
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify({ node: process.version, passed: results.length - results.filter((r) => !r.ok).length, failed, timedOut, results }, null, 2));
  process.exit(failed > 0 ? 1 : 0);
}

/** Rejects unless `promise` rejects with an instance of `Class`; returns the error. */
async function rejectsWith(promise, Class) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Class, `expected ${Class.name}, got ${error?.name}: ${error?.message}`);
    return error;
  }
  assert.fail(`expected ${Class.name}, but the call resolved`);
}

// ---------------------------------------------------------------- fixtures

const CHAIN = {
  chainId: "43114",
  status: "OK",
  chainName: "Avalanche (C-Chain)",
  description: "The Contract Chain on Avalanche's primary network.",
  vmName: "EVM",
  rpcUrl: "http://127.0.0.1/ext/bc/C/rpc",
  isTestnet: false,
  networkToken: { name: "Avalanche", symbol: "AVAX", decimals: 18 },
};
const NODE_VERSION = { version: "avalanchego/1.13.0", databaseVersion: "v1.4.5", rpcProtocolVersion: "39", gitCommit: "8dfdbe7a3a8f6a8f0b8c7c1ac77e0d9b2a6c1e3f", vmVersions: { avm: "v1.13.0" } };

// ---------------------------------------------------------------- a real server

/** What the local server saw: one entry per request. */
const seen = [];

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

function rpcReply(call) {
  const ok = (result) => ({ jsonrpc: "2.0", id: call.id, result });
  switch (call.method) {
    case "info.getNetworkID":
      return ok({ networkID: "1" });
    case "info.getNodeVersion":
      return ok(NODE_VERSION);
    case "info.getNodeID":
      // wrong on purpose: strict validation must refuse it
      return ok({ nodeID: 42 });
    default:
      return { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } };
  }
}

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  seen.push({ method: req.method, path: url.pathname, search: url.search, headers: req.headers, body });
  const json = (status, value) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };
  if (req.method === "GET" && url.pathname === "/v1/chains/43114") return json(200, CHAIN);
  // the same route, a body that breaks the spec (isTestnet must be a boolean)
  if (req.method === "GET" && url.pathname === "/v1/chains/99999") return json(200, { ...CHAIN, chainId: "99999", isTestnet: "no" });
  if (req.method === "GET" && url.pathname === "/v1/chains/404") return json(404, { message: "chain not found", statusCode: 404, error: "Not Found" });
  if (req.method === "GET" && url.pathname === "/v1/chains/1") {
    // answers too late: the client's timeout or the caller's abort must end the call
    const timer = setTimeout(() => json(200, { ...CHAIN, chainId: "1" }), 5_000);
    res.on("close", () => clearTimeout(timer));
    return;
  }
  if (req.method === "POST" && url.pathname === "/ext/info") {
    const envelope = JSON.parse(body);
    return json(200, Array.isArray(envelope) ? envelope.map(rpcReply) : rpcReply(envelope));
  }
  // anything else
  json(418, { message: `the local smoke server does not answer ${req.method} ${url.pathname}`, statusCode: 418, error: "Not Intercepted" });
});
const sockets = new Set();
server.on("connection", (s) => {
  sockets.add(s);
  s.on("close", () => sockets.delete(s));
});

// ---------------------------------------------------------------- checks

console.log(`smoke test of the built @avaspec/client on node ${process.version}`);

const client = await import("@avaspec/client");
const { createDataApiClient } = await import("@avaspec/client/data-api");
const { createNodeClient } = await import("@avaspec/client/node");
const { startMockServer } = await import("@avaspec/client/mock-server");
const { createMocks } = await import("@avaspec/client/mocks");
const { setupServer } = await import("msw/node");
const { ValidationError, NotFoundError, RpcError, TimeoutError, AbortError, NetworkError, AvaspecError } = client;

await check("the package resolves by name to the built generated/dist", () => {
  for (const sub of ["", "/data-api", "/node", "/mocks", "/mock-server"]) {
    const path = fileURLToPath(import.meta.resolve(`@avaspec/client${sub}`));
    assert.match(path, /[\\/]generated[\\/]dist[\\/].*\.js$/, `@avaspec/client${sub} resolved to ${path}`);
  }
  assert.equal(typeof createDataApiClient, "function");
  assert.equal(typeof createNodeClient, "function");
  assert.ok(new ValidationError("x", { issues: [] }) instanceof AvaspecError);
});

await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(0, "127.0.0.1", resolve);
});
const base = `http://127.0.0.1:${server.address().port}`;

try {
  const data = createDataApiClient({ baseUrl: base, apiKey: "smoke-key", validateResponse: "strict", retry: false });
  const node = createNodeClient({ baseUrl: base, validateResponse: "strict", retry: false });

  await check("Data API: getChainInfo over node:http, strict validation passes", async () => {
    const before = seen.length;
    const chain = await data.getChainInfo({ chainId: "43114" });
    assert.deepEqual(chain, CHAIN);
    const req = seen[before];
    assert.equal(req.method, "GET");
    assert.equal(req.path, "/v1/chains/43114");
    // apiKey goes under the real service's header (the Data API document prefers GlacierApiKey); the requirement's is not sent
    assert.equal(req.headers["x-glacier-api-key"], "smoke-key");
    assert.equal(req.headers["x-service-api-key"], undefined);
    assert.equal(req.headers["accept"], "application/json");
  });

  await check("Data API: a body that breaks the spec is a ValidationError (strict)", async () => {
    const error = await rejectsWith(data.getChainInfo({ chainId: "99999" }), ValidationError);
    assert.equal(error.statusCode, 200);
    assert.ok(error.issues.some((i) => i.path === "/isTestnet"), JSON.stringify(error.issues));
    assert.match(error.rawBody, /"isTestnet":"no"/);
  });

  await check("Data API: bad params are a ValidationError before anything is sent", async () => {
    const before = seen.length;
    await rejectsWith(data.getChainInfo({}), ValidationError);
    assert.equal(seen.length, before);
  });

  await check("Data API: a 404 is a NotFoundError with the parsed body", async () => {
    const error = await rejectsWith(data.getChainInfo({ chainId: "404" }), NotFoundError);
    assert.equal(error.statusCode, 404);
    assert.equal(error.body.message, "chain not found");
  });

  await check("Data API: timeoutMs ends a slow call with a TimeoutError", async () => {
    const started = Date.now();
    await rejectsWith(data.getChainInfo({ chainId: "1" }, { timeoutMs: 150 }), TimeoutError);
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  });

  await check("Data API: the caller's AbortSignal ends a slow call with an AbortError", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("smoke abort")), 100);
    const error = await rejectsWith(data.getChainInfo({ chainId: "1" }, { signal: controller.signal }), AbortError);
    assert.equal(error.cause?.message, "smoke abort");
  });

  await check("JSON-RPC: info.getNetworkID over node:http, strict validation passes", async () => {
    const before = seen.length;
    // the node client reads the decimal networkID as a bigint (its number policy)
    assert.deepEqual(await node.info.getNetworkID(), { networkID: 1n });
    const req = seen[before];
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/ext/info");
    assert.equal(req.headers["content-type"], "application/json");
    const envelope = JSON.parse(req.body);
    assert.equal(envelope.jsonrpc, "2.0");
    assert.equal(envelope.method, "info.getNetworkID");
    assert.equal(typeof envelope.id, "number");
  });

  await check("JSON-RPC: a result that breaks the spec is a ValidationError (strict)", async () => {
    const error = await rejectsWith(node.info.getNodeID(), ValidationError);
    assert.ok(error.issues.length > 0);
  });

  await check("JSON-RPC: an error object is an RpcError with its code", async () => {
    const error = await rejectsWith(node.info.acps(), RpcError);
    assert.equal(error.code, -32601);
    assert.equal(error.method, "info.acps");
  });

  await check("JSON-RPC: a batch of two calls is one request, results in order", async () => {
    const before = seen.length;
    const [a, b] = await node.batch((c) => [c.info.getNetworkID(), c.info.getNodeVersion()]);
    assert.deepEqual(a, { ok: true, value: { networkID: 1n } });
    assert.deepEqual(b, { ok: true, value: { ...NODE_VERSION, rpcProtocolVersion: BigInt(NODE_VERSION.rpcProtocolVersion) } });
    assert.equal(seen.length - before, 1);
    assert.equal(JSON.parse(seen[before].body).length, 2);
  });

  await check("mock server: startMockServer on port 0 answers both clients (strict)", async () => {
    const lines = [];
    const mock = await startMockServer({ port: 0, seed: 7, log: (line) => lines.push(line) });
    try {
      assert.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(mock.url.endsWith(":0"), true);
      const chain = await createDataApiClient({ baseUrl: mock.url, validateResponse: "strict", retry: false }).getChainInfo({ chainId: "43114" });
      assert.equal(chain.chainId, "43114");
      const version = await createNodeClient({ baseUrl: mock.url, validateResponse: "strict", retry: false }).info.getNodeVersion();
      assert.match(version.version, /^avalanchego\//);
      const preflight = await fetch(`${mock.url}/v1/chains/43114`, { method: "OPTIONS" });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
      assert.ok(lines.some((l) => /^GET \/v1\/chains\/43114 → 200 \(getChainInfo\)/.test(l)), lines.join("\n"));
      assert.ok(lines.some((l) => /^POST \/ext\/info → 200 \(info\.getNodeVersion\)/.test(l)), lines.join("\n"));
    } finally {
      await mock.close();
    }
  });

  await check("MSW: createMocks handlers under setupServer answer both clients (strict), overrides apply", async () => {
    // Base URLs on the local server, so a request MSW lets through reaches it
    // (and is counted in `seen`) instead of leaving the machine. Origins only:
    // the mock service matches the URL's whole path, so a base URL with a path
    // prefix (`${base}/data`) is matched by the handler but answered by nobody,
    // and MSW passes the request through.
    const baseUrls = { dataApi: base, metricsApi: base, node: base };
    const mocks = createMocks({ seed: 7, baseUrls });
    assert.ok(mocks.handlers.length > 10, `${mocks.handlers.length} handlers`);
    const msw = setupServer(...mocks.handlers);
    msw.listen({ onUnhandledRequest: "error" });
    const before = seen.length;
    try {
      const mdata = createDataApiClient({ baseUrl: baseUrls.dataApi, validateResponse: "strict", retry: false });
      const mnode = createNodeClient({ baseUrl: baseUrls.node, validateResponse: "strict", retry: false });
      const chain = await mdata.getChainInfo({ chainId: "43114" });
      assert.equal(chain.chainId, "43114");
      const version = await mnode.info.getNodeVersion();
      assert.match(version.version, /^avalanchego\//);
      mocks.override("getChainInfo", { status: 404, body: { message: "overridden", statusCode: 404, error: "Not Found" } });
      const notFound = await rejectsWith(mdata.getChainInfo({ chainId: "43114" }), NotFoundError);
      assert.equal(notFound.body.message, "overridden");
      mocks.override("info.getNodeVersion", { rpcError: { code: -32000, message: "overridden" } });
      assert.equal((await rejectsWith(mnode.info.getNodeVersion(), RpcError)).code, -32000);
      mocks.override("getChainInfo", { networkError: true });
      await rejectsWith(mdata.getChainInfo({ chainId: "43114" }), NetworkError);
      mocks.reset();
      assert.equal((await mdata.getChainInfo({ chainId: "43114" })).chainId, "43114");
    } finally {
      msw.close();
    }
    assert.equal(seen.length, before, `MSW let ${seen.length - before} request(s) through to the real server: ${seen.slice(before).map((r) => `${r.method} ${r.path}`).join(", ")}`);
  });
} finally {
  await new Promise((resolve) => {
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
  });
}

finish();
