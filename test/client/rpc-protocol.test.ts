/**
 * Replies that break JSON-RPC 2.0 get their own error with the raw reply
 * (they were an RpcError with code 0, or taken for an error object), and the
 * server-defined error range has its own class. Against a real loopback server.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiClient } from "../fixtures/rpc-by-name/golden/src/api/index.js";
import { ResponseParseError, RpcError, RpcProtocolError, RpcServerError } from "../fixtures/rpc-by-name/golden/src/runtime/errors/errors.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const reply = (extra: Record<string, unknown>) => server.reply((req) => ({ body: { jsonrpc: "2.0", id: (JSON.parse(req.body) as { id: number }).id, ...extra } }));
const call = () => createApiClient({ baseUrl: server.url, retry: false }).calc.ping();

it.each([
  ["both result and error", { result: "pong", error: { code: -32000, message: "x" } }, 'has both "result" and "error"'],
  ["a string code", { error: { code: "-32000", message: "x" } }, 'code "-32000" is not an integer'],
  ["a fractional code", { error: { code: 1.5, message: "x" } }, "code 1.5 is not an integer"],
  ["no code", { error: { message: "x" } }, "code (missing) is not an integer"],
])("a reply with %s is an RpcProtocolError carrying the reply", async (_what, body, message) => {
  reply(body);
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RpcProtocolError);
  expect(error).toBeInstanceOf(ResponseParseError);
  expect(error).not.toBeInstanceOf(RpcError);
  expect((error as RpcProtocolError).message).toContain(message);
  expect((error as RpcProtocolError).reply).toMatchObject(body);
});

it.each([
  [-32000, RpcServerError],
  [-32099, RpcServerError],
  [-32100, RpcError],
  [-32601, RpcError],
  [5, RpcError],
])("error code %i is a %o", async (code, cls) => {
  reply({ error: { code, message: "m", data: { d: 1 } } });
  const error = (await call().catch((e: unknown) => e)) as RpcError;
  expect(error).toBeInstanceOf(cls);
  expect(error.constructor).toBe(cls);
  expect(error).toMatchObject({ code, message: expect.stringContaining("m"), data: { d: 1 } });
});
