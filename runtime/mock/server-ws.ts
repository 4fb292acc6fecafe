/// <reference types="node" />
/**
 * The WebSocket side of the mock server (server.ts): the service's WebSocket
 * paths (its tables' `webSockets`) over node:http's upgrade (ws-server.ts),
 * each message a JSON-RPC call to the path's endpoint and `eth_subscribe`
 * served from the service's subscriptions, through the same bridge as the
 * MSW handlers' (socket-hub.ts). The `mock-server` entry of a package with
 * WebSocket paths hands `mockSockets` to `serveMocks`; a package without any
 * ships none of this.
 *
 * Node only: the reference above brings Node's types to this file.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { MockSockets } from "./server.js";
import { createMockSocketHub } from "./socket-hub.js";
import { acceptWebSocket, rejectUpgrade } from "./ws-server.js";

/** A path as a lookup key: no query, one leading slash, no trailing one. */
const pathKey = (url: string) => "/" + url.split(/[?#]/)[0]!.replace(/^\/+|\/+$/g, "");

/** The WebSocket side of a mock server over `service`; an upgrade on a path that is not one of its WebSocket paths is answered 404. */
export const mockSockets: MockSockets = (service, options, log) => {
  const hub = createMockSocketHub(service);
  const webSockets = new Map((service.webSockets ?? []).map((w) => [pathKey(w.path), w.endpoint]));
  return {
    upgrade(request, duplex, buffer) {
      // what node:http's 'upgrade' event gives (see MockSocketServing)
      const [req, socket, head] = [request as IncomingMessage, duplex as Duplex, buffer as Buffer];
      const path = req.url ?? "/";
      const endpoint = webSockets.get(pathKey(path));
      if (endpoint === undefined) {
        log?.(`WS ${path} → 404`);
        return rejectUpgrade(socket, 404, `no mocked WebSocket endpoint at ${path.split("?")[0]}`);
      }
      const peer = acceptWebSocket(req, socket, head, options.maxPayload === undefined ? {} : { maxPayload: options.maxPayload });
      if (!peer) return log?.(`WS ${path} → 400 (bad handshake)`);
      log?.(`WS ${path} → 101 (${endpoint})`);
      const connection = hub.connect(endpoint, { send: (text) => peer.send(text), terminate: () => peer.terminate() });
      peer.onMessage((text) => {
        connection.message(text).catch((e: unknown) => peer.send(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error", data: { reason: e instanceof Error ? e.message : String(e) } } })));
      });
      peer.onClose((code) => {
        connection.closed();
        log?.(`WS ${path} closed (${code})`);
      });
    },
    push: (kind, payload) => hub.push(kind, payload),
    dropConnections: () => hub.dropConnections(),
  };
};
