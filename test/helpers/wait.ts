/** Waits until `cond` holds, checking every 5 ms; fails after `ms` naming what it waited for. */
export async function until(cond: () => boolean, ms = 3000, what = "condition"): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
