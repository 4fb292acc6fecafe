/**
 * The intermediate representation: plain, kind-tagged data that every emitter
 * reads instead of the raw spec. Every node keeps the JSON pointer of the spec
 * node it came from so later passes can report `file:line:col`.
 *
 * Schemas use one JSON-Schema-like model for OpenAPI 3.0 (`nullable`,
 * boolean `exclusiveMinimum`), OpenAPI 3.1 / 2020-12 (type arrays) and
 * draft-07 (OpenRPC): the builders normalise those dialects into it.
 */

import type { JsonType, JsonValue } from "./json.js";
import type { IrLifecycle, IrMcpMarks } from "./operation-marks.js";
import type { IrPaging, IrPagingDeclaration } from "./paging-types.js";
import type { IrApiKeyScheme, IrHttpTransport, IrRpcTransport } from "./transport-types.js";
import type { IrDocumentLimits, IrLimits } from "./limits-types.js";

// re-exported: every stage names these through types.ts
export { fitsTypes, type JsonType, type JsonValue } from "./json.js";
export type { IrPaging, IrPagingDeclaration, IrPagingParam, PagingStyle } from "./paging-types.js";
export type { IrLifecycle, IrMcpMarks } from "./operation-marks.js";
export type { IrApiKeyScheme, IrHttpTransport, IrRpcTransport, RpcParamForm } from "./transport-types.js";
export type { IrDocumentLimits, IrLimitPlan, IrLimitRange, IrLimits, IrLimitSignal, LimitKind } from "./limits-types.js";

/** Annotations shared by every schema node. */
export interface IrSchemaMeta {
  /** JSON pointer of the spec node this schema was built from. */
  pointer: string;
  title?: string;
  description?: string;
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  default?: JsonValue;
  examples?: JsonValue[];
  /**
   * Another JSON type servers send this value as (`x-avaspec-wire-form`):
   * valid in responses, and converted to the documented type before a
   * caller sees it. The types are what the documented one stays.
   */
  wireForm?: IrWireForm;
}

/**
 * `x-avaspec-wire-form`: the schema of the value as servers send it, and the
 * conversion between the two JSON types (set when the document's schemas are
 * built; a pair that cannot be converted is an `extension/wire-form` error).
 */
export interface IrWireForm {
  pointer: string;
  schema: IrSchema;
  /** The server's type and the documented one: a number written as decimal text, or decimal text read as a number. */
  from?: "string" | "number" | "integer";
  to?: "string" | "number" | "integer";
}

/** A reference to a named schema. */
export interface IrRefSchema extends IrSchemaMeta {
  kind: "ref";
  /** `key` of the target in `IrDocument.schemas` (unique, stable). */
  target: string;
}

/** `true` (anything) or `false` (nothing). An empty schema `{}` is `true`. */
export interface IrBooleanSchema extends IrSchemaMeta {
  kind: "boolean";
  value: boolean;
}

export interface IrProperty {
  name: string;
  schema: IrSchema;
  required: boolean;
}

/** Any other schema: every keyword present in the spec, normalised. */
export interface IrObjectLikeSchema extends IrSchemaMeta {
  kind: "schema";
  /** Normalised: 3.0 `nullable: true` adds "null"; absent means any type. */
  types?: JsonType[];
  enum?: JsonValue[];
  /**
   * An open enumeration (`enum` with `x-avaspec-open-enum: true`, or
   * `x-extensible-enum`): the values the spec knows, which types complete and
   * mocks answer with; any other value the rest of the schema allows is valid
   * too, so nothing validates against this list (it is never also in `enum`).
   */
  knownValues?: JsonValue[];
  /** Present (even when the value is null) only when the schema has `const`. */
  const?: { value: JsonValue };
  format?: string;
  /**
   * A string that holds an integer (`x-avaspec-integer`, or `format`
   * int64/uint64/int32/uint32), or a JSON number that may pass 2^53 (`format`
   * int64/uint64, `x-avaspec-integer: true`): its wire form, sign and width
   * in bits (none: unbounded). Clients with `numbers: "bigint"` read it as a
   * bigint; every client sends a bigint or number given for it in this form.
   */
  integer?: IrIntegerString;
  // strings
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** The pattern tests what is sent only, never what servers answer (`x-avaspec-response-pattern: false`). */
  requestPattern?: true;
  // numbers (exclusive bounds always in the numeric 2020-12 form)
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  // objects
  properties?: IrProperty[];
  /** `required` names, including names without a `properties` entry. */
  required?: string[];
  additionalProperties?: IrSchema;
  patternProperties?: { pattern: string; schema: IrSchema }[];
  propertyNames?: IrSchema;
  minProperties?: number;
  maxProperties?: number;
  dependentRequired?: Record<string, string[]>;
  dependentSchemas?: Record<string, IrSchema>;
  unevaluatedProperties?: IrSchema;
  // arrays
  items?: IrSchema;
  prefixItems?: IrSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  contains?: IrSchema;
  minContains?: number;
  maxContains?: number;
  unevaluatedItems?: IrSchema;
  // composition
  allOf?: IrSchema[];
  anyOf?: IrSchema[];
  oneOf?: IrSchema[];
  not?: IrSchema;
  if?: IrSchema;
  then?: IrSchema;
  else?: IrSchema;
  discriminator?: { propertyName: string; mapping: { value: string; target: string }[] };
}

