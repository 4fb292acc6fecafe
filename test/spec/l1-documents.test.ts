/**
 * Issue 27, the Subnet-EVM L1 documents (spec/node-l1-rpc.openrpc.yaml and
 * node-l1-validators.openrpc.yaml). Their endpoint holds the blockchain ID
 * (`/ext/bc/{blockchainId}/…`), which the node client takes
 * (`node.l1({ blockchainId })`). The RPC document lists the methods Subnet-EVM
 * shares with the C-Chain by `$ref` to the C-Chain document. Here they are
 * held to what the other documents are held to, bundled as the package ships
 * them: the OpenRPC meta-schema, examples that validate, and replies in the
 * wire form Subnet-EVM writes (graft/subnet-evm at ava-labs/avalanchego
 * 1cf1fc3d17) accepted by their result schemas, with controls that must be
 * refused.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { bundledSpec } from "../helpers/node-specs.js";

type Doc = Record<string, any>;
const require = createRequire(import.meta.url);
const FILES = ["node-l1-rpc.openrpc.yaml", "node-l1-validators.openrpc.yaml"];
const docs = Object.fromEntries(FILES.map((f) => [f, bundledSpec(`spec/${f}`)]));

const metaValidate = (() => {
  const openrpc = { ...require("@open-rpc/meta-schema").default };
  const js = { ...(require("@json-schema-tools/meta-schema").default ?? require("@json-schema-tools/meta-schema")) };
  delete openrpc.$schema;
  delete js.$schema;
  const ajv = new Ajv.default({ strict: false, logger: false, allErrors: true, validateFormats: false });
  ajv.addSchema(js, "https://meta.json-schema.tools");
  return ajv.compile(openrpc);
})();

/** A checker for one document's schemas (its `#/components/` refs resolved). */
function checker(doc: Doc) {
  const ajv = new Ajv.default({ strict: false, allErrors: true, logger: false });
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  return (schema: unknown) => ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/')) as object);
}
const method = (file: string, name: string) => (docs[file]!.methods as Doc[]).find((m) => m.name === name)!;
const resultCheck = (file: string, name: string) => checker(docs[file]!)(method(file, name).result.schema);

describe.each(FILES)("%s", (file) => {
  const doc = docs[file]!;
  it("is valid against the OpenRPC meta-schema", () => {
    expect(metaValidate(doc), JSON.stringify(metaValidate.errors)).toBe(true);
  });

  it("declares the blockchain ID as a server variable in the endpoint path", () => {
    const server = doc.servers[0];
    // an absolute URL: the OpenRPC meta-schema's format "uri" refuses a URL that starts with a variable ({baseUrl}/…)
    expect(server.url).toMatch(/^https:\/\/api\.avax\.network\/ext\/bc\/\{blockchainId\}\/(rpc|validators)$/);
    expect(server.variables.blockchainId.default).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
  });

  it("every method has an example whose params and result validate", () => {
    const compile = checker(doc);
    for (const m of doc.methods as Doc[]) {
      const example = m.examples?.[0];
      expect(example, m.name).toBeDefined();
      for (const p of example.params) {
        const declared = (m.params as Doc[]).find((x) => x.name === p.name);
        expect(declared, `${m.name} ${p.name}`).toBeDefined();
        expect(compile(declared!.schema)(p.value), `${m.name} param ${p.name}`).toBe(true);
      }
      expect(compile(m.result.schema)(example.result.value), `${m.name} result`).toBe(true);
    }
  });

  it("is generated into the node client, in the group l1 that takes the blockchain ID", () => {
    const config = JSON.parse(readFileSync(join(ROOT, "avaspec.config.json"), "utf8")) as { inputs: { output: string; specs?: { spec: string; group?: string }[]; refs?: { allow: string[] } }[] };
    const node = config.inputs.find((i) => i.output === "node")!;
    expect(node.specs!.find((e) => e.spec === `spec/${file}`)?.group).toBe("l1");
    // the $refs into the C-Chain document are allowed, and bundled into the shipped copy
    expect(node.refs?.allow).toContain("spec/");
    expect(JSON.stringify(docs[file])).not.toContain("node-cchain-rpc.openrpc.yaml#");
  });
});

