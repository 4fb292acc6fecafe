/**
 * A real WebSocket JSON-RPC server for the C-Chain's `/ext/bc/C/ws`, built on
 * `ws`'s WebSocketServer over node:http on 127.0.0.1 (port 0), simulating an
 * EVM chain deterministically from a seed: every hash, id and fault point is
 * derived from the seed, so a failing run replays exactly.
 *
 * The chain: blocks numbered from `startBlock` (default 1), each with one
 * transaction and `logsPerBlock` (default 2, or a count by block) logs; hash = sha256(seed, number,
 * fork generation), parentHash = the previous block's hash. `reorg(depth)`
 * moves the last `depth` blocks to a new generation (new hashes, same
 * numbers, re-chained parentHash).
 *
 * JSON-RPC (single and batch, ids echoed): eth_chainId, eth_blockNumber,
 * eth_getBlockByNumber, eth_getBlockByHash, eth_getLogs, eth_syncing,
 * eth_subscribe (newHeads, logs, newPendingTransactions,
 * newAcceptedTransactions, syncing), eth_unsubscribe; anything else -32601.
 * Notifications are framed as go-ethereum frames them:
 * {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":id,"result":payload}}.
 *
 * Faults: killAll (ws.terminate() on every socket), kill points (after the
 * n-th notification, scripted or from the seeded RNG), halfOpen (existing
 * sockets stop reading — no replies, no pongs, no close handshake — and
 * their outgoing notifications are dropped, without closing them), reorg
 * (silent by default, as while a client is disconnected) and downFor
 * (upgrades refused with 503 for a while).
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";

export type Hex = `0x${string}`;

export interface ChainHeader {
  number: Hex;
  hash: Hex;
  parentHash: Hex;
  timestamp: Hex;
  miner: Hex;
  stateRoot: Hex;
  transactionsRoot: Hex;
  receiptsRoot: Hex;
  logsBloom: Hex;
  difficulty: Hex;
  gasLimit: Hex;
  gasUsed: Hex;
  extraData: Hex;
  baseFeePerGas: Hex;
  mixHash: Hex;
  nonce: Hex;
  sha3Uncles: Hex;
  extDataHash: Hex;
  extDataGasUsed: Hex;
  blockGasCost: Hex;
}

export interface ChainBlock extends ChainHeader {
  size: Hex;
  transactions: Hex[];
  uncles: Hex[];
  blockExtraData: Hex;
}

export interface ChainLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed: boolean;
}

export interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
  address?: string | string[] | null;
  topics?: (string | string[] | null)[] | null;
}

export type SubscriptionKind = "newHeads" | "logs" | "newPendingTransactions" | "newAcceptedTransactions" | "syncing";

export interface ChainServerOptions {
  /** Seed of every hash, id and random fault point (default 1). */
  seed?: number | string;
  /** Number of the first block (default 1). */
  startBlock?: number;
  /** Blocks present before the first produce() (default 10, at least 1). */
  initialBlocks?: number;
  /** Logs per block, all in the block's one transaction (default 2); a function gives the count by block number and fork generation (0, then +1 per reorg). */
  logsPerBlock?: number | ((number: number, generation: number) => number);
  /** Path in `url` (default "/ext/bc/C/ws"); the server accepts upgrades on any path. */
  path?: string;
  /** eth_getLogs ranges longer than this many blocks answer -32005 "query exceeds max block range" (default: no limit). */
  maxLogsRange?: number;
  faults?: {
    /** Terminate every socket after every k-th notification sent (counted over all sockets). */
    killEvery?: number;
    /** Terminate every socket after a notification with this probability (seeded RNG). */
    killProbability?: number;
    /** Terminate every socket right after these notification counts (1-based, cumulative). */
    killAt?: number[];
  };
  /** Called just before a notification is written to a socket (for latency measurements). */
  onNotify?: (kind: SubscriptionKind, result: unknown) => void;
}

