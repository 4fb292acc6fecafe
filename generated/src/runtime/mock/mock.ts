/**
 * Mock services, framework-agnostic: a request in, a response out. The MSW
 * handlers (`@avaspec/client/mocks`) and the standalone mock server
 * (`@avaspec/client/mock-server`) both run on this.
 *
 * Responses come from the spec's examples when it has them (a JSON-RPC
 * example only for a call with that example's params), otherwise they are
 * synthesized from the schema with a seeded generator, so one seed always
 * gives the same bytes. Every body is checked with the generated validator
 * before it is served. Requests are checked too: bad HTTP params answer 400
 * with the API's error body; JSON-RPC follows the 2.0 spec (-32700 parse
 * error, -32600 invalid request, -32601 unknown method, -32602 invalid
 * params, batches, notifications). Entries are served at their paths below
 * the origin and below the path of the spec's server URL (mock-routes.ts).
 * The service itself is mock-service.ts.
 *
 * A table may also name WebSocket paths and the JSON-RPC endpoint each one
 * stands for (`webSockets`): `createMockSocketHub` bridges a connection's
 * messages to the service as JSON-RPC calls and serves `eth_subscribe`
 * from the service's `subscriptions` (by default a synthetic chain, see
 * mock-chain.ts). The mock server and the MSW WebSocket handlers carry the
 * connections; the hub knows nothing of how.
 */
import type { MockPaging } from "./pages.js";
export type { MockPage, MockPaging } from "./pages.js";
import type { HttpOperation, ResultChecks } from "../http/http.js";
import type { Check } from "../values/validate.js";
import type { Decoder } from "../values/numbers.js";
import type { Normalizer } from "../values/wire-forms.js";
import { hasOwn, setOwn } from "../values/validate.js";
import { rpcError } from "./rpc.js";

/** A JSON Schema, reduced to what synthesis needs; `$ref` names a schema in the table's `defs`. */
export type MockSchema = boolean | MockSchemaObject;

export interface MockSchemaObject {
  $ref?: string;
  type?: string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  /** A pattern as alternatives of sequences of [characters, min, max] or [group, min, max]. */
  sample?: PatternSample;
  /** A pattern no sample could be made for: the schema's examples stand in. */
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  properties?: Record<string, MockSchema>;
  required?: string[];
  additionalProperties?: MockSchema;
  /** The schema every key matches. */
  propertyNames?: MockSchema;
  /** Key schema (from the pattern) and value schema of each patternProperties entry. */
  patternProperties?: { key: MockSchema; schema: MockSchema }[];
  minProperties?: number;
  items?: MockSchema;
  prefixItems?: MockSchema[];
  minItems?: number;
  maxItems?: number;
  allOf?: MockSchema[];
  anyOf?: MockSchema[];
  oneOf?: MockSchema[];
  examples?: unknown[];
}

export type PatternSample = [string | PatternSample, number, number][][];

export interface MockHttpEntry {
  kind: "http";
  op: HttpOperation;
  /** The success status and its body's schema and example. */
  status: number;
  schema?: MockSchema;
  example?: unknown;
  /** JSON type of each param, to read query and path strings as the validator expects them. */
  types: Record<string, string>;
  paging?: MockPaging;
}

/**
 * What the mock reads of a JSON-RPC method's descriptor (the client's
 * `RpcMethod`, jsonrpc/jsonrpc.ts, which tables hold as they are). Named
 * here so that the mocks of a package without JSON-RPC clients do not bring
 * the client's JSON-RPC transport along.
 */
export interface MockRpcMethod {
  readonly method: string;
  readonly endpoint: string;
  readonly form: "by-name" | "by-position" | "one-object";
  readonly params: readonly { readonly name: string; readonly required?: boolean }[];
  readonly check?: Check;
  readonly resultIntegers?: Decoder;
  readonly resultForms?: Normalizer;
  readonly wrappedIn?: string;
}

export interface MockRpcEntry {
  kind: "rpc";
  method: MockRpcMethod;
  schema?: MockSchema;
  /** A result for every call, in a table without `pairs` (one made by hand). */
  example?: unknown;
  /** Every example's params (named) and result: a call whose params equal an example's gets its result, any other call a synthesized one (mock-rpc.ts). */
  pairs?: readonly { params: Record<string, unknown>; result: unknown }[];
}