describe("the methods the L1 shares with the C-Chain, by $ref", () => {
  const text = readFileSync(join(ROOT, "spec/node-l1-rpc.openrpc.yaml"), "utf8");
  const cChain = parse(readFileSync(join(ROOT, "spec/node-cchain-rpc.openrpc.yaml"), "utf8")) as Doc;
  const refs = [...text.matchAll(/^ {2}- \$ref: "\.\/node-cchain-rpc\.openrpc\.yaml#\/methods\/(\d+)" # (\w+)$/gm)].map((m) => ({ index: Number(m[1]), written: m[2]! }));
  const real = JSON.parse(readFileSync(join(ROOT, "test/spec/real-operations/node.json"), "utf8")) as { endpoints: { endpoint: string; groups: { methods: string[] }[] }[] };
  const served = new Set(real.endpoints.find((e) => e.endpoint === "/ext/bc/{blockchainId}/rpc")!.groups.flatMap((g) => g.methods));

  it("each pointer names the method written beside it (a method added to the C-Chain document moves them)", () => {
    expect(refs.length).toBeGreaterThan(50);
    for (const r of refs) expect(cChain.methods[r.index]?.name, `#/methods/${r.index}`).toBe(r.written);
    expect(new Set(refs.map((r) => r.written)).size).toBe(refs.length);
  });

  it("are the C-Chain methods Subnet-EVM serves as the C-Chain does: none removed, unimplemented or WebSocket-only", () => {
    const shared = (cChain.methods as Doc[]).filter((m) => served.has(m.name) && m["x-avaspec-removed-in"] === undefined && m["x-avaspec-subscriptions"] === undefined && m.name !== "eth_unsubscribe");
    expect(refs.map((r) => r.written).sort()).toEqual(shared.map((m) => m.name).sort());
    // what the C-Chain marks removed at Helicon, Subnet-EVM still serves: the L1 document has its own
    const own = (parse(text) as Doc).methods.filter((m: Doc) => typeof m.name === "string").map((m: Doc) => m.name);
    expect(own).toEqual(expect.arrayContaining(["eth_coinbase", "eth_getBadBlocks", "eth_etherbase"]));
  });
});

describe("Subnet-EVM replies in the wire form pass the result schemas", () => {
  const RPC = "node-l1-rpc.openrpc.yaml";
  const VALIDATORS = "node-l1-validators.openrpc.yaml";
  // commontype.FeeConfig: *big.Int and uint64 without hexutil, so JSON numbers; lastChangedAt omitempty
  const FEE_CONFIG = { feeConfig: { gasLimit: 8000000, targetBlockRate: 2, minBaseFee: 25000000000, targetGas: 15000000, baseFeeChangeDenominator: 36, minBlockGasCost: 0, maxBlockGasCost: 1000000, blockGasCostStep: 200000 }, lastChangedAt: 1735 };
  // CurrentValidator: weight, startTimestamp, uptimeSeconds uint64 and uptimePercentage float32, all JSON numbers
  const VALIDATOR = { validationID: "9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo", nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", weight: 20, startTimestamp: 1731445206, isActive: false, isL1Validator: true, isConnected: false, uptimePercentage: 0, uptimeSeconds: 0 };

  it.each([
    ["eth_feeConfig (api_extra.go FeeConfigResult)", RPC, "eth_feeConfig", FEE_CONFIG],
    ["eth_feeConfig, never changed (lastChangedAt omitted)", RPC, "eth_feeConfig", { feeConfig: FEE_CONFIG.feeConfig }],
    ["eth_getActiveRulesAt (ActiveRulesResult: params.Rules and extras.AvalancheRules by Go field name)", RPC, "eth_getActiveRulesAt", { ethRules: { ChainID: 99999, IsHomestead: true, IsCancun: true, IsVerkle: false }, avalancheRules: { IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsFortuna: true, IsGranite: true, IsHelicon: false }, precompiles: {} }],
    ["eth_getActivePrecompilesAt (extras.Precompiles)", RPC, "eth_getActivePrecompilesAt", { txAllowListConfig: { blockTimestamp: 0, adminAddresses: ["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"] } }],
    ["eth_etherbase (common.Address)", RPC, "eth_etherbase", "0x0100000000000000000000000000000000000000"],
    ["warp_getMessage (hexutil.Bytes)", RPC, "warp_getMessage", "0x0000000000010203"],
    ["warp_getMessageSignature (96-byte BLS signature)", RPC, "warp_getMessageSignature", `0x${"ab".repeat(96)}`],
    ["warp_getBlockSignature", RPC, "warp_getBlockSignature", `0x${"cd".repeat(96)}`],
    ["warp_getMessageAggregateSignature", RPC, "warp_getMessageAggregateSignature", "0x0000000000010203040506"],
    ["warp_getBlockAggregateSignature", RPC, "warp_getBlockAggregateSignature", "0x0000000000010203040506"],
    ["validators.getCurrentValidators (GetCurrentValidatorsResponse)", VALIDATORS, "validators.getCurrentValidators", { validators: [VALIDATOR] }],
  ])("%s", (_name, file, name, reply) => {
    const check = resultCheck(file, name);
    expect(check(reply), JSON.stringify(check.errors)).toBe(true);
  });

  it.each([
    ["a fee config with hex numbers", RPC, "eth_feeConfig", { feeConfig: { gasLimit: "0x7a1200" } }],
    ["a short BLS signature", RPC, "warp_getMessageSignature", "0xabcd"],
    ["a validator weight as a decimal string (the P-Chain's form, not Subnet-EVM's)", VALIDATORS, "validators.getCurrentValidators", { validators: [{ ...VALIDATOR, weight: "20" }] }],
    ["an uptime above 100", VALIDATORS, "validators.getCurrentValidators", { validators: [{ ...VALIDATOR, uptimePercentage: 100.5 }] }],
  ])("control: %s is refused", (_name, file, name, reply) => {
    expect(resultCheck(file, name)(reply)).toBe(false);
  });

  it("params: warp aggregate signatures take quorumNum as a JSON number and the subnet ID as a string", () => {
    const m = method(RPC, "warp_getMessageAggregateSignature");
    const compile = checker(docs[RPC]!);
    const [id, quorum, subnet] = (m.params as Doc[]).map((p) => compile(p.schema));
    expect([id!("2ZYpK3uWYLhGk3RhdpPsaTtBXjZkTMqrV5amyYvSvxuwZwpGAD"), quorum!(67), subnet!("")]).toEqual([true, true, true]);
    expect(quorum!("67")).toBe(false);
  });
});
