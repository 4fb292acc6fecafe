import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:interop`: third-party tools run for real against the specs and the packed package.
export default defineConfig({
  root: fileURLToPath(new URL("../../", import.meta.url)),
  resolve: {
    // the generated package by its public name, from source (as in the main suite)
    alias: [{ find: /^@avaspec\/client(\/.*)?$/, replacement: fileURLToPath(new URL("../../generated/src$1", import.meta.url)) }],
  },
  test: {
    include: ["test/interop/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
