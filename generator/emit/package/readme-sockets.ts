/**
 * The package README's WebSocket parts: a section for the WebSocket forms of
 * JSON-RPC endpoints (how to open one, call over it, subscribe, what a
 * reconnect does, how to close it), and the examples of the subscribe and
 * unsubscribe methods, which exist only over the socket: calling
 * `eth_subscribe` over HTTP fails on a node, so their examples use the
 * client's `ws.subscribe` members instead.
 */
import { namedSchema } from "../../ir/resolve.js";
import type { IrDocument, IrOperation, IrSubscriptionKind, IrWebSocket, JsonValue } from "../../ir/types.js";
import { identifier } from "../escape.js";
import { importLine, inline, memberPath, sampleOf, shortestOp, type Lookup, type PackageInput } from "./examples.js";

/** The WebSocket forms the client of `ir` has: those of documents with JSON-RPC methods. */
function socketsOf(ir: IrDocument): IrWebSocket[] {
  return (ir.webSockets ?? []).filter((w) => ir.operations.some((op) => op.protocol === "json-rpc" && op.file === w.file));
}

/** A subscription kind's call: `client.cChain.ws.subscribe.newHeads(…)`, its required params sampled from their schemas. */
function subscribeCall(ir: IrDocument, base: string, w: IrWebSocket, k: IrSubscriptionKind, options?: string): string {
  const lookup: Lookup = (key) => namedSchema(ir, key)?.schema;
  const params: Record<string, JsonValue> = {};
  for (const p of k.params) if (p.required) params[p.name] = sampleOf(p.schema, lookup);
  const args = [...(Object.keys(params).length > 0 ? [inline(params)] : options && k.params.length > 0 ? ["{}"] : []), ...(options ? [options] : [])];
  return `${memberPath(base, [...w.group, "ws", "subscribe", k.names!.method])}(${args.join(", ")})`;
}

/** The kind a subscribe example shows: the first without required params, else the first. */
const exampleKind = (w: IrWebSocket) => w.subscriptions?.kinds.find((k) => k.params.every((p) => !p.required)) ?? w.subscriptions?.kinds[0];

/**
 * The example of a subscribe or unsubscribe method of a WebSocket form, over
 * the socket; undefined for any other operation (it is called as usual).
 */
export function socketMethodExample(ir: IrDocument, base: string, op: IrOperation): string | undefined {
  if (op.protocol !== "json-rpc") return undefined;
  const w = socketsOf(ir).find((s) => s.file === op.file && (s.subscriptions?.subscribe === op.transport.method || s.subscriptions?.unsubscribe === op.transport.method));
  const k = w && exampleKind(w);
  if (!w || !k) return undefined;
  const ws = memberPath(base, [...w.group, "ws"]);
  if (op.transport.method === w.subscriptions!.unsubscribe) {
    return [`// sent when a subscription ends: unsubscribe(), a break out of its loop, or its signal`, `const subscription = ${subscribeCall(ir, base, w, k)};`, "await subscription.unsubscribe();"].join("\n");
  }
  return [
    `// only over the WebSocket: one method per kind on ${ws}.subscribe (see WebSocket)`,
    `for await (const event of ${subscribeCall(ir, base, w, k)}) {`,
    "  console.log(event);",
    "  break; // break, unsubscribe() or an AbortSignal end it",
    "}",
  ].join("\n");
}

/** The callback form's options, as a multi-line object literal. */
function callbacks(k: IrSubscriptionKind): string {
  return [
    "{",
    "  onData: (event) => console.log(event),",
    "  onError: (error) => console.error(error.name, error.message), // it has ended",
    ...(k.backfill ? ["  onReconnect: ({ attempts, backfilled }) => console.log(`back after ${attempts} attempts, ${backfilled} missed events delivered`),"] : []),
    "  signal: AbortSignal.timeout(60_000),",
    "}",
  ].join("\n");
}

/** What the template's WebSocket section shows; `example` "" leaves the section out. */
export interface SocketSection {
  example: string;
  /** `client.cChain.ws` */
  member: string;
  /** The subscribe and unsubscribe methods (`eth_subscribe`). */
  subscribe: string;
  unsubscribe: string;
  /** The method keep-alive sends ("": none, no keep-alive). */
  probe: string;
  endpoint: string;
  path: string;
  kinds: string[];
  /** The kinds whose gap after a reconnect is fetched, and the method that fetches it. */
  backfilled: { kind: string; method: string }[];
}

/** The section for the first client with a WebSocket form. */
export function socketSection(pkgName: string, inputs: PackageInput[]): SocketSection {
  for (const i of inputs.filter((x) => x.targets.has("client"))) {
    const w = socketsOf(i.ir)[0];
    if (!w) continue;
    const member = memberPath("client", [...w.group, "ws"]);
    const ops = i.ir.operations.filter((op) => op.protocol === "json-rpc" && op.file === w.file && op.transport.method !== w.subscriptions?.subscribe && op.transport.method !== w.subscriptions?.unsubscribe && !op.params.some((p) => p.required));
    // the method keep-alive probes with reads best (eth_chainId), else the shortest call
    const call = ops.find((op) => op.protocol === "json-rpc" && op.transport.method === w.subscriptions?.probe) ?? shortestOp(i, ops);
    const kinds = w.subscriptions?.kinds ?? [];
    const k = exampleKind(w);
    const withBackfill = kinds.find((x) => x.backfill) ?? k;
    const lines = [
      importLine([i.ir.names.factory], `${pkgName}/${i.output}`),
      "",
      `const client = ${identifier(i.ir.names.factory)}(); // the socket is at the base URL with http→ws, https→wss (webSocket.url to change)`,
      "",
      ...(call ? [`// a call over the socket, opened on first use: the same params, results and errors as over HTTP`, `const value = await ${memberPath("client", [...w.group, "ws", ...call.group.slice(w.group.length), call.names.method])}();`, "console.log(value);", ""] : []),
      ...(k
        ? [
            "// a subscription is an async iterator; it lasts across reconnects",
            `for await (const event of ${subscribeCall(i.ir, "client", w, k)}) {`,
            "  console.log(event);",
            "  break; // break, unsubscribe() or an AbortSignal end it",
            "}",
            "",
            "// or callbacks",
            `const subscription = ${subscribeCall(i.ir, "client", w, withBackfill!, callbacks(withBackfill!))};`,
            "await subscription.unsubscribe();",
            "",
          ]
        : []),
      `await ${member}.close(); // ends every subscription; the next call opens a new socket`,
    ];
    return {
      example: lines.join("\n"),
      member,
      subscribe: w.subscriptions?.subscribe ?? "",
      unsubscribe: w.subscriptions?.unsubscribe ?? "",
      // what the client's factory passes (the first socket's that the module has)
      probe: socketsOf(i.ir).map((x) => x.subscriptions?.probe).find((m) => m !== undefined && i.ir.operations.some((op) => op.protocol === "json-rpc" && op.transport.method === m)) ?? "",
      endpoint: w.endpoint || "/",
      path: w.path,
      kinds: kinds.map((x) => x.kind),
      backfilled: kinds.flatMap((x) => (x.backfill ? [{ kind: x.kind, method: x.backfill.method }] : [])),
    };
  }
  return { example: "", member: "", subscribe: "", unsubscribe: "", probe: "", endpoint: "", path: "", kinds: [], backfilled: [] };
}
