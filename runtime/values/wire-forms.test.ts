/**
 * The wire-form conversions (x-avaspec-wire-form): a number a server sends
 * for a documented decimal string becomes the digits JSON.parse kept, never
 * an exponent; decimal text a server sends for a documented number becomes
 * that number; anything else is left for the checks to judge.
 */
import { describe, expect, it } from "vitest";
import { decimalText, toDocumented, toServer } from "./wire-forms.js";

describe("decimalText", () => {
  it.each([
    [0, "0"],
    [-0, "0"],
    [42, "42"],
    [42.42, "42.42"],
    [-7.5, "-7.5"],
    // binary floating point: the shortest digits that read back as the same double, not 0.3
    [0.1 + 0.2, "0.30000000000000004"],
    [0.1, "0.1"],
    // where String() switches to an exponent
    [1e21, "1000000000000000000000"],
    [1.2345e25, "12345000000000000000000000"],
    [-1e21, "-1000000000000000000000"],
    [1e-7, "0.0000001"],
    [1.5e-7, "0.00000015"],
    [-2.5e-10, "-0.00000000025"],
    [123456789.123, "123456789.123"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    [5e-324, `0.${"0".repeat(323)}5`],
  ])("%s → %s", (n, text) => {
    expect(decimalText(n)).toBe(text);
    // the text reads back as the same number
    expect(Number(text)).toBe(n === 0 ? 0 : n);
    expect(text).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/);
  });

  it("a number with more digits than a double holds was rounded by JSON.parse: the digits of what is left", () => {
    expect(decimalText(JSON.parse("12345678901234567890.123"))).toBe("12345678901234567000");
  });
});

describe("leaves", () => {
  it("server → documented: a number as decimal text, decimal text as an integer or a number", () => {
    expect(toDocumented(12.5, "number>string", "")).toBe("12.5");
    expect(toDocumented(7, "integer>string", "")).toBe("7");
    expect(toDocumented("42", "string>integer", "")).toBe(42);
    expect(toDocumented("-3", "string>integer", "")).toBe(-3);
    expect(toDocumented("2.5e3", "string>number", "")).toBe(2500);
    // not in the server's form, or not convertible: as it is
    for (const [x, spec] of [["12.5", "number>string"], ["4.5", "string>integer"], ["abc", "string>number"], ["1e999", "string>number"], [null, "number>string"], [true, "string>integer"], [42, "string>integer"]] as const) {
      expect(toDocumented(x, spec, "")).toBe(x);
    }
  });

  it("documented → server (what mocks serve with wireShapes: server)", () => {
    expect(toServer("12.50", "number>string", "")).toBe(12.5);
    expect(toServer("7", "integer>string", "")).toBe(7);
    expect(toServer("7.5", "integer>string", "")).toBe("7.5");
    expect(toServer(42, "string>integer", "")).toBe("42");
    expect(toServer(1e21, "string>number", "")).toBe("1000000000000000000000");
  });
});
