/// <reference types="node" />
/**
 * A minimal RFC 6455 WebSocket server end over node:http's 'upgrade' event,
 * with no dependency: the mock server's WebSocket endpoints run on it.
 *
 * `acceptWebSocket(req, socket, head)` answers the opening handshake (or 400
 * for a bad one) and gives a `WsPeer` that sends and receives text messages.
 * It handles what a conforming client may send: masked frames (an unmasked
 * one is a protocol error, 1002), text messages in one frame or fragmented
 * across continuation frames (UTF-8 checked: 1007), pings (answered with a
 * pong carrying the same payload), pongs (ignored), the closing handshake,
 * 7-, 16- and 64-bit payload lengths, and frames split across TCP chunks or
 * several in one. Binary messages are refused (1003), and so is a message
 * longer than `maxPayload` (1009), before its payload is buffered. Server
 * frames are not masked; no extension (permessage-deflate) or subprotocol is
 * negotiated.
 *
 * The framing (reading a client's frames, writing the server's) is in
 * ws-frames.ts; here are the opening handshake, and the connection: its
 * closing handshake, pings, and the peer's API.
 *
 * Node only: the reference above brings Node's types to this file.
 */
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { OP, WS_CLOSE, closePayload, frame, frameReader, isValidCloseCode } from "./ws-frames.js";

export { WS_CLOSE, isValidCloseCode } from "./ws-frames.js";

export interface WsServerOptions {
  /** The longest message accepted, in bytes, all its fragments together (default 16 MiB): a longer one closes with 1009. */
  maxPayload?: number;
  /** Milliseconds to wait for the client's close frame (and then its end of the TCP connection) before destroying the socket (default 2000). */
  closeTimeout?: number;
}

/** One accepted WebSocket connection, server side. */
export interface WsPeer {
  /** Sends one text message; dropped when the connection is no longer open. */
  send(text: string): void;
  /** Sends a ping (empty payload); the client's pong is ignored. */
  ping(): void;
  /** Starts the closing handshake (default 1000): the client's close frame ends the connection. */
  close(code?: number, reason?: string): void;
  /** Destroys the connection at once, without a closing handshake (reported as 1006). */
  terminate(): void;
  /** True until a close frame is sent or received, or the connection ends. */
  readonly open: boolean;
  /** Each text message the client sends. */
  onMessage(fn: (text: string) => void): void;
  /** Once, when the TCP connection has ended: the close frame's code and reason (1005 for a close frame without a code, 1006 without a close frame). */
  onClose(fn: (code: number, reason: string) => void): void;
}

/** A close code or reason that cannot go in a close frame. */
export class WsCloseCodeError extends Error {
  override name = "WsCloseCodeError";
}

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const DEFAULT_MAX_PAYLOAD = 16 * 1024 * 1024;

/** `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash("sha1").update(key + GUID).digest("base64");
}

/** Answers an upgrade request with an HTTP error and destroys the socket once it is written. */
export function rejectUpgrade(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const reason = { 400: "Bad Request", 404: "Not Found", 426: "Upgrade Required" }[status] ?? "Error";
  const body = Buffer.from(message + "\n", "utf8");
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  const head = `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n${extra}\r\n`;
  if (socket.destroyed || !socket.writable) return void socket.destroy();
  socket.on("error", () => undefined);
  socket.end(Buffer.concat([Buffer.from(head, "latin1"), body]), () => socket.destroy());
}

/** What makes an opening handshake bad, or undefined for a good one. */
function handshakeProblem(req: IncomingMessage): string | undefined {
  if (req.method !== "GET") return `a WebSocket handshake is a GET request, not ${req.method}`;
  const upgrade = req.headers.upgrade;
  if (typeof upgrade !== "string" || upgrade.toLowerCase() !== "websocket") return "Upgrade must be websocket";
  const version = req.headers["sec-websocket-version"];
  if (version !== "13") return "Sec-WebSocket-Version must be 13";
  const key = req.headers["sec-websocket-key"];
  // 16 random bytes in base64
  if (typeof key !== "string" || !/^[A-Za-z0-9+/]{22}==$/.test(key.trim())) return "Sec-WebSocket-Key must be 16 bytes in base64";
  return undefined;
}

/**
 * Answers the opening handshake: 101 with the accept key, or 400 for a bad
 * one (the socket destroyed). True when the connection is a WebSocket now.
 */
