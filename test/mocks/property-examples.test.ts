/**
 * Issue 30: a synthesized mock body shows the spec's property-level
 * `examples` (it drew random strings beside them), and does without an
 * example that does not pass the operation's check.
 */
import { describe, expect, it } from "vitest";
import { mockBodies } from "../../runtime/mock/bodies.js";
import { hash, rng, synthesize } from "../../runtime/mock/synthesize.js";
import type { MockHttpEntry, MockSchema, MockTable } from "../../runtime/mock/types.js";

const product: MockSchema = {
  type: ["object"],
  required: ["name", "price", "inStock"],
  properties: { name: { type: ["string"], examples: ["Blue mug", "Red mug"] }, price: { type: ["number"], examples: [12.5] }, inStock: { type: ["boolean"], examples: [true] } },
};

describe("property examples in mock bodies", () => {
  it("a property with examples takes one of them", () => {
    for (let seed = 0; seed < 20; seed++) {
      const v = synthesize(product, {}, rng(hash(`s${seed}`))) as { name: string; price: number; inStock: boolean };
      expect(["Blue mug", "Red mug"]).toContain(v.name);
      expect(v.price).toBe(12.5);
      expect(v.inStock).toBe(true);
    }
  });

  it("without them (the later attempts) values are synthesized from the schema", () => {
    const v = synthesize(product, {}, rng(hash("s")), false) as { name: string };
    expect(typeof v.name).toBe("string");
    expect(["Blue mug", "Red mug"]).not.toContain(v.name);
  });

  it("an example the operation's check refuses is set aside, and the body still passes", () => {
    const schema: MockSchema = { type: ["object"], required: ["sku"], properties: { sku: { type: ["string"], minLength: 8, examples: ["short"] } } };
    const entry = { kind: "http", op: { id: "getProduct" }, status: 200, schema, types: {} } as unknown as MockHttpEntry;
    const check = (v: unknown) => typeof (v as { sku?: unknown }).sku === "string" && (v as { sku: string }).sku.length >= 8;
    const table = { defs: {}, entries: [entry], results: new Map([[entry.op, check]]) } as unknown as MockTable;
    const body = mockBodies({ seed: 1, pages: 3, examples: true }).synthesized(entry, table, "salt") as { sku: string };
    expect(body.sku.length).toBeGreaterThanOrEqual(8);
  });
});
