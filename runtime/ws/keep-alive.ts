/**
 * Keep-alive: when nothing has arrived on an open socket for a while, a
 * cheap call (the core's `probe`) is sent; a probe unanswered in time means
 * the socket is half-open (the network dropped it without a close), so it is
 * dropped as lost, which reconnects what is subscribed.
 */
import { stopKeepAlive, type Connection, type WsCore } from "./connection.js";
import { send } from "./calls.js";
import { lost } from "./socket.js";

export function startKeepAlive(t: WsCore, path: string, c: Connection): void {
  const { keepAlive, probe } = t;
  if (!keepAlive || !probe) return;
  stopKeepAlive(c);
  c.keepAlive = setInterval(() => {
    const socket = c.socket;
    if (!socket || c.probing || Date.now() - c.lastMessage < keepAlive.intervalMs) return;
    c.probing = true;
    send(t, path, c, probe, {}, t.numbers, keepAlive.timeoutMs).then(
      () => (c.probing = false),
      () => {
        c.probing = false;
        // no answer in time: half-open; drop it (lost() reconnects)
        if (c.socket === socket) lost(t, path, c, socket, `no answer to the keep-alive probe within ${keepAlive.timeoutMs} ms (half-open connection)`);
      },
    );
  }, Math.max(50, Math.min(keepAlive.intervalMs, keepAlive.timeoutMs)));
}
