/**
 * The package README's global sections' examples (errors, retries,
 * pagination, batching, validators, mocks, descriptors), each a whole module:
 * its imports, a client, the calls. Each section picks the input and the
 * operation that show it best, and is left out ("") when no input has what
 * it shows; the values come from ./examples.ts.
 */
import type { PackageConfig } from "../../config.js";
import { followRefs, namedSchema, objectWithProperties } from "../../ir/resolve.js";
import { responseKind, schemasOf } from "../../ir/results.js";
import type { IrHttpOperation, IrSchema } from "../../ir/types.js";
import { howItPages } from "../client/paging.js";
import { identifier, stringLiteral } from "../escape.js";
import { mockKeys } from "../mocks/index.js";
import { callOf, exampleArgs, importLine, inline, memberPath, methodLabel, mockCommandName, sampleOf, shortestOp, type Lookup, type PackageInput } from "./examples.js";

/** The template's keys (it runs in strict mode, so every one is present); "" leaves a section out. */
const KEYS = ["errors", "declaredErrors", "declaredErrorsMethod", "retries", "pagination", "paginationOp", "paginationItems", "batching", "validators", "validatorName", "msw", "mswBaseUrls", "mockServer", "mockCommand", "mockCommandName", "descriptors"] as const;
type Examples = Record<(typeof KEYS)[number], string>;

/** What every section builds its module from: the package's name and the way to import and make an input's client. */
class Writer {
  constructor(readonly pkg: PackageConfig) {}
  sub(i: PackageInput): string {
    return `${this.pkg.name}/${i.output}`;
  }
  factory(i: PackageInput): string {
    return i.ir.names.factory;
  }
  newClient(i: PackageInput, options = ""): string {
    return `const client = ${identifier(this.factory(i))}(${options});`;
  }
  /** The line importing the input's client factory. */
  importFactory(i: PackageInput): string {
    return importLine([this.factory(i)], this.sub(i));
  }
}

const lookupOf = (i: PackageInput): Lookup => (key) => namedSchema(i.ir, key)?.schema;

export function readmeExamples(pkg: PackageConfig, inputs: PackageInput[]): Examples {
  const w = new Writer(pkg);
  const clients = inputs.filter((i) => i.targets.has("client") && i.ir.operations.length > 0);
  const out = Object.fromEntries(KEYS.map((k) => [k, ""])) as Examples;
  const first = clients[0];
  if (first) Object.assign(out, errorsExample(w, first), declaredErrorsExample(w, clients), retriesExample(w, first));
  return Object.assign(out, paginationExample(w, clients), batchingExample(w, clients), validatorsExample(w, inputs), mockExamples(w, inputs), descriptorsExample(w, clients));
}

/** Catching errors: the shortest call of the first client, and the classes its failures come as. */
function errorsExample(w: Writer, first: PackageInput): Partial<Examples> {
  const op = shortestOp(first, first.ir.operations)!;
  const rpc = first.ir.operations.some((o) => o.protocol === "json-rpc");
  const errors = [
    importLine(["ApiError", "AvaspecError", ...(rpc ? ["RpcError"] : [])], w.pkg.name),
    w.importFactory(first),
    "",
    w.newClient(first),
    "try {",
    `  const result = await ${callOf(first.ir, "client", op)};`,
    "  console.log(result);",
    "} catch (error) {",
    "  if (error instanceof ApiError) console.error(error.statusCode, error.error, error.messages, error.body);",
    ...(rpc ? ["  else if (error instanceof RpcError) console.error(error.code, error.message, error.data);"] : []),
    "  else if (error instanceof AvaspecError) console.error(error.name, error.message); // network, timeout, abort, invalid params…",
    "  else throw error;",
    "}",
  ].join("\n");
  return { errors };
}

