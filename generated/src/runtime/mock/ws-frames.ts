/// <reference types="node" />
/**
 * RFC 6455 framing for the mock's WebSocket server (ws-server.ts): the
 * opcodes and close codes, the server's frames, and the reader of a client's
 * bytes. The reader takes TCP chunks as they come (a frame split across
 * chunks, or several frames in one), refuses what a conforming client never
 * sends (an unmasked frame, RSV bits, an unknown opcode, a fragmented or
 * long control frame, a continuation with nothing to continue, a binary
 * message) and a message longer than `maxPayload` before its payload is
 * buffered, and assembles a text message from its fragments, UTF-8 checked.
 * What the frames mean (the closing handshake, pings) is the server's.
 *
 * Node only: the reference above brings Node's types to this file.
 */
import { isUtf8 } from "node:buffer";

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

export const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** A code a close frame may carry (RFC 6455 §7.4: 1000–1003, 1007–1014, and 3000–4999 for libraries and applications). */
export function isValidCloseCode(code: number): boolean {
  return Number.isInteger(code) && ((code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999));
}

/** A server frame (never masked). */
export function frame(opcode: number, payload: Buffer): Buffer {
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

export function closePayload(code: number | undefined, reason: string): Buffer {
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

/** Where the reader's frames go. */
export interface FrameSink {
  /** A whole text message. */
  message(text: string): void;
  /** A close, ping or pong frame. */
  control(opcode: number, payload: Buffer): void;
  /** True once the server has sent its close frame: data frames are discarded. */
  readonly discarding: boolean;
  /** The client broke the protocol: the connection fails with this code (the sink stops the reader). */
  fail(code: number, reason: string): void;
}

export interface FrameReader {
  /** Adds received bytes (parsed by the next `parse()`). */
  push(chunk: Buffer): void;
  /** Reads every whole frame received so far. */
  parse(): void;
  /** Forgets the bytes received and not yet read (after a close frame). */
  discard(): void;
  /** Reads nothing more: the connection failed or ended. */
  stop(): void;
}

/** Reads a client's frames; a text message longer than `maxPayload` bytes, its fragments together, fails with 1009. */
export function frameReader(maxPayload: number, sink: FrameSink): FrameReader {
  const queue = byteQueue();
  let stopped = false;
  // the message being assembled from fragments
  let fragments: Buffer[] | undefined;
  let fragmentsSize = 0;
  // the frame whose payload is awaited
  let pending: { fin: boolean; opcode: number; mask: Buffer; length: number } | undefined;

  /** A data frame (text or continuation) whose payload is unmasked: one more part of a message, or its last. */
  const onData = (fin: boolean, opcode: number, payload: Buffer) => {
    if (sink.discarding) return; // data after our close frame is discarded
    const parts = opcode === OP.text ? [payload] : [...fragments!, payload];
    if (!fin) {
      fragments = parts;
      return;
    }
    fragments = undefined;
    fragmentsSize = 0;
    const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    if (!isUtf8(data)) return sink.fail(WS_CLOSE.invalidPayload, "a text message must be UTF-8");
    sink.message(data.toString("utf8"));
  };

  /** Reads a frame's header once all of it has arrived; false when it has not, or the frame fails the connection. */
  const readHeader = (): boolean => {
    if (queue.size < 2) return false;
    const b = queue.peek(2);
    const len7 = b[1]! & 0x7f;
    const masked = (b[1]! & 0x80) !== 0;
    const headerLength = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);
    if (queue.size < headerLength) return false;
    const h = queue.take(headerLength);
    const fin = (h[0]! & 0x80) !== 0;
    const rsv = h[0]! & 0x70;
    const opcode = h[0]! & 0x0f;
    let length = len7;
    const fail = (code: number, reason: string): false => {
      sink.fail(code, reason);
      return false;
    };
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
    return true;
  };

  return {
    push: (chunk) => queue.push(chunk),
    parse() {
      while (!stopped) {
        if (pending === undefined && !readHeader()) return;
        if (queue.size < pending!.length) return;
        const payload = pending!.length === 0 ? Buffer.alloc(0) : queue.take(pending!.length);
        for (let i = 0; i < payload.length; i++) payload[i]! ^= pending!.mask[i & 3]!;
        const { fin, opcode } = pending!;
        pending = undefined;
        if (opcode === OP.text || opcode === OP.continuation) onData(fin, opcode, payload);
        else sink.control(opcode, payload);
      }
    },
    discard: () => void queue.take(queue.size),
    stop() {
      stopped = true;
      queue.take(queue.size);
      pending = undefined;
      fragments = undefined;
    },
  };
}
