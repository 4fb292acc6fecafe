/**
 * Issue 32 (2): our documents declare the limits of the real services in
 * `x-avaspec-limits`, with the figures of their sources (named in the specs'
 * comments): the compute-unit plans and route weights of builders-hub's
 * data-api, webhook-api and metrics-api rate-limits pages, the RPC method
 * weights of the Data API's page, AvalancheGo's batch defaults and the
 * public API node's batch cap. Every declaration passes the extension's JSON
 * Schema.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { bundledSpec } from "../helpers/node-specs.js";

type Obj = Record<string, any>;
const load = (file: string): Obj => yaml.load(readFileSync(join(ROOT, "spec", file), "utf8")) as Obj;
const data = load("data-api.openapi.yaml");
const metrics = load("metrics-api.openapi.yaml");
const cChain = load("node-cchain-rpc.openrpc.yaml");
const l1 = load("node-l1-rpc.openrpc.yaml");
// as the generator reads it: its declaration is the C-Chain's, by $ref
const l1Bundled = bundledSpec("spec/node-l1-rpc.openrpc.yaml");

/** Each operation's declared cost, by operationId (undefined: none declared). */
function costs(doc: Obj): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>();
  for (const item of Object.values(doc["paths"] as Obj)) for (const op of Object.values(item as Obj)) if (op?.operationId) out.set(op.operationId, op["x-avaspec-limits"]?.cost);
  return out;
}
const perMinuteAndDay = (plan: Obj) => plan["quotas"].map((q: Obj) => [q["quota"], q["window"]]);
const method = (doc: Obj, name: string): Obj => doc["methods"].find((m: Obj) => m["name"] === name);