/** Declared JSON-RPC errors: the shortest call of a method that declares one, catching its own classes first. */
function declaredErrorsExample(w: Writer, clients: PackageInput[]): Partial<Examples> {
  for (const i of clients) {
    const op = shortestOp(i, i.ir.operations.filter((o) => o.protocol === "json-rpc" && o.errors.length > 0));
    if (!op || op.protocol !== "json-rpc") continue;
    const declared = [...new Map(op.errors.map((e) => [e.className, e])).values()].slice(0, 2);
    const declaredErrors = [
      importLine(["RpcError", "RpcServerError"], w.pkg.name),
      importLine([w.factory(i), ...declared.map((e) => e.className)], w.sub(i)),
      "",
      w.newClient(i),
      "try {",
      `  await ${callOf(i.ir, "client", op)};`,
      "} catch (error) {",
      ...declared.map((e, k) => `  ${k === 0 ? "if" : "else if"} (error instanceof ${identifier(e.className)}) console.error(${identifier(e.className)}.code, error.rpcMessage, error.data);`),
      "  else if (error instanceof RpcServerError) console.error(\"server error\", error.code, error.rpcMessage);",
      "  else if (error instanceof RpcError) console.error(error.code, error.rpcMessage);",
      "  else throw error;",
      "}",
    ].join("\n");
    return { declaredErrorsMethod: methodLabel(i.ir, op), declaredErrors };
  }
  return {};
}

/** Retries, timeouts and hooks: the first client's options, and the per-call ones on its shortest call. */
function retriesExample(w: Writer, first: PackageInput): Partial<Examples> {
  const op = shortestOp(first, first.ir.operations)!;
  const retries = [
    w.importFactory(first),
    "",
    `const client = ${identifier(w.factory(first))}({`,
    "  retry: { retries: 4, baseDelayMs: 250 }, // or retry: false",
    "  timeoutMs: 10_000, // per attempt",
    "  onRequest: (e) => e.setHeader(\"x-request-id\", crypto.randomUUID()),",
    "  onResponse: (e) => console.log(`${e.operationId} #${e.attempt} → ${e.status ?? e.error?.name} in ${e.durationMs} ms`),",
    "});",
    "",
    "// per call: signal, retry, timeoutMs",
    `const result = await ${callOf(first.ir, "client", op, "{ signal: AbortSignal.timeout(5_000), retry: false }")};`,
  ].join("\n");
  return { retries };
}

/** Pagination: the first list operation of any client, item by item and page by page. */
function paginationExample(w: Writer, clients: PackageInput[]): Partial<Examples> {
  for (const i of clients) {
    const op = i.ir.operations.find((o): o is IrHttpOperation => o.protocol === "http" && o.paging !== undefined);
    if (!op) continue;
    const paging = op.paging!;
    // the page's items member may be optional in the response type; a nested one is reached with ?. at each step
    const body = objectWithProperties(op.responses.find((r) => r.success && r.content.length > 0)?.content.find((c) => /json/i.test(c.contentType))?.schema, lookupOf(i));
    const [only] = paging.items;
    const required = paging.items.length === 0 || (paging.items.length === 1 && (body?.properties?.find((p) => p.name === only)?.required === true || (body?.required ?? []).includes(only!)));
    // each step past the first as its own member access, so that ?. goes between steps, never inside a quoted name
    const itemsOf = paging.items.reduce((acc, k, i) => (i === 0 ? memberPath(acc, [k]) : `${acc}?${memberPath("x", [k]).slice(1).replace(/^\[/, ".[")}`), "page");
    const args = exampleArgs(i.ir, op);
    const call = (what: string) => `${memberPath("client", [...op.group, op.names.method])}.${what}`;
    const pagination = [
      w.importFactory(i),
      "",
      w.newClient(i),
      "",
      `// every item of every page (${howItPages(paging)}): here at most 100 items`,
      `for await (const item of ${call("iterate")}(${args ? inline(args) : "{}"}, { limit: 100 })) console.log(item);`,
      "",
      "// page by page: each page is the typed response body",
      `for await (const page of ${call("pages")}(${args ? inline(args) : "{}"}, { maxPages: 3 })) console.log(${itemsOf}${required ? "" : "?"}.length);`,
    ].join("\n");
    return { pagination, paginationOp: memberPath("client", [...op.group, op.names.method]).slice("client.".length), paginationItems: paging.items.join(".") };
  }
  return {};
}

