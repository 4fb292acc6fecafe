/**
 * Spec strings are untrusted. The hostile fixture tries to break out of every
 * context (comments, string literals, keys, identifiers, template literals);
 * loading and calling its generated client must execute none of it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/server.js";

const golden = join(ROOT, "test/fixtures/hostile-31/golden/src");
const g = globalThis as { __pwned?: unknown };
let server: TestServer;

beforeAll(async () => {
  delete g.__pwned;
  server = await startServer();
});
afterAll(() => server.close());

describe("generated code from a hostile spec", () => {
  it("imports without running anything the spec smuggled in", async () => {
    const types = await import(join(golden, "api/types.ts"));
    const client = await import(join(golden, "api/client.ts"));
    expect(g.__pwned).toBeUndefined();
    expect(Object.keys(types)).toEqual([]);
    expect(client.API_DEFAULT_BASE_URL).toBe("https://api.example.com/\"; globalThis.__pwned = 'server'; //");
  });

  it("mocks a hostile spec as inert data: keys stay own, nothing runs, no prototype changes", async () => {
    const { mocks } = await import(join(golden, "api/mocks.ts"));
    const { createMockService } = await import(join(golden, "runtime/mock.ts"));
    for (const examples of [true, false]) {
      const service = createMockService([mocks], { examples, seed: 3 });
      for (const id of service.ids) service.sample(id);
      const evil = service.sample("constructor") as object;
      expect(Object.prototype.hasOwnProperty.call(evil, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(evil)).toBe(Object.prototype);
    }
    expect(g.__pwned).toBeUndefined();
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });

  it("keeps every spec string as inert data in the operation descriptors", async () => {
    const { constructorOperation } = await import(join(golden, "api/client.ts"));
    expect(constructorOperation.path).toBe("/items/{id\"}/x`$(globalThis.__pwned='path')`\u2028");
    expect(constructorOperation.params.map((p: { name: string }) => p.name)).toEqual(["id\"", "'; globalThis.__pwned = 'query'; '", "x-header\r\nInjected"]);
  });

  it("calls reserved-word and __proto__ operations as plain methods", async () => {
    const { createApiClient } = await import(join(golden, "api/client.ts"));
    const api = createApiClient({ baseUrl: server.url });
    server.reply(() => ({ body: { __proto__: "p", constructor: "c" } }));
    expect(Object.getPrototypeOf(api)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(api, "__proto__")).toBe(true);
    const viaProto = await api["__proto__"]();
    expect(JSON.parse(JSON.stringify(viaProto))).toEqual({ __proto__: "p", constructor: "c" });
    const viaConstructor = await api.constructor({ 'id"': "../../admin", "'; globalThis.__pwned = 'query'; '": "a\"b" });
    expect(viaConstructor).toBeDefined();
    // the path value is encoded into its segment; the spec's own odd path text is kept literally
    expect(server.requests.at(-1)!.url).toBe("/items/..%2F..%2Fadmin/x%60$(globalThis.__pwned='path')%60%E2%80%A8?%27%3B%20globalThis.__pwned%20%3D%20%27query%27%3B%20%27=a%22b");
    expect(g.__pwned).toBeUndefined();
  });

  it("refuses a header name the spec made invalid, before sending", async () => {
    const { createApiClient } = await import(join(golden, "api/client.ts"));
    const { ValidationError } = await import(join(golden, "runtime/errors.ts"));
    const before = server.requests.length;
    const err = await createApiClient({ baseUrl: server.url }).constructor({ 'id"': "1", "x-header\r\nInjected": "v" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(server.requests.length).toBe(before);
  });

  it("escapes comment terminators and tag starts in JSDoc", () => {
    const types = readFileSync(join(golden, "api/types.ts"), "utf8");
    expect(types).toContain("*\\/ globalThis.__pwned = 'schema'; /*");
    expect(types).toContain("\\@see");
    const client = readFileSync(join(golden, "api/client.ts"), "utf8");
    // the description's "@deprecated not really" is text, not a tag
    expect(client).not.toMatch(/^\s*\* @deprecated not really/m);
  });
});
