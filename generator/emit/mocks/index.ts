/**
 * IR → `<module>/mocks.ts`: the table the mock service (runtime/mock/mock.ts)
 * serves from. Per operation: its descriptor, its success status, the
 * schema of its body reduced to what synthesis needs (named schemas shared in
 * `defs`), its example, its params' JSON types and how it pages. Schemas,
 * examples and defs are data: they are written as JSON inside one string
 * literal through the escaping choke point, never as code.
 */
import type { StatementStructures } from "ts-morph";
import type { WriterFunction } from "../../writer.js";
import { BoundedNesting } from "../../nesting.js";
import { samplePattern } from "../validators/pattern.js";
import type { IrDocument, IrHttpOperation, IrNamedSchema, IrOperation, IrSchema, JsonValue } from "../../ir/types.js";
import { followRefs } from "../../ir/resolve.js";
import { mockPaging } from "./paging.js";
import { NameRegistry, toIdentifier } from "../../ir/naming.js";
import { identifier, propertyKey, stringLiteral } from "../escape.js";
import { responseKind, schemasOf } from "../../ir/results.js";
import { httpResultType } from "../client/http-wire.js";
import { functionsAsJs } from "../client/functions-js.js";
import { schemaTypeContext, toTypeNode, typeText, type Marker } from "../types/type-node.js";
import { writeValue } from "../value.js";
import { pathOf } from "../../ir/module.js";
import type { ValidatorModule } from "../validators/index.js";

type Json = JsonValue;

class Reducer {
  readonly defs = new Map<string, Json>();
  private readonly byKey: Map<string, IrNamedSchema>;
  readonly lookup = (key: string) => this.byKey.get(key)?.schema;
  constructor(ir: IrDocument) {
    this.byKey = new Map(ir.schemas.map((s) => [s.key, s]));
  }

  named(key: string): string {
    const s = this.byKey.get(key)!;
    if (!this.defs.has(s.name)) {
      this.defs.set(s.name, true); // claimed first, so a recursive schema refers to itself instead of recursing
      // a long chain of refs waits instead of deepening the stack (the claim keeps its place in defs)
      this.nesting.run(() => this.defs.set(s.name, this.reduce(s.schema)));
    }
    return s.name;
  }

  private readonly nesting = new BoundedNesting(200);