/** Batching: the two shortest methods of the first client with JSON-RPC methods, in one request. */
function batchingExample(w: Writer, clients: PackageInput[]): Partial<Examples> {
  for (const i of clients) {
    const rpcOps = i.ir.operations.filter((o) => o.protocol === "json-rpc");
    if (rpcOps.length === 0) continue;
    const a = shortestOp(i, rpcOps)!;
    const b = shortestOp(i, rpcOps.filter((o) => o !== a)) ?? a;
    const batching = [
      w.importFactory(i),
      "",
      w.newClient(i),
      "",
      "// one HTTP request per endpoint (chunks of at most 40 calls); results in call order, each on its own",
      `const [first, second] = await client.batch((c) => [${callOf(i.ir, "c", a)}, ${callOf(i.ir, "c", b)}] as const);`,
      "if (first.ok) console.log(first.value);",
      "else console.error(first.error.message);",
      "if (second.ok) console.log(second.value);",
    ].join("\n");
    return { batching };
  }
  return {};
}

/**
 * Validators: a named schema of the first input that has them (an object
 * with a small example reads best), else an operation's parameter check.
 */
function validatorsExample(w: Writer, inputs: PackageInput[]): Partial<Examples> {
  for (const i of inputs.filter((x) => x.targets.has("validators"))) {
    const lookup = lookupOf(i);
    const objectish = (s: IrSchema) => {
      const t = followRefs(s, lookup);
      return t?.kind === "schema" && (t.types?.includes("object") || t.properties !== undefined);
    };
    const candidates = i.ir.schemas.map((s) => ({ s, text: inline(sampleOf(s.schema, lookup)) }));
    const pick = candidates.find((c) => objectish(c.s.schema) && c.text.length > 2 && c.text.length <= 160) ?? candidates.find((c) => c.text.length <= 160) ?? candidates[0];
    if (pick) {
      const n = pick.s.names;
      const validators = [
        importLine([n.validate, n.guard, n.standard], w.sub(i)),
        "",
        `const value: unknown = ${pick.text.length <= 160 ? pick.text : "JSON.parse(\"{}\")"};`,
        "",
        "// every issue, each with a JSON-pointer path, a message, the keyword and what was expected",
        `const checked = ${identifier(n.validate)}(value);`,
        "if (checked.ok) console.log(checked.value);",
        "else for (const issue of checked.issues) console.error(issue.path, issue.message, issue.keyword);",
        "",
        "// a type guard: answers only, collects no issues",
        `if (${identifier(n.guard)}(value)) console.log(value);`,
        "",
        "// Standard Schema v1 (https://standardschema.dev), for any library that takes one",
        `const result = await ${identifier(n.standard)}["~standard"].validate(value);`,
        "if (result.issues) console.error(result.issues.map((issue) => issue.message));",
        "else console.log(result.value);",
      ].join("\n");
      return { validators, validatorName: pick.s.name };
    }
    const op = i.ir.operations[0];
    if (op) {
      const validators = [
        importLine([op.names.validateParams], w.sub(i)),
        "",
        `const checked = ${identifier(op.names.validateParams)}(${inline(exampleArgs(i.ir, op) ?? {})});`,
        "if (!checked.ok) for (const issue of checked.issues) console.error(issue.path, issue.message);",
      ].join("\n");
      return { validators };
    }
  }
  return {};
}

