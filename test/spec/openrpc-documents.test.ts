/**
 * The node's OpenRPC documents against the seed: methods per endpoint, param
 * structure, deprecations, limits, fields; meta-schema valid; every example
 * pairing valid against the method's schemas (Ajv, draft-07).
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { nodeSpecs, resolveRef } from "../helpers/node-specs.js";

const require = createRequire(import.meta.url);
const specs = nodeSpecs().filter((s) => s.doc.openrpc);
const byFile = (f: string) => specs.find((s) => s.file === `spec/${f}`)!;

const metaValidate = (() => {
  const openrpc = { ...require("@open-rpc/meta-schema").default };
  const js = { ...(require("@json-schema-tools/meta-schema").default ?? require("@json-schema-tools/meta-schema")) };
  delete openrpc.$schema;
  delete js.$schema;
  const ajv = new Ajv.default({ strict: false, logger: false, allErrors: true, validateFormats: false });
  ajv.addSchema(js, "https://meta.json-schema.tools");
  return ajv.compile(openrpc);
})();

const realOperations = JSON.parse(readFileSync(join(ROOT, "test/spec/real-operations/node.json"), "utf8")) as { endpoints: { endpoint: string; groups: { methods: string[] }[] }[] };
/** The methods AvalancheGo registers at an endpoint, without the requirement's (a Set keeps each once). */
const realMethods = (endpoint: string) => realOperations.endpoints.find((e) => e.endpoint === endpoint)!.groups.flatMap((g) => g.methods);
const PROPOSERVM = ["proposervm.getCurrentEpoch", "proposervm.getProposedHeight"];
const INDEX = ["index.getContainerByID", "index.getContainerByIndex", "index.getContainerRange", "index.getIndex", "index.getLastAccepted", "index.isAccepted"];
const expected: Record<string, { endpoint: string; methods: string[] }> = {
  "node-admin.openrpc.yaml": { endpoint: "/ext/admin", methods: ["admin.alias", "admin.aliasChain", "admin.getChainAliases", "admin.getLoggerLevel", "admin.loadVMs", "admin.lockProfile", "admin.memoryProfile", "admin.setLoggerLevel", "admin.startCPUProfiler", "admin.stopCPUProfiler", ...realMethods("/ext/admin")] },
  "node-info.openrpc.yaml": { endpoint: "/ext/info", methods: ["info.acps", "info.isBootstrapped", "info.getBlockchainID", "info.getNetworkID", "info.getNetworkName", "info.getNodeID", "info.getNodeIP", "info.getNodeVersion", "info.getTxFee", "info.getVMs", "info.peers", "info.uptime", "info.upgrades"] },
  "node-health.openrpc.yaml": { endpoint: "/ext/health", methods: ["health.health", "health.readiness", "health.liveness"] },
  // the requirement's seven and, issue 27, the other 24 AvalancheGo registers (test/spec/real-operations/node.json)
  "node-platform.openrpc.yaml": { endpoint: "/ext/bc/P", methods: ["platform.getBalance", "platform.getBlock", "platform.getBlockByHeight", "platform.getBlockchains", "platform.getBlockchainStatus", "platform.getCurrentSupply", "platform.getCurrentValidators", ...realMethods("/ext/bc/P")] },
  // issue 27: the X-Chain (vms/avm/service.go) and its deprecated wallet endpoint (vms/avm/wallet_service.go)
  "node-xchain.openrpc.yaml": { endpoint: "/ext/bc/X", methods: realMethods("/ext/bc/X") },
  "node-xchain-wallet.openrpc.yaml": { endpoint: "/ext/bc/X/wallet", methods: ["wallet.issueTx"] },
  // issue 27: the proposer VM API of each primary network chain (vms/proposervm/service.go)
  "node-proposervm-p.openrpc.yaml": { endpoint: "/ext/bc/P/proposervm", methods: PROPOSERVM },
  "node-proposervm-x.openrpc.yaml": { endpoint: "/ext/bc/X/proposervm", methods: PROPOSERVM },
  "node-proposervm-c.openrpc.yaml": { endpoint: "/ext/bc/C/proposervm", methods: PROPOSERVM },
  "node-index-c-block.openrpc.yaml": { endpoint: "/ext/index/C/block", methods: INDEX },
  "node-index-p-block.openrpc.yaml": { endpoint: "/ext/index/P/block", methods: INDEX },
  "node-index-x-tx.openrpc.yaml": { endpoint: "/ext/index/X/tx", methods: INDEX },
  "node-index-x-block.openrpc.yaml": { endpoint: "/ext/index/X/block", methods: INDEX },
  "node-index-x-vtx.openrpc.yaml": { endpoint: "/ext/index/X/vtx", methods: INDEX },
  "node-cchain-admin.openrpc.yaml": { endpoint: "/ext/bc/C/admin", methods: ["admin_startCPUProfiler", "admin_stopCPUProfiler", "admin_memoryProfile", "admin_lockProfile", "admin_setLogLevel", "admin_getVMConfig"] },
  "node-cchain-native.openrpc.yaml": { endpoint: "/ext/bc/C/native", methods: ["native.getUTXOs", "native.issueTx", "native.getAtomicTxStatus", "native.getAtomicTx", "native.version"] },
  // issue 27: the atomic API as AvalancheGo registers it (vms/saevm/cchain/api.go, "avax" under /avax)
  "node-cchain-avax.openrpc.yaml": { endpoint: "/ext/bc/C/avax", methods: realMethods("/ext/bc/C/avax") },
};
const methodsOf = (s: (typeof specs)[number]) => (s.doc.methods as unknown[]).map((m) => resolveRef(s.doc, m));

