/**
 * Gap filling: what a subscription does between the events the node
 * notifies, so that its consumer gets every event once and in order across
 * reconnects. The transport picks the kind's filler from its descriptor's
 * `backfill`: heads by number (`blockGaps`, here), logs by block range
 * (`logGaps`, logs.ts), or nothing to fill (`passThrough`).
 *
 * A filler sees every payload (a notification, or an event it fetched)
 * through the sink's `admit` first (payloads.ts): what it orders and
 * deduplicates by is there.
 */
import { NetworkError, TimeoutError } from "../errors/errors.js";
import type { RpcMethod } from "../jsonrpc/jsonrpc.js";
import type { Backfill, ReconnectInfo, ReorgInfo } from "./types.js";
import type { PayloadGate } from "./payloads.js";

/** What a filler acts on: its subscription's consumer and the socket's calls. */
export interface GapSink {
  /** Whether a payload may be delivered (`what` names it in a report). */
  admit: PayloadGate;
  deliver(payload: unknown): void;
  fetch(m: RpcMethod, params: unknown): Promise<unknown>;
  reorg(info: ReorgInfo): void;
  reconnected(info: ReconnectInfo): void;
  fail(error: unknown): void;
  /** The subscription has ended: nothing more to fetch. */
  readonly ended: boolean;
}

export interface GapFiller {
  bind(sink: GapSink): void;
  /** A notification's payload (wire form). */
  push(payload: unknown): void;
  /** Before the first subscribe: where the subscription begins (notifications wait from now). */
  starting(): Promise<void>;
  /** The first subscribe succeeded: cover what happened between `starting` and it, then let notifications through. */
  started(): void;
  /** About to resubscribe after `attempts` reconnect attempts: notifications wait from now. */
  resuming(attempts: number): void;
  /** Resubscribed: fill what was missed, then let the waiting notifications through. */
  resumed(): void;
}

/** A backfill that failed because the connection dropped again waits for the next reconnect; other failures end the subscription. */
export const retryLater = (sink: GapSink) => (error: unknown) => {
  if (!(error instanceof NetworkError) && !(error instanceof TimeoutError)) sink.fail(error);
};

export const toBig = (v: unknown): bigint | undefined => {
  if (typeof v !== "string" || !/^(0[xX][0-9a-fA-F]+|[0-9]+)$/.test(v)) return undefined;
  return BigInt(v);
};
export const hex = (n: bigint) => `0x${n.toString(16)}`;

/** The params object of a read of block `at` by `method` (its first param), with `extra` after it (`hydratedTransactions: false`). */
export function blockArgs(method: RpcMethod, at: bigint | "latest", extra: readonly unknown[]): Record<string, unknown> {
  const args: Record<string, unknown> = { [method.params[0]?.name ?? "block"]: typeof at === "bigint" ? hex(at) : at };
  extra.forEach((v, i) => (args[method.params[i + 1]?.name ?? String(i + 1)] = v));
  return args;
}

/** Nothing to fill (no history to read): events pass through, and a reconnect is reported with nothing backfilled. */
export function passThrough(): GapFiller {
  let sink: GapSink | undefined;
  let attempts = 0;
  return {
    bind: (s) => (sink = s),
    push: (p) => {
      if (sink?.admit(p)) sink.deliver(p);
    },
    starting: () => Promise.resolve(),
    started: () => undefined,
    resuming: (n) => (attempts = n),
    resumed: () => sink?.reconnected({ attempts, backfilled: 0 }),
  };
}

/**
 * Heads: delivered in number order, each once (by hash). A head that skips
 * numbers is preceded by the missed blocks, fetched by number; a head (or
 * fetched block) whose parent hash is not the hash delivered at the number
 * before, or a second hash for a number already delivered, is a reorg.
 */