export interface ChainServer {
  /** ws://127.0.0.1:<port><path> */
  readonly url: string;
  readonly port: number;
  /** Open sockets. */
  readonly connections: number;
  /** Live subscriptions over all open sockets. */
  readonly subscriptions: number;
  /** Method names of every request received, in order (batch members one by one). */
  readonly requests: string[];
  /** Notifications written so far (over all sockets; those dropped by halfOpen are not counted). */
  readonly notifications: number;
  /** Upgrades accepted so far. */
  readonly accepted: number;
  /** Upgrades refused with 503 by downFor(). */
  readonly refused: number;
  /** Current head number. */
  readonly head: number;
  /** Number of the first block. */
  readonly first: number;
  /** The canonical block (header fields + body), or undefined outside the chain. */
  block(number: number): ChainBlock | undefined;
  /** The canonical header, as newHeads sends it. */
  header(number: number): ChainHeader | undefined;
  /** Canonical logs of blocks from..to (inclusive) that match the filter. */
  logs(from: number, to: number, filter?: Pick<LogFilter, "address" | "topics">): ChainLog[];
  /** Appends n blocks and notifies subscribers; returns the new headers. */
  produce(n?: number): ChainHeader[];
  /**
   * Builds (and serialises) the next n blocks ahead of time, so that a later
   * produce() only sends: for benchmarks, where the server runs in the
   * measured process. The blocks are the ones produce() would have made; a reorg drops them.
   */
  prepare(n: number): void;
  /**
   * Produces `ratePerSecond` blocks per second on a timer (catching up on
   * timer lag, so the average rate holds) until stop() or, with `count`,
   * until that many were produced. Resolves when it stops.
   */
  start(ratePerSecond: number, options?: { count?: number; tickMs?: number }): Promise<void>;
  stop(): void;
  /** Terminates every open socket abruptly (ws.terminate()); returns how many. */
  killAll(): number;
  /** Adds kill points: terminate every socket right after the n-th notification (cumulative, 1-based). */
  killAt(points: number[]): void;
  /**
   * true: the sockets open now stop reading (no replies, no pongs, no close
   * handshake) and drop their notifications, but stay open; new sockets work.
   * false: they resume reading (what the client sent meanwhile is then answered).
   */
  halfOpen(on: boolean): void;
  /**
   * Replaces the last `depth` blocks with new ones (new hashes, same numbers,
   * chained parentHash). Silent by default; with notify, subscribers get the
   * new heads, and logs subscribers the old logs with removed: true then the new ones.
   */
  reorg(depth: number, options?: { notify?: boolean }): void;
  /** Refuses new upgrades with HTTP 503 for ms milliseconds; existing sockets stay. */
  downFor(ms: number): void;
  /** Closes every socket and the server; resolves when the port is released. */
  close(): Promise<void>;
}

