/// <reference types="node" />
/**
 * One snippet run inside QuickJS (compiled to WebAssembly): a fresh runtime
 * and context per run, the memory and stack limits on the runtime, the time
 * limit on its interrupt handler, and a loop that runs the snippet's jobs,
 * hands it the replies of its client calls and stops at the first of: the
 * snippet's promise settled, the deadline, the call limit.
 *
 * Nothing from the host is put into the context but the two functions the
 * prelude keeps (`post`, `emit`), and they take and give strings only. Every
 * handle the run creates is disposed before the runtime is: QuickJS asserts
 * that no object outlives its runtime, so a leaked handle would abort the
 * WebAssembly module (the leak test in test/mcp counts on that).
 *
 * This module runs in the sandbox's worker thread (sandbox-worker.ts); the
 * worker is what the host kills when a built-in runs too long for the
 * interrupt handler to be asked (`Array(2 ** 32 - 1).indexOf(1)`).
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import { PRELUDE } from "./sandbox-prelude.js";
import { candidates, SNIPPET_FILE, WRAPPER_OPENING } from "./sandbox-source.js";
import type { SandboxLimits, SnippetFailure, Surface } from "./sandbox-types.js";

/** QuickJS's own stack bound: deep recursion must end as a RangeError long before the worker's stack does. */
export const DEFAULT_STACK_BYTES = 256 * 1024;
/** Log lines passed on; the rest are counted. */
export const MAX_LOG_LINES = 100;

export interface EngineJob {
  source: string;
  surface: Surface;
  limits: SandboxLimits;
}

/** How the engine reaches the host: a client call to send (its reply comes back through `deliver`), a log line. */
export interface EngineLink {
  call(id: number, path: string[], argsText: string): void;
  log(line: string): void;
}

export type EngineResult =
  | { ok: true; json: string; bytes: number }
  | { ok: false; reason: SnippetFailure; message: string; location?: { line: number; column: number } };

export interface EngineOutcome {
  result: EngineResult;
  /** Log lines the snippet wrote past MAX_LOG_LINES. */
  droppedLogs: number;
  /** The WebAssembly module is unusable (QuickJS failed on the host's own stack): the worker must go. */
  poisoned: boolean;
}

export interface EngineRun {
  deliver(id: number, text: string): void;
  readonly done: Promise<EngineOutcome>;
}

interface Described {
  name: string;
  message: string;
  host: boolean;
  refused: boolean;
  line: number;
  column: number;
}

/** Shared by the run's parts: why it must stop (set by the call limit), the calls in flight, replies not yet handed in. */
interface RunState {
  limits: SandboxLimits;
  stop: EngineResult | undefined;
  calls: number;
  inflight: number;
  logs: number;
  droppedLogs: number;
  inbox: { id: number; text: string }[];
  wake: (() => void) | undefined;
  atCeiling: () => boolean;
}

/**
 * Starts a run on `module`. `atCeiling` says whether the module's memory has reached its maximum: QuickJS
 * throws its out-of-memory error then, or `null` when even that error cannot be allocated.
 */
export function startEngineRun(module: QuickJSWASMModule, job: EngineJob, atCeiling: () => boolean, link: EngineLink): EngineRun {
  const state: RunState = { limits: job.limits, stop: undefined, calls: 0, inflight: 0, logs: 0, droppedLogs: 0, inbox: [], wake: undefined, atCeiling };
  return {
    deliver(id, text) {
      state.inbox.push({ id, text });
      state.wake?.();
    },
    done: execute(module, job, link, state),
  };
}

