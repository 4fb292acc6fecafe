import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:corpus`: real-world documents from npm (test/corpus/package.json) generated and type-checked.
export default defineConfig({
  root: fileURLToPath(new URL("../../", import.meta.url)),
  test: {
    include: ["test/corpus/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    exclude: ["test/corpus/.out/**", "**/node_modules/**"],
    // per document in corpus.test.ts; GitHub's takes minutes (apis-guru.test.ts sets its own, longer, on its beforeAll)
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: "forks",
    // one file at a time: each runs its documents one or two at a time, and tsc on the largest takes gigabytes
    fileParallelism: false,
  },
});