describe("endpoints and methods", () => {
  it("there is one document per node endpoint", () => {
    // the Subnet-EVM L1 documents are checked in l1-documents.test.ts (their endpoint holds the blockchain ID)
    expect(specs.map((s) => s.file.replace("spec/", "")).sort()).toEqual([...Object.keys(expected), "node-cchain-rpc.openrpc.yaml", "node-l1-rpc.openrpc.yaml", "node-l1-validators.openrpc.yaml"].sort());
  });

  it.each(Object.entries(expected))("%s serves exactly its methods at its path", (file, want) => {
    const s = byFile(file);
    expect(s.endpoint).toBe(want.endpoint);
    expect(methodsOf(s).map((m) => m.name).sort()).toEqual([...new Set(want.methods)].sort());
  });

  it("the C-Chain RPC document has the seed's methods and the standard namespaces", () => {
    const s = byFile("node-cchain-rpc.openrpc.yaml");
    expect(s.endpoint).toBe("/ext/bc/C/rpc");
    const names = methodsOf(s).map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of ["eth_baseFee", "eth_maxPriorityFeePerGas", "eth_getChainConfig", "eth_getProof", "eth_chainId", "net_version", "web3_clientVersion", "web3_sha3", "net_listening", "net_peerCount", "txpool_status", "txpool_content", "txpool_inspect"]) expect(names).toContain(n);
    // the execution API's eth_ namespace
    for (const n of ["eth_blockNumber", "eth_call", "eth_estimateGas", "eth_feeHistory", "eth_gasPrice", "eth_getBalance", "eth_getBlockByHash", "eth_getBlockByNumber", "eth_getBlockReceipts", "eth_getCode", "eth_getLogs", "eth_getStorageAt", "eth_getTransactionByHash", "eth_getTransactionCount", "eth_getTransactionReceipt", "eth_sendRawTransaction", "eth_syncing", "eth_newFilter", "eth_getFilterChanges", "eth_uninstallFilter", "eth_createAccessList", "eth_blobBaseFee"]) expect(names).toContain(n);
    expect(names.filter((n) => n.startsWith("eth_")).length).toBeGreaterThanOrEqual(38);
  });
});