  reduce(s: IrSchema): Json {
    if (s.kind === "boolean") return s.value;
    if (s.kind === "ref") return this.byKey.has(s.target) ? { $ref: this.named(s.target) } : true;
    const out: Record<string, Json> = {};
    if (s.types) out["type"] = s.types;
    // an open enumeration answers with the values it knows
    const values = s.enum ?? s.knownValues;
    if (values) out["enum"] = values;
    if (s.const) out["const"] = s.const.value;
    if (s.format) out["format"] = s.format;
    if (s.pattern !== undefined) {
      const sample = samplePattern(s.pattern);
      if (sample) out["sample"] = sample as unknown as Json;
      else out["pattern"] = s.pattern;
    }
    for (const k of ["minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "minProperties"] as const) {
      const v = (s as unknown as Record<string, number | undefined>)[k];
      if (v !== undefined) out[k] = v;
    }
    if (s.properties) out["properties"] = Object.fromEntries(s.properties.map((p) => [p.name, this.reduce(p.schema)]));
    if (s.required) out["required"] = s.required;
    if (s.additionalProperties) out["additionalProperties"] = this.reduce(s.additionalProperties);
    if (s.propertyNames) out["propertyNames"] = this.reduce(s.propertyNames);
    if (s.patternProperties && s.patternProperties.length > 0) {
      // keys drawn from each pattern, values from its schema
      out["patternProperties"] = s.patternProperties.map((pp) => ({ key: this.reduce({ kind: "schema", pointer: pp.schema.pointer, types: ["string"], pattern: pp.pattern }), schema: this.reduce(pp.schema) }));
    }
    if (s.items) out["items"] = this.reduce(s.items);
    if (s.prefixItems) out["prefixItems"] = s.prefixItems.map((x) => this.reduce(x));
    for (const k of ["allOf", "anyOf", "oneOf"] as const) if (s[k]) out[k] = s[k]!.map((x) => this.reduce(x));
    const examples = [...(s.examples ?? []), ...(s.default !== undefined ? [s.default] : [])];
    if (examples.length > 0) out["examples"] = examples;
    return out;
  }

  /** The JSON type a param's strings are read as ("string" unless the schema has one non-null type). */
  typeOf(s: IrSchema): string {
    const t = followRefs(s, this.lookup);
    if (!t || t.kind !== "schema") return "string";
    const types = (t.types ?? []).filter((x) => x !== "null");
    return types.length === 1 ? types[0]! : "string";
  }

  itemsTypeOf(s: IrSchema): string | undefined {
    const t = followRefs(s, this.lookup);
    return t && t.kind === "schema" && t.items ? this.typeOf(t.items) : undefined;
  }
}

const data = (value: unknown) => `/*#__PURE__*/ JSON.parse(${stringLiteral(JSON.stringify(value))})`;

function httpEntry(r: Reducer, op: IrHttpOperation): Record<string, unknown> {
  const ok = op.responses.find((x) => x.success && /^\d{3}$/.test(x.status)) ?? op.responses.find((x) => x.success);
  const content = ok?.content.find((c) => /json/i.test(c.contentType)) ?? ok?.content[0];
  const types: Record<string, string> = {};
  const typeOf = (key: string, schema: IrSchema) => {
    types[key] = r.typeOf(schema);
    const items = r.itemsTypeOf(schema);
    if (items) types[`${key}[]`] = items;
  };
  for (const p of op.parameters) {
    typeOf(p.name, p.schema);
    // a querystring's form fields are read as its object's members (`filter.maxPrice`)
    const t = p.in === "querystring" ? followRefs(p.schema, r.lookup) : undefined;
    if (t?.kind === "schema") for (const m of t.properties ?? []) typeOf(`${p.name}.${m.name}`, m.schema);
  }
  const entry: Record<string, unknown> = { status: ok && /^\d{3}$/.test(ok.status) ? Number(ok.status) : 200, types };
  if (content) entry["schema"] = r.reduce(content.schema);
  if (content?.example !== undefined) entry["example"] = content.example;
  if (content && op.paging) entry["paging"] = mockPaging(op, op.paging, r.lookup);
  return entry;
}

function rpcEntry(r: Reducer, op: Extract<IrOperation, { protocol: "json-rpc" }>): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (op.result) entry["schema"] = r.reduce(op.result.schema);
  const examples = op.examples.filter((e) => e.result !== undefined);
  // an example answers only its own params: each pairs them with its result (params as the mock reads a call's: by name, nulls left out)
  if (examples.length > 0) {
    entry["pairs"] = examples.map((e) => ({
      params: op.transport.form === "one-object" ? (e.params[0]?.value ?? {}) : Object.fromEntries(e.params.filter((p) => p.value !== null).map((p) => [p.name, p.value])),
      result: e.result,
    }));
  }
  return entry;
}

/**
 * `MockAnswers` of a module, types only: by operation id (as the mock
 * service knows it) `{ status, body }` for the documented statuses with a
 * body (statuses with the same body together) and `{ status: undefined, body }`
 * for the 2XX body served when an override names no status, each written
 * `Answer<status, body>` (one generic alias: tsc makes one type of each
 * instantiation, where a type literal per entry was a type each, and the
 * API's error answer is the same in most entries); by JSON-RPC
 * method name `{ result }`, one per endpoint that has the name. Bodies are
 * response shapes, from types.ts (`T`) or the client's own aliases (`C`).
 */