/** Mocks (MSW handlers, the mock server, its command): the first mocked input's shortest call (mocks need a client). */
function mockExamples(w: Writer, inputs: PackageInput[]): Partial<Examples> {
  const mocked = inputs.filter((i) => i.targets.has("mocks") && i.ir.operations.length > 0);
  const m = mocked[0];
  if (!m) return {};
  const op = shortestOp(m, m.ir.operations)!;
  const call = callOf(m.ir, "client", op);
  const overrideId = op.protocol === "http" ? op.id || op.names.method : op.transport.method;
  const steer = op.protocol === "http" ? "{ status: 404 }" : `{ rpcError: { code: -32000, message: "unavailable" } }`;
  // a typed body: what the operation answers (its 2XX body) or the method's result; an operation without a body has none to show
  const typedBody = op.protocol === "json-rpc" || responseKind(op, schemasOf(m.ir)) !== "none";
  const msw = [
    `import { setupServer } from "msw/node";`,
    importLine(["createMocks"], `${w.pkg.name}/mocks`),
    w.importFactory(m),
    "",
    "const mocks = createMocks({ seed: 1 });",
    "const server = setupServer(...mocks.handlers);",
    `server.listen({ onUnhandledRequest: "error" }); // in a test file: beforeAll`,
    "",
    w.newClient(m),
    `const result = await ${call}; // the spec's example, or a body synthesized from the schema (seeded)`,
    "",
    `// steer one ${op.protocol === "http" ? "operation" : "method"} until reset(): status, body, headers, delay, networkError${op.protocol === "http" ? "" : ", rpcError"}`,
    `mocks.override(${stringLiteral(overrideId)}, ${steer});`,
    `await ${call}.catch((error: unknown) => console.error(error));`,
    ...(typedBody
      ? [
          `// typed by the ${op.protocol === "http" ? "operation: the body it answers (with a status: that status's documented body)" : "method: its result"}; a misspelt id or a wrong body does not compile`,
          `mocks.override(${stringLiteral(overrideId)}, { body: result, delay: 100 });`,
        ]
      : []),
    "mocks.reset(); // afterEach",
    "server.close(); // afterAll",
  ].join("\n");
  // the keys of src/mocks/index.ts, which has every mocked input
  const all = inputs.filter((i) => i.targets.has("mocks"));
  const keys = mockKeys(all.map((x) => x.output));
  const mockServer = [
    importLine(["startMockServer"], `${w.pkg.name}/mock-server`),
    w.importFactory(m),
    "",
    "// port 0 picks a free port; log: null silences the line per request (default: stdout)",
    "const mock = await startMockServer({ port: 0, seed: 1, log: null });",
    "try {",
    `  ${w.newClient(m, "{ baseUrl: mock.url }")}`,
    `  const result = await ${call};`,
    "  console.log(result);",
    "} finally {",
    "  await mock.close();",
    "}",
  ].join("\n");
  const command = mockCommandName(w.pkg.name);
  return {
    msw,
    mswBaseUrls: mocked.map((x) => keys[all.indexOf(x)]).join(", "),
    mockServer,
    mockCommand: [`npx ${command} --port 4010 --seed 1   # every API on http://127.0.0.1:4010; Ctrl-C stops`, `npx ${command} --synthesize           # bodies from the schemas only, ignoring the spec's examples`].join("\n"),
    mockCommandName: command,
  };
}

/** Descriptors, called without a client object: the root entry point's `callHttp` and `createRpcTransport`. */
function descriptorsExample(w: Writer, clients: PackageInput[]): Partial<Examples> {
  const http = clients.map((i) => ({ i, op: shortestOp(i, i.ir.operations.filter((o) => o.protocol === "http")) })).find((x) => x.op);
  const rpc = clients.map((i) => ({ i, op: shortestOp(i, i.ir.operations.filter((o) => o.protocol === "json-rpc")) })).find((x) => x.op);
  if (!http && !rpc) return {};
  const lines: string[] = [importLine([...(http ? ["callHttp", "resolveHttpConfig"] : []), ...(rpc ? ["createRpcTransport"] : [])], w.pkg.name)];
  const names = new Map<PackageInput, string[]>();
  for (const x of [http, rpc]) if (x) names.set(x.i, [...(names.get(x.i) ?? []), x.i.ir.names.defaultBaseUrl, x.op!.names.descriptor, ...(x === http ? [x.i.ir.names.results] : [])]);
  for (const [i, list] of names) lines.push(importLine(list, w.sub(i)));
  lines.push("");
  if (http) {
    const args = exampleArgs(http.i.ir, http.op!);
    const base = identifier(http.i.ir.names.defaultBaseUrl);
    lines.push(
      `const config = resolveHttpConfig({ timeoutMs: 10_000 }, ${base}); // the client's options`,
      `const result = await callHttp(config, ${identifier(http.op!.names.descriptor)}, ${args ? inline(args) : "{}"});`,
      "",
      "// response validation needs the module's result checks (the client factories pass them)",
      `const strict = resolveHttpConfig({ validateResponse: "strict" }, ${base}, ${identifier(http.i.ir.names.results)});`,
    );
  }
  if (rpc) {
    const args = exampleArgs(rpc.i.ir, rpc.op!);
    if (http) lines.push("");
    lines.push(`const rpc = createRpcTransport({}, ${identifier(rpc.i.ir.names.defaultBaseUrl)});`, `const value = await rpc.call(${identifier(rpc.op!.names.descriptor)}, ${args ? inline(args) : "{}"});`);
  }
  return { descriptors: lines.join("\n") };
}
