/**
 * A synthetic chain behind the mocks' JSON-RPC reads and `eth_subscribe`:
 * the default `MockSubscriptions` of a mock service.
 *
 * One chain, derived from the clock: its height is `heightAtEpoch` plus one
 * block per `intervalMs` since `epochMs`, and every block is a pure function
 * of its height (hashes derived from the number, `parentHash` the previous
 * block's `hash`). So a mock that restarts continues the same chain, blocks
 * keep coming while nobody is subscribed (a client that was away finds them
 * when it reconnects), and the HTTP answers of `eth_blockNumber`,
 * `eth_getBlockByNumber`, `eth_getBlockByHash` and `eth_getLogs` are the same
 * chain as the WebSocket's (the mock service asks `answer` for both).
 *
 * While an endpoint has subscriptions, a timer every `intervalMs` tells each
 * of them the blocks made since it last heard (no subscription, no timer):
 *
 *  - `newHeads`: the block's header (a C-Chain BlockHeader);
 *  - `logs`: the block's one Log (its address and first topic from the
 *    subscription's filter when it names them);
 *  - `newPendingTransactions`, `newAcceptedTransactions`: the block's one
 *    transaction, as its hash (or the object, with `fullTransactions`).
 *
 * `next(endpoint, kind)` mints a block at once, ahead of the clock, for a
 * test's `push(kind)`. No Node API: it runs under MSW in a browser too. The
 * mock service does not import it: a table with WebSocket paths hands it
 * over (`chain: syntheticChain`), so a package without any ships none of it.
 * It imports nothing; a `SyntheticChain` is a `MockSubscriptions` (types.ts)
 * by its shape.
 */

export interface SyntheticChainOptions {
  /** Milliseconds between blocks (default 1000). */
  intervalMs?: number;
  /** The height at `epochMs` (default 77,841,121, the C-Chain document's example of `eth_blockNumber`). */
  heightAtEpoch?: number;
  /** When the chain was at `heightAtEpoch`, in Unix milliseconds (default 2026-01-01T00:00:00Z). */
  epochMs?: number;
  /** The clock, in Unix milliseconds (default `Date.now`); tests move their own. */
  now?: () => number;
}

/** The subscription kinds the synthetic chain serves. */
export const SYNTHETIC_KINDS = ["newHeads", "logs", "newPendingTransactions", "newAcceptedTransactions"] as const;

/** The longest `eth_getLogs` range the chain answers, as a node limits it. */
export const MAX_LOG_RANGE = 2048;

/** A JSON-RPC answer of the chain: a result, or an error object. */
export type ChainAnswer = { result: unknown } | { error: { code: number; message: string } };

export interface SyntheticChain {
  /** `MockSubscriptions.subscribe`: starts a subscription of `kind` on `endpoint`'s chain; undefined for a kind it does not serve. */
  subscribe(endpoint: string, kind: string, params: readonly unknown[], emit: (payload: unknown) => void): (() => void) | undefined;
  /** The next payload of `kind` on `endpoint`, from a block minted now, ahead of the clock; undefined for an unknown kind. */
  next(endpoint: string, kind: string): unknown;
  /** Subscriptions running, on every endpoint. */
  readonly active: number;
  /** The height of `endpoint`'s latest block, now. */
  head(endpoint: string): number;
  /** The header of block `n` (the same for the same `n`). */
  header(n: number): Record<string, string>;
  /** `MockSubscriptions.answer`: eth_blockNumber, eth_getBlockByNumber, eth_getBlockByHash and eth_getLogs from this chain. */
  answer(endpoint: string, method: string, params: unknown): ChainAnswer | undefined;
}

const hex = (n: number) => "0x" + n.toString(16);
/** Hex digits as a JSON-RPC quantity (no leading zeros). */
const quantity = (digits: string) => "0x" + (digits.slice(2).replace(/^0+/, "") || "0");

/** 32 bytes as 64 hex digits, a pure function of `salt` and `n` (xorshift-mixed words; not a real hash). */
function word(salt: string, n: number, digits = 64): string {
  let h = 2166136261 ^ n;
  for (let i = 0; i < salt.length; i++) h = Math.imul(h ^ salt.charCodeAt(i), 16777619);
  let out = "";
  let x = (h ^ (n * 0x9e3779b1)) >>> 0 || 1;
  while (out.length < digits) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out += x.toString(16).padStart(8, "0");
  }
  return "0x" + out.slice(0, digits);
}

/** Block `n`'s hash: mixed words, ending in the number itself (so a hash finds its block). */
const blockHash = (n: number) => word("block", n).slice(0, 50) + n.toString(16).padStart(16, "0");
/** The height a hash of this chain names, if it is one. */
function heightOf(hash: unknown): number | undefined {
  if (typeof hash !== "string" || !/^0x[0-9a-f]{64}$/.test(hash)) return undefined;
  const n = parseInt(hash.slice(50), 16);
  return blockHash(n) === hash ? n : undefined;
}

