/// <reference types="node" />
/**
 * Code mode's `execute`: an agent's TypeScript or JavaScript snippet run
 * against the generated clients, behind a real isolation boundary.
 *
 * The snippet runs in QuickJS compiled to WebAssembly (quickjs-emscripten),
 * in a worker thread, a fresh QuickJS runtime per run. Inside there is no
 * file system, network, `process`, `require`, `import()`, timer or host
 * object: only the standard built-ins, `console`, and the client objects of
 * the surface, whose methods send their arguments out as JSON and get the
 * result back as JSON. The host runs each call with the real client (the
 * `HostCall`), so the client's retries, validation and typed errors apply,
 * and the client's base URLs and keys never enter the sandbox.
 *
 * Limits: time (QuickJS's interrupt handler, and the host terminating the
 * worker when a built-in never lets the handler run), memory (the QuickJS
 * runtime's allocator), result size (its JSON text), client calls. A run
 * never throws: every failure is an outcome that says why, and the next run
 * starts clean. Why QuickJS in a worker, and why sucrase for the types: ADR
 * 0020.
 */
import { closeSandbox, sandboxStats, type SandboxStats } from "./sandbox-pool.js";
import { runInWorker } from "./sandbox-session.js";
import type { HostCall, SandboxLimits, SnippetOptions, SnippetOutcome, Surface } from "./sandbox-types.js";
import { messageOf, redact, secretList } from "./sandbox-wire.js";

export type { HostCall, SandboxLimits, SnippetFailure, SnippetOptions, SnippetOutcome, Surface } from "./sandbox-types.js";
export { closeSandbox, sandboxStats, type SandboxStats };

export const DEFAULT_LIMITS: SandboxLimits = { timeMs: 10_000, memoryBytes: 64 * 1024 * 1024, resultBytes: 256 * 1024, calls: 50 };

/** The longest snippet accepted, in characters: a snippet is a short program, not a bundle. */
export const MAX_SOURCE_CHARS = 100_000;

/** Below these the engine cannot even start its prelude; above, a limit is taken as given. */
const FLOORS: SandboxLimits = { timeMs: 1, memoryBytes: 1024 * 1024, resultBytes: 16, calls: 0, stackBytes: 64 * 1024 };

function resolveLimits(given: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_LIMITS };
  for (const key of ["timeMs", "memoryBytes", "resultBytes", "calls", "stackBytes"] as const) {
    const value = given?.[key];
    if (typeof value === "number" && !Number.isNaN(value)) limits[key] = Math.max(FLOORS[key]!, Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER));
  }
  return limits;
}

/**
 * Runs `source` as the body of an async function (or, when it is a single expression, returns its value)
 * with the surface's clients in scope. Never throws.
 */
export async function runSnippet(source: string, surface: Surface, host: HostCall, limits?: Partial<SandboxLimits>, options?: SnippetOptions): Promise<SnippetOutcome> {
  const secrets = secretList(options?.secrets);
  try {
    if (typeof source !== "string") return { ok: false, reason: "syntax", message: "the snippet must be a string of code", calls: 0, logs: [] };
    if (source.length > MAX_SOURCE_CHARS) {
      return { ok: false, reason: "refused", message: `the snippet is ${source.length} characters, over the ${MAX_SOURCE_CHARS} a snippet may have: write a shorter program`, calls: 0, logs: [] };
    }
    return await runInWorker({ source, surface, host, limits: resolveLimits(limits), secrets });
  } catch (error) {
    return { ok: false, reason: "runtime", message: `the sandbox failed: ${redact(messageOf(error), secrets)}`, calls: 0, logs: [] };
  }
}
