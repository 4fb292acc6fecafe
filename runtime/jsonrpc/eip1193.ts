/**
 * EIP-1193 providers over the JSON-RPC transport: `request({ method, params })`
 * with the params array as on the wire, so viem (`custom(provider)`) and
 * ethers (`new BrowserProvider(provider)`) run over avaspec's retries,
 * batching, timeouts and typed errors. Kept apart from jsonrpc.ts: a bundle
 * that does not use a provider does not carry it.
 */
import { AbortError, AvaspecError, RateLimitError, RpcError, ValidationError, isRecord } from "../errors/errors.js";
import type { RpcCall, RpcMethod } from "./jsonrpc.js";
import { hasOwn, setOwn } from "../values/validate.js";

/** One method in viem's `RpcSchema` shape: wire name, positional params, result. */
export interface RpcSchemaEntry {
  readonly Method: string;
  readonly Parameters?: unknown;
  readonly ReturnType: unknown;
}

/** The `request` argument of each method of a schema: `params` may be left out where the schema's `Parameters` is optional. */
export type Eip1193RequestArguments<S extends readonly RpcSchemaEntry[]> = {
  [K in keyof S]: S[K] extends RpcSchemaEntry
    ? undefined extends S[K]["Parameters"]
      ? { readonly method: S[K]["Method"]; readonly params?: S[K]["Parameters"] | readonly [] }
      : { readonly method: S[K]["Method"]; readonly params: S[K]["Parameters"] }
    : never;
}[number];

/** The result of `method` in the schema. */
export type Eip1193Result<S extends readonly RpcSchemaEntry[], M> = Extract<S[number], { readonly Method: M }>["ReturnType"];

/**
 * An EIP-1193 provider for the methods of `S`. Over HTTP there are no
 * subscriptions: `on` and `removeListener` accept listeners and never call
 * them (no `connect`, `chainChanged` or `message` events).
 */
export interface Eip1193Provider<S extends readonly RpcSchemaEntry[] = readonly RpcSchemaEntry[]> {
  /** `options.signal` (viem passes one where it has it) aborts the call, which then goes out alone, outside `batch.auto`. */
  request<A extends Eip1193RequestArguments<S>>(args: A, options?: { signal?: AbortSignal }): Promise<Eip1193Result<S, A["method"]>>;
  on(event: string, listener: (...args: any[]) => void): this;
  removeListener(event: string, listener: (...args: any[]) => void): this;
}

export interface Eip1193ProviderOptions {
  /**
   * A method the document does not declare: `"forward"` (default) sends it
   * as given and returns what the server answers; `"reject"` fails it with
   * code 4200 (EIP-1193 "Unsupported Method") without sending anything.
   */
  unknownMethods?: "forward" | "reject";
}

/**
 * An error as EIP-1193 shapes them (numeric `code`, `message`, `data`) for a
 * failure that is not a JSON-RPC error object: 4200 for a method the
 * provider rejects, -32602 for params the method's check rejects, -32005
 * (limit exceeded) for HTTP 429, -32603 for any other transport failure
 * (HTTP status, timeout, network, unreadable reply). `cause` is avaspec's
 * error. JSON-RPC error replies are thrown as the client's `RpcError`
 * classes, which carry `code` and `data` already.
 */
export class ProviderRpcError extends AvaspecError {
  override name = "ProviderRpcError";
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, options?: { cause?: unknown; data?: unknown }) {
    super(message, options?.cause instanceof AvaspecError ? options.cause.request : undefined, options);
    this.code = code;
    this.data = options?.data;
  }
}

function providerError(error: unknown): unknown {
  if (error instanceof RpcError || error instanceof AbortError || !(error instanceof AvaspecError)) return error;
  if (error instanceof ValidationError) return new ProviderRpcError(-32602, error.message, { cause: error, data: error.issues });
  if (error instanceof RateLimitError) return new ProviderRpcError(-32005, error.message, { cause: error });
  return new ProviderRpcError(-32603, error.message, { cause: error });
}

/** A descriptor that sends `params` as given: positional array or by-name object, unchecked. */
function raw(m: RpcMethod, params: unknown): [RpcMethod, object] {
  if (isRecord(params)) return [{ ...m, form: "by-name", check: undefined, params: Object.keys(params).map((name) => ({ name })) }, params];
  const list = Array.isArray(params) ? params : [];
  const object: Record<string, unknown> = {};
  list.forEach((v, i) => setOwn(object, String(i), v));
  return [{ ...m, form: "by-position", check: undefined, params: list.map((_, i) => ({ name: String(i) })) }, object];
}

/**
 * The params object the descriptor takes, from the EIP-1193 params (the
 * wire form), or undefined when they do not fit the declared form (more
 * positional params than declared, an object where an array is expected):
 * then they are sent as given.
 */
function named(m: RpcMethod, params: unknown): object | undefined {
  if (params === undefined) return {};
  switch (m.form) {
    case "by-name":
      return isRecord(params) ? params : Array.isArray(params) && params.length === 0 ? {} : undefined;
    case "one-object":
      return Array.isArray(params) && params.length === 1 && isRecord(params[0]) ? params[0] : undefined;
    case "by-position": {
      if (!Array.isArray(params) || params.length > m.params.length) return undefined;
      const object: Record<string, unknown> = {};
      params.forEach((v, i) => {
        if (v !== undefined) setOwn(object, m.params[i]!.name, v);
      });
      return object;
    }
  }
}

/**
 * An EIP-1193 provider whose `request` sends over `call` (a client's
 * transport): a declared method through its descriptor (params checked,
 * declared error classes, result unwrapped and checked as the client does),
 * any other method to `endpoint` as given, or rejected with 4200 (see
 * `unknownMethods`).
 */
export function createEip1193Provider<S extends readonly RpcSchemaEntry[] = readonly RpcSchemaEntry[]>(
  call: RpcCall,
  endpoint: string,
  methods: readonly RpcMethod[],
  options: Eip1193ProviderOptions = {},
): Eip1193Provider<S> {
  const byName = new Map<string, RpcMethod>();
  for (const m of methods) byName.set(m.method, m);
  const provider: Eip1193Provider<S> = {
    async request(args: unknown, requestOptions?: { signal?: AbortSignal }) {
      if (!isRecord(args) || typeof args["method"] !== "string") throw new ProviderRpcError(-32600, "request() takes { method: string, params?: unknown[] | object }");
      const method = args["method"];
      const params = hasOwn(args, "params") ? args["params"] : undefined;
      if (params !== undefined && params !== null && typeof params !== "object") throw new ProviderRpcError(-32602, `${method}: params must be an array or an object`);
      const declared = byName.get(method);
      if (!declared && options.unknownMethods === "reject") throw new ProviderRpcError(4200, `${method} is not a method of this provider`);
      const object = declared ? named(declared, params ?? undefined) : undefined;
      const [m, p] = declared && object ? [declared, object] : raw(declared ?? { method, endpoint, form: "by-position", params: [] }, params);
      try {
        // EIP-1193 results are the wire's JSON: integers stay hex strings whatever the client's `numbers`
        return await call(m, p, requestOptions?.signal ? { signal: requestOptions.signal, numbers: "string" } : { numbers: "string" });
      } catch (error) {
        throw providerError(error);
      }
    },
    on() {
      return provider;
    },
    removeListener() {
      return provider;
    },
  } as Eip1193Provider<S>;
  return provider;
}
