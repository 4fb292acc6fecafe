/**
 * JSON-RPC endpoints whose path holds variables (an OpenRPC server such as
 * `…/ext/bc/{blockchainId}/rpc`): the descriptors keep the `{name}`
 * placeholders in `endpoint`, and these helpers bind them to values, with
 * the rules of an HTTP path parameter (percent-encoded; empty, `.` and `..`
 * refused), so a value can never change which path is called. Only modules
 * with such endpoints import this file.
 */
import { ValidationError } from "../errors/errors.js";
import { dotSegment, type CallOptions } from "../http/http.js";
import type { RpcCall, RpcMethod } from "./jsonrpc.js";
import { hasOwn } from "../values/validate.js";

/** Values of an endpoint's path variables: `{ blockchainId: "2q9e…" }`. */
export type EndpointVariables = Readonly<Record<string, string>>;

/**
 * The descriptor at a concrete endpoint: each `{name}` of its endpoint
 * replaced by the variable's value, percent-encoded. The descriptor itself
 * when its endpoint has no variables. A missing value, one that is not a
 * string, or one that would name another path (empty, `.`, `..`) is a
 * ValidationError naming the variable.
 */
export function bindEndpoint<M extends RpcMethod>(m: M, variables: EndpointVariables): M {
  if (!m.endpoint.includes("{")) return m;
  const endpoint = m.endpoint.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v: unknown = variables !== null && typeof variables === "object" && hasOwn(variables, name) ? variables[name] : undefined;
    const fail = (message: string): never => {
      throw new ValidationError(`${m.method}: ${message}`, { request: { operationId: m.method, method: "POST", url: m.endpoint }, issues: [{ path: `/${name}`, message }] });
    };
    if (typeof v !== "string") return fail(v === undefined ? `missing the endpoint variable "${name}" (${m.endpoint})` : `the endpoint variable "${name}" must be a string`);
    // encoded as a path parameter is (the default `simple` style of a string), with the same refusal of dot segments
    const encoded = encodeURIComponent(v);
    if (dotSegment(encoded)) return fail(`the endpoint variable "${name}" must not be ${v === "" ? "empty" : JSON.stringify(v)}`);
    return encoded;
  });
  // the unbound descriptor keeps its place in the module's result checks
  return { ...m, endpoint, template: m.template ?? m };
}

/** A call that sends every descriptor to its endpoint with these variables (a bad value rejects that call alone). */
export function endpointCall(call: RpcCall, variables: EndpointVariables): RpcCall {
  return <P, R>(m: RpcMethod<P, R>, params: P, options?: CallOptions) => {
    let bound: RpcMethod<P, R>;
    try {
      bound = bindEndpoint(m, variables);
    } catch (error) {
      return Promise.reject(error);
    }
    return call(bound, params, options);
  };
}

/**
 * A functional-form core bound to one endpoint: the same transport (its
 * batching included), with the variables the functions of that endpoint's
 * methods need: `l1EthChainId(withEndpoint(node, { blockchainId }))`.
 */
export function withEndpoint<C extends object, V extends EndpointVariables>(core: C, endpoint: V): C & { readonly endpoint: V } {
  return { ...core, endpoint };
}
