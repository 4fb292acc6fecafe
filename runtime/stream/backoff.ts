/**
 * How a transport that pushes (a WebSocket, an HTTP event stream) waits
 * before it connects again after losing its connection: a delay that
 * doubles per attempt up to a cap, drawn between half of it and all of it,
 * so that clients dropped together do not all come back at the same moment.
 */

export interface ReconnectOptions {
  /** Reconnect attempts after a connection is lost (default: unbounded). */
  retries?: number;
  /** First delay, doubled per attempt (default 250 ms; an event stream's `retry:` field replaces it). */
  baseDelayMs?: number;
  /** Cap of the delay (default 30 s). Each delay is drawn between half of it and all of it (jitter). */
  maxDelayMs?: number;
}

/** ReconnectOptions with every default filled in. */
export type ReconnectPolicy = Readonly<Required<ReconnectOptions>>;

export function reconnectPolicy(options: ReconnectOptions | undefined): ReconnectPolicy {
  return { retries: options?.retries ?? Number.POSITIVE_INFINITY, baseDelayMs: options?.baseDelayMs ?? 250, maxDelayMs: options?.maxDelayMs ?? 30_000 };
}

/** The wait before reconnect attempt `attempt` (1 for the first). */
export function reconnectDelay(policy: { readonly baseDelayMs: number; readonly maxDelayMs: number }, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}