async function execute(module: QuickJSWASMModule, job: EngineJob, link: EngineLink, state: RunState): Promise<EngineOutcome> {
  const deadline = Date.now() + job.limits.timeMs;
  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(job.limits.memoryBytes);
    runtime.setMaxStackSize(job.limits.stackBytes ?? DEFAULT_STACK_BYTES);
    runtime.setInterruptHandler(() => state.stop !== undefined || Date.now() > deadline);
    context = runtime.newContext();
    const result = await session(runtime, context, job, link, state, deadline, handles);
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
    context.dispose();
    runtime.dispose();
    return { result, droppedLogs: state.droppedLogs, poisoned: false };
  } catch (error) {
    // QuickJS failed on the host's side (the worker's own stack overflowed inside a recursive built-in, the
    // module aborted): its state is unknown, so nothing more is asked of it, not even to free the run
    const why = error instanceof RangeError ? "its stack overflowed: the snippet nested values or calls too deeply" : "it aborted";
    const message = `the sandbox's engine failed during the run (${why}); the run was stopped and the engine replaced`;
    return { result: { ok: false, reason: "runtime", message }, droppedLogs: state.droppedLogs, poisoned: true };
  }
}

/** The run proper: the prelude, the surface, the snippet, the loop. */
async function session(
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  job: EngineJob,
  link: EngineLink,
  state: RunState,
  deadline: number,
  handles: QuickJSHandle[],
): Promise<EngineResult> {
  const keep = (handle: QuickJSHandle) => (handles.push(handle), handle);
  const api = keep(unwrap(context, context.evalCode(PRELUDE, "sandbox-prelude.js", { type: "global", strict: true })));
  // the two host functions never throw: quickjs-emscripten would turn a host exception, stack and all, into a sandbox error
  const post = keep(context.newFunction("post", (id, path, args) => context.newString(sendCall(context, state, job.limits, link, id, path, args))));
  const emit = keep(
    context.newFunction("emit", (line) => {
      if (state.logs >= MAX_LOG_LINES) state.droppedLogs++;
      else {
        state.logs++;
        link.log(context.getString(line));
      }
    }),
  );
  const prelude = keep(unwrap(context, context.callFunction(api, context.undefined, post, emit)));
  const fns = {
    install: keep(context.getProp(prelude, "install")),
    deliver: keep(context.getProp(prelude, "deliver")),
    finish: keep(context.getProp(prelude, "finish")),
    describe: keep(context.getProp(prelude, "describe")),
  };
  const surfaceText = keep(context.newString(JSON.stringify(job.surface)));
  const installed = context.callFunction(fns.install, context.undefined, surfaceText);
  if (installed.error) return failure(describe(context, fns.describe, installed.error), state, "refused");
  installed.value.dispose();

  const started = evaluate(context, fns.describe, job.source, state);
  if (!started.ok) return started.result;
  const promise = keep(started.promise);
  return await loop(runtime, context, fns, state, deadline, promise, job.limits);
}

/** A client call from the snippet: "" when it was sent, else why it was refused. */
function sendCall(context: QuickJSContext, state: RunState, limits: SandboxLimits, link: EngineLink, id: QuickJSHandle, path: QuickJSHandle, args: QuickJSHandle): string {
  if (state.calls >= limits.calls) {
    state.stop ??= {
      ok: false,
      reason: "calls",
      message: `the snippet made more than ${limits.calls} client calls (the limit): use the API's list or batch operations, or split the work into several snippets`,
    };
    return "the call limit is reached";
  }
  try {
    const sent = { id: context.getNumber(id), path: JSON.parse(context.getString(path)) as string[], args: context.getString(args) };
    state.calls++;
    state.inflight++;
    link.call(sent.id, sent.path, sent.args);
    return "";
  } catch {
    return "the call could not be sent to the host";
  }
}

