/**
 * Issue 27, the proposer VM API of the P-, X- and C-Chain and the three further
 * admin methods: replies in the wire form AvalancheGo writes
 * (vms/proposervm/service.go and api/admin/service.go at ava-labs/avalanchego
 * 1cf1fc3d17) pass strict validation through the generated client on a
 * loopback server, and each call goes to its chain's path.
 */
import { describe, expect, it } from "vitest";
import { ValidationError } from "@avaspec/client";
import { describeWireCases, useFidelityServer, type WireCase } from "../helpers/fidelity.js";

const f = useFidelityServer();
// GetEpochResponse: number, startTime, pChainHeight are json.Uint64 (decimal strings)
const EPOCH = { number: "32118", startTime: "1787412300", pChainHeight: "18231690" };
// api.GetHeightResponse
const HEIGHT = { height: "18231695" };

const proposervm: WireCase[] = [
  { method: "proposervm.getProposedHeight", source: "P-Chain, jsonrpcService.GetProposedHeight", path: "/ext/bc/P/proposervm", call: (n) => n.platform.proposervm.getProposedHeight(), params: undefined, reply: HEIGHT },
  { method: "proposervm.getCurrentEpoch", source: "P-Chain, jsonrpcService.GetCurrentEpoch", path: "/ext/bc/P/proposervm", call: (n) => n.platform.proposervm.getCurrentEpoch(), params: undefined, reply: EPOCH },
  { method: "proposervm.getProposedHeight", source: "X-Chain, jsonrpcService.GetProposedHeight", path: "/ext/bc/X/proposervm", call: (n) => n.xChain.proposervm.getProposedHeight(), params: undefined, reply: HEIGHT },
  { method: "proposervm.getCurrentEpoch", source: "X-Chain, jsonrpcService.GetCurrentEpoch", path: "/ext/bc/X/proposervm", call: (n) => n.xChain.proposervm.getCurrentEpoch(), params: undefined, reply: EPOCH },
  { method: "proposervm.getProposedHeight", source: "C-Chain, jsonrpcService.GetProposedHeight", path: "/ext/bc/C/proposervm", call: (n) => n.cChain.proposervm.getProposedHeight(), params: undefined, reply: HEIGHT },
  { method: "proposervm.getCurrentEpoch", source: "C-Chain, jsonrpcService.GetCurrentEpoch", path: "/ext/bc/C/proposervm", call: (n) => n.cChain.proposervm.getCurrentEpoch(), params: undefined, reply: EPOCH },
];

const admin: WireCase[] = [
  // Stacktrace: api.EmptyReply
  { method: "admin.stacktrace", source: "api/admin/service.go Stacktrace, api.EmptyReply", path: "/ext/admin", call: (n) => n.admin.stacktrace(), params: undefined, reply: {} },
  // GetConfig: the node's config/node.Config as encoding/json writes it (httpConfig, networkID, databaseConfig, …)
  {
    method: "admin.getConfig",
    source: "api/admin/service.go GetConfig, config/node.Config",
    path: "/ext/admin",
    call: (n) => n.admin.getConfig(),
    params: undefined,
    reply: { httpConfig: { httpHost: "127.0.0.1", httpPort: 9650, httpsEnabled: false, apiConfig: { adminAPIEnabled: true } }, networkID: 1, databaseConfig: { readOnly: false, path: "/home/avax/.avalanchego/db", name: "leveldb" }, upgradeConfig: { heliconTime: "9999-12-01T00:00:00Z" } },
  },
  // DbGet: DBGetReply; errorCode is the rpcdbpb.Error proto enum, a JSON number
  { method: "admin.dbGet", source: "api/admin/service.go DbGet, DBGetReply", path: "/ext/admin", call: (n) => n.admin.dbGet({ key: "0x6c617374416363657074656400" }), params: { key: "0x6c617374416363657074656400" }, reply: { value: "0x2b7a8c6c", errorCode: 0 } },
];

describeWireCases("proposer VM: each chain's endpoint", f, proposervm);
describeWireCases("admin: the three further methods", f, admin);

describe("controls", () => {
  it("admin.dbGet of a missing key: no error, an empty value and errorCode 2 (rpcdb.ErrorToRPCError returns nil for not found)", async () => {
    f.answer({ value: "", errorCode: 2 });
    await expect(f.node().admin.dbGet({ key: "0x00" })).resolves.toEqual({ value: "", errorCode: 2 });
  });

  it.each([
    ["an epoch number as a JSON number", (n: ReturnType<typeof f.node>) => n.cChain.proposervm.getCurrentEpoch(), { ...EPOCH, number: 32118 }],
    ["a dbGet errorCode as the proto enum's name", (n: ReturnType<typeof f.node>) => n.admin.dbGet({ key: "0x00" }), { value: "", errorCode: "ERROR_NOT_FOUND" }],
  ])("control: %s fails strict validation", async (_name, call, reply) => {
    f.answer(reply);
    await expect(call(f.node())).rejects.toBeInstanceOf(ValidationError);
  });

  it("control: a dbGet key that is not whole bytes of hex is refused before sending", async () => {
    const before = f.server().requests.length;
    await expect(f.node().admin.dbGet({ key: "0x123" })).rejects.toBeInstanceOf(ValidationError);
    expect(f.server().requests.length).toBe(before);
  });
});
