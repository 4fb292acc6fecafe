/**
 * Code mode's `execute` sandbox (runtime/mcp/sandbox.ts): what a snippet is,
 * how values and errors cross the boundary, what the outcome carries. The
 * hostile cases are in sandbox-hostile.test.ts, the leak count in
 * sandbox-leak.test.ts, a generated client behind it in sandbox-client.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { closeSandbox, DEFAULT_LIMITS, runSnippet } from "../../runtime/mcp/sandbox.js";
import { makeHost, surface } from "./sandbox-host.js";

afterAll(() => closeSandbox());

describe("a snippet", () => {
  it("that is one expression returns its value, awaited", async () => {
    const { host, record } = makeHost();
    const outcome = await runSnippet("await node.platform.getBalance({ address: 'P-avax1xyz' });", surface, host);
    expect(outcome).toEqual({ ok: true, result: { address: "P-avax1xyz", balance: "25000000000", unit: "nAVAX" }, resultBytes: 63, calls: 1, logs: [] });
    expect(record.calls).toEqual([{ path: "node.platform.getBalance", args: [{ address: "P-avax1xyz" }] }]);
  });

  it("is the body of an async function: its return value is the result, top-level await works", async () => {
    const { host } = makeHost();
    const source = [
      "const [a, b] = await Promise.all([node.platform.getHeight({}), node.platform.getBalance({ address: 'x' })]);",
      "const total = a.height + b.balance;",
      "return { total, kind: typeof total };",
    ].join("\n");
    expect(await runSnippet(source, surface, host)).toMatchObject({ ok: true, result: { total: "18446744098709551617", kind: "bigint" }, calls: 2 });
  });

  it("without a return and of several statements returns null", async () => {
    const { host } = makeHost();
    expect(await runSnippet("const a = 1; const b = 2;", surface, host)).toMatchObject({ ok: true, result: null, resultBytes: 4 });
  });

  it("may be TypeScript: types, interfaces, generics, `as` and `satisfies` are stripped", async () => {
    const { host } = makeHost();
    const source = [
      "interface Balance { address: string; balance: bigint }",
      "type Unit = 'nAVAX' | 'AVAX';",
      "const toAvax = <T extends bigint>(n: T): number => Number(n) / 1e9;",
      "const b = (await node.platform.getBalance({ address: 'x' })) as Balance;",
      "const unit: Unit = 'AVAX';",
      "return { avax: toAvax(b.balance), unit } satisfies Record<string, unknown>;",
    ].join("\n");
    expect(await runSnippet(source, surface, host)).toMatchObject({ ok: true, result: { avax: 25, unit: "AVAX" } });
  });

  it("gets bigint values as bigint inside, and the result has them as decimal strings", async () => {
    const { host } = makeHost();
    const outcome = await runSnippet("const h = await node.platform.getHeight({}); return [typeof h.height, h.height * 2n, [1n, { n: -5n }]]", surface, host);
    expect(outcome).toMatchObject({ ok: true, result: ["bigint", "36893488147419103234", ["1", { n: "-5" }]] });
  });

  it("sends bigint arguments as decimal strings, and the host gets plain JSON data", async () => {
    const { host, record } = makeHost();
    await runSnippet("await data.echo({ amount: 10n ** 20n, when: new Date(0), skip: undefined, list: [1, 'a', null] })", surface, host);
    expect(record.calls[0]!.args).toEqual([{ amount: "100000000000000000000", when: "1970-01-01T00:00:00.000Z", list: [1, "a", null] }]);
  });

  it("logs with console.log (and info, warn, error), bounded", async () => {
    const { host } = makeHost();
    const outcome = await runSnippet("console.log('height', 5n, { a: [1] }); console.warn('careful'); console.error(new TypeError('bad')); return 1", surface, host);
    expect(outcome).toMatchObject({ ok: true, logs: ["height 5n {\"a\":[1]}", "warn: careful", "error: TypeError: bad"] });
    const many = await runSnippet("for (let i = 0; i < 250; i++) console.log('line ' + i + ' ' + 'x'.repeat(5000)); return 1", surface, host);
    expect(many.ok).toBe(true);
    expect(many.logs).toHaveLength(101);
    expect(many.logs[0]).toHaveLength(1001);
    expect(many.logs[100]).toBe("… 150 more log line(s) dropped (the log keeps the first 100)");
  });

  it("catches a client's typed error: the message is the error's, with its status, and no host stack", async () => {
    const { host } = makeHost();
    const source = [
      "try { await data.fail({ chainId: '99' }); }",
      "catch (e) { return { name: e.name, message: e.message, status: e.statusCode, stack: String(e.stack), isError: e instanceof Error }; }",
    ].join("\n");
    const outcome = await runSnippet(source, surface, host);
    expect(outcome).toMatchObject({ ok: true, result: { name: "NotFoundError", message: 'getChain failed with 404 Not Found: no chain {"chainId":"99"}', status: 404, isError: true } });
    const stack = (outcome as { result: { stack: string } }).result.stack;
    expect(stack).not.toMatch(/sandbox-host|node:|\.ts:\d+:\d+\)?\n.*at async/);
    expect(stack).not.toContain("/work/");
  });

  it("fails with the client's message when the error is not caught", async () => {
    const { host } = makeHost();
    expect(await runSnippet("await data.fail({ chainId: '1' })", surface, host)).toEqual({
      ok: false,
      reason: "runtime",
      message: 'getChain failed with 404 Not Found: no chain {"chainId":"1"}',
      calls: 1,
      logs: [],
    });
  });

  it("fails on its own uncaught error with the error's name, message and line", async () => {
    const { host } = makeHost();
    const outcome = await runSnippet("const a = 1;\nconst b = null;\nreturn b.field", surface, host);
    expect(outcome).toMatchObject({ ok: false, reason: "runtime", message: "TypeError: cannot read property 'field' of null", location: { line: 3 } });
    expect(await runSnippet("throw new Error('stop here')", surface, host)).toMatchObject({ ok: false, reason: "runtime", message: "stop here" });
    expect(await runSnippet("throw 42", surface, host)).toMatchObject({ ok: false, reason: "runtime", message: "42" });
    const trap = "throw new Proxy({}, { get() { throw new Error('trap'); }, has() { throw new Error('trap'); } })";
    expect(await runSnippet(trap, surface, host)).toMatchObject({ ok: false, reason: "runtime", message: "an error that could not be read" });
  });

  it("with a syntax error says so, with the line in the snippet", async () => {
    const { host } = makeHost();
    const outcome = await runSnippet("const a = 1;\nconst = 2;", surface, host);
    expect(outcome).toMatchObject({ ok: false, reason: "syntax", calls: 0, location: { line: 2 } });
  });

  it("that waits for something nothing settles fails at once instead of at the time limit", async () => {
    const { host } = makeHost();
    const outcome = await runSnippet("await new Promise(() => {}); return 1", surface, host, { timeMs: 600_000 });
    expect(outcome).toMatchObject({ ok: false, reason: "runtime", message: expect.stringMatching(/nothing will settle/) });
  });

  it("starts with a fresh context each run: nothing is left from the one before", async () => {
    const { host } = makeHost();
    expect(await runSnippet("globalThis.leftover = 1; Object.prototype.polluted = 'yes'; Array.prototype.push = null; return 1", surface, host)).toMatchObject({ ok: true });
    expect(await runSnippet("[typeof leftover, ({}).polluted, typeof [].push]", surface, host)).toMatchObject({ ok: true, result: ["undefined", null, "function"] });
  });

  it("runs beside another run: two snippets at once each get their own engine", async () => {
    const { host } = makeHost();
    const [a, b] = await Promise.all([
      runSnippet("await data.slow(); return 'a'", surface, host),
      runSnippet("await data.slow(); return 'b'", surface, host),
    ]);
    expect([a, b]).toMatchObject([{ ok: true, result: "a" }, { ok: true, result: "b" }]);
  });

  it("has sensible default limits", () => {
    expect(DEFAULT_LIMITS).toEqual({ timeMs: 10_000, memoryBytes: 64 * 1024 * 1024, resultBytes: 256 * 1024, calls: 50 });
  });
});