export interface MockTable {
  /** The path of the spec's server URL (`/v2` of `https://api.shop.example/v2`): entries are served below it as well as below the origin (mock-routes.ts). */
  basePath?: string;
  defs: Record<string, MockSchema>;
  entries: (MockHttpEntry | MockRpcEntry)[];
  /** The module's result checks: a synthesized body must pass its operation's. */
  results?: ResultChecks;
  /** WebSocket paths (below the base URL) and the JSON-RPC endpoint whose methods their messages call. */
  webSockets?: readonly MockWebSocket[];
}

/** A WebSocket path and the JSON-RPC endpoint it stands for: `{ path: "/ext/bc/C/ws", endpoint: "/ext/bc/C/rpc" }`. */
export interface MockWebSocket {
  path: string;
  endpoint: string;
}

/** Where the notifications of `eth_subscribe` on a WebSocket endpoint come from. */
export interface MockSubscriptions {
  /** Called for eth_subscribe on a WebSocket endpoint: start emitting; return the stop function. `params` are the call's params after the kind. */
  subscribe(endpoint: string, kind: string, params: readonly unknown[], emit: (payload: unknown) => void): (() => void) | undefined; // undefined: unknown kind → JSON-RPC error -32602
  /** The next payload of `kind`, for a test's `push(kind)` without one (undefined for an unknown kind). */
  next?(endpoint: string, kind: string): unknown;
  /**
   * Answers a call to the JSON-RPC endpoint of a WebSocket path, over HTTP
   * and over the WebSocket alike, from the same chain the subscriptions
   * follow (a client filling a gap after a reconnect reads blocks and logs
   * there): `{ result }` or `{ error }`, or undefined to let the tables
   * answer it. An override of the method wins.
   */
  answer?(endpoint: string, method: string, params: unknown): { result: unknown } | { error: { code: number; message: string } } | undefined;
}

/** One test's steering of one operation or method. */
export interface MockOverride {
  status?: number;
  /** The body (HTTP) or result (JSON-RPC) to answer with. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delay?: number;
  /** Answer with this JSON-RPC error instead of a result. */
  rpcError?: { code: number; message: string; data?: unknown };
  /** Fail at the network level (MSW: `HttpResponse.error()`; the server: a reset connection). */
  networkError?: boolean;
}

/**
 * What a module's mocks answer, by operation id (HTTP) or JSON-RPC method
 * name: the generator writes one per module (`MockAnswers` in
 * `<module>/mocks.ts`, types only) and the package's `Mocks` is typed by
 * their merge. An HTTP operation has one `{ status, body }` per documented
 * status with a body, plus `{ status: undefined, body }` for the 2XX body
 * served when an override names no status; a JSON-RPC method has
 * `{ result }` (a union when the name is on several endpoints).
 */
export type MockAnswer = { status: number | undefined; body: unknown } | { result: unknown };
export type MockAnswers = { [id: string]: MockAnswer };

/** Several modules' answers as one map: an id in more than one of them may answer any of their bodies (overrides are by id). */
export type MergeMockAnswers<U extends MockAnswers> = { [K in U extends unknown ? keyof U : never]: U extends unknown ? (K extends keyof U ? U[K] : never) : never };

/**
 * An override checked against what the operation or method answers: with
 * no body, any status (the API's error body, or none, is served); with a
 * body, a documented status and that status's body (no status: the 2XX
 * body), or the JSON-RPC result. `MockOverride` is the unchecked form.
 */
export type MockOverrideFor<A> = Omit<MockOverride, "status" | "body"> & ({ status?: number; body?: undefined } | SteeredBody<A>);

type SteeredBody<A> = A extends { result: infer R }
  ? { status?: number; body?: R }
  : A extends { status: infer S; body: infer B }
    ? undefined extends S
      ? { status?: undefined; body: B }
      : { status: S; body: B }
    : never;

