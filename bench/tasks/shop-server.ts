/**
 * The shop that `npm run bench:tasks` runs every tool's tasks against: a
 * node:http server on 127.0.0.1 under `/v1`, answering as
 * test/fixtures/shop-31/spec.yaml declares. `GET /orders` serves three pages
 * linked by `nextCursor` (null on the last), `GET /orders/{id}` an order or a
 * 404 problem+json, `POST /orders` a 201 with `Location`. Anything else, or a
 * request that breaks the spec, is a 400 problem the tasks do not expect, so
 * a tool that sends the wrong request fails its check rather than passing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ShopOrder {
  id: string;
  sku: string;
  quantity: number;
  status: "placed" | "shipped" | "cancelled";
}

const order = (n: number, status: ShopOrder["status"] = "placed"): ShopOrder => ({ id: `ord_${n}`, sku: `sku-${n}`, quantity: n, status });

/** The pages of `GET /orders`, by the cursor that asks for each (none for the first). */
const PAGES: ReadonlyMap<string | null, { orders: ShopOrder[]; nextCursor: string | null }> = new Map([
  [null, { orders: [order(1), order(2, "shipped")], nextCursor: "c2" }],
  ["c2", { orders: [order(3), order(4, "cancelled")], nextCursor: "c3" }],
  ["c3", { orders: [order(5)], nextCursor: null }],
]);

/** What each task must return against this server. */
export const EXPECTED = {
  allOrders: [...PAGES.values()].flatMap((p) => p.orders),
  listRequests: PAGES.size,
  existing: { id: "ord_2", order: order(2, "shipped") },
  missing: { id: "ord_404", title: "Order not found" },
  created: {
    body: { sku: "tea", quantity: 3 },
    order: { id: "ord_6", sku: "tea", quantity: 3, status: "placed" } satisfies ShopOrder,
    location: "/v1/orders/ord_6",
  },
};

export interface ShopServer {
  /** The base URL the tasks get: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const type = status >= 400 ? "application/problem+json" : "application/json";
  res.writeHead(status, { "content-type": type, ...headers });
  res.end(JSON.stringify(body));
}

function answer(req: IncomingMessage, body: string, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://shop.test");
  const problem = (detail: string) => send(res, 400, { title: "Bad request", status: 400, detail });
  if (req.method === "GET" && url.pathname === "/v1/orders") {
    const page = PAGES.get(url.searchParams.get("cursor"));
    if (!page) return problem(`unknown cursor ${url.search}`);
    return send(res, 200, page);
  }
  if (req.method === "POST" && url.pathname === "/v1/orders") {
    if (!req.headers["content-type"]?.startsWith("application/json")) return problem("the body is not application/json");
    const sent = JSON.parse(body) as unknown;
    if (JSON.stringify(sent) !== JSON.stringify(EXPECTED.created.body)) return problem(`unexpected body ${body}`);
    return send(res, 201, EXPECTED.created.order, { location: EXPECTED.created.location });
  }
  const one = /^\/v1\/orders\/([^/]+)$/.exec(url.pathname);
  if (req.method === "GET" && one) {
    if (one[1] === EXPECTED.existing.id) return send(res, 200, EXPECTED.existing.order);
    return send(res, 404, { type: "https://shop.example.com/problems/no-order", title: EXPECTED.missing.title, status: 404, detail: `No order has the id ${one[1]}.` });
  }
  problem(`no route for ${req.method} ${url.pathname}`);
}

export async function startShopServer(): Promise<ShopServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push(`${req.method} ${req.url}`);
      try {
        answer(req, Buffer.concat(chunks).toString("utf8"), res);
      } catch (error) {
        send(res, 400, { title: "Bad request", detail: String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections(); // fetch keeps its connections alive
      }),
  };
}
