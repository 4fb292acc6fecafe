/**
 * The budget's ledger (issue 32): when units spent come back. A known budget
 * frees each attempt's units one window after its answer; answers close
 * together share a ledger entry to keep it small. Under fake timers (the
 * budget reads `Date.now` and waits with `setTimeout`), so the moment a
 * waiting call is let go is read, not timed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createBudget } from "@avaspec/client";

afterEach(() => {
  vi.useRealTimers();
});

const request = { operationId: "getChainInfo", method: "GET", url: "http://127.0.0.1/v1/chains/43114" };
const out = { request, url: request.url, init: { headers: {} }, idempotent: true, secrets: [], cost: 1 };
const answer = async () => ({ ok: true as const, response: new Response("{}", { status: 200 }), text: "{}" });

describe("a known budget's ledger", () => {
  it("units come back one window after each answer, not after the last of a run of answers close together", async () => {
    vi.useFakeTimers({ now: 0 });
    const budget = createBudget({ pool: "ledger-test" }, { quotas: [{ quota: 100, window: 60 }], key: `ledger-${process.pid}` });
    // 100 calls answered 10 ms apart over the first second: the quota
    for (let i = 0; i < 100; i++) {
      await budget.run(out, answer, undefined, request);
      await vi.advanceTimersByTimeAsync(10);
    }
    let sent = false;
    const next = budget.run(out, () => ((sent = true), answer()), undefined, request);
    await vi.advanceTimersByTimeAsync(59_000 - Date.now());
    // the window has not passed for any answer yet
    expect(sent).toBe(false);
    // the first answers (0 ms …) leave the window at 60 s, give or take the entry they share (at most a thousandth of the window)
    await vi.advanceTimersByTimeAsync(60_000 + 60 + 1 - Date.now());
    expect(sent).toBe(true);
    await next;
  });
});

describe("a learned budget", () => {
  /**
   * A server with fixed windows of 500 ms holding 20 units each, answering a
   * refusal with 429 and Retry-After in whole seconds (rounded up), as the
   * limits-mode mock does, each answer 15 ms after the request; 16 loops call
   * it through one learned budget, the first calls 30 ms before a window ends,
   * so that the first figure learned spans two of the server's windows.
   */
  it("learns from the first refusal that says when: two rounds of refusals, then none", async () => {
    vi.useFakeTimers({ now: 470 });
    const budget = createBudget({ pool: "learn-test", signals: { quota: { status: [429], retryAfter: true } } }, { key: `learn-${process.pid}` });
    const refusedAt: number[] = [];
    const window = { start: 0, used: 0 };
    // counted when the request arrives, answered 15 ms later
    const server = async () => {
      const t = Date.now();
      const start = Math.floor(t / 500) * 500;
      if (window.start !== start) Object.assign(window, { start, used: 0 });
      const refused = window.used + 1 > 20;
      if (refused) refusedAt.push(t);
      else window.used++;
      await new Promise((r) => setTimeout(r, 15));
      const headers: Record<string, string> = refused ? { "retry-after": String(Math.max(1, Math.ceil((start + 500 - t) / 1000))) } : {};
      return { ok: true as const, response: new Response("{}", { status: refused ? 429 : 200, headers }), text: "{}" };
    };
    let served = 0;
    const loop = async () => {
      while (served < 200) {
        const r = await budget.run(out, server, undefined, request);
        if (r.ok && r.response.status === 200) served++;
      }
    };
    const done = Promise.all(Array.from({ length: 16 }, loop));
    await vi.advanceTimersByTimeAsync(30_000);
    await done;
    expect(served).toBeGreaterThanOrEqual(200);
    // the refusals, by the round they came in (a round: refusals less than 100 ms apart)
    const rounds = refusedAt.reduce<number[][]>((acc, t) => (acc.length > 0 && t - acc.at(-1)!.at(-1)! < 100 ? acc.at(-1)!.push(t) : acc.push([t]), acc), []);
    console.log("ROUNDS", JSON.stringify(rounds.map((r) => [r[0]! - 495, r.length])));
    // the first round as the loops outrun the server; the figure learned from it (units over two of the server's
    // windows) lets one burst too many through once, and the quarter taken off then holds: no refusal after 1.5 s
    expect(rounds.map((r) => r.length)).toEqual([10, 1]);
    expect(refusedAt.at(-1)! - 470).toBeLessThan(1_500);
  });
});