export interface MockRequest {
  method: string;
  url: string;
  /** The origin (and base path) the client called when `url` is rewritten below it: where the next page URLs the mock writes point. */
  base?: string;
  headers: Record<string, string>;
  body?: string;
}

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the answer is a network failure instead. */
  networkError?: boolean;
  /** The operation or method(s) answered, for logs. */
  handled: string;
}

export interface MockServiceOptions {
  /** Seed of the synthesized data (default 1). */
  seed?: number;
  /** Use the spec's examples where there are any (default true); false synthesizes everything. */
  examples?: boolean;
  /** Pages a list operation serves before its last page (default 3). */
  pages?: number;
  /**
   * The form of results that servers may send otherwise than documented
   * (`x-avaspec-wire-shape`, `x-avaspec-wire-form`): as documented
   * (default), or as real servers send them (`"server"`). Overrides are
   * answered as given.
   */
  wireShapes?: "documented" | "server";
  /** What `eth_subscribe` on a WebSocket endpoint serves (default: `syntheticChain()`, a block a second); null: the call goes to the tables like any other. */
  subscriptions?: MockSubscriptions | null;
}

/**
 * `A`, the answers by id (types only), checks `override`'s id and body at
 * compile time; the default, `MockAnswers`, takes any id and body (checked
 * at run time only): a typed service widens to it for generic code,
 * `(mocks as MockService).override(id, o)`.
 */
export interface MockService<A extends MockAnswers = MockAnswers> {
  /** Answers a request; undefined when no operation or endpoint matches it. */
  handle(request: MockRequest): Promise<MockResponse | undefined>;
  /**
   * Steers an operation (by operationId) or a JSON-RPC method (by name, on
   * every endpoint that has it) until `reset()`. A body must be what that
   * operation answers at that status, or the method's result.
   */
  override<K extends keyof A & string>(id: K, o: MockOverrideFor<A[K]>): void;
  /** Drops every override. */
  reset(): void;
  /** The mock body of an operation or method as it would be served (first page, no params). */
  sample(id: keyof A & string): unknown;
  /** Every operationId and JSON-RPC method name the service answers. */
  readonly ids: readonly (keyof A & string)[];
  /** Every table's WebSocket paths (none: no WebSocket is served). */
  readonly webSockets?: readonly MockWebSocket[];
  /** What `eth_subscribe` on those paths serves (none: the call is answered from the tables). */
  readonly subscriptions?: MockSubscriptions;
}

// ---------------------------------------------------------------- random

/** A seeded generator (mulberry32): the same seed gives the same sequence. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A string's 32-bit FNV-1a hash: the seed of everything synthesized for it. */
export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// ---------------------------------------------------------------- synthesis

interface Ctx {
  defs: Record<string, MockSchema>;
  next: () => number;
}

const int = (c: Ctx, lo: number, hi: number) => lo + Math.floor(c.next() * (hi - lo + 1));
const pick = <T>(c: Ctx, xs: readonly T[]): T => xs[Math.floor(c.next() * xs.length)]!;

function deref(c: Ctx, s: MockSchema, seen = 0): MockSchema {
  while (typeof s === "object" && s.$ref !== undefined && seen++ < 32) {
    const { $ref, ...rest } = s;
    const target = c.defs[$ref] ?? true;
    s = Object.keys(rest).length === 0 ? target : { allOf: [target, rest] };
  }
  return s;
}