const ZERO32 = "0x" + "0".repeat(64);
/** Keccak-256 of the empty uncle list (RLP 0xc0), as every C-Chain header has it. */
const EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
/** Transfer(address,address,uint256) */
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** A subscription hears at most this many blocks per tick (a clock that jumped is caught up over several). */
const PER_TICK = 256;

interface Sub {
  kind: string;
  params: readonly unknown[];
  emit: (payload: unknown) => void;
  /** The last block it was told. */
  last: number;
}

interface Chain {
  /** Blocks minted ahead of the clock by `next()`. */
  pushed: number;
  subs: Set<Sub>;
  timer: ReturnType<typeof setInterval> | undefined;
}

/** Block `n`'s header (a C-Chain BlockHeader), made at `time` (Unix seconds). */
function headerOf(n: number, time: number): Record<string, string> {
  return {
    hash: blockHash(n),
    parentHash: n === 0 ? ZERO32 : blockHash(n - 1),
    sha3Uncles: EMPTY_UNCLES,
    miner: "0x0100000000000000000000000000000000000000",
    stateRoot: word("state", n),
    transactionsRoot: word("transactions", n),
    receiptsRoot: word("receipts", n),
    logsBloom: "0x" + "0".repeat(512),
    difficulty: "0x1",
    number: hex(n),
    gasLimit: hex(15_000_000),
    gasUsed: hex(21_000 + (n % 7) * 30_000),
    timestamp: hex(time),
    extraData: "0x",
    mixHash: ZERO32,
    nonce: "0x0000000000000000",
    baseFeePerGas: hex(25_000_000_000),
    blobGasUsed: "0x0",
    excessBlobGas: "0x0",
    parentBeaconBlockRoot: ZERO32,
    extDataHash: word("extdata", n),
    extDataGasUsed: "0x0",
    blockGasCost: "0x0",
  };
}

const txHash = (n: number) => word("tx", n);

/** Block `n`'s one transaction (an EIP-1559 transfer), in the block or, `pending`, still in the pool. */
function transactionOf(n: number, pending = false): Record<string, unknown> {
  return {
    type: "0x2",
    chainId: "0xa86a",
    nonce: hex(n % 65_536),
    to: "0x" + word("to", n, 40).slice(2),
    gas: hex(21_000),
    value: hex(1_000_000_000 + (n % 1000)),
    input: "0x",
    maxPriorityFeePerGas: hex(1_000_000_000),
    maxFeePerGas: hex(50_000_000_000),
    accessList: [],
    v: "0x0",
    r: quantity(word("r", n)),
    s: quantity(word("s", n)),
    yParity: "0x0",
    hash: txHash(n),
    blockHash: pending ? null : blockHash(n),
    blockNumber: pending ? null : hex(n),
    transactionIndex: pending ? null : "0x0",
    from: "0x" + word("from", n, 40).slice(2),
  };
}

/** Block `n`'s one log, made at `time`, for a filter (its address and first topic, when it names them). */
function logOf(n: number, time: number, filter: unknown): Record<string, unknown> {
  const f = (typeof filter === "object" && filter !== null ? filter : {}) as { address?: unknown; topics?: unknown };
  const address = Array.isArray(f.address) ? f.address[0] : f.address;
  const topic0 = Array.isArray(f.topics) ? (Array.isArray(f.topics[0]) ? f.topics[0][0] : f.topics[0]) : undefined;
  return {
    address: typeof address === "string" ? address : word("contract", 0, 40),
    topics: [typeof topic0 === "string" ? topic0 : TRANSFER, "0x" + "0".repeat(24) + word("from", n, 40).slice(2), "0x" + "0".repeat(24) + word("to", n, 40).slice(2)],
    data: word("amount", n),
    blockNumber: hex(n),
    blockHash: blockHash(n),
    blockTimestamp: hex(time),
    transactionHash: txHash(n),
    transactionIndex: "0x0",
    logIndex: "0x0",
    removed: false,
  };
}

/** Block `n` as eth_getBlockByNumber answers it: its transaction as a hash, or `hydrated`, the object. */
const blockOf = (header: Record<string, string>, n: number, hydrated: unknown) => ({ ...header, size: "0x220", transactions: [hydrated === true ? transactionOf(n) : txHash(n)], uncles: [] });

