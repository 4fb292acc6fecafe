/**
 * Issue 32 (1): `x-avaspec-limits`, the limits a service declares, is checked
 * before anything is generated: every malformed member is an
 * `extension/limits` error at its pointer (`file:line:col at #/pointer`), the
 * run exits 1 and writes nothing. The extension's JSON Schema
 * (docs/extensions/x-avaspec-limits.schema.json, for other tools) refuses
 * the same values (test/spec/limits-declared.test.ts holds spec/ to it).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yaml from "js-yaml";
import { readLimits } from "../../generator/validate/limits.js";
import { parseDiagnostics, ROOT, runCli } from "../helpers/cli.js";

const BAD_DOCUMENT = {
  pool: "avacloud",
  unit: "compute units",
  plans: {
    free: { quotas: [{ quota: 8000, window: 60 }, { quota: 100, window: 60 }] },
    pro: { quotas: [{ quota: -1, window: 60 }] },
    base: { quotas: [{ quota: 10, window: 0.5 }], apiKey: "no" },
  },
  batch: { maxItems: 0, maxBytes: 10 },
  range: { from: "a", to: "b", unit: "blocks" },
  signals: { quota: { status: [200], retryAfter: "yes" }, slow: { status: [429] }, batch: { messages: ["batch (too large"] }, rate: { headers: ["Rate Limit"] } },
};

describe("x-avaspec-limits", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "avaspec-limits-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a malformed value in an OpenAPI document is an extension/limits error at its pointer; nothing is written", () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "Limits", version: "1" },
      "x-avaspec-limits": BAD_DOCUMENT,
      servers: [{ url: "https://example.test", "x-avaspec-limits": { batch: "40" } }],
      paths: {
        "/things": { get: { operationId: "listThings", "x-avaspec-limits": { cost: 0, plans: {} }, responses: { "200": { description: "ok" } } } },
        "/other": { get: { operationId: "other", "x-avaspec-limits": 20, responses: { "200": { description: "ok" } } } },
      },
    };
    writeFileSync(join(dir, "doc.json"), JSON.stringify(doc, null, 2));
    const r = runCli(["generate", "--input", "doc.json", "--out", "out"], dir);
    expect(r.status).toBe(1);
    expect(existsSync(join(dir, "out"))).toBe(false);
    const found = parseDiagnostics(r.stderr).filter((d) => d.code === "extension/limits").map((d) => [d.pointer, d.message.replace(/^x-avaspec-limits: /, "")]);
    expect(found).toEqual([
      ["#/x-avaspec-limits/unit", 'unit must be a name (letters, digits, "-", "_", "."), got "compute units"'],
      ["#/x-avaspec-limits/plans/free/quotas/1/window", "two quotas for a window of 60 s"],
      ["#/x-avaspec-limits/plans/pro/quotas/0/quota", "quota must be a number of units above 0, got -1"],
      ["#/x-avaspec-limits/plans/base/quotas/0/window", "window must be whole seconds above 0 (60: a minute, 86400: a day), got 0.5"],
      ["#/x-avaspec-limits/plans/base/apiKey", 'apiKey must be true or false (false: the budget of requests without a key), got "no"'],
      ["#/x-avaspec-limits/batch/maxItems", "batch.maxItems must be a whole number above 0, got 0"],
      ["#/x-avaspec-limits/batch/maxBytes", 'batch has no member "maxBytes" (known: maxItems, maxResponseBytes)'],
      ["#/x-avaspec-limits/range", "range belongs in an operation's x-avaspec-limits"],
      ["#/x-avaspec-limits/signals/quota/status/0", "status holds HTTP error statuses (400–599), got 200"],
      ["#/x-avaspec-limits/signals/quota/retryAfter", 'retryAfter must be true (the server sends Retry-After with it) or left out, got "yes"'],
      ["#/x-avaspec-limits/signals/slow", 'signals has no limit "slow" (known: quota, rate, batch, range, results, responseSize)'],
      ["#/x-avaspec-limits/signals/batch/messages/0", 'messages holds regular expressions matched against the error message (case-insensitive), got "batch (too large"'],
      ["#/x-avaspec-limits/signals/rate/headers/0", 'headers holds HTTP header names, got "Rate Limit"'],
      ["#/servers/0/x-avaspec-limits/batch", 'batch must be { maxItems?, maxResponseBytes? }, got "40"'],
      ["#/paths/~1things/get/x-avaspec-limits/cost", "cost must be a number above 0 (in the document's unit), got 0"],
      ["#/paths/~1things/get/x-avaspec-limits/plans", "plans belongs in a document's or server's x-avaspec-limits"],
      ["#/paths/~1other/get/x-avaspec-limits", "must be an object, got 20"],
    ]);
    // file:line:col at the pointer
    expect(r.stderr).toMatch(/doc\.json:\d+:\d+ at #\/x-avaspec-limits\/plans\/pro\/quotas\/0\/quota: /);
  });

  it("an OpenRPC method's range names its params; a wrong one is an error at its pointer", () => {
    const doc = {
      openrpc: "1.3.2",
      info: { title: "Logs", version: "1" },
      "x-avaspec-limits": { batch: { maxItems: 40 } },
      methods: [
        {
          name: "eth_getLogs",
          params: [{ name: "filter", required: true, schema: { type: "object" } }],
          result: { name: "logs", schema: { type: "array" } },
          "x-avaspec-limits": { cost: 200, range: { from: "filter.fromBlock", to: "query.toBlock", unit: "blocks", maxSpan: 2048 } },
        },
        { name: "eth_chainId", params: [], result: { name: "id", schema: { type: "string" } }, "x-avaspec-limits": { range: { from: "a", to: "b", unit: "days" } } },
      ],
    };
    writeFileSync(join(dir, "rpc.json"), JSON.stringify(doc, null, 2));
    const r = runCli(["generate", "--input", "rpc.json", "--out", "out-rpc"], dir);
    expect(r.status).toBe(1);
    expect(existsSync(join(dir, "out-rpc"))).toBe(false);
    expect(parseDiagnostics(r.stderr).map((d) => [d.code, d.pointer, d.message])).toEqual([
      ["extension/limits", "#/methods/0/x-avaspec-limits/range/to", 'x-avaspec-limits: "query" is not a param of this operation (its params: filter)'],
      ["extension/limits", "#/methods/1/x-avaspec-limits/range/from", 'x-avaspec-limits: "a" is not a param of this operation (its params: none)'],
      ["extension/limits", "#/methods/1/x-avaspec-limits/range/to", 'x-avaspec-limits: "b" is not a param of this operation (its params: none)'],
      ["extension/limits", "#/methods/1/x-avaspec-limits/range/unit", 'x-avaspec-limits: range.unit must be blocks or seconds, got "days"'],
    ]);
  });

  it("a declaration may be another file's, by $ref: copied in where refs.allow admits it, refused where it does not, and never a pointer into the document itself", () => {
    const shared = { openrpc: "1.3.2", info: { title: "A", version: "1" }, "x-avaspec-limits": { pool: "shared", batch: { maxItems: 7 }, signals: { batch: { codes: [-32600] } } }, methods: [] };
    const method = { name: "ping", params: [], result: { name: "pong", schema: { type: "string" } } };
    const using = (ref: string) => ({ openrpc: "1.3.2", info: { title: "B", version: "1" }, "x-avaspec-limits": { $ref: ref }, methods: [method] });
    const sub = mkdtempSync(join(dir, "ref-"));
    writeFileSync(join(sub, "a.json"), JSON.stringify(shared, null, 2));
    writeFileSync(join(sub, "b.json"), JSON.stringify(using("./a.json#/x-avaspec-limits"), null, 2));
    const ok = runCli(["generate", "--input", "b.json", "--out", "out", "--allow-ref", "."], sub);
    expect(ok.status, ok.stderr).toBe(0);
    const out = join(sub, "out");
    const limits = (readdirSync(out, { recursive: true }) as string[]).filter((f) => /\.ts$/.test(f) && !f.includes("runtime")).map((f) => readFileSync(join(out, f), "utf8")).join("\n");
    expect(limits).toContain('export const bLimits: ServiceLimits = { pool: "shared", batch: { maxItems: 7 }, signals: { batch: { codes: [-32600] } } };');

    // without refs.allow the other file is not read
    const refused = runCli(["generate", "--input", "b.json", "--out", "out2"], sub);
    expect(refused.status).toBe(1);
    expect(parseDiagnostics(refused.stderr)).toContainEqual(expect.objectContaining({ code: "ref/external", pointer: "#/x-avaspec-limits/$ref" }));
    expect(existsSync(join(sub, "out2"))).toBe(false);

    // a pointer into the document itself is not followed: an error, not a silently empty declaration
    writeFileSync(join(sub, "c.json"), JSON.stringify({ ...using("#/x-shared"), "x-shared": { pool: "p" } }, null, 2));
    const local = runCli(["generate", "--input", "c.json", "--out", "out3"], sub);
    expect(local.status).toBe(1);
    expect(parseDiagnostics(local.stderr).filter((d) => d.code === "extension/limits").map((d) => [d.pointer, d.message])).toEqual([["#/x-avaspec-limits/$ref", 'x-avaspec-limits: a $ref here must name another file\'s declaration that the input\'s refs.allow admits (it is copied in); got "#/x-shared"']]);
  });

  it("a range's head names a method or operation of the same document (any position); one that names nothing is an error at its pointer", () => {
    const rpc = {
      openrpc: "1.3.2",
      info: { title: "Logs", version: "1" },
      methods: [
        { name: "eth_getLogs", params: [{ name: "filter", required: true, schema: { type: "object" } }], result: { name: "logs", schema: { type: "array" } }, "x-avaspec-limits": { range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", head: "eth_blockNumber" } } },
        { name: "eth_getOther", params: [{ name: "filter", required: true, schema: { type: "object" } }], result: { name: "logs", schema: { type: "array" } }, "x-avaspec-limits": { range: { from: "filter.a", to: "filter.b", unit: "blocks", head: "eth_headNumber", order: "newest", toExclusive: "yes" } } },
        { name: "eth_blockNumber", params: [], result: { name: "n", schema: { type: "string" } } },
      ],
    };
    writeFileSync(join(dir, "heads.json"), JSON.stringify(rpc, null, 2));
    const r = runCli(["generate", "--input", "heads.json", "--out", "out-heads"], dir);
    expect(r.status).toBe(1);
    expect(parseDiagnostics(r.stderr).map((d) => [d.pointer, d.message])).toEqual([["#/methods/1/x-avaspec-limits/range/toExclusive", 'x-avaspec-limits: range.toExclusive must be true (the to end is the first position after the range) or false, got "yes"']]);
    rpc.methods[1]!["x-avaspec-limits"] = { range: { from: "filter.a", to: "filter.b", unit: "blocks", head: "eth_headNumber", order: "newest", toExclusive: true } } as never;
    writeFileSync(join(dir, "heads.json"), JSON.stringify(rpc, null, 2));
    const r2 = runCli(["generate", "--input", "heads.json", "--out", "out-heads"], dir);
    expect(parseDiagnostics(r2.stderr).map((d) => [d.pointer, d.message])).toEqual([["#/methods/1/x-avaspec-limits/range/order", 'x-avaspec-limits: range.order must be asc or desc (the order answers list their items in), got "newest"']]);
    const check = (limits: unknown, heads: string[]) => {
      const found: string[] = [];
      readLimits({ "x-avaspec-limits": limits }, "#/paths/~1a/get", "operation", (_c, pointer, message) => found.push(`${pointer}: ${message}`), undefined, heads);
      return found;
    };
    // an OpenAPI operation's head is an operationId of the document
    expect(check({ range: { from: "startBlock", to: "endBlock", unit: "blocks", toExclusive: true, order: "desc", orderParam: "sortOrder", head: "getHead" } }, ["listThings", "getHead"])).toEqual([]);
    expect(check({ range: { from: "startBlock", to: "endBlock", unit: "blocks", head: "getHed" } }, ["listThings", "getHead"])).toEqual(['#/paths/~1a/get/x-avaspec-limits/range/head: x-avaspec-limits: range.head must name a method or operation of this document whose result is the latest position, got "getHed"']);
  });

  it("the JSON Schema refuses what the checker refuses", () => {
    const validate = limitsSchema();
    expect(validate(BAD_DOCUMENT)).toBe(false);
    expect(validate({ cost: 0 })).toBe(false);
    expect(validate({ batch: "40" })).toBe(false);
    // a range belongs to an operation, plans to a document: not both in one
    expect(validate({ range: { from: "a", to: "b", unit: "blocks" }, plans: { free: { quotas: [{ quota: 1, window: 60 }] } } })).toBe(false);
    expect(validate({ range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "days" } })).toBe(false);
    expect(validate({ range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", order: "newest" } })).toBe(false);
    expect(validate({ range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", head: "" } })).toBe(false);
    expect(validate({ range: { from: "startBlock", to: "endBlock", unit: "blocks", toExclusive: true, order: "desc", orderParam: "sortOrder", head: "getLatestBlock" } })).toBe(true);
    // another file's declaration by reference, alone (the checker copies it in); one into the same document is refused by both
    expect(validate({ $ref: "./c-chain.openrpc.json#/x-avaspec-limits" })).toBe(true);
    expect(validate({ $ref: "#/x-avaspec-limits" })).toBe(false);
    expect(validate({ $ref: "./c-chain.openrpc.json#/x-avaspec-limits", cost: 1 })).toBe(false);
    // and takes what it takes
    expect(validate({ cost: 200, range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", maxSpan: 2048 }, signals: { range: { codes: [-32005], messages: ["range too large"] } } })).toBe(true);
    expect(validate({ pool: "p", unit: "compute-units", plans: { free: { quotas: [{ quota: 8000, window: 60 }] } }, signals: { quota: { status: [429], retryAfter: true, headers: ["RateLimit", "RateLimit-Policy"] } } })).toBe(true);
  });
});

describe("the README's Service limits section", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Service limits: `x-avaspec-limits` (a proposal)"), readme.indexOf("\n## Layout"));
  const schema = JSON.parse(readFileSync(join(ROOT, "docs/extensions/x-avaspec-limits.schema.json"), "utf8")) as { $defs: Record<string, { properties?: Record<string, unknown> }> };

  it("documents every member of the JSON Schema, every limit a signal names, and says when the client acts on them", () => {
    expect(section.length).toBeGreaterThan(1000);
    const members = new Set(["document", "operation", "plan", "range", "signal", "signals"].flatMap((d) => Object.keys(schema.$defs[d]!.properties ?? {})));
    // the members table names each member in code
    const documented = [...section.matchAll(/^\| `([a-zA-Z]+)/gm)].map((m) => m[1]);
    for (const m of members) expect(section, m).toMatch(new RegExp("`" + m + "[`:]|[{,] " + m + "[,?: }]"));
    expect(documented).toEqual(["pool", "unit", "cost", "plans", "requestsPerSecond", "batch", "range", "signals"]);
    expect(section).toContain("A client without a `budget` option does not pace calls by them");
    expect(section).toContain("#### Staying under the limits: the `budget` option");
    expect(section).toContain("docs/extensions/x-avaspec-limits.schema.json");
    // the extensions table points to it
    expect(readme).toMatch(/^\| `x-avaspec-limits: \{ cost: 20 \}` on an operation;.*\[Service limits\]\(#service-limits-x-avaspec-limits-a-proposal\)/m);
  });

  it("its example is a declaration the checker and the JSON Schema take", () => {
    const example = yaml.load(/```yaml\n([\s\S]*?)```/.exec(section)![1]!) as { "x-avaspec-limits": unknown; methods: { "x-avaspec-limits": unknown }[] };
    const validate = limitsSchema();
    expect(validate(example["x-avaspec-limits"])).toBe(true);
    expect(validate(example.methods[0]!["x-avaspec-limits"])).toBe(true);
    const reported: string[] = [];
    const report = (_code: string, pointer: string) => void reported.push(pointer);
    expect(readLimits(example as Record<string, unknown>, "#", "document", report)?.plans?.map((p) => p.name)).toEqual(["anonymous", "pro"]);
    expect(readLimits(example.methods[0] as Record<string, unknown>, "#/methods/0", "operation", report, ["filter"])?.range?.maxSpan).toBe(2048);
    expect(reported).toEqual([]);
  });
});

/** The extension's JSON Schema, compiled (draft 2020-12, with the `regex` format). */
export function limitsSchema(): ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, "docs/extensions/x-avaspec-limits.schema.json"), "utf8")));
}
