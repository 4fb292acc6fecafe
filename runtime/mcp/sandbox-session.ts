/// <reference types="node" />
/**
 * One run as the host sees it: a worker taken from the pool, the snippet
 * sent, the snippet's client calls run on the host and answered, its log
 * lines collected, and a hard stop when the worker does not finish in time
 * (a built-in that never asks the interrupt handler keeps the worker's
 * thread; the host's timer terminates it). It resolves once, with the
 * outcome, and never rejects.
 */
import { setMaxListeners } from "node:events";
import type { Worker } from "node:worker_threads";
import type { EngineResult } from "./sandbox-engine.js";
import { acquireWorker, releaseWorker, stopWorker } from "./sandbox-pool.js";
import type { FromWorker, ToWorker } from "./sandbox-worker.js";
import type { HostCall, SandboxLimits, SnippetOutcome, Surface } from "./sandbox-types.js";
import { agentResult, errorText, isMethod, messageOf, parseArgs, redact, replyText, SandboxRefusal } from "./sandbox-wire.js";

/** How long after the time limit the host stops a worker that has not answered. */
const GRACE_MS = 1_000;
/** How long a worker may take to load its engine before the run is given up. */
const BOOT_MS = 30_000;

let runs = 0;

export interface SessionInput {
  source: string;
  surface: Surface;
  host: HostCall;
  limits: SandboxLimits;
  secrets: readonly string[];
}

export function runInWorker(input: SessionInput): Promise<SnippetOutcome> {
  return new Promise((resolve) => {
    const run = ++runs;
    const worker = acquireWorker();
    const aborts = new AbortController();
    // every client call of the run listens to it (the host passes it to the client): up to the call limit at once
    setMaxListeners(input.limits.calls + 10, aborts.signal);
    const logs: string[] = [];
    let calls = 0;
    let over = false;
    let hardStop: ReturnType<typeof setTimeout> | undefined;
    const boot = setTimeout(() => end(stopped("runtime", `the sandbox did not start within ${BOOT_MS / 1000} s`)), BOOT_MS);

    function end(result: EngineResult, done?: Extract<FromWorker, { type: "done" }>): void {
      if (over) return;
      over = true;
      clearTimeout(boot);
      clearTimeout(hardStop);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      aborts.abort();
      if (done) releaseWorker(worker, !done.poisoned, done.stats);
      else stopWorker(worker);
      if (done && done.droppedLogs > 0) logs.push(`… ${done.droppedLogs} more log line(s) dropped (the log keeps the first ${logs.length})`);
      resolve(outcome(result, input.secrets, calls, logs));
    }
    function onMessage(message: FromWorker): void {
      if (message.run !== run) return;
      if (message.type === "started") {
        clearTimeout(boot);
        hardStop = setTimeout(() => end(stopped("timeout", `the snippet ran past its time limit of ${input.limits.timeMs} ms and was stopped (it was inside a long built-in operation)`)), input.limits.timeMs + GRACE_MS);
      } else if (message.type === "log") logs.push(redact(message.line, input.secrets));
      else if (message.type === "call") {
        calls++;
        void answer(input, message.path, message.args, aborts.signal).then((text) => {
          if (!over) send(worker, { type: "settle", run, id: message.id, text });
        });
      } else end(message.result, message);
    }
    function onError(error: Error): void {
      const code = (error as { code?: unknown }).code;
      if (code === "ERR_WORKER_OUT_OF_MEMORY") end(stopped("memory", "the sandbox's worker ran out of memory and was stopped"));
      else end(stopped("runtime", `the sandbox's worker failed and was stopped: ${error.message}`));
    }
    function onExit(code: number): void {
      end(stopped("runtime", `the sandbox's worker stopped (exit code ${code})`));
    }
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    send(worker, { type: "run", run, job: { source: input.source, surface: input.surface, limits: input.limits } });
  });
}

function send(worker: Worker, message: ToWorker): void {
  worker.postMessage(message);
}

function stopped(reason: "runtime" | "timeout" | "memory", message: string): EngineResult {
  return { ok: false, reason, message };
}

/** One client call, run on the host: the reply text for the prelude (never a rejection). */
async function answer(input: SessionInput, path: string[], argsText: string, signal: AbortSignal): Promise<string> {
  let value: unknown;
  try {
    if (!isMethod(input.surface, path)) throw new SandboxRefusal(`${path.join(".")} is not a client method`);
    const args = parseArgs(argsText);
    value = await input.host(path, args, signal);
  } catch (error) {
    return errorText(error, input.secrets);
  }
  // the reply must fit the sandbox's heap with room for the snippet's work on it
  return replyText(value, input.secrets, Math.floor(input.limits.memoryBytes / 4));
}

function outcome(result: EngineResult, secrets: readonly string[], calls: number, logs: string[]): SnippetOutcome {
  if (!result.ok) {
    const message = redact(result.message, secrets);
    return { ok: false, reason: result.reason, message, calls, logs, ...(result.location ? { location: result.location } : {}) };
  }
  try {
    const { result: value, bytes } = agentResult(result.json, result.bytes, secrets);
    return { ok: true, result: value, resultBytes: bytes, calls, logs };
  } catch (error) {
    return { ok: false, reason: "runtime", message: `the result could not be read: ${redact(messageOf(error), secrets)}`, calls, logs };
  }
}
