/**
 * Retries, Retry-After, timeouts, abort, typed errors, hooks and hostile
 * input, against a real loopback server with scripted responses. Timers are
 * fake: the runtime's backoff sleeps and timeouts only move when the test
 * advances the clock, so nothing really waits and every delay is observed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  ApiError,
  AvaspecError,
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PageTokenError,
  RateLimitError,
  ResponseParseError,
  RpcError,
  ServiceUnavailableError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
  type ResponseEvent,
} from "@avaspec/client";
import { createDataApiClient, type DataApiClientOptions } from "@avaspec/client/data-api";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { createNodeClient, type NodeClientOptions } from "@avaspec/client/node";
import { startServer, type Reply, type TestServer } from "../helpers/server.js";
import { loadSpec, okExample } from "../helpers/spec.js";

const SECRET = "sk-live-7f3a9c0e5b1d4e2a";
const chain = okExample(loadSpec("data-api.openapi.json"), "getChainInfo");
const AGGREGATE = { network: "fuji" as const, body: { message: "0xdeadbeef", quorumPercentage: 67, quorumPercentageBuffer: 3, pChainHeight: 0 } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Answers the requests in order from a script; the last reply repeats. */
function script(...replies: Reply[]): void {
  let n = 0;
  server.reply(() => replies[Math.min(n++, replies.length - 1)]!);
}

const events: ResponseEvent[] = [];
function data(options: DataApiClientOptions = {}) {
  events.length = 0;
  return createDataApiClient({ baseUrl: server.url, apiKey: SECRET, onResponse: (e) => void events.push(e), ...options });
}
function node(options: NodeClientOptions = {}) {
  events.length = 0;
  return createNodeClient({ baseUrl: server.url, onResponse: (e) => void events.push(e), ...options });
}

/** Real-time wait (fake timers don't move) until `cond` holds: lets loopback I/O happen. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Settles a promise without letting a rejection go unhandled meanwhile. */
function settle<T>(p: Promise<T>): { done: () => boolean; result: Promise<{ ok: true; value: T } | { ok: false; error: any }> } {
  let finished = false;
  const result = p.then(
    (value) => ((finished = true), { ok: true as const, value }),
    (error: unknown) => ((finished = true), { ok: false as const, error }),
  );
  return { done: () => finished, result };
}

/** Advances the fake clock by the wait the runtime announced, checking that no request goes out a millisecond early. */
async function waitOut(requestsBefore: number): Promise<number> {
  await until(() => events.length === requestsBefore && events.at(-1)!.retryInMs !== undefined, "a retry to be scheduled");
  const delay = events.at(-1)!.retryInMs!;
  if (delay > 0) {
    await vi.advanceTimersByTimeAsync(delay - 1);
    await new Promise((r) => setImmediate(r));
    expect(server.requests.length, `no request before the ${delay} ms wait is over`).toBe(requestsBefore);
    await vi.advanceTimersByTimeAsync(1);
  }
  return delay;
}

