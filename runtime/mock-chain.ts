/**
 * A synthetic chain behind the mocks' `eth_subscribe`: the default
 * `MockSubscriptions` of a mock service. Each JSON-RPC endpoint has its own
 * chain, which mints a block every `intervalMs` while it has at least one
 * subscription (no subscription, no timer) and tells every subscription of
 * it:
 *
 *  - `newHeads`: the block's header (BlockHeader of the C-Chain document:
 *    increasing `number`, `parentHash` the previous block's `hash`, hashes
 *    derived from the number, so the same height always has the same bytes);
 *  - `logs`: one Log of the block (its address and first topic from the
 *    subscription's filter when it names them);
 *  - `newPendingTransactions`, `newAcceptedTransactions`: one transaction
 *    hash of the block (also when full transactions were asked for).
 *
 * `next(endpoint, kind)` mints a block at once for a test's `push(kind)`.
 * No Node API: it runs under MSW in a browser too. It imports nothing, so
 * that it compiles in a package generated without mocks too (the generator
 * ships this file with every package); a `SyntheticChain` is a
 * `MockSubscriptions` (mock.ts) by its shape.
 */

export interface SyntheticChainOptions {
  /** Milliseconds between blocks (default 1000). */
  intervalMs?: number;
  /** Height of the first block minted (default 1). */
  firstBlock?: number;
  /** Unix seconds of block 0 (default 1_700_000_000); each block is 2 s later than its parent. */
  genesisTime?: number;
}

/** The subscription kinds the synthetic chain serves. */
export const SYNTHETIC_KINDS = ["newHeads", "logs", "newPendingTransactions", "newAcceptedTransactions"] as const;

export interface SyntheticChain {
  /** `MockSubscriptions.subscribe`: starts a subscription of `kind` on `endpoint`'s chain; undefined for a kind it does not serve. */
  subscribe(endpoint: string, kind: string, params: readonly unknown[], emit: (payload: unknown) => void): (() => void) | undefined;
  /** The next payload of `kind` on `endpoint`, from a block minted now (the chain's head moves on); undefined for an unknown kind. */
  next(endpoint: string, kind: string): unknown;
  /** Subscriptions running, on every endpoint. */
  readonly active: number;
  /** The height of the last block minted on `endpoint` (firstBlock − 1 before any). */
  head(endpoint: string): number;
  /** The header of block `n` (the same for the same `n`). */
  header(n: number): Record<string, string>;
  /** `MockSubscriptions.answer`: eth_blockNumber, eth_getBlockByNumber and eth_getLogs from this chain, once it has a block. */
  answer(endpoint: string, method: string, params: unknown): { result: unknown } | undefined;
}

const hex = (n: number) => "0x" + n.toString(16);

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

const ZERO32 = "0x" + "0".repeat(64);
/** Keccak-256 of the empty uncle list (RLP 0xc0), as every C-Chain header has it. */
const EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
/** Transfer(address,address,uint256) */
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

interface Sub {
  kind: string;
  params: readonly unknown[];
  emit: (payload: unknown) => void;
}

interface Chain {
  height: number;
  subs: Set<Sub>;
  timer: ReturnType<typeof setInterval> | undefined;
}

/** The default `MockSubscriptions`: a chain per endpoint, a block every `intervalMs` while anything is subscribed. */
export function syntheticChain(options: SyntheticChainOptions = {}): SyntheticChain {
  const intervalMs = options.intervalMs ?? 1000;
  const first = options.firstBlock ?? 1;
  const genesis = options.genesisTime ?? 1_700_000_000;
  const chains = new Map<string, Chain>();
  let active = 0;

  const chainOf = (endpoint: string): Chain => {
    let c = chains.get(endpoint);
    if (!c) chains.set(endpoint, (c = { height: first - 1, subs: new Set(), timer: undefined }));
    return c;
  };

  const header = (n: number): Record<string, string> => ({
    hash: word("block", n),
    parentHash: n === 0 ? ZERO32 : word("block", n - 1),
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
    timestamp: hex(genesis + 2 * n),
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
  });

  const txHash = (n: number) => word("tx", n);

  /** The payload of `kind` for block `n`, given the subscription's params; undefined for a kind this chain does not serve. */
  const payload = (kind: string, n: number, params: readonly unknown[]): unknown => {
    switch (kind) {
      case "newHeads":
        return header(n);
      case "newPendingTransactions":
      case "newAcceptedTransactions":
        return txHash(n);
      case "logs": {
        const filter = (typeof params[0] === "object" && params[0] !== null ? params[0] : {}) as { address?: unknown; topics?: unknown };
        const address = Array.isArray(filter.address) ? filter.address[0] : filter.address;
        const topic0 = Array.isArray(filter.topics) ? (Array.isArray(filter.topics[0]) ? filter.topics[0][0] : filter.topics[0]) : undefined;
        return {
          address: typeof address === "string" ? address : word("contract", 0, 40),
          topics: [typeof topic0 === "string" ? topic0 : TRANSFER, "0x" + "0".repeat(24) + word("from", n, 40).slice(2), "0x" + "0".repeat(24) + word("to", n, 40).slice(2)],
          data: word("amount", n),
          blockNumber: hex(n),
          blockHash: word("block", n),
          blockTimestamp: hex(genesis + 2 * n),
          transactionHash: txHash(n),
          transactionIndex: "0x0",
          logIndex: "0x0",
          removed: false,
        };
      }
      default:
        return undefined;
    }
  };

  const mint = (c: Chain) => {
    const n = ++c.height;
    for (const s of [...c.subs]) s.emit(payload(s.kind, n, s.params));
  };

  return {
    subscribe(endpoint, kind, params, emit) {
      if (!(SYNTHETIC_KINDS as readonly string[]).includes(kind)) return undefined;
      const c = chainOf(endpoint);
      const sub: Sub = { kind, params, emit };
      c.subs.add(sub);
      active++;
      if (c.timer === undefined) c.timer = setInterval(() => mint(c), intervalMs);
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
      return payload(kind, ++c.height, []);
    },
    get active() {
      return active;
    },
    head: (endpoint) => chainOf(endpoint).height,
    header,
    answer(endpoint, method, params) {
      const c = chainOf(endpoint);
      // before its first block the chain has nothing to tell: the mock service answers (its tables and overrides)
      if (c.height < first) return undefined;
      const list = Array.isArray(params) ? params : [];
      const height = (tag: unknown): number | undefined => {
        if (tag === "latest" || tag === "pending" || tag === "safe" || tag === "finalized" || tag === "accepted" || tag === undefined) return c.height;
        if (tag === "earliest") return first;
        return typeof tag === "string" && /^0[xX][0-9a-fA-F]+$/.test(tag) ? parseInt(tag, 16) : undefined;
      };
      switch (method) {
        case "eth_blockNumber":
          return { result: hex(c.height) };
        case "eth_getBlockByNumber": {
          const n = height(list[0]);
          if (n === undefined) return undefined;
          return { result: n < first || n > c.height ? null : { ...header(n), size: "0x220", transactions: [txHash(n)], uncles: [] } };
        }
        case "eth_getLogs": {
          const filter = (typeof list[0] === "object" && list[0] !== null ? list[0] : {}) as { fromBlock?: unknown; toBlock?: unknown };
          const from = Math.max(first, height(filter.fromBlock ?? "latest") ?? c.height);
          const to = Math.min(c.height, height(filter.toBlock ?? "latest") ?? c.height);
          const logs: unknown[] = [];
          for (let n = from; n <= to; n++) logs.push(payload("logs", n, [filter]));
          return { result: logs };
        }
        default:
          return undefined;
      }
    },
  };
}
