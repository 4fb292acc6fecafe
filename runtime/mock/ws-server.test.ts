/**
 * The dependency-free WebSocket server end against real clients on
 * 127.0.0.1: the `ws` package, Node's own WebSocket (Node ≥ 22; Node 20
 * has none without a flag), and hand-written frames on a raw TCP socket for
 * what a conforming client never sends (unmasked frames, invalid UTF-8, bad
 * handshakes) and for frame boundaries (one frame over many TCP chunks,
 * several frames in one).
 */
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { acceptKey, acceptWebSocket, type WsPeer } from "./ws-server.js";

let server: Server;
let port: number;
const peers = new Set<WsPeer>();
const closes: { code: number; reason: string }[] = [];
const MAX = 100_000;

beforeAll(async () => {
  server = createServer((_req, res) => res.end("plain HTTP"));
  server.on("upgrade", (req, socket, head) => {
    const peer = acceptWebSocket(req, socket, head, { maxPayload: MAX, closeTimeout: 500 });
    if (!peer) return;
    peers.add(peer);
    peer.onClose((code, reason) => {
      peers.delete(peer);
      closes.push({ code, reason });
    });
    peer.onMessage((text) => {
      // commands for the tests; anything else is echoed
      const m = /^close (\d+) (.*)$/.exec(text);
      if (m) return peer.close(Number(m[1]), m[2]);
      if (text === "ping me") return peer.ping();
      peer.send(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  port = typeof a === "object" && a ? a.port : 0;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const url = () => `ws://127.0.0.1:${port}/ws`;

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url());
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}
const nextMessage = (ws: WebSocket) => new Promise<string>((r) => ws.once("message", (data, binary) => r(binary ? "(binary)" : String(data))));
const closed = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((r) => ws.once("close", (code, reason) => r({ code, reason: String(reason) })));
const until = async (f: () => boolean) => {
  for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe("with the ws client", () => {
  it.each([
    ["a small message", "hello"],
    ["multi-byte UTF-8", "héllo → ✓ 🚀"],
    ["125 bytes (7-bit length)", "x".repeat(125)],
    ["126 bytes (16-bit length)", "y".repeat(126)],
    ["65535 bytes (largest 16-bit length)", "z".repeat(65535)],
    ["70 KB (64-bit length)", "w".repeat(70 * 1024)],
  ])("echoes %s", async (_, text) => {
    const ws = await open();
    const got = nextMessage(ws);
    ws.send(text);
    expect(await got).toBe(text);
    ws.close();
    await closed(ws);
  });

  it("assembles a fragmented message (fin: false, then the rest) with a ping between the fragments", async () => {
    const ws = await open();
    const got = nextMessage(ws);
    ws.send("hello, ", { fin: false });
    ws.ping();
    ws.send("fragmented ", { fin: false });
    ws.send("world", { fin: true });
    expect(await got).toBe("hello, fragmented world");
    ws.close();
    await closed(ws);
  });

  it("answers a ping with a pong carrying the same payload, and its own ping is answered", async () => {
    const ws = await open();
    const pong = new Promise<string>((r) => ws.once("pong", (d) => r(String(d))));
    ws.ping(Buffer.from("are you there"));
    expect(await pong).toBe("are you there");
    const ping = new Promise<void>((r) => ws.once("ping", () => r()));
    ws.send("ping me");
    await ping;
    // the server still answers after the pong the client sent back
    const got = nextMessage(ws);
    ws.send("after");
    expect(await got).toBe("after");
    ws.close();
    await closed(ws);
  });

  it("echoes the client's close code and reason, and reports them", async () => {
    const ws = await open();
    const done = closed(ws);
    const before = closes.length;
    ws.close(4000, "done here");
    expect(await done).toEqual({ code: 4000, reason: "" });
    await until(() => closes.length > before);
    expect(closes.at(-1)).toEqual({ code: 4000, reason: "done here" });
  });

  it("closes with the code and reason the server gives", async () => {
    const ws = await open();
    const done = closed(ws);
    ws.send("close 4001 bye now");
    expect(await done).toEqual({ code: 4001, reason: "bye now" });
  });

  it("a message over maxPayload closes with 1009, also when only its fragments together are", async () => {
    const ws = await open();
    const done = closed(ws);
    ws.send("a".repeat(MAX + 1));
    expect((await done).code).toBe(1009);
    const ws2 = await open();
    const done2 = closed(ws2);
    ws2.send("a".repeat(MAX / 2), { fin: false });
    ws2.send("a".repeat(MAX / 2 + 1), { fin: true });
    expect((await done2).code).toBe(1009);
  });

  it("a message of exactly maxPayload is accepted", async () => {
    const ws = await open();
    const got = nextMessage(ws);
    ws.send("m".repeat(MAX));
    expect((await got).length).toBe(MAX);
    ws.close();
    await closed(ws);
  });

  it("a binary message closes with 1003", async () => {
    const ws = await open();
    const done = closed(ws);
    ws.send(Buffer.from([1, 2, 3]));
    expect((await done).code).toBe(1003);
  });

  it("terminate() ends the connection at once (1006 on the client)", async () => {
    const ws = await open();
    await until(() => peers.size > 0);
    const done = closed(ws);
    for (const p of peers) p.terminate();
    expect((await done).code).toBe(1006);
  });
});

describe.skipIf(typeof globalThis.WebSocket !== "function")("with Node's own WebSocket (Node ≥ 22; Node 20 has none without --experimental-websocket)", () => {
  it("echoes messages of each length form and closes with a code", async () => {
    const ws = new globalThis.WebSocket(url());
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    for (const text of ["hi", "é".repeat(100), "q".repeat(70 * 1024)]) {
      const got = new Promise<string>((r) => (ws.onmessage = (e) => r(String(e.data))));
      ws.send(text);
      expect(await got).toBe(text);
    }
    const done = new Promise<{ code: number; reason: string }>((r) => (ws.onclose = (e) => r({ code: e.code, reason: e.reason })));
    ws.close(4002, "bye");
    expect((await done).code).toBe(4002);
  });
});

// ---------------------------------------------------------------- raw TCP

/** A connection after a handshake written by hand, reading the server's (unmasked) frames. */
async function raw(): Promise<{ socket: Socket; frames: { opcode: number; payload: Buffer }[]; ended: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  await new Promise((r) => socket.once("connect", r));
  const key = randomBytes(16).toString("base64");
  socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const frames: { opcode: number; payload: Buffer }[] = [];
  let buf = Buffer.alloc(0);
  let handshake = true;
  const ended = new Promise<void>((r) => socket.once("close", () => r()));
  socket.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (handshake) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buf.subarray(0, end).toString("latin1");
        if (!head.startsWith("HTTP/1.1 101") || !head.includes(`Sec-WebSocket-Accept: ${acceptKey(key)}`)) reject(new Error(head));
        buf = buf.subarray(end + 4);
        handshake = false;
        resolve();
      }
      while (buf.length >= 2) {
        let len = buf[1]! & 0x7f;
        let at = 2;
        if (len === 126) [len, at] = [buf.readUInt16BE(2), 4];
        else if (len === 127) [len, at] = [Number(buf.readBigUInt64BE(2)), 10];
        if (buf.length < at + len) return;
        expect(buf[1]! & 0x80).toBe(0); // server frames are not masked
        frames.push({ opcode: buf[0]! & 0x0f, payload: buf.subarray(at, at + len) });
        buf = buf.subarray(at + len);
      }
    });
  });
  return { socket, frames, ended };
}

/** A client frame: masked unless told otherwise. */
function clientFrame(opcode: number, payload: Buffer, { fin = true, masked = true } = {}): Buffer {
  const n = payload.length;
  const len = n < 126 ? Buffer.from([n]) : n < 65536 ? Buffer.from([126, n >> 8, n & 255]) : Buffer.concat([Buffer.from([127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; })()]);
  len[0]! |= masked ? 0x80 : 0;
  const mask = masked ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(payload);
  if (masked) for (let i = 0; i < body.length; i++) body[i]! ^= mask[i & 3]!;
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode]), len, mask, body]);
}
const closeCode = (f: { payload: Buffer }) => f.payload.readUInt16BE(0);

