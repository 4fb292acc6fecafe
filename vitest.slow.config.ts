import { defineConfig } from "vitest/config";
import base, { SLOW_SUITES } from "./vitest.config.js";

/**
 * `npm run test:slow`: the suites that take longest on two cores (a generated
 * package installed and built on its own, random documents through the whole
 * chain, large generated specs, signals sent at every moment of a write, the
 * spec documents across their git history). `npm test` leaves them out to
 * stay under four minutes; `.ci/run` runs both. The same settings otherwise
 * (not mergeConfig, which would add to the lists rather than replace them).
 */
export default defineConfig({ ...base, test: { ...base.test, include: [...SLOW_SUITES], exclude: ["**/node_modules/**"] } });
