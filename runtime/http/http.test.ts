import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors/errors.js";
import { buildRequest, resolveHttpConfig, type HttpOperation, type ParamSpec } from "./http.js";
import { pathStyle, queryStyle } from "./styles.js";

const config = resolveHttpConfig({ baseUrl: "https://api.test/" }, "https://unused");
// as the generator does: a style encoder only where the style or explode is not the location's default
const withEncoder = (p: ParamSpec): ParamSpec =>
  p.in === "path" && ((p.style ?? "simple") !== "simple" || p.explode === true) ? { ...p, encode: pathStyle } : p.in === "query" && ((p.style ?? "form") !== "form" || p.explode === false) ? { ...p, encode: queryStyle } : p;
const op = (params: ParamSpec[], extra: Partial<HttpOperation> = {}): HttpOperation => ({ id: "op", method: "GET", path: "/r", params: params.map(withEncoder), response: "json", ...extra });
const query = (spec: ParamSpec, value: unknown) => buildRequest(config, op([spec]), { [spec.name]: value }).url.replace("https://api.test/r", "");

describe("query serialization (OpenAPI styles)", () => {
  it.each([
    [{ name: "ids", in: "query" }, [1, 2], "?ids=1&ids=2"],
    [{ name: "ids", in: "query", explode: false }, [1, 2], "?ids=1,2"],
    [{ name: "ids", in: "query", style: "spaceDelimited", explode: false }, ["a", "b"], "?ids=a%20b"],
    [{ name: "ids", in: "query", style: "pipeDelimited", explode: false }, ["a", "b"], "?ids=a|b"],
    [{ name: "f", in: "query", style: "deepObject", explode: true }, { min: 1, max: 5 }, "?f%5Bmin%5D=1&f%5Bmax%5D=5"],
    [{ name: "f", in: "query" }, { min: 1, max: 5 }, "?min=1&max=5"],
    [{ name: "f", in: "query", explode: false }, { min: 1, max: 5 }, "?f=min,1,max,5"],
    [{ name: "q", in: "query" }, "a b&c=d", "?q=a%20b%26c%3Dd"],
    [{ name: "b", in: "query" }, false, "?b=false"],
    [{ name: "n", in: "query" }, 0, "?n=0"],
    [{ name: "skip", in: "query" }, undefined, ""],
    [{ name: "skip", in: "query" }, null, ""],
  ] as [ParamSpec, unknown, string][])("%o with %j → %s", (spec, value, want) => {
    expect(query(spec, value)).toBe(want);
  });
});

describe("path serialization", () => {
  it.each([
    [{ name: "id", in: "path", required: true }, "a/b c", "/x/a%2Fb%20c"],
    [{ name: "id", in: "path", required: true }, [1, 2], "/x/1,2"],
    [{ name: "id", in: "path", required: true, style: "label" }, "v", "/x/.v"],
    [{ name: "id", in: "path", required: true, style: "matrix" }, "v", "/x/;id=v"],
    [{ name: "id", in: "path", required: true, style: "matrix", explode: true }, [1, 2], "/x/;id=1;id=2"],
    // RFC 6570 for the rest of the table
    [{ name: "id", in: "path", required: true }, { R: 100, G: 200 }, "/x/R,100,G,200"],
    [{ name: "id", in: "path", required: true, explode: true }, { R: 100, G: 200 }, "/x/R=100,G=200"],
    [{ name: "id", in: "path", required: true, style: "label" }, ["a", "b"], "/x/.a,b"],
    [{ name: "id", in: "path", required: true, style: "label", explode: true }, ["a", "b"], "/x/.a.b"],
    [{ name: "id", in: "path", required: true, style: "label", explode: true }, { R: 100, G: 200 }, "/x/.R=100.G=200"],
    [{ name: "id", in: "path", required: true, style: "matrix" }, ["a", "b"], "/x/;id=a,b"],
    [{ name: "id", in: "path", required: true, style: "matrix" }, { R: 100, G: 200 }, "/x/;id=R,100,G,200"],
    [{ name: "id", in: "path", required: true, style: "matrix", explode: true }, { R: 100, G: 200 }, "/x/;R=100;G=200"],
  ] as [ParamSpec, unknown, string][])("%o with %j → %s", (spec, value, want) => {
    const r = buildRequest(config, op([spec], { path: "/x/{id}" }), { id: value });
    expect(r.url).toBe(`https://api.test${want}`);
  });
});

