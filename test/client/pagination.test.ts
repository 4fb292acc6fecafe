/** `.pages()` / `.iterate()` on list operations, against a scripted 5-page loopback server and the generated mocks. */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError, AvaspecError } from "@avaspec/client";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { createMocks } from "@avaspec/client/mocks";
import { startServer, type TestServer } from "../helpers/server.js";
import { okExample, loadSpec } from "../helpers/spec.js";

const spec = loadSpec("data-api.openapi.json");
const transfer = (okExample(spec, "listErc20Transactions") as { transactions: Record<string, unknown>[] }).transactions[0]!;
const ADDRESS = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Page k (0-based) of 5 holds items 3k, 3k+1, 3k+2 (their logIndex); its token is "p<k+1>" except on the last. */
function fivePages(): void {
  server.reply((req) => {
    const token = new URL(req.url, "http://x").searchParams.get("pageToken");
    const k = token === null ? 0 : Number(token.slice(1));
    const transactions = [0, 1, 2].map((i) => ({ ...transfer, logIndex: 3 * k + i }));
    return { status: 200, body: k < 4 ? { nextPageToken: `p${k + 1}`, transactions } : { transactions } };
  });
}

describe("pagination", () => {
  const data = () => createDataApiClient({ baseUrl: server.url });

  it("iterate yields every item once, in order, across all 5 pages; pages yields the 5 pages", async () => {
    fivePages();
    server.requests.length = 0;
    const seen: number[] = [];
    for await (const tx of data().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS })) seen.push(tx.logIndex);
    expect(seen).toEqual([...Array(15).keys()]);
    expect(server.requests.map((r) => new URL(r.url, "http://x").searchParams.get("pageToken"))).toEqual([null, "p1", "p2", "p3", "p4"]);
    let pages = 0;
    for await (const page of data().listErc20Transactions.pages({ chainId: "43114", address: ADDRESS })) expect(page.transactions).toHaveLength(3), pages++;
    expect(pages).toBe(5);
  });

  it("honours maxPages and limit, and starts from a given pageToken", async () => {
    fivePages();
    server.requests.length = 0;
    const two: number[] = [];
    for await (const tx of data().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS }, { maxPages: 2 })) two.push(tx.logIndex);
    expect(two).toEqual([0, 1, 2, 3, 4, 5]);
    expect(server.requests).toHaveLength(2);
    const limited: number[] = [];
    for await (const tx of data().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS }, { limit: 4 })) limited.push(tx.logIndex);
    expect(limited).toEqual([0, 1, 2, 3]);
    const fromThird: number[] = [];
    for await (const tx of data().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS, pageToken: "p3" })) fromThird.push(tx.logIndex);
    expect(fromThird).toEqual([9, 10, 11, 12, 13, 14]);
  });

  it("an abort mid-iteration stops it: no further page is requested", async () => {
    fivePages();
    server.requests.length = 0;
    const controller = new AbortController();
    const seen: number[] = [];
    const run = async () => {
      for await (const tx of data().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS }, { signal: controller.signal })) {
        seen.push(tx.logIndex);
        if (tx.logIndex === 4) controller.abort(new Error("enough"));
      }
    };
    const error = await run().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error("enough"));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(server.requests).toHaveLength(2);
  });

  it("a server that returns the token it was given fails instead of looping", async () => {
    server.reply(() => ({ status: 200, body: { nextPageToken: "same", transactions: [transfer] } }));
    const run = async () => {
      for await (const _ of data().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS, pageToken: "same" })) void _;
    };
    await expect(run()).rejects.toBeInstanceOf(AvaspecError);
  });

  it("walks the generated mocks' pages (MSW, 5 pages of pageSize items)", async () => {
    const mocks = createMocks({ seed: 2, pages: 5 });
    const msw = setupServer(...mocks.handlers);
    msw.listen({ onUnhandledRequest: "error" });
    try {
      let n = 0;
      for await (const _ of createDataApiClient().listErc20Transactions.iterate({ chainId: "43114", address: ADDRESS, pageSize: 4 })) n++;
      expect(n).toBe(20);
      let pages = 0;
      for await (const page of createMetricsApiClient({ deprecationWarnings: false }).getAvgTps.pages({ chainId: "43114" })) (pages++, expect(page.results.length).toBeGreaterThan(0));
      expect(pages).toBe(5);
    } finally {
      msw.close();
    }
  });
});

/**
 * Issue 27: the four list operations that did not page. Three answer a union
 * of per-chain pages (the token and the items in every branch); the
 * composite query takes its page token in the request body.
 */
