/**
 * A WebSocket JSON-RPC node the test scripts by hand (on `ws`, 127.0.0.1,
 * port 0). It accepts a subscription of any kind; answers `eth_chainId`,
 * `eth_blockNumber` (`head`), `eth_getBlockByNumber` (the block of
 * `scriptedHeader(n)` for any number, of `head` for a tag) and `eth_getLogs`
 * (none); and sends exactly the notifications the test asks for, malformed
 * ones included, so the transport's handling of what a node sends can be
 * checked one message at a time. `answerUnsubscribe: false` makes it a node
 * that never answers `eth_unsubscribe`; `holdSubscribe` one that answers
 * `eth_subscribe` only when told (`releaseSubscribe()`).
 */
import { WebSocketServer, type WebSocket } from "ws";

export interface ScriptedNode {
  /** The `http://127.0.0.1:<port>` base URL (the client maps it to ws://). */
  readonly url: string;
  /** Live subscriptions by kind (one per kind: the last made). */
  readonly ids: ReadonlyMap<string, string>;
  /** Method names received, in order. */
  readonly requests: string[];
  /** Sockets closed so far (by either side). */
  readonly closed: number;
  /** Open sockets. */
  readonly connections: number;
  /** Sends `result` to the subscription of `kind`. */
  notify(kind: string, result: unknown): void;
  /** Sends a notification to the subscription of `kind` whose `params` are exactly `params` minus `subscription` (e.g. no `result`). */
  notifyRaw(kind: string, params: Record<string, unknown>): void;
  /** With `holdSubscribe`: answers the eth_subscribe calls held so far. */
  releaseSubscribe(): void;
  close(): Promise<void>;
}

export async function startScriptedNode(options: { answerUnsubscribe?: boolean; head?: string; holdSubscribe?: boolean } = {}): Promise<ScriptedNode> {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
  await new Promise<void>((r) => wss.once("listening", () => r()));
  const head = options.head ?? "0x10";
  const ids = new Map<string, string>();
  const owner = new Map<string, WebSocket>();
  const requests: string[] = [];
  let closed = 0;
  let counter = 0;
  const heldReplies: (() => void)[] = [];
  wss.on("connection", (socket) => {
    socket.on("close", () => closed++);
    socket.on("message", (data) => {
      const req = JSON.parse(String(data)) as { id: number; method: string; params?: unknown[] };
      requests.push(req.method);
      const reply = (result: unknown) => socket.send(JSON.stringify({ jsonrpc: "2.0", id: req.id, result }));
      switch (req.method) {
        case "eth_subscribe": {
          const id = `0x${(++counter).toString(16).padStart(4, "0")}`;
          ids.set(String(req.params?.[0]), id);
          owner.set(id, socket);
          if (options.holdSubscribe) return void heldReplies.push(() => reply(id));
          return reply(id);
        }
        case "eth_unsubscribe":
          if (options.answerUnsubscribe !== false) reply(true);
          return;
        case "eth_chainId":
          return reply("0xa86a");
        case "eth_blockNumber":
          return reply(head);
        case "eth_getBlockByNumber": {
          const at = req.params?.[0];
          return reply({ ...scriptedHeader(Number(typeof at === "string" && at.startsWith("0x") ? at : head)), size: "0x220", transactions: [], uncles: [] });
        }
        case "eth_getLogs":
          return reply([]);
        default:
          return socket.send(JSON.stringify({ jsonrpc: "2.0", id: req.id, error: { code: -32601, message: `the method ${req.method} does not exist` } }));
      }
    });
  });
  const { port } = wss.address() as { port: number };
  const send = (kind: string, params: Record<string, unknown>) => {
    const id = ids.get(kind);
    if (id === undefined) throw new Error(`no ${kind} subscription`);
    owner.get(id)!.send(JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: id, ...params } }));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    ids,
    requests,
    get closed() {
      return closed;
    },
    get connections() {
      return wss.clients.size;
    },
    notify: (kind, result) => send(kind, { result }),
    notifyRaw: send,
    releaseSubscribe: () => {
      for (const r of heldReplies.splice(0)) r();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}

const word = (tag: number, n: number) => `0x${tag.toString(16).padStart(2, "0")}${n.toString(16).padStart(62, "0")}`;

/** A valid BlockHeader of height `n` (hash derived from `n`, parentHash the hash of `n - 1`). */
export function scriptedHeader(n: number): Record<string, string> {
  return {
    hash: word(0xb0, n),
    parentHash: word(0xb0, n - 1),
    sha3Uncles: "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347",
    miner: "0x0100000000000000000000000000000000000000",
    stateRoot: word(0x51, n),
    transactionsRoot: word(0x52, n),
    receiptsRoot: word(0x53, n),
    logsBloom: `0x${"0".repeat(512)}`,
    number: `0x${n.toString(16)}`,
    gasLimit: "0xe4e1c0",
    gasUsed: "0x5208",
    timestamp: `0x${(1_700_000_000 + n).toString(16)}`,
    extraData: "0x",
    mixHash: `0x${"0".repeat(64)}`,
    nonce: "0x0000000000000000",
  };
}

/** A valid Log of block `n` (of `scriptedHeader(n)`), at `index`. */
export function scriptedLog(n: number, index = 0): Record<string, unknown> {
  return {
    address: "0x00000000000000000000000000000000000a11ce",
    topics: ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"],
    data: "0x",
    blockNumber: `0x${n.toString(16)}`,
    blockHash: word(0xb0, n),
    transactionHash: word(0x70, n),
    transactionIndex: "0x0",
    logIndex: `0x${index.toString(16)}`,
    removed: false,
  };
}
