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