describe("retries", () => {
  it("503, 503, 200 → success after 3 attempts, each wait within the backoff bounds", async () => {
    script({ status: 503, body: { message: "down", statusCode: 503, error: "Service Unavailable" } }, { status: 503, body: {} }, { status: 200, body: chain });
    const call = settle(data().getChainInfo({ chainId: "43114" }));
    await until(() => server.requests.length === 1, "the first attempt");
    const first = await waitOut(1);
    await until(() => server.requests.length === 2, "the second attempt");
    const second = await waitOut(2);
    await until(call.done, "the call");
    const r = await call.result;
    expect(r).toEqual({ ok: true, value: chain });
    expect(server.requests).toHaveLength(3);
    // defaults: base 500 ms doubling, equal jitter → [250, 500] then [500, 1000]
    expect(first).toBeGreaterThanOrEqual(250);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(500);
    expect(second).toBeLessThanOrEqual(1000);
    expect(events.map((e) => [e.attempt, e.status])).toEqual([[1, 503], [2, 503], [3, 200]]);
  });

  it("503 on every attempt → ServiceUnavailableError with status 503 and the attempt count", async () => {
    script({ status: 503, body: { message: "subnet node unhealthy", statusCode: 503, error: "Service Unavailable" } });
    const call = settle(data({ retry: { retries: 3, baseDelayMs: 100 } }).getChainInfo({ chainId: "43114" }));
    for (let n = 1; n <= 3; n++) {
      await until(() => server.requests.length === n, `attempt ${n}`);
      await waitOut(n);
    }
    await until(call.done, "the call");
    const { error } = (await call.result) as { error: ServiceUnavailableError };
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.statusCode).toBe(503);
    expect(error.attempts).toBe(4);
    expect(error.operationId).toBe("getChainInfo");
    expect(error.httpMethod).toBe("GET");
    expect(error.url).toBe(`${server.url}/v1/chains/43114`);
    expect(error.messages).toEqual(["subnet node unhealthy"]);
    expect(error.message).toBe("getChainInfo failed with 503 Service Unavailable after 4 attempts: subnet node unhealthy. A server-side problem; try again later.");
  });

  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
  ])("%i → %o at once, no retry", async (status, Class) => {
    script({ status, body: { message: ["nope"], statusCode: status, error: "x" } });
    const error = await data().getChainInfo({ chainId: "43114" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ statusCode: status, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("the aggregation POST is not retried on 503 unless the caller opts in", async () => {
    script({ status: 503, body: {} });
    const error = await data().aggregateSignatures(AGGREGATE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(server.requests).toHaveLength(1);
    expect(events.every((e) => e.retryInMs === undefined)).toBe(true);

    server.requests.length = 0;
    script({ status: 503, body: {} }, { status: 200, body: { signedMessage: "0xabc" } });
    const call = settle(data().aggregateSignatures(AGGREGATE, { retry: { unsafe: true } }));
    await until(() => server.requests.length === 1, "the first attempt");
    await waitOut(1);
    await until(call.done, "the call");
    expect((await call.result).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.every((r) => r.method === "POST" && JSON.parse(r.body).message === "0xdeadbeef")).toBe(true);
  });

  it("retry: false sends once", async () => {
    script({ status: 503, body: {} });
    const error = await data({ retry: false }).getChainInfo({ chainId: "43114" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 503, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("a refused connection is a NetworkError, retried", async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const client = createDataApiClient({ baseUrl: url, apiKey: SECRET, retry: { retries: 1 }, onResponse: (e) => void events.push(e) });
    events.length = 0;
    const call = settle(client.getChainInfo({ chainId: "43114" }));
    await until(() => events.length === 1, "the first attempt");
    await vi.advanceTimersByTimeAsync(events[0]!.retryInMs!);
    await until(call.done, "the call");
    const { error } = (await call.result) as { error: NetworkError };
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(2);
    expect(error.message).toMatch(/^getChainInfo: request to http:\/\/127\.0\.0\.1:\d+\/v1\/chains\/43114 failed after 2 attempts: .*Check the base URL/);
  });
});

describe("Retry-After", () => {
  it("429 with Retry-After: 2 waits 2 s, not the computed backoff", async () => {
    script({ status: 429, headers: { "retry-after": "2" }, body: {} }, { status: 200, body: chain });
    const call = settle(data().getChainInfo({ chainId: "43114" }));
    await until(() => server.requests.length === 1, "the first attempt");
    expect(await waitOut(1)).toBe(2000);
    await until(call.done, "the call");
    expect((await call.result).ok).toBe(true);
  });

  it("429 with an HTTP-date waits until that date", async () => {
    vi.setSystemTime(new Date("2026-11-22T10:00:00Z"));
    script({ status: 429, headers: { "retry-after": "Sun, 22 Nov 2026 10:00:07 GMT" }, body: {} }, { status: 200, body: chain });
    const call = settle(data().getChainInfo({ chainId: "43114" }));
    await until(() => server.requests.length === 1, "the first attempt");
    expect(await waitOut(1)).toBe(7000);
    await until(call.done, "the call");
    expect((await call.result).ok).toBe(true);
  });

  it("Retry-After: 86400 is beyond the 60 s cap: fails at once with the wait in the error", async () => {
    script({ status: 429, headers: { "retry-after": "86400" }, body: { message: "slow down", statusCode: 429, error: "Too Many Requests" } });
    const error = (await data().getChainInfo({ chainId: "43114" }).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(86_400_000);
    expect(error.attempts).toBe(1);
    expect(error.message).toContain("The server asks to wait 86400 s (retryAfterMs).");
    expect(server.requests).toHaveLength(1);
  });

  it.each(["soon", "-5", "1.5", "Someday, 99 Foo 2026 GMT"])("an unreadable Retry-After (%j) falls back to the backoff", async (value) => {
    script({ status: 503, headers: { "retry-after": value }, body: {} }, { status: 200, body: chain });
    const call = settle(data().getChainInfo({ chainId: "43114" }));
    await until(() => server.requests.length === 1, "the first attempt");
    const delay = await waitOut(1);
    expect(delay).toBeGreaterThanOrEqual(250);
    expect(delay).toBeLessThanOrEqual(500);
    await until(call.done, "the call");
    expect((await call.result).ok).toBe(true);
  });
});

describe("timeouts and abort", () => {
  it("a server that never answers: each attempt times out, is retried, and the total time is bounded", async () => {
    script({ hang: true });
    const call = settle(data({ timeoutMs: 5000 }).getChainInfo({ chainId: "43114" }));
    for (let n = 1; n <= 3; n++) {
      await until(() => server.requests.length === n, `attempt ${n}`);
      await vi.advanceTimersByTimeAsync(4999);
      await new Promise((r) => setImmediate(r));
      expect(events).toHaveLength(n - 1);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => events.length === n, `attempt ${n} to time out`);
      expect(events[n - 1]!.error).toBeInstanceOf(TimeoutError);
      if (n < 3) await vi.advanceTimersByTimeAsync(events[n - 1]!.retryInMs!);
    }
    await until(call.done, "the call");
    const { error } = (await call.result) as { error: TimeoutError };
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeoutMs).toBe(5000);
    expect(error.attempts).toBe(3);
    expect(error.message).toContain("no response from");
    // bounded on the fake clock: 3 × 5 s of timeouts (stepped above) plus the backoffs the events announced, at most 0.5 + 1 s
    const backoff = events.slice(0, 2).reduce((sum, e) => sum + e.retryInMs!, 0);
    expect(backoff).toBeLessThanOrEqual(1500);
    expect(events[2]!.retryInMs).toBeUndefined();
  });

  it("the default per-attempt timeout is 30 s", async () => {
    script({ hang: true });
    const call = settle(data({ retry: false }).getChainInfo({ chainId: "43114" }));
    await until(() => server.requests.length === 1, "the request");
    await vi.advanceTimersByTimeAsync(29_999);
    await new Promise((r) => setImmediate(r));
    expect(call.done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await until(call.done, "the call");
    expect(((await call.result) as { error: unknown }).error).toBeInstanceOf(TimeoutError);
  });

  it("a custom fetch that ignores its signal still times out", async () => {
    const hanging = (() => new Promise<Response>(() => {})) as typeof fetch;
    const call = settle(data({ fetch: hanging, retry: false, timeoutMs: 1000 }).getChainInfo({ chainId: "43114" }));
    await vi.advanceTimersByTimeAsync(1000);
    await until(call.done, "the call");
    expect(((await call.result) as { error: unknown }).error).toBeInstanceOf(TimeoutError);
  });

  it("an abort during the backoff wait rejects at once, sends nothing more and leaves no timer", async () => {
    script({ status: 503, body: {} });
    const controller = new AbortController();
    const call = settle(data().getChainInfo({ chainId: "43114" }, { signal: controller.signal }));
    await until(() => events.length === 1 && events[0]!.retryInMs !== undefined, "the backoff to start");
    await new Promise((r) => setImmediate(r));
    const timersWaiting = vi.getTimerCount();
    controller.abort(new Error("user navigated away"));
    await until(call.done, "the call");
    const { error } = (await call.result) as { error: AbortError };
    expect(error).toBeInstanceOf(AbortError);
    expect(error.cause).toEqual(new Error("user navigated away"));
    expect(error.attempts).toBe(1);
    // the backoff timer is gone (other timers may belong to the HTTP stack)
    expect(vi.getTimerCount()).toBe(timersWaiting - 1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.requests).toHaveLength(1);
  });

  it("an abort while the request is in flight is an AbortError, not a NetworkError, and is not retried", async () => {
    script({ hang: true });
    const controller = new AbortController();
    const call = settle(data().getChainInfo({ chainId: "43114" }, { signal: controller.signal }));
    await until(() => server.requests.length === 1, "the request");
    controller.abort();
    await until(call.done, "the call");
    expect(((await call.result) as { error: unknown }).error).toBeInstanceOf(AbortError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.requests).toHaveLength(1);
  });

  it("an already-aborted signal sends nothing", async () => {
    const error = await data().getChainInfo({ chainId: "43114" }, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError", attempts: 0 });
    expect(server.requests).toHaveLength(0);
  });
});

describe("bad responses", () => {
  it.each([
    ["invalid JSON", "{not json"],
    ["truncated JSON", '{"chainId":"43114","chainName":'],
  ])("200 with %s → ResponseParseError with the status and raw body", async (_, body) => {
    script({ status: 200, headers: { "content-type": "application/json" }, body });
    const error = (await data().getChainInfo({ chainId: "43114" }).catch((e: unknown) => e)) as ResponseParseError;
    expect(error).toBeInstanceOf(ResponseParseError);
    expect(error.statusCode).toBe(200);
    expect(error.rawBody).toBe(body);
    expect(error.attempts).toBe(1);
  });
});

describe("hostile input", () => {
  it.each([
    ["../../admin", "..%2F..%2Fadmin"],
    ["%2e%2e", "%252e%252e"],
    ["//evil.example/x", "%2F%2Fevil.example%2Fx"],
    ["a?b#c", "a%3Fb%23c"],
  ])("path value %j stays one segment (%s)", async (value, encoded) => {
    script({ status: 200, body: chain });
    await data().getChainInfo({ chainId: value });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe(`/v1/chains/${encoded}`);
  });

  it.each([".", ".."])("path value %j is refused before sending", async (value) => {
    const error = await data().getChainInfo({ chainId: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ["a per-call header", () => data().getChainInfo({ chainId: "43114" }, { headers: { "x-trace": "a\r\nx-injected: 1" } })],
    ["a client header", () => data({ headers: { "x-trace": "a\nb" } }).getChainInfo({ chainId: "43114" })],
    ["the API key", () => data({ apiKey: `${SECRET}\r\nx-injected: 1` }).getChainInfo({ chainId: "43114" })],
    ["a JSON-RPC header", () => node({ headers: { "x-trace": "a\rb" } }).info.getNodeID()],
  ])("CR/LF in %s → ValidationError before sending", async (_, call) => {
    const error = (await call().catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain("must not contain CR, LF or NUL");
    expect(error.message).not.toContain(SECRET);
    expect(server.requests).toHaveLength(0);
  });

  it("__proto__ and constructor keys in params are plain data and never touch prototypes", async () => {
    script({ status: 200, body: chain });
    const params = JSON.parse('{"chainId":"43114","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    await data().getChainInfo(params).catch(() => undefined);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);

    script({ status: 200, body: { jsonrpc: "2.0", id: 1, result: { nodeID: "NodeID-111111111111111111116DBWJs", nodePOP: { publicKey: "0x00", proofOfPossession: "0x00" } } } });
    const rpcParams = JSON.parse('{"__proto__":{"polluted":true}}');
    await node().info.getNodeID(rpcParams).catch(() => undefined);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("the API key never leaks", () => {
  it("not in errors, hook events or warnings", async () => {
    const seen: unknown[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((...args) => void seen.push(args));
    const client = data({ retry: false, validateResponse: "warn", onRequest: (e) => void seen.push({ ...e, headers: { ...e.headers } }), onResponse: (e) => void seen.push(e) });
    const errors: unknown[] = [];
    for (const reply of [{ status: 401, body: { message: "bad key", statusCode: 401, error: "Unauthorized" } }, { status: 200, body: "{oops" }, { status: 200, body: { wrong: true } }, { hang: true }] as Reply[]) {
      script(reply);
      const call = settle(client.getChainInfo({ chainId: "43114" }));
      if (reply.hang) {
        await until(() => server.requests.length > 0 && seen.length > 0, "the request");
        await vi.advanceTimersByTimeAsync(30_000);
      }
      await until(call.done, "the call");
      const r = await call.result;
      if (!r.ok) errors.push(r.error);
      server.requests.length = 0;
    }
    expect(errors.map((e) => (e as Error).name)).toEqual(["UnauthorizedError", "ResponseParseError", "TimeoutError"]);
    expect(warn).toHaveBeenCalledTimes(1);
    const dump = (v: unknown) => JSON.stringify(v, (_, x) => (x instanceof Error ? { ...x, message: x.message, stack: x.stack } : x instanceof Headers ? Object.fromEntries(x) : x));
    for (const e of errors) {
      expect(String(e)).not.toContain(SECRET);
      expect(dump(e)).not.toContain(SECRET);
    }
    expect(dump(seen)).not.toContain(SECRET);
    expect(dump(seen)).toContain("[redacted]");
  });
});

describe("hooks", () => {
  it("onRequest runs before every attempt and can add a header; onResponse reports each attempt", async () => {
    script({ status: 502, body: {} }, { status: 200, body: chain });
    const attempts: number[] = [];
    const client = data({
      onRequest: (e) => {
        attempts.push(e.attempt);
        e.setHeader("traceparent", `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0${e.attempt}`);
      },
    });
    const call = settle(client.getChainInfo({ chainId: "43114" }));
    await until(() => server.requests.length === 1, "the first attempt");
    await waitOut(1);
    await until(call.done, "the call");
    expect(attempts).toEqual([1, 2]);
    expect(server.requests.map((r) => r.headers["traceparent"])).toEqual(["00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-02"]);
    expect(server.requests.every((r) => r.headers["x-glacier-api-key"] === SECRET)).toBe(true);
    expect(events.map((e) => ({ attempt: e.attempt, status: e.status, retried: e.retryInMs !== undefined }))).toEqual([
      { attempt: 1, status: 502, retried: true },
      { attempt: 2, status: 200, retried: false },
    ]);
  });

  it("a header with CR/LF set by a hook is refused before sending", async () => {
    const error = await data({ onRequest: (e) => e.setHeader("x-trace", "a\r\nb") }).getChainInfo({ chainId: "43114" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("JSON-RPC", () => {
  const nodeId = { nodeID: "NodeID-111111111111111111116DBWJs", nodePOP: { publicKey: "0x00", proofOfPossession: "0x00" } };

  it("the HTTP request of a read method is retried on 503", async () => {
    script({ status: 503, body: "" }, { status: 200, body: { jsonrpc: "2.0", id: 1, result: nodeId } });
    const call = settle(node().info.getNodeID());
    await until(() => server.requests.length === 1, "the first attempt");
    await waitOut(1);
    await until(call.done, "the call");
    expect(await call.result).toEqual({ ok: true, value: nodeId });
    expect(server.requests).toHaveLength(2);
  });

  it("a batch of read methods is retried as a whole", async () => {
    script({ status: 502, body: "" }, { status: 200, body: [1, 2].map((id) => ({ jsonrpc: "2.0", id, result: nodeId })) });
    const client = node();
    const call = settle(client.batch((n) => [n.info.getNodeID(), n.info.getNodeID()]));
    await until(() => server.requests.length === 1, "the first attempt");
    await waitOut(1);
    await until(call.done, "the batch");
    const r = (await call.result) as { ok: true; value: { ok: boolean }[] };
    expect(r.value.map((x) => x.ok)).toEqual([true, true]);
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
  });

  it("eth_sendRawTransaction is not retried", async () => {
    script({ status: 503, body: "" });
    const error = await node().cChain.eth.sendRawTransaction({ transaction: "0x02f8" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(server.requests).toHaveLength(1);
  });

  it("a JSON-RPC error object is an answer, not retried", async () => {
    script({ status: 200, body: { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "rate limited" } } });
    const error = (await node().info.getNodeID().catch((e: unknown) => e)) as RpcError;
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(-32000);
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("…unless its code is marked transient with retryOnRpcCodes", async () => {
    script({ status: 200, body: { jsonrpc: "2.0", id: 1, error: { code: -32005, message: "limit exceeded" } } }, { status: 200, body: { jsonrpc: "2.0", id: 1, result: nodeId } });
    const call = settle(node({ retry: { retryOnRpcCodes: [-32005] } }).info.getNodeID());
    await until(() => server.requests.length === 1, "the first attempt");
    await waitOut(1);
    await until(call.done, "the call");
    expect(await call.result).toEqual({ ok: true, value: nodeId });
  });
});

describe("pagination and expiring tokens", () => {
  it("a Metrics page token the server rejects → PageTokenError saying tokens last 24 hours", async () => {
    script({ status: 400, body: { message: "invalid page token", statusCode: 400, error: "Bad Request" } });
    const metrics = createMetricsApiClient({ baseUrl: server.url, deprecationWarnings: false }); // getAvgTps is deprecated (issue 27)
    const run = async () => {
      for await (const _ of metrics.getAvgTps.iterate({ chainId: "43114", pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14" })) void _;
    };
    const error = (await run().catch((e: unknown) => e)) as PageTokenError;
    expect(error).toBeInstanceOf(PageTokenError);
    expect(error).toBeInstanceOf(AvaspecError);
    expect(error.statusCode).toBe(400);
    expect(error.cause).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe("getAvgTps: the server rejected the page token (400 Bad Request). Page tokens of this API expire 24 hours after they are issued: restart the listing from the first page (without pageToken).");
  });

  it("the first page's 400 stays a BadRequestError (no token was involved)", async () => {
    script({ status: 400, body: { message: "bad chain", statusCode: 400, error: "Bad Request" } });
    const metrics = createMetricsApiClient({ baseUrl: server.url, deprecationWarnings: false }); // getAvgTps is deprecated (issue 27)
    const error = await metrics.getAvgTps.pages({ chainId: "43114" }).next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
  });
});