function answersType(ir: IrDocument, walkers: ValidatorModule["walkers"], hasIntegers: ValidatorModule["hasIntegers"]): { members: [string, string[]][]; uses: { T: boolean; C: boolean; Encodable: boolean; markers: Set<Marker> } } {
  const schemaNames = new Set(ir.schemas.map((s) => s.name));
  const uses = { T: false, C: false, Encodable: false, markers: new Set<Marker>() };
  const ctx = schemaTypeContext(ir.schemas, "response", "T", () => (uses.T = true), (name) => uses.markers.add(name));
  // a success body with string-encoded integers may be given with bigints and numbers: the mock writes them in the wire form
  const encodable = (type: string, yes: boolean) => {
    if (!yes) return type;
    uses.Encodable = true;
    return `Encodable<${type}>`;
  };
  const named = (name: string) => {
    if (schemaNames.has(name)) {
      uses.T = true;
      return `T.${identifier(name)}`;
    }
    uses.C = true;
    return `C.${identifier(name)}`;
  };
  const byId = new Map<string, string[]>();
  const add = (id: string, t: string) => {
    const list = byId.get(id) ?? [];
    if (!list.includes(t)) list.push(t);
    byId.set(id, list);
  };
  for (const op of ir.operations) {
    if (op.protocol === "json-rpc") {
      const result = op.result ? encodable(named(op.names.response), walkers.get(op)?.result !== undefined) : "null";
      // answered as given, so the form servers send (x-avaspec-wire-shape) is a result too
      add(op.transport.method, `{ result: ${op.result?.wire ? `${result} | { ${propertyKey(op.result.wire.property)}: ${result} }` : result} }`);
      continue;
    }
    const id = op.id || op.names.method;
    const kind = responseKind(op, schemasOf(ir));
    if (kind !== "none") add(id, `Answer<undefined, ${kind === "json" ? encodable(named(op.names.response), walkers.get(op)?.result !== undefined) : kind === "text" ? "string" : "unknown"}>`);
    // statuses with the same body as one alternative; a 2XX body the client already names by that name, not spelt out again
    // (on Microsoft Graph beta most success bodies are inline, and spelling each out twice cost tsc about 0.2 GB)
    const resultText = kind === "json" ? typeText(httpResultType(ir, op, ctx).type) : undefined;
    const statuses = new Map<string, string[]>();
    for (const r of op.responses) {
      const c = r.content[0];
      if (!c) continue;
      const text = /json/i.test(c.contentType) ? typeText(toTypeNode(c.schema, ctx)) : undefined;
      const spelt = r.success && text !== undefined && text === resultText ? named(op.names.response) : text;
      const body = spelt !== undefined ? encodable(spelt, r.success && hasIntegers(c.schema) && walkers.get(op)?.result !== undefined) : /^text\//i.test(c.contentType) ? "string" : "unknown";
      const list = statuses.get(body) ?? [];
      const status = /^\d{3}$/.test(r.status) ? r.status : "number";
      if (!list.includes(status)) list.push(status);
      statuses.set(body, list);
    }
    for (const [body, list] of statuses) add(id, `Answer<${list.includes("number") ? "number" : list.join(" | ")}, ${body}>`);
    if (!byId.has(id)) add(id, "Answer<undefined, undefined>");
  }
  return { members: [...byId.entries()].map(([id, parts]) => [propertyKey(id), parts]), uses };
}

