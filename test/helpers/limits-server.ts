/**
 * The package's own mock server in limits mode (`startMockServer({ limits })`, on node:http at
 * 127.0.0.1) with the limits mode's record of every call it judged: what the budget tests and
 * `npm run bench:limits` count, per window of the mock's own clock, instead of timing anything.
 */
import { startMockServer, type MockServer } from "../../generated/src/mock-server/index.js";
import type { MockLimitCall, MockLimitsOptions } from "../../runtime/mock/limits.js";

export interface LimitsServer {
  readonly server: MockServer;
  readonly url: string;
  /** Every call the limits mode judged, in the order it judged them. */
  readonly calls: MockLimitCall[];
  served(): MockLimitCall[];
  refused(): MockLimitCall[];
  /** Refused calls per window of `windowMs` of the mock's clock, counted from its first call (window 0 begins there). */
  refusedPerWindow(windowMs: number): Map<number, number>;
  /** The most calls served within any span of `windowMs` (the mock's clock): what shared or separate budgets allow. */
  peakServed(windowMs: number): number;
  close(): Promise<void>;
}

export async function startLimitsServer(limits: Omit<MockLimitsOptions, "onCall">): Promise<LimitsServer> {
  const calls: MockLimitCall[] = [];
  const server = await startMockServer({ port: 0, log: null, limits: { ...limits, onCall: (c) => calls.push(c) } });
  return {
    server,
    url: server.url,
    calls,
    served: () => calls.filter((c) => c.outcome === "served"),
    refused: () => calls.filter((c) => c.outcome !== "served"),
    refusedPerWindow(windowMs) {
      const first = calls[0]?.at ?? 0;
      const out = new Map<number, number>();
      for (const c of calls) {
        const w = Math.floor((c.at - first) / windowMs);
        if (c.outcome !== "served") out.set(w, (out.get(w) ?? 0) + 1);
      }
      return out;
    },
    peakServed(windowMs) {
      const at = calls.filter((c) => c.outcome === "served").map((c) => c.at);
      let peak = 0;
      for (let i = 0, j = 0; j < at.length; j++) {
        while (at[j]! - at[i]! >= windowMs) i++;
        peak = Math.max(peak, j - i + 1);
      }
      return peak;
    },
    close: () => server.close(),
  };
}
