/**
 * Include/exclude (issue 31): by tag, path glob, operationId, OpenRPC
 * method-name glob and HTTP method (3.2's QUERY and additionalOperations
 * too), on the command line and in the config. An excluded operation leaves
 * nothing behind (its names appear in no generated file), nor do the schemas only it used; a schema no operation used stays, and so
 * does the subtype of a kept discriminator. The kept client type-checks and
 * calls the package's own mock server. A filter that matches nothing is a
 * warning.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { globRegExp } from "../../generator/ir/select.js";
import { parseDiagnostics, ROOT, runCli, TSC } from "../helpers/cli.js";

mkdirSync(join(ROOT, ".tmp"), { recursive: true });
// under the repository: the generated package's type-check finds msw and @types/node there
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(ROOT, ".tmp", "select-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Every generated file but the runtime copies (whose words are not the spec's), with its text. */
function generated(out: string): [string, string][] {
  const files: [string, string][] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        if (relative(out, p) !== join("src", "runtime")) walk(p);
      } else files.push([relative(out, p), readFileSync(p, "utf8")]);
    }
  };
  walk(out);
  return files;
}
const mentions = (out: string, word: RegExp) => generated(out).filter(([, text]) => word.test(text)).map(([f]) => f);

const SHOP = `openapi: 3.1.0
info: { title: Shop, version: 1.0.0 }
servers: [{ url: "https://shop.example.com" }]
paths:
  /v1/orders:
    get:
      operationId: listOrders
      tags: [orders]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/OrderList" } } } }
  /v1/orders/{id}/refunds:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    post:
      operationId: refundOrder
      tags: [refunds]
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/RefundRequest" } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Refund" } } } }
  /v1/chains/{chainId}/blocks:
    get:
      operationId: listBlocks
      tags: [chains]
      parameters: [{ name: chainId, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Block" } } } } }
components:
  schemas:
    OrderList:
      type: object
      required: [items]
      properties: { items: { type: array, items: { $ref: "#/components/schemas/Order" } } }
    Order:
      type: object
      required: [id, pet]
      properties: { id: { type: string }, pet: { $ref: "#/components/schemas/Animal" } }
    Animal:
      type: object
      required: [petType]
      properties: { petType: { type: string } }
      discriminator: { propertyName: petType }
    Dog:
      allOf: [{ $ref: "#/components/schemas/Animal" }, { type: object, properties: { barks: { type: boolean } } }]
    RefundRequest:
      type: object
      properties: { reason: { $ref: "#/components/schemas/RefundReason" } }
    RefundReason: { type: string, enum: [damaged, late] }
    Refund: { type: object, properties: { amount: { type: integer }, note: { $ref: "#/components/schemas/Note" } } }
    Block: { type: object, properties: { height: { type: integer } } }
    Standalone: { type: object, description: A type no operation uses, properties: { note: { $ref: "#/components/schemas/Note" } } }
    Note: { type: string, description: A note (both an excluded and a kept schema use it) }
`;

describe("glob patterns", () => {
  it("* stays within a path segment, ** crosses them, a/** takes a itself", () => {
    const g = globRegExp("/v1/chains/**");
    expect(["/v1/chains", "/v1/chains/{chainId}/blocks", "/v1/chains/x"].every((p) => g.test(p))).toBe(true);
    expect(g.test("/v1/chainsX")).toBe(false);
    expect(globRegExp("/v1/*/refunds").test("/v1/orders/refunds")).toBe(true);
    expect(globRegExp("/v1/*/refunds").test("/v1/orders/{id}/refunds")).toBe(false);
    expect(globRegExp("eth_*").test("eth_getBalance")).toBe(true);
    expect(globRegExp("eth_*").test("net_version")).toBe(false);
    // regular-expression characters in a pattern are themselves
    expect(globRegExp("calc.add").test("calcXadd")).toBe(false);
    expect(globRegExp("get?rder").test("getOrder")).toBe(true);
  });
});

