/** Runs `total` calls through `workers` loops that each await one call at a time; resolves with the failures. */
export async function runLoop(total: number, workers: number, call: (i: number) => Promise<unknown>): Promise<unknown[]> {
  let next = 0;
  const failures: unknown[] = [];
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < total) {
        const i = next++;
        await call(i).catch((error: unknown) => failures.push(error));
      }
    }),
  );
  return failures;
}