/** How a value carries an integer (see `IrObjectLikeSchema.integer`). */
export interface IrIntegerString {
  /** `decimal` ("1234", "-5") or `hex` ("0x4d2", the Ethereum quantity form) text, or a JSON `number` that may pass 2^53. */
  encoding: "decimal" | "hex" | "number";
  signed: boolean;
  /** Two's-complement width: the value range is 0…2^bits−1, or −2^(bits−1)…2^(bits−1)−1 when signed. */
  bits?: number;
}

export type IrSchema = IrRefSchema | IrBooleanSchema | IrObjectLikeSchema;

/** A schema with a name of its own (`components.schemas`, OpenRPC `components.schemas`). */
export interface IrNamedSchema {
  kind: "named-schema";
  /** Unique across documents: the source file and the pointer (`spec/a.yaml#/components/schemas/X`). */
  key: string;
  /** The component key (or, for a schema promoted from elsewhere, its pointer). */
  id: string;
  /** TypeScript name, assigned by the naming pass. */
  name: string;
  /**
   * In a module merged from several documents: the words that qualify this
   * schema's name when another document defines a different schema under the
   * same name (the document's group: `platform` → `PlatformCb58Id`).
   */
  qualifier?: string;
  /** Exported validator names, assigned by the naming pass; `input` names the request shape of a schema with readOnly/writeOnly members. */
  names: { validate: string; standard: string; guard: string; input?: string };
  pointer: string;
  schema: IrSchema;
}

/** `querystring` (OpenAPI 3.2): the whole query string is one parameter, serialized as its media type says. */
export type ParameterLocation = "path" | "query" | "querystring" | "header" | "cookie";

export interface IrParameter {
  kind: "parameter";
  pointer: string;
  /** The name on the wire. */
  name: string;
  /** Its property in the params object: the name, unless another parameter of the operation (or its body) has it (the naming pass decides). */
  key: string;
  in: ParameterLocation;
  required: boolean;
  deprecated: boolean;
  description?: string;
  style: "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  explode: boolean;
  /** Query only: reserved characters and `%XX` escapes pass unencoded (RFC 6570 reserved expansion). */
  allowReserved?: boolean;
  /** The media type of a parameter given by `content` rather than a style (a query parameter's JSON text; a querystring's form fields or JSON). */
  contentType?: string;
  schema: IrSchema;
  example?: JsonValue;
  /** How long a page token stays valid, in seconds (`x-avaspec-token-lifetime`). */
  tokenLifetime?: number;
}

export interface IrMediaContent {
  contentType: string;
  schema: IrSchema;
  /** OpenAPI 3.2's `itemSchema`: the schema of each item of a streamed media type (an event, a line). */
  itemSchema?: IrSchema;
  example?: JsonValue;
  /**
   * `application/x-www-form-urlencoded` only: the fields whose Encoding
   * Object sets `style`, `explode` or `allowReserved`, which are then
   * serialized like query parameters of that style. The other fields keep
   * the default (text, or JSON for objects).
   */
  encoding?: Record<string, IrFieldEncoding>;
}

/** How one form field is serialized when its Encoding Object gives a style (defaults as for a query parameter). */
export interface IrFieldEncoding {
  style: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  explode: boolean;
  allowReserved: boolean;
}

export interface IrRequestBody {
  kind: "request-body";
  pointer: string;
  required: boolean;
  description?: string;
  /** Preferred media type first (JSON when offered). */
  content: IrMediaContent[];
}