function answerHandshake(req: IncomingMessage, socket: Duplex): boolean {
  const problem = handshakeProblem(req);
  if (problem !== undefined) {
    rejectUpgrade(socket, 400, problem, req.headers["sec-websocket-version"] !== "13" ? { "Sec-WebSocket-Version": "13" } : {});
    return false;
  }
  const key = (req.headers["sec-websocket-key"] as string).trim();
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptKey(key)}\r\n\r\n`);
  const tcp = socket as Duplex & { setNoDelay?: (b: boolean) => void; setTimeout?: (ms: number) => void };
  tcp.setNoDelay?.(true);
  tcp.setTimeout?.(0);
  return true;
}

/**
 * Answers a WebSocket opening handshake on `socket` (the arguments of
 * node:http's 'upgrade' event). A bad handshake (not a GET, Upgrade other
 * than websocket, Sec-WebSocket-Version other than 13, a missing or
 * malformed Sec-WebSocket-Key) is answered 400, the socket destroyed, and
 * undefined returned.
 */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, options: WsServerOptions = {}): WsPeer | undefined {
  if (!answerHandshake(req, socket)) return undefined;
  const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
  const closeTimeout = options.closeTimeout ?? 2000;

  const messageListeners: ((text: string) => void)[] = [];
  const closeListeners: ((code: number, reason: string) => void)[] = [];
  let open = true;
  let closeSent = false;
  let received: { code: number; reason: string } | undefined;
  let sentCode: { code: number; reason: string } | undefined;
  let ended = false;
  // a protocol error closed the connection: nothing more is read
  let failed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const write = (b: Buffer) => {
    if (!socket.destroyed && socket.writable) socket.write(b);
  };

  /** Ends the TCP connection, and destroys it if the client does not end its side in time. */
  const finish = () => {
    if (!socket.destroyed && socket.writable) socket.end();
    clearTimeout(timer);
    timer = setTimeout(() => socket.destroy(), closeTimeout);
    timer.unref?.();
  };

  const sendClose = (code: number | undefined, reason: string) => {
    if (closeSent) return;
    closeSent = true;
    open = false;
    if (code !== undefined) sentCode = { code, reason };
    write(frame(OP.close, closePayload(code, reason)));
  };

  /** _Fail the WebSocket Connection_: a close frame with the reason, then the end of the connection. */
  const fail = (code: number, reason: string) => {
    sendClose(code, reason);
    reader.stop();
    failed = true;
    finish();
  };

  const onControl = (opcode: number, payload: Buffer) => {
    switch (opcode) {
      case OP.ping:
        if (!closeSent) write(frame(OP.pong, payload));
        return;
      case OP.pong:
        return;
      case OP.close: {
        if (payload.length === 1) return fail(WS_CLOSE.protocolError, "a close frame's payload cannot be one byte");
        let code: number = WS_CLOSE.noStatus;
        let reason = "";
        if (payload.length >= 2) {
          code = payload.readUInt16BE(0);
          if (!isValidCloseCode(code)) return fail(WS_CLOSE.protocolError, `invalid close code ${code}`);
          const text = payload.subarray(2);
          if (!isUtf8(text)) return fail(WS_CLOSE.invalidPayload, "a close reason must be UTF-8");
          reason = text.toString("utf8");
        }
        received = { code, reason };
        // echo the code (none for none), then end: the server closes the TCP connection first
        sendClose(code === WS_CLOSE.noStatus ? undefined : code, "");
        open = false;
        reader.discard();
        finish();
        return;
      }
    }
  };

  const reader = frameReader(maxPayload, {
    message: (text) => {
      for (const fn of messageListeners) fn(text);
    },
    control: onControl,
    get discarding() {
      return closeSent;
    },
    fail,
  });

  socket.on("data", (chunk: Buffer) => {
    if (failed || ended) return;
    reader.push(chunk);
    reader.parse();
  });
  socket.on("error", () => undefined);
  socket.on("end", () => {
    // the client ended its side: end ours (a half-open socket would linger)
    open = false;
    if (!socket.destroyed && socket.writable) socket.end();
  });
  socket.on("close", () => {
    ended = true;
    open = false;
    reader.stop();
    clearTimeout(timer);
    const { code, reason } = received ?? (failed ? sentCode : undefined) ?? { code: WS_CLOSE.abnormal, reason: "" };
    for (const fn of closeListeners.splice(0)) fn(code, reason);
  });

  const peer: WsPeer = {
    get open() {
      return open;
    },
    send(text) {
      if (open) write(frame(OP.text, Buffer.from(text, "utf8")));
    },
    ping() {
      if (open) write(frame(OP.ping, Buffer.alloc(0)));
    },
    close(code = WS_CLOSE.normal, reason = "") {
      if (!isValidCloseCode(code)) throw new WsCloseCodeError(`${code} is not a close code a close frame may carry`);
      if (Buffer.byteLength(reason, "utf8") > 123) throw new WsCloseCodeError("a close reason is at most 123 bytes of UTF-8");
      if (closeSent || ended) return;
      sendClose(code, reason);
      // wait for the client's close frame, which ends the connection; destroy it if none comes
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), closeTimeout);
      timer.unref?.();
    },
    terminate() {
      open = false;
      clearTimeout(timer);
      socket.destroy();
    },
    onMessage(fn) {
      messageListeners.push(fn);
    },
    onClose(fn) {
      if (ended) return;
      closeListeners.push(fn);
    },
  };
  if (head.length > 0) {
    reader.push(Buffer.from(head));
    // after the caller has had the peer and registered its listeners
    queueMicrotask(reader.parse);
  }
  return peer;
}