describe("the Data and Metrics API operations whose pages are unions, or whose token is in the body", () => {
  const metrics = loadSpec("metrics-api.openapi.json");
  const strict = () => ({ baseUrl: server.url, retry: false as const, validateResponse: "strict" as const });
  /** Two pages of the operation's own example, the second without a token. */
  const twoPages = (example: Record<string, unknown>) =>
    server.reply((req) => {
      const u = new URL(req.url, "http://x");
      const token = u.searchParams.get("pageToken") ?? (req.body ? (JSON.parse(req.body) as { pageToken?: string }).pageToken : undefined);
      const { nextPageToken: _, ...last } = example;
      return { body: token ? last : { ...example, nextPageToken: "2f4b6d8e-1a3c-4e5f-9b7d-0c2e4a6b8d10" } };
    });
  const TOKEN = "2f4b6d8e-1a3c-4e5f-9b7d-0c2e4a6b8d10";

  it("listLatestPrimaryNetworkTransactions walks P-Chain pages (one branch of its union)", async () => {
    twoPages(okExample(spec, "listLatestPrimaryNetworkTransactions") as Record<string, unknown>);
    server.requests.length = 0;
    const hashes: string[] = [];
    for await (const tx of createDataApiClient(strict()).listLatestPrimaryNetworkTransactions.iterate({ network: "mainnet", blockchainId: "p-chain" })) hashes.push(tx.txHash);
    expect(hashes).toHaveLength(2 * (okExample(spec, "listLatestPrimaryNetworkTransactions") as { transactions: unknown[] }).transactions.length);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/networks/mainnet/blockchains/p-chain/transactions", `/v1/networks/mainnet/blockchains/p-chain/transactions?pageToken=${TOKEN}`]);
  });

  it("getUtxosByAddresses and getUtxosByAddressesV2 walk their pages (the V2 body sent with each)", async () => {
    const data = createDataApiClient(strict());
    twoPages(okExample(spec, "getUtxosByAddresses") as Record<string, unknown>);
    server.requests.length = 0;
    let pages = 0;
    for await (const page of data.getUtxosByAddresses.pages({ network: "mainnet", blockchainId: "p-chain", addresses: "avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" })) (pages++, expect(page.utxos.length).toBeGreaterThan(0));
    expect(pages).toBe(2);
    expect(server.requests.at(-1)!.url).toBe(`/v1/networks/mainnet/blockchains/p-chain/utxos?addresses=avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg&pageToken=${TOKEN}`);
    twoPages(okExample(spec, "getUtxosByAddressesV2") as Record<string, unknown>);
    server.requests.length = 0;
    const body = { addresses: "avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" };
    let utxos = 0;
    for await (const _ of data.getUtxosByAddressesV2.iterate({ network: "mainnet", blockchainId: "x-chain", body })) utxos++;
    expect(utxos).toBeGreaterThan(1);
    expect(server.requests.map((r) => [r.method, r.url, JSON.parse(r.body)])).toEqual([
      ["POST", "/v1/networks/mainnet/blockchains/x-chain/utxos", body],
      ["POST", `/v1/networks/mainnet/blockchains/x-chain/utxos?pageToken=${TOKEN}`, body],
    ]);
  });

  it("compositeQueryV2 sends the next page's token in its request body, beside the query", async () => {
    twoPages(okExample(metrics, "compositeQueryV2") as Record<string, unknown>);
    server.requests.length = 0;
    const body = { queries: [{ id: "1", type: "AllTimeNativeBalance" as const, params: { firstDate: "2024-01-01", lastDate: "2024-06-30", minBalance: "1000000000000000000", evmChainId: "43114" } }], operator: "AND" as const, pageSize: 2 };
    const addresses: string[] = [];
    for await (const a of createMetricsApiClient(strict()).compositeQueryV2.iterate({ body })) addresses.push(a);
    expect(addresses).toHaveLength(4);
    expect(server.requests.map((r) => [r.url, JSON.parse(r.body)])).toEqual([
      ["/v2/lookingGlass/compositeQuery", body],
      ["/v2/lookingGlass/compositeQuery", { ...body, pageToken: TOKEN }],
    ]);
  });

  it("all four page through the generated mocks (MSW), strictly valid", async () => {
    const mocks = createMocks({ pages: 3 });
    const msw = setupServer(...mocks.handlers);
    msw.listen({ onUnhandledRequest: "error" });
    try {
      const data = createDataApiClient({ validateResponse: "strict" });
      const count = async (pages: AsyncIterable<unknown>) => {
        let n = 0;
        for await (const _ of pages) n++;
        return n;
      };
      expect(await count(data.listLatestPrimaryNetworkTransactions.pages({ network: "fuji", blockchainId: "x-chain", pageSize: 2 }))).toBe(3);
      expect(await count(data.getUtxosByAddresses.pages({ network: "mainnet", blockchainId: "p-chain", addresses: "avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" }))).toBe(3);
      expect(await count(data.getUtxosByAddressesV2.pages({ network: "mainnet", blockchainId: "c-chain", body: { addresses: "avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" } }))).toBe(3);
      const body = { queries: [{ id: "1", type: "AllTimeNativeBalance" as const, params: { firstDate: "2024-01-01", lastDate: "2024-06-30", minBalance: "1", evmChainId: "43114" } }], operator: "OR" as const, pageSize: 2 };
      const addresses: string[] = [];
      for await (const a of createMetricsApiClient({ validateResponse: "strict" }).compositeQueryV2.iterate({ body })) addresses.push(a);
      expect(addresses).toHaveLength(6);
    } finally {
      msw.close();
    }
  });
});
