/** Validation wired into the clients, and the Standard Schema objects. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ValidationError } from "@avaspec/client";
import { ChainInfoSchema, createDataApiClient, isChainInfo, validateChainInfo, validateListErc20TransactionsParams, type ChainInfo } from "@avaspec/client/data-api";
import { startServer, type TestServer } from "../helpers/server.js";
import { loadSpec, okExample } from "../helpers/spec.js";

const spec = loadSpec("data-api.openapi.json");
const chain = okExample(spec, "getChainInfo") as Record<string, unknown>;
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe("parameters are validated before anything is sent", () => {
  it.each([
    [{ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" as const, pageSize: 101 }, "pageSize", "maximum"],
    [{ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" as const, pageSize: 0 }, "pageSize", "minimum"],
    [{ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" as const, startBlock: -1 }, "startBlock", "minimum"],
    [{ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" as const, pageSize: 2.5 }, "pageSize", "type"],
  ])("%j is refused at %s (%s)", async (params, name, keyword) => {
    const data = createDataApiClient({ baseUrl: server.url });
    const err = (await data.listErc20Transactions(params).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain(`parameter "${name}"`);
    expect(err.issues[0]).toMatchObject({ path: `/${name}`, keyword });
    expect(server.requests).toHaveLength(0);
  });

  it("an enum outside its values is refused", async () => {
    const data = createDataApiClient({ baseUrl: server.url });
    // @ts-expect-error: not a currency of the spec
    const err = (await data.getNativeBalance({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" as const, currency: "btc" }).catch((e: unknown) => e)) as ValidationError;
    expect(err.issues[0]).toMatchObject({ path: "/currency", keyword: "enum" });
    expect(server.requests).toHaveLength(0);
  });

  it("the aggregation body's rules are checked (at least one of message/justification; quorum 0..100)", async () => {
    const data = createDataApiClient({ baseUrl: server.url });
    await expect(data.aggregateSignatures({ network: "fuji", body: { quorumPercentage: 67 } })).rejects.toBeInstanceOf(ValidationError);
    await expect(data.aggregateSignatures({ network: "fuji", body: { message: "0x00", quorumPercentage: 101 } })).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("response validation", () => {
  const bad = { ...chain, isTestnet: "no" };

  it('is off by default: a bad body is returned as received', async () => {
    server.reply(() => ({ body: bad }));
    await expect(createDataApiClient({ baseUrl: server.url }).getChainInfo({ chainId: "43114" })).resolves.toEqual(bad);
  });

  it('"strict" throws a ValidationError with the status, issues and raw body', async () => {
    server.reply(() => ({ status: 200, body: bad }));
    const err = (await createDataApiClient({ baseUrl: server.url, validateResponse: "strict" }).getChainInfo({ chainId: "43114" }).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.statusCode).toBe(200);
    expect(err.rawBody).toBe(JSON.stringify(bad));
    expect(err.issues).toContainEqual(expect.objectContaining({ path: "/isTestnet", keyword: "type" }));
  });

  it('"strict" passes a good body', async () => {
    server.reply(() => ({ body: chain }));
    await expect(createDataApiClient({ baseUrl: server.url, validateResponse: "strict" }).getChainInfo({ chainId: "43114" })).resolves.toEqual(chain);
  });

  it('"warn" logs once and returns the body', async () => {
    server.reply(() => ({ body: bad }));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await expect(createDataApiClient({ baseUrl: server.url, validateResponse: "warn" }).getChainInfo({ chainId: "43114" })).resolves.toEqual(bad);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain("/isTestnet");
    } finally {
      warn.mockRestore();
    }
  });
});

describe("exported validators", () => {
  it("validateX returns the typed value or every issue", () => {
    expect(validateChainInfo(chain)).toEqual({ ok: true, value: chain });
    const r = validateChainInfo({ ...chain, chainId: 43114, isTestnet: "no" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => [i.path, i.keyword])).toEqual(expect.arrayContaining([["/chainId", "type"], ["/isTestnet", "type"]]));
  });

  it("isX is a type guard with the same answer", () => {
    const unknownValue: unknown = chain;
    if (isChainInfo(unknownValue)) {
      const typed: ChainInfo = unknownValue;
      expect(typed.chainId).toBe(chain["chainId"]);
    } else expect.unreachable();
    expect(isChainInfo({ ...chain, isTestnet: "no" })).toBe(false);
  });

  it("validates an operation's params object", () => {
    expect(validateListErc20TransactionsParams({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" }).ok).toBe(true);
    const r = validateListErc20TransactionsParams({ chainId: "43114" });
    expect(!r.ok && r.issues[0]).toMatchObject({ path: "/address", keyword: "required" });
  });

  it("implements Standard Schema v1", async () => {
    const std = ChainInfoSchema["~standard"];
    expect([std.version, std.vendor]).toEqual([1, "avaspec"]);
    expect(await std.validate(chain)).toEqual({ value: chain });
    const bad = await std.validate({ ...chain, utilityAddresses: { multicall: 5 } });
    expect("issues" in bad && bad.issues?.[0]).toMatchObject({ path: ["utilityAddresses", "multicall"] });
  });

  it("treats __proto__, constructor and toString as plain keys", () => {
    const withKeys = JSON.parse(JSON.stringify({ ...chain, __proto__x: 1 }).replace('"__proto__x"', '"__proto__"')) as object;
    expect(Object.prototype.hasOwnProperty.call(withKeys, "__proto__")).toBe(true);
    expect(validateChainInfo(withKeys).ok).toBe(true);
    expect(validateChainInfo({ ...chain, constructor: "x", toString: 1 }).ok).toBe(true);
    const missing = { ...chain } as Record<string, unknown>;
    delete missing["chainId"];
    // an inherited chainId is not the object's own
    expect(validateChainInfo(Object.assign(Object.create({ chainId: "43114" }), missing)).ok).toBe(false);
  });

  it("never takes a property from a polluted Object.prototype", () => {
    const missing = { ...chain } as Record<string, unknown>;
    delete missing["chainId"];
    const proto = Object.prototype as Record<string, unknown>;
    proto["chainId"] = "43114";
    try {
      expect(isChainInfo(missing)).toBe(false);
      const r = validateChainInfo(missing);
      expect(!r.ok && r.issues.map((i) => [i.path, i.keyword])).toEqual([["/chainId", "required"]]);
      // an inherited value that fails its schema is not the object's, so not a failure
      const noLogo = { ...chain } as Record<string, unknown>;
      delete noLogo["chainLogoUri"];
      proto["chainLogoUri"] = 42;
      expect(isChainInfo(noLogo)).toBe(true);
      expect(validateChainInfo(noLogo).ok).toBe(true);
    } finally {
      delete proto["chainId"];
      delete proto["chainLogoUri"];
    }
  });

  it("checks objects of any prototype by their own properties", () => {
    const bare = Object.assign(Object.create(null) as object, chain);
    expect(isChainInfo(bare)).toBe(true);
    class Chain {
      constructor(init: object) {
        Object.assign(this, init);
      }
    }
    expect(isChainInfo(new Chain(chain))).toBe(true);
    const missing = { ...chain } as Record<string, unknown>;
    delete missing["chainId"];
    expect(isChainInfo(Object.assign(Object.create(null) as object, missing))).toBe(false);
    expect(isChainInfo(new Chain(missing))).toBe(false);
    // an own `constructor` key does not make an object look plain
    expect(isChainInfo({ ...missing, constructor: Object })).toBe(false);
  });
});
