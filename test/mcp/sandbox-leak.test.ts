/**
 * Many runs in a row on one worker do not grow its memory: counted, not timed.
 *
 * The engine's WebAssembly memory has a fixed maximum (its base and the run's
 * memory limit), so a leak cannot grow it without bound; it would show as a
 * run that needs most of the heap failing sooner or later. And QuickJS
 * asserts, when a runtime is freed, that none of its objects is still
 * referenced: a handle the engine forgot to dispose aborts the module, which
 * the worker reports and the pool replaces (a worker or module more).
 */
import { afterAll, expect, it } from "vitest";
import { closeSandbox, runSnippet, sandboxStats } from "../../runtime/mcp/sandbox.js";
import { makeHost, surface } from "./sandbox-host.js";

afterAll(() => closeSandbox());

const limits = { memoryBytes: 4 * 1024 * 1024, timeMs: 5_000 };

/** A run that holds `n` small objects at once, then returns their count. */
const heavy = (n: number) => `const kept = []; for (let i = 0; i < ${n}; i++) kept.push({ i, s: "v" + i }); return kept.length`;

it("360 runs of every kind, each beside a run that needs most of the heap, leave the worker, its module and its memory as they were", async () => {
  const { host } = makeHost();
  // the most objects a run can hold: the first count that fails, by doubling and bisecting
  let fits = 1_000;
  let fails = 0;
  while (fails === 0) {
    const outcome = await runSnippet(heavy(fits * 2), surface, host, limits);
    if (outcome.ok) fits *= 2;
    else fails = fits * 2;
  }
  while (fails - fits > fits / 32) {
    const middle = Math.floor((fits + fails) / 2);
    if ((await runSnippet(heavy(middle), surface, host, limits)).ok) fits = middle;
    else fails = middle;
  }
  const load = Math.floor(fits * 0.9);
  expect(await runSnippet(heavy(load), surface, host, limits)).toMatchObject({ ok: true, result: load });
  const before = sandboxStats();

  const kinds = [
    "await node.platform.getHeight({})",
    "throw new Error('no')",
    "const = 1",
    "while (true) {}",
    "await data.fail({})",
    "return Array(1e5).fill('xxxxxxxxxx')",
    "for (;;) await node.platform.getHeight({})",
    "for (let i = 0; i < 500; i++) console.log(i); return 1",
    "await new Promise(() => {})",
    "const o = {}; o.self = o; return o",
    // a result of 120 kB: a result text the engine forgot to free would fill the heap within the rounds
    "return 'x'.repeat(120_000)",
  ];
  let runs = 0;
  for (let round = 0; round < 30; round++) {
    for (const source of kinds) {
      await runSnippet(source, surface, host, { ...limits, timeMs: source.startsWith("while") ? 50 : limits.timeMs, calls: 5 });
      runs++;
    }
    expect(await runSnippet(heavy(load), surface, host, limits)).toMatchObject({ ok: true, result: load });
    runs++;
  }
  const after = sandboxStats();
  expect(runs).toBe(360);
  expect(after.workersStarted).toBe(before.workersStarted);
  expect(after.workersStopped).toBe(before.workersStopped);
  expect(after.engine!.runs).toBe(before.engine!.runs + runs);
  expect(after.engine!.modules).toBe(before.engine!.modules);
  expect(after.engine!.wasmBytes).toBe(before.engine!.wasmBytes);
});
