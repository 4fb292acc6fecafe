import { describe, expect, it } from "vitest";
import { IdLedger } from "../../runtime/stream/ids.js";

describe("IdLedger", () => {
  it("tells repeats apart while ids grow as integers, and after they stop", () => {
    const ledger = new IdLedger();
    for (let i = 1; i <= 20_000; i++) expect(ledger.admit(String(i))).toBe("new");
    expect(ledger.admit("20000")).toBe("seen");
    expect(ledger.admit("7")).toBe("seen");
    // a non-integer id ends the growing run: from here the last 10,000 ids decide
    expect(ledger.admit("evt-a")).toBe("new");
    expect(ledger.admit("19995")).toBe("seen");
    expect(ledger.admit("evt-a")).toBe("seen");
    // older than the window: no longer remembered
    expect(ledger.admit("7")).toBe("new");
    expect(ledger.previous).toBe("7");
  });

  it("reports a skip only across a resume, and forgets ids that left the window", () => {
    const ledger = new IdLedger();
    for (let i = 1; i <= 5; i++) ledger.admit(String(i));
    ledger.resumed();
    expect(ledger.admit("9")).toBe("skipped");
    ledger.admit("x");
    for (let i = 0; i < 10_000; i++) ledger.admit(`k${i}`);
    expect(ledger.admit("x")).toBe("new");
    expect(ledger.admit("k9999")).toBe("seen");
  });
});
