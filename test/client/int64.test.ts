/**
 * Lossless 64-bit JSON integers (issue 30, point 4), on the int64-31
 * fixture: a ledger whose ids and amounts are JSON numbers with `format:
 * int64` / `uint64` (and `x-avaspec-integer: true`). JSON.parse rounds
 * 9007199254740993 to 9007199254740992; the client reads such fields from
 * the text. Under `numbers: "bigint"` they are bigints with every digit;
 * under the default they stay numbers, and one beyond 2^53 fails the call
 * with a ValidationError (never a rounded value). Bigints given for them
 * are sent as JSON numbers with all their digits; the validators take the
 * client's bigints; the mock server serves them with all their digits.
 * Real node:http servers on 127.0.0.1 (and the generated mock server).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLedgerClient, createLedgerCore, getAccount } from "../fixtures/int64-31/golden/src/ledger/client.js";
import { isAccount, validateAccount, validateCreateAccountParams } from "../fixtures/int64-31/golden/src/ledger/validators.js";
import { createLedgerRpcClient } from "../fixtures/int64-31/golden/src/rpc/client.js";
import { startMockServer, type MockServer } from "../fixtures/int64-31/golden/src/mock-server/index.js";
import { ValidationError } from "../fixtures/int64-31/golden/src/runtime/errors/errors.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { startRpcServer, type RpcTestServer } from "../helpers/rpc-server.js";

const BIG = 9007199254740993n; // 2^53 + 1: JSON.parse reads 9007199254740992
const MIN64 = -(2n ** 63n);
const MAX_U64 = 2n ** 64n - 1n;

/** An account as the server writes it: integers beyond 2^53 as JSON number literals, with every digit. */
const ACCOUNT_TEXT = `{"id":${BIG},"balance":${MIN64},"nonce":${MAX_U64},"supply":123456789012345678901234567890,"name":"${BIG}","history":[${BIG},7],"limits":{"usd":${BIG},"a/b~c":1},"closedAt":null,"score":12345678901234567890,"label":{"code":${BIG}}}`;

let server: TestServer;
let rpc: RpcTestServer;
beforeAll(async () => {
  server = await startServer();
  rpc = await startRpcServer();
});
afterAll(async () => {
  await server.close();
  await rpc.close();
});

const answerText = (text: string, status = 200) => server.reply(() => ({ status, headers: { "content-type": "application/json" }, body: text }));

