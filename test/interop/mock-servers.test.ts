/**
 * Other tools' mock servers built from our documents, called by our clients:
 * Prism (which validates every request against the OpenAPI document and
 * answers the document's 400 when one does not match) for the Data and
 * Metrics APIs. Responses are checked with
 * `validateResponse: "strict"`, so a disagreement either way fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataApiClient, type DataApiClient } from "@avaspec/client/data-api";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { BUNDLED_DIR, INTEROP } from "./helpers.js";

const dataSpec = JSON.parse(readFileSync(join(BUNDLED_DIR, "data-api.openapi.json"), "utf8")) as { paths: Record<string, Record<string, { operationId: string }>> };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill("SIGTERM")));

/** Starts a tool and resolves once its output matches `ready`. */
function start(bin: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(INTEROP, "node_modules", ".bin", bin), args, { cwd: INTEROP, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${bin} did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${bin} exited (${code}):\n${out}`)));
  });
}

async function prism(doc: string): Promise<string> {
  const port = await freePort();
  await start("prism", ["mock", join(BUNDLED_DIR, doc), "-h", "127.0.0.1", "-p", String(port), "--errors"], /Prism is listening/);
  return `http://127.0.0.1:${port}`;
}

const H = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
const TOKEN = "4d8b5f2e-7a13-4c09-b6e1-2f9a0c3d5e71";
const dataCalls: [string, (c: DataApiClient) => Promise<unknown>][] = [
  ["aggregateSignatures", (c) => c.aggregateSignatures({ network: "fuji", body: { message: "0xdeadbeef", quorumPercentage: 67, quorumPercentageBuffer: 3, pChainHeight: 0 } })],
  ["getAggregatedSignatures", (c) => c.getAggregatedSignatures({ network: "mainnet", txHash: "22kPCBs1Y3wQNbchn5vN3EwKssPoanUYcorWprPMbERGgz1SHC" })],
  ["listBlockchains", (c) => c.listBlockchains({ network: "mainnet", pageToken: TOKEN, pageSize: 500, sortOrder: "asc" })],
  ["listErc20Transactions", (c) => c.listErc20Transactions({ chainId: "43114", address: H, startBlock: 6479329, endBlock: 6479330, pageSize: 25 })],
  ["getTransactionsForBlock", (c) => c.getTransactionsForBlock({ chainId: "43114", blockId: "41530011", pageSize: 0 })],
  ["getSingleValidatorDetails", (c) => c.getSingleValidatorDetails({ network: "mainnet", nodeId: "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY", validationStatus: "active", sortOrder: "desc", pageToken: TOKEN })],
  ["listContractDeployments", (c) => c.listContractDeployments({ chainId: "43114", address: H, pageSize: 100 })],
  ["getNativeBalance", (c) => c.getNativeBalance({ chainId: "43114", address: H, blockNumber: "41530011", currency: "eur" })],
  ["getTransaction", (c) => c.getTransaction({ chainId: "43114", txHash: "0x023de35248d395c52af5894351e79f64dcbd0ff519daceb33b5b084e4d14bd36" })],
  ["supportedChains", (c) => c.supportedChains({ network: "fuji", feature: "webhooks" })],
  ["getChainInfo", (c) => c.getChainInfo({ chainId: "43114" })],
  ["getContractMetadata", (c) => c.getContractMetadata({ chainId: "43114", address: H })],
  ["getChainIdsForAddresses", (c) => c.getChainIdsForAddresses({ network: "mainnet", addresses: "avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw,P-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" })],
  ["getTxByHash", (c) => c.getTxByHash({ network: "mainnet", blockchainId: "p-chain", txHash: "VyHGBoA1xAGTxftHVwHEwCNvU8VXT9STAK63JYieLwHud65QZ" })],
];

describe("Prism mock of the Data API document (requests validated by Prism)", () => {
  let base: string;
  let data: DataApiClient;
  beforeAll(async () => {
    base = await prism("data-api.openapi.json");
    data = createDataApiClient({ baseUrl: base, apiKey: "test-key", validateResponse: "strict", retry: false });
  }, 120_000);

  it("covers every operation of the document", () => {
    expect(dataCalls.map(([id]) => id).sort()).toEqual(Object.values(dataSpec.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)).sort());
  });

  it.each(dataCalls)("%s succeeds", async (_, call) => {
    expect(await call(data)).toBeTypeOf("object");
  });

  it("control: Prism refuses a request that breaks the document, so it does check ours", async () => {
    const res = await fetch(`${base}/v1/chains/43114/addresses/not-an-address`);
    // the document's own 400 response, with Prism's list of violations in a header
    expect(res.status).toBe(400);
    expect(res.headers.get("sl-violations")).toContain("pattern");
  });
});

describe("Prism mock of the Metrics API document", () => {
  it("getAddressesByBalanceOverTime and getAvgTps succeed", async () => {
    const metrics = createMetricsApiClient({ baseUrl: await prism("metrics-api.openapi.json"), validateResponse: "strict", retry: false });
    expect(await metrics.getAddressesByBalanceOverTime({ chainId: "43114", address: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", threshold: "1000000", startTimestamp: 1689541049, endTimestamp: 1689800249, pageSize: 5000 })).toBeTypeOf("object");
    expect(await metrics.getAvgTps({ chainId: "43114", pageToken: TOKEN })).toBeTypeOf("object");
  }, 120_000);
});
