/**
 * Issue 30 (1) and 27: pagination by whatever names and style the spec uses.
 * The fixture test/fixtures/pagination-31 has one API per style: cursors
 * (`cursor`/`next_cursor`, `after`/`pageInfo.endCursor`, a declared
 * `resumeFrom`/`resume.point`), page numbers and offsets with totals, RFC 8288
 * Link headers over an array body, and the next page's URL in the body
 * (absolute `next`, relative `links.next`, an API key in the query). Each is
 * walked to its end against the generated mocks (MSW's real setupServer and
 * the standalone mock server) and against a scripted node:http loopback
 * server, with the iteration's guarantees: start where params say, stop at
 * the last page, retries per page, AbortSignal, no loop on a cursor or URL
 * handed back again, and no next URL followed off the API's origin.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCursorClient, listOrders, createCursorCore } from "../fixtures/pagination-31/golden/src/cursor/index.js";
import { createPagesClient } from "../fixtures/pagination-31/golden/src/pages/index.js";
import { createLinkClient } from "../fixtures/pagination-31/golden/src/link/index.js";
import { createNextUrlClient } from "../fixtures/pagination-31/golden/src/next-url/index.js";
import { createMocks, createMockService, mockTables } from "../fixtures/pagination-31/golden/src/mocks/index.js";
import { startMockServer, type MockServer } from "../fixtures/pagination-31/golden/src/mock-server/index.js";
import { AbortError, AvaspecError } from "../fixtures/pagination-31/golden/src/runtime/errors/errors.js";
import type { ResponseEvent } from "../fixtures/pagination-31/golden/src/runtime/http/send.js";
import { startServer, type Reply, type TestServer } from "../helpers/server.js";

type Clients = ReturnType<typeof clientsAt>;
const strict = { validateResponse: "strict", retry: false } as const;
function clientsAt(base?: string) {
  const at = (path: string) => (base === undefined ? {} : { baseUrl: `${base}${path}` });
  return {
    cursor: createCursorClient({ ...strict, ...at("/v1") }),
    pages: createPagesClient({ ...strict, ...at("/v1") }),
    link: createLinkClient({ ...strict, ...at("/v1") }),
    nextUrl: createNextUrlClient({ ...strict, apiKey: "k-1", ...at("/v1") }),
  };
}

/** Every operation walked to its end: [pages, items] each. */
async function walkAll(c: Clients): Promise<Record<string, [number, number]>> {
  const count = async (pages: AsyncIterable<unknown>, items: (page: unknown) => unknown[]): Promise<[number, number]> => {
    let n = 0;
    let total = 0;
    for await (const page of pages) (n++, (total += items(page).length));
    return [n, total];
  };
  return {
    listOrders: await count(c.cursor.listOrders.pages(), (p) => (p as { data: unknown[] }).data),
    listEvents: await count(c.cursor.listEvents.pages(), (p) => (p as { nodes: unknown[] }).nodes),
    listScans: await count(c.cursor.listScans.pages(), (p) => (p as { rows: unknown[] }).rows),
    listProducts: await count(c.pages.listProducts.pages(), (p) => (p as { products: unknown[] }).products),
    listReviews: await count(c.pages.listReviews.pages(), (p) => (p as { reviews: unknown[] }).reviews),
    listStores: await count(c.link.listStores.pages(), (p) => p as unknown[]),
    listCustomers: await count(c.nextUrl.listCustomers.pages(), (p) => (p as { results: unknown[] }).results),
    listInvoices: await count(c.nextUrl.listInvoices.pages(), (p) => (p as { items: unknown[] }).items),
  };
}

// 5 pages of each page size: the size parameter's default, else the example's items (listScans and listInvoices: 1)
const FIVE_PAGES = { listOrders: [5, 15], listEvents: [5, 10], listScans: [5, 5], listProducts: [5, 20], listReviews: [5, 15], listStores: [5, 10], listCustomers: [5, 15], listInvoices: [5, 5] };

