/**
 * OpenRPC 1.4.x: read by the 1.3 meta-schema's rules (@open-rpc/meta-schema
 * lists versions up to 1.3.2 only), through the real CLI; a version neither
 * lists nor matches is one positioned diagnostic.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "avaspec-openrpc-14-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;
const doc = (openrpc: string, method: Record<string, unknown> = {}) => ({
  openrpc,
  info: { title: "Echo", version: "1.0.0" },
  methods: [{ name: "echo", params: [{ name: "msg", required: true, schema: { type: "string" } }], result: { name: "r", schema: { type: "string" } }, ...method }],
});
const generate = (d: unknown) => {
  const file = join(dir, `d${++runs}.json`);
  writeFileSync(file, JSON.stringify(d, null, 2));
  return runCli(["generate", "--input", file, "--out", join(dir, `out${runs}`)], dir);
};

describe("OpenRPC 1.4", () => {
  it.each(["1.4.0", "1.4.1", "1.4.12", "1.3.2", "1.2.6"])("openrpc %s generates", (v) => {
    const r = generate(doc(v));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.each(["1.5.0", "1.4", "1.4.0-rc1", "2.0.0"])("openrpc %s is one diagnostic at #/openrpc", (v) => {
    const r = generate(doc(v));
    expect(r.status).not.toBe(0);
    // a version not of the form 1.x.y is refused before the meta-schema runs, by the same code
    expect(r.stderr).toMatch(/d\d+\.json:2:3 at #\/openrpc: unsupported (or missing )?"openrpc" version.* \[openrpc\/version\]/);
    expect(r.stderr.match(/at #\/openrpc/g)).toHaveLength(1);
  });

  it("the 1.3 rules still hold in a 1.4 document: an unknown member of a method is refused where it is", () => {
    const r = generate(doc("1.4.0", { paramsStructure: "by-name" }));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/d\d+\.json:\d+:\d+ at #\/methods\/0: does not match the OpenRPC meta-schema: must NOT have additional properties \("paramsStructure"\) \[openrpc\/meta-schema\]/);
  });
});
