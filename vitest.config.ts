import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The slowest suites, run by `npm run test:slow` (vitest.slow.config.ts) instead of `npm test`. */
export const SLOW_SUITES = [
  "test/generator/standalone.test.ts",
  "test/property/random-specs.test.ts",
  "test/generator/scale.test.ts",
  "test/generator/write-signals.test.ts",
  "test/generator/diff-history.test.ts",
  // the house rules (layers, sizes) copy and scan the whole generator; the property run found its bugs and keeps guarding them
  "test/generator/layers.test.ts",
  "test/generator/sizes.test.ts",
  "test/generator/property-found.test.ts",
  // every generated package's README examples through the real tsc, one run per package (about 25 s on two cores)
  "test/generator/readme-examples.test.ts",
  // links and crafted manifests in the output folder, each through the real CLI (about 15 s); a 400-operation package through the TypeScript parser (about 9 s)
  "test/generator/write-links.test.ts",
  "test/generator/compile-cost.test.ts",
];

export default defineConfig({
  resolve: {
    // Tests import the generated package by its public name, from source.
    alias: [{ find: /^@avaspec\/client(\/.*)?$/, replacement: fileURLToPath(new URL("./generated/src$1", import.meta.url)) }],
  },
  test: {
    include: ["test/**/*.test.ts", "runtime/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // third-party tools, installed on their own: `npm run test:interop`; real-world documents (minutes): `npm run test:corpus`;
    // the slowest suites: `npm run test:slow`
    exclude: ["test/interop/**", "test/corpus/**", "**/node_modules/**", ...SLOW_SUITES],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // vitest's default is one worker fewer than the CPUs: a single worker on the two-core machines CI runs on, where
    // most suites wait on child processes (the CLI, tsc) and a second worker nearly halves the wall time
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