describe("the generated mocks page every style, and the clients walk them to the end", () => {
  it("MSW (setupServer at the specs' base URLs), responses strictly valid", async () => {
    const mocks = createMocks({ pages: 5 });
    const msw = setupServer(...mocks.handlers);
    msw.listen({ onUnhandledRequest: "error" });
    try {
      expect(await walkAll(clientsAt())).toEqual(FIVE_PAGES);
      // iterate too: every item, in order, once
      const ids: string[] = [];
      for await (const order of createCursorClient().listOrders.iterate({ limit: 2 })) ids.push(order.id);
      expect(ids).toHaveLength(10);
    } finally {
      msw.close();
    }
  });

  it("the standalone mock server, at its own origin", async () => {
    const server = await startMockServer({ port: 0, log: null, pages: 5 });
    try {
      expect(await walkAll(clientsAt(server.url))).toEqual(FIVE_PAGES);
    } finally {
      await server.close();
    }
  });

  it("a mock's next page URL points at the origin and path the client called, the last page ends it, and totals agree", async () => {
    const service = createMockService(Object.values(mockTables), { pages: 3 });
    const get = async (url: string, base?: string) => {
      const r = (await service.handle({ method: "GET", url, headers: {}, ...(base ? { base } : {}) }))!;
      return { status: r.status, headers: r.headers, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    // MSW and the server rewrite the URL below the base the client called, and pass that base
    const first = await get("http://mock/customers?limit=2&api_key=k", "https://next.shop.example/v1");
    const next = new URL(first.body["next"] as string);
    expect(`${next.origin}${next.pathname}`).toBe("https://next.shop.example/v1/customers");
    expect(next.searchParams.get("limit")).toBe("2");
    const third = await get(`http://mock/customers?${(await get(`http://mock/customers${next.search}`, "https://next.shop.example/v1")).body["next"]!.toString().split("?")[1]}`, "https://next.shop.example/v1");
    expect(third.body["next"]).toBeNull();
    const link = await get("http://mock/stores?per_page=2", "http://127.0.0.1:4010/v1");
    expect(link.headers["link"]).toMatch(/^<http:\/\/127\.0\.0\.1:4010\/v1\/stores\?per_page=2&cursor=[^>]+>; rel="next"$/);
    const products = await get("http://mock/products?per_page=4&page=3");
    expect(products.body).toMatchObject({ total: 12, total_pages: 3 });
    expect(products.body["products"]).toHaveLength(4);
    expect((await get("http://mock/products?per_page=4&page=4")).body["products"]).toEqual([]);
    const reviews = await get("http://mock/reviews?offset=7&limit=3");
    expect(reviews.body).toMatchObject({ count: 9 });
    expect(reviews.body["reviews"]).toHaveLength(2);
    const lastOrders = await get(`http://mock/orders?cursor=${encodeURIComponent((await get("http://mock/orders?cursor=" + (await get("http://mock/orders")).body["next_cursor"])).body["next_cursor"] as string)}`);
    expect(lastOrders.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("an unknown cursor or next-page token is answered 400, as before", async () => {
    const service = createMockService(Object.values(mockTables));
    for (const url of ["http://mock/orders?cursor=made-up", "http://mock/events?after=nope", "http://mock/customers?cursor=nope", "http://mock/stores?cursor=0"]) {
      const r = await service.handle({ method: "GET", url, headers: {} });
      expect([url, r?.status]).toEqual([url, 400]);
      expect(r!.body).toMatch(/is not a page this service serves/);
    }
  });
});

describe("against a loopback server", () => {
  let server: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    [server, other] = await Promise.all([startServer(), startServer()]);
  });
  afterAll(() => Promise.all([server.close(), other.close()]));
  afterEach(() => {
    server.requests.length = 0;
    other.requests.length = 0;
  });
  const c = () => clientsAt(server.url);
  const query = (name: string) => server.requests.map((r) => new URL(r.url, "http://x").searchParams.get(name));

  it("cursor: next_cursor is sent back as cursor until has_more is false; starts at a given cursor", async () => {
    server.reply((req) => {
      const at = Number(new URL(req.url, "http://x").searchParams.get("cursor") ?? "0");
      return { body: { data: [{ id: `o${at}`, total: at }], has_more: at < 2, next_cursor: at < 2 ? String(at + 1) : "ignored-after-the-last" } };
    });
    const ids: string[] = [];
    for await (const o of c().cursor.listOrders.iterate()) ids.push(o.id);
    expect(ids).toEqual(["o0", "o1", "o2"]);
    expect(query("cursor")).toEqual([null, "1", "2"]);
    server.requests.length = 0;
    for await (const o of c().cursor.listOrders.iterate({ cursor: "1", limit: 10 })) void o;
    expect(query("cursor")).toEqual(["1", "2"]);
  });

  it("cursor: a GraphQL-style connection (after, pageInfo.endCursor, pageInfo.hasNextPage) and a declared pair (resumeFrom, resume.point)", async () => {
    server.reply((req) => {
      const u = new URL(req.url, "http://x");
      const after = u.searchParams.get("after") ?? u.searchParams.get("resumeFrom");
      const k = after === null ? 0 : Number(after.slice(1));
      const rows = [{ id: `e${k}`, kind: "x" }];
      return { body: u.pathname.endsWith("/events") ? { nodes: rows, pageInfo: { endCursor: `c${k + 1}`, hasNextPage: k < 3 } } : { rows, ...(k < 1 ? { resume: { point: `c${k + 1}` } } : {}) } };
    });
    const events: string[] = [];
    for await (const e of c().cursor.listEvents.iterate({ first: 1 })) events.push(e.id);
    expect(events).toEqual(["e0", "e1", "e2", "e3"]);
    const scans: string[] = [];
    for await (const s of c().cursor.listScans.iterate()) scans.push(s.id);
    expect(scans).toEqual(["e0", "e1"]);
    expect(query("resumeFrom").slice(-2)).toEqual([null, "c1"]);
  });

  it("cursor: a server that hands back a cursor it gave before raises an AvaspecError instead of looping", async () => {
    server.reply((req) => ({ body: { data: [], has_more: true, next_cursor: new URL(req.url, "http://x").searchParams.get("cursor") === "a" ? "b" : "a" } }));
    const error = await (async () => {
      for await (const _ of c().cursor.listOrders.pages()) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AvaspecError);
    expect((error as Error).message).toMatch(/page token it had given before/);
    expect(query("cursor")).toEqual([null, "a", "b"]);
  });

  it("page: page goes up until total_pages; the page size is the one sent, or the first page's", async () => {
    // 10 products, 4 a page: 3 pages
    const products = Array.from({ length: 10 }, (_, i) => ({ sku: `p${i}`, name: "x" }));
    server.reply((req) => {
      const u = new URL(req.url, "http://x");
      const page = Number(u.searchParams.get("page") ?? "1");
      const size = Number(u.searchParams.get("per_page") ?? "4");
      return { body: { products: products.slice((page - 1) * size, page * size), total: products.length, total_pages: Math.ceil(products.length / size) } };
    });
    const skus: string[] = [];
    for await (const p of c().pages.listProducts.iterate({ per_page: 4 })) skus.push(p.sku);
    expect(skus).toEqual(products.map((p) => p.sku));
    expect(query("page")).toEqual([null, "2", "3"]);
    server.requests.length = 0;
    let pages = 0;
    for await (const _ of c().pages.listProducts.pages({ page: 2 })) pages++;
    expect([pages, query("page")]).toEqual([2, ["2", "3"]]);
  });

  it("offset: offset goes up by the items each page held until count; an empty page ends it too", async () => {
    const reviews = Array.from({ length: 7 }, (_, i) => ({ id: i, stars: 5 }));
    // the server caps a page at 3 whatever limit asks
    server.reply((req) => {
      const offset = Number(new URL(req.url, "http://x").searchParams.get("offset") ?? "0");
      return { body: { reviews: reviews.slice(offset, offset + 3), count: reviews.length } };
    });
    const ids: number[] = [];
    for await (const r of c().pages.listReviews.iterate({ limit: 50 })) ids.push(r.id);
    expect(ids).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(query("offset")).toEqual([null, "3", "6"]);
  });

  it("link: follows rel=\"next\" (absolute, then relative, beside other relations) over an array body", async () => {
    server.reply((req) => {
      const page = Number(new URL(req.url, "http://x").searchParams.get("page") ?? "1");
      const link = page === 1 ? `<${server.url}/v1/stores?page=2>; rel="next", <${server.url}/v1/stores?page=3>; rel="last"` : page === 2 ? '</v1/stores?page=3>; rel="last next"' : '</v1/stores?page=1>; rel="first"';
      return { headers: { link }, body: [{ id: page, city: "c" }] };
    });
    const ids: number[] = [];
    for await (const s of c().link.listStores.iterate({ per_page: 1 })) ids.push(s.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/stores?per_page=1", "/v1/stores?page=2", "/v1/stores?page=3"]);
  });

  it("url: follows next (absolute) and links.next (relative); the API key is sent once, where the operation puts it, and no hook sees it", async () => {
    server.reply((req) => {
      const u = new URL(req.url, "http://x");
      const after = u.searchParams.get("after");
      if (u.pathname.endsWith("/invoices")) {
        const page = Number(u.searchParams.get("page") ?? "1");
        return { body: { items: [{ number: `INV-${page}`, amount: 1 }], links: page < 3 ? { next: `?page=${page + 1}` } : {} } };
      }
      // the server echoes the API key in its next URLs, as some do
      return { body: { results: [{ id: after ?? "start", email: "e" }], next: after === null ? `${server.url}/v1/customers?after=c1&api_key=k-1` : after === "c1" ? `${server.url}/v1/customers?after=c2&api_key=k-1` : null } };
    });
    const seen: string[] = [];
    const client = createNextUrlClient({ ...strict, apiKey: "k-1", baseUrl: `${server.url}/v1`, onResponse: (e: ResponseEvent) => void seen.push(e.url) });
    const ids: string[] = [];
    for await (const cst of client.listCustomers.iterate()) ids.push(cst.id);
    expect(ids).toEqual(["start", "c1", "c2"]);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/customers?api_key=k-1", "/v1/customers?after=c1&api_key=k-1", "/v1/customers?after=c2&api_key=k-1"]);
    expect(seen.join(" ")).not.toContain("k-1");
    server.requests.length = 0;
    const numbers: string[] = [];
    for await (const inv of client.listInvoices.iterate()) numbers.push(inv.number);
    expect(numbers).toEqual(["INV-1", "INV-2", "INV-3"]);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/invoices?api_key=k-1", "/v1/invoices?page=2&api_key=k-1", "/v1/invoices?page=3&api_key=k-1"]);
  });

  it("url and link: a next URL on another origin is refused (an AvaspecError), and nothing is sent there", async () => {
    server.reply((req) => (req.url.includes("stores") ? { headers: { link: `<${other.url}/v1/stores?page=2>; rel="next"` }, body: [] } : { body: { results: [], next: `${other.url}/v1/customers?after=x` } }));
    for (const walk of [() => c().nextUrl.listCustomers.pages(), () => c().link.listStores.pages()]) {
      const error = await (async () => {
        for await (const _ of walk()) void _;
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AvaspecError);
      expect((error as Error).message).toMatch(/on another origin .*refusing to follow it/);
    }
    expect(server.requests).toHaveLength(2);
    expect(other.requests).toHaveLength(0);
    // credentials in the URL are refused too, on the same origin
    server.reply(() => ({ body: { results: [], next: server.url.replace("http://", "http://user:pass@") + "/v1/customers?after=x" } }));
    await expect((async () => {
      for await (const _ of c().nextUrl.listCustomers.pages()) void _;
    })()).rejects.toThrow(/refusing to follow it/);
  });

  it("url: a server that hands back the URL it was called with raises an AvaspecError instead of looping", async () => {
    server.reply((req) => ({ body: { results: [], next: `${server.url}${req.url.replace(/[?&]api_key=k-1/, "")}` } }));
    await expect((async () => {
      for await (const _ of c().nextUrl.listCustomers.pages({ limit: 2 })) void _;
    })()).rejects.toThrow(/next page URL it had given before/);
    expect(server.requests).toHaveLength(1);
  });

  it("every page gets the retry policy: a 503 on the second page is retried and the walk goes on", async () => {
    let failed = false;
    server.reply((req): Reply => {
      const page = Number(new URL(req.url, "http://x").searchParams.get("page") ?? "1");
      if (page === 2 && !failed) return (failed = true), { status: 503, body: { message: "busy" } };
      const headers: Record<string, string> = page < 3 ? { link: `</v1/stores?page=${page + 1}>; rel="next"` } : {};
      return { headers, body: [{ id: page, city: "c" }] };
    });
    const client = createLinkClient({ baseUrl: `${server.url}/v1`, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const ids: number[] = [];
    for await (const s of client.listStores.iterate()) ids.push(s.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/stores", "/v1/stores?page=2", "/v1/stores?page=2", "/v1/stores?page=3"]);
  });

  it("an abort between pages rejects with AbortError and requests no further page", async () => {
    server.reply((req) => ({ body: { results: [{ id: req.url, email: "e" }], next: `/v1/customers?after=${server.requests.length}` } }));
    const controller = new AbortController();
    const error = await (async () => {
      for await (const _ of c().nextUrl.listCustomers.iterate({}, { signal: controller.signal })) controller.abort(new Error("enough"));
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it("the functional form still calls one page", async () => {
    server.reply(() => ({ body: { data: [{ id: "o1", total: 1 }], has_more: true, next_cursor: "n" } }));
    const page = await listOrders(createCursorCore({ baseUrl: `${server.url}/v1` }), { cursor: "x" });
    expect(page.next_cursor).toBe("n");
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/orders?cursor=x"]);
  });
});
