/**
 * Issue 19, real history for `avaspec diff`: two releases of the Ethereum
 * execution-apis OpenRPC document (test/diff/data, CC0-1.0; the methods
 * removed and added between them were counted independently when the
 * snapshots were made, see its README), and this repository's own spec
 * documents across its git history (`--base`).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Change } from "../../generator/diff/index.js";
import { ROOT, hasCommit, runCli } from "../helpers/cli.js";

interface Report {
  version: number;
  changes: Change[];
  summary: Record<string, number>;
}
const report = (args: string[]): Report => {
  const r = runCli(["diff", ...args, "--format", "json"]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
};

describe("execution-apis v1.0.0-beta.3 → v1.0.0-beta.4", () => {
  const data = (tag: string) => join(ROOT, `test/diff/data/execution-apis-${tag}.openrpc.json`);
  const r = report([data("v1.0.0-beta.3"), data("v1.0.0-beta.4")]);
  const rules = (rule: string) => r.changes.filter((c) => c.rule === rule);

  it("finds the 5 removed proof-of-work methods and the 7 new ones, as counted when the snapshots were made", () => {
    expect(rules("method-removed").map((c) => c.operation).sort()).toEqual(["eth_getWork", "eth_hashrate", "eth_mining", "eth_submitHashrate", "eth_submitWork"]);
    expect(rules("method-added").map((c) => c.operation).sort()).toEqual(["engine_forkchoiceUpdatedV3", "engine_getPayloadV3", "engine_getPayloadV4", "engine_newPayloadV3", "engine_newPayloadV4", "eth_blobBaseFee", "eth_getBlockReceipts"]);
    for (const c of rules("method-removed")) expect(c.class).toBe("breaking-wire");
  });

  it("the block parameter that became required is a wire break", () => {
    expect(rules("param-became-required").map((c) => c.operation).sort()).toEqual(expect.arrayContaining(["eth_getBalance", "eth_getCode", "eth_getStorageAt", "eth_getTransactionCount"]));
  });

  it("every change has its places in both snapshots", () => {
    for (const c of r.changes) {
      if (c.old) expect(c.old.file).toMatch(/beta\.3\.openrpc\.json$/);
      if (c.new) expect(c.new.file).toMatch(/beta\.4\.openrpc\.json$/);
    }
    expect(r.summary["breaking-wire"]).toBeGreaterThan(0);
    expect(r.summary["addition"]).toBeGreaterThan(0);
  });
});


describe.skipIf(!hasCommit("357391d"))("this repository's spec documents across its history (skipped in a shallow clone)", () => {
  const specs = execFileSync("git", ["ls-files", "spec/*.yaml"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
  // the first commit of each document, and the commit before issue 17 (the number policy)
  const first = (file: string) => execFileSync("git", ["log", "--format=%h", "--diff-filter=A", "--", file], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").at(-1)!;

  it.each(specs)("%s against its first version: builds both sides, every change classed", (file) => {
    // the L1 document's $refs into the C-Chain document, as the config allows them
    const r = report([file, "--base", first(file), "--allow-ref", "spec/"]);
    const classes = new Set(["breaking-wire", "breaking-code", "deprecation", "addition", "documentation"]);
    for (const c of r.changes) expect(classes.has(c.class)).toBe(true);
  });

  it("the number policy (issue 17) is a breaking-code change of the node documents, and no wire change of the P-Chain's methods", () => {
    const r = report(["spec/node-platform.openrpc.yaml", "--base", "357391d"]);
    expect(r.summary["breaking-code"]).toBeGreaterThan(0);
    expect(r.changes.filter((c) => c.class === "breaking-wire")).toEqual([]);
    expect(new Set(r.changes.filter((c) => c.class === "breaking-code").map((c) => c.rule))).toEqual(new Set(["integer-marked"]));
  });

  it("--base without files diffs every document of the config, each against that revision", () => {
    const r = runCli(["diff", "--base", "357391d", "--format", "json"]);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { version: number; documents: { file: string; changes: Change[]; summary: Record<string, number> }[] };
    expect(json.version).toBe(1);
    // every document the config generates, which is every document of spec/ (the L1's too, with their $refs, issue 27)
    const config = JSON.parse(readFileSync(join(ROOT, "avaspec.config.json"), "utf8")) as { inputs: { spec?: string; specs?: { spec: string }[] }[] };
    const configured = config.inputs.flatMap((i) => (i.spec ? [i.spec] : (i.specs ?? []).map((s) => s.spec)));
    expect(json.documents.map((d) => d.file).sort()).toEqual(configured.sort());
    expect(specs.filter((f) => !configured.includes(f))).toEqual([]);
    const platform = json.documents.find((d) => d.file === "spec/node-platform.openrpc.yaml")!;
    expect(platform.summary["breaking-code"]).toBeGreaterThan(0);
    expect(runCli(["diff", "--base", "357391d", "--fail-on", "breaking-code"]).status).toBe(1);
  });

  it("the C-Chain's widened hex patterns (issue 16) are not reported as breaks", () => {
    const r = report(["spec/node-cchain-rpc.openrpc.yaml", "--base", first("spec/node-cchain-rpc.openrpc.yaml")]);
    expect(r.changes.filter((c) => c.rule === "request-pattern-changed" && c.class === "breaking-wire")).toEqual([]);
    // each shared schema once (Uint, Hash32, …: nine of them), not once per method that reaches it
    expect(r.changes.filter((c) => c.rule === "request-pattern-changed").length).toBeGreaterThanOrEqual(9);
  });
});
