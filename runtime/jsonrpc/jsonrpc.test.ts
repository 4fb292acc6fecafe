import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors/errors.js";
import { serializeParams, type RpcMethod } from "./jsonrpc.js";

const m = (form: RpcMethod["form"], params: RpcMethod["params"]): RpcMethod => ({ method: "x", endpoint: "/e", form, params });

describe("serializeParams", () => {
  it.each([
    ["by-name", [{ name: "a", required: true }, { name: "b" }], { a: 1, b: 2, extra: 3 }, { a: 1, b: 2 }],
    ["by-name", [{ name: "a" }], undefined, {}],
    ["by-name", [{ name: "a" }, { name: "b" }], { b: false }, { b: false }],
    ["by-position", [{ name: "a", required: true }, { name: "b" }], { a: "0x1" }, ["0x1"]],
    ["by-position", [{ name: "a", required: true }, { name: "b" }, { name: "c" }], { a: 1, c: 3 }, [1, null, 3]],
    ["by-position", [], undefined, []],
    ["one-object", [{ name: "level", required: true }], { level: "info" }, [{ level: "info" }]],
    ["one-object", [{ name: "x" }], { x: undefined, y: 0 }, [{ y: 0 }]],
  ] as [RpcMethod["form"], RpcMethod["params"], object | undefined, unknown][])("%s %j with %j → %j", (form, params, given, want) => {
    expect(serializeParams(m(form, params), given)).toEqual(want);
  });

  it("names a missing required param", () => {
    expect(() => serializeParams(m("by-name", [{ name: "chain", required: true }]), {})).toThrow(ValidationError);
    try {
      serializeParams(m("by-position", [{ name: "address", required: true }]), { address: null } as object);
    } catch (e) {
      expect((e as ValidationError).issues).toEqual([{ path: "/address", message: 'missing required param "address"' }]);
    }
  });

  it("ignores inherited values and keeps __proto__ as data", () => {
    const inherited = Object.create({ a: 1 }) as object;
    expect(serializeParams(m("by-name", [{ name: "a" }]), inherited)).toEqual({});
    const out = serializeParams(m("by-name", [{ name: "__proto__" }]), JSON.parse('{"__proto__": {"x": 1}}')) as object;
    expect(Object.prototype.hasOwnProperty.call(out, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("refuses a non-object", () => {
    expect(() => serializeParams(m("by-name", []), [1] as unknown as object)).toThrow(/params must be an object/);
  });
});
