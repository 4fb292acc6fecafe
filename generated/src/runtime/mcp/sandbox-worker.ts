/// <reference types="node" />
/**
 * The sandbox's worker thread: it holds one QuickJS WebAssembly module and
 * runs one snippet at a time on it (a fresh QuickJS runtime each time), and
 * speaks to the host in the messages below. The thread is the sandbox's
 * resource boundary, QuickJS its isolation boundary: the host can terminate
 * the thread when the snippet is stuck in a built-in that never asks the
 * interrupt handler, and a module that failed is dropped with its thread.
 *
 * It starts serving only when it is a worker started by sandbox-pool.ts
 * (its `workerData` says so); imported anywhere else it does nothing.
 */
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { startEngineRun, type EngineJob, type EngineResult, type EngineRun } from "./sandbox-engine.js";
import { WORKER_MARK } from "./sandbox-types.js";

/** WebAssembly pages (64 KiB) the QuickJS module needs before any run: its own data, stack and first heap. */
const BASE_PAGES = 256;
const PAGE = 65_536;

/**
 * A QuickJS module whose WebAssembly memory cannot grow past its base and the run's memory limit. QuickJS's
 * own limit (setMemoryLimit) does not add up a runtime's allocations in these builds (malloc_usable_size is
 * missing under Emscripten, quickjs-emscripten issues 255 and 271), so the memory's maximum is the bound:
 * past it malloc fails and QuickJS throws its out-of-memory error.
 */
async function newModule(pages: number): Promise<{ module: QuickJSWASMModule; memory: WebAssembly.Memory }> {
  const memory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum: pages });
  // the package's types describe its CommonJS face; imported as ESM, its default export is the variant
  const base = (await import("@jitl/quickjs-wasmfile-release-sync")).default as unknown as QuickJSSyncVariant;
  return { module: await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmMemory: memory })), memory };
}

/** What the engine's module looked like after a run (for the host's statistics: the leak test reads them). */
export interface EngineStats {
  /** Runs this worker finished. */
  runs: number;
  /** Size of the module's WebAssembly memory, in bytes (it only grows, up to the module's maximum). */
  wasmBytes: number;
  /** QuickJS modules this worker made: one, unless a run asked for another memory limit or exhausted the memory. */
  modules: number;
}

export type ToWorker = { type: "run"; run: number; job: EngineJob } | { type: "settle"; run: number; id: number; text: string };

export type FromWorker =
  | { type: "started"; run: number }
  | { type: "call"; run: number; id: number; path: string[]; args: string }
  | { type: "log"; run: number; line: string }
  | { type: "done"; run: number; result: EngineResult; droppedLogs: number; poisoned: boolean; stats: EngineStats };

function serve(port: MessagePort): void {
  let engine: { pages: number; loaded: Promise<{ module: QuickJSWASMModule; memory: WebAssembly.Memory }> } | undefined;
  let current: { run: number; engine: EngineRun } | undefined;
  let runs = 0;
  let modules = 0;
  const send = (message: FromWorker) => port.postMessage(message);

  async function start(run: number, job: EngineJob): Promise<void> {
    const pages = BASE_PAGES + Math.ceil(job.limits.memoryBytes / PAGE);
    if (engine?.pages !== pages) {
      modules++;
      engine = { pages, loaded: newModule(pages) };
    }
    let loaded: { module: QuickJSWASMModule; memory: WebAssembly.Memory };
    try {
      loaded = await engine.loaded;
    } catch (error) {
      const message = `the sandbox's engine could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
      send({ type: "done", run, result: { ok: false, reason: "runtime", message }, droppedLogs: 0, poisoned: true, stats: { runs, wasmBytes: 0, modules } });
      return;
    }
    send({ type: "started", run });
    const atCeiling = () => loaded.memory.buffer.byteLength >= pages * PAGE;
    const running = startEngineRun(loaded.module, job, atCeiling, {
      call: (id, path, args) => send({ type: "call", run, id, path, args }),
      log: (line) => send({ type: "log", run, line }),
    });
    current = { run, engine: running };
    const outcome = await running.done;
    current = undefined;
    runs++;
    const wasmBytes = loaded.memory.buffer.byteLength;
    // a run that failed with the heap at its maximum may have failed an allocation on the host's side of
    // quickjs-emscripten, which does not check them: that module is not trusted again
    if (atCeiling() && !outcome.result.ok) engine = undefined;
    send({ type: "done", run, ...outcome, stats: { runs, wasmBytes, modules } });
  }

  port.on("message", (message: ToWorker) => {
    if (message.type === "settle") {
      if (current?.run === message.run) current.engine.deliver(message.id, message.text);
    } else void start(message.run, message.job);
  });
}

if (parentPort && workerData === WORKER_MARK) serve(parentPort);