export interface IrResponse {
  kind: "response";
  pointer: string;
  /** "200", "2XX", "default"… as written in the spec. */
  status: string;
  /**
   * True for 2XX statuses (and ranges); and for `default` when the operation
   * declares no 2XX response, since `default` then describes the 2XX answer
   * too. False for everything else (a `default` beside 2XX responses is the
   * body of the undeclared error statuses).
   */
  success: boolean;
  description: string;
  content: IrMediaContent[];
  /** Id of the shared response component this came from, when it was a `$ref`. */
  componentId?: string;
  /** The names of the headers it declares, lower-case (only when it declares some). */
  headers?: string[];
  /** What an error message advises for it (`x-avaspec-advice` on the response). */
  advice?: string;
}

interface IrOperationBase {
  kind: "operation";
  pointer: string;
  /** Spec file the operation comes from. */
  file: string;
  /** operationId / method name as written in the spec; "" when an HTTP operation has none. */
  id: string;
  /** Names assigned by the naming pass (empty until then). */
  names: OperationNames;
  /** Where the method sits on the client (`["cChain", "eth"]`); empty for top level. */
  group: string[];
  /** Method name within the group when it differs from `id` (`baseFee` for `eth_baseFee`). */
  nameHint?: string;
  /** Path prefix of the operation's endpoint below the client's base URL ("" or `/ext/info`). */
  endpoint: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /**
   * Safe to repeat, so the client retries it by default: HTTP GET, HEAD,
   * OPTIONS, PUT and DELETE, or any operation or method the spec marks with
   * `x-avaspec-idempotent: true` (`false` opts an HTTP method out).
   */
  idempotent: boolean;
  /**
   * The releases that added, deprecated or removed it (`x-avaspec-added-in`,
   * `x-avaspec-deprecated-in`, `x-avaspec-removed-in`: each a string naming
   * a release of the server). A deprecated or removed one is `deprecated`.
   */
  lifecycle?: IrLifecycle;
  /** Why some servers do not implement it (`x-avaspec-unimplemented`); documentation only. */
  unimplemented?: string;
  /** `x-avaspec-mcp`: overrides of how generated MCP servers class it. */
  mcp?: IrMcpMarks;
  /** `x-avaspec-limits` on it: its cost, caps and signals (ir/limits-types.ts). */
  limits?: IrLimits;
  tags: string[];
}

/**
 * A form the server may send a value in besides the documented one
 * (`x-avaspec-wire-shape`), which clients, validators and mocks normalise:
 * `wrapped`, the documented value as the one member `property` of an object
 * (the documented schema admits no object, so the two cannot be confused).
 */
export interface IrWireShape {
  kind: "wrapped";
  property: string;
  pointer: string;
}

export interface IrHttpOperation extends IrOperationBase {
  protocol: "http";
  transport: IrHttpTransport;
  /**
   * The operation's own base URL, at its variables' defaults: the first
   * http(s) server of its `servers`, else of its path item's, when that is
   * not the document's. Absent: the client's base URL.
   */
  server?: string;
  parameters: IrParameter[];
  requestBody?: IrRequestBody;
  responses: IrResponse[];
  /** Schemes any one of which authenticates; `optional` when `{}` is allowed too. */
  security: { schemes: string[]; optional: boolean };
  /** How the spec declares it pages (`x-avaspec-pagination`, or `x-speakeasy-pagination`), as written. */
  pagingDeclared?: IrPagingDeclaration;
  /** How it pages, declared or detected (the paging pass, generator/ir/paging.ts). */
  paging?: IrPaging;
  /** What its error messages advise by status (`"404"`, `"5XX"`, `"default"`): its responses' `x-avaspec-advice` (ir/advice.ts). */
  advice?: Record<string, string>;
}

export interface IrRpcParam {
  kind: "rpc-param";
  pointer: string;
  name: string;
  required: boolean;
  deprecated: boolean;
  description?: string;
  schema: IrSchema;
}

export interface IrRpcError {
  kind: "rpc-error";
  pointer: string;
  code: number;
  message: string;
  description?: string;
  /** What the error is called in the document: its key under `components/errors` when referenced, else its message. */
  source: string;
  /** The schema of the error's `data` member, when the document says its `data` values are schemas (`x-error-data-schema: true`). */
  data?: IrSchema;
  /** The exported error class (assigned by the naming pass; errors that are the same share one). */
  className: string;
}

export interface IrRpcExample {
  kind: "rpc-example";
  pointer: string;
  name: string;
  params: { name: string; value: JsonValue }[];
  result?: JsonValue;
}

