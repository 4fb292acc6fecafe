/**
 * Issue 30 (2, 3): other people's APIs, first class. The shop fixture
 * (test/fixtures/shop-31, an ordinary OpenAPI 3.1 API) against a real
 * node:http server on 127.0.0.1:
 * - typed errors: RFC 9457 problem details and other common error bodies
 *   feed the message, each declared status has its own body, the generated
 *   `is…Error` guards take exactly what the spec declares, and the advice
 *   comes from the spec (`x-avaspec-advice`) or the client's `errorAdvice`,
 *   never from Avalanche's wording;
 * - responses with metadata: a 201's `Location` through
 *   `client.createOrder.withResponse`, the functional form's `withResponse`
 *   and `callHttpWithResponse`, the client's own `onResponse` still called.
 * The Data API keeps its `{ message, statusCode, error }` bodies, typed.
 * The types are checked by test/types/errors.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cancelOrder, createOrder, createOrderOperation, createShopClient, createShopCore, isCancelOrderError, isCreateOrderError, isGetOrderError, isListOrdersError, shopErrorAdvice } from "../fixtures/shop-31/golden/src/shop/index.js";
import { ApiError, NotFoundError, isOperationError } from "../fixtures/shop-31/golden/src/runtime/errors/index.js";
import { callHttpWithResponse, resolveHttpConfig, withResponse } from "../fixtures/shop-31/golden/src/runtime/http/index.js";
import type { ResponseEvent } from "../fixtures/shop-31/golden/src/runtime/http/send.js";
import { createMixedClient, createMixedCore, isShopGetOrderError, shopCreateOrder } from "../fixtures/shop-31/golden/src/mixed/index.js";
import { createDataApiClient, createDataApiCore, dataApiErrorAdvice, getChainInfo, isGetChainInfoError } from "@avaspec/client/data-api";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.requests.splice(0));

const problem = { "content-type": "application/problem+json" };
const caught = (p: Promise<unknown>) => p.then(() => expect.unreachable("the call should have failed"), (e: unknown) => e);

describe("error bodies feed the message, typed by the declared status", () => {
  it("a problem+json 404 says its title and detail, and the spec's advice for it", async () => {
    server.reply(() => ({ status: 404, headers: problem, body: { type: "https://shop.example.com/problems/no-order", title: "Order not found", status: 404, detail: "No order has the id ord_42.", instance: "/v1/orders/ord_42" } }));
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, retry: false });
    const e = await caught(shop.getOrder({ orderId: "ord_42" }));
    expect(e).toBeInstanceOf(NotFoundError);
    const error = e as NotFoundError;
    expect(error.message).toBe("getOrder failed with 404 Not Found: Order not found; No order has the id ord_42. Check the order id; listOrders lists the orders there are.");
    expect(error.messages).toEqual(["Order not found", "No order has the id ord_42."]);
    expect(isGetOrderError(e)).toBe(true);
    if (isGetOrderError(e) && e.statusCode === 404) expect(e.body?.instance).toBe("/v1/orders/ord_42");
    // another operation's guard does not take it
    expect(isCreateOrderError(e)).toBe(false);
    expect(server.requests[0]!.url).toBe("/v1/orders/ord_42");
  });

  it("a 422 has its own body: each error's pointer and detail are in the message", async () => {
    server.reply(() => ({ status: 422, headers: problem, body: { title: "Invalid order", errors: [{ pointer: "/quantity", detail: "must be at least 1" }, { pointer: "/sku", detail: "unknown sku" }] } }));
    const shop = createShopClient({ baseUrl: `${server.url}/v1` });
    const e = await caught(shop.createOrder({ body: { sku: "tea", quantity: 1 } }));
    expect((e as Error).message).toBe("createOrder failed with 422 Unprocessable Entity: Invalid order; /quantity: must be at least 1; /sku: unknown sku. Fix the fields `errors` points at, then place the order again.");
    expect(isCreateOrderError(e) && e.statusCode === 422 ? e.body?.errors.map((x) => x.pointer) : undefined).toEqual(["/quantity", "/sku"]);
  });

  it("the spec's root advice covers the statuses no response advises on (5XX); `default` makes every status declared", async () => {
    server.reply(() => ({ status: 503, headers: problem, body: { title: "Maintenance" } }));
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, retry: false });
    const e = await caught(shop.getOrder({ orderId: "ord_1" }));
    expect((e as Error).message).toBe("getOrder failed with 503 Service Unavailable: Maintenance. The shop is having trouble; try again in a minute.");
    expect(isGetOrderError(e)).toBe(true);
    expect(isListOrdersError(e)).toBe(false);
  });

  it("an operation without `default` declares only its statuses: a 500 is a plain ApiError the guard does not take", async () => {
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, retry: false });
    server.reply(() => ({ status: 500, body: { message: "database on fire" } }));
    const e500 = await caught(shop.cancelOrder({ orderId: "ord_1" }));
    expect(e500).toBeInstanceOf(ApiError);
    expect(isCancelOrderError(e500)).toBe(false);
    // 409 is declared, and so is every other 4XX (the range)
    server.reply(() => ({ status: 409, body: { error: "already_shipped", error_description: "The order left the warehouse on Monday." } }));
    const e409 = await caught(shop.cancelOrder({ orderId: "ord_1" }));
    expect((e409 as Error).message).toBe("cancelOrder failed with 409 already_shipped: The order left the warehouse on Monday.");
    expect(isCancelOrderError(e409) && e409.statusCode === 409 ? e409.body?.error : undefined).toBe("already_shipped");
    server.reply(() => ({ status: 410, body: { message: "archived" } }));
    const e410 = await caught(shop.cancelOrder({ orderId: "ord_1" }));
    expect(isCancelOrderError(e410)).toBe(true);
    expect((e410 as ApiError).messages).toEqual(["archived"]);
  });

  it("other common shapes: an error object's message, a list of messages, errors[].message", async () => {
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, retry: false });
    const messagesOf = async (body: unknown) => {
      server.reply(() => ({ status: 400, body }));
      return ((await caught(shop.getOrder({ orderId: "ord_1" }))) as ApiError).messages;
    };
    expect(await messagesOf({ error: { code: 3, message: "orderId is malformed" } })).toEqual(["orderId is malformed"]);
    expect(await messagesOf({ message: ["first", "second", "first"] })).toEqual(["first", "second"]);
    expect(await messagesOf({ errors: [{ message: "a" }, "b", { field: "orderId", message: "too long" }] })).toEqual(["a", "b", "orderId: too long"]);
    expect(await messagesOf("not an object")).toEqual([]);
  });

  it("advice is a spec string like any other: written through the escaping choke point, said as the spec wrote it", async () => {
    server.reply(() => ({ status: 403, body: {} }));
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, retry: false });
    expect(((await caught(shop.getOrder({ orderId: "x" }))) as Error).message).toBe("getOrder failed with 403 Forbidden. Not yours: */ \" ` ${x} </script>\n\u2028 ask the owner.");
    expect(shopErrorAdvice["403"]).toBe("Not yours: */ \" ` ${x} </script>\n\u2028 ask the owner.");
  });

  it("the client's errorAdvice comes before the spec's, status by status; an empty one says nothing", async () => {
    server.reply(() => ({ status: 404, headers: problem, body: { title: "Order not found" } }));
    const mine = createShopClient({ baseUrl: `${server.url}/v1`, retry: false, errorAdvice: { "404": "Ask support.", "5XX": "" } });
    expect(((await caught(mine.getOrder({ orderId: "x" }))) as Error).message).toBe("getOrder failed with 404 Not Found: Order not found. Ask support.");
    server.reply(() => ({ status: 502, body: {} }));
    expect(((await caught(mine.getOrder({ orderId: "x" }))) as Error).message).toBe("getOrder failed with 502 Bad Gateway.");
  });

  it("the functional form carries the spec's root advice only when given as errorAdvice (its bundles hold no texts otherwise)", async () => {
    server.reply(() => ({ status: 500, body: {} }));
    const bare = createShopCore({ baseUrl: `${server.url}/v1`, retry: false });
    expect(((await caught(cancelOrder(bare, { orderId: "x" }))) as Error).message).toBe("cancelOrder failed with 500 Internal Server Error.");
    const advised = createShopCore({ baseUrl: `${server.url}/v1`, retry: false, errorAdvice: shopErrorAdvice });
    expect(((await caught(cancelOrder(advised, { orderId: "x" }))) as Error).message).toBe("cancelOrder failed with 500 Internal Server Error. The shop is having trouble; try again in a minute.");
  });

  it("a Retry-After beyond the cap is said with the wait", async () => {
    server.reply(() => ({ status: 429, headers: { "retry-after": "3600" }, body: { title: "Slow down" } }));
    const shop = createShopClient({ baseUrl: `${server.url}/v1` });
    const e = (await caught(shop.getOrder({ orderId: "x" }))) as ApiError;
    expect(e.message).toBe("getOrder failed with 429 Too Many Requests: Slow down. The server asks to wait 3600 s (retryAfterMs).");
    expect(server.requests).toHaveLength(1);
  });

  it("isOperationError takes codes and ranges, and only ApiErrors of that operation", () => {
    const error = new ApiError({ request: { operationId: "getOrder", method: "GET", url: "/" }, statusCode: 418, statusText: "", body: undefined, rawBody: "", headers: new Headers() });
    expect(isOperationError(error, "getOrder", ["4XX"])).toBe(true);
    expect(isOperationError(error, "getOrder", [404, "5XX"])).toBe(false);
    expect(isOperationError(error, "getOrder")).toBe(true);
    expect(isOperationError(error, "cancelOrder")).toBe(false);
    expect(isOperationError(new Error("x"), "getOrder")).toBe(false);
  });
});

