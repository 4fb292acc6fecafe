/**
 * avaspec's public module: what an `avaspec.config.ts` imports.
 *
 *   import { defineConfig } from "avaspec";
 *   export default defineConfig({ out: "client", package: { name: "my-client" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api" }] });
 */
export { defineConfig, TARGETS } from "./config.js";
export type { Config, InputConfig, PackageConfig, SpecEntry, Target } from "./config.js";
