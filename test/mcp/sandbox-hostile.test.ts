/**
 * Hostile snippets (issue 29): each is refused or contained, the outcome says
 * why, and a normal run right after it still works. Limits are made small
 * where the case is about a limit; no test reads a clock.
 */
import { afterAll, describe, expect, it } from "vitest";
import { closeSandbox, runSnippet, sandboxStats } from "../../runtime/mcp/sandbox.js";
import { isMethod } from "../../runtime/mcp/sandbox-wire.js";
import { API_KEY, healthy, HEALTHY, makeHost, surface } from "./sandbox-host.js";

afterAll(() => closeSandbox());

async function hostile(source: string, limits?: Parameters<typeof runSnippet>[3], options?: Parameters<typeof runSnippet>[4]) {
  const { host, record } = makeHost();
  const outcome = await runSnippet(source, surface, host, limits, options);
  // the server keeps serving
  expect(await healthy()).toMatchObject(HEALTHY);
  return { outcome, record };
}

describe("the host's own objects are not there", () => {
  it("process", async () => {
    const { outcome } = await hostile("return process.env");
    expect(outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^process is not available in the sandbox/) });
    expect((await hostile("[typeof process, typeof globalThis.process, typeof Buffer, typeof global]")).outcome).toMatchObject({ ok: true, result: ["undefined", "undefined", "undefined", "undefined"] });
  });

  it("require", async () => {
    expect((await hostile("const fs = require('fs'); return fs.readFileSync('/etc/passwd', 'utf8')")).outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^require is not available/) });
  });

  it("import() and import statements", async () => {
    expect((await hostile("const fs = await import('node:fs'); return fs.readFileSync('/etc/passwd', 'utf8')")).outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^import\(\) is not available in the sandbox/) });
    expect((await hostile("import { readFileSync } from 'node:fs';\nreturn readFileSync('/etc/passwd', 'utf8')")).outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^import statements are not available/) });
  });

  it("the Function constructor reached through globalThis.constructor.constructor", async () => {
    const { outcome } = await hostile('return globalThis.constructor.constructor("return process")().mainModule');
    expect(outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^process is not available/) });
    // what the Function constructor does give is the sandbox's own global, with nothing of the host on it
    const inner = await hostile('const g = Function("return this")(); return Object.getOwnPropertyNames(g).filter((n) => /^(process|require|fetch|Buffer|module|global)$/.test(n))');
    expect(inner.outcome).toMatchObject({ ok: true, result: [] });
  });

  it("fetch, XMLHttpRequest, WebSocket and timers are absent", async () => {
    const { outcome } = await hostile("[typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof setTimeout, typeof WebAssembly]");
    expect(outcome).toMatchObject({ ok: true, result: ["undefined", "undefined", "undefined", "undefined", "undefined"] });
    expect((await hostile("await fetch('http://169.254.169.254/latest/meta-data/')")).outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^fetch is not available/) });
    expect((await hostile("new WebSocket('ws://127.0.0.1:1')")).outcome).toMatchObject({ ok: false, reason: "refused", message: expect.stringMatching(/^WebSocket is not available/) });
  });

  it("no API key inside: the globals, the client objects and their source hold none", async () => {
    const source = [
      "const names = Object.getOwnPropertyNames(globalThis);",
      "const text = JSON.stringify({ names, node, data }) + String(data.echo) + String(node.platform.getHeight);",
      "return { text, hasKey: /sk-live|apiKey|x-glacier/i.test(text) }",
    ].join("\n");
    const { outcome } = await hostile(source);
    expect(outcome).toMatchObject({ ok: true, result: { hasKey: false } });
    expect(JSON.stringify(outcome)).not.toContain(API_KEY);
  });
});