export function blockGaps(b: Extract<Backfill, { by: "blocks" }>): GapFiller {
  let sink!: GapSink;
  let last: bigint | undefined;
  const hashes = new Map<bigint, string>();
  let busy: Promise<void> = Promise.resolve();
  let resumeAttempts: number | undefined;
  const remember = (n: bigint, hash: string) => {
    hashes.set(n, hash);
    for (const k of hashes.keys()) if (k < n - 256n) hashes.delete(k);
  };
  /** The header of block `k` on the node (its transactions, uncles and size left out), or undefined when it has none or sends one that cannot be placed. */
  const fetchHeader = async (k: bigint | "latest"): Promise<Record<string, unknown> | undefined> => {
    const block = (await sink.fetch(b.method, blockArgs(b.method, k, b.extra))) as Record<string, unknown> | null;
    if (block === null || typeof block !== "object") return undefined;
    const { transactions: _t, uncles: _u, size: _s, ...header } = block;
    return sink.admit(header, "a block fetched to fill the gap") ? header : undefined;
  };
  const deliver = (block: Record<string, unknown>, n: bigint, hash: string) => {
    remember(n, hash);
    last = n;
    sink.deliver(block);
  };
  /**
   * The block before `block` is not the one delivered at its number: walk
   * back by number until the node's chain meets the delivered one, report
   * the reorg at the lowest replaced height, and deliver the node's blocks
   * from there (so the consumer ends on the canonical chain).
   */
  const repair = async (below: bigint): Promise<number> => {
    const replacement: Record<string, unknown>[] = [];
    let k = below;
    for (; hashes.has(k); k--) {
      const header = await fetchHeader(k);
      if (!header || header["hash"] === hashes.get(k)) break;
      replacement.unshift(header);
    }
    if (replacement.length === 0) return 0;
    const first = replacement[0]!;
    const at = toBig(first["number"])!;
    sink.reorg({ number: at, replacedHash: hashes.get(at)!, newHash: String(first["hash"]) });
    for (const key of [...hashes.keys()]) if (key >= at) hashes.delete(key);
    for (const header of replacement) deliver(header, toBig(header["number"])!, String(header["hash"]));
    return replacement.length;
  };
  /** Delivers an admitted head or fetched block in order; the count delivered (0 for one delivered already). */
  const accept = async (block: Record<string, unknown>): Promise<number> => {
    const n = toBig(block["number"])!;
    const hash = String(block["hash"]);
    const known = hashes.get(n);
    if (known === hash) return 0; // delivered already
    let repaired = 0;
    if (known !== undefined || (last !== undefined && n <= last)) {
      // the node went back: a second hash for a height already delivered
      repaired = await repair(n);
      if (hashes.get(n) === hash) return repaired;
    } else if (last !== undefined && n === last + 1n && typeof block["parentHash"] === "string" && hashes.has(last) && block["parentHash"] !== hashes.get(last)) {
      repaired = await repair(last);
    }
    deliver(block, n, hash);
    return repaired + 1;
  };
  /** An admitted head (a notification, or after a reconnect the node's latest block, `missed`): the gap before it filled first. */
  const handle = async (head: Record<string, unknown>, missed = false) => {
    const n = toBig(head["number"])!;
    const attempts = resumeAttempts;
    let backfilled = 0;
    const from = last === undefined ? undefined : last + 1n;
    if (from !== undefined && n > from) {
      for (let k = from; k < n && !sink.ended; k++) {
        const header = await fetchHeader(k);
        if (!header) break;
        backfilled += await accept(header);
      }
    }
    resumeAttempts = undefined;
    const delivered = await accept(head);
    backfilled += Math.max(0, delivered - (missed ? 0 : 1));
    const to = missed ? n : n - 1n;
    if (attempts !== undefined) sink.reconnected({ attempts, ...(from !== undefined && to >= from ? { missedFrom: from, missedTo: to } : {}), backfilled });
  };
  return {
    bind: (s) => (sink = s),
    // checked in turn, so that a payload ending the subscription ("strict") comes after the heads before it
    push: (payload) => {
      busy = busy.then(() => (sink.admit(payload) ? handle(payload as Record<string, unknown>) : undefined)).catch(retryLater(sink));
    },
    starting: () => Promise.resolve(),
    started: () => undefined,
    resuming: (attempts) => (resumeAttempts = attempts),
    // the node's latest block stands for the first head after the reconnect: the gap up to it is filled now,
    // not when the next block comes (its notification, if it is the same block, is then a duplicate)
    resumed: () => {
      busy = busy
        .then(async () => {
          const latest = await fetchHeader("latest");
          if (latest) await handle(latest, true);
        })
        .catch(retryLater(sink));
    },
  };
}