/** A JSON-RPC read of a chain whose head is `head`: eth_blockNumber, eth_getBlockByNumber, eth_getBlockByHash, eth_getLogs (undefined for other methods). */
function read(head: number, method: string, params: unknown, header: (n: number) => Record<string, string>, log: (n: number, filter: unknown) => Record<string, unknown>): ChainAnswer | undefined {
  const list = Array.isArray(params) ? params : [];
  const height = (tag: unknown): number | undefined => {
    if (tag === "latest" || tag === "pending" || tag === "safe" || tag === "finalized" || tag === "accepted" || tag === undefined) return head;
    if (tag === "earliest") return 0;
    return typeof tag === "string" && /^0[xX][0-9a-fA-F]+$/.test(tag) ? parseInt(tag, 16) : undefined;
  };
  switch (method) {
    case "eth_blockNumber":
      return { result: hex(head) };
    case "eth_getBlockByNumber": {
      const n = height(list[0]);
      if (n === undefined) return undefined;
      return { result: n > head ? null : blockOf(header(n), n, list[1]) };
    }
    case "eth_getBlockByHash": {
      const n = heightOf(list[0]);
      return { result: n === undefined || n > head ? null : blockOf(header(n), n, list[1]) };
    }
    case "eth_getLogs": {
      const filter = (typeof list[0] === "object" && list[0] !== null ? list[0] : {}) as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };
      if (filter.blockHash !== undefined) {
        const n = heightOf(filter.blockHash);
        return n === undefined || n > head ? { error: { code: -32000, message: "unknown block" } } : { result: [log(n, filter)] };
      }
      const from = height(filter.fromBlock ?? "latest");
      const to = height(filter.toBlock ?? "latest");
      if (from === undefined || to === undefined) return undefined;
      const last = Math.min(to, head);
      if (last - from + 1 > MAX_LOG_RANGE) return { error: { code: -32005, message: `query exceeds max block range ${MAX_LOG_RANGE}` } };
      const logs: unknown[] = [];
      for (let n = from; n <= last; n++) logs.push(log(n, filter));
      return { result: logs };
    }
    default:
      return undefined;
  }
}

/** The default `MockSubscriptions`: a chain per endpoint, all on one clock. */
export function syntheticChain(options: SyntheticChainOptions = {}): SyntheticChain {
  const intervalMs = Math.max(1, options.intervalMs ?? 1000);
  const heightAtEpoch = options.heightAtEpoch ?? 77_841_121;
  const epochMs = options.epochMs ?? Date.UTC(2026, 0, 1);
  const now = options.now ?? (() => Date.now());
  const chains = new Map<string, Chain>();
  let active = 0;

  const chainOf = (endpoint: string): Chain => {
    let c = chains.get(endpoint);
    if (!c) chains.set(endpoint, (c = { pushed: 0, subs: new Set(), timer: undefined }));
    return c;
  };
  const headOf = (c: Chain) => Math.max(0, heightAtEpoch + Math.floor((now() - epochMs) / intervalMs)) + c.pushed;

  // when the block was made, in seconds; at least a second after its parent (a chain faster than that runs ahead of the clock)
  const timestamp = (n: number) => (intervalMs >= 1000 ? Math.floor((epochMs + (n - heightAtEpoch) * intervalMs) / 1000) : Math.floor(epochMs / 1000) + (n - heightAtEpoch));

  const header = (n: number) => headerOf(n, timestamp(n));
  const log = (n: number, filter: unknown) => logOf(n, timestamp(n), filter);

  /** The payload of `kind` for block `n`, given the subscription's params; undefined for a kind this chain does not serve. */
  const payload = (kind: string, n: number, params: readonly unknown[]): unknown => {
    switch (kind) {
      case "newHeads":
        return header(n);
      case "newPendingTransactions":
      case "newAcceptedTransactions":
        return params[0] === true ? transactionOf(n, kind === "newPendingTransactions") : txHash(n);
      case "logs":
        return log(n, params[0]);
      default:
        return undefined;
    }
  };

  /** Tells `sub` the blocks up to `to` it has not heard (at most PER_TICK now). */
  const catchUp = (sub: Sub, to: number) => {
    const until = Math.min(to, sub.last + PER_TICK);
    while (sub.last < until) sub.emit(payload(sub.kind, ++sub.last, sub.params));
  };
  const tick = (c: Chain) => {
    const h = headOf(c);
    for (const s of [...c.subs]) catchUp(s, h);
  };

  return {
    subscribe(endpoint, kind, params, emit) {
      if (!(SYNTHETIC_KINDS as readonly string[]).includes(kind)) return undefined;
      const c = chainOf(endpoint);
      // a subscription hears the blocks made after it began
      const sub: Sub = { kind, params, emit, last: headOf(c) };
      c.subs.add(sub);
      active++;
      if (c.timer === undefined) c.timer = setInterval(() => tick(c), intervalMs);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        c.subs.delete(sub);
        active--;
        if (c.subs.size === 0 && c.timer !== undefined) {
          clearInterval(c.timer);
          c.timer = undefined;
        }
      };
    },
    next(endpoint, kind) {
      if (!(SYNTHETIC_KINDS as readonly string[]).includes(kind)) return undefined;
      const c = chainOf(endpoint);
      c.pushed++;
      const n = headOf(c);
      // the subscriptions of `kind` get this block from the caller: they hear what came before it first
      for (const s of c.subs) {
        if (s.kind !== kind) continue;
        catchUp(s, n - 1);
        s.last = n;
      }
      return payload(kind, n, []);
    },
    get active() {
      return active;
    },
    head: (endpoint) => headOf(chainOf(endpoint)),
    header,
    answer: (endpoint, method, params) => read(headOf(chainOf(endpoint)), method, params, header, log),
  };
}
