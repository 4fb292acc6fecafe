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
/** The JSDoc right above a member of the client interface (the first one, or the one whose JSDoc names `wire`). */
const docOf = (member: string, wire?: string) => {
  for (let at = client.indexOf(`      ${member}(`); at > 0; at = client.indexOf(`      ${member}(`, at + 1)) {
    const doc = client.slice(client.lastIndexOf("/**", at), at);
    if (wire === undefined || doc.includes(wire)) return doc;
  }
  throw new Error(`no client member ${member}${wire ? ` for ${wire}` : ""}`);
};

// Issue 27: a Helicon removal takes effect at the upgrade's activation on each network (Fuji 2026-07-28 15:00 UTC,
// upgrade/upgrade.go of the v1.15.0-fuji release; Mainnet unscheduled at ava-labs/avalanchego 1cf1fc3d17), not with the
// release that ships it: the markers name the upgrade and its activation.
const HELICON = "Helicon (v1.15.0), at its activation: Fuji 2026-07-28, Mainnet not yet scheduled";

describe("Helicon markers in the generated node client", () => {
  it("removed methods: @deprecated with the upgrade and its activation; deprecated ones: since then", () => {
    for (const m of ["accounts", "coinbase", "getBadBlocks", "startCPUProfiler", "getVMConfig"]) expect(docOf(m)).toContain(`@deprecated Removed in ${HELICON}. Servers do not serve it from then on.`);
    // the sentence follows the marker: an upgrade takes effect at its activation, not with a release (issue 27)
    expect(client).not.toContain("servers of that release and later");
    expect(docOf("getAtomicTxStatus")).toContain(`@deprecated Since ${HELICON}.`);
    expect(docOf("simulateV1")).toMatch(/Not served everywhere: Neither Coreth nor the Helicon SAE VM implements eth_simulateV1; a real C-Chain node answers -32601/);
    expect(docOf("getBalance", "eth_getBalance")).not.toContain("@deprecated");
  });

  it("the README's Lifecycle table lists them", () => {
    expect(readme).toContain(`| \`cChain.eth.accounts\` |  |  | ${HELICON} |  |`);
    expect(readme).toContain(`| \`cChain.native.getAtomicTxStatus\` |  | ${HELICON} |  |  |`);
    expect(readme).toContain(`| \`cChain.avax.getAtomicTxStatus\` |  | ${HELICON} |  |  |`);
    expect(readme).toMatch(/\| `cChain\.eth\.capabilities` \|  \|  \|  \| Neither Coreth nor the Helicon SAE VM implements eth_capabilities/);
  });

  it("a removed method is still sent (older nodes serve it) and warns once per client", async () => {
    const warnings: string[] = [];
    const node = createNodeClient({ baseUrl: server.url, retry: false, deprecationWarnings: (m) => warnings.push(m) });
    await node.cChain.eth.accounts();
    await node.cChain.eth.accounts();
    await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latest" });
    expect(server.requests.map((r) => (r.body as Envelope).method)).toEqual(["eth_accounts", "eth_accounts", "eth_getBalance"]);
    expect(warnings).toHaveLength(1);
    expect(warnings).toEqual([`eth_accounts is removed in ${HELICON}; servers do not serve it from then on`]);
  });
});
