/**
 * mulberry32: a small, well-known seeded 32-bit PRNG, so seeded tests (the
 * property test, the APIs.guru sample, the writer comparison) draw the same
 * values on every machine and Node version. (The generated runtime has its
 * own copy in runtime/mock.ts: a generated package depends on nothing here.)
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