/** The snippet compiled and started: its promise, or the syntax error of the last form tried. */
function evaluate(context: QuickJSContext, describeFn: QuickJSHandle, source: string, state: RunState): { ok: true; promise: QuickJSHandle } | { ok: false; result: EngineResult } {
  const forms = candidates(source);
  if (!forms.ok) return { ok: false, result: { ok: false, reason: "syntax", message: forms.message, ...(forms.location ? { location: forms.location } : {}) } };
  let last: Described | undefined;
  for (const program of forms.programs) {
    const started = context.evalCode(program, SNIPPET_FILE, { type: "global" });
    if (!started.error) return { ok: true, promise: started.value };
    last = describe(context, describeFn, started.error);
    // only a syntax error says the form was wrong: the wrapper catches everything else into the promise
    if (last.name !== "SyntaxError") return { ok: false, result: failure(last, state) };
  }
  const found = last!;
  if (/^\s*import\s*[\w{*"']/m.test(source)) {
    return { ok: false, result: { ok: false, reason: "refused", message: "import statements are not available in the sandbox: snippets have no modules, require, file system or network; use the clients in scope and console.log" } };
  }
  return { ok: false, result: { ok: false, reason: "syntax", message: found.message, ...located(found) } };
}

/** Turns the run until the snippet's promise settles or something stops it. */
async function loop(
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  fns: { deliver: QuickJSHandle; finish: QuickJSHandle; describe: QuickJSHandle },
  state: RunState,
  deadline: number,
  promise: QuickJSHandle,
  limits: SandboxLimits,
): Promise<EngineResult> {
  let jobError: Described | undefined;
  for (;;) {
    for (const reply of state.inbox.splice(0)) {
      state.inflight--;
      const id = context.newNumber(reply.id);
      const text = context.newString(reply.text);
      const handed = context.callFunction(fns.deliver, context.undefined, id, text);
      id.dispose();
      text.dispose();
      if (handed.error) jobError = describe(context, fns.describe, handed.error);
      else handed.value.dispose();
    }
    const ran = runtime.executePendingJobs();
    if (ran.error) jobError = describe(context, fns.describe, ran.error);
    if (state.stop) return state.stop;
    if (Date.now() > deadline) return timedOut(limits);
    const settled = context.getPromiseState(promise);
    if (settled.type === "fulfilled") {
      const value = settled.value;
      try {
        return result(context, fns, value, limits, state, deadline);
      } finally {
        if (!settled.notAPromise) value.dispose();
      }
    }
    if (settled.type === "rejected") return failure(describe(context, fns.describe, settled.error), state);
    if (runtime.hasPendingJob()) continue;
    if (jobError) return failure(jobError, state);
    if (state.inflight === 0 && state.inbox.length === 0) {
      return { ok: false, reason: "runtime", message: "the snippet is waiting for a promise that nothing will settle (the sandbox has no timers or events: only client calls settle)" };
    }
    await nextReply(state, deadline);
  }
}

function nextReply(state: RunState, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()) + 1);
    function done() {
      clearTimeout(timer);
      state.wake = undefined;
      resolve();
    }
    state.wake = done;
    if (state.inbox.length > 0) done();
  });
}

/** The fulfilled value as JSON text, within the result limit. */
function result(
  context: QuickJSContext,
  fns: { finish: QuickJSHandle; describe: QuickJSHandle },
  value: QuickJSHandle,
  limits: SandboxLimits,
  state: RunState,
  deadline: number,
): EngineResult {
  const limit = context.newNumber(limits.resultBytes);
  const finished = context.callFunction(fns.finish, context.undefined, value, limit);
  limit.dispose();
  if (state.stop) {
    if (finished.error) finished.error.dispose();
    else finished.value.dispose();
    return state.stop;
  }
  if (finished.error) {
    if (Date.now() > deadline) {
      finished.error.dispose();
      return timedOut(limits);
    }
    return failure(describe(context, fns.describe, finished.error), state);
  }
  const text = finished.value;
  try {
    if (context.typeof(text) === "number") return tooBig(`more than ${context.getNumber(text)}`, limits);
    const length = context.getProp(text, "length");
    const units = context.getNumber(length);
    length.dispose();
    // a UTF-8 byte count is never below the UTF-16 length: a string this long is over without copying it out
    if (units > limits.resultBytes) return tooBig(`at least ${units}`, limits);
    const json = context.getString(text);
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > limits.resultBytes) return tooBig(String(bytes), limits);
    return { ok: true, json, bytes };
  } finally {
    text.dispose();
  }
}

function tooBig(size: string, limits: SandboxLimits): EngineResult {
  return {
    ok: false,
    reason: "result-size",
    message: `the result is ${size} bytes of JSON, over the limit of ${limits.resultBytes} bytes: return fewer items (page through the list) or select the fields you need`,
  };
}

function timedOut(limits: SandboxLimits): EngineResult {
  return { ok: false, reason: "timeout", message: `the snippet ran past its time limit of ${limits.timeMs} ms (time spent waiting for client calls counts): make fewer calls or ask for less` };
}

