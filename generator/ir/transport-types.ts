/**
 * How an operation travels, in the IR: an HTTP method and path, or a
 * JSON-RPC method and its params form; and the API-key schemes a request
 * may carry. Re-exported by types.ts.
 */

export interface IrHttpTransport {
  kind: "http";
  /** The path item's pointer. */
  pointer: string;
  /**
   * A path item's fixed field in lowercase (`get` … `trace`, 3.2's `query`),
   * or a 3.2 `additionalOperations` key exactly as the document writes it
   * (sent with that capitalization; see load/operations.ts's wireMethod).
   */
  method: string;
  path: string;
}

/**
 * How JSON-RPC params travel: an object by name, an array by position, or an
 * array holding one object (a by-position method whose single required param
 * is an object with properties: callers pass that object's fields).
 */
export type RpcParamForm = "by-name" | "by-position" | "one-object";

export interface IrRpcTransport {
  kind: "json-rpc";
  pointer: string;
  /** The method name on the wire (`info.getNodeVersion`, `eth_baseFee`). */
  method: string;
  form: RpcParamForm;
}

export interface IrApiKeyScheme {
  kind: "api-key";
  id: string;
  pointer: string;
  name: string;
  in: "header" | "query" | "cookie";
  description?: string;
  /** The scheme a client's `apiKey` goes under where an operation takes several (`x-avaspec-preferred: true`). */
  preferred?: true;
}
