/**
 * Calls over a connection's socket: each call is sent with the next id and
 * waits, with its timeout and abort signal, for the reply with that id; a
 * reply is read as over HTTP (`readReply`: typed errors, result checks,
 * number policy). A message without an id is a notification, handed to the
 * subscription whose server id it names.
 */
import { AbortError, TimeoutError } from "../errors/errors.js";
import { overflowError } from "../errors/depth.js";
import { readReply, serializeParams, type RpcMethod } from "../jsonrpc/jsonrpc.js";
import type { Numbers } from "../values/numbers.js";
import { request, type Connection, type WsCore } from "./connection.js";
import { open } from "./socket.js";

/** Matches each reply of a message (one object or a batch array) to its waiting call, and each notification to its subscription. */
export function receive(t: WsCore, c: Connection, url: string, data: unknown): void {
  const text = typeof data === "string" ? data : data instanceof ArrayBuffer ? new TextDecoder().decode(data) : ArrayBuffer.isView(data) ? new TextDecoder().decode(data) : String(data);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return; // not JSON: nothing to match it to
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof message !== "object" || message === null) continue;
    const m = message as Record<string, unknown>;
    if (typeof m["method"] === "string" && m["id"] === undefined) {
      const params = m["params"] as Record<string, unknown> | undefined;
      const sub = typeof params?.["subscription"] === "string" ? c.byServerId.get(params["subscription"]) : undefined;
      if (sub && m["method"] === sub.kind.notification) sub.push(params!["result"]);
      continue;
    }
    const id = m["id"];
    const p = typeof id === "number" ? c.pending.get(id) : undefined;
    if (!p) continue;
    c.pending.delete(id as number);
    p.cleanup();
    let value: unknown;
    try {
      value = readReply(p.method, m, request(p.method.method, url), 101, { checks: t.checks, validateResponse: t.validateResponse, numbers: p.numbers });
    } catch (error) {
      p.reject(overflowError(error, request(p.method.method, url)));
      continue;
    }
    p.sync?.(value);
    p.resolve(value);
  }
}

/** Sends one call (or, with `into`, adds it to a batch being built) and waits for its reply. */
export function send(t: WsCore, path: string, c: Connection, m: RpcMethod, params: unknown, callNumbers: Numbers, callTimeout = t.timeoutMs, signal?: AbortSignal, into?: { envelope: unknown }[], sync?: (value: unknown) => void): Promise<unknown> {
  const url = path;
  const id = t.nextId++;
  let envelope: unknown;
  let text: string;
  try {
    envelope = { jsonrpc: "2.0", id, method: m.method, params: serializeParams(m, params as object | undefined, url) };
    text = JSON.stringify(envelope);
  } catch (error) {
    return Promise.reject(overflowError(error, request(m.method, url)));
  }
  t.warnDeprecated(m.deprecated);
  m.deprecatedValues?.(params, t.warnDeprecated);
  return new Promise<unknown>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError(`${m.method}: aborted by the caller`, request(m.method, url), { cause: signal.reason }));
    const onAbort = () => {
      c.pending.delete(id);
      cleanup();
      reject(new AbortError(`${m.method}: aborted by the caller`, request(m.method, url), { cause: signal?.reason }));
    };
    const timer =
      callTimeout > 0 && Number.isFinite(callTimeout)
        ? setTimeout(() => {
            c.pending.delete(id);
            cleanup();
            reject(new TimeoutError(`${m.method}: no reply within ${callTimeout} ms`, request(m.method, url), callTimeout));
          }, callTimeout)
        : undefined;
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    c.pending.set(id, { method: m, numbers: callNumbers, resolve, reject, timer, cleanup, ...(sync ? { sync } : {}) });
    if (into) into.push({ envelope });
    else
      open(t, path, c).then(
        () => c.socket?.send(text),
        (error: unknown) => {
          if (c.pending.delete(id)) {
            cleanup();
            reject(error);
          }
        },
      );
  });
}
