/**
 * The types of code mode's sandbox, shared by the host side (sandbox.ts,
 * which re-exports them) and the engine side (the worker, the QuickJS run),
 * so that neither imports the other's module.
 */

/** The `workerData` a sandbox worker is started with: the worker module serves only when it sees it. */
export const WORKER_MARK = "avaspec-sandbox";

/** Bounds on one snippet run. */
export interface SandboxLimits {
  /** Wall time, waiting for client calls included. */
  timeMs: number;
  /** The QuickJS heap of the run. */
  memoryBytes: number;
  /** The result's JSON text, in UTF-8 bytes. */
  resultBytes: number;
  /** Client calls (host calls) the snippet may make. */
  calls: number;
  /** The engine's stack (deep recursion ends in a RangeError before the host's own stack is at risk). */
  stackBytes?: number;
}

/**
 * The client objects visible to the snippet: a tree whose leaves are callable methods, e.g.
 * `{ node: { platform: { getHeight: "method" } }, dataApi: { listChains: "method" } }`.
 */
export type Surface = { readonly [name: string]: Surface | "method" };

/**
 * Runs one client method on the host. `args` are JSON values produced in the sandbox; the result may hold
 * bigint. `signal` aborts when the run ends before the call settles (time limit, call limit, an error).
 */
export type HostCall = (path: readonly string[], args: readonly unknown[], signal?: AbortSignal) => Promise<unknown>;

/** Why a run failed. */
export type SnippetFailure = "syntax" | "runtime" | "timeout" | "memory" | "result-size" | "calls" | "refused";

export type SnippetOutcome =
  | { ok: true; result: unknown /* JSON-safe: bigint as decimal string */; resultBytes: number; calls: number; logs: string[] }
  | {
      ok: false;
      reason: SnippetFailure;
      message: string;
      calls: number;
      logs: string[];
      /** Where in the snippet a syntax error or an error the snippet's own code threw was (1-based). */
      location?: { line: number; column: number };
    };

/** Options beside the limits. */
export interface SnippetOptions {
  /**
   * Strings that must never reach the agent (API keys and the like). Any occurrence in a client result or a
   * client error is replaced by `[redacted]` before the snippet sees it, and the run's result, logs and
   * message are redacted again on the way out.
   */
  secrets?: readonly string[];
}
