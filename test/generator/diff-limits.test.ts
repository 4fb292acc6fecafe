/**
 * `avaspec diff` and `x-avaspec-limits` (limits-rules.ts): an operation's
 * higher cost or smaller range cap is breaking-wire, a larger one
 * documentation; a document's plan whose quota per second shrinks is
 * breaking-wire, a plan that is gone breaking-code (createBudget refuses its
 * name), a new plan an addition; a server's declaration is read over its
 * document's, so a server cap that is removed falls back to the document's.
 * Each change is placed at the declaration on each side.
 */
import { expect, it } from "vitest";
import { diffModules, type Change } from "../../generator/diff/index.js";
import { diffSides, type Doc } from "../helpers/diff-sides.js";

const { side } = diffSides("avaspec-diff-limits-");
// the constant's name holds the client's, here the file's (doc12Limits): shown as <limits>
const diff = (before: Doc, after: Doc) => diffModules(side(before), side(after)).map((c: Change) => [c.rule, c.class, c.message.replace(/^doc\d+Limits/, "<limits>"), c.old?.pointer ?? null, c.new?.pointer ?? null]);

function rpc(change?: (d: Doc) => void): Doc {
  const d: Doc = {
    openrpc: "1.3.2",
    info: { title: "Node", version: "1.0.0" },
    servers: [{ name: "public", url: "https://node.example/rpc", "x-avaspec-limits": { batch: { maxItems: 40 } } }],
    "x-avaspec-limits": { unit: "compute-units", batch: { maxItems: 1000 }, plans: { free: { quotas: [{ quota: 8000, window: 60 }] }, pro: { quotas: [{ quota: 20000, window: 60 }] } } },
    methods: [
      { name: "eth_blockNumber", params: [], result: { name: "n", schema: { type: "string" } } },
      {
        name: "eth_getLogs",
        params: [{ name: "filter", required: true, schema: { type: "object", properties: { fromBlock: { type: "string" }, toBlock: { type: "string" } } } }],
        result: { name: "logs", schema: { type: "array", items: { type: "object" } } },
        "x-avaspec-limits": { cost: 200, range: { from: "filter.fromBlock", to: "filter.toBlock", unit: "blocks", maxSpan: 2048 } },
      },
    ],
  };
  change?.(d);
  return d;
}
const getLogs = (d: Doc) => d["methods"][1]["x-avaspec-limits"];

it("the same declaration: no change", () => {
  expect(diff(rpc(), rpc())).toEqual([]);
});

it("an operation's cost and range cap: tighter is breaking-wire, looser documentation, each at the declaration", () => {
  expect(diff(rpc(), rpc((d) => Object.assign(getLogs(d), { cost: 300 })))).toEqual([
    ["limit-tightened", "breaking-wire", "eth_getLogs: x-avaspec-limits cost is 300 (was 200): calls that passed may be refused, and a budget paces them more", "#/methods/1/x-avaspec-limits", "#/methods/1/x-avaspec-limits"],
  ]);
  expect(diff(rpc(), rpc((d) => (getLogs(d).range.maxSpan = 1024)))).toEqual([
    ["limit-tightened", "breaking-wire", "eth_getLogs: x-avaspec-limits range.maxSpan is 1024 (was 2048): calls that passed may be refused, and a budget paces them more", "#/methods/1/x-avaspec-limits", "#/methods/1/x-avaspec-limits"],
  ]);
  expect(diff(rpc(), rpc((d) => delete getLogs(d).range.maxSpan))).toEqual([["limit-loosened", "documentation", "eth_getLogs: x-avaspec-limits range.maxSpan is no limit (was 2048)", "#/methods/1/x-avaspec-limits", "#/methods/1/x-avaspec-limits"]]);
  // a declaration that appears: a cost above the default unit; at the method on the side without one
  expect(diff(rpc(), rpc((d) => (d["methods"][0]["x-avaspec-limits"] = { cost: 5 })))).toEqual([
    ["limit-tightened", "breaking-wire", "eth_blockNumber: x-avaspec-limits cost is 5 (was 1): calls that passed may be refused, and a budget paces them more", "#/methods/0", "#/methods/0/x-avaspec-limits"],
  ]);
});

it("a document's plans: a smaller quota per second is breaking-wire, a plan gone breaking-code, a new one an addition", () => {
  const plans = (d: Doc) => d["x-avaspec-limits"].plans;
  const changes = diff(
    rpc(),
    rpc((d) => {
      plans(d).free.quotas[0].window = 120;
      delete plans(d).pro;
      plans(d).team = { quotas: [{ quota: 50000, window: 60 }] };
    }),
  );
  expect(changes).toEqual([
    ["limit-tightened", "breaking-wire", "<limits>: x-avaspec-limits plans.free.quotas[0] (units per second) is 66.667 (was 133.333): calls that passed may be refused, and a budget paces them more", "#/x-avaspec-limits", "#/x-avaspec-limits"],
    ["limit-plan-removed", "breaking-code", '<limits>: plan "pro" is no longer declared: createBudget(…, { plan: "pro" }) refuses it', "#/x-avaspec-limits", "#/x-avaspec-limits"],
    ["limit-plan-added", "addition", '<limits>: declares plan "team"', "#/x-avaspec-limits", "#/x-avaspec-limits"],
  ].sort(byClass));
});

it("a server's declaration is read over its document's: its batch cap removed falls back to the document's 1,000", () => {
  expect(diff(rpc(), rpc((d) => delete d["servers"][0]["x-avaspec-limits"]))).toEqual([
    ["limit-loosened", "documentation", "<limits> on https://node.example/rpc: x-avaspec-limits batch.maxItems is 1000 (was 40)", "#/x-avaspec-limits", "#/x-avaspec-limits"],
  ]);
});

it("a document that stops declaring limits: its constant is gone (breaking-code)", () => {
  const changes = diff(rpc(), rpc((d) => (delete d["x-avaspec-limits"], delete d["servers"][0]["x-avaspec-limits"])));
  expect(changes.filter((c) => c[0] === "limits-removed")).toEqual([["limits-removed", "breaking-code", expect.stringMatching(/: the document no longer declares x-avaspec-limits, and the constant is no longer generated$/), "#/x-avaspec-limits", null]]);
});

const RANK = ["breaking-wire", "breaking-code", "deprecation", "addition", "documentation"];
function byClass(a: unknown[], b: unknown[]): number {
  return RANK.indexOf(a[1] as string) - RANK.indexOf(b[1] as string) || String(a[0]).localeCompare(String(b[0])) || String(a[2]).localeCompare(String(b[2]));
}
