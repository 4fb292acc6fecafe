/**
 * Which `$ref`s are structure (generator/load/vocabulary.ts forEachRef), as
 * the bundler, the ref checks and the loader read them: those inside
 * avaspec's schema-holding extensions are (a method shared by `$ref` from
 * another document brings them along, issue 27); those inside other `x-`
 * members, examples and enums are data; and a member named like an
 * Object.prototype key is only a key (a property test found `__proto__`
 * taken for a list of paths).
 */
import { describe, expect, it } from "vitest";
import { forEachRef } from "../../generator/load/vocabulary.js";

const refsOf = (node: unknown) => {
  const found: [string, string][] = [];
  forEachRef(node, "#", (_holder, ref, pointer) => found.push([pointer, ref]));
  return found;
};

describe("forEachRef", () => {
  it("follows the schemas of x-avaspec-result-by-param and x-avaspec-subscriptions, not other extensions", () => {
    const method = {
      result: { schema: { $ref: "#/components/schemas/Block" } },
      "x-avaspec-result-by-param": { param: "full", variants: [{ value: true, schema: { oneOf: [{ $ref: "#/components/schemas/Full" }] } }] },
      "x-avaspec-subscriptions": { kinds: [{ kind: "logs", params: [{ name: "filter", schema: { $ref: "#/components/schemas/Filter" } }], result: { $ref: "#/components/schemas/Log" } }] },
      "x-vendor": { schema: { $ref: "#/elsewhere" } },
      examples: [{ value: { $ref: "data" } }],
    };
    expect(refsOf({ methods: [method] })).toEqual([
      ["#/methods/0/result/schema/$ref", "#/components/schemas/Block"],
      ["#/methods/0/x-avaspec-result-by-param/variants/0/schema/oneOf/0/$ref", "#/components/schemas/Full"],
      ["#/methods/0/x-avaspec-subscriptions/kinds/0/params/0/schema/$ref", "#/components/schemas/Filter"],
      ["#/methods/0/x-avaspec-subscriptions/kinds/0/result/$ref", "#/components/schemas/Log"],
    ]);
  });

  it("takes __proto__, constructor and toString for plain keys", () => {
    const doc = JSON.parse('{"paths":{"/s":{"patch":{"security":[{"__proto__":[]}],"constructor":{"toString":{"$ref":"#/a"}}}}}}');
    expect(refsOf(doc)).toEqual([["#/paths/~1s/patch/constructor/toString/$ref", "#/a"]]);
  });
});