describe("responses with status and headers", () => {
  const placed = { id: "ord_7", sku: "tea", quantity: 2, status: "placed" };
  beforeEach(() => server.reply(() => ({ status: 201, headers: { location: "/v1/orders/ord_7", "x-request-id": "r-1" }, body: placed })));

  it("client object: createOrder.withResponse gives the typed body, the 201 and its Location; the client's onResponse still runs", async () => {
    const seen: ResponseEvent[] = [];
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, onResponse: (e) => void seen.push(e) });
    const { data, status, headers, url } = await shop.createOrder.withResponse({ body: { sku: "tea", quantity: 2 } });
    expect(data).toEqual(placed);
    expect(status).toBe(201);
    expect(headers.get("location")).toBe("/v1/orders/ord_7");
    expect(new URL(headers.get("location")!, url).href).toBe(`${server.url}/v1/orders/ord_7`);
    expect(seen.map((e) => e.status)).toEqual([201]);
    // the plain call is unchanged
    expect(await shop.createOrder({ body: { sku: "tea", quantity: 2 } })).toEqual(placed);
  });

  it("functional form: withResponse(createOrder, core, params)", async () => {
    const core = createShopCore({ baseUrl: `${server.url}/v1` });
    const { data, status, headers } = await withResponse(createOrder, core, { body: { sku: "tea", quantity: 2 } });
    expect([data, status, headers.get("location")]).toEqual([placed, 201, "/v1/orders/ord_7"]);
    expect(core.http?.onResponse).toBeUndefined();
  });

  it("descriptors: callHttpWithResponse; a paged method's withResponse returns one page with its headers", async () => {
    const config = resolveHttpConfig({}, `${server.url}/v1`);
    const r = await callHttpWithResponse(config, createOrderOperation, { body: { sku: "tea", quantity: 2 } });
    expect(r.headers.get("x-request-id")).toBe("r-1");
    server.reply(() => ({ status: 200, headers: { "x-total-count": "1" }, body: { orders: [placed], nextCursor: null } }));
    const page = await createShopClient({ baseUrl: `${server.url}/v1` }).listOrders.withResponse();
    expect([page.data.orders.length, page.headers.get("x-total-count")]).toEqual([1, "1"]);
  });

  it("a retried call answers with the response that succeeded; a 204 has no body but its headers", async () => {
    let n = 0;
    server.reply(() => (n++ === 0 ? { status: 503, body: {} } : { status: 204, headers: { "x-cancelled": "yes" } }));
    const shop = createShopClient({ baseUrl: `${server.url}/v1`, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    const r = await shop.cancelOrder.withResponse({ orderId: "ord_7" });
    expect([r.data, r.status, r.headers.get("x-cancelled")]).toEqual([undefined, 204, "yes"]);
    expect(server.requests).toHaveLength(2);
  });

  it("a module with JSON-RPC methods too (client code in client.ts): the same guards, advice and withResponse", async () => {
    const mixed = createMixedClient({ baseUrl: `${server.url}/v1` });
    const { status, headers } = await mixed.shop.createOrder.withResponse({ body: { sku: "tea", quantity: 2 } });
    expect([status, headers.get("location")]).toEqual([201, "/v1/orders/ord_7"]);
    // the core settles its HTTP options on the first HTTP call: withResponse's copy settles its own
    const core = createMixedCore({ baseUrl: `${server.url}/v1` });
    expect(core.http).toBeUndefined();
    expect((await withResponse(shopCreateOrder, core, { body: { sku: "tea", quantity: 2 } })).headers.get("x-request-id")).toBe("r-1");
    server.reply(() => ({ status: 500, headers: problem, body: { title: "Oops" } }));
    const e = await caught(createMixedClient({ baseUrl: `${server.url}/v1`, retry: false }).shop.getOrder({ orderId: "x" }));
    expect(isShopGetOrderError(e)).toBe(true);
    expect((e as Error).message).toBe("getOrder failed with 500 Internal Server Error: Oops. The shop is having trouble; try again in a minute.");
  });

  it("a failed call rejects as without withResponse", async () => {
    server.reply(() => ({ status: 404, headers: problem, body: { title: "Order not found" } }));
    const e = await caught(createShopClient({ baseUrl: `${server.url}/v1`, retry: false }).getOrder.withResponse({ orderId: "x" }));
    expect(isGetOrderError(e)).toBe(true);
  });
});

