/**
 * The range scanner's window widths (issue 32) against a node simulated in
 * process: a span cap, a result cap and seeded random refusals, each
 * answered with the same range error, as Coreth and providers answer them.
 * The figures are request counts, so the tests say how much a scan costs
 * without timing it.
 */
import { describe, expect, it } from "vitest";
import { apiError, RpcError } from "../errors/errors.js";
import { matchesSignal, scanRange, type ScanRangeOptions } from "./ranges.js";
import { rng } from "../mock/random.js";

class RangeError32 extends Error {
  readonly code = -32000;
}

interface Node {
  /** Every request: its width and whether it was refused. */
  requests: { from: number; width: number; refused: boolean }[];
  read(from: number, to: number): Promise<number[]>;
}

/** A node whose blocks hold one item each where `has(n)`; it refuses a span over `cap`, more than `maxResults` items, and a `faults` share of requests at random (seeded). */
function node(options: { cap?: number; maxResults?: number; faults?: number; seed?: number; has?: (n: number) => boolean }): Node {
  const random = rng(options.seed ?? 1);
  const has = options.has ?? ((n: number) => n % 50 === 7);
  const requests: Node["requests"] = [];
  return {
    requests,
    async read(from, to) {
      const width = to - from + 1;
      const fault = options.faults !== undefined && random() < options.faults;
      const items: number[] = [];
      if (!fault && (options.cap === undefined || width <= options.cap)) for (let n = from; n <= to; n++) if (has(n)) items.push(n);
      const refused = fault || (options.cap !== undefined && width > options.cap) || (options.maxResults !== undefined && items.length > options.maxResults);
      requests.push({ from, width, refused });
      if (refused) throw new RangeError32("requested too many blocks");
      return items;
    },
  };
}

const isRangeError = (e: unknown) => e instanceof RangeError32;

async function scan(n: Node, from: number, to: number, options: ScanRangeOptions = {}) {
  const s = scanRange((a, b) => n.read(a, b), { from, to }, { isRangeError, ...options });
  const items: number[] = [];
  for await (const item of s) items.push(item);
  return { items, progress: s.progress, peakHeld: s.peakHeld };
}

/** Each block that has an item, once, in order. */
const expected = (from: number, to: number, has = (n: number) => n % 50 === 7) => Array.from({ length: to - from + 1 }, (_, i) => from + i).filter(has);