export const CHAIN_ID: Hex = "0xa86a";
export const LOG_ADDRESS: Hex = "0x00000000000000000000000000000000000a11ce";
export const LOG_TOPIC: Hex = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const MINER: Hex = "0x0100000000000000000000000000000000000000";
const ZERO32: Hex = `0x${"0".repeat(64)}`;
const EMPTY_UNCLES: Hex = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
const BLOOM: Hex = `0x${"0".repeat(512)}`;
const GENESIS_TIME = 1_700_000_000;

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number | string): () => number {
  let a = typeof seed === "number" ? seed >>> 0 : parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct sorted kill points in 1..max from the seed (for killAt / faults.killAt). */
export function randomPoints(seed: number | string, count: number, max: number): number[] {
  const rnd = seededRandom(seed);
  const set = new Set<number>();
  while (set.size < Math.min(count, max)) set.add(1 + Math.floor(rnd() * max));
  return [...set].sort((a, b) => a - b);
}

const hex = (n: number | bigint): Hex => `0x${n.toString(16)}`;

interface Stored {
  number: number;
  gen: number;
  header: ChainHeader;
  tx: Hex;
  logs: ChainLog[];
  /** JSON of the header, made on first send and reused for every subscriber. */
  json?: string;
}

interface Sub {
  id: Hex;
  kind: SubscriptionKind;
  filter?: LogFilter;
}

interface Conn {
  ws: WebSocket;
  subs: Map<string, Sub>;
  silent: boolean;
  dead: boolean;
}

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const matchAddress = (log: ChainLog, address: LogFilter["address"]): boolean => {
  if (address === undefined || address === null) return true;
  const list = Array.isArray(address) ? address : [address];
  if (list.length === 0) return true;
  return list.some((a) => a.toLowerCase() === log.address);
};

const matchTopics = (log: ChainLog, topics: LogFilter["topics"]): boolean => {
  if (!topics) return true;
  if (topics.length > log.topics.length) return false;
  return topics.every((cond, i) => {
    if (cond === null || cond === undefined) return true;
    const list = Array.isArray(cond) ? cond : [cond];
    return list.length === 0 || list.some((t) => t.toLowerCase() === log.topics[i]);
  });
};

export async function startChainServer(options: ChainServerOptions = {}): Promise<ChainServer> {
  const seed = String(options.seed ?? 1);
  const first = options.startBlock ?? 1;
  const logsPerBlock = options.logsPerBlock ?? 2;
  const logCount = (number: number, gen: number): number => (typeof logsPerBlock === "function" ? logsPerBlock(number, gen) : logsPerBlock);
  const path = options.path ?? "/ext/bc/C/ws";
  const rnd = seededRandom(`${seed}:faults`);
  const killPoints = new Set(options.faults?.killAt ?? []);
  const sha = (...parts: (string | number)[]): string => createHash("sha256").update(parts.join(":")).digest("hex");

  const chain: Stored[] = [];
  let generation = 0;
  let subCounter = 0;
  let notifications = 0;
  let accepted = 0;
  let refused = 0;
  let downUntil = 0;
  const requests: string[] = [];
  const conns = new Set<Conn>();

  const makeBlock = (number: number, gen: number, parentHash: Hex): Stored => {
    const hash: Hex = `0x${sha(seed, "block", number, gen)}`;
    const tx: Hex = `0x${sha(seed, "tx", number, gen)}`;
    const logs: ChainLog[] = [];
    const count = logCount(number, gen);
    for (let i = 0; i < count; i++) {
      logs.push({
        address: LOG_ADDRESS,
        topics: [LOG_TOPIC],
        data: "0x",
        blockNumber: hex(number),
        blockHash: hash,
        transactionHash: tx,
        transactionIndex: "0x0",
        logIndex: hex(i),
        removed: false,
      });
    }
    const header: ChainHeader = {
      number: hex(number),
      hash,
      parentHash,
      timestamp: hex(GENESIS_TIME + 2 * number),
      miner: MINER,
      stateRoot: `0x${sha(seed, "state", number, gen)}`,
      transactionsRoot: `0x${sha(seed, "txroot", number, gen)}`,
      receiptsRoot: `0x${sha(seed, "receipts", number, gen)}`,
      logsBloom: BLOOM,
      difficulty: "0x1",
      gasLimit: hex(15_000_000),
      gasUsed: hex(21_000 + 2_000 * count),
      extraData: "0x",
      baseFeePerGas: hex(25_000_000_000),
      mixHash: ZERO32,
      nonce: "0x0000000000000000",
      sha3Uncles: EMPTY_UNCLES,
      extDataHash: ZERO32,
      extDataGasUsed: "0x0",
      blockGasCost: "0x0",
    };
    return { number, gen, header, tx, logs };
  };

  const genesisParent: Hex = `0x${sha(seed, "parent-of-first", first)}`;
  let future: Stored[] = [];
  let futureAt = 0; // next unused entry of `future` (Array#shift is O(n) on a long array)
  const next = (after: Stored | undefined): Stored => makeBlock(after ? after.number + 1 : first, generation, after ? after.header.hash : genesisParent);
  const append = (): Stored => {
    let b = future[futureAt];
    if (b) futureAt++;
    else {
      if (future.length) (future = []), (futureAt = 0);
      b = next(chain[chain.length - 1]);
    }
    chain.push(b);
    return b;
  };
  for (let i = 0; i < Math.max(1, options.initialBlocks ?? 10); i++) append();

  const headNumber = (): number => chain[chain.length - 1]!.number;
  const stored = (n: number): Stored | undefined => (n >= first && n <= headNumber() ? chain[n - first] : undefined);
  const toBlock = (s: Stored): ChainBlock => ({
    ...s.header,
    size: hex(600 + 200 * s.logs.length),
    transactions: [s.tx],
    uncles: [],
    blockExtraData: "0x",
  });
  const logsOf = (from: number, to: number, filter?: Pick<LogFilter, "address" | "topics">): ChainLog[] => {
    const out: ChainLog[] = [];
    for (let n = Math.max(from, first); n <= Math.min(to, headNumber()); n++) {
      for (const log of chain[n - first]!.logs) {
        if (matchAddress(log, filter?.address) && matchTopics(log, filter?.topics)) out.push({ ...log, topics: [...log.topics] });
      }
    }
    return out;
  };

  // ------------------------------------------------------------------ sending
  type RawSocket = { cork?(): void; uncork?(): void; writableCorked?: number };
  const rawSocket = (c: Conn): RawSocket | undefined => (c.ws as unknown as { _socket?: RawSocket })._socket;
  const killSockets = (): number => {
    let n = 0;
    for (const c of conns) {
      c.dead = true;
      // what was sent before the kill reaches the client (produce() corks): flush, then terminate
      const raw = rawSocket(c);
      while (raw?.uncork && (raw.writableCorked ?? 0) > 0) raw.uncork();
      c.ws.terminate();
      n++;
    }
    conns.clear();
    return n;
  };

  /** `json`: the result already serialised (a header, shared by every newHeads subscriber). */
  const notify = (c: Conn, sub: Sub, result: unknown, json?: string): void => {
    if (c.dead || c.silent) return;
    notifications++;
    options.onNotify?.(sub.kind, result);
    c.ws.send(json !== undefined ? `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${sub.id}","result":${json}}}` : JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: sub.id, result } }));
    const f = options.faults;
    if (killPoints.has(notifications) || (f?.killEvery && notifications % f.killEvery === 0) || (f?.killProbability && rnd() < f.killProbability)) {
      killSockets();
    }
  };

  const publish = (b: Stored, removedLogs?: ChainLog[]): void => {
    for (const c of [...conns]) {
      for (const sub of [...c.subs.values()]) {
        if (c.dead) break;
        switch (sub.kind) {
          case "newHeads":
            notify(c, sub, b.header, (b.json ??= JSON.stringify(b.header)));
            break;
          case "logs":
            for (const log of removedLogs ?? []) {
              if (matchAddress(log, sub.filter?.address) && matchTopics(log, sub.filter?.topics)) notify(c, sub, { ...log, removed: true });
            }
            for (const log of b.logs) {
              if (matchAddress(log, sub.filter?.address) && matchTopics(log, sub.filter?.topics)) notify(c, sub, log);
            }
            break;
          case "newPendingTransactions":
          case "newAcceptedTransactions":
            notify(c, sub, b.tx);
            break;
          case "syncing":
            break;
        }
      }
    }
  };

  // --------------------------------------------------------------- JSON-RPC
  const blockParam = (v: unknown, name: string): number => {
    if (v === undefined || v === "latest" || v === "pending" || v === "safe" || v === "finalized" || v === "accepted") return headNumber();
    if (v === "earliest") return first;
    if (typeof v === "string" && /^0x[0-9a-f]+$/i.test(v)) return parseInt(v, 16);
    throw new RpcError(-32602, `invalid argument: ${name} ${JSON.stringify(v)}`);
  };

  const call = (c: Conn, method: string, params: unknown[]): unknown => {
    switch (method) {
      case "eth_chainId":
        return CHAIN_ID;
      case "eth_blockNumber":
        return hex(headNumber());
      case "eth_syncing":
        return false;
      case "eth_getBlockByNumber": {
        const s = stored(blockParam(params[0], "block number"));
        return s ? toBlock(s) : null;
      }
      case "eth_getBlockByHash": {
        const h = String(params[0]).toLowerCase();
        const s = chain.find((b) => b.header.hash === h);
        return s ? toBlock(s) : null;
      }
      case "eth_getLogs": {
        const filter = (params[0] ?? {}) as LogFilter;
        if (typeof filter !== "object" || filter === null) throw new RpcError(-32602, "invalid argument 0: filter");
        if (filter.blockHash !== undefined) {
          if (filter.fromBlock !== undefined || filter.toBlock !== undefined) throw new RpcError(-32602, "invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other");
          const s = chain.find((b) => b.header.hash === String(filter.blockHash).toLowerCase());
          if (!s) throw new RpcError(-32000, "unknown block");
          return logsOf(s.number, s.number, filter);
        }
        const from = blockParam(filter.fromBlock, "fromBlock");
        const to = blockParam(filter.toBlock, "toBlock");
        if (from > to) throw new RpcError(-32602, "invalid block range");
        if (options.maxLogsRange !== undefined && to - from + 1 > options.maxLogsRange) throw new RpcError(-32005, `query exceeds max block range ${options.maxLogsRange}`);
        return logsOf(from, to, filter);
      }
      case "eth_subscribe": {
        const kind = params[0];
        if (kind !== "newHeads" && kind !== "logs" && kind !== "newPendingTransactions" && kind !== "newAcceptedTransactions" && kind !== "syncing") {
          throw new RpcError(-32601, `no "${String(kind)}" subscription in eth namespace`);
        }
        let id = sha(seed, "subscription", ++subCounter).slice(0, 32);
        if (id[0] === "0") id = `1${id.slice(1)}`;
        const sub: Sub = { id: `0x${id}`, kind };
        if (kind === "logs") sub.filter = (params[1] ?? {}) as LogFilter;
        c.subs.set(sub.id, sub);
        return sub.id;
      }
      case "eth_unsubscribe":
        return c.subs.delete(String(params[0]));
      default:
        throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
    }
  };

  const answer = (c: Conn, req: RpcRequest): unknown => {
    const id = req.id ?? null;
    if (typeof req !== "object" || req === null || typeof req.method !== "string") {
      return { jsonrpc: "2.0", id, error: { code: -32600, message: "invalid request" } };
    }
    requests.push(req.method);
    try {
      const params = Array.isArray(req.params) ? req.params : req.params === undefined ? [] : [req.params];
      return { jsonrpc: "2.0", id, result: call(c, req.method, params) };
    } catch (e) {
      if (e instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: e.code, message: e.message } };
      return { jsonrpc: "2.0", id, error: { code: -32603, message: String(e) } };
    }
  };

  const onMessage = (c: Conn, text: string): void => {
    if (c.silent || c.dead) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      c.ws.send(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
      return;
    }
    let out: unknown;
    if (Array.isArray(body)) {
      out = body.length === 0 ? { jsonrpc: "2.0", id: null, error: { code: -32600, message: "empty batch" } } : body.map((r) => answer(c, r as RpcRequest));
    } else out = answer(c, body as RpcRequest);
    c.ws.send(JSON.stringify(out));
  };

  // ------------------------------------------------------------------ server
  const http = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain", upgrade: "websocket" });
    res.end("websocket only\n");
  });
  // autoPong: false (ws ≥ 8.16): pongs are sent by hand below, so a half-open socket can withhold them.
  const wss = new WebSocketServer({ noServer: true, autoPong: false, perMessageDeflate: false });
  http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (Date.now() < downUntil) {
      refused++;
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted++;
      const c: Conn = { ws, subs: new Map(), silent: false, dead: false };
      conns.add(c);
      ws.on("message", (data, isBinary) => {
        if (!isBinary) onMessage(c, data.toString());
      });
      ws.on("ping", (data) => {
        if (!c.silent && !c.dead) ws.pong(data);
      });
      ws.on("error", () => {});
      ws.on("close", () => {
        c.dead = true;
        conns.delete(c);
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  let timer: ReturnType<typeof setInterval> | undefined;
  let finishRun: (() => void) | undefined;

  const server: ChainServer = {
    url: `ws://127.0.0.1:${port}${path}`,
    port,
    get connections() {
      return conns.size;
    },
    get subscriptions() {
      let n = 0;
      for (const c of conns) n += c.subs.size;
      return n;
    },
    requests,
    get notifications() {
      return notifications;
    },
    get accepted() {
      return accepted;
    },
    get refused() {
      return refused;
    },
    get head() {
      return headNumber();
    },
    first,
    block: (n) => {
      const s = stored(n);
      return s && toBlock(s);
    },
    header: (n) => stored(n)?.header,
    logs: logsOf,
    prepare(n) {
      for (let i = 0; i < n; i++) {
        const b = next(future.length > futureAt ? future[future.length - 1] : chain[chain.length - 1]);
        b.json = JSON.stringify(b.header);
        future.push(b);
      }
    },
    produce(n = 1) {
      const out: ChainHeader[] = [];
      // one write per produce() and socket rather than one per notification: the frames are corked (ws has
      // no public cork; its socket is `_socket`), as a busy node's writes coalesce in TCP anyway
      const corked = n > 1 ? [...conns].map(rawSocket) : [];
      for (const sock of corked) sock?.cork?.();
      try {
        for (let i = 0; i < n; i++) {
          const b = append();
          out.push(b.header);
          publish(b);
        }
      } finally {
        for (const sock of corked) sock?.uncork?.();
      }
      return out;
    },
    start(ratePerSecond, opts = {}) {
      server.stop();
      const t0 = performance.now();
      let produced = 0;
      return new Promise<void>((resolve) => {
        finishRun = resolve;
        timer = setInterval(() => {
          let due = Math.floor(((performance.now() - t0) / 1000) * ratePerSecond);
          if (opts.count !== undefined) due = Math.min(due, opts.count);
          if (due > produced) {
            server.produce(due - produced);
            produced = due;
          }
          if (opts.count !== undefined && produced >= opts.count) server.stop();
        }, opts.tickMs ?? Math.max(1, Math.min(50, Math.floor(1000 / ratePerSecond))));
      });
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      const f = finishRun;
      finishRun = undefined;
      f?.();
    },
    killAll: killSockets,
    killAt(points) {
      for (const p of points) killPoints.add(p);
    },
    halfOpen(on) {
      for (const c of conns) {
        if (on && !c.silent) {
          c.silent = true;
          c.ws.pause();
        } else if (!on && c.silent) {
          c.silent = false;
          c.ws.resume();
        }
      }
    },
    reorg(depth, opts = {}) {
      const d = Math.min(depth, chain.length - 1);
      if (d <= 0) return;
      generation++;
      future = [];
      futureAt = 0;
      const old = chain.splice(chain.length - d, d);
      const replaced: Stored[] = [];
      for (const o of old) {
        const prev = chain[chain.length - 1]!;
        const b = makeBlock(o.number, generation, prev.header.hash);
        chain.push(b);
        replaced.push(b);
      }
      if (opts.notify) {
        const removed = old.flatMap((o) => o.logs).reverse();
        replaced.forEach((b, i) => publish(b, i === 0 ? removed : []));
      }
    },
    downFor(ms) {
      downUntil = Date.now() + ms;
    },
    async close() {
      server.stop();
      killSockets();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) => http.close((err) => (err ? reject(err) : resolve())));
    },
  };
  return server;
}
