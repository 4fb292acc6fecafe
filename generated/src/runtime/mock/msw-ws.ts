/**
 * MSW handlers for the WebSocket paths of mock tables, over the same bridge
 * as the mock server's (socket-hub.ts). Only the `mocks` entry of a package
 * with WebSocket paths imports this file. It names MSW as msw.ts does (read
 * there why the import below may fail to resolve without harm).
 */
// @ts-ignore: msw is an optional peer dependency; without it this import is `any`
import * as msw from "msw";
import { createMockSocketHub, type MockSocketHub } from "./socket-hub.js";
import type { MockService, MockTable } from "./types.js";

/** MSW's WebSocket handler type (`any` when MSW is not installed). */
export type WebSocketHandler = msw.WebSocketHandler;

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
