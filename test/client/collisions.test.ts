/**
 * test/fixtures/collisions-31: parameters sharing a name across locations (and
 * with the body) each keep their wire name and get their own property; the
 * keyword `new` and `constructor` are methods; `then` is renamed so the client
 * is never thenable; an operationId that starts with a digit gets `_` in
 * front of its method and type names; enum/const values of the wrong type
 * compile and never match. Against a real loopback server.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient, type _547636a6f918230da8553640Params } from "../fixtures/collisions-31/golden/src/api/client.js";
import { validateItem } from "../fixtures/collisions-31/golden/src/api/validators.js";
import { ValidationError } from "../fixtures/collisions-31/golden/src/runtime/errors/errors.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  server.reply(() => ({ body: { name: "x" } }));
});
afterAll(() => server.close());

it("sends each same-named parameter to its own location, under its own property", async () => {
  const client = createApiClient({ baseUrl: server.url, retry: false });
  await client.new({ id: "p", id_query2: 7, id_header: "h", id_query: "q" });
  const req = server.requests.at(-1)!;
  expect(req.url).toBe("/items/p?id=7&id_query=q");
  expect(req.headers["id"]).toBe("h");
});

it("checks the renamed properties before sending, naming them", async () => {
  const client = createApiClient({ baseUrl: server.url, retry: false });
  const before = server.requests.length;
  await expect(client.new({ id: "p", id_query2: "seven" as unknown as number })).rejects.toThrow(ValidationError);
  await expect(client.new({ id: "p", id_query2: "seven" as unknown as number })).rejects.toThrow(/id_query2/);
  expect(server.requests.length).toBe(before);
});

it("keeps a query parameter named body apart from the request body", async () => {
  const client = createApiClient({ baseUrl: server.url, retry: false });
  await client.then2({ id: "p", body_query: "b", body: { name: "n" } });
  const req = server.requests.at(-1)!;
  expect(req.method).toBe("PUT");
  expect(req.url).toBe("/items/p?body=b");
  expect(JSON.parse(req.body)).toEqual({ name: "n" });
});

it("is not thenable: awaiting the client (or returning it from an async function) gives the client", async () => {
  const client = createApiClient({ baseUrl: server.url, retry: false });
  expect("then" in client).toBe(false);
  const awaited = await client;
  expect(awaited).toBe(client);
  const fromAsync = await (async () => client)();
  expect(typeof fromAsync.constructor).toBe("function");
  await client.constructor();
  expect(server.requests.at(-1)!.url).toBe("/constructor");
});

it("calls an operation whose operationId starts with a digit by that name after a `_`", async () => {
  const client = createApiClient({ baseUrl: server.url, retry: false });
  const params: _547636a6f918230da8553640Params = { code: "A01" };
  const item = await client._547636a6f918230da8553640(params);
  expect(item).toEqual({ name: "x" });
  expect(server.requests.at(-1)!.url).toBe("/stations/A01");
});

it("validates enum and const values of the wrong type as JSON Schema does: they never match", () => {
  expect(validateItem({ name: "a", size: 2, maybe: null }).ok).toBe(true);
  expect(validateItem({ name: "a", flag: true }).ok).toBe(false);
  expect(validateItem({ name: "a", flag: "true" }).ok).toBe(false);
  expect(validateItem({ name: "a", size: "3" }).ok).toBe(false);
  expect(validateItem({ name: "a", fixed: 7 }).ok).toBe(false);
  expect(validateItem({ name: "a", maybe: "x" }).ok).toBe(false);
});
