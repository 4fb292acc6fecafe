/**
 * A call's status and headers beside its typed body (a 201's `Location`,
 * rate-limit headers, an `ETag`), in every form of call:
 *
 *   const { data, headers } = await shop.createOrder.withResponse({ body });  // client object
 *   const { data, status } = await withResponse(createOrder, core, { body }); // functional form
 *   await callHttpWithResponse(config, createOrderOperation, { body });       // descriptors
 *
 * Each records the answer through the `onResponse` hook of a copy of the
 * config made for that one call (the client's own hook still runs), so
 * `callHttp` holds no code for it: a bundle that never asks for a response
 * has nothing of this module.
 */
import { callHttp, type CallOptions, type HttpClientOptions, type HttpConfig, type HttpOperation } from "./http.js";
import type { ResponseEvent } from "./send.js";

/** A call's typed body with the response it came in. */
export interface ApiResponse<T> {
  /** The body, as the call without `withResponse` returns it. */
  readonly data: T;
  readonly status: number;
  readonly headers: Headers;
  /** The URL the request went to, without credentials: a relative `Location` resolves against it. */
  readonly url: string;
}

/** An HTTP operation on a client object: call it for the typed body, or its `withResponse` for the status and headers too. */
export interface HttpMethod<P, R> {
  (params: P, options?: CallOptions): Promise<R>;
  /** The same call, resolving to the body with its status, headers and URL. */
  withResponse(params: P, options?: CallOptions): Promise<ApiResponse<R>>;
}

/** What the functional form's cores hold that a call reads (`create…Core`). */
export interface HttpCore {
  readonly options: HttpClientOptions;
  http?: HttpConfig;
}

type OnResponse = HttpClientOptions["onResponse"];

/** A hook that keeps the last answer (an attempt that got a status) and then calls `hook`. */
function recorder(): { record: (hook: OnResponse) => NonNullable<OnResponse>; answer: <T>(data: T) => ApiResponse<T> } {
  let last: ResponseEvent | undefined;
  return {
    record: (hook) => (event) => {
      if (event.status !== undefined) last = event;
      return hook?.(event);
    },
    answer: (data) => ({ data, status: last!.status!, headers: last!.headers!, url: last!.url }),
  };
}

/** `callHttp` resolving to the body with its status, headers and URL. */
export async function callHttpWithResponse<P, R>(config: HttpConfig, op: HttpOperation<P, R>, params: P, options?: CallOptions): Promise<ApiResponse<R>> {
  const { record, answer } = recorder();
  return answer(await callHttp({ ...config, onResponse: record(config.onResponse) }, op, params, options));
}

/** A client object's member for an operation: the call, and the call with its response. */
export function httpMethod<P, R>(config: HttpConfig, op: HttpOperation): HttpMethod<P, R> {
  return Object.assign((params: P, options?: CallOptions) => callHttp(config, op as HttpOperation<P, R>, params, options), {
    withResponse: (params: P, options?: CallOptions) => callHttpWithResponse(config, op as HttpOperation<P, R>, params, options),
  });
}

/**
 * The functional form's call with its response: `withResponse(createOrder,
 * core, params, options)` calls `createOrder(core, params, options)` and
 * resolves to the body with its status, headers and URL.
 */
export async function withResponse<C extends HttpCore, A extends unknown[], R>(fn: (core: C, ...args: A) => Promise<R>, core: C, ...args: A): Promise<ApiResponse<R>> {
  const { record, answer } = recorder();
  // a core whose HTTP options are settled on its first call (a module with JSON-RPC too) settles the copy's from its options
  const copy: C = { ...core, options: { ...core.options, onResponse: record(core.options.onResponse) }, http: core.http && { ...core.http, onResponse: record(core.http.onResponse) } };
  return answer(await fn(copy, ...args));
}
