/**
 * Spec strings are untrusted. The hostile fixture tries to break out of every
 * context (comments, string literals, keys, identifiers, template literals);
 * loading and calling its generated client must execute none of it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../../generator/config.js";
import { generate } from "../../generator/generate.js";
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
    const { createMockService } = await import(join(golden, "runtime/mock/mock.ts"));
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
    const { ValidationError } = await import(join(golden, "runtime/errors/errors.ts"));
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

  it("imported in a fresh process, every module only defines things: no output, nothing set, nothing left running", () => {
    const modules = ["index.ts", "api/index.ts", "api/types.ts", "api/validators.js", "api/client.ts", "api/mocks.ts", "mocks/index.ts", "mock-server/index.ts"];
    const dir = mkdtempSync(join(tmpdir(), "avaspec-hostile-"));
    try {
      const script = join(dir, "import-all.mts");
      writeFileSync(
        script,
        [
          ...modules.map((m, i) => `import * as m${i} from ${JSON.stringify(pathToFileURL(join(golden, m)).href)};`),
          `const exported = [${modules.map((_, i) => `m${i}`).join(", ")}].map((m) => Object.keys(m).length);`,
          `process.stdout.write(JSON.stringify({ pwned: (globalThis as { __pwned?: unknown }).__pwned ?? null, polluted: ({} as Record<string, unknown>)["polluted"] ?? null, exported }));`,
        ].join("\n"),
      );
      const r = spawnSync(process.execPath, [join(ROOT, "node_modules/tsx/dist/cli.mjs"), script], { encoding: "utf8", timeout: 60_000 });
      expect(r.stderr).toBe("");
      expect(r.status, "the process exits by itself: nothing left running").toBe(0);
      const out = JSON.parse(r.stdout) as { pwned: unknown; polluted: unknown; exported: number[] };
      expect(out.pwned).toBeNull();
      expect(out.polluted).toBeNull();
      // the modules did load: each exports something, except types (type-only)
      expect(out.exported.filter((n, i) => modules[i] !== "api/types.ts" && n === 0)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("writes only its own fixed layout: no spec string (operationIds like ../../x, tags like CON) becomes a file name", () => {
    const { files } = generate(loadConfig(join(ROOT, "test/fixtures/hostile-31/avaspec.config.json")));
    const allowed = /^(package\.json|tsconfig\.json|README\.md|CHANGELOG\.md|versions\.json|spec\/spec\.json|src\/index\.ts|src\/(mocks|mock-server)\/index\.ts|src\/mock-server\/cli\.ts|src\/mcp\/(index|catalog|cli)\.ts|src\/runtime\/([a-z]+\/)?[a-z][a-z0-9-]*\.ts|src\/api\/(types|client|mocks|index)\.ts|src\/api\/(validators|operations|functions)\.(js|d\.ts)|scripts\/copy-js\.mjs)$/;
    for (const path of files.keys()) {
      expect(path, path).toMatch(allowed);
      expect(isAbsolute(path) || normalize(path).startsWith("..")).toBe(false);
    }
    expect([...files.keys()].some((p) => /CON|x = 1|\.\./.test(p))).toBe(false);
  });

  it("names operations from hostile operationIds safely, and calls them", async () => {
    const { createApiClient } = await import(join(golden, "api/client.ts"));
    const api = createApiClient({ baseUrl: server.url, retry: false });
    server.reply(() => ({ body: { level: 1 } }));
    expect(await api["x1Y"]()).toEqual({ level: 1 });
    expect(server.requests.at(-1)!.url).toBe("/con");
    server.reply(() => ({ status: 204 }));
    await api.delete();
    expect(server.requests.at(-1)!.url).toBe("/reserved");
    expect(g.__pwned).toBeUndefined();
  });

  it("keeps enum values whose type disagrees with the schema type, and validates by JSON Schema rules", async () => {
    const { validateCon } = await import(join(golden, "api/validators.js"));
    expect(validateCon({ level: 1 }).ok).toBe(true);
    // "2", "x\"y" and null are enum members but not integers: type and enum must both hold
    for (const level of ["2", 'x"y', null, 3]) expect(validateCon({ level }).ok, JSON.stringify(level)).toBe(false);
    expect(readFileSync(join(golden, "api/types.ts"), "utf8")).toContain('level?: 1 | "2" | "x\\"y" | null;');
  });

  it("keeps hostile defaults, examples, media types and U+2029 inert: comments closed, strings escaped", () => {
    const client = readFileSync(join(golden, "api/client.ts"), "utf8");
    // a U+2029 in a summary ends no comment line and leaves no raw separator in the file
    expect(client).not.toContain("\u2029");
    expect(client).toContain("*\\/ globalThis.__pwned = 'u2029'; /*");
    expect(readFileSync(join(golden, "api/mocks.ts"), "utf8")).not.toContain("\u2029");
  });
});