describe("avaspec generate --exclude (the real CLI)", () => {
  it("an excluded tag and path leave no names behind, schemas only they used go, the rest stays; the client type-checks and calls the mock server", async () => {
    const dir = scratch({ "shop.yaml": SHOP });
    const r = runCli(["generate", "--input", "shop.yaml", "--out", "out", "--exclude", "tag:refunds", "--exclude", "path:/v1/chains/**"], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const out = join(dir, "out");
    for (const gone of [/refundOrder/i, /\bRefund(Request|Reason)?\b/, /listBlocks/i, /\bBlock\b(?!<"bigint">)/, /\/refunds/, /\/blocks/]) expect(mentions(out, gone), String(gone)).toEqual([]);
    const types = readFileSync(join(out, "src/shop/types.ts"), "utf8");
    for (const kept of ["OrderList", "Order", "Animal", "Dog", "Standalone", "Note"]) expect(types).toMatch(new RegExp(`export (interface|type) ${kept}\\b`));
    // the shipped document is the one generated from
    const shipped = JSON.parse(readFileSync(join(out, "spec/shop.json"), "utf8")) as { paths: object; components: { schemas: object } };
    expect(Object.keys(shipped.paths)).toEqual(["/v1/orders"]);
    expect(Object.keys(shipped.components.schemas).sort()).toEqual(["Animal", "Dog", "Note", "Order", "OrderList", "Standalone"]);

    const tsc = spawnSync(process.execPath, [TSC, "-p", join(out, "tsconfig.json"), "--noEmit", "--pretty", "false"], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);

    const { startMockServer } = (await import(pathToFileURL(join(out, "src/mock-server/index.ts")).href)) as typeof import("../fixtures/petstore-30/golden/src/mock-server/index.js");
    const { createShopClient } = (await import(pathToFileURL(join(out, "src/shop/index.ts")).href)) as { createShopClient(o: object): Record<string, unknown> & { listOrders(): Promise<{ items: unknown[] }> } };
    const server = await startMockServer({ port: 0, seed: 1, log: null });
    try {
      const client = createShopClient({ baseUrl: server.url, validateResponse: "strict" });
      expect(Array.isArray((await client.listOrders()).items)).toBe(true);
      expect(client["refundOrder"]).toBeUndefined();
      expect(client["listBlocks"]).toBeUndefined();
      // the mock server has no route for what was excluded
      expect((await fetch(`${server.url}/v1/chains/c/blocks`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("--include keeps only what it matches; an OpenRPC method glob; a filter that matches nothing is a warning", () => {
    const dir = scratch({ "rpc.yaml": readFileSync(join(ROOT, "test/fixtures/rpc-by-name/spec.yaml"), "utf8") });
    const r = runCli(["generate", "--input", "rpc.yaml", "--out", "out", "--include", "method:calc.*", "--exclude", "op:calc.subtract", "--exclude", "tag:nothing-has-it"], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(parseDiagnostics(r.stderr)).toEqual([expect.objectContaining({ code: "filter/no-match", warning: true, pointer: "#/inputs/0/exclude/1", message: 'the filter "tag:nothing-has-it" matches no operation' })]);
    const out = join(dir, "out");
    for (const gone of [/kv\.put|kvPut|\bput\b/, /PutResult/, /\bEntry\b(?! points)/, /subtract/i]) expect(mentions(out, gone), String(gone)).toEqual([]);
    const client = readFileSync(join(out, "src/rpc/client.ts"), "utf8");
    expect(client).toContain("calc.ping");
    expect(client).toContain("calc.add");
  });

  it("OpenAPI 3.2: method: takes the HTTP method as the loader names it (query, an additionalOperations key) or as sent (QUERY); op: an additionalOperations operation's id", () => {
    const dir = scratch({ "catalog.yaml": readFileSync(join(ROOT, "test/fixtures/oas-32/spec.yaml"), "utf8") });
    const ops = (out: string) => [...readFileSync(join(dir, out, "src/catalog/operations.d.ts"), "utf8").matchAll(/export declare const (\w+)Operation\b/g)].map((m) => m[1]).sort();
    // QUERY as sent, COPY and PURGE as written under additionalOperations; op: drops one of them again
    const r = runCli(["generate", "--input", "catalog.yaml", "--out", "a", "--include", "method:QUERY", "--include", "method:COPY", "--include", "method:PURGE", "--exclude", "op:copyProduct"], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(parseDiagnostics(r.stderr)).toEqual([]);
    expect(ops("a")).toEqual(["purgeProductsById", "queryStats", "searchProducts"]);
    // the loader's own names: `query` for the fixed field; an additionalOperations key excluded by method:
    const q = runCli(["generate", "--input", "catalog.yaml", "--out", "b", "--exclude", "method:query", "--exclude", "method:PURGE"], dir);
    expect(q.status, q.stderr).toBe(0);
    expect(parseDiagnostics(q.stderr)).toEqual([]);
    expect(ops("b")).toEqual(["copyProduct", "listProducts", "searchByForm", "searchByJson"]);
  });

  it("from the config: per input, a filter that matches nothing points at its place in the config; a malformed filter is a config error", () => {
    const config = (exclude: unknown) => JSON.stringify({ out: "out", package: { name: "shop" }, inputs: [{ spec: "shop.yaml", output: "shop", clientName: "Shop", exclude }] });
    const dir = scratch({ "shop.yaml": SHOP, "avaspec.config.json": config(["op:refundOrder", "op:noSuchOperation"]) });
    const r = runCli(["generate"], dir);
    expect(r.status, r.stderr).toBe(0);
    const found = parseDiagnostics(r.stderr);
    expect(found).toEqual([expect.objectContaining({ file: "avaspec.config.json", pointer: "#/inputs/0/exclude/1", code: "filter/no-match", warning: true })]);
    expect(mentions(join(dir, "out"), /refundOrder/i)).toEqual([]);
    expect(mentions(join(dir, "out"), /listBlocks/)).not.toEqual([]);

    writeFileSync(join(dir, "avaspec.config.json"), config(["refundOrder"]));
    const bad = runCli(["generate"], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('inputs[0].exclude: "refundOrder" is not a filter; write tag:<tag>, path:<glob>, op:<operationId or method>, or method:<glob>');
  });
});