export interface IrRpcOperation extends IrOperationBase {
  protocol: "json-rpc";
  transport: IrRpcTransport;
  params: IrRpcParam[];
  result?: { kind: "rpc-result"; pointer: string; name: string; description?: string; schema: IrSchema; wire?: IrWireShape };
  errors: IrRpcError[];
  examples: IrRpcExample[];
  /**
   * Result types by the value of one param (`x-avaspec-result-by-param`):
   * the client gets one overload per value (`hydratedTransactions: true`
   * gives full transactions). Types only: the result schema still validates.
   */
  resultByParam?: { param: string; pointer: string; variants: { value: JsonValue; schema: IrSchema }[] };
}

export type IrOperation = IrHttpOperation | IrRpcOperation;

export interface OperationNames {
  /** Client method (`getChainInfo`). */
  method: string;
  /** Parameters type (`GetChainInfoParams`). */
  params: string;
  /** 2XX body / JSON-RPC result type (`GetChainInfoResponse`, or the schema's own name). */
  response: string;
  /** Exported operation descriptor (`getChainInfoOperation`). */
  descriptor: string;
  /** Exported validators of the params object and of the result. */
  validateParams: string;
  validateResult: string;
  /** The tree-shakable function of the operation (`getChainInfo(api, params)`, `cChainEthGetBalance(node, params)`). */
  function: string;
  /** HTTP operations that declare error responses: the union of the ApiErrors it throws for them (`GetOrderError`), and its guard (`isGetOrderError`). */
  error?: string;
  errorGuard?: string;
}

export interface ClientNames {
  factory: string;
  client: string;
  options: string;
  defaultBaseUrl: string;
  /** The map of result checks by descriptor (`dataApiResults`). */
  results: string;
  /** The function declaration listing the `[descriptor, check]` pairs behind `results` (`dataApiResultPairs`, not exported). */
  resultPairs: string;
  /** The state the operation functions share (`DataApiCore`) and its factory (`createDataApiCore`). */
  core: string;
  coreFactory: string;
  /** Where each JSON-RPC endpoint's WebSocket form is (`NODE_WEB_SOCKETS`), when the module has one. */
  webSockets?: string;
  /** The map of webhook payloads by webhook (`ShopWebhooks`) and its validator (`validateShopWebhook`), when the module has webhooks. */
  webhooks?: { payloads: string; validate: string };
  /** The exported advice of the document's root (`shopErrorAdvice`), when it has some. */
  advice?: string;
}

export interface IrServer {
  url: string;
  description?: string;
  variables: { name: string; default: string; enum?: string[]; description?: string }[];
}

export interface IrSource {
  file: string;
  format: "openapi" | "openrpc";
  version: string;
  title: string;
}

/**
 * One output module: the documents of one config input (usually one; the node
 * client merges many), with their schemas deduplicated and names assigned.
 */
export interface IrDocument {
  kind: "document";
  sources: IrSource[];
  info: { title: string; version: string; description?: string };
  servers: IrServer[];
  /** Base URL a client uses when given none. */
  defaultBaseUrl: string;
  securitySchemes: IrApiKeyScheme[];
  schemas: IrNamedSchema[];
  operations: IrOperation[];
  /** EIP-1193 providers: one per OpenRPC document marked `x-avaspec-eip1193: true`. */
  providers?: IrEip1193Provider[];
  /** WebSocket forms of JSON-RPC endpoints: one per OpenRPC document with a `ws:`/`wss:` server. */
  webSockets?: IrWebSocket[];
  /** OpenAPI 3.1 `webhooks` with a JSON request body: what the API sends to receivers the user runs. */
  webhooks?: IrWebhook[];
  /** `x-avaspec-deprecated-values` of each document: values its server no longer takes, warned about once when a request of that document carries one. */
  deprecatedValues?: IrDeprecatedValue[];
  /** JSON-RPC endpoints whose path holds server variables: each a group of the client that is a function of them. */
  endpointGroups?: IrEndpointGroup[];
  /** `x-avaspec-advice` at the root: what error messages advise by status, for every HTTP operation (ir/advice.ts). */
  advice?: Record<string, string>;
  /** `x-avaspec-limits` of each document that declares some at its root or on a server: its budget, plans and caps. */
  limits?: IrDocumentLimits[];
  /** Client-level names assigned by the naming pass. */
  names: ClientNames;
}

/**
 * The WebSocket form of one OpenRPC document's endpoint (a `ws:` or `wss:`
 * server): its methods can be called over the socket, at `path`, and its
 * subscriptions (`x-avaspec-subscriptions`) are served there.
 */