/** The statements of `<module>/mocks.ts`. */
export function emitMocks(ir: IrDocument, validators: Pick<ValidatorModule, "walkers" | "hasIntegers">): (StatementStructures | WriterFunction)[] {
  const r = new Reducer(ir);
  const entries = ir.operations.map((op) => ({ op, fields: op.protocol === "http" ? httpEntry(r, op) : rpcEntry(r, op) }));
  const descriptors = [...new Set([...ir.operations.map((op) => op.names.descriptor), ir.names.results])].sort();
  const defs = Object.fromEntries([...r.defs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const answers = answersType(ir, validators.walkers, validators.hasIntegers);
  const hasRpc = ir.operations.some((op) => op.protocol === "json-rpc");
  const sockets = mockSockets(ir);
  return [
    (w) => {
      w.writeLine(`import type { MockTable } from "../runtime/mock/mock.js";`);
      // the JSON-RPC side and the synthetic chain are handed to the service by the tables that need them (MockTable.rpc, .chain)
      if (sockets.length > 0) w.writeLine(`import { syntheticChain } from "../runtime/mock/chain.js";`);
      if (hasRpc) w.writeLine(`import { jsonRpcMocks } from "../runtime/mock/rpc.js";`);
      const numberTypes = [...(answers.uses.Encodable ? ["Encodable"] : []), ...[...answers.uses.markers].sort()];
      if (numberTypes.length > 0) w.writeLine(`import type { ${numberTypes.join(", ")} } from "../runtime/values/numbers.js";`);
      w.writeLine(`import { ${descriptors.map(identifier).join(", ")} } from "./client.js";`);
      if (answers.uses.C) w.writeLine(`import type * as C from "./client.js";`);
      if (answers.uses.T) w.writeLine(`import type * as T from "./types.js";`);
      w.blankLine();
      if (ir.operations.some((op) => op.protocol === "http")) {
        w.writeLine("/** One answer of an HTTP operation: a documented status and its body (status undefined: the 2XX body, served when an override names no status). */");
        w.writeLine("type Answer<S extends number | undefined, B> = { status: S; body: B };");
        w.blankLine();
      }
      w.writeLine("/** What this module's mocks answer, by operation id and JSON-RPC method name: the id and body `override` takes (types only; see runtime/mock/mock.ts `MockAnswers`). */");
      w.writeLine("export type MockAnswers = {");
      w.indent(() => {
        for (const [key, parts] of answers.members) w.writeLine(`${key}: ${parts.join(" | ")};`);
      });
      w.writeLine("};");
      w.blankLine();
      w.writeLine("/** What the mock service serves for this module's operations (see runtime/mock/mock.ts). */");
      w.writeLine("export const mocks: MockTable = {");
      w.indent(() => {
        // the path of the spec's server URL: the mock server answers below it too (runtime/mock/routes.ts)
        const basePath = pathOf(ir.defaultBaseUrl);
        if (basePath !== "") w.writeLine(`basePath: ${stringLiteral(basePath)},`);
        w.writeLine(`defs: ${data(defs)},`);
        w.writeLine("entries: [");
        w.indent(() => {
          for (const { op, fields } of entries) {
            const head = op.protocol === "http" ? `kind: "http", op: ${identifier(op.names.descriptor)}` : `kind: "rpc", method: ${identifier(op.names.descriptor)}`;
            w.writeLine(`{ ${head}, ...${data(fields)} },`);
          }
        });
        w.writeLine("],");
        w.writeLine(`results: ${identifier(ir.names.results)},`);
        if (hasRpc) w.writeLine("rpc: jsonRpcMocks,");
        // the WebSocket forms of JSON-RPC endpoints the mocks serve (calls, and eth_subscribe from the synthetic chain)
        if (sockets.length > 0) {
          const base = pathOf(ir.defaultBaseUrl);
          w.write("webSockets: ");
          writeValue(w, sockets.map((ws) => ({ path: base === "" || ws.path.startsWith(`${base}/`) ? ws.path.slice(base.length) : ws.path, endpoint: ws.endpoint })));
          w.write(",").newLine();
          w.writeLine("chain: syntheticChain,");
        }
      });
      w.writeLine("};");
    },
  ];
}

/** The WebSocket forms of a module's JSON-RPC endpoints, which its mocks serve. */
export function mockSockets(ir: IrDocument): NonNullable<IrDocument["webSockets"]> {
  return (ir.webSockets ?? []).filter((ws) => ir.operations.some((op) => op.protocol === "json-rpc" && op.file === ws.file));
}

/**
 * Each module's key in `mockTables` and `baseUrls`: its output in camelCase,
 * one per module even for outputs alike in camelCase (`a-b`, `a.b`: `aB`,
 * `aB2`); `<key>Mocks` is never `createMocks` or `serveMocks`.
 */
export function mockKeys(outputs: string[]): string[] {
  const keys = new NameRegistry();
  keys.reserve("create", "serve");
  return outputs.map((o) => keys.claim(toIdentifier(o, "camel")));
}

/** The package's `mocks/index.ts` (MSW handlers) and `mock-server/index.ts` (Node server) over every module's table. */
export function emitMockEntries(modules: { ir: IrDocument; output: string }[]): { mocks: WriterFunction[]; server: WriterFunction[] } {
  const keys = mockKeys(modules.map((m) => m.output));
  const claimed = modules.map((m, i) => ({ ...m, key: identifier(keys[i]!) }));
  // inputs with the same client name export the same base URL constant: imported under their key then
  const shared = (name: string) => modules.filter((m) => m.ir.names.defaultBaseUrl === name).length > 1;
  const mods = claimed.map((m) => ({ ...m, base: shared(m.ir.names.defaultBaseUrl) ? `${m.key}BaseUrl` : m.ir.names.defaultBaseUrl }));
  const imports = (w: Parameters<WriterFunction>[0], withBase: boolean) => {
    for (const m of mods) w.writeLine(`import { mocks as ${m.key}Mocks, type MockAnswers as ${m.key}MockAnswers } from ${stringLiteral(`../${m.output}/mocks.js`)};`);
    if (withBase) {
      for (const m of mods) {
        const own = identifier(m.ir.names.defaultBaseUrl);
        w.writeLine(`import { ${own === m.base ? own : `${own} as ${identifier(m.base)}`} } from ${stringLiteral(`../${m.output}/client.js`)};`);
      }
    }
  };
  const tablesType = `{ ${mods.map((m) => `${m.key}: MockTable`).join("; ")} }`;
  const tables = (w: Parameters<WriterFunction>[0]) => {
    w.writeLine("/** Every module's mock table. */");
    w.writeLine(`export const mockTables: ${tablesType} = { ${mods.map((m) => `${m.key}: ${m.key}Mocks`).join(", ")} };`);
    w.blankLine();
    w.writeLine("/** What the mocks answer, by operation id and JSON-RPC method name: `override` checks its id and body against it (types only). */");
    w.writeLine(`export type MockAnswers = MergeMockAnswers<${mods.map((m) => `${m.key}MockAnswers`).join(" | ")}>;`);
  };
  // the WebSocket bridge, its MSW handlers and its server side only in a package whose mocks serve WebSocket paths
  const sockets = modules.some((m) => mockSockets(m.ir).length > 0);
  const mocks: WriterFunction = (w) => {
    w.writeLine(`import { createMockService, type MergeMockAnswers, type MockService, type MockServiceOptions, type MockTable } from "../runtime/mock/mock.js";`);
    // msw is named in runtime/mock/msw.ts and msw-ws.ts only, so the package builds without it
    w.writeLine(`import { createMswHandlers, type HttpHandler } from "../runtime/mock/msw.js";`);
    if (sockets) {
      w.writeLine(`import { createMswWebSocketHandlers, type WebSocketHandler } from "../runtime/mock/msw-ws.js";`);
      w.writeLine(`import { createMockSocketHub } from "../runtime/mock/socket-hub.js";`);
    }
    imports(w, true);
    w.blankLine();
    w.writeLine(`export type { MockOverride, MockOverrideFor, MockService, MockServiceOptions, MockTable } from "../runtime/mock/mock.js";`);
    w.writeLine(`export { createMockService } from "../runtime/mock/mock.js";`);
    w.blankLine();
    tables(w);
    w.blankLine();
    w.writeLine("export interface MockOptions extends MockServiceOptions {");
    w.indent(() => {
      w.writeLine("/** Base URL each client calls, when not its default. */");
      w.writeLine(`baseUrls?: { ${mods.map((m) => `${m.key}?: string`).join("; ")} };`);
    });
    w.writeLine("}");
    w.blankLine();
    w.writeLine("/** Typed by `MockAnswers`: a misspelt id or a body the operation does not answer does not compile. For ids only known at run time, widen: `(mocks as MockService).override(id, o)`. */");
    w.writeLine("export interface Mocks extends MockService<MockAnswers> {");
    w.indent(() => {
      const rpc = modules.some((m) => m.ir.operations.some((op) => op.protocol === "json-rpc"));
      if (sockets) {
        w.writeLine("/** MSW handlers for every operation and JSON-RPC endpoint, and the WebSocket endpoints (MSW's `ws` API: intercepted where a global `WebSocket` exists, Node ≥ 22 and browsers): `setupServer(...mocks.handlers)`. */");
        w.writeLine("readonly handlers: (HttpHandler | WebSocketHandler)[];");
        w.writeLine("/** Sends a subscription notification now to every WebSocket subscription of `kind` (the payload given, or the synthetic chain's next); answers how many got it. */");
        w.writeLine("push(kind: string, payload?: unknown): number;");
        w.writeLine("/** Drops every open mocked WebSocket connection (a test of reconnects). */");
        w.writeLine("dropConnections(): void;");
      } else {
        w.writeLine(`/** MSW handlers for every operation${rpc ? " and JSON-RPC endpoint" : ""}: \`setupServer(...mocks.handlers)\`. */`);
        w.writeLine("readonly handlers: HttpHandler[];");
      }
    });
    w.writeLine("}");
    w.blankLine();
    w.writeLine("/**");
    w.writeLine(" * Mocks of every API for MSW. Steer one operation with `mocks.override(id, { status: 503 })`");
    w.writeLine(" * or `{ status, body }` (the body that operation documents for that status) and call");
    w.writeLine(" * `mocks.reset()` after each test.");
    w.writeLine(" */");
    w.writeLine("export function createMocks(options: MockOptions = {}): Mocks {");
    w.indent(() => {
      w.writeLine("const service = createMockService<MockAnswers>(Object.values(mockTables), options);");
      w.writeLine("const tables = [");
      w.indent(() => {
        for (const m of mods) w.writeLine(`{ table: ${m.key}Mocks, baseUrl: options.baseUrls?.${m.key} ?? ${identifier(m.base)} },`);
      });
      w.writeLine("];");
      if (sockets) {
        w.writeLine("const hub = createMockSocketHub(service);");
        w.writeLine("const handlers = [...createMswHandlers(service, tables), ...createMswWebSocketHandlers(service, tables, hub)];");
        w.writeLine("return { ...service, handlers, push: hub.push, dropConnections: hub.dropConnections };");
      } else w.writeLine("return { ...service, handlers: createMswHandlers(service, tables) };");
    });
    w.writeLine("}");
  };
  const limits = mockLimitDocuments(mods);
  const server: WriterFunction = (w) => {
    w.writeLine(`import { createMockService, type MergeMockAnswers, type MockService, type MockServiceOptions, type MockTable } from "../runtime/mock/mock.js";`);
    w.writeLine(`import { serveMocks, type MockServerOptions, type RunningMockServer${sockets ? ", type MockSocketControls" : ""} } from "../runtime/mock/server.js";`);
    if (sockets) w.writeLine(`import { mockSockets } from "../runtime/mock/server-ws.js";`);
    if (limits.length > 0) w.writeLine(`import { limitMockService, type MockLimitsOptions } from "../runtime/mock/limits.js";`);
    imports(w, false);
    for (const l of limits) w.writeLine(`import { ${identifier(l.name)} } from ${stringLiteral(l.from)};`);
    w.blankLine();
    w.writeLine(`export type { MockServerOptions, RunningMockServer${sockets ? ", MockSocketControls" : ""} } from "../runtime/mock/server.js";`);
    w.blankLine();
    tables(w);
    w.blankLine();
    w.writeLine(`/** A running mock server, steered like the MSW mocks: \`override(id, { status, body, … })\` (typed by \`MockAnswers\`) until \`reset()\`${sockets ? "; `push()` and `dropConnections()` steer its WebSocket connections" : ""}. */`);
    w.writeLine(`export interface MockServer extends RunningMockServer, ${sockets ? "MockSocketControls, " : ""}Pick<MockService<MockAnswers>, "override" | "reset" | "sample" | "ids"> {}`);
    w.blankLine();
    if (limits.length > 0) {
      w.writeLine("/**");
      w.writeLine(" * Serves every API's mocks on one origin (default http://127.0.0.1:4010). With `limits`, the");
      w.writeLine(" * declared limits (`x-avaspec-limits`) are enforced and refused as the services refuse them:");
      w.writeLine(` * ${limits.map((l) => `\`${l.name}\` for ${l.kind === "http" ? `the ${l.key} operations` : "the JSON-RPC endpoints"}`).join(", ")} unless the options name others.`);
      w.writeLine(" */");
      w.writeLine("export async function startMockServer(options: MockServiceOptions & MockServerOptions & { limits?: boolean | MockLimitsOptions } = {}): Promise<MockServer> {");
    } else {
      w.writeLine("/** Serves every API's mocks on one origin (default http://127.0.0.1:4010). */");
      w.writeLine("export async function startMockServer(options: MockServiceOptions & MockServerOptions = {}): Promise<MockServer> {");
    }
    w.indent(() => {
      w.writeLine("const service = createMockService<MockAnswers>(Object.values(mockTables), options);");
      if (limits.length > 0) {
        const http = limits.filter((l) => l.kind === "http");
        const rpc = limits.find((l) => l.kind === "rpc");
        const docs = [...(http.length > 0 ? [`documents: new Map([${http.map((l) => `[${l.key}Mocks, ${identifier(l.name)}]`).join(", ")}])`] : []), ...(rpc ? [`rpc: ${identifier(rpc.name)}`] : [])].join(", ");
        w.writeLine("const limits = options.limits === true ? {} : options.limits || undefined;");
        w.writeLine(`const served = limits ? { ...service, handle: limitMockService(service, Object.values(mockTables), { ${docs}, ...limits }).handle } : service;`);
        w.writeLine(`const running = await serveMocks(served, options${sockets ? ", mockSockets" : ""});`);
      } else w.writeLine(`const running = await serveMocks(service, options${sockets ? ", mockSockets" : ""});`);
      w.writeLine(`return { url: running.url, close: running.close, override: service.override, reset: service.reset, sample: service.sample, ids: service.ids${sockets ? ", push: running.push, dropConnections: running.dropConnections" : ""} };`);
    });
    w.writeLine("}");
  };
  return { mocks: [mocks], server: [server] };
}

/**
 * The `…Limits` constants the mock server's limits mode answers by: the
 * first HTTP module's document that declares plans, the first JSON-RPC
 * module's first declaration (its batch cap and signals), and the file
 * each is exported from (operations.js for an HTTP module, client.js else).
 */
function mockLimitDocuments(mods: readonly { ir: IrDocument; output: string; key: string }[]): { kind: "http" | "rpc"; name: string; from: string; key: string }[] {
  const out: { kind: "http" | "rpc"; name: string; from: string; key: string }[] = [];
  // every HTTP module's document with plans (each table charges its own pool), the first JSON-RPC module's
  for (const kind of ["http", "rpc"] as const) {
    for (const m of mods) {
      const asJs = functionsAsJs(m.ir);
      if ((kind === "http") !== asJs) continue;
      const d = (m.ir.limits ?? []).find((l) => l.name !== undefined && (kind === "rpc" || (l.limits.plans?.length ?? 0) > 0));
      if (!d) continue;
      out.push({ kind, name: d.name!, from: `../${m.output}/${asJs ? "operations" : "client"}.js`, key: m.key });
      if (kind === "rpc") break;
    }
  }
  return out;
}
