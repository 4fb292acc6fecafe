/**
 * Golden files: the committed generated/ and every fixture's golden/ must be
 * exactly what the generator produces now, and generating twice is identical.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inputPath, loadConfig } from "../../generator/config.js";
import { generate } from "../../generator/generate.js";
import { checkTree } from "../../generator/write.js";
import { ROOT, runCli } from "../helpers/cli.js";

const fixtures = readdirSync(join(ROOT, "test/fixtures")).filter((d) => existsSync(join(ROOT, "test/fixtures", d, "avaspec.config.json")));
const configs = ["avaspec.config.json", ...fixtures.map((f) => `test/fixtures/${f}/avaspec.config.json`)];

describe.each(configs)("%s", (configFile) => {
  const config = loadConfig(join(ROOT, configFile));
  const first = generate(config);

  it("generates without diagnostics", () => {
    expect(first.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(first.files.size).toBeGreaterThan(5);
  });

  it("matches the committed output byte for byte", () => {
    expect(checkTree(inputPath(config, config.out), first.files)).toEqual({ changed: [], missing: [], extra: [] });
  });

  it("is deterministic: a second run gives identical bytes", () => {
    const second = generate(loadConfig(join(ROOT, configFile)));
    expect([...second.files.keys()]).toEqual([...first.files.keys()]);
    for (const [path, text] of first.files) expect(second.files.get(path), path).toBe(text);
  });

  it("puts no timestamps or machine paths in the output", () => {
    for (const [path, text] of first.files) {
      expect(text, path).not.toContain(ROOT);
      // spec examples may hold dates; the generator's own header must not
      const header = text.split("\n").filter((l) => l.startsWith("// ")).slice(0, 2).join("\n");
      expect(header, path).not.toMatch(/\d{4}-\d\d-\d\d|\d\d:\d\d/);
    }
  });
});

describe("IR", () => {
  it("matches the pinned IR dump of the petstore fixture", () => {
    const config = loadConfig(join(ROOT, "test/fixtures/petstore-30/avaspec.config.json"));
    const { irs } = generate(config);
    const pinned = readFileSync(join(ROOT, "test/fixtures/petstore-30/ir.json"), "utf8");
    expect(JSON.stringify(irs, null, 2) + "\n").toBe(pinned);
  });

  it("keeps a JSON pointer on every schema, parameter, response and operation", () => {
    const { irs } = generate(loadConfig(join(ROOT, "avaspec.config.json")));
    const missing: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${path}/${i}`));
      else if (typeof node === "object" && node !== null) {
        const o = node as Record<string, unknown>;
        if (typeof o["kind"] === "string" && o["kind"] !== "document" && typeof o["pointer"] !== "string") missing.push(path);
        for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
      }
    };
    walk(irs, "");
    expect(missing).toEqual([]);
  });

  it("--dump-ir writes the IR as JSON", () => {
    const out = join(ROOT, "node_modules/.cache-avaspec-ir.json");
    const r = runCli(["generate", "--check", "--dump-ir", out]);
    expect(r.status).toBe(0);
    const dumped = JSON.parse(readFileSync(out, "utf8")) as { kind: string; operations: unknown[] }[];
    expect(dumped.map((d) => d.kind)).toEqual(["document", "document", "document"]);
    // every operation of the real Data API (81) and Metrics API (16, plus the requirement's 2) documents (issue 27)
    expect(dumped.map((d) => d.operations.length).slice(0, 2)).toEqual([81, 18]);
    // 13 admin + 13 info + 3 health + 31 platform + 11 avm + 1 wallet + 3×2 proposervm + 5×6 indexer + 80 C-Chain
    // eth/net/web3/txpool/debug + 6 C admin + 5 native + 4 avax, + 4 HTTP health (issue 27), + a Subnet-EVM L1's 65 at
    // /ext/bc/{blockchainId}/rpc (11 of its own, 54 shared with the C-Chain) and 1 at /validators
    expect(dumped[2]!.operations.length).toBe(13 + 13 + 3 + 31 + 11 + 1 + 6 + 30 + 80 + 6 + 5 + 4 + 4 + 65 + 1);
  });
});
