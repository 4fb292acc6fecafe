/**
 * An operation whose response is a stream of items (server-sent events,
 * JSON Lines) answers an agent once, with the items that arrived: at most
 * `maxItems`, within `maxMs` of the call, and whether the stream ended by
 * itself. The stream is closed then, so no connection outlives the call (a
 * feed of ticks would otherwise be read until its buffer filled, and held
 * open for good).
 */

/** How much of a stream one call returns. */
export interface StreamCollectLimits {
  /** Items at most (default 100). */
  maxItems: number;
  /** Time from the call at most, in ms (default 5,000). */
  maxMs: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<StreamCollectLimits> = Object.freeze({ maxItems: 100, maxMs: 5_000 });

/** What a call to a streamed operation returns to the agent. */
export interface CollectedStream {
  items: unknown[];
  /** The stream ended by itself (else it was closed at a limit, or failed). */
  complete: boolean;
  /** Why the stream failed after the items above (a failure before any item fails the call). */
  error?: string;
}

interface Closable extends AsyncIterable<unknown> {
  close(): void;
}

/** A value a client method returned that is a stream of items (`ItemStream`), not a result. */
export const isItemStream = (value: unknown): value is Closable =>
  typeof value === "object" && value !== null && typeof (value as Partial<Closable>)[Symbol.asyncIterator] === "function" && typeof (value as Partial<Closable>).close === "function";

/** Reads a stream's first items within the limits, then closes it; what failed it before any item rejects. `describe` words a later failure. */
export async function collectStream(stream: Closable, limits: StreamCollectLimits, signal: AbortSignal | undefined, describe: (error: unknown) => string): Promise<CollectedStream> {
  const items: unknown[] = [];
  let complete = false;
  let stopped = false;
  // the stream's iterator is done once the stream is closed, so the time limit or an abort ends the loop below
  const stop = () => {
    stopped = true;
    stream.close();
  };
  const timer = setTimeout(stop, limits.maxMs);
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const iterator = stream[Symbol.asyncIterator]();
    for (;;) {
      if (items.length >= limits.maxItems) break;
      const next = await iterator.next();
      if (next.done) {
        complete = !stopped;
        break;
      }
      items.push(next.value);
    }
  } catch (error) {
    if (items.length === 0) throw error;
    return { items, complete: false, error: describe(error) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
    stream.close();
  }
  return { items, complete };
}
