import { describe, expect, it } from "vitest";
import { closest, editDistance } from "../../generator/suggest.js";

describe("did you mean", () => {
  it("counts inserts, deletes, substitutions and swapped neighbours as one edit each", () => {
    expect(editDistance("generate", "generate")).toBe(0);
    expect(editDistance("generat", "generate")).toBe(1);
    expect(editDistance("requried", "required")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("suggests the nearest known word only when it is close for its length", () => {
    expect(closest("requried", ["properties", "required", "items"])).toBe("required");
    expect(closest("Generat", ["generate", "mock"])).toBe("generate");
    expect(closest("frobnicate", ["generate", "mock", "diff"])).toBeUndefined();
    // one edit on a short word is close; two are not
    expect(closest("mok", ["mock"])).toBe("mock");
    expect(closest("mk", ["mock"])).toBeUndefined();
  });
});
