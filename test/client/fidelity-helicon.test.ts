/**
 * Issue 16, the Helicon upgrade (AvalancheGo v1.15.0) in the generated node
 * client: what the documents mark removed or deprecated (derived from the SAE
 * VM's registrations, vms/saevm at ava-labs/avalanchego 1cf1fc3d17) stays
 * callable for older nodes, carries the release in its JSDoc and warns once on
 * first call; what coreth never implemented says so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeClient } from "@avaspec/client/node";
import { ROOT } from "../helpers/cli.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";

let server: RpcTestServer;
beforeAll(async () => {
  server = await startRpcServer();
  server.answer(() => ({ result: [] }));
});
afterAll(() => server.close());

const client = readFileSync(join(ROOT, "generated/src/node/client.ts"), "utf8");
const readme = readFileSync(join(ROOT, "generated/README.md"), "utf8");
/** The JSDoc right above a member of the client interface. */
const docOf = (member: string) => {
  const at = client.indexOf(`      ${member}(`);
  expect(at, member).toBeGreaterThan(0);
  return client.slice(client.lastIndexOf("/**", at), at);
};

describe("Helicon markers in the generated node client", () => {
  it("removed methods: @deprecated with the release; deprecated ones: since the release", () => {
    for (const m of ["accounts", "coinbase", "getBadBlocks", "startCPUProfiler", "getVMConfig"]) expect(docOf(m)).toContain("@deprecated Removed in v1.15.0 (Helicon): servers of that release and later do not serve it.");
    expect(docOf("getAtomicTxStatus")).toContain("@deprecated Since v1.15.0 (Helicon).");
    expect(docOf("simulateV1")).toMatch(/Not served everywhere: Neither Coreth nor the Helicon SAE VM implements eth_simulateV1; a real C-Chain node answers -32601/);
    expect(docOf("getBalance")).not.toContain("@deprecated");
  });

  it("the README's Lifecycle table lists them", () => {
    expect(readme).toContain("| `cChain.eth.accounts` |  |  | v1.15.0 (Helicon) |  |");
    expect(readme).toContain("| `cChain.native.getAtomicTxStatus` |  | v1.15.0 (Helicon) |  |  |");
    expect(readme).toMatch(/\| `cChain\.eth\.capabilities` \|  \|  \|  \| Neither Coreth nor the Helicon SAE VM implements eth_capabilities/);
  });

  it("a removed method is still sent (older nodes serve it) and warns once per client", async () => {
    const warnings: string[] = [];
    const node = createNodeClient({ baseUrl: server.url, retry: false, deprecationWarnings: (m) => warnings.push(m) });
    await node.cChain.eth.accounts();
    await node.cChain.eth.accounts();
    await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latest" });
    expect(server.requests.map((r) => (r.body as Envelope).method)).toEqual(["eth_accounts", "eth_accounts", "eth_getBalance"]);
    expect(warnings).toEqual(["eth_accounts was removed in v1.15.0 (Helicon): servers of that release and later do not serve it"]);
  });
});
