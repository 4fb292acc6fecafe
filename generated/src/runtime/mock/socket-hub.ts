/**
 * The WebSocket bridge of the mocks: a connection's messages go to the mock
 * service as JSON-RPC calls, and `eth_subscribe` is served from the
 * service's `subscriptions`. The mock server and the MSW WebSocket handlers
 * carry the connections; the hub knows nothing of how.
 */
import { hasOwn } from "../values/validate.js";
import { rpcError } from "./rpc.js";
import { hash, rng } from "./random.js";
import type { MockService } from "./types.js";

// ---------------------------------------------------------------- WebSocket bridge

/** The subscription methods the bridge answers itself (the rest go to the service). */
export const SUBSCRIBE_METHOD = "eth_subscribe";
export const UNSUBSCRIBE_METHOD = "eth_unsubscribe";
/** The method of the notifications a subscription sends. */
export const SUBSCRIPTION_NOTIFICATION = "eth_subscription";

/** One open WebSocket connection, as the hub drives it. */
export interface MockSocket {
  /** Sends one text message. */
  send(text: string): void;
  /** Ends the connection at once. */
  terminate(): void;
}

/** A connection on the hub: its messages go in, its end is reported. */
export interface MockSocketConnection {
  /** Answers one text message (a JSON-RPC call or batch): resolves once the reply, if any, is sent. */
  message(text: string): Promise<void>;
  /** The connection ended: its subscriptions stop. */
  closed(): void;
}

/** The WebSocket connections of a mock server or MSW setup, and their subscriptions. */
export interface MockSocketHub {
  /** A connection opened on a WebSocket path standing for the JSON-RPC `endpoint`. */
  connect(endpoint: string, socket: MockSocket): MockSocketConnection;
  /** Emits now, to every subscription of `kind`: `payload`, or the subscriptions' next one (`MockSubscriptions.next`, one per endpoint); returns how many were sent. */
  push(kind: string, payload?: unknown): number;
  /** Terminates every open connection (their subscriptions stop). */
  dropConnections(): void;
  /** Open connections. */
  readonly connections: number;
  /** Running subscriptions. */
  readonly subscriptions: number;
}

/** `push()` without a payload when the service's subscriptions cannot make one. */
export class MockSubscriptionError extends Error {
  override name = "MockSubscriptionError";
}

interface HubSubscription {
  id: string;
  kind: string;
  endpoint: string;
  deliver(payload: unknown): void;
  stop(): void;
}

const isCallTo = (c: unknown, names: readonly string[]): c is Record<string, unknown> => typeof c === "object" && c !== null && !Array.isArray(c) && names.includes((c as Record<string, unknown>)["method"] as string);

/** Subscription ids as nodes write them (32 hex digits), from a seeded sequence: the same calls get the same ids; none repeats one the connection holds. */
function subscriptionIds(): (taken: ReadonlyMap<string, unknown>) => string {
  let issued = 0;
  return (taken) => {
    for (;;) {
      const next = rng(hash(`subscription:${++issued}`));
      let id = "0x";
      for (let i = 0; i < 4; i++) id += Math.floor(next() * 2 ** 32).toString(16).padStart(8, "0");
      if (!taken.has(id)) return id;
    }
  };
}

/**
 * Bridges WebSocket connections to `service`: each message is a JSON-RPC
 * call or batch to the connection's endpoint, answered as an HTTP POST to it
 * would be (one message back; none for notifications only). With
 * `service.subscriptions`, `eth_subscribe` answers a 32-hex-digit id and then
 * sends `eth_subscription` notifications until `eth_unsubscribe` or the end of
 * the connection.
 */
