/**
 * Gap filling for logs (and other block-numbered events told apart by a
 * key): delivered each once, by key, and after a reconnect the missed block
 * range is fetched with the subscription's own filter.
 *
 * A reorganisation while the socket was down is the hard part: the node's
 * blocks at heights the stream already covered may have been replaced, and
 * a node that reorganises while nobody listens sends no `removed` logs for
 * it. So, before fetching, the filler looks for the fork point: it compares
 * the block hashes it knows (of the blocks it delivered logs from, and of
 * the head each range read ended at) with the node's, from the top down,
 * until they agree. Everything it knew above that height is of the old
 * chain: the lowest block it delivered logs from that the node replaced is
 * reported with `onReorg` (a consumer drops what it holds from that height
 * on), and the range is fetched again from just above the agreed height, so
 * the logs of the new blocks are delivered, each once. That needs the
 * kind's `block` method (a block by number); without one, only a replaced
 * hash seen on a log is reported, where it is seen.
 *
 * Memory: the hashes and keys of the last `WINDOW` heights below the
 * cursor. A reorganisation deeper than that is reported at the oldest block
 * remembered, and logs are fetched again from there.
 */
import type { Backfill, ReconnectInfo, ReorgInfo, SubscriptionKind } from "./types.js";
import { blockArgs, hex, retryLater, toBig, type GapFiller, type GapSink } from "./gaps.js";
import { rangeDefaults, scanRange } from "../ranges/ranges.js";

/** Heights remembered below the cursor. */
const WINDOW = 64n;

/** What the stream knows of the block at a height: its hash, and whether logs were delivered from it. */
interface Known {
  hash: string;
  delivered: boolean;
}

/** A block of the node's: its number and hash (none when only the head's number could be read). */
interface NodeBlock {
  number: bigint;
  hash: string | undefined;
}

/** The node's block `at`, read with the backfill's `block` method (else only the head's number, with `head`); undefined when it has none (yet). */
async function nodeBlock(sink: GapSink, b: Extract<Backfill, { by: "range" }>, at: bigint | "latest"): Promise<NodeBlock | undefined> {
  if (!b.block) {
    const head = at === "latest" ? toBig(await sink.fetch(b.head, {})) : undefined;
    return head === undefined ? undefined : { number: head, hash: undefined };
  }
  const block = (await sink.fetch(b.block, blockArgs(b.block, at, b.blockExtra ?? []))) as Record<string, unknown> | null;
  if (block === null || typeof block !== "object") return undefined;
  const number = toBig(block["number"]);
  return number === undefined ? undefined : { number, hash: typeof block["hash"] === "string" ? block["hash"] : undefined };
}

/**
 * Walks the heights the stream knows, from the top, until the node has the
 * same block there (`agreed`). Above it the node replaced every block the
 * stream knew: `replaced` is the lowest of them, and `reorg` the lowest the
 * stream delivered logs from.
 */
async function forkPoint(known: ReadonlyMap<bigint, Known>, head: NodeBlock, hashAt: (n: bigint) => Promise<string | undefined>): Promise<{ agreed?: bigint; replaced?: bigint; reorg?: ReorgInfo }> {
  let reorg: ReorgInfo | undefined;
  let replaced: bigint | undefined;
  const heights = [...known.keys()].filter((k) => k <= head.number).sort((x, y) => (x < y ? 1 : x > y ? -1 : 0));
  for (const n of heights) {
    const ours = known.get(n)!;
    const theirs = n === head.number ? head.hash : await hashAt(n);
    if (theirs === undefined) continue; // not comparable: the node sent no block there
    if (theirs === ours.hash) return { agreed: n, ...(replaced !== undefined ? { replaced } : {}), ...(reorg ? { reorg } : {}) };
    replaced = n;
    if (ours.delivered) reorg = { number: n, replacedHash: ours.hash, newHash: theirs };
  }
  return { ...(replaced !== undefined ? { replaced } : {}), ...(reorg ? { reorg } : {}) };
}

