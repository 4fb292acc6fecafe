/**
 * The signal sweep of write-signals.test.ts, short enough for npm test: six
 * runs of the real CLI killed (SIGTERM, SIGINT, SIGHUP) the instant its
 * staging folder appears, at least one landing before the commit point.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signalSweep, signalTemplate } from "./write-signals.js";

let t: ReturnType<typeof signalTemplate>;
beforeAll(() => {
  t = signalTemplate();
});
afterAll(() => rmSync(t.template, { recursive: true, force: true }));

it("a kill at staging ends in the signal, no stack trace, no staging folder left, the output as it was or complete", async () => {
  expect(await signalSweep(t.template, t.before, 6, 3)).toBeGreaterThanOrEqual(1);
}, 60_000);