export interface IrWebSocket {
  kind: "websocket";
  /** The server's pointer. */
  pointer: string;
  file: string;
  /** Set by the module pass: the document's group and HTTP endpoint. */
  group: string[];
  endpoint: string;
  /** The WebSocket server's path (`/ext/bc/C/ws`). */
  path: string;
  subscriptions?: IrSubscriptions;
}

/** `x-avaspec-subscriptions` on a subscribe method: its kinds, their params, payloads and gap fillers. */
export interface IrSubscriptions {
  pointer: string;
  subscribe: string;
  unsubscribe: string;
  notification: string;
  /** The cheap method keep-alive sends. */
  probe?: string;
  kinds: IrSubscriptionKind[];
}

export interface IrSubscriptionKind {
  kind: string;
  pointer: string;
  params: { name: string; schema: IrSchema; required: boolean; description?: string }[];
  result: IrSchema;
  description?: string;
  /** `range`: `block` reads a block by number (`blockExtra` params after it), to find a fork point by block hash after an outage. */
  backfill?: { by: "blocks"; method: string; extra: JsonValue[] } | { by: "range"; method: string; head: string; block?: string; blockExtra?: JsonValue[]; filter?: string; key: string[] };
  /** Assigned by the naming pass: the exported descriptor (`cChainNewHeadsSubscription`) and payload type. */
  names?: { descriptor: string; payload: string; method: string };
}

/**
 * An EIP-1193 provider over the JSON-RPC methods of one OpenRPC document
 * (`x-avaspec-eip1193: true` at its root): `provider` on the client at
 * `group`, serving the document's methods (those whose `file` is `file`)
 * and forwarding others to `endpoint`.
 */
export interface IrEip1193Provider {
  kind: "eip1193";
  pointer: string;
  file: string;
  group: string[];
  endpoint: string;
  /** Assigned by the naming pass: the viem-style RpcSchema type and the exported descriptor list. */
  names?: { schema: string; methods: string };
}

/**
 * One operation of an OpenAPI 3.1 webhook: a request the API makes to a
 * receiver the user runs. Only its JSON request body (the payload) is
 * generated: a type and a validator for the receiver.
 */
export interface IrWebhook {
  kind: "webhook";
  /** The operation's pointer. */
  pointer: string;
  file: string;
  /** The webhook's key under `webhooks`. */
  name: string;
  method: IrHttpTransport["method"];
  /**
   * Its entry in the payload map, assigned by the naming pass: the name, or
   * `POST name` when the webhook has a body on several methods (another
   * document's webhook of the same name: qualified by its file).
   */
  key: string;
  contentType: string;
  /** A ref to the named schema of the payload (an inline one is named for the webhook). */
  payload: IrSchema;
  summary?: string;
  description?: string;
}

/**
 * One entry of a document's `x-avaspec-deprecated-values`: a value of a
 * named schema that the document's server no longer takes. Applies to the
 * operations of `file` only, wherever their params reach the schema.
 */
export interface IrDeprecatedValue {
  kind: "deprecated-value";
  pointer: string;
  file: string;
  /** Key of the named schema (rewritten by the module pass when schemas merge). */
  target: string;
  /** The schema's name in the spec, for the warning. */
  schemaName: string;
  value: JsonValue;
  deprecatedIn?: string;
  removedIn?: string;
  message?: string;
  /** The module constant holding the notice, assigned by the naming pass. */
  noticeName?: string;
}

/**
 * A JSON-RPC endpoint whose server URL holds variables in its path
 * (`/ext/bc/{blockchainId}/rpc`): the operations of its documents sit below
 * `group`, which the client makes a function of the variables
 * (`node.l1({ blockchainId })`); their descriptors' endpoints keep the
 * `{name}` placeholders, which the runtime fills in (percent-encoded).
 */
export interface IrEndpointGroup {
  kind: "endpoint-group";
  /** The server's pointer in the first document. */
  pointer: string;
  file: string;
  /** Every document whose operations sit below `group`. */
  files: string[];
  /** Set by the module pass: the document's group, or `at` for one without. */
  group: string[];
  /** The group is the member `at` the module pass made for a document without a group (it names no type). */
  synthetic?: true;
  /** The first document's endpoint path, variables kept (`/ext/bc/{blockchainId}/rpc`). */
  path: string;
  variables: IrServer["variables"];
  /** Assigned by the naming pass: the type of the variables' object (`L1Endpoint`). */
  names?: { type: string };
}
