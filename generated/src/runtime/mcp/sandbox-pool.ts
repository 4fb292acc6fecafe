/// <reference types="node" />
/**
 * The sandbox's worker threads. A run takes a worker to itself; afterwards
 * the worker waits for the next run (a few are kept) unless its engine
 * failed, it was stopped for running too long, or its WebAssembly memory
 * grew past RECYCLE_BYTES (WebAssembly memory never shrinks, and a server
 * runs for days). Idle workers do not keep the process alive.
 *
 * The worker's output is captured, never inherited: over stdio, the
 * process's stdout is the MCP channel, and nothing the engine prints may
 * reach it.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { EngineStats } from "./sandbox-worker.js";
import { WORKER_MARK } from "./sandbox-types.js";

/** Idle workers kept for the next runs. */
const MAX_IDLE = 2;
/** A worker whose WebAssembly memory grew past this is replaced rather than reused. */
const RECYCLE_BYTES = 256 * 1024 * 1024;

const idle: Worker[] = [];
const counts = { started: 0, stopped: 0 };
/** Set by closeSandbox until the next run starts: a worker back from a run then stops instead of waiting. */
let closing = false;
let lastEngine: EngineStats | undefined;

/** What the sandbox has done so far in this process (for tests and diagnostics). */
export interface SandboxStats {
  /** Worker threads started. */
  workersStarted: number;
  /** Worker threads stopped: after a failure, a time-out, memory growth, or closeSandbox(). */
  workersStopped: number;
  /** Idle workers waiting for a run. */
  idleWorkers: number;
  /** The engine's statistics after the last run that finished normally. */
  engine: EngineStats | undefined;
}

export function sandboxStats(): SandboxStats {
  return { workersStarted: counts.started, workersStopped: counts.stopped, idleWorkers: idle.length, engine: lastEngine };
}

/**
 * The worker's script: the compiled `sandbox-worker.js` beside this file in a built package. Run from
 * TypeScript sources (avaspec's tests, a package's `src/` in its own tests), the `.ts` file, loaded through
 * tsx's loader registered inside the worker (loader hooks from `--import` do not reach worker threads on
 * Node 20).
 */
function workerEntry(): { script: string | URL; eval: boolean } {
  const compiled = new URL("./sandbox-worker.js", import.meta.url);
  if (existsSync(compiled)) return { script: compiled, eval: false };
  const source = new URL("./sandbox-worker.ts", import.meta.url).href;
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/esm/api/index.mjs")).href;
  return { script: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, eval: true };
}

export function acquireWorker(): Worker {
  closing = false;
  const reused = idle.pop();
  if (reused) {
    reused.ref();
    return reused;
  }
  const entry = workerEntry();
  const worker = new Worker(entry.script, {
    eval: entry.eval,
    workerData: WORKER_MARK,
    execArgv: [],
    stdout: true,
    stderr: true,
    // the engine's WebAssembly memory is outside these; they bound the worker's own JavaScript heap
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
  });
  counts.started++;
  worker.stdout.resume();
  worker.stderr.resume();
  worker.once("exit", () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  // an idle worker's own failure is only an exit; a running one's is handled by its run
  worker.on("error", () => {});
  return worker;
}

/** A worker back from a run: kept for the next one when it is healthy, else stopped. */
export function releaseWorker(worker: Worker, healthy: boolean, stats: EngineStats | undefined): void {
  if (stats) lastEngine = stats;
  if (healthy && !closing && idle.length < MAX_IDLE && (stats?.wasmBytes ?? 0) <= RECYCLE_BYTES) {
    worker.unref();
    idle.push(worker);
  } else stopWorker(worker);
}

export function stopWorker(worker: Worker): void {
  counts.stopped++;
  void worker.terminate();
}

/**
 * Stops the idle workers (a server shutting down, a test suite's end), and each worker of a run in progress once
 * that run ends. An idle worker does not keep the process alive itself, but its captured output streams do.
 */
export async function closeSandbox(): Promise<void> {
  closing = true;
  const all = idle.splice(0);
  counts.stopped += all.length;
  await Promise.all(all.map((worker) => worker.terminate()));
}
