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
 * the origin and below the path of the spec's server URL (routes.ts).
 * The service itself is service.ts; mock.ts gathers the mock runtime's exports.
 *
 * A table may also name WebSocket paths and the JSON-RPC endpoint each one
 * stands for (`webSockets`): `createMockSocketHub` bridges a connection's
 * messages to the service as JSON-RPC calls and serves `eth_subscribe`
 * from the service's `subscriptions` (by default a synthetic chain, see
 * chain.ts). The mock server and the MSW WebSocket handlers carry the
 * connections; the hub knows nothing of how.
 */
import type { MockPaging } from "./pages.js";
export type { MockPage, MockPaging } from "./pages.js";
import type { HttpOperation, ResultChecks } from "../http/http.js";
import type { Check } from "../values/validate.js";
import type { OperationLimits } from "../values/limits.js";
import type { Decoder } from "../values/numbers.js";
import type { Normalizer } from "../values/wire-forms.js";

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
  /** The schema's examples and default: a synthesized value takes one of them (see synthesize.ts). */
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
  /** Its cost, range caps and limit signals: what the limits mode (limits.ts) enforces. */
  readonly limits?: OperationLimits;
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
  /**
   * How the service answers the table's JSON-RPC entries (`jsonRpcMocks`,
   * rpc.ts). A table with JSON-RPC methods hands it over, so that a service
   * over HTTP tables alone, and the package that ships it, carries none of it.
   */
  rpc?: MockRpcSide;
  /**
   * Makes the default `subscriptions` of a service over this table
   * (`syntheticChain`, chain.ts): a table with WebSocket paths hands it over,
   * for the same reason as `rpc`.
   */
  chain?: () => MockSubscriptions;
}

/** What the JSON-RPC side of a mock service uses of the service it answers for. */
export interface MockRpcContext {
  overrides: ReadonlyMap<string, MockOverride>;
  /** A result synthesized from the entry's schema with `salt` (MockBodies.synthesized). */
  synthesized(entry: MockRpcEntry, table: MockTable, salt: string, fallback?: unknown): unknown;
  /** Whether the spec's examples are served (the service's `examples` option). */
  examples: boolean;
  /** Results servers send otherwise than documented go in the servers' form (`x-avaspec-wire-shape`, `x-avaspec-wire-form`). */
  serverShapes: boolean;
  /**
   * Answers chain reads (blocks, logs, the height) on the endpoints of
   * WebSocket paths from the subscriptions' chain, over HTTP as over the
   * socket, so both agree (MockSubscriptions.answer); undefined lets the
   * tables answer.
   */
  chain?(endpoint: string, method: string, params: unknown): { result: unknown } | { error: { code: number; message: string } } | undefined;
  /** Waits out an override's delay; true when it asks for a network error. */
  steer(o: MockOverride | undefined): Promise<boolean>;
  json(status: number, value: unknown, handled: string, headers?: Record<string, string>): MockResponse;
  dropped(handled: string): MockResponse;
}

/** The JSON-RPC side of a mock service (rpc.ts), as a table hands it over. */
export interface MockRpcSide {
  /** Answers a POST to a JSON-RPC endpoint whose methods are `methods`: one call or a batch. */
  answer(methods: ReadonlyMap<string, { entry: MockRpcEntry; table: MockTable }>, request: MockRequest, ctx: MockRpcContext): Promise<MockResponse>;
  /** The result a call with these (named) params gets when no override steers it. */
  result(entry: MockRpcEntry, table: MockTable, named: Record<string, unknown>, ctx: Pick<MockRpcContext, "synthesized" | "examples">): unknown;
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
  /** A streamed answer: `body` in these pieces, written `intervalMs` apart (runtime/mock/streams.ts). */
  chunks?: readonly string[];
  intervalMs?: number;
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
  /** What an operation whose response is a stream serves: how many items (default 5), and the pause before each (default 20 ms). */
  stream?: { items?: number; intervalMs?: number };
  /** What `eth_subscribe` on a WebSocket endpoint serves (default: the tables' `chain`, a synthetic chain of a block a second); null: the call goes to the tables like any other. */
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