export function logGaps(kind: SubscriptionKind, b: Extract<Backfill, { by: "range" }>, params: readonly unknown[]): GapFiller {
  let sink!: GapSink;
  /** The highest block the stream covers (events of later blocks are new). */
  let cursor: bigint | undefined;
  /** Whether events of block `cursor` were delivered one by one (it may be incomplete): the next range starts there, else after it. */
  let partial = false;
  const known = new Map<bigint, Known>();
  const seen = new Map<bigint, Set<string>>();
  let busy: Promise<void> = Promise.resolve();
  /** Notifications that arrived while a range is read. */
  let held: unknown[] | undefined;
  let attempts = 0;
  const keyOf = (e: Record<string, unknown>) => b.key.map((k) => String(e[k])).join("|");
  const filterIndex = b.filterParam === undefined ? -1 : kind.params.indexOf(b.filterParam);
  const filter = (filterIndex >= 0 && typeof params[filterIndex] === "object" && params[filterIndex] !== null ? params[filterIndex] : {}) as Record<string, unknown>;
  // the range call's params: the filter itself (one-object form, as eth_getLogs) or under its param name
  const rangeParams = (f: Record<string, unknown>) => (b.method.form === "one-object" ? f : { [b.method.params[0]?.name ?? "filter"]: f });

  const forgetBelow = (height: bigint) => {
    for (const k of known.keys()) if (k < height) known.delete(k);
    for (const k of seen.keys()) if (k < height) seen.delete(k);
  };

  /** Delivers an admitted event unless it was delivered already (false then). */
  const accept = (e: Record<string, unknown>): boolean => {
    const n = toBig(e["blockNumber"])!;
    if (e["removed"] !== true) {
      const keys = seen.get(n) ?? new Set<string>();
      const key = keyOf(e);
      if (keys.has(key)) return false;
      keys.add(key);
      seen.set(n, keys);
      const hash = String(e["blockHash"]);
      const before = known.get(n);
      if (before?.delivered && before.hash !== hash) sink.reorg({ number: n, replacedHash: before.hash, newHash: hash });
      known.set(n, { hash, delivered: true });
    }
    if (cursor === undefined || n >= cursor) {
      cursor = n;
      partial = true;
    }
    forgetBelow(cursor - WINDOW);
    sink.deliver(e);
    return true;
  };

  /** Reads the node's head, repairs a fork, fetches the range from the cursor to the head, then lets the held notifications through. */
  const catchUp = async (): Promise<ReconnectInfo> => {
    const head = await nodeBlock(sink, b, "latest");
    let info: ReconnectInfo = { attempts, backfilled: 0 };
    if (head !== undefined) {
      cursor ??= head.number;
      let from = partial ? cursor : cursor + 1n;
      if (b.block) {
        const { agreed, replaced, reorg } = await forkPoint(known, head, async (n) => (await nodeBlock(sink, b, n))?.hash);
        if (reorg) {
          // the consumer drops what it got from there on: every log from there is delivered again, even one it had
          for (const k of known.keys()) if (k >= reorg.number) known.delete(k);
          for (const k of seen.keys()) if (k >= reorg.number) seen.delete(k);
          sink.reorg(reorg);
        }
        // the stream and the node agree up to `agreed`: the hashes the stream knew above it (up to the head) are of
        // the old chain, and the node's blocks there are read again
        const fork = agreed !== undefined ? agreed + 1n : replaced;
        if (fork !== undefined && fork <= head.number) {
          for (const k of known.keys()) if (k >= fork && k <= head.number) known.delete(k);
          if (fork < from) {
            from = fork;
            cursor = fork - 1n;
            partial = false;
          }
        }
      }
      if (head.number >= from) {
        // a gap wider than the node's eth_getLogs cap is read in windows within it (ranges.ts), as any scan is
        const read = async (a: number, z: number) => {
          const events = await sink.fetch(b.method, rangeParams({ ...filter, fromBlock: hex(BigInt(a)), toBlock: hex(BigInt(z)) }));
          return Array.isArray(events) ? (events as unknown[]) : [];
        };
        let backfilled = 0;
        for await (const e of scanRange(read, { from, to: head.number }, rangeDefaults(b.method.limits))) if (sink.admit(e, "a log fetched to fill the gap") && accept(e as Record<string, unknown>)) backfilled++;
        // the range is complete up to the head
        cursor = head.number;
        partial = false;
        if (head.hash !== undefined && !known.get(head.number)?.delivered) known.set(head.number, { hash: head.hash, delivered: false });
        forgetBelow(cursor - WINDOW);
        info = { attempts, missedFrom: from, missedTo: head.number, backfilled };
      }
    }
    const waiting = held ?? [];
    held = undefined;
    // the range read is the authority up to the head: notifications of those blocks are in it, or of a chain the node left
    for (const e of waiting) if (sink.admit(e) && (head === undefined || toBig((e as Record<string, unknown>)["blockNumber"])! > head.number)) accept(e as Record<string, unknown>);
    return info;
  };

  return {
    bind: (s) => (sink = s),
    // checked in turn, so that a payload ending the subscription ("strict") comes after the events before it
    push: (payload) => {
      if (held) held.push(payload);
      else busy = busy.then(() => void (sink.admit(payload) && accept(payload as Record<string, unknown>))).catch(retryLater(sink));
    },
    starting: async () => {
      // where the subscription begins: events of later blocks are its own
      held ??= [];
      if (cursor === undefined) {
        const head = await nodeBlock(sink, b, "latest");
        if (head !== undefined) {
          cursor = head.number;
          if (head.hash !== undefined) known.set(head.number, { hash: head.hash, delivered: false });
        }
      }
    },
    started: () => {
      // blocks made between the head above and the subscribe: fetched, so the stream starts without a gap
      busy = busy
        .then(async () => {
          await catchUp();
        })
        .catch(retryLater(sink));
    },
    resuming: (n) => {
      attempts = n;
      // notifications held for a connection that dropped before its range was read are covered by the next read
      held = [];
    },
    resumed: () => {
      busy = busy
        .then(async () => {
          sink.reconnected(await catchUp());
        })
        .catch(retryLater(sink));
    },
  };
}
