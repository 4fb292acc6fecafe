/**
 * The life of a connection's socket: opened on first use, closed when
 * nothing waits on it and nothing is subscribed, lost when it closes, fails
 * or is found half-open (what waited on it fails), and then, while anything
 * is subscribed, reopened with capped exponential backoff and jitter.
 *
 * This layer knows sockets, not JSON-RPC: what arrives goes to the core's
 * `receive`, an opening to `opened` and a reopening to `resume`
 * (connection.ts).
 */
import { AvaspecError, NetworkError } from "../errors/errors.js";
import { reconnectDelay } from "../stream/backoff.js";
import { OPEN, request, stopKeepAlive, type Connection, type WsCore } from "./connection.js";
import type { WebSocketConstructor, WebSocketLike } from "./types.js";

/**
 * Keeps a socket the transport let go of from raising an error nobody
 * listens to: closing one that is still connecting makes it emit "error"
 * (ws: "closed before the connection was established"), an uncaught
 * exception once the transport's own listeners are gone.
 */
const quiet = (socket: WebSocketLike) => socket.addEventListener("error", () => undefined);

/** Ends a socket that is (or may be) dead at once: `terminate()` where the implementation has it (ws on Node), else `close()`. */
function drop(socket: WebSocketLike): void {
  quiet(socket);
  try {
    const terminate = (socket as { terminate?: () => void }).terminate;
    if (typeof terminate === "function") terminate.call(socket);
    else if (socket.readyState <= OPEN) socket.close();
  } catch {
    // already closing
  }
}

/** The connection lets go of its socket: no more events from it, no keep-alive. */
function unhook(c: Connection): void {
  c.detach?.();
  c.detach = undefined;
  c.socket = undefined;
  c.ready = undefined;
  stopKeepAlive(c);
}

function constructor(t: WsCore): WebSocketConstructor {
  const ctor = t.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!ctor) throw new AvaspecError("no WebSocket implementation: this runtime has no globalThis.WebSocket (Node < 22); pass one as webSocket.WebSocket (e.g. from the ws package)", request("connect", t.base));
  return ctor;
}

/** Opens the socket (once per attempt); resolves when it is open. */
export function open(t: WsCore, path: string, c: Connection): Promise<void> {
  if (c.ready) return c.ready;
  const url = path;
  c.ready = new Promise<void>((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = new (constructor(t))(url);
    } catch (error) {
      c.ready = undefined;
      reject(error instanceof AvaspecError ? error : new NetworkError(`could not open ${url}: ${String(error)}`, request("connect", url), { cause: error }));
      return;
    }
    c.socket = socket;
    let opened = false;
    const onOpen = () => {
      opened = true;
      c.lastMessage = Date.now();
      t.opened(path, c);
      resolve();
    };
    const onMessage = (event: { data?: unknown }) => {
      c.lastMessage = Date.now();
      t.receive(c, url, event.data);
    };
    const onClose = (event: { code?: number; reason?: string }) => lost(t, path, c, socket, opened ? `the WebSocket closed (${event.code ?? "no code"}${event.reason ? `: ${event.reason}` : ""})` : `could not connect to ${url}`, reject);
    const onError = () => {
      if (!opened) lost(t, path, c, socket, `could not connect to ${url}`, reject);
    };
    socket.addEventListener("open", onOpen);
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", onClose);
    socket.addEventListener("error", onError);
    c.detach = () => {
      socket.removeEventListener("open", onOpen);
      socket.removeEventListener("message", onMessage);
      socket.removeEventListener("close", onClose);
      socket.removeEventListener("error", onError);
    };
  });
  return c.ready;
}

/** The socket is gone (closed, failed, or declared half-open): fail what waits on it, and reconnect if anything is subscribed. */
export function lost(t: WsCore, path: string, c: Connection, socket: WebSocketLike, why: string, rejectOpen?: (error: unknown) => void): void {
  if (c.socket !== socket) return;
  unhook(c);
  drop(socket);
  const url = path;
  rejectOpen?.(new NetworkError(why, request("connect", url)));
  for (const [id, p] of c.pending) {
    c.pending.delete(id);
    p.cleanup();
    p.reject(new NetworkError(`${p.method.method}: ${why} before the reply`, request(p.method.method, url)));
  }
  c.byServerId.clear();
  for (const s of c.subs) s.id = undefined;
  if (c.subs.size > 0 && !t.closed) scheduleReconnect(t, path, c, why);
}

/** Reopens the socket after a delay that doubles per attempt, up to the cap, drawn between half of it and all of it; or fails every subscription when attempts run out. */
export function scheduleReconnect(t: WsCore, path: string, c: Connection, why: string): void {
  const reconnect = t.reconnect;
  if (c.reconnectTimer !== undefined) return;
  if (!reconnect || c.attempts >= reconnect.retries) {
    const error = new NetworkError(`${why}; ${reconnect ? `gave up after ${c.attempts} reconnect attempts` : "reconnecting is off"}`, request("connect", path));
    for (const s of [...c.subs]) s.fail(error);
    return;
  }
  c.attempts++;
  const delay = reconnectDelay(reconnect, c.attempts);
  c.reconnectTimer = setTimeout(() => {
    c.reconnectTimer = undefined;
    if (t.closed || c.subs.size === 0) return;
    open(t, path, c).then(
      () => {
        const attempts = c.attempts;
        c.attempts = 0;
        return t.resume(path, c, attempts);
      },
      () => {
        // lost() scheduled the next attempt (or gave up)
      },
    );
  }, delay);
}

/** Closes the socket when nothing waits on it and nothing is subscribed. */
export function idle(c: Connection): void {
  if (c.pending.size > 0 || c.subs.size > 0 || !c.socket) return;
  const socket = c.socket;
  unhook(c);
  quiet(socket);
  try {
    socket.close(1000, "idle");
  } catch {
    // already closing
  }
}