/** allOf as one schema: properties and requirements add up, bounds and types narrow. */
function merge(c: Ctx, parts: MockSchema[]): MockSchemaObject {
  const out: MockSchemaObject = {};
  for (const raw of parts) {
    const p = deref(c, raw);
    if (typeof p === "boolean") continue;
    const flat = p.allOf ? { ...merge(c, p.allOf), ...withoutAllOf(p) } : p;
    for (const [k, v] of Object.entries(flat) as [keyof MockSchemaObject, unknown][]) {
      if (k === "properties") out.properties = { ...out.properties, ...(v as Record<string, MockSchema>) };
      else if (k === "required") out.required = [...new Set([...(out.required ?? []), ...(v as string[])])];
      else if (k === "type") out.type = out.type ? out.type.filter((t) => (v as string[]).includes(t) || (t === "integer" && (v as string[]).includes("number"))) : (v as string[]);
      else if (k === "minimum" || k === "minLength" || k === "minItems" || k === "exclusiveMinimum") out[k] = Math.max(out[k] ?? -Infinity, v as number);
      else if (k === "maximum" || k === "maxLength" || k === "maxItems" || k === "exclusiveMaximum") out[k] = Math.min(out[k] ?? Infinity, v as number);
      else (out as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

function withoutAllOf(s: MockSchemaObject): MockSchemaObject {
  const { allOf: _, ...rest } = s;
  return rest;
}

/** A value for `schema`; depth bounds recursion (deep optional parts are left out, arrays kept short). */
export function synthesize(schema: MockSchema, defs: Record<string, MockSchema>, next: () => number): unknown {
  return synth({ defs, next }, schema, 0);
}

/** Deeper than this, a schema can only be recursing through required members: it has no finite value. */
const MAX_DEPTH = 64;

/** Thrown when a schema has no finite value to synthesize (a required member leads back to itself). */
export class UnsatisfiableSchemaError extends Error {
  override name = "UnsatisfiableSchemaError";
}

function synth(c: Ctx, raw: MockSchema, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new UnsatisfiableSchemaError(`no finite value: the schema recurses more than ${MAX_DEPTH} levels through required properties or minimum item counts`);
  let s = deref(c, raw);
  if (s === true) return "mock";
  if (s === false) return null;
  if (s.allOf) s = merge(c, [withoutAllOf(s), ...s.allOf]);
  if (s.pattern !== undefined && s.examples && s.examples.length > 0) return structuredClone(pick(c, s.examples));
  if (hasOwn(s, "const")) return structuredClone(s.const);
  if (s.enum) return structuredClone(pick(c, s.enum));
  const branches = s.oneOf ?? s.anyOf;
  if (branches && branches.length > 0) {
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    const branch = pick(c, branches);
    return synth(c, Object.keys(rest).length > 0 ? merge(c, [rest, branch]) : branch, depth + 1);
  }
  let types = s.type ?? inferType(s);
  if (types.length > 1 && types.includes("null")) types = c.next() < 0.85 ? types.filter((t) => t !== "null") : ["null"];
  switch (pick(c, types)) {
    case "null":
      return null;
    case "boolean":
      return c.next() < 0.5;
    case "integer":
      return integer(c, s);
    case "number":
      return c.next() < 0.5 ? integer(c, s) : number(c, s);
    case "string":
      return string(c, s);
    case "array":
      return array(c, s, depth);
    default:
      return object(c, s, depth);
  }
}

function inferType(s: MockSchemaObject): string[] {
  if (s.properties || s.required || s.additionalProperties !== undefined) return ["object"];
  if (s.items !== undefined || s.prefixItems) return ["array"];
  if (s.sample || s.format || s.minLength !== undefined || s.maxLength !== undefined) return ["string"];
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return ["number"];
  return ["string"];
}

function bounds(s: MockSchemaObject, integral: boolean): [number, number] {
  const step = integral ? 1 : 0.5;
  // the tighter of the inclusive and the (stepped-in) exclusive bound
  const defined = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
  const lows = defined([s.minimum, s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + step]);
  const highs = defined([s.maximum, s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - step]);
  let lo = lows.length > 0 ? Math.max(...lows) : undefined;
  let hi = highs.length > 0 ? Math.min(...highs) : undefined;
  lo ??= hi !== undefined ? hi - 1000 : 0;
  hi ??= lo + 1000;
  return [integral ? Math.ceil(lo) : lo, integral ? Math.floor(hi) : hi];
}

function integer(c: Ctx, s: MockSchemaObject): number {
  const [lo, hi] = bounds(s, true);
  if (s.multipleOf) {
    const first = Math.ceil(lo / s.multipleOf);
    const last = Math.floor(hi / s.multipleOf);
    return Math.max(first, Math.min(last, int(c, first, Math.min(last, first + 50)))) * s.multipleOf;
  }
  return int(c, lo, Math.min(hi, lo + 1_000_000));
}

function number(c: Ctx, s: MockSchemaObject): number {
  if (s.multipleOf) return integer(c, s);
  const [lo, hi] = bounds(s, false);
  return Math.round((lo + c.next() * Math.min(hi - lo, 1_000_000)) * 100) / 100;
}

const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";

function chars(c: Ctx, alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(c.next() * alphabet.length)];
  return out;
}

function string(c: Ctx, s: MockSchemaObject): string {
  if (s.sample) return fromSample(c, s.sample);
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 24);
  const pad = (v: string) => (v.length < min ? v + chars(c, ALNUM, min - v.length) : v.length > max ? v.slice(0, max) : v);
  const day = int(c, 0, 2000);
  const date = new Date(Date.UTC(2022, 0, 1) + day * 86_400_000 + int(c, 0, 86_399) * 1000).toISOString();
  switch (s.format) {
    case "date-time":
      return date.replace(/\.\d+Z$/, "Z");
    case "date":
      return date.slice(0, 10);
    case "time":
      return date.slice(11, 19) + "Z";
    case "uuid":
      return `${chars(c, HEX, 8)}-${chars(c, HEX, 4)}-4${chars(c, HEX, 3)}-8${chars(c, HEX, 3)}-${chars(c, HEX, 12)}`;
    case "email":
      return `${chars(c, "abcdefghijklmnopqrstuvwxyz", 6)}@example.com`;
    case "uri":
    case "url":
    case "uri-reference":
      return `https://example.com/${chars(c, ALNUM, 8)}`;
    case "hostname":
      return `${chars(c, "abcdefghijklmnopqrstuvwxyz", 8)}.example.com`;
    case "ipv4":
      return [int(c, 1, 254), int(c, 0, 255), int(c, 0, 255), int(c, 1, 254)].join(".");
    case "ipv6":
      return `2001:db8::${chars(c, HEX, 4)}`;
  }
  return pad(`mock-${chars(c, ALNUM, Math.max(0, Math.min(max, 12) - 5))}`);
}

function fromSample(c: Ctx, alternatives: PatternSample): string {
  let out = "";
  for (const [unit, min, max] of pick(c, alternatives)) {
    const n = int(c, min, Math.min(max, min + 6));
    for (let i = 0; i < n; i++) out += typeof unit === "string" ? unit[Math.floor(c.next() * unit.length)] : fromSample(c, unit);
  }
  return out;
}

function array(c: Ctx, s: MockSchemaObject, depth: number): unknown[] {
  const min = s.minItems ?? 0;
  const max = s.maxItems ?? Infinity;
  const want = depth > 6 ? min : Math.min(max, Math.max(min, int(c, 1, 3)));
  const out: unknown[] = [];
  for (let i = 0; i < want; i++) {
    const item = s.prefixItems?.[i] ?? s.items ?? true;
    if (item === false) break;
    out.push(synth(c, item, depth + 1));
  }
  return out;
}

function object(c: Ctx, s: MockSchemaObject, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => setOwn(out, k, v);
  const required = new Set(s.required ?? []);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    if (required.has(k) || (depth < 5 && c.next() < 0.7)) set(k, synth(c, sub, depth + 1));
  }
  for (const k of required) if (!hasOwn(out, k)) set(k, synth(c, true, depth + 1));
  // map-like objects: keys that satisfy propertyNames (or a patternProperties pattern), values from their schema
  if (depth < 5 && (!s.properties || Object.keys(s.properties).length === 0)) {
    const key = (i: number) => (s.propertyNames !== undefined ? String(synth(c, s.propertyNames, depth + 1)) : `key${i + 1}`);
    for (const pp of s.patternProperties ?? []) set(String(synth(c, pp.key, depth + 1)), synth(c, pp.schema, depth + 1));
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== false) {
      const n = Math.max(s.minProperties ?? 0, int(c, 1, 2));
      for (let i = 0; i < n; i++) set(key(i), synth(c, extra, depth + 1));
    }
  }
  return out;
}

