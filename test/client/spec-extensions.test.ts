/**
 * avaspec's specification extensions, on any document (the extensions-31
 * fixture: an OpenAPI and an OpenRPC document), end to end:
 *
 * - open enumerations (`x-avaspec-open-enum: true` beside `enum`, or
 *   Zalando's `x-extensible-enum`): typed as the known values plus an open
 *   string, valid with any value of the type, mocked with the known values;
 * - release markers (`x-avaspec-added-in`, `-deprecated-in`, `-removed-in`)
 *   and `x-avaspec-unimplemented`: JSDoc, a one-time warning on the first
 *   call (switchable), the README's lifecycle table;
 * - a declared wire shape (`x-avaspec-wire-shape: { wrappedIn }`): the
 *   client, the result validator and the mocks take both forms and give the
 *   documented one;
 * - malformed extension values: diagnostics at their pointers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import Ajv from "ajv";
import { createApiClient } from "../fixtures/extensions-31/golden/src/api/client.js";
import type { Health, Service } from "../fixtures/extensions-31/golden/src/api/types.js";
import { validateHealth, validateGetHealthParams } from "../fixtures/extensions-31/golden/src/api/validators.js";
import { createRpcClient } from "../fixtures/extensions-31/golden/src/rpc/client.js";
import { validateDemoGetRangeResult, validateDemoGetSliceResult } from "../fixtures/extensions-31/golden/src/rpc/validators.js";
import { createMocks, createMockService, mockTables } from "../fixtures/extensions-31/golden/src/mocks/index.js";
import { ValidationError } from "../fixtures/extensions-31/golden/src/runtime/errors/errors.js";
import { useMsw } from "../helpers/msw.js";
import { startRpcServer, type RpcTestServer } from "../helpers/rpc-server.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { ROOT, runCli } from "../helpers/cli.js";

const GOLDEN = join(ROOT, "test/fixtures/extensions-31/golden");
const read = (path: string) => readFileSync(join(GOLDEN, path), "utf8");

let server: TestServer;
let rpcServer: RpcTestServer;
beforeAll(async () => {
  server = await startServer();
  rpcServer = await startRpcServer();
});
afterAll(async () => {
  await server.close();
  await rpcServer.close();
});
const last = () => server.requests.at(-1)!;
const rpcAnswer = (result: unknown) => rpcServer.answer(() => ({ result }));

describe("open enumerations", () => {
  it("are typed as the known values plus an open string (or number); a closed enum stays closed", () => {
    const types = read("src/api/types.ts");
    expect(types).toContain('export type Service = "db" | "queue" | (string & {});');
    expect(types).toMatch(/status: "OK" \| "UNAVAILABLE" \| \(string & \{\}\);/);
    expect(types).toMatch(/level: 1 \| 2 \| 3 \| \(number & \{\}\) \| null;/);
    expect(types).toMatch(/mode\?: "primary" \| "replica";/);
    // compile-time (npm run typecheck): known and new values fit, other types do not
    const known: Service = "db";
    const added: Service = "cache";
    // @ts-expect-error a number is not a Service
    const wrongType: Service = 5;
    // @ts-expect-error the closed enum refuses a value it does not list
    const closed: Health["mode"] = "arbiter";
    expect([known, added, wrongType, closed]).toHaveLength(4);
  });

  it("validators accept values the spec does not list, but not other types; the closed enum refuses them", () => {
    expect(validateHealth({ service: "cache", status: "DEGRADED", level: 7 }).ok).toBe(true);
    expect(validateHealth({ service: "db", status: "OK", level: null, mode: "replica" }).ok).toBe(true);
    const wrong = validateHealth({ service: 3, status: "OK", level: "7", mode: "arbiter" });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.issues.map((i) => i.path).sort()).toEqual(["/level", "/mode", "/service"]);
    expect(validateGetHealthParams({ service: "cache" }).ok).toBe(true);
  });

  it("the client sends a value the spec does not list and takes one back under strict validation", async () => {
    const api = createApiClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });
    server.reply(() => ({ body: { service: "cache", status: "DEGRADED", level: 9 } }));
    await expect(api.getHealth({ service: "cache" })).resolves.toEqual({ service: "cache", status: "DEGRADED", level: 9 });
    expect(last().url).toBe("/health/cache");
    server.reply(() => ({ body: { service: "cache", status: "OK", level: 1, mode: "arbiter" } }));
    await expect(api.getHealth({ service: "cache" })).rejects.toBeInstanceOf(ValidationError);
  });

  it("mocks answer with the known values only", () => {
    const seen = new Set<unknown>();
    for (let seed = 1; seed <= 40; seed++) {
      const sample = createMockService([mockTables.api], { seed, examples: false }).sample("getHealth") as Health;
      seen.add(sample.service).add(sample.status);
      expect(["db", "queue"]).toContain(sample.service);
      expect(["OK", "UNAVAILABLE"]).toContain(sample.status);
      expect([1, 2, 3, null]).toContain(sample.level);
    }
    expect(seen.size).toBe(4);
  });
});

describe("release markers and x-avaspec-unimplemented", () => {
  it("JSDoc carries the releases and the unimplemented note", () => {
    const api = read("src/api/client.ts");
    expect(api).toContain("@deprecated Deprecated in v1.4.0 and removed in v2.0.0. Servers do not serve it from then on.");
    expect(api).toContain("@since v1.0.0");
    expect(api).toMatch(/Not served everywhere: Servers before v1\.4\.0 do not serve it and answer 404\.\s+\*\s+\* @since v1\.4\.0/);
    const rpc = read("src/rpc/client.ts");
    expect(rpc).toContain("@deprecated Removed in v2.0.0 (Big). Servers do not serve it from then on.");
    expect(rpc).toContain("@deprecated Since v1.5.0.");
    expect(rpc).toContain("Not served everywhere: Server Z does not implement it; it answers -32601 (method not found).");
  });

  it("the README lists them", () => {
    const readme = read("README.md");
    expect(readme).toContain("| `getHealthV1` | v1.0.0 | v1.4.0 | v2.0.0 |  |");
    expect(readme).toContain("| `getHealthV2` | v1.4.0 |  |  | Servers before v1.4.0 do not serve it and answer 404. |");
    expect(readme).toContain("| `demo.accounts` |  |  | v2.0.0 (Big) |  |");
    expect(readme).toContain("| `demo.status` |  | v1.5.0 |  |  |");
    expect(readme).not.toMatch(/^\| `demo\.getRange` \|  \|/m);
  });

  it("the first call of a deprecated operation warns once per client with a callback; never with false; not for the others", async () => {
    const messages: string[] = [];
    const api = createApiClient({ baseUrl: server.url, retry: false, deprecationWarnings: (m) => messages.push(m) });
    server.reply(() => ({ body: [] }));
    await api.getHealthV1();
    await api.getHealthV1();
    await api.getHealthV2();
    expect(messages).toEqual(["getHealthV1 (GET /v1/health) is deprecated in v1.4.0 and removed in v2.0.0; servers do not serve it from then on"]);
    const again: string[] = [];
    await createApiClient({ baseUrl: server.url, retry: false, deprecationWarnings: (m) => again.push(m) }).getHealthV1();
    expect(again).toHaveLength(1);
    const silent = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await createApiClient({ baseUrl: server.url, retry: false, deprecationWarnings: false }).getHealthV1();
      expect(silent).not.toHaveBeenCalled();
    } finally {
      silent.mockRestore();
    }
  });

  it("by default console.warn says it once per process, across clients and batches", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      rpcAnswer("ok");
      const a = createRpcClient({ baseUrl: rpcServer.url, retry: false });
      await a.demo.status();
      await a.demo.status();
      await createRpcClient({ baseUrl: rpcServer.url, retry: false }).demo.status();
      await a.demo.simulate();
      expect(warn.mock.calls).toEqual([["avaspec: demo.status is deprecated since v1.5.0"]]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("x-avaspec-integer and string integer formats (the number policy, on any spec)", () => {
  const usage = { bytes: "18446744073709551615", blocks: ["0x0", "0x1b4"], byRegion: { eu: "12", "a/b~c": "3" }, last: "0xff" };

  it("types: marked strings, typed by the policy (Usage<N>); params take bigint and number", () => {
    expect(read("src/api/types.ts")).toMatch(/export type Quantity = `0x\$\{string\}` & IntegerString<"hex">;/);
    expect(read("src/api/types.ts")).toMatch(/export interface Usage<N extends Numbers = "string"> \{/);
    expect(read("src/api/types.ts")).toMatch(/bytes: Numbered<string & IntegerString<"decimal">, N>;/);
    expect(read("src/api/client.ts")).toMatch(/export type GetUsageParams = Encodable<\{/);
    expect(read("src/api/client.ts")).toMatch(/readonly getUsage: HttpMethod<GetUsageParams, T\.Usage<N>>;/);
  });

  it("reads every kind of place an integer can be (property, items, additionalProperties, oneOf) as bigint when asked", async () => {
    server.reply(() => ({ body: usage }));
    const big = await createApiClient({ baseUrl: server.url, retry: false, numbers: "bigint", validateResponse: "strict" }).getUsage({ service: "db" });
    expect(big).toEqual({ bytes: 2n ** 64n - 1n, blocks: [0n, 436n], byRegion: { eu: 12n, "a/b~c": 3n }, last: 255n });
    server.reply(() => ({ body: { ...usage, last: "none" } }));
    const none = await createApiClient({ baseUrl: server.url, retry: false, numbers: "bigint" }).getUsage({ service: "db" });
    expect(none.last).toBe("none");
    // the OpenAPI family's default is the wire's strings
    server.reply(() => ({ body: usage }));
    await expect(createApiClient({ baseUrl: server.url, retry: false }).getUsage({ service: "db" })).resolves.toEqual(usage);
  });

  it("writes a signed int64 query parameter in decimal, negatives included, and refuses 2^63", async () => {
    server.reply(() => ({ body: usage }));
    const api = createApiClient({ baseUrl: server.url, retry: false });
    await api.getUsage({ service: "db", since: -(2n ** 63n) });
    expect(last().url).toBe("/v1/usage/db?since=-9223372036854775808");
    const e = await api.getUsage({ service: "db", since: 2n ** 63n }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as Error).message).toMatch(/getUsage: parameter "since" must be at most 9223372036854775807 \(a signed 64-bit integer\), got 9223372036854775808/);
  });
});

describe("x-avaspec-wire-shape", () => {
  const rpc = () => createRpcClient({ baseUrl: rpcServer.url, retry: false, validateResponse: "strict" });

  it("the client returns the documented array whether the server wraps it or not", async () => {
    rpcAnswer({ items: ["a", "b"] });
    await expect(rpc().demo.getRange({ count: 2 })).resolves.toEqual(["a", "b"]);
    rpcAnswer([]);
    await expect(rpc().demo.getRange({ count: 0 })).resolves.toEqual([]);
    rpcAnswer({ items: [] });
    await expect(rpc().demo.getRange({ count: 0 })).resolves.toEqual([]);
  });

  it("strict validation checks the unwrapped value", async () => {
    rpcAnswer({ items: [1] });
    const e = await rpc().demo.getRange({ count: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).issues[0]!.path).toBe("/0");
    rpcAnswer({ other: ["a"] });
    await expect(rpc().demo.getRange({ count: 1 })).rejects.toBeInstanceOf(ValidationError);
  });

  it("the result validator takes both forms and gives the documented one", () => {
    expect(validateDemoGetRangeResult({ items: ["a"] })).toEqual({ ok: true, value: ["a"] });
    expect(validateDemoGetRangeResult(["a"])).toEqual({ ok: true, value: ["a"] });
    expect(validateDemoGetRangeResult({ items: [1] }).ok).toBe(false);
    expect(validateDemoGetRangeResult({ item: ["a"] }).ok).toBe(false);
  });

  describe("a result schema that lists the wrapped form as a branch (issue 27)", () => {
    it("is typed, checked and returned as the documented result: the wrapped branch is stripped", async () => {
      expect(read("src/rpc/client.ts")).toMatch(/getSlice\(params: DemoGetSliceParams, options\?: CallOptions\): Promise<T\.Items>;/);
      const typed: string[] = await (rpcAnswer({ slice: ["a", "b"] }), rpc().demo.getSlice({ count: 2 }));
      expect(typed).toEqual(["a", "b"]);
      rpcAnswer(["c"]);
      await expect(rpc().demo.getSlice({ count: 1 })).resolves.toEqual(["c"]);
      rpcAnswer({ slice: [3] });
      await expect(rpc().demo.getSlice({ count: 1 })).rejects.toBeInstanceOf(ValidationError);
      expect(validateDemoGetSliceResult({ slice: ["a"] })).toEqual({ ok: true, value: ["a"] });
    });

    it("the shipped document describes both forms, so Ajv accepts what the server sends", () => {
      const doc = JSON.parse(read("spec/rpc.json")) as { components: object; methods: { name: string; result: { schema: object } }[] };
      const ajv = new Ajv.default({ strict: false });
      ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
      const check = ajv.compile(JSON.parse(JSON.stringify(doc.methods.find((m) => m.name === "demo.getSlice")!.result.schema).replace(/"#\/components\//g, '"doc#/components/')) as object);
      expect([check(["a"]), check({ slice: ["a"] }), check({ slice: [1] }), check({ other: ["a"] })]).toEqual([true, true, false, false]);
    });
  });

  describe("mocks through MSW's setupServer", () => {
    const BASE = "http://mock.test/ext/demo";
    const documented = createMocks({ baseUrls: { rpc: BASE } });
    const real = createMocks({ baseUrls: { rpc: `${BASE}-real` }, wireShapes: "server" });
    useMsw(documented, real);
    const call = async (url: string) => {
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "demo.getRange", params: { count: 2 } }) });
      return ((await r.json()) as { result: unknown }).result;
    };

    it("answer in the documented form by default, in the servers' form when asked; the client reads both", async () => {
      expect(await call(BASE)).toEqual(["a", "b"]);
      expect(await call(`${BASE}-real`)).toEqual({ items: ["a", "b"] });
      for (const baseUrl of [BASE, `${BASE}-real`]) {
        await expect(createRpcClient({ baseUrl, retry: false, validateResponse: "strict" }).demo.getRange({ count: 2 })).resolves.toEqual(["a", "b"]);
      }
    });

    it("an override is answered as given", async () => {
      real.override("demo.getRange", { body: ["z"] });
      expect(await call(`${BASE}-real`)).toEqual(["z"]);
    });
  });
});

describe("malformed extensions", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "avaspec-extensions-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const generate = (doc: unknown) => {
    writeFileSync(join(dir, "doc.json"), JSON.stringify(doc, null, 2));
    // one scratch output for unrelated documents: their changes are not releases to version
    return runCli(["generate", "--input", "doc.json", "--out", "out", "--lenient-versions"], dir);
  };
  const rpcDoc = (method: Record<string, unknown>) => ({ openrpc: "1.3.2", info: { title: "M", version: "1" }, methods: [{ name: "m", params: [], result: { name: "r", schema: { type: "string" } }, ...method }] });
  const apiDoc = (schema: unknown) => ({ openapi: "3.1.0", info: { title: "M", version: "1" }, paths: { "/x": { get: { operationId: "x", responses: { "200": { description: "ok", content: { "application/json": { schema } } } } } } } });

  it("a release marker that is not a non-empty string", () => {
    const r = generate(rpcDoc({ "x-avaspec-removed-in": 2 }));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/doc\.json:\d+:\d+ at #\/methods\/0\/x-avaspec-removed-in: x-avaspec-removed-in must name a release \(a non-empty string\), got 2 \[extension\/lifecycle\]/);
  });

  it("x-avaspec-unimplemented that is not a sentence", () => {
    const r = generate(rpcDoc({ "x-avaspec-unimplemented": true }));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/at #\/methods\/0\/x-avaspec-unimplemented: .* \[extension\/unimplemented\]/);
  });

  it("a wire shape on a result that may be an object cannot be told apart", () => {
    const r = generate(rpcDoc({ result: { name: "r", schema: { type: "object" }, "x-avaspec-wire-shape": { wrappedIn: "items" } } }));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/at #\/methods\/0\/result\/x-avaspec-wire-shape: a result wrapped in "items" cannot be told apart from the documented result, which may be an object \[extension\/wire-shape\]/);
  });

  it("a wrapped branch listed in the result schema must hold the documented result, beside it (issue 27)", () => {
    const items = { type: "array", items: { type: "string" } };
    const listed = (branches: unknown[]) => generate(rpcDoc({ result: { name: "r", schema: { oneOf: branches }, "x-avaspec-wire-shape": { wrappedIn: "items" } } }));
    const other = listed([items, { type: "object", required: ["items"], properties: { items: { type: "array", items: { type: "integer" } } } }]);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toMatch(/at #\/methods\/0\/result\/x-avaspec-wire-shape: the result's wrapped branch holds another schema under "items" than the documented result \[extension\/wire-shape\]/);
    const alone = listed([{ type: "object", required: ["items"], properties: { items } }]);
    expect(alone.stderr).toMatch(/every branch of the result's oneOf is the wrapped form \{ "items": … \} \[extension\/wire-shape\]/);
    const objectToo = listed([items, { type: "object" }, { type: "object", required: ["items"], properties: { items } }]);
    expect(objectToo.stderr).toMatch(/a result wrapped in "items" cannot be told apart from the documented result, which may be an object \[extension\/wire-shape\]/);
    expect(listed([items, { type: "object", required: ["items"], properties: { items } }]).status).toBe(0);
  });

  it("a wire shape that is not { wrappedIn }", () => {
    const r = generate(rpcDoc({ result: { name: "r", schema: { type: "array" }, "x-avaspec-wire-shape": { unwrap: "items" } } }));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/at #\/methods\/0\/result\/x-avaspec-wire-shape: x-avaspec-wire-shape must be \{ wrappedIn: "<property>" \}/);
  });

  it("x-avaspec-open-enum must be a boolean, and needs an enum", () => {
    const bad = generate(apiDoc({ type: "string", enum: ["a"], "x-avaspec-open-enum": "yes" }));
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/at #\/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema\/x-avaspec-open-enum: x-avaspec-open-enum must be true or false, got "yes" \[extension\/open-enum\]/);
    const lone = generate(apiDoc({ type: "string", "x-avaspec-open-enum": true }));
    expect(lone.status).toBe(0);
    expect(lone.stderr).toMatch(/x-avaspec-open-enum needs an enum beside it \(the known values\) \[extension\/open-enum\] \(warning\)/);
  });

  it("x-avaspec-result-by-param must name a declared param and give a schema per scalar value", () => {
    const undeclared = generate(rpcDoc({ params: [{ name: "full", schema: { type: "boolean" } }], "x-avaspec-result-by-param": { param: "hydrated", variants: [{ value: true, schema: { type: "string" } }] } }));
    expect(undeclared.status).not.toBe(0);
    expect(undeclared.stderr).toMatch(/at #\/methods\/0\/x-avaspec-result-by-param\/param: x-avaspec-result-by-param names "hydrated", which is not a param of this method \[extension\/result-by-param\]/);
    const twice = generate(rpcDoc({ params: [{ name: "full", schema: { type: "boolean" } }], "x-avaspec-result-by-param": { param: "full", variants: [{ value: true, schema: {} }, { value: true, schema: {} }] } }));
    expect(twice.stderr).toMatch(/at #\/methods\/0\/x-avaspec-result-by-param\/variants\/1\/value: two variants for the value true/);
    const noSchema = generate(rpcDoc({ params: [{ name: "full", schema: { type: "boolean" } }], "x-avaspec-result-by-param": { param: "full", variants: [{ value: { a: 1 }, schema: {} }] } }));
    expect(noSchema.stderr).toMatch(/at #\/methods\/0\/x-avaspec-result-by-param\/variants\/0: x-avaspec-result-by-param must be/);
  });

  it("x-avaspec-integer must be decimal, hex or { encoding, signed, bits } on a string, true or { signed, bits } on a number", () => {
    const at = /at #\/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema\/x-avaspec-integer: /;
    const cases: [unknown, RegExp][] = [
      [{ type: "string", "x-avaspec-integer": "octal" }, /x-avaspec-integer must be "decimal", "hex" or an object, got "octal"/],
      [{ type: "integer", "x-avaspec-integer": "decimal" }, /x-avaspec-integer on a JSON number must be true or \{ signed, bits \}, got "decimal" \(a JSON number has no text encoding\)/],
      [{ type: "boolean", "x-avaspec-integer": true }, /x-avaspec-integer needs type: string \(the integer travels as text\) or type: integer \(a JSON number\), got type boolean/],
      [{ type: "string", "x-avaspec-integer": { encoding: "hex", signed: true } }, /a hex quantity has no sign; signed needs encoding decimal/],
      [{ type: "string", "x-avaspec-integer": { encoding: "decimal", bits: 0 } }, /x-avaspec-integer.bits must be an integer from 1 to 4096, got 0/],
      [{ type: "string", "x-avaspec-integer": { encoding: "decimal", size: 64 } }, /x-avaspec-integer has unknown member "size"/],
    ];
    for (const [schema, message] of cases) {
      const r = generate(apiDoc(schema));
      expect(r.status, JSON.stringify(schema)).not.toBe(0);
      expect(r.stderr).toMatch(at);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/\[extension\/integer\]/);
    }
    expect(generate(apiDoc({ type: ["string", "null"], "x-avaspec-integer": { encoding: "decimal", signed: true, bits: 64 } })).status).toBe(0);
  });

  it("x-extensible-enum must be a list of values", () => {
    const r = generate(apiDoc({ type: "string", "x-extensible-enum": "a,b" }));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/x-extensible-enum must be a non-empty list of values \[extension\/open-enum\]/);
  });
});
