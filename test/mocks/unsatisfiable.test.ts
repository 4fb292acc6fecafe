/**
 * Mock synthesis on schemas with no finite value (a required property that
 * leads back to its own schema) ends with a clear error instead of hanging or
 * overflowing the stack; a finite branch or an example still gets served.
 */
import { describe, expect, it } from "vitest";
import { createMockService, type MockTable } from "../../runtime/mock/mock.js";

const op = { id: "getNode", method: "GET", path: "/n", params: [], response: "json" as const };
const table = (defs: MockTable["defs"], extra: Record<string, unknown> = {}): MockTable => ({ defs, entries: [{ kind: "http", op, status: 200, schema: { $ref: "Node" }, types: {}, ...extra }] });

describe("mock synthesis of recursive schemas", () => {
  it("a required self-reference: a clear error, quickly", () => {
    const service = createMockService([table({ Node: { type: ["object"], required: ["child"], properties: { child: { $ref: "Node" } } } })], { examples: false });
    expect(() => service.sample("getNode")).toThrow(/cannot synthesize a body for getNode: no finite value: the schema recurses more than 64 levels.*give the operation an example/);
  });

  it("mutual recursion through required array items with minItems: the same", () => {
    const service = createMockService(
      [table({ Node: { type: ["object"], required: ["kids"], properties: { kids: { type: ["array"], minItems: 1, items: { $ref: "Leaf" } } } }, Leaf: { type: ["object"], required: ["up"], properties: { up: { $ref: "Node" } } } })],
      { examples: false },
    );
    expect(() => service.sample("getNode")).toThrow(/no finite value/);
  });

  it("falls back to the example when there is one", () => {
    const service = createMockService([table({ Node: { type: ["object"], required: ["child"], properties: { child: { $ref: "Node" } } } }, { example: { child: null } })], { examples: false });
    expect(service.sample("getNode")).toEqual({ child: null });
  });

  it("an optional self-reference is finite: synthesized", () => {
    const defs = { Node: { type: ["object"], required: ["name"], properties: { name: { type: ["string"] }, child: { $ref: "Node" } } } };
    for (const seed of [1, 2, 3]) expect(createMockService([table(defs)], { examples: false, seed }).sample("getNode")).toHaveProperty("name");
  });
});