export function createMockSocketHub(service: Pick<MockService, "handle" | "subscriptions">): MockSocketHub {
  const hook = service.subscriptions;
  const open = new Map<MockSocket, Map<string, HubSubscription>>();
  const all = new Set<HubSubscription>();
  const newId = subscriptionIds();

  return {
    connect(endpoint, socket) {
      const subs = new Map<string, HubSubscription>();
      open.set(socket, subs);
      const send = (value: unknown) => {
        if (open.has(socket)) socket.send(typeof value === "string" ? value : JSON.stringify(value));
      };
      const stopAll = () => {
        for (const s of subs.values()) s.stop();
        open.delete(socket);
      };

      /** eth_subscribe or eth_unsubscribe: the reply (undefined for a notification), and what to start once it is sent. */
      const local = (c: Record<string, unknown>, started: (() => void)[]): unknown => {
        const notification = !hasOwn(c, "id");
        const id = notification ? null : c["id"];
        const params = c["params"];
        if (c["method"] === UNSUBSCRIBE_METHOD) {
          if (!Array.isArray(params) || typeof params[0] !== "string") return notification ? undefined : rpcError(id, -32602, "Invalid params: eth_unsubscribe takes a subscription id");
          const s = subs.get(params[0]);
          s?.stop();
          return notification ? undefined : { jsonrpc: "2.0", id, result: s !== undefined };
        }
        if (notification) return undefined; // nobody could learn the id
        if (!open.has(socket)) return undefined; // the connection ended while an earlier call of its batch was answered
        if (!Array.isArray(params) || typeof params[0] !== "string") return rpcError(id, -32602, "Invalid params: eth_subscribe takes the kind of subscription first");
        const kind = params[0];
        const subId = newId(subs);
        let ready = false;
        let live = true;
        const queued: unknown[] = [];
        const deliver = (payload: unknown) => {
          if (!live) return;
          if (!ready) queued.push(payload);
          else send({ jsonrpc: "2.0", method: SUBSCRIPTION_NOTIFICATION, params: { subscription: subId, result: payload } });
        };
        const stop = hook!.subscribe(endpoint, kind, params.slice(1), deliver);
        if (stop === undefined) return rpcError(id, -32602, `Invalid params: no subscription of kind ${JSON.stringify(kind)}`);
        const sub: HubSubscription = {
          id: subId,
          kind,
          endpoint,
          deliver,
          stop() {
            if (!live) return;
            live = false;
            subs.delete(subId);
            all.delete(sub);
            stop();
          },
        };
        subs.set(subId, sub);
        all.add(sub);
        // notifications come after the id they carry
        started.push(() => {
          ready = true;
          for (const p of queued.splice(0)) deliver(p);
        });
        return { jsonrpc: "2.0", id, result: subId };
      };

      const call = (body: string) => service.handle({ method: "POST", url: `http://mock${endpoint}`, headers: { "content-type": "application/json" }, body });
      const names = hook ? [SUBSCRIBE_METHOD, UNSUBSCRIBE_METHOD] : [];

      return {
        async message(text) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const started: (() => void)[] = [];
          let reply: unknown;
          const isLocal = (c: unknown): c is Record<string, unknown> => isCallTo(c, names);
          if (Array.isArray(parsed) && parsed.some(isLocal)) {
            // a batch with subscription calls: each call on its own, the replies in one message
            const replies: unknown[] = [];
            for (const c of parsed) {
              if (isLocal(c)) {
                const r = local(c, started);
                if (r !== undefined) replies.push(r);
                continue;
              }
              const r = await call(JSON.stringify(c));
              if (r?.networkError) return void socket.terminate();
              if (r && r.body !== "") replies.push(JSON.parse(r.body));
              else if (!r) replies.push(rpcError(null, -32601, `no mocked JSON-RPC endpoint at ${endpoint}`));
            }
            reply = replies.length > 0 ? replies : undefined;
          } else if (isLocal(parsed)) {
            reply = local(parsed, started);
          } else {
            const r = await call(text);
            if (r?.networkError) return void socket.terminate();
            reply = !r ? rpcError(null, -32601, `no mocked JSON-RPC endpoint at ${endpoint}`) : r.status === 204 || r.body === "" ? undefined : r.body;
          }
          if (reply !== undefined) send(reply);
          for (const f of started) f();
        },
        closed: stopAll,
      };
    },
    push(kind, payload) {
      const next = new Map<string, unknown>();
      let sent = 0;
      for (const s of [...all]) {
        if (s.kind !== kind) continue;
        let p = payload;
        if (p === undefined) {
          if (!next.has(s.endpoint)) {
            if (!hook?.next) throw new MockSubscriptionError(`push("${kind}") without a payload: the service's subscriptions make no payloads on demand (no next()); pass one`);
            next.set(s.endpoint, hook.next(s.endpoint, kind));
          }
          p = next.get(s.endpoint);
          if (p === undefined) throw new MockSubscriptionError(`push("${kind}") without a payload: the service's subscriptions made none for ${s.endpoint}; pass one`);
        }
        s.deliver(p);
        sent++;
      }
      return sent;
    },
    dropConnections() {
      for (const [socket, subs] of [...open]) {
        for (const s of subs.values()) s.stop();
        open.delete(socket);
        socket.terminate();
      }
    },
    get connections() {
      return open.size;
    },
    get subscriptions() {
      return all.size;
    },
  };
}
