import { describe, expect, it } from "vitest";
import { comment, identifier, literal, propertyKey, stringLiteral } from "../../generator/emit/escape.js";
import { camelCase, isIdentifier, NameRegistry, pascalCase, toIdentifier, words } from "../../generator/ir/naming.js";

describe("escape choke point", () => {
  it.each([
    ["plain", "plain"],
    ["ends */ here", "ends *\\/ here"],
    ["a\r\nb", "a\nb"],
    ["@deprecated fake", "\\@deprecated fake"],
    ["  @param x", "\\@param x"],
    ["nul\u0000and\u2028sep", "nul and sep"],
  ])("comment(%j) → %j", (input, want) => {
    expect(comment(input)).toBe(want);
  });

  it.each([
    ["a\"b", '"a\\"b"'],
    ["line\u2028sep\u2029", '"line\\u2028sep\\u2029"'],
    ["${x}`", '"${x}`"'],
    ["\u0000", '"\\u0000"'],
  ])("stringLiteral(%j) → %s, and it evaluates back to the input", (input, want) => {
    const out = stringLiteral(input);
    expect(out).toBe(want);
    expect(new Function(`return ${out};`)()).toBe(input);
  });

  it.each([
    ["name", "type", "name"],
    ["content-type", "type", '"content-type"'],
    ["2fa", "type", '"2fa"'],
    ["__proto__", "type", "__proto__"],
    ["__proto__", "value", '["__proto__"]'],
  ] as const)("propertyKey(%j, %s) → %s", (name, position, want) => {
    expect(propertyKey(name, position)).toBe(want);
  });

  it("a value-position __proto__ key creates an own property", () => {
    const obj = new Function(`return { ${propertyKey("__proto__", "value")}: 1 };`)() as object;
    expect(Object.prototype.hasOwnProperty.call(obj, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  });

  it("identifier() refuses anything the naming pass did not make safe", () => {
    expect(identifier("Pet")).toBe("Pet");
    for (const bad of ["a b", "1x", "class", "x;alert(1)", ""]) expect(() => identifier(bad)).toThrow(/not a safe identifier/);
  });

  it("literal() writes JSON scalars", () => {
    expect([literal(null), literal(true), literal(1.5), literal(-0), literal("x")]).toEqual(["null", "true", "1.5", "0", '"x"']);
  });
});

describe("naming", () => {
  it.each([
    ["list_erc20-transactions", "listErc20Transactions", "ListErc20Transactions"],
    ["HTTPServer", "httpServer", "HttpServer"],
    ["getV1Chains", "getV1Chains", "GetV1Chains"],
    ["ünïcödé name", "ünïcödéName", "ÜnïcödéName"],
  ])("%j → camel %j, pascal %j", (input, camel, pascal) => {
    expect(camelCase(input)).toBe(camel);
    expect(pascalCase(input)).toBe(pascal);
  });

  it("splits words on separators and humps", () => {
    expect(words("x-service_API keyValue")).toEqual(["x", "service", "API", "key", "Value"]);
  });

  it("makes reserved and digit-leading names safe", () => {
    expect(toIdentifier("class", "camel")).toBe("class_");
    expect(toIdentifier("123abc", "pascal")).toBe("_123abc");
    expect(toIdentifier("***", "pascal")).toBe("Unnamed");
    expect(isIdentifier(toIdentifier("delete", "camel"))).toBe(true);
  });

  it("hands out unique names", () => {
    const r = new NameRegistry();
    r.reserve("T");
    expect([r.claim("Pet"), r.claim("Pet"), r.claim("T"), r.claim("Pet")]).toEqual(["Pet", "Pet2", "T2", "Pet3"]);
  });
});