describe("scanRange's window widths", () => {
  it("random refusals at the cap's width: a window no wider than one that worked is read again as it is, so 1,000,000 blocks take one request per window plus one per refusal (≥ 0.9 of the cap)", async () => {
    const n = node({ cap: 2048, faults: 0.05, seed: 1 });
    const { items, progress } = await scan(n, 70_000_000, 70_999_999, { maxSpan: 2048 });
    expect(items).toEqual(expected(70_000_000, 70_999_999));
    const refused = n.requests.filter((r) => r.refused).length;
    // 489 windows of 2,048 (the last shorter) and the refused requests, each read again once: nothing wasted on halving
    expect(n.requests.length).toBeLessThanOrEqual(Math.ceil(1_000_000 / 2048) + refused + 2);
    expect(1_000_000 / n.requests.length / 2048).toBeGreaterThanOrEqual(0.9);
    expect(progress.retries).toBe(refused);
    expect(progress.repeats).toBeGreaterThan(0);
  });

  it("a real span cap below the declared width: every refused window shrinks (to half, or the widest width that worked), and the scan settles near the cap instead of being refused every other window", async () => {
    const n = node({ cap: 1000 });
    const { items } = await scan(n, 0, 999_999, { maxSpan: 2048 });
    expect(items).toEqual(expected(0, 999_999));
    for (const [i, r] of n.requests.entries()) {
      if (!r.refused) continue;
      // over the cap, never repeated as it was: the next request starts at the same block and is narrower
      expect(r.width).toBeGreaterThan(1000);
      expect(n.requests[i + 1]!.from).toBe(r.from);
      expect(n.requests[i + 1]!.width).toBeLessThan(r.width);
      expect(n.requests[i + 1]!.width).toBeLessThanOrEqual(Math.max(Math.floor(r.width / 2), 1000));
    }
    // 1,000 windows of the cap at best; the width above it is probed again now and then, less often each time it is refused
    expect(n.requests.length).toBeLessThanOrEqual(1000 * 1.05);
    expect(n.requests.filter((r) => r.refused).length).toBeLessThan(30);
  });

  it("a real span cap with random refusals on top: every item once, in order, and no window over the cap read twice as it was", async () => {
    const n = node({ cap: 700, faults: 0.05, seed: 3 });
    const { items } = await scan(n, 5, 300_004, { maxSpan: 2048 });
    expect(items).toEqual(expected(5, 300_004));
    for (const [i, r] of n.requests.entries()) if (r.refused && r.width > 700) expect(n.requests[i + 1]!.width).toBeLessThan(r.width);
    expect(n.requests.length).toBeLessThanOrEqual((300_000 / 700) * 1.25);
  });

  it("a result cap over a dense stretch: halves until the answers fit, and grows back once the blocks are sparse again", async () => {
    // blocks 100,000 … 119,999 all hold an item; elsewhere one in 50
    const dense = (b: number) => (b >= 100_000 && b < 120_000) || b % 50 === 7;
    const n = node({ maxResults: 300, has: dense });
    const { items, peakHeld } = await scan(n, 0, 299_999, { maxSpan: 2048 });
    expect(items).toEqual(expected(0, 299_999, dense));
    expect(peakHeld).toBeLessThanOrEqual(300);
    // past the dense stretch the windows are back at the full width
    const after = n.requests.filter((r) => r.from >= 200_000);
    expect(after.filter((r) => r.width === 2048).length).toBeGreaterThan(after.length * 0.8);
    expect(n.requests.filter((r) => r.refused).length).toBeLessThan(40);
  });

  it("a refusal of a window wider than any that worked halves at once, even the first; repeats: 0 halves every refusal as before", async () => {
    const capped = node({ cap: 150 });
    await scan(capped, 0, 599, { maxSpan: 400 });
    expect(capped.requests.slice(0, 3).map((r) => [r.width, r.refused])).toEqual([[400, true], [200, true], [100, false]]);
    const halving = node({ cap: 2048, faults: 0.05, seed: 1 });
    const { progress } = await scan(halving, 0, 199_999, { maxSpan: 2048, repeats: 0 });
    expect(progress.repeats).toBe(0);
    expect(progress.retries).toBeGreaterThan(0);
  });
});

describe("matchesSignal: one reading of a declared signal (values/limits.ts signalMatches), for thrown errors", () => {
  const request = { operationId: "x", method: "POST", url: "http://127.0.0.1/" };
  it("an ApiError by its status, an RpcError by its code and the server's own message", () => {
    const tooMany = apiError({ request, statusCode: 413, statusText: "Payload Too Large", body: undefined, rawBody: "", headers: new Headers() });
    expect(matchesSignal(tooMany, { status: [413] })).toBe(true);
    expect(matchesSignal(tooMany, { status: [429] })).toBe(false);
    const coreth = new RpcError({ request, method: "eth_getLogs", code: -32000, message: "requested too many blocks from 0 to 4096, maximum is set to 2048", statusCode: 200 });
    expect(matchesSignal(coreth, { codes: [-32000], messages: ["requested too many blocks"] })).toBe(true);
    expect(matchesSignal(coreth, { codes: [-32000], messages: ["query returned more than"] })).toBe(false);
    // a signal of patterns alone reads the message of any JSON-RPC error
    expect(matchesSignal(coreth, { messages: ["too many blocks"] })).toBe(true);
    expect(matchesSignal(new Error("requested too many blocks"), { messages: ["too many blocks"] })).toBe(false);
  });
});
