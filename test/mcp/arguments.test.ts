/**
 * Issue 29's hostile arguments, and schema validity: what an agent sends
 * is data. A prototype-pollution payload is refused (or could not reach a
 * prototype anyway), the server keeps serving, and the result says why. Every
 * tool's input schema, in @avaspec/client and in every fixture's package,
 * compiles with a JSON Schema 2020-12 validator (Ajv), as an MCP client reads it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "@avaspec/client/mcp";
import { startMockServer, type MockServer } from "@avaspec/client/mock-server";
import { CatalogIndex, type McpCatalog } from "../../runtime/mcp/catalog.js";
import { call, connectHttp, type Connected } from "./helpers.js";

let mock: MockServer;
let tools: Connected;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 1, log: null });
  tools = await connectHttp(() => createMcpServer({ mode: "tools", tools: { include: ["node.cChain.eth.getBalance", "node.platform.getCurrentValidators"] }, clients: { baseUrl: mock.url } }));
});
afterAll(async () => {
  await tools?.close();
  await mock?.close();
});

describe("prototype pollution in tool arguments", () => {
  const address = "0x6aa0d558e161208f801bd7866a8f6d177fb79517";
  const polluted = () => (Object.prototype as Record<string, unknown>)["polluted"];

  it.each([
    ["a __proto__ member", `{"__proto__": {"polluted": "yes"}, "address": "${address}", "block": "latest"}`, /^the key "__proto__" at \/ is refused: arguments are data/],
    ["a nested __proto__ member", `{"nodeIDs": [{"__proto__": {"polluted": "yes"}}]}`, /^the key "__proto__" at \/nodeIDs\/0 is refused/],
    ["constructor.prototype", `{"constructor": {"prototype": {"polluted": "yes"}}, "address": "${address}", "block": "latest"}`, /has no argument "constructor"/],
  ])("%s is refused, reaches no prototype, and the server keeps serving", async (_name, json, why) => {
    const tool = json.includes("nodeIDs") ? "node_platform_getCurrentValidators" : "node_cChain_eth_getBalance";
    // the SDK sends what JSON.parse made: own "__proto__" keys included
    const r = await call(tools.client, tool, JSON.parse(json) as Record<string, unknown>);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(why);
    expect(polluted()).toBeUndefined();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const ok = await call(tools.client, "node_cChain_eth_getBalance", { address, block: "latest" });
    expect(ok.isError, ok.text).toBe(false);
  });

  it("arguments that are not one object are refused", async () => {
    const r = await tools.client.callTool({ name: "node_cChain_eth_getBalance", arguments: { address: [address], block: "latest" } });
    expect(r.isError).toBe(true);
  });
});

/** The catalog a package's src/mcp/catalog.ts holds. */
async function catalogOf(dir: string): Promise<McpCatalog> {
  return ((await import(`${dir}/src/mcp/catalog.ts`)) as { catalog: McpCatalog }).catalog;
}

const FIXTURES = readdirSync(new URL("../fixtures/", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .filter((name) => {
    try {
      return readFileSync(new URL(`../fixtures/${name}/golden/src/mcp/catalog.ts`, import.meta.url)).length > 0;
    } catch {
      return false;
    }
  });

describe("every tool's input schema is JSON Schema an MCP client compiles", () => {
  it.each([["@avaspec/client", "../../generated"], ...FIXTURES.map((f) => [f, `../fixtures/${f}/golden`])])("%s", async (_name, dir) => {
    const index = new CatalogIndex(await catalogOf(dir));
    // strict about the schema's keywords; not about Ajv's own style rules (a union of types, a `required` name a branch inherits)
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
    addFormats.default(ajv);
    // annotation keywords this generator writes that Ajv's strict mode does not know
    ajv.addVocabulary(["example"]);
    expect(index.catalog.operations.length).toBeGreaterThan(0);
    for (const op of index.catalog.operations) {
      const schema = index.inputSchema(op);
      expect(schema["type"], op.tool).toBe("object");
      expect(op.tool, op.tool).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(() => ajv.compile(schema), op.tool).not.toThrow();
    }
  });
});
