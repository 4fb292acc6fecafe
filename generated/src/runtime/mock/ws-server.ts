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
 * Node only: the reference above brings Node's types to this file.
 */
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/** The status codes of a close frame this server sends or reports (RFC 6455 §7.4.1). */
export const WS_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  unsupportedData: 1003,
  /** Reported when a close frame held no code; never sent. */
  noStatus: 1005,
  /** Reported when the connection ended without a closing handshake; never sent. */
  abnormal: 1006,
  invalidPayload: 1007,
  policyViolation: 1008,
  messageTooBig: 1009,
  internalError: 1011,
} as const;

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

const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash("sha1").update(key + GUID).digest("base64");
}

/** A code a close frame may carry (RFC 6455 §7.4: 1000–1003, 1007–1014, and 3000–4999 for libraries and applications). */
export function isValidCloseCode(code: number): boolean {
  return Number.isInteger(code) && ((code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999));
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

/** A server frame (never masked). */
function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.alloc(2) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (n < 126) head[1] = n;
  else if (n < 65536) {
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

function closePayload(code: number | undefined, reason: string): Buffer {
  if (code === undefined) return Buffer.alloc(0);
  const text = Buffer.from(reason, "utf8");
  const out = Buffer.alloc(2 + text.length);
  out.writeUInt16BE(code, 0);
  text.copy(out, 2);
  return out;
}

/** Bytes received and not yet parsed, as a list of chunks (no copy per chunk of a long message). */
function byteQueue() {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    get size() {
      return size;
    },
    push(b: Buffer) {
      if (b.length === 0) return;
      chunks.push(b);
      size += b.length;
    },
    /** The first `n` bytes without consuming them (n ≤ size). */
    peek(n: number): Buffer {
      if (chunks[0]!.length >= n) return chunks[0]!.subarray(0, n);
      return this.take(n, false);
    },
    /** Removes and returns the first `n` bytes (n ≤ size). */
    take(n: number, consume = true): Buffer {
      const out = Buffer.allocUnsafe(n);
      let filled = 0;
      let i = 0;
      while (filled < n) {
        const c = chunks[i]!;
        const k = Math.min(c.length, n - filled);
        c.copy(out, filled, 0, k);
        filled += k;
        if (!consume) i++;
        else if (k === c.length) chunks.shift();
        else chunks[0] = c.subarray(k);
      }
      if (consume) size -= n;
      return out;
    },
  };
}

/**
 * Answers a WebSocket opening handshake on `socket` (the arguments of
 * node:http's 'upgrade' event). A bad handshake (not a GET, Upgrade other
 * than websocket, Sec-WebSocket-Version other than 13, a missing or
 * malformed Sec-WebSocket-Key) is answered 400, the socket destroyed, and
 * undefined returned.
 */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, options: WsServerOptions = {}): WsPeer | undefined {
  const problem = handshakeProblem(req);
  if (problem !== undefined) {
    rejectUpgrade(socket, 400, problem, req.headers["sec-websocket-version"] !== "13" ? { "Sec-WebSocket-Version": "13" } : {});
    return undefined;
  }
  const maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
  const closeTimeout = options.closeTimeout ?? 2000;
  const key = (req.headers["sec-websocket-key"] as string).trim();
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptKey(key)}\r\n\r\n`);
  const tcp = socket as Duplex & { setNoDelay?: (b: boolean) => void; setTimeout?: (ms: number) => void };
  tcp.setNoDelay?.(true);
  tcp.setTimeout?.(0);

  const messageListeners: ((text: string) => void)[] = [];
  const closeListeners: ((code: number, reason: string) => void)[] = [];
  const queue = byteQueue();
  let open = true;
  let closeSent = false;
  let received: { code: number; reason: string } | undefined;
  let sentCode: { code: number; reason: string } | undefined;
  let ended = false;
  // a protocol error closed the connection: nothing more is read
  let failed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // the message being assembled from fragments
  let fragments: Buffer[] | undefined;
  let fragmentsSize = 0;
  // the frame whose payload is awaited
  let pending: { fin: boolean; opcode: number; mask: Buffer; length: number } | undefined;

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
    queue.take(queue.size);
    pending = undefined;
    fragments = undefined;
    failed = true;
    finish();
  };

  const onFrame = (fin: boolean, opcode: number, payload: Buffer) => {
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
        queue.take(queue.size);
        finish();
        return;
      }
      case OP.text:
      case OP.continuation: {
        if (closeSent) return; // data after our close frame is discarded
        const parts = opcode === OP.text ? [payload] : [...fragments!, payload];
        if (!fin) {
          fragments = parts;
          return;
        }
        fragments = undefined;
        fragmentsSize = 0;
        const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
        if (!isUtf8(data)) return fail(WS_CLOSE.invalidPayload, "a text message must be UTF-8");
        const text = data.toString("utf8");
        for (const fn of messageListeners) fn(text);
        return;
      }
    }
  };

  const parse = () => {
    while (!failed && !ended) {
      if (pending === undefined) {
        if (queue.size < 2) return;
        const b = queue.peek(2);
        const len7 = b[1]! & 0x7f;
        const masked = (b[1]! & 0x80) !== 0;
        const headerLength = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);
        if (queue.size < headerLength) return;
        const h = queue.take(headerLength);
        const fin = (h[0]! & 0x80) !== 0;
        const rsv = h[0]! & 0x70;
        const opcode = h[0]! & 0x0f;
        let length = len7;
        if (len7 === 126) length = h.readUInt16BE(2);
        else if (len7 === 127) {
          const high = h.readUInt32BE(2);
          if (high & 0x80000000) return fail(WS_CLOSE.protocolError, "a 64-bit payload length must have its top bit clear");
          // beyond 2^53 is past any maxPayload anyway
          length = high * 2 ** 32 + h.readUInt32BE(6);
        }
        if (rsv !== 0) return fail(WS_CLOSE.protocolError, "no extension was negotiated: RSV bits must be 0");
        if (!masked) return fail(WS_CLOSE.protocolError, "client frames must be masked");
        const control = opcode >= 0x8;
        if (![OP.continuation, OP.text, OP.binary, OP.close, OP.ping, OP.pong].includes(opcode as never)) return fail(WS_CLOSE.protocolError, `unknown opcode ${opcode}`);
        if (control && (!fin || length > 125)) return fail(WS_CLOSE.protocolError, "a control frame must be one frame of at most 125 bytes");
        if (opcode === OP.continuation && fragments === undefined) return fail(WS_CLOSE.protocolError, "a continuation frame without a message to continue");
        if ((opcode === OP.text || opcode === OP.binary) && fragments !== undefined) return fail(WS_CLOSE.protocolError, "a new message before the fragmented one ended");
        if (opcode === OP.binary) return fail(WS_CLOSE.unsupportedData, "only text messages are accepted");
        if (!control) {
          fragmentsSize = (opcode === OP.text ? 0 : fragmentsSize) + length;
          if (fragmentsSize > maxPayload) return fail(WS_CLOSE.messageTooBig, `a message may be at most ${maxPayload} bytes`);
          if (opcode === OP.text && !fin) fragments = [];
        }
        pending = { fin, opcode, mask: h.subarray(headerLength - 4), length };
      }
      if (queue.size < pending.length) return;
      const payload = pending.length === 0 ? Buffer.alloc(0) : queue.take(pending.length);
      for (let i = 0; i < payload.length; i++) payload[i]! ^= pending.mask[i & 3]!;
      const { fin, opcode } = pending;
      pending = undefined;
      onFrame(fin, opcode, payload);
    }
  };

  socket.on("data", (chunk: Buffer) => {
    if (failed || ended) return;
    queue.push(chunk);
    parse();
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
    queue.push(Buffer.from(head));
    // after the caller has had the peer and registered its listeners
    queueMicrotask(parse);
  }
  return peer;
}