describe("limits", () => {
  it("an infinite loop stops at the time limit", async () => {
    expect((await hostile("while (true) {}", { timeMs: 200 })).outcome).toMatchObject({ ok: false, reason: "timeout", message: expect.stringMatching(/time limit of 200 ms/) });
  });

  it("an infinite loop inside one built-in (no interrupt check) stops at the time limit: the host stops the worker", async () => {
    const before = sandboxStats().workersStopped;
    const { outcome } = await hostile("return Array(2 ** 32 - 1).indexOf(1)", { timeMs: 200 });
    expect(outcome).toMatchObject({ ok: false, reason: "timeout", message: expect.stringMatching(/stopped \(it was inside a long built-in operation\)/) });
    expect(sandboxStats().workersStopped).toBeGreaterThan(before);
  });

  it("an infinite async loop awaiting client calls stops at the time limit, and the call in flight is aborted", async () => {
    const { outcome, record } = await hostile("let n = 0; while (true) { await data.slow(); n++; }", { timeMs: 300, calls: 1_000_000 });
    expect(outcome).toMatchObject({ ok: false, reason: "timeout" });
    expect(outcome.calls).toBeGreaterThan(0);
    expect(record.aborted).toBe(1);
  });

  it("a client call that never answers counts against the time limit", async () => {
    const { outcome, record } = await hostile("await data.hang(); return 'never'", { timeMs: 200 });
    expect(outcome).toMatchObject({ ok: false, reason: "timeout", message: expect.stringMatching(/waiting for client calls counts/), calls: 1 });
    expect(record.aborted).toBe(1);
  });

  it("too many client calls stop the run, caught or not", async () => {
    const { outcome, record } = await hostile("for (let i = 0; ; i++) { try { await node.platform.getHeight({}); } catch {} }");
    expect(outcome).toMatchObject({ ok: false, reason: "calls", calls: 50, message: expect.stringMatching(/more than 50 client calls/) });
    expect(record.calls).toHaveLength(50);
    const burst = await hostile("await Promise.all(Array.from({ length: 20 }, () => node.platform.getHeight({})))", { calls: 5 });
    expect(burst.outcome).toMatchObject({ ok: false, reason: "calls", calls: 5 });
  });

  it("a memory bomb stops at the memory limit", async () => {
    const { outcome } = await hostile("const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length);", { memoryBytes: 16 * 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, reason: "memory", message: expect.stringMatching(/memory limit of 16 MiB/) });
    expect((await hostile("return 'x'.repeat(2 ** 28).length")).outcome).toMatchObject({ ok: false, reason: "memory" });
  });

  it("a 100 MB result is refused by its size, with the size, the limit and how to ask for less", async () => {
    const { outcome } = await hostile("return Array(1e6).fill('x'.repeat(100))");
    expect(outcome).toMatchObject({ ok: false, reason: "result-size" });
    expect((outcome as { message: string }).message).toMatch(/^the result is more than \d+ bytes of JSON, over the limit of 262144 bytes: return fewer items \(page through the list\) or select the fields you need$/);
    const exact = await hostile("'é'.repeat(600)", { resultBytes: 1000 });
    expect(exact.outcome).toMatchObject({ ok: false, reason: "result-size", message: expect.stringMatching(/^the result is 1202 bytes of JSON, over the limit of 1000 bytes/) });
    expect((await hostile("'é'.repeat(498)", { resultBytes: 1000 })).outcome).toMatchObject({ ok: true, resultBytes: 998 });
  });

  it("recursion too deep ends as the snippet's own error", async () => {
    expect((await hostile("function f(n) { return f(n + 1) + 1 } return f(0)")).outcome).toMatchObject({ ok: false, reason: "runtime", message: expect.stringMatching(/stack overflow/) });
    expect((await hostile("let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; return JSON.stringify(o).length")).outcome).toMatchObject({ ok: false, reason: "runtime", message: expect.stringMatching(/stack overflow/) });
  });

  it("an engine stack limit set above the worker's own: the engine failing on the host's stack takes down its worker only", async () => {
    const before = sandboxStats().workersStopped;
    const { outcome } = await hostile("let o = {}; for (let i = 0; i < 2e5; i++) o = { o }; return JSON.stringify(o).length", { stackBytes: 64 * 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, reason: "runtime", message: expect.stringMatching(/^the sandbox's engine failed during the run \(.*\); the run was stopped and the engine replaced$/) });
    expect(sandboxStats().workersStopped).toBeGreaterThan(before);
  });
});

describe("data crossing the boundary", () => {
  it("a __proto__ key in a client call's arguments is refused before the host sees it", async () => {
    const { outcome, record } = await hostile('await data.echo(JSON.parse(\'{"__proto__": {"polluted": "yes"}, "a": 1}\'))');
    expect(outcome).toMatchObject({ ok: false, reason: "refused", message: 'a client call\'s arguments may not have a "__proto__" key' });
    expect(record.calls).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("constructor.prototype in arguments arrives as plain data; the host's Object.prototype is untouched", async () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    const { outcome, record } = await hostile("Object.prototype.polluted = 'inside'; return await data.echo({ constructor: { prototype: { polluted: 'yes' } }, list: [{ __proto__: { polluted: 'yes' } }] })");
    expect(outcome.ok).toBe(true);
    const [arg] = record.calls[0]!.args as [Record<string, unknown>];
    expect(Object.getPrototypeOf(arg)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(arg).sort()).toEqual(["constructor", "list"]);
    expect(arg.constructor).toEqual({ prototype: { polluted: "yes" } });
    // the object literal's __proto__ set a prototype inside the sandbox; JSON carries own data only
    expect(arg.list).toEqual([{}]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    // and the merge the host might do stays harmless
    expect(({ ...arg } as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a secret a server echoes is redacted before the snippet sees it, and in the result, logs and messages", async () => {
    const secrets = { secrets: [API_KEY] };
    const { outcome } = await hostile("const r = await data.secret(); console.log(r.echoed, Object.keys(r)); return { r, has: JSON.stringify(r).includes('sk-live') }", undefined, secrets);
    expect(outcome).toMatchObject({ ok: true, result: { r: { echoed: "[redacted]", header: "Bearer [redacted]", "[redacted]": "as a key" }, has: false } });
    expect(outcome.logs).toEqual(['[redacted] ["echoed","header","[redacted]"]']);
    expect(JSON.stringify(outcome)).not.toContain(API_KEY);
    // a key the snippet was handed anyway (in its own source) still does not leave
    const own = await hostile(`console.log("${API_KEY}"); throw new Error("key ${API_KEY}")`, undefined, secrets);
    expect(own.outcome).toMatchObject({ ok: false, reason: "runtime", message: "key [redacted]", logs: ["[redacted]"] });
  });

  it("a secret in a client's error message is redacted", async () => {
    const { host } = makeHost();
    const leaky = async () => {
      throw new Error(`401 Unauthorized: key ${API_KEY} revoked`);
    };
    const outcome = await runSnippet("await data.echo(1)", surface, leaky, undefined, { secrets: [API_KEY] });
    expect(outcome).toMatchObject({ ok: false, reason: "runtime", message: "401 Unauthorized: key [redacted] revoked" });
    expect(await runSnippet("1", surface, host)).toMatchObject({ ok: true, result: 1 });
  });

  it("the host runs only the surface's own methods: inherited names and partial paths are not methods", () => {
    expect(isMethod(surface, ["data", "echo"])).toBe(true);
    for (const path of [[], ["data"], ["data", "constructor"], ["data", "__proto__"], ["toString"], ["data", "echo", "call"], ["node", "platform", "hasOwnProperty"]]) {
      expect(isMethod(surface, path)).toBe(false);
    }
  });
});
