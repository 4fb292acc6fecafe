/**
 * Issue 32 (3): `x-avaspec-limits` goes through the IR to the generated
 * code: each operation's own declaration on its descriptor (`limits`), each
 * document's budget as one exported `ServiceLimits` constant per document
 * (`dataApiLimits`, `cChainLimits`), which only bundles that import it carry.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataApiLimits, getAvaxSupplyOperation, getChainInfoOperation, listLatestPrimaryNetworkTransactionsOperation } from "@avaspec/client/data-api";
import { metricsApiLimits, compositeQueryV2Operation } from "@avaspec/client/metrics-api";
import { cChainEthChainIdMethod, cChainEthGetLogsMethod, cChainLimits, l1EthGetLogsMethod, l1Limits } from "@avaspec/client/node";
import { ROOT_DIR, bundleText } from "../../bench/size/entries.js";
import { runCli } from "../helpers/cli.js";

/** A message pattern (a valid regular expression) that would end a comment or a string if pasted into code. */
const HOSTILE = '"*/ ${process.exit(1)} `\\u2028';

describe("x-avaspec-limits in the IR and the generated code", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "avaspec-limits-ir-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a document's and a method's declarations reach the IR and the generated client", () => {
    const doc = {
      openrpc: "1.3.2",
      info: { title: "Logs", version: "1" },
      servers: [{ name: "public", url: "https://rpc.example.test/rpc", "x-avaspec-limits": { batch: { maxItems: 40 }, requestsPerSecond: 10 } }],
      "x-avaspec-limits": { pool: "example", unit: "compute-units", plans: { free: { apiKey: false, quotas: [{ quota: 100, window: 1 }] } }, signals: { rate: { codes: [-32005], messages: ["rate limit", HOSTILE], retryAfter: true } } },
      methods: [
        {
          name: "eth_getLogs",
          params: [{ name: "filter", required: true, schema: { type: "object" } }],
          result: { name: "logs", schema: { type: "array" } },
          "x-avaspec-limits": { cost: 75, range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", maxSpan: 2048, maxResults: 10000 }, signals: { range: { codes: [-32005], messages: ["range too large", "query returned more than \\d+ results"] } } },
        },
        { name: "eth_chainId", params: [], result: { name: "id", schema: { type: "string" } } },
      ],
    };
    writeFileSync(join(dir, "logs.json"), JSON.stringify(doc, null, 2));
    const r = runCli(["generate", "--input", "logs.json", "--out", "out", "--client-name", "Logs", "--dump-ir", "ir.json"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const [ir] = JSON.parse(readFileSync(join(dir, "ir.json"), "utf8")) as { limits: unknown[]; operations: { id: string; limits?: unknown }[] }[];
    expect(ir!.operations.map((o) => [o.id, o.limits])).toEqual([
      ["eth_getLogs", { cost: 75, range: { from: ["filter", "fromBlock"], to: ["filter", "toBlock"], unit: "blocks", maxSpan: 2048, maxResults: 10000 }, signals: { range: { codes: [-32005], messages: ["range too large", "query returned more than \\d+ results"] } } }],
      ["eth_chainId", undefined],
    ]);
    expect(ir!.limits).toEqual([
      {
        kind: "limits",
        file: "logs.json",
        pointer: "#/x-avaspec-limits",
        group: [],
        limits: { pool: "example", unit: "compute-units", plans: [{ name: "free", apiKey: false, quotas: [{ quota: 100, window: 1 }] }], signals: { rate: { codes: [-32005], messages: ["rate limit", HOSTILE], retryAfter: true } } },
        servers: [{ url: "https://rpc.example.test/rpc", limits: { batch: { maxItems: 40 }, requestsPerSecond: 10 } }],
        name: "logsLimits",
      },
    ]);
    const client = readFileSync(join(dir, "out/src/logs/client.ts"), "utf8");
    expect(client).toContain("export const logsLimits: ServiceLimits = {");
    expect(client).toContain('plans: { free: { quotas: [{ quota: 100, window: 1 }], apiKey: false } },');
    expect(client).toContain('servers: [{ url: "https://rpc.example.test/rpc", limits: { requestsPerSecond: 10, batch: { maxItems: 40 } } }],');
    // a spec string reaches the code as a string literal, through the escaping choke point
    expect(client).toContain(`messages: ["rate limit", ${JSON.stringify(HOSTILE)}]`);
    // the method without a declaration has no `limits` member
    expect(client.match(/ {2}limits: /g)).toHaveLength(1);
  });

  it("our documents' costs and caps are on the descriptors, their budgets in one constant each", () => {
    expect(getChainInfoOperation.limits).toEqual({ cost: 1 });
    expect(listLatestPrimaryNetworkTransactionsOperation.limits).toEqual({ cost: 100, range: { from: ["startTimestamp"], to: ["endTimestamp"], unit: "seconds", order: "desc", orderParam: "sortOrder" } });
    expect(getAvaxSupplyOperation.limits).toBeUndefined();
    expect(compositeQueryV2Operation.limits).toEqual({ cost: 3000 });
    expect(dataApiLimits.pool).toBe("avacloud");
    expect(dataApiLimits.plans?.["free"]).toEqual({ quotas: [{ quota: 8000, window: 60 }, { quota: 2000000, window: 86400 }] });
    expect(dataApiLimits.plans?.["unauthenticated"]?.apiKey).toBe(false);
    expect(metricsApiLimits.pool).toBe("avacloud-metrics");
    expect(cChainEthChainIdMethod.limits).toEqual({ cost: 1 });
    for (const m of [cChainEthGetLogsMethod, l1EthGetLogsMethod]) expect(m.limits).toEqual({ cost: 200, range: { from: ["filter", "fromBlock"], to: ["filter", "toBlock"], unit: "blocks", head: "eth_blockNumber" }, signals: { range: { codes: [-32000], messages: ["requested too many blocks"] } } });
    expect(cChainLimits.batch).toEqual({ maxItems: 1000, maxResponseBytes: 25000000 });
    expect(cChainLimits.servers).toEqual([{ url: "https://api.avax.network/ext/bc/C/rpc", limits: { batch: { maxItems: 40 } } }]);
    expect(l1Limits.servers).toBeUndefined();
  });

  it("a bundle of one operation carries its cost, not the plans; a bundle that imports the plans carries them", async () => {
    const one = await bundleText(`import { createDataApiCore, getChainInfo } from "@avaspec/client/data-api";\nexport const run = () => getChainInfo(createDataApiCore({}), { chainId: "43114" });\n`, ROOT_DIR);
    expect(one).toMatch(/limits:\{cost:1\}/);
    expect(one).not.toContain("unauthenticated");
    expect(one).not.toContain("avacloud");
    const withPlans = await bundleText(`import { dataApiLimits } from "@avaspec/client/data-api";\nexport const plans = dataApiLimits.plans;\n`, ROOT_DIR);
    expect(withPlans).toContain("unauthenticated");
    expect(withPlans).toContain("avacloud");
  });
});
