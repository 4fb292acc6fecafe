/**
 * Issue 16, node APIs: replies in the real wire form pass the generated
 * client with strict response validation, against a real loopback server.
 * Each payload names the AvalancheGo source it is written from (the Go
 * structs at ava-labs/avalanchego 1cf1fc3d17, August 2026).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { createNodeClient } from "@avaspec/client/node";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Answers every JSON-RPC request with `result`. */
function answer(result: unknown): void {
  server.reply((req) => ({ body: { jsonrpc: "2.0", id: (JSON.parse(req.body) as { id: number }).id, result } }));
}
const node = () => createNodeClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });

// upgrade/upgrade.go, `Mainnet = Config{…}`, as encoding/json writes it: times in RFC 3339,
// GraniteEpochDuration (a time.Duration) as its nanoseconds, HeliconTime = UnscheduledActivationTime
const MAINNET_UPGRADES = {
  apricotPhase1Time: "2021-03-31T14:00:00Z",
  apricotPhase2Time: "2021-05-10T11:00:00Z",
  apricotPhase3Time: "2021-08-24T14:00:00Z",
  apricotPhase4Time: "2021-09-22T21:00:00Z",
  apricotPhase4MinPChainHeight: 793005,
  apricotPhase5Time: "2021-12-02T18:00:00Z",
  apricotPhasePre6Time: "2022-09-05T01:30:00Z",
  apricotPhase6Time: "2022-09-06T20:00:00Z",
  apricotPhasePost6Time: "2022-09-07T03:00:00Z",
  banffTime: "2022-10-18T16:00:00Z",
  cortinaTime: "2023-04-25T15:00:00Z",
  cortinaXChainStopVertexID: "jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga",
  durangoTime: "2024-03-06T16:00:00Z",
  etnaTime: "2024-12-16T17:00:00Z",
  fortunaTime: "2025-04-08T15:00:00Z",
  graniteTime: "2025-11-19T16:00:00Z",
  graniteEpochDuration: 300000000000,
  heliconTime: "9999-12-01T00:00:00Z",
};

// network/peer/info.go, `type Info struct`: upgradeTime is a uint64 (a plain JSON number, unlike
// observedUptime's json.Uint32 string); publicIP is omitempty; sets are JSON arrays
const PEER = {
  ip: "203.0.113.7:9651",
  publicIP: "203.0.113.7:9651",
  nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg",
  version: "avalanchego/1.14.2",
  upgradeTime: 1763568000,
  lastSent: "2026-08-22T15:30:01Z",
  lastReceived: "2026-08-22T15:30:02Z",
  observedUptime: "100",
  trackedSubnets: [],
  supportedACPs: [176, 226],
  objectedACPs: [],
  benched: [],
};

describe("info", () => {
  it("upgrades: the Mainnet schedule with graniteEpochDuration and heliconTime passes strict validation, typed", async () => {
    answer(MAINNET_UPGRADES);
    const upgrades = await node().info.upgrades();
    const epochNs: number | undefined = upgrades.graniteEpochDuration;
    const helicon: string | undefined = upgrades.heliconTime;
    expect(epochNs).toBe(5 * 60 * 1e9);
    expect(helicon).toBe("9999-12-01T00:00:00Z");
  });

  it("upgrades: an older node without the two fields still passes", async () => {
    const { graniteEpochDuration: _e, heliconTime: _h, ...older } = MAINNET_UPGRADES;
    answer(older);
    await expect(node().info.upgrades()).resolves.toEqual(older);
  });

  it("control: a graniteEpochDuration sent as a string fails strict validation", async () => {
    answer({ ...MAINNET_UPGRADES, graniteEpochDuration: "5m0s" });
    await expect(node().info.upgrades()).rejects.toBeInstanceOf(ValidationError);
  });

  it("peers: a peer with upgradeTime passes strict validation, typed", async () => {
    answer({ numPeers: "1", peers: [PEER] });
    const { peers } = await node().info.peers();
    const upgradeTime: number | undefined = peers[0]!.upgradeTime;
    expect(upgradeTime).toBe(1763568000);
  });
});
