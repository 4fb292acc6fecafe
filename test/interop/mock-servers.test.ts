/**
 * Other tools' mock servers built from our documents, called by our clients:
 * Prism (which validates every request against the OpenAPI document and
 * answers the document's 400 when one does not match) for the Data and
 * Metrics APIs. Responses are checked with
 * `validateResponse: "strict"`, so a disagreement either way fails.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataApiClient, type DataApiClient } from "@avaspec/client/data-api";
import { createMetricsApiClient } from "@avaspec/client/metrics-api";
import { dataApiCases } from "../helpers/data-calls.js";
import { metricsApiCases } from "../helpers/metrics-calls.js";
import { BUNDLED_DIR, freePort, INTEROP, startProcess } from "./helpers.js";

const dataSpec = JSON.parse(readFileSync(join(BUNDLED_DIR, "data-api.openapi.json"), "utf8")) as { paths: Record<string, Record<string, { operationId: string }>> };

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill("SIGTERM")));

/** Starts a tool of test/interop/node_modules/.bin and resolves once its output matches `ready`. */
const start = (bin: string, args: string[], ready: RegExp) => startProcess(join(INTEROP, "node_modules", ".bin", bin), args, ready, children);

async function prism(doc: string): Promise<string> {
  const port = await freePort();
  await start("prism", ["mock", join(BUNDLED_DIR, doc), "-h", "127.0.0.1", "-p", String(port), "--errors"], /Prism is listening/);
  return `http://127.0.0.1:${port}`;
}

describe("Prism mock of the Data API document (requests validated by Prism)", () => {
  let base: string;
  let data: DataApiClient;
  beforeAll(async () => {
    base = await prism("data-api.openapi.json");
    data = createDataApiClient({ baseUrl: base, apiKey: "test-key", validateResponse: "strict", retry: false });
  }, 120_000);

  it("covers every operation of the document", () => {
    expect(dataApiCases.map((c) => c.id).sort()).toEqual(Object.values(dataSpec.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)).sort());
  });

  it.each(dataApiCases)("$id succeeds", async ({ id, call }) => {
    // reindexNft's 201 has no body: the client resolves to undefined
    if (id === "reindexNft") expect(await call(data)).toBeUndefined();
    else expect(await call(data)).toBeTypeOf("object");
  });

  it("control: Prism refuses a request that breaks the document, so it does check ours", async () => {
    const res = await fetch(`${base}/v1/chains/43114/addresses/not-an-address`);
    // the document's own 400 response, with Prism's list of violations in a header
    expect(res.status).toBe(400);
    expect(res.headers.get("sl-violations")).toContain("pattern");
  });
});

describe("Prism mock of the Metrics API document", () => {
  const metricsSpec = JSON.parse(readFileSync(join(BUNDLED_DIR, "metrics-api.openapi.json"), "utf8")) as typeof dataSpec;
  let metrics: ReturnType<typeof createMetricsApiClient>;
  beforeAll(async () => {
    // getAvgTps is deprecated: its warning is not this suite's subject
    metrics = createMetricsApiClient({ baseUrl: await prism("metrics-api.openapi.json"), validateResponse: "strict", retry: false, deprecationWarnings: false });
  }, 120_000);

  it("covers every operation of the document", () => {
    expect([...new Set(metricsApiCases.map((c) => c.id))].sort()).toEqual(Object.values(metricsSpec.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)).sort());
  });

  it.each(metricsApiCases)("$id succeeds ($url)", async ({ call }) => {
    expect(await call(metrics)).toBeTypeOf("object");
  });
});
