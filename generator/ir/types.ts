/**
 * The intermediate representation: plain, kind-tagged data that every emitter
 * reads instead of the raw spec. Every node keeps the JSON pointer of the spec
 * node it came from so later passes can report `file:line:col`.
 *
 * Schemas use one JSON-Schema-like model for OpenAPI 3.0 (`nullable`,
 * boolean `exclusiveMinimum`), OpenAPI 3.1 / 2020-12 (type arrays) and
 * draft-07 (OpenRPC): the builders normalise those dialects into it.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

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
}

/** A reference to a named schema. */
export interface IrRefSchema extends IrSchemaMeta {
  kind: "ref";
  /** `pointer` of the target in `IrDocument.schemas` (unique, stable). */
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
  /** Present (even when the value is null) only when the schema has `const`. */
  const?: { value: JsonValue };
  format?: string;
  // strings
  minLength?: number;
  maxLength?: number;
  pattern?: string;
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

export type IrSchema = IrRefSchema | IrBooleanSchema | IrObjectLikeSchema;

/** A schema with a name of its own (`components.schemas`, OpenRPC `components.schemas`). */
export interface IrNamedSchema {
  kind: "named-schema";
  /** The component key (or, for a schema promoted from elsewhere, its pointer). */
  id: string;
  /** TypeScript name, assigned by the naming pass. */
  name: string;
  pointer: string;
  schema: IrSchema;
}

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface IrParameter {
  kind: "parameter";
  pointer: string;
  name: string;
  in: ParameterLocation;
  required: boolean;
  deprecated: boolean;
  description?: string;
  style: "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  explode: boolean;
  schema: IrSchema;
  example?: JsonValue;
}

export interface IrMediaContent {
  contentType: string;
  schema: IrSchema;
  example?: JsonValue;
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
  /** True for 2XX statuses (and ranges), false for everything else. */
  success: boolean;
  description: string;
  content: IrMediaContent[];
  /** Id of the shared response component this came from, when it was a `$ref`. */
  componentId?: string;
}

export interface IrHttpTransport {
  kind: "http";
  /** The path item's pointer. */
  pointer: string;
  method: "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
  path: string;
}

export interface IrApiKeyScheme {
  kind: "api-key";
  id: string;
  pointer: string;
  name: string;
  in: "header" | "query" | "cookie";
  description?: string;
}

export interface IrOperation {
  kind: "operation";
  pointer: string;
  /** operationId as written in the spec; "" when the spec has none. */
  id: string;
  /** Names assigned by the naming pass (empty until then). */
  names: OperationNames;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  transport: IrHttpTransport;
  parameters: IrParameter[];
  requestBody?: IrRequestBody;
  responses: IrResponse[];
  /** Schemes any one of which authenticates; `optional` when `{}` is allowed too. */
  security: { schemes: string[]; optional: boolean };
}

export interface OperationNames {
  /** Client method (`getChainInfo`). */
  method: string;
  /** Parameters type (`GetChainInfoParams`). */
  params: string;
  /** 2XX body type (`GetChainInfoResponse`). */
  response: string;
  /** Exported operation descriptor (`getChainInfoOperation`). */
  descriptor: string;
}

export interface ClientNames {
  factory: string;
  client: string;
  options: string;
  defaultBaseUrl: string;
}

export interface IrServer {
  url: string;
  description?: string;
  variables: { name: string; default: string; enum?: string[]; description?: string }[];
}

export interface IrDocument {
  kind: "document";
  source: { file: string; format: "openapi"; version: string };
  info: { title: string; version: string; description?: string };
  servers: IrServer[];
  securitySchemes: IrApiKeyScheme[];
  schemas: IrNamedSchema[];
  operations: IrOperation[];
  /** Client-level names assigned by the naming pass. */
  names: ClientNames;
}