describe("reading: a JSON integer beyond 2^53 comes back with all its digits", () => {
  it("under numbers: \"bigint\" every marked integer is the exact bigint; strings and unmarked numbers stay as they are", async () => {
    // what JSON.parse alone makes of the text: the reason the client reads the digits from it
    expect(JSON.parse(ACCOUNT_TEXT).id).toBe(9007199254740992);
    answerText(ACCOUNT_TEXT);
    const ledger = createLedgerClient({ baseUrl: server.url, retry: false, numbers: "bigint" });
    const account = await ledger.getAccount({ id: BIG });
    expect(account.id).toBe(BIG);
    expect(account.balance).toBe(MIN64);
    expect(account.nonce).toBe(MAX_U64);
    expect(account.supply).toBe(123456789012345678901234567890n);
    expect(account.history).toEqual([BIG, 7n]);
    expect(account.limits).toEqual({ usd: BIG, "a/b~c": 1n });
    expect(account.label).toEqual({ code: BIG });
    expect(account.closedAt).toBeNull();
    // a string of digits is a string; a number the schema does not mark is read as JSON.parse reads it
    expect(account.name).toBe(String(BIG));
    expect(account.score).toBe(12345678901234567890);
  });

  it("small integers are bigints too under the bigint policy, numbers under the default", async () => {
    answerText(`{"id":1,"balance":-5,"name":"a","history":[2]}`);
    await expect(createLedgerClient({ baseUrl: server.url, retry: false, numbers: "bigint" }).getAccount({ id: 1 })).resolves.toEqual({ id: 1n, balance: -5n, name: "a", history: [2n] });
    await expect(createLedgerClient({ baseUrl: server.url, retry: false }).getAccount({ id: 1 })).resolves.toEqual({ id: 1, balance: -5, name: "a", history: [2] });
  });

  it("the default policy never returns a rounded number: a ValidationError names the field and its digits", async () => {
    answerText(ACCOUNT_TEXT);
    const e = await createLedgerClient({ baseUrl: server.url, retry: false }).getAccount({ id: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    const error = e as ValidationError;
    expect(error.message).toBe('getAccount: the integer at /id: 9007199254740993 is beyond Number.MAX_SAFE_INTEGER (2^53 - 1), which a JavaScript number cannot hold exactly: read it with numbers: "bigint"');
    expect(error.issues).toEqual([{ path: "/id", message: expect.stringContaining("9007199254740993"), keyword: "integer" }]);
    expect(error.rawBody).toBe(ACCOUNT_TEXT);
  });

  it("a list, the functional form and a per-call policy read the same way", async () => {
    answerText(`[${ACCOUNT_TEXT},{"id":2,"balance":${BIG + 1n},"name":"b"}]`);
    const list = await createLedgerClient({ baseUrl: server.url, retry: false, numbers: "bigint" }).listAccounts();
    expect(list.map((a) => [a.id, a.balance])).toEqual([
      [BIG, MIN64],
      [2n, BIG + 1n],
    ]);
    answerText(ACCOUNT_TEXT);
    const core = createLedgerCore({ baseUrl: server.url, retry: false, numbers: "bigint" });
    await expect(getAccount(core, { id: 1 })).resolves.toMatchObject({ id: BIG, nonce: MAX_U64 });
    await expect(createLedgerClient({ baseUrl: server.url, retry: false }).getAccount({ id: 1 }, { numbers: "bigint" })).resolves.toMatchObject({ id: BIG });
  });
});

describe("writing: a bigint is sent as a JSON number with all its digits", () => {
  it("in a path, a query and a JSON body; and the body read back is the same bigint", async () => {
    // the server answers with the body it was sent, as text: a round trip through the wire
    server.reply((req) => ({ status: req.method === "POST" ? 201 : 200, headers: { "content-type": "application/json" }, body: req.method === "POST" ? req.body : "[]" }));
    const ledger = createLedgerClient({ baseUrl: server.url, retry: false, numbers: "bigint" });
    const account = { id: BIG, balance: MIN64, nonce: MAX_U64, name: "n", history: [BIG, 3n], limits: { usd: BIG }, label: { code: BIG } };
    const created = await ledger.createAccount({ body: account });
    const sent = server.requests.at(-1)!;
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.body).toBe(`{"id":9007199254740993,"balance":-9223372036854775808,"nonce":18446744073709551615,"name":"n","history":[9007199254740993,3],"limits":{"usd":9007199254740993},"label":{"code":9007199254740993}}`);
    expect(created).toEqual(account);
    await ledger.listAccounts({ minBalance: BIG, ids: [BIG, 5n] });
    expect(server.requests.at(-1)!.url).toBe("/accounts?minBalance=9007199254740993&ids=9007199254740993,5");
    server.reply(() => ({ headers: { "content-type": "application/json" }, body: ACCOUNT_TEXT }));
    await ledger.getAccount({ id: BIG });
    expect(server.requests.at(-1)!.url).toBe("/accounts/9007199254740993");
  });

  it("refuses before sending what it cannot send exactly: a number beyond 2^53, a value out of the type's range", async () => {
    const ledger = createLedgerClient({ baseUrl: server.url, retry: false });
    const sent = server.requests.length;
    const unsafe = await ledger.getAccount({ id: 9007199254740993 }).catch((x: unknown) => x);
    expect(unsafe).toBeInstanceOf(ValidationError);
    expect((unsafe as Error).message).toMatch(/getAccount: parameter "id" 9007199254740992 is beyond Number.MAX_SAFE_INTEGER and may have lost digits: pass a bigint/);
    const negative = await ledger.createAccount({ body: { id: 1n, balance: 0, nonce: -1n, name: "n" } }).catch((x: unknown) => x);
    expect((negative as Error).message).toMatch(/parameter "body" at \/body\/nonce must not be negative \(an unsigned 64-bit integer\), got -1/);
    const wide = await ledger.getAccount({ id: 2n ** 63n }).catch((x: unknown) => x);
    expect((wide as Error).message).toMatch(/must be at most 9223372036854775807 \(a signed 64-bit integer\)/);
    expect(server.requests.length).toBe(sent);
  });
});

describe("validators take the client's bigints", () => {
  const fromClient = { id: BIG, balance: MIN64, name: "n", history: [BIG], limits: { usd: BIG } };

  it("a value the bigint client returned is valid, and stays as it is", () => {
    expect(isAccount(fromClient)).toBe(true);
    expect(validateAccount(fromClient)).toEqual({ ok: true, value: fromClient });
    expect(validateAccount(fromClient, { numbers: "bigint" })).toEqual({ ok: true, value: fromClient });
    expect(validateCreateAccountParams({ body: fromClient }).ok).toBe(true);
    // a bigint is still held to the schema: not a string, and an integer
    expect(isAccount({ ...fromClient, id: "9007199254740993" })).toBe(false);
  });

  it("a parsed value reads as bigints when it is exact, and refuses a number JSON.parse may have rounded", () => {
    expect(validateAccount({ id: 7, balance: -1, name: "n" }, { numbers: "bigint" })).toEqual({ ok: true, value: { id: 7n, balance: -1n, name: "n" } });
    const rounded = validateAccount(JSON.parse(ACCOUNT_TEXT), { numbers: "bigint" });
    expect(rounded.ok).toBe(false);
    if (!rounded.ok) expect(rounded.issues[0]).toMatchObject({ path: "/id", keyword: "integer", message: expect.stringMatching(/9007199254740992 is beyond Number.MAX_SAFE_INTEGER and may have lost digits/) });
  });
});

describe("the mock server serves them with all their digits", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, log: () => {} });
  });
  afterAll(() => mock.close());

  it("an override's bigint is a JSON number on the wire, and the bigint client reads it back", async () => {
    mock.override("getAccount", { body: { id: BIG, balance: MIN64, nonce: MAX_U64, name: "m", history: [BIG], limits: { eur: BIG } } });
    const text = await (await fetch(`${mock.url}/accounts/1`)).text();
    expect(text).toContain(`"id":9007199254740993`);
    expect(text).toContain(`"nonce":18446744073709551615`);
    const account = await createLedgerClient({ baseUrl: mock.url, retry: false, numbers: "bigint", validateResponse: "strict" }).getAccount({ id: BIG });
    expect(account).toEqual({ id: BIG, balance: MIN64, nonce: MAX_U64, name: "m", history: [BIG], limits: { eur: BIG } });
    mock.reset();
  });

  it("its synthesized accounts pass the client's strict checks under both policies", async () => {
    for (const numbers of ["bigint", "string"] as const) {
      const account = await createLedgerClient({ baseUrl: mock.url, retry: false, numbers, validateResponse: "strict" }).getAccount({ id: 1 });
      expect(typeof account.id).toBe(numbers === "bigint" ? "bigint" : "number");
    }
  });
});