describe("x-avaspec-limits in spec/", () => {
  it("the Data API: the five plans, every listed route's weight, none for routes the pages do not list", () => {
    const limits = data["x-avaspec-limits"];
    expect(limits.pool).toBe("avacloud");
    expect(limits.unit).toBe("compute-units");
    expect(Object.fromEntries(Object.entries(limits.plans as Obj).map(([name, p]) => [name, perMinuteAndDay(p)]))).toEqual({
      unauthenticated: [[6000, 60], [1200000, 86400]],
      free: [[8000, 60], [2000000, 86400]],
      base: [[10000, 60], [3750000, 86400]],
      growth: [[14000, 60], [11200000, 86400]],
      pro: [[20000, 60], [25000000, 86400]],
    });
    expect(limits.plans.unauthenticated.apiKey).toBe(false);
    expect(limits.signals).toEqual({ quota: { status: [429] } });
    const c = costs(data);
    expect([...c.values()].filter((v) => v !== undefined)).toHaveLength(74);
    // Free, Small, Medium, XL and XXL routes of data-api/rate-limits.mdx; webhook-api/rate-limits.mdx
    expect([c.get("supportedChains"), c.get("getChainInfo"), c.get("getLatestBlocks"), c.get("reindexNft"), c.get("listTransactions"), c.get("listLatestPrimaryNetworkTransactions"), c.get("getApiLogs")]).toEqual([1, 1, 10, 10, 20, 100, 200]);
    expect([c.get("createWebhook"), c.get("listWebhooks"), c.get("getSharedSecret"), c.get("removeAddressesFromWebhook")]).toEqual([20, 10, 10, 20]);
    // on neither page
    expect([c.get("getAvaxSupply"), c.get("listTransactionsV2"), c.get("getBlockchainById"), c.get("live-check")]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("the Data API's ranged list operations: glacier.json's block ranges (endBlock exclusive) and time ranges, newest first by sortOrder, no cap", () => {
    const ranges = new Map<string, Obj>();
    for (const item of Object.values(data["paths"] as Obj)) for (const op of Object.values(item as Obj)) if (op?.["x-avaspec-limits"]?.range) ranges.set(op.operationId, op["x-avaspec-limits"].range);
    const byBlock = { from: "startBlock", to: "endBlock", unit: "blocks", toExclusive: true };
    const byTime = { from: "startTimestamp", to: "endTimestamp", unit: "seconds" };
    const sorted = { order: "desc", orderParam: "sortOrder" };
    expect(Object.fromEntries(ranges)).toEqual({
      listErc20Transactions: byBlock,
      listTransfers: byBlock,
      listTransactions: { ...byBlock, ...sorted },
      listTransactionsV2: { ...byBlock, ...sorted },
      listNativeTransactions: byBlock,
      listErc721Transactions: byBlock,
      listErc1155Transactions: byBlock,
      listInternalTransactions: byBlock,
      listPrimaryNetworkBlocksByNodeId: byTime,
      listLatestPrimaryNetworkBlocks: byTime,
      listLatestPrimaryNetworkTransactions: { ...byTime, ...sorted },
      listActivePrimaryNetworkStakingTransactions: { ...byTime, ...sorted },
      listAssetTransactions: byTime,
    });
  });

  it("the Metrics API: its own pool, its one plan and weights", () => {
    const limits = metrics["x-avaspec-limits"];
    expect([limits.pool, limits.unit]).toEqual(["avacloud-metrics", "compute-units"]);
    expect(Object.keys(limits.plans)).toEqual(["free"]);
    expect(perMinuteAndDay(limits.plans.free)).toEqual([[8000, 60], [1200000, 86400]]);
    const c = costs(metrics);
    expect([c.get("listChains"), c.get("getEvmChainMetrics"), c.get("getValidatorsByDateRange"), c.get("getAddressesByBalanceOverTime"), c.get("compositeQueryV2"), c.get("getAvgTps")]).toEqual([1, 100, 500, 1000, 3000, undefined]);
  });

  it("the C-Chain and L1 documents: method weights, the node's batch defaults, the public node's 40, eth_getLogs' range and its error", () => {
    // one declaration: the L1 document names the C-Chain's
    expect(l1["x-avaspec-limits"]).toEqual({ $ref: "./node-cchain-rpc.openrpc.yaml#/x-avaspec-limits" });
    for (const doc of [cChain, l1Bundled]) {
      expect(doc["x-avaspec-limits"]).toEqual({
        pool: "avacloud",
        unit: "compute-units",
        batch: { maxItems: 1000, maxResponseBytes: 25000000 },
        signals: { batch: { codes: [-32600], messages: ["batch too large"] }, responseSize: { codes: [-32003], messages: ["response too large"] } },
      });
    }
    expect(cChain["servers"].find((s: Obj) => s["name"] === "node")["x-avaspec-limits"]).toEqual({ batch: { maxItems: 40 } });
    expect(method(cChain, "eth_getLogs")["x-avaspec-limits"]).toEqual({ cost: 200, range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", head: "eth_blockNumber" }, signals: { range: { codes: [-32000], messages: ["requested too many blocks"] } } });
    expect([method(cChain, "eth_chainId"), method(cChain, "eth_call"), method(cChain, "eth_getCode"), method(l1, "eth_feeConfig")].map((m) => m["x-avaspec-limits"].cost)).toEqual([1, 10, 20, 10]);
    expect(method(cChain, "eth_estimateGas")["x-avaspec-limits"]).toBeUndefined();
  });

  it("every declaration passes the extension's JSON Schema", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, "docs/extensions/x-avaspec-limits.schema.json"), "utf8")));
    const found: unknown[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === "object" && node !== null) for (const [k, v] of Object.entries(node)) (k === "x-avaspec-limits" ? found.push(v) : walk(v));
    };
    [data, metrics, cChain, l1].forEach(walk);
    // listTransactionsV2 declares its range and no cost
    expect(found.length).toBe(4 + 1 + 74 + 1 + 10 + 31 + 3);
    // the L1's declaration is the C-Chain's, by $ref (another file's: the schema's `reference`)
    const refs = found.filter((v) => typeof v === "object" && v !== null && "$ref" in v);
    expect(refs).toEqual([l1["x-avaspec-limits"]]);
    for (const v of found) expect(validate(v), `${JSON.stringify(v)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  });
});
