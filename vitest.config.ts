import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Tests import the generated package by its public name, from source.
    alias: [{ find: /^@avaspec\/client(\/.*)?$/, replacement: fileURLToPath(new URL("./generated/src$1", import.meta.url)) }],
  },
  test: {
    include: ["test/**/*.test.ts", "runtime/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // third-party tools, installed on their own: `npm run test:interop`; real-world documents (minutes): `npm run test:corpus`
    exclude: ["test/interop/**", "test/corpus/**", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