describe("JSON-RPC: read exactly while a number holds it, never rounded", () => {
  it("a balance within 2^53 is a bigint; one beyond is a ValidationError rather than a rounded bigint", async () => {
    const client = createLedgerRpcClient({ baseUrl: rpc.url, retry: false });
    rpc.answer(() => ({ result: 42 }));
    await expect(client.ledger.getBalance({ account: 1n })).resolves.toBe(42n);
    rpc.answer(() => ({ result: 9007199254740992 }));
    const e = await client.ledger.getBalance({ account: 1n }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as Error).message).toMatch(/ledger_getBalance: the integer at \/: 9007199254740992 is beyond Number.MAX_SAFE_INTEGER and may have lost digits/);
  });

  it("a param beyond 2^53 is refused before sending, not sent rounded; one within goes as a JSON number", async () => {
    const client = createLedgerRpcClient({ baseUrl: rpc.url, retry: false });
    rpc.answer(() => ({ result: 1 }));
    const sent = rpc.requests.length;
    const e = await client.ledger.getBalance({ account: BIG }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as Error).message).toMatch(/ledger_getBalance: parameter "account" is beyond Number.MAX_SAFE_INTEGER: a JSON-RPC request cannot carry it with all its digits yet/);
    expect(rpc.requests.length).toBe(sent);
    await client.ledger.getBalance({ account: 2n ** 53n - 1n });
    expect(rpc.requests.at(-1)!.raw).toContain('"params":{"account":9007199254740991}');
  });
});
