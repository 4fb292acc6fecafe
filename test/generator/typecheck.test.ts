/** Every generated package (ours and each fixture's golden) type-checks with the real tsc in strict mode. */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const packages = ["generated", ...readdirSync(join(ROOT, "test/fixtures")).map((f) => `test/fixtures/${f}/golden`).filter((d) => existsSync(join(ROOT, d, "tsconfig.json")))];

describe.each(packages)("%s", (dir) => {
  it("passes tsc --strict --noEmit", () => {
    const r = spawnSync(process.execPath, [TSC, "-p", join(ROOT, dir, "tsconfig.json"), "--noEmit"], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