describe("hostile and bad values", () => {
  it("reads parameters as own properties: an inherited value is not a parameter", () => {
    const params = Object.create({ id: "inherited" }) as Record<string, unknown>;
    expect(() => buildRequest(config, op([{ name: "id", in: "path", required: true }], { path: "/x/{id}" }), params)).toThrow(ValidationError);
  });

  it("treats a __proto__ key as plain data", () => {
    const params = JSON.parse('{"__proto__": "p"}') as Record<string, unknown>;
    const r = buildRequest(config, op([{ name: "__proto__", in: "query" }]), params);
    expect(r.url).toBe("https://api.test/r?__proto__=p");
    expect(({} as Record<string, unknown>)["p"]).toBeUndefined();
  });

  it.each([NaN, Infinity, [[1]], [{}], () => 1, Symbol("s")])("rejects an unusable value %s", (value) => {
    expect(() => buildRequest(config, op([{ name: "q", in: "query" }]), { q: value })).toThrow(ValidationError);
  });

  it("rejects a non-object parameter bag", () => {
    expect(() => buildRequest(config, op([]), "x" as never)).toThrow(/parameters must be an object/);
  });

  it.each([".", "..", ""])("refuses %j as a whole path segment, in any style", (value) => {
    for (const style of [undefined, "label", "matrix"] as const) {
      const spec: ParamSpec = { name: "id", in: "path", required: true, ...(style ? { style } : {}) };
      const build = () => buildRequest(config, op([spec], { path: "/x/{id}" }), { id: value });
      // label "" and "." make the segment "." and "..": refused too; matrix ";id=." is not a dot segment
      if (style === "matrix") expect(build().url).toBe(`https://api.test/x/;id=${value}`);
      else if (style === "label" && value === "..") expect(build().url).toBe("https://api.test/x/...");
      else expect(build, `${style} ${value}`).toThrow(/must not be/);
    }
  });

  it("sends cookies and headers", () => {
    const r = buildRequest(config, op([{ name: "sid", in: "cookie" }, { name: "X-Id", in: "header" }]), { sid: "a b", "X-Id": 7 });
    expect(r.init.headers).toMatchObject({ cookie: "sid=a%20b", "x-id": "7" });
  });

  it("keeps a query API key out of the URL used in errors", () => {
    const keyed = resolveHttpConfig({ baseUrl: "https://api.test", apiKey: "s3cret" }, "");
    const r = buildRequest(keyed, op([], { apiKeys: [{ scheme: "Key", name: "key", in: "query" }] }), {});
    expect(r.url).toBe("https://api.test/r?key=s3cret");
    expect(r.safeUrl).toBe("https://api.test/r");
  });

  it("serializes a JSON body and sets content-type", () => {
    const r = buildRequest(config, op([], { method: "POST", body: { required: true, contentType: "application/json" } }), { body: { a: 1 } });
    expect(r.init.body).toBe('{"a":1}');
    expect(r.init.headers).toMatchObject({ "content-type": "application/json" });
  });
});

describe("an operation's own server", () => {
  const own = (server: string, baseUrl: string, operationServers?: Record<string, string>) => buildRequest(resolveHttpConfig({ baseUrl, ...(operationServers ? { operationServers } : {}) }, "https://unused"), op([], { server }), {}).url;

  it.each([
    ["https://files.test/v3/", "https://api.test/v1", "https://files.test/v3/r"],
    ["/edge", "https://api.test/v1", "https://api.test/edge/r"],
    ["edge", "https://api.test/v1", "https://api.test/v1/edge/r"],
    // a relative base URL (a browser's same-origin "/api"): the relative server's path as it is
    ["/edge", "/api", "/edge/r"],
  ])("%s below %s → %s", (server, baseUrl, want) => {
    expect(own(server, baseUrl)).toBe(want);
  });

  it("operationServers wins, by operation id, and only an own property counts", () => {
    expect(own("https://files.test", "https://api.test", { op: "http://127.0.0.1:1/x/" })).toBe("http://127.0.0.1:1/x/r");
    expect(own("https://files.test", "https://api.test", JSON.parse('{"__proto__": {"op": "https://evil.test"}}') as Record<string, string>)).toBe("https://files.test/r");
  });
});
