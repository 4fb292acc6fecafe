/**
 * A signal at any moment of a write (the sweep: write-signals.ts): 24 runs,
 * until 8 kills have landed while staging; on the old code nearly every landed
 * kill went wrong. In test:slow; write-signals-quick.test.ts runs 6 in npm test.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signalSweep, signalTemplate } from "./write-signals.js";

describe("a signal the instant the staging folder appears", () => {
  let t: ReturnType<typeof signalTemplate>;
  beforeAll(() => {
    t = signalTemplate();
  });
  afterAll(() => rmSync(t.template, { recursive: true, force: true }));

  it("ends in the signal with the output as it was (or complete), never a stack trace or a leftover staging folder", async () => {
    // the kills must have reached the staging phase for this test to mean anything
    expect(await signalSweep(t.template, t.before, 24, 8)).toBeGreaterThanOrEqual(4);
  }, 180_000);
});
