/**
 * Gap filling for logs (and other block-numbered events told apart by a
 * key): delivered each once, by key. A reconnect fetches the range from the
 * last block delivered (or the head at subscription time) to the current
 * head with the subscription's filter; notifications arriving meanwhile
 * wait, and duplicates are skipped.
 */
import type { Backfill, ReconnectInfo, SubscriptionKind } from "./ws.js";
import { hex, retryLater, toBig, type GapFiller, type GapSink } from "./ws-gaps.js";

export function logGaps(kind: SubscriptionKind, b: Extract<Backfill, { by: "range" }>, params: readonly unknown[]): GapFiller {
  let sink!: GapSink;
  let cursor: bigint | undefined;
  const seen = new Map<bigint, Set<string>>();
  const blockHashes = new Map<bigint, string>();
  let busy: Promise<void> = Promise.resolve();
  let held: unknown[] | undefined;
  let attempts = 0;
  /** Whether events of block `cursor` were delivered one by one (it may be incomplete): the next range starts there, else after it. */
  let partial = false;
  const keyOf = (e: Record<string, unknown>) => b.key.map((k) => String(e[k])).join("|");
  /** Delivers an admitted event unless it was delivered already (false then). */
  const accept = (e: Record<string, unknown>): boolean => {
    const n = toBig(e["blockNumber"])!;
    if (e["removed"] !== true) {
      const keys = seen.get(n) ?? new Set<string>();
      const key = keyOf(e);
      if (keys.has(key)) return false;
      keys.add(key);
      seen.set(n, keys);
      const hash = e["blockHash"];
      const known = blockHashes.get(n);
      if (typeof hash === "string") {
        if (known !== undefined && known !== hash) sink.reorg({ number: n, replacedHash: known, newHash: hash });
        blockHashes.set(n, hash);
      }
    }
    if (cursor === undefined || n > cursor) {
      cursor = n;
      partial = true;
    } else if (n === cursor) partial = true;
    for (const k of seen.keys()) if (k < n - 64n) (seen.delete(k), blockHashes.delete(k));
    sink.deliver(e);
    return true;
  };
  const filterIndex = b.filterParam === undefined ? -1 : kind.params.indexOf(b.filterParam);
  const filter = (filterIndex >= 0 && typeof params[filterIndex] === "object" && params[filterIndex] !== null ? params[filterIndex] : {}) as Record<string, unknown>;
  /** Fetches the range from the cursor to the current head, delivers it, then lets the held notifications through. */
  const catchUp = async (): Promise<ReconnectInfo> => {
    const head = toBig(await sink.fetch(b.head, {}));
    let info: ReconnectInfo = { attempts, backfilled: 0 };
    if (cursor === undefined) cursor = head;
    const from = cursor === undefined ? undefined : partial ? cursor : cursor + 1n;
    if (head !== undefined && from !== undefined && head >= from) {
      const events = (await sink.fetch(b.method, rangeParams({ ...filter, fromBlock: hex(from), toBlock: hex(head) }))) as unknown[];
      let backfilled = 0;
      for (const e of Array.isArray(events) ? events : []) if (sink.admit(e, "a log fetched to fill the gap") && accept(e as Record<string, unknown>)) backfilled++;
      // the range is complete up to the head
      cursor = head;
      partial = false;
      info = { attempts, missedFrom: from, missedTo: head, backfilled };
    }
    const waiting = held ?? [];
    held = undefined;
    for (const e of waiting) if (sink.admit(e)) accept(e as Record<string, unknown>);
    return info;
  };
  // the range call's params: the filter itself (one-object form, as eth_getLogs) or under its param name
  const rangeParams = (f: Record<string, unknown>) => (b.method.form === "one-object" ? f : { [b.method.params[0]?.name ?? "filter"]: f });
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
        const head = toBig(await sink.fetch(b.head, {}));
        if (head !== undefined) cursor = head;
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
      held ??= [];
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