// ---------------------------------------------------------------- the service

export { createMockService } from "./service.js";
export { escapeRegExp, pathPattern } from "./routes.js";

// ---------------------------------------------------------------- WebSocket bridge

/** The subscription methods the bridge answers itself (the rest go to the service). */
export const SUBSCRIBE_METHOD = "eth_subscribe";
export const UNSUBSCRIBE_METHOD = "eth_unsubscribe";
/** The method of the notifications a subscription sends. */
export const SUBSCRIPTION_NOTIFICATION = "eth_subscription";

/** One open WebSocket connection, as the hub drives it. */
export interface MockSocket {
  /** Sends one text message. */
  send(text: string): void;
  /** Ends the connection at once. */
  terminate(): void;
}

/** A connection on the hub: its messages go in, its end is reported. */
export interface MockSocketConnection {
  /** Answers one text message (a JSON-RPC call or batch): resolves once the reply, if any, is sent. */
  message(text: string): Promise<void>;
  /** The connection ended: its subscriptions stop. */
  closed(): void;
}

/** The WebSocket connections of a mock server or MSW setup, and their subscriptions. */
export interface MockSocketHub {
  /** A connection opened on a WebSocket path standing for the JSON-RPC `endpoint`. */
  connect(endpoint: string, socket: MockSocket): MockSocketConnection;
  /** Emits now, to every subscription of `kind`: `payload`, or the subscriptions' next one (`MockSubscriptions.next`, one per endpoint); returns how many were sent. */
  push(kind: string, payload?: unknown): number;
  /** Terminates every open connection (their subscriptions stop). */
  dropConnections(): void;
  /** Open connections. */
  readonly connections: number;
  /** Running subscriptions. */
  readonly subscriptions: number;
}