describe("the Data API's errors keep their body and message, now typed", () => {
  const body = { message: "Chain 99999 not found", statusCode: 404, error: "Not Found" };

  it("client object: message intact, body typed by the declared status, the spec's advice for a 401", async () => {
    server.reply(() => ({ status: 404, body }));
    const data = createDataApiClient({ baseUrl: server.url, retry: false });
    const e = await caught(data.getChainInfo({ chainId: "99999" }));
    expect((e as Error).message).toBe("getChainInfo failed with 404 Not Found: Chain 99999 not found.");
    expect(isGetChainInfoError(e) && e.statusCode === 404 ? e.body?.message : undefined).toBe("Chain 99999 not found");
    server.reply(() => ({ status: 401, body: { message: "Invalid API key", statusCode: 401, error: "Unauthorized" } }));
    expect(((await caught(data.getChainInfo({ chainId: "43114" }))) as Error).message).toBe("getChainInfo failed with 401 Unauthorized: Invalid API key. Check the apiKey option: the key is malformed, unknown or revoked.");
  });

  it("functional form: the same error, with the spec's advice when given as errorAdvice", async () => {
    server.reply(() => ({ status: 401, body: { message: "Invalid API key", statusCode: 401, error: "Unauthorized" } }));
    const core = createDataApiCore({ baseUrl: server.url, retry: false, errorAdvice: dataApiErrorAdvice });
    const e = await caught(getChainInfo(core, { chainId: "43114" }));
    expect(isGetChainInfoError(e)).toBe(true);
    expect((e as Error).message).toBe("getChainInfo failed with 401 Unauthorized: Invalid API key. Check the apiKey option: the key is malformed, unknown or revoked.");
  });
});
