import { describe, expect, it } from "vitest";
import { loadText } from "../../generator/load/load.js";
import * as ptr from "../../generator/load/pointer.js";

describe("JSON pointers", () => {
  const doc = loadText("x.json", JSON.stringify({ a: { "50%": 1, "a/b": 2, "t~x": 3, "%25": 4 } })).document!;

  it("internal pointers are not URI-decoded: a key may contain %", () => {
    expect(doc.at(ptr.join("#/a", "50%"))?.value).toBe(1);
    expect(doc.at(ptr.join("#/a", "%25"))?.value).toBe(4);
    expect(doc.at(ptr.join("#/a", "a/b"))?.value).toBe(2);
    expect(doc.at(ptr.join("#/a", "t~x"))?.value).toBe(3);
  });

  it("$ref values are URI fragments and are decoded", () => {
    expect(doc.resolve("#/a/50%25")?.value).toBe(1);
    expect(doc.resolve("#/a/%2525")?.value).toBe(4);
    expect(doc.resolve("#/a/a~1b")?.value).toBe(2);
    expect(doc.resolve("#/a/50%")).toBeUndefined();
  });

  it("locates keys with any characters", () => {
    expect(doc.locate(ptr.join("#/a", "50%")).line).toBe(1);
  });
});