/** `push()` without a payload when the service's subscriptions cannot make one. */
export class MockSubscriptionError extends Error {
  override name = "MockSubscriptionError";
}

interface HubSubscription {
  id: string;
  kind: string;
  endpoint: string;
  deliver(payload: unknown): void;
  stop(): void;
}

const isCallTo = (c: unknown, names: readonly string[]): c is Record<string, unknown> => typeof c === "object" && c !== null && !Array.isArray(c) && names.includes((c as Record<string, unknown>)["method"] as string);

/**
 * Bridges WebSocket connections to `service`: each message is a JSON-RPC
 * call or batch to the connection's endpoint, answered as an HTTP POST to it
 * would be (one message back; none for notifications only). With
 * `service.subscriptions`, `eth_subscribe` answers a 32-hex-digit id and then
 * sends `eth_subscription` notifications until `eth_unsubscribe` or the end of
 * the connection.
 */
export function createMockSocketHub(service: Pick<MockService, "handle" | "subscriptions">): MockSocketHub {
  const hook = service.subscriptions;
  const open = new Map<MockSocket, Map<string, HubSubscription>>();
  const all = new Set<HubSubscription>();
  let issued = 0;

  const newId = (taken: Map<string, HubSubscription>): string => {
    for (;;) {
      const next = rng(hash(`subscription:${++issued}`));
      let id = "0x";
      for (let i = 0; i < 4; i++) id += Math.floor(next() * 2 ** 32).toString(16).padStart(8, "0");
      if (!taken.has(id)) return id;
    }
  };

  return {
    connect(endpoint, socket) {
      const subs = new Map<string, HubSubscription>();
      open.set(socket, subs);
      const send = (value: unknown) => {
        if (open.has(socket)) socket.send(typeof value === "string" ? value : JSON.stringify(value));
      };
      const stopAll = () => {
        for (const s of subs.values()) s.stop();
        open.delete(socket);
      };

      /** eth_subscribe or eth_unsubscribe: the reply (undefined for a notification), and what to start once it is sent. */
      const local = (c: Record<string, unknown>, started: (() => void)[]): unknown => {
        const notification = !hasOwn(c, "id");
        const id = notification ? null : c["id"];
        const params = c["params"];
        if (c["method"] === UNSUBSCRIBE_METHOD) {
          if (!Array.isArray(params) || typeof params[0] !== "string") return notification ? undefined : rpcError(id, -32602, "Invalid params: eth_unsubscribe takes a subscription id");
          const s = subs.get(params[0]);
          s?.stop();
          return notification ? undefined : { jsonrpc: "2.0", id, result: s !== undefined };
        }
        if (notification) return undefined; // nobody could learn the id
        if (!open.has(socket)) return undefined; // the connection ended while an earlier call of its batch was answered
        if (!Array.isArray(params) || typeof params[0] !== "string") return rpcError(id, -32602, "Invalid params: eth_subscribe takes the kind of subscription first");
        const kind = params[0];
        const subId = newId(subs);
        let ready = false;
        let live = true;
        const queued: unknown[] = [];
        const deliver = (payload: unknown) => {
          if (!live) return;
          if (!ready) queued.push(payload);
          else send({ jsonrpc: "2.0", method: SUBSCRIPTION_NOTIFICATION, params: { subscription: subId, result: payload } });
        };
        const stop = hook!.subscribe(endpoint, kind, params.slice(1), deliver);
        if (stop === undefined) return rpcError(id, -32602, `Invalid params: no subscription of kind ${JSON.stringify(kind)}`);
        const sub: HubSubscription = {
          id: subId,
          kind,
          endpoint,
          deliver,
          stop() {
            if (!live) return;
            live = false;
            subs.delete(subId);
            all.delete(sub);
            stop();
          },
        };
        subs.set(subId, sub);
        all.add(sub);
        // notifications come after the id they carry
        started.push(() => {
          ready = true;
          for (const p of queued.splice(0)) deliver(p);
        });
        return { jsonrpc: "2.0", id, result: subId };
      };

      const call = (body: string) => service.handle({ method: "POST", url: `http://mock${endpoint}`, headers: { "content-type": "application/json" }, body });
      const names = hook ? [SUBSCRIBE_METHOD, UNSUBSCRIBE_METHOD] : [];

      return {
        async message(text) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const started: (() => void)[] = [];
          let reply: unknown;
          const isLocal = (c: unknown): c is Record<string, unknown> => isCallTo(c, names);
          if (Array.isArray(parsed) && parsed.some(isLocal)) {
            // a batch with subscription calls: each call on its own, the replies in one message
            const replies: unknown[] = [];
            for (const c of parsed) {
              if (isLocal(c)) {
                const r = local(c, started);
                if (r !== undefined) replies.push(r);
                continue;
              }
              const r = await call(JSON.stringify(c));
              if (r?.networkError) return void socket.terminate();
              if (r && r.body !== "") replies.push(JSON.parse(r.body));
              else if (!r) replies.push(rpcError(null, -32601, `no mocked JSON-RPC endpoint at ${endpoint}`));
            }
            reply = replies.length > 0 ? replies : undefined;
          } else if (isLocal(parsed)) {
            reply = local(parsed, started);
          } else {
            const r = await call(text);
            if (r?.networkError) return void socket.terminate();
            reply = !r ? rpcError(null, -32601, `no mocked JSON-RPC endpoint at ${endpoint}`) : r.status === 204 || r.body === "" ? undefined : r.body;
          }
          if (reply !== undefined) send(reply);
          for (const f of started) f();
        },
        closed: stopAll,
      };
    },
    push(kind, payload) {
      const next = new Map<string, unknown>();
      let sent = 0;
      for (const s of [...all]) {
        if (s.kind !== kind) continue;
        let p = payload;
        if (p === undefined) {
          if (!next.has(s.endpoint)) {
            if (!hook?.next) throw new MockSubscriptionError(`push("${kind}") without a payload: the service's subscriptions make no payloads on demand (no next()); pass one`);
            next.set(s.endpoint, hook.next(s.endpoint, kind));
          }
          p = next.get(s.endpoint);
          if (p === undefined) throw new MockSubscriptionError(`push("${kind}") without a payload: the service's subscriptions made none for ${s.endpoint}; pass one`);
        }
        s.deliver(p);
        sent++;
      }
      return sent;
    },
    dropConnections() {
      for (const [socket, subs] of [...open]) {
        for (const s of subs.values()) s.stop();
        open.delete(socket);
        socket.terminate();
      }
    },
    get connections() {
      return open.size;
    },
    get subscriptions() {
      return all.size;
    },
  };
}