/** An error value read inside the sandbox (by the prelude's describe), then disposed. */
function describe(context: QuickJSContext, describeFn: QuickJSHandle, error: QuickJSHandle): Described {
  try {
    const read = context.callFunction(describeFn, context.undefined, error);
    if (read.error) {
      read.error.dispose();
      return fallback(context, error);
    }
    const text = context.getString(read.value);
    read.value.dispose();
    return JSON.parse(text) as Described;
  } finally {
    error.dispose();
  }
}

/** When describe itself fails (the heap is full, most likely): QuickJS's own reading of the error. */
function fallback(context: QuickJSContext, error: QuickJSHandle): Described {
  let dumped: unknown;
  try {
    dumped = context.dump(error);
  } catch {
    dumped = undefined;
  }
  const record = typeof dumped === "object" && dumped !== null ? (dumped as Record<string, unknown>) : {};
  const message = typeof record.message === "string" ? record.message : String(dumped ?? "an error that could not be read");
  return { name: typeof record.name === "string" ? record.name : "Error", message, host: false, refused: false, line: 0, column: 0 };
}

/** The error's place in the snippet: on the first line, the wrapper's opening (sandbox-source.ts) is not counted. */
function located(found: Described): { location?: { line: number; column: number } } {
  if (found.line <= 0) return {};
  return { location: { line: found.line, column: found.line === 1 ? Math.max(1, found.column - WRAPPER_OPENING) : found.column } };
}

/** What a thrown error means for the run. */
function failure(found: Described, state: RunState, reason?: SnippetFailure): EngineResult {
  const outOfMemory = found.name === "InternalError" && found.message === "out of memory";
  // QuickJS throws null when it cannot even allocate its error: with the heap at its ceiling, that is memory
  if (outOfMemory || (found.name === "" && found.message === "null" && state.atCeiling())) {
    const size = `${Math.round((state.limits.memoryBytes / 1024 / 1024) * 10) / 10} MiB`;
    return { ok: false, reason: "memory", message: `the snippet went over its memory limit of ${size}: work on fewer items at a time (page the calls or select fields)` };
  }
  if (found.refused) return { ok: false, reason: "refused", message: found.message };
  // a client's error is the client's message, as the host wrote it
  if (found.host) return { ok: false, reason: reason ?? "runtime", message: found.message };
  const missing = /^'([^']+)' is not defined$/.exec(found.message);
  if (found.name === "ReferenceError" && missing && HOST_ONLY.has(missing[1]!)) {
    return { ok: false, reason: "refused", message: `${missing[1]} is not available in the sandbox: snippets run in QuickJS with no process, modules, file system or network; use the clients and console.log`, ...located(found) };
  }
  if (found.name === "ReferenceError" && /^could not load module/.test(found.message)) {
    return { ok: false, reason: "refused", message: `import() is not available in the sandbox (${found.message}): use the clients and console.log`, ...located(found) };
  }
  if (found.name === "InternalError" && found.message === "stack overflow") {
    return { ok: false, reason: "runtime", message: "InternalError: stack overflow (recursion too deep)", ...located(found) };
  }
  const named = found.name === "" || found.name === "Error" ? found.message : `${found.name}: ${found.message}`;
  return { ok: false, reason: reason ?? "runtime", message: named, ...located(found) };
}

/** Globals of Node, browsers and other runtimes that a snippet may reach for and the sandbox does not have. */
const HOST_ONLY = new Set([
  "process", "require", "module", "exports", "__dirname", "__filename", "Buffer", "global",
  "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "navigator", "window", "document", "location",
  "setTimeout", "setInterval", "setImmediate", "queueMicrotask", "structuredClone",
  "Deno", "Bun", "WebAssembly", "Worker", "importScripts",
]);

function unwrap(context: QuickJSContext, result: ReturnType<QuickJSContext["evalCode"]>): QuickJSHandle {
  if (!result.error) return result.value;
  const text = JSON.stringify(context.dump(result.error));
  result.error.dispose();
  throw new Error(`internal: the sandbox prelude failed: ${text}`);
}
