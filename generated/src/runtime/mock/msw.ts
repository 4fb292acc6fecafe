/**
 * MSW handlers over a mock service: one per HTTP operation and one per
 * JSON-RPC endpoint, at each API's base URL, and (`createMswWebSocketHandlers`)
 * one per WebSocket path of a table, at the base URL's ws:// or wss:// twin. Only `@avaspec/client/mocks`
 * imports this file, so MSW (an optional peer dependency) is loaded only there.
 *
 * This is the one module that names MSW, and the package must still build
 * without it: the namespace import below is the only line that can fail to
 * resolve, and only that line's error is ignored. With MSW installed every use
 * of `msw.` below is checked against MSW's own types (a namespace import
 * cannot hide a missing export); without it they are `any`, and the other
 * entry points never import this file.
 */
// @ts-ignore: msw is an optional peer dependency; without it this import is `any`
import * as msw from "msw";
import { serverBase } from "../http/http.js";
import { escapeRegExp, pathPattern } from "./routes.js";
import { createMockSocketHub, type MockSocketHub } from "./socket-hub.js";
import type { MockService, MockTable } from "./types.js";

/** MSW's request handler type (`any` when MSW is not installed). */
export type HttpHandler = msw.HttpHandler;
/** MSW's WebSocket handler type (`any` when MSW is not installed). */
export type WebSocketHandler = msw.WebSocketHandler;

/** `tables` pairs each API's mock table with the base URL its client calls. */
export function createMswHandlers(service: Pick<MockService, "handle">, tables: readonly { table: MockTable; baseUrl: string }[]): HttpHandler[] {
  const handlers: HttpHandler[] = [];
  const seen = new Set<string>();
  // the service knows operations by their paths below the base URL: a base URL with a path of its own (…/glacier) is cut off first
  const resolverFor = (root: string) => async ({ request }: { request: Request }) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
    const below = request.url.startsWith(root);
    const url = below ? `http://mock${request.url.slice(root.length).replace(/^(?=[?#]|$)/, "/")}` : request.url;
    const r = await service.handle({ method: request.method, url, headers, ...(below ? { base: root } : {}), ...(body !== undefined ? { body } : {}) });
    if (!r) return undefined;
    if (r.networkError) return msw.HttpResponse.error();
    return new msw.HttpResponse(r.body === "" ? null : r.body, { status: r.status, headers: r.headers });
  };
  const resolvers = new Map<string, ReturnType<typeof resolverFor>>();
  const resolverAt = (root: string) => resolvers.get(root) ?? resolvers.set(root, resolverFor(root)).get(root)!;
  for (const { table, baseUrl } of tables) {
    const root = baseUrl.replace(/\/+$/, "");
    const base = escapeRegExp(root);
    const resolver = resolverAt(root);
    for (const entry of table.entries) {
      if (entry.kind === "http") {
        // fetch cannot send a TRACE (the client refuses it), and MSW has no handler for one
        if (entry.op.method === "TRACE") continue;
        // an operation with a server of its own is answered there, as the client calls it
        const opRoot = entry.op.server === undefined ? root : serverBase(entry.op.server, root).replace(/\/+$/, "");
        const key = `${entry.op.method} ${opRoot}${entry.op.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const method = entry.op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete" | "head" | "options";
        handlers.push(msw.http[method](new RegExp(`^${escapeRegExp(opRoot)}${pathPattern(entry.op.path)}(?:[?#].*)?$`), resolverAt(opRoot)));
      } else {
        const key = `POST ${baseUrl}${entry.method.endpoint}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // an endpoint with path variables (`/ext/bc/{blockchainId}/rpc`) is answered for any value of them
        handlers.push(msw.http.post(new RegExp(`^${base}${pathPattern(entry.method.endpoint)}(?:[?#].*)?$`), resolver));
      }
    }
  }
  return handlers;
}

/** What the bridge uses of MSW's WebSocket client connection, typed here so that this file compiles without MSW. */
interface MswClient {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  addEventListener(type: "close", listener: () => void): void;
}

/** A base URL's WebSocket twin: http → ws, https → wss, no trailing slash. */
export function webSocketBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/^http(s?):/i, (_, tls: string) => `ws${tls.toLowerCase()}:`);
}

/**
 * MSW handlers (`ws.link`) for every WebSocket path of the tables (their
 * `webSockets`), at each API's base URL with http→ws, https→wss: the same
 * bridge as the mock server's (`createMockSocketHub`), JSON-RPC calls and
 * batches answered by the service, `eth_subscribe` served from its
 * `subscriptions`. Pass a hub of your own to `push()` notifications or
 * `dropConnections()` from a test. MSW intercepts the global `WebSocket`:
 * Node 22 and later, and browsers.
 */
export function createMswWebSocketHandlers(service: Pick<MockService, "handle" | "subscriptions">, tables: readonly { table: MockTable; baseUrl: string }[], hub: MockSocketHub = createMockSocketHub(service)): WebSocketHandler[] {
  const handlers: WebSocketHandler[] = [];
  const seen = new Set<string>();
  for (const { table, baseUrl } of tables) {
    for (const { path, endpoint } of table.webSockets ?? []) {
      const url = webSocketBase(baseUrl) + path;
      if (seen.has(url)) continue;
      seen.add(url);
      const link = msw.ws.link(url);
      handlers.push(
        link.addEventListener("connection", ({ client }: { client: MswClient }) => {
          // 1006 as a network failure: MSW lets the server side use codes a client may not
          const connection = hub.connect(endpoint, { send: (text) => client.send(text), terminate: () => client.close(1006, "") });
          client.addEventListener("message", (event) => {
            if (typeof event.data !== "string") return client.close(1003, "only text messages are accepted");
            connection.message(event.data).catch((e: unknown) => client.send(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error", data: { reason: e instanceof Error ? e.message : String(e) } } })));
          });
          client.addEventListener("close", () => connection.closed());
        }),
      );
    }
  }
  return handlers;
}