describe("on a raw socket", () => {
  it("an unmasked frame closes with 1002", async () => {
    const c = await raw();
    c.socket.write(clientFrame(1, Buffer.from("hi"), { masked: false }));
    await c.ended;
    expect(c.frames.map((f) => f.opcode)).toEqual([8]);
    expect(closeCode(c.frames[0]!)).toBe(1002);
  });

  it("invalid UTF-8 in a text message closes with 1007", async () => {
    const c = await raw();
    c.socket.write(clientFrame(1, Buffer.from([0x68, 0xff, 0xfe])));
    await c.ended;
    expect(closeCode(c.frames.at(-1)!)).toBe(1007);
  });

  it("a continuation frame with nothing to continue, a fragmented ping and a bad close code close with 1002", async () => {
    for (const bytes of [clientFrame(0, Buffer.from("x")), clientFrame(9, Buffer.from("p"), { fin: false }), clientFrame(8, Buffer.from([0x03, 0xed]))]) {
      const c = await raw();
      c.socket.write(bytes);
      await c.ended;
      expect(closeCode(c.frames.at(-1)!)).toBe(1002);
    }
  });

  it("reads a frame split into one TCP chunk per byte, and several frames in one chunk", async () => {
    const c = await raw();
    const long = clientFrame(1, Buffer.from("s".repeat(300)));
    for (const byte of long) {
      c.socket.write(Buffer.from([byte]));
      await new Promise((r) => setTimeout(r, 1));
    }
    c.socket.write(Buffer.concat([clientFrame(1, Buffer.from("one")), clientFrame(9, Buffer.from("pp")), clientFrame(1, Buffer.from("tw"), { fin: false }), clientFrame(0, Buffer.from("o"))]));
    await until(() => c.frames.length >= 4);
    expect(c.frames.map((f) => [f.opcode, f.payload.toString()])).toEqual([
      [1, "s".repeat(300)],
      [1, "one"],
      [10, "pp"],
      [1, "two"],
    ]);
    // a close frame without a code is echoed without one, and the server ends the connection
    c.socket.write(clientFrame(8, Buffer.alloc(0)));
    await c.ended;
    expect(c.frames.at(-1)).toEqual({ opcode: 8, payload: Buffer.alloc(0) });
    await until(() => closes.at(-1)?.code === 1005);
    expect(closes.at(-1)).toEqual({ code: 1005, reason: "" });
  });

  it.each([
    ["no Sec-WebSocket-Key", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"],
    ["a Sec-WebSocket-Key that is not 16 bytes", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: c2hvcnQ=\r\nSec-WebSocket-Version: 13\r\n"],
    ["version 8", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n"],
    ["a POST", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n", "POST"],
  ])("answers 400 to a handshake with %s and closes the connection", async (_, headers, method = "GET") => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (d) => (text += d.toString("latin1")));
    const ended = new Promise((r) => socket.once("close", r));
    socket.write(`${method} /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
    await ended;
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("the accept key of RFC 6455's example", () => {
    expect(acceptKey("dGhlIHNhbXBsZSBub25jZQ==")).toBe("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  });
});
