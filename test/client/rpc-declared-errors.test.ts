/**
 * The errors an OpenRPC method declares are typed classes: an error reply
 * with a declared code becomes that class (by message too when several of the
 * method's errors share the code), stays an RpcServerError / RpcError, and
 * carries `data` typed by the error's data schema. Against a real loopback
 * server, through the generated node client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AliasTooLongError,
  createNodeClient,
  ExecutionRevertedError,
  InvalidParamsError,
  MethodNotFoundError,
  NumToFetchOutOfRangeError,
  ServerError,
  StartIndexOutOfRangeError,
  type Bytes,
} from "@avaspec/client/node";
import { RpcError, RpcServerError, rpcError, type DeclaredRpcError } from "@avaspec/client";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Answers every request (or every entry of a batch) with the error object `error(method)`. */
function replyError(error: (method: string) => Record<string, unknown>): void {
  server.reply((req) => {
    const body = JSON.parse(req.body) as { id: number; method: string } | { id: number; method: string }[];
    const one = (r: { id: number; method: string }) => ({ jsonrpc: "2.0", id: r.id, error: error(r.method) });
    return { body: Array.isArray(body) ? body.map(one) : one(body) };
  });
}

const node = () => createNodeClient({ baseUrl: server.url, retry: false });
const failure = (p: Promise<unknown>) => p.then(() => expect.unreachable("the call should fail"), (e: unknown) => e);

describe("declared errors", () => {
  it("a reply with a declared code and message is that class, still an RpcServerError", async () => {
    replyError(() => ({ code: -32000, message: "alias length is too long" }));
    const error = await failure(node().admin.alias({ endpoint: "bc/X", alias: "myAlias" }));
    expect(error).toBeInstanceOf(AliasTooLongError);
    expect(error).toBeInstanceOf(RpcServerError);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ name: "AliasTooLongError", code: -32000, rpcMessage: "alias length is too long", method: "admin.alias" });
    expect(AliasTooLongError.code).toBe(-32000);
  });

  it("several errors share -32000: the message picks the class, case-insensitively and by prefix", async () => {
    replyError(() => ({ code: -32000, message: "Server error" }));
    expect(await failure(node().admin.alias({ endpoint: "bc/X", alias: "a" }))).toBeInstanceOf(ServerError);
    // indexer/index.go GetContainerRange (ava-labs/avalanchego 1cf1fc3d17): "start index (%d) > last accepted index (%d)"
    replyError(() => ({ code: -32000, message: "Start index (7) > last accepted index (3)" }));
    const range = await failure(node().index.xTx.getContainerRange({ startIndex: 7, numToFetch: 1, encoding: "hex" }));
    expect(range).toBeInstanceOf(StartIndexOutOfRangeError);
    expect(range).not.toBeInstanceOf(NumToFetchOutOfRangeError);
  });

  it("a -32000 reply that matches none of the method's -32000 errors stays a plain RpcServerError", async () => {
    replyError(() => ({ code: -32000, message: "something else went wrong" }));
    const error = await failure(node().admin.alias({ endpoint: "bc/X", alias: "a" }));
    expect((error as object).constructor).toBe(RpcServerError);
    expect(error).not.toBeInstanceOf(AliasTooLongError);
    expect(error).not.toBeInstanceOf(ServerError);
  });

  it("a code only one declared error has is that error whatever the message (eth_call's revert, with its data typed)", async () => {
    replyError(() => ({ code: 3, message: "execution reverted: not owner", data: "0x08c379a0" }));
    const error = await failure(node().cChain.eth.call({ transaction: { to: "0x0000000000000000000000000000000000000001" } }));
    expect(error).toBeInstanceOf(ExecutionRevertedError);
    expect((error as object).constructor).toBe(ExecutionRevertedError);
    const reverted = error as ExecutionRevertedError;
    const data: Bytes | undefined = reverted.data;
    expect(data).toBe("0x08c379a0");
    // @ts-expect-error data is typed from the error's data schema (Bytes), not unknown
    const wrong: number | undefined = reverted.data;
    void wrong;
  });

  it("a code the method does not declare is not another method's class", async () => {
    // eth_call declares -32000 (ServerError) but not -32001 (ResourceNotFound, eth_getBlockAccessList's)
    replyError(() => ({ code: -32001, message: "Resource not found" }));
    const error = await failure(node().cChain.eth.call({ transaction: {} }));
    expect((error as object).constructor).toBe(RpcServerError);
  });

  it("every entry of a batch gets its own method's class", async () => {
    replyError((method) => (method === "eth_blockNumber" ? { code: -32601, message: "the method eth_blockNumber does not exist/is not available" } : { code: -32602, message: "Invalid params" }));
    const [a, b] = await node().batch((n) => [n.cChain.eth.blockNumber(), n.admin.alias({ endpoint: "bc/X", alias: "a" })] as const);
    expect(a.ok || a.error).toBeInstanceOf(MethodNotFoundError);
    expect(b.ok || b.error).toBeInstanceOf(InvalidParamsError);
  });
});

describe("rpcError (the runtime's choice)", () => {
  class A extends RpcServerError {
    static readonly code = -32000;
    static readonly rpcMessage = "cpu profiler already running";
  }
  class B extends RpcServerError {
    static readonly code = -32000;
    static readonly rpcMessage = "cpu profiler";
  }
  class C extends RpcError {
    static readonly code = 7;
    static readonly rpcMessage = "";
  }
  const declared: DeclaredRpcError[] = [B, A, C];
  const init = (code: number, message: string) => ({ request: { operationId: "m", method: "POST", url: "http://127.0.0.1/" }, method: "m", code, message, statusCode: 200 });

  it.each([
    [-32000, "cpu profiler already running", A],
    [-32000, "CPU PROFILER ALREADY RUNNING since 3s", A],
    [-32000, "cpu profiler is busy", B],
    [-32000, "disk full", RpcServerError],
    [7, "anything", C],
    [8, "anything", RpcError],
  ])("code %i, message %j → %o", (code, message, cls) => {
    expect(rpcError(init(code, message), declared).constructor).toBe(cls);
  });

  it("without declared errors: the code range decides", () => {
    expect(rpcError(init(-32050, "x"), undefined).constructor).toBe(RpcServerError);
    expect(rpcError(init(-32600, "x"), []).constructor).toBe(RpcError);
  });
});
