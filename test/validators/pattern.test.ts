/**
 * The pattern rewrites (generator/emit/validators/pattern.ts) must never change
 * what a pattern accepts: a property test compares the rewritten test (length
 * range + rewritten expression) with the pattern as written, on random
 * patterns and on strings drawn to match them and to miss them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planPattern, type PatternPlan } from "../../generator/emit/validators/pattern.js";
import { patternFlags } from "../../generator/ir/resolve.js";

function tester(plan: PatternPlan): (s: string) => boolean {
  const re = new RegExp(plan.source, plan.flags);
  return (s) => (plan.minLength === undefined || s.length >= plan.minLength) && (plan.maxLength === undefined || s.length <= plan.maxLength) && re.test(s);
}

describe("pattern rewrites", () => {
  it.each([
    ["^0x[0-9a-fA-F]{96}$", { source: "^0x[0-9a-fA-F]*$", flags: "", minLength: 98, maxLength: 98 }],
    ["^NodeID-[1-9A-HJ-NP-Za-km-z]{20,40}$", { source: "^NodeID-[1-9A-HJ-NP-Za-km-z]*$", flags: "", minLength: 27, maxLength: 47 }],
    ["^[a-z]{3,}\\.$", { source: "^[a-z]*\\.$", flags: "", minLength: 4 }],
    ["^(0|[1-9][0-9]*)$", { source: "^(?:0|[1-9][0-9]*)$", flags: "" }],
    ["^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$", { source: "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$", flags: "" }],
    ["^(?:ab)+$", { source: "^(?:ab)+$", flags: "" }],
    // a counted group, two counted terms, or an optional term next to the count: the count stays
    ["^(ab){2}$", { source: "^(?:ab){2}$", flags: "" }],
    ["^[a-f]{2}[0-9]{3}$", { source: "^[a-f]{2}[0-9]{3}$", flags: "" }],
    ["^a?[0-9]{3}$", { source: "^a?[0-9]{3}$", flags: "" }],
  ] as const)("%s", (pattern, plan) => {
    expect(planPattern(pattern, "u")).toEqual(plan);
  });

  it.each(["^.{2}$", "[^a]", "\\s", "(?=a)b", "(a)\\1", "(?<n>a)", "\\p{L}", "é", "😀", "[]a]", "a{", "\\-", "\\bx", "[\\s]"])("keeps %s as written", (pattern) => {
    const flags = patternFlags(pattern) ?? "";
    expect(planPattern(pattern, flags)).toEqual({ source: pattern, flags });
  });

  it("accepts exactly what the pattern as written accepts (fast-check, 500 patterns × 44 strings)", () => {
    // each pattern comes with a string it matches, built alongside it
    type Drawn = { src: string; hit: string };
    const LEAVES: [string, string[]][] = [
      ["a", ["a"]], ["b", ["b"]], ["0", ["0"]], ["x", ["x"]], ["-", ["-"]], ["\\.", ["."]], ["\\d", ["0", "7"]], ["\\w", ["a", "Z", "0", "_"]],
      ["[a-c]", ["a", "c"]], ["[0-9]", ["3"]], ["[ab-]", ["b", "-"]], ["[\\-.]", ["-", "."]], ["[x]", ["x"]],
      // not rewritten: the pattern stays as written
      [".", ["a", "é"]], ["[^a]", ["b", "é"]], ["\\s", [" ", "\n"]], ["\\-", ["-"]],
    ];
    const leaf = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...LEAVES.slice(0, 13)) }, { weight: 1, arbitrary: fc.constantFrom(...LEAVES.slice(13)) });
    const QUANTS: [string, number, number][] = [["", 1, 1], ["", 1, 1], ["", 1, 1], ["*", 0, 3], ["+", 1, 3], ["?", 0, 1], ["{2}", 2, 2], ["{0,3}", 0, 3], ["{1,}", 1, 3], ["*?", 0, 2], ["{2,4}?", 2, 4]];
    const repeat = (min: number, max: number, one: fc.Arbitrary<string>) => fc.array(one, { minLength: min, maxLength: max }).map((xs) => xs.join(""));
    const term: fc.Arbitrary<Drawn> = fc.tuple(leaf, fc.constantFrom(...QUANTS)).chain(([[src, chars], [q, min, max]]) => repeat(min, max, fc.constantFrom(...chars)).map((hit) => ({ src: src + q, hit })));
    const GROUP_QUANTS: [string, number, number][] = [["", 1, 1], ["", 1, 1], ["?", 0, 1], ["{2}", 2, 2], ["{0,2}", 0, 2]];
    const { alt } = fc.letrec<{ alt: Drawn; seq: Drawn }>((tie) => ({
      alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).chain((seqs) => fc.nat(seqs.length - 1).map((i) => ({ src: seqs.map((x) => x.src).join("|"), hit: seqs[i]!.hit }))),
      seq: fc
        .array(
          fc.oneof(
            { maxDepth: 2, depthIdentifier: "group" },
            { weight: 6, arbitrary: term },
            {
              weight: 1,
              // groups repeat a bounded number of times: nested unbounded repeats backtrack exponentially
              arbitrary: fc.tuple(fc.constantFrom("(", "(?:"), tie("alt"), fc.constantFrom(...GROUP_QUANTS)).chain(([open, a, [q, min, max]]) => fc.integer({ min, max }).map((n) => ({ src: `${open}${a.src})${q}`, hit: a.hit.repeat(n) }))),
            },
          ),
          { minLength: 1, maxLength: 3 },
        )
        .map((xs) => ({ src: xs.map((x) => x.src).join(""), hit: xs.map((x) => x.hit).join("") })),
    }));
    // the shape the length rewrite takes, ^ fixed… C{n,m} fixed… $, and anchored or bare alternations
    // mostly fixed text around the count; sometimes a term that is not, which must keep the count as written
    const OPTIONAL: [string, number, number][] = [["", 1, 1], ["", 1, 1], ["", 1, 1], ["?", 0, 1], ["*", 0, 2]];
    const fixed = fc.array(
      fc.tuple(leaf, fc.constantFrom(...OPTIONAL)).chain(([[src, chars], [q, min, max]]) => repeat(min, max, fc.constantFrom(...chars)).map((hit) => ({ src: src + q, hit }))),
      { maxLength: 2 },
    );
    const counted = fc
      .tuple(fixed, leaf, fc.constantFrom<[string, number, number]>(["{2}", 2, 2], ["{0,3}", 0, 3], ["{1,}", 1, 5], ["{2,4}?", 2, 4], ["{0}", 0, 0], ["{3,5}", 3, 5]), fixed)
      .chain(([before, [src, chars], [q, min, max], after]) =>
        repeat(min, max, fc.constantFrom(...chars)).map((mid) => ({ src: `^${before.map((x) => x.src).join("")}${src}${q}${after.map((x) => x.src).join("")}$`, hit: before.map((x) => x.hit).join("") + mid + after.map((x) => x.hit).join("") })),
      );
    const anchored = fc.tuple(fc.boolean(), alt, fc.boolean()).map(([s, a, e]) => ({ src: `${s ? "^" : ""}${a.src}${e ? "$" : ""}`, hit: a.hit }));
    const alphabet = fc.constantFrom("a", "b", "c", "0", "5", "x", "-", ".", "_", " ", "\n", "é", "😀");
    const misses = fc.array(fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join("")), { minLength: 40, maxLength: 40 });
    let compared = 0;
    let rewritten = 0;
    let lengthRange = 0;
    fc.assert(
      fc.property(fc.oneof(anchored, counted), misses, (drawn, others) => {
        const flags = patternFlags(drawn.src);
        if (flags === undefined) return;
        const original = new RegExp(drawn.src, flags);
        const plan = planPattern(drawn.src, flags);
        if (plan.source !== drawn.src || plan.flags !== flags) rewritten++;
        if (plan.minLength !== undefined || plan.maxLength !== undefined) lengthRange++;
        const planned = tester(plan);
        // the drawn strings: a few around the hit, so both sides of a length bound come up
        const hits = [drawn.hit, drawn.hit + drawn.hit.slice(-1), drawn.hit.slice(1), "a" + drawn.hit];
        if (!original.test(drawn.hit)) throw new Error(`test bug: ${JSON.stringify(drawn.src)} does not match its own ${JSON.stringify(drawn.hit)}`);
        for (const s of [...hits, ...others]) {
          compared++;
          if (planned(s) !== original.test(s)) throw new Error(`${JSON.stringify(drawn.src)} → ${JSON.stringify(plan)} disagrees on ${JSON.stringify(s)}`);
        }
      }),
      { numRuns: 500, seed: 20261122 },
    );
    expect(rewritten).toBeGreaterThan(250);
    expect(lengthRange).toBeGreaterThan(50);
    expect(compared).toBeGreaterThan(500 * 40);
  });
});
