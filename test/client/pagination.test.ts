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