describe.each(specs.map((s) => [s.file, s] as const))("%s", (_file, s) => {
  it("is valid against the OpenRPC meta-schema", () => {
    expect(s.doc.openrpc).toMatch(/^1\.3\./);
    const ok = metaValidate(s.doc);
    expect(metaValidate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("every method has an example pairing whose params and result validate", () => {
    // the formats checked too (date-time, uri…): examples must hold them, and Ajv warns of each one it does not know
    const ajv = new Ajv.default({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "doc", definitions: {}, components: s.doc.components }, "doc");
    const check = (schema: unknown, value: unknown) => {
      const rewritten = JSON.parse(JSON.stringify(schema ?? {}).replace(/"#\/components\//g, '"doc#/components/'));
      const validate = ajv.compile(rewritten);
      return validate(value) ? [] : validate.errors;
    };
    for (const m of methodsOf(s)) {
      const example = resolveRef(s.doc, m.examples?.[0]);
      expect(example, `${m.name} example`).toBeDefined();
      const params = (m.params ?? []).map((p: unknown) => resolveRef(s.doc, p));
      for (const ep of example.params ?? []) {
        const p = params.find((x: { name: string }) => x.name === resolveRef(s.doc, ep).name);
        expect(p, `${m.name} example param ${ep.name}`).toBeDefined();
        expect(check(p.schema, resolveRef(s.doc, ep).value), `${m.name} param ${ep.name}`).toEqual([]);
      }
      if (m.result) expect(check(resolveRef(s.doc, m.result).schema, resolveRef(s.doc, example.result)?.value), `${m.name} result`).toEqual([]);
    }
    // the check can fail
    const first = methodsOf(s).find((m) => m.result && resolveRef(s.doc, m.result).schema);
    if (first) expect(check(resolveRef(s.doc, first.result).schema, Symbol.for("not json") as unknown)).not.toEqual([]);
  });

  it("uses the param structure the seed prescribes", () => {
    // the C-Chain's Ethereum, admin and native documents are positional; avax.* is a gorilla service like platform.*
    const cChain = (s.file.includes("cchain") && !s.file.includes("cchain-avax")) || s.file.includes("l1-rpc");
    for (const m of methodsOf(s)) {
      if (!cChain) expect(m.paramStructure, m.name).toBe("by-name");
      else expect(m.paramStructure, m.name).toBe("by-position");
      if (s.file.includes("cchain-admin") || s.file.includes("cchain-native")) {
        const params = (m.params ?? []).map((p: unknown) => resolveRef(s.doc, p));
        expect(params.length, m.name).toBeLessThanOrEqual(1);
        if (params.length === 1) {
          expect(params[0].required).toBe(true);
          expect(resolveRef(s.doc, params[0].schema).type).toBe("object");
        }
      }
    }
  });
});

describe("what the OpenRPC reference tools can read", () => {
  // @open-rpc/schema-utils-js 2.2.1 (parseOpenRPCDocument) runs out of memory on a schema that refers to itself, and
  // @open-rpc/mock-server 1.7.8 never starts (measured with a two-line Node tree, issue 27): the documents ship for
  // them, so no schema reaches itself through $refs (the C-Chain's CallFrame declares its nested calls as objects)
  const cycle = (schemas: Record<string, unknown>): string[] | undefined => {
    const refs = (node: unknown, out: Set<string>): Set<string> => {
      if (Array.isArray(node)) node.forEach((n) => refs(n, out));
      else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) out.add(v.slice("#/components/schemas/".length));
          else if (!k.startsWith("x-")) refs(v, out);
        }
      }
      return out;
    };
    const edges = new Map(Object.entries(schemas).map(([name, schema]) => [name, [...refs(schema, new Set())]]));
    const visit = (name: string, path: string[]): string[] | undefined => {
      if (path.includes(name)) return [...path, name];
      for (const next of edges.get(name) ?? []) {
        const found = visit(next, [...path, name]);
        if (found) return found;
      }
      return undefined;
    };
    for (const name of edges.keys()) {
      const found = visit(name, []);
      if (found) return found;
    }
    return undefined;
  };

  it.each(specs.map((s) => [s.file, s] as const))("%s: no schema refers to itself", (_file, s) => {
    expect(cycle(s.doc.components?.schemas ?? {})).toBeUndefined();
  });

  it("control: a self-referencing CallFrame is found", () => {
    const schemas = structuredClone(byFile("node-cchain-rpc.openrpc.yaml").doc.components.schemas);
    schemas.CallFrame.properties.calls.items = { $ref: "#/components/schemas/CallFrame" };
    expect(cycle(schemas)).toEqual(["CallFrame", "CallFrame"]);
  });
});

describe("facts from the seed", () => {
  const method = (file: string, name: string) => methodsOf(byFile(file)).find((m) => m.name === name)!;
  const param = (file: string, name: string, p: string) => resolveRef(byFile(file).doc, (method(file, name).params as unknown[]).map((x) => resolveRef(byFile(file).doc, x)).find((x: { name: string }) => x.name === p).schema);
  const schema = (file: string, name: string) => resolveRef(byFile(file).doc, byFile(file).doc.components.schemas[name]);

  it("marks the deprecated methods", () => {
    expect(method("node-platform.openrpc.yaml", "platform.getBalance").deprecated).toBe(true);
    expect(method("node-platform.openrpc.yaml", "platform.getBlockchains").deprecated).toBe(true);
    expect(method("node-info.openrpc.yaml", "info.getTxFee").deprecated).toBe(true);
    expect(method("node-info.openrpc.yaml", "info.getNodeVersion").deprecated ?? false).toBe(false);
  });

  it("keeps the limits", () => {
    expect(param("node-admin.openrpc.yaml", "admin.alias", "alias").maxLength).toBe(512);
    const n = param("node-index-c-block.openrpc.yaml", "index.getContainerRange", "numToFetch");
    expect([n.minimum, n.maximum]).toEqual([0, 1024]);
    expect(param("node-index-c-block.openrpc.yaml", "index.getLastAccepted", "encoding").enum).toEqual(["hex"]);
  });

  it("has the blockchain status enum", () => {
    expect(schema("node-platform.openrpc.yaml", "BlockchainStatus").enum).toEqual(["Validating", "Created", "Preferred", "Syncing", "Unknown"]);
  });

  it.each([
    ["node-index-c-block.openrpc.yaml", "Container", ["id", "bytes", "timestamp", "encoding", "index"]],
    ["node-health.openrpc.yaml", "HealthCheck", ["message", "error", "timestamp", "duration", "contiguousFailures", "timeOfFirstFailure"]],
    ["node-health.openrpc.yaml", "HealthResult", ["checks", "healthy"]],
    ["node-info.openrpc.yaml", "Peer", ["ip", "publicIP", "nodeID", "version", "lastSent", "lastReceived", "benched", "observedUptime", "trackedSubnets"]],
    ["node-info.openrpc.yaml", "NodeVersion", ["version", "databaseVersion", "gitCommit", "vmVersions", "rpcProtocolVersion"]],
    ["node-info.openrpc.yaml", "NodePop", ["publicKey", "proofOfPossession"]],
    ["node-platform.openrpc.yaml", "BlockchainEntry", ["id", "name", "subnetID", "vmID"]],
    ["node-platform.openrpc.yaml", "Owner", ["locktime", "threshold", "addresses"]],
    ["node-platform.openrpc.yaml", "Validator", ["txID", "startTime", "endTime", "nodeID", "weight", "validationID", "publicKey", "minNonce", "balance", "potentialReward", "delegationFee", "uptime", "delegatorCount", "delegatorWeight", "connected", "remainingBalanceOwner", "deactivationOwner", "validationRewardOwner", "delegationRewardOwner", "signer", "delegators"]],
  ])("%s %s has every field of the seed", (file, name, fields) => {
    expect(Object.keys(schema(file, name).properties ?? {})).toEqual(expect.arrayContaining(fields));
  });

  it("has every upgrade time of the schedule", () => {
    const all = readFileSync(join(ROOT, "spec/node-info.openrpc.yaml"), "utf8");
    for (const f of ["apricotPhase1Time", "apricotPhasePre6Time", "apricotPhasePost6Time", "banffTime", "cortinaTime", "durangoTime", "etnaTime", "fortunaTime", "graniteTime", "apricotPhase4MinPChainHeight", "cortinaXChainStopVertexID"]) expect(all).toContain(f);
  });

  it("writes 64-bit integers as decimal strings", () => {
    for (const s of specs.filter((x) => !x.file.includes("cchain-rpc"))) {
      const u = s.doc.components?.schemas?.Uint64String;
      if (u) expect(u).toMatchObject({ type: "string", pattern: "^(0|[1-9][0-9]*)$" });
    }
    expect(resolveRef(byFile("node-index-c-block.openrpc.yaml").doc, schema("node-index-c-block.openrpc.yaml", "Container").properties.index)).toMatchObject({ type: "string" });
  });

  it("the five indexer documents share identical components", () => {
    const comps = specs.filter((s) => s.file.includes("node-index-")).map((s) => JSON.stringify(s.doc.components));
    expect(new Set(comps).size).toBe(1);
  });
});

describe("Helicon and unimplemented methods (issue 16, derived from AvalancheGo 1cf1fc3d17)", () => {
  const all = specs.flatMap((s) => methodsOf(s).map((m) => ({ file: s.file, m })));
  const marked = (key: string, value?: string) =>
    all
      .filter(({ m }) => (value === undefined ? m[key] !== undefined : m[key] === value))
      .map(({ m }) => m.name as string)
      .sort();

  // issue 27: a removal takes effect at the Helicon activation on each network, not with the release that ships it
  const HELICON = "Helicon (v1.15.0), at its activation: Fuji 2026-07-28, Mainnet not yet scheduled";
  it("marks exactly the methods the SAE C-Chain no longer serves as removed at the Helicon activation", () => {
    expect(marked("x-avaspec-removed-in", HELICON)).toEqual(
      ["admin_getVMConfig", "admin_lockProfile", "admin_memoryProfile", "admin_setLogLevel", "admin_startCPUProfiler", "admin_stopCPUProfiler", "eth_accounts", "eth_coinbase", "eth_getBadBlocks"].sort(),
    );
    expect(marked("x-avaspec-removed-in", "v1.14.1")).toEqual(["native.version"]);
    expect(marked("x-avaspec-deprecated-in")).toEqual(["avax.getAtomicTxStatus", "native.getAtomicTxStatus"]);
    expect(marked("x-avaspec-deprecated-in", HELICON)).toHaveLength(2);
    expect(marked("x-avaspec-removed-in")).toHaveLength(10);
  });

  it("no document says a Helicon removal comes with v1.15.0 itself, and none gives an unverified Mainnet date", () => {
    for (const s of specs) {
      const text = readFileSync(join(ROOT, s.file), "utf8");
      expect(text, s.file).not.toContain('"v1.15.0 (Helicon)"');
      expect(text, s.file).not.toMatch(/Mainnet 2026-09-22/);
    }
  });

  it("every removed or deprecated method is deprecated: true and says what a current node does", () => {
    for (const { m } of all.filter(({ m }) => m["x-avaspec-removed-in"] !== undefined || m["x-avaspec-deprecated-in"] !== undefined)) {
      expect(m.deprecated, m.name).toBe(true);
      expect(m.description, m.name).toMatch(/Helicon|v1\.14\.1/);
      expect(m.description, m.name).toMatch(/-32601|-32000|404|deprecate/);
    }
  });

  const DEBUG_TRACE = ["debug_intermediateRoots", "debug_standardTraceBadBlockToFile", "debug_standardTraceBlockToFile", "debug_traceBadBlock", "debug_traceBlock", "debug_traceBlockByHash", "debug_traceBlockByNumber", "debug_traceBlockFromFile", "debug_traceCall", "debug_traceChain", "debug_traceTransaction"];
  it("marks the five execution-API methods no C-Chain implements and the eleven debug_ tracing methods, each with a sentence", () => {
    expect(marked("x-avaspec-unimplemented")).toEqual(["eth_blobBaseFee", "eth_capabilities", "eth_config", "eth_getBlockAccessList", "eth_simulateV1", ...DEBUG_TRACE].sort());
    for (const { m } of all.filter(({ m }) => m["x-avaspec-unimplemented"] !== undefined)) {
      expect(m["x-avaspec-unimplemented"], m.name).toMatch(/^[A-Z].*-32601.*\.$/);
      expect(m.deprecated ?? false, m.name).toBe(false);
      if (m.name.startsWith("debug_")) {
        // issue 27: off on public API nodes, and the config that turns them on
        expect(m["x-avaspec-unimplemented"], m.name).toMatch(/public API node.*-32601.*debug-tracer.*eth-apis/);
        expect(m.description, m.name).toMatch(/public API node/);
      } else expect(m.description, m.name).toContain("-32601");
    }
  });

  it("declares the eight Granite and Helicon block-header fields as 64-bit hex quantities", () => {
    const header = byFile("node-cchain-rpc.openrpc.yaml").doc.components.schemas.BlockHeader;
    for (const f of ["timestampMilliseconds", "minDelayExcess", "targetExponent", "minPriceExponent", "settledHeight", "settledGasUnix", "settledGasNumerator", "settledExcess"]) {
      expect(header.properties[f], f).toMatchObject({ $ref: "#/components/schemas/Uint64" });
      expect(header.required, f).not.toContain(f);
    }
  });

  it("keeps the block tag accepted and declares that the C-Chain refuses it from the Helicon activation on (x-avaspec-deprecated-values)", () => {
    const doc = byFile("node-cchain-rpc.openrpc.yaml").doc;
    expect(doc.components.schemas.BlockTag.enum).toContain("accepted");
    // on the document, not on BlockTag: the refusal is the C-Chain's, and the L1 document shares BlockTag (issue 27)
    expect(doc["x-avaspec-deprecated-values"]).toEqual([{ schema: "#/components/schemas/BlockTag", value: "accepted", removedIn: HELICON, message: expect.stringMatching(/-32602.*finalized/) }]);
    expect(doc.components.schemas.BlockTag["x-avaspec-deprecated-values"]).toBeUndefined();
    expect(byFile("node-l1-rpc.openrpc.yaml").doc["x-avaspec-deprecated-values"]).toBeUndefined();
  });

  it("the block tags include Coreth's accepted, and EIP-1898 objects are block parameters wherever Go takes rpc.BlockNumberOrHash", () => {
    const s = byFile("node-cchain-rpc.openrpc.yaml");
    expect(s.doc.components.schemas.BlockTag.enum).toContain("accepted");
    const blockParam = (name: string) => (resolveRef(s.doc, methodsOf(s).find((m) => m.name === name)) as { params: { name: string; schema: { $ref?: string } }[] }).params.find((p) => p.name === "block")!.schema.$ref;
    for (const name of ["eth_getBalance", "eth_getStorageAt", "eth_getTransactionCount", "eth_getCode", "eth_getProof", "eth_call", "eth_callDetailed", "eth_estimateGas", "eth_createAccessList", "eth_getBlockReceipts"]) {
      expect(blockParam(name), name).toBe("#/components/schemas/BlockNumberOrTagOrHash");
    }
    expect(s.doc.components.schemas.BlockNumberOrTagOrHash.anyOf).toContainEqual({ $ref: "#/components/schemas/BlockNumberOrHashObject" });
  });
});
