/**
 * The committed package says each thing once (issue 28): the C-Chain methods
 * are declared once and the WebSocket form and the L1s' methods are typed
 * from them, the standard JSON-RPC errors are listed once per client,
 * validators of the same shape are one function and hold no `if (true)`, and
 * the node client stays within its budget of lines per method.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../generated/src/${path}`, import.meta.url), "utf8");
const client = read("node/client.ts");
const count = (text: string, what: string | RegExp) => (typeof what === "string" ? text.split(what).length - 1 : (text.match(what) ?? []).length);

describe("generated code without repetition", () => {
  it("declares each C-Chain method once; the WebSocket form is typed from the HTTP groups", () => {
    expect(count(client, "chainId(params?: CChainEthChainIdParams, options?: CallOptions)")).toBe(1);
    expect(count(client, "getBalance(params: CChainEthGetBalanceParams, options?: CallOptions)")).toBe(1);
    expect(client).toContain('readonly ws: Pick<NodeClient<N>["cChain"], "eth" | "web3" | "net" | "txpool" | "debug"> & {');
  });

  it("declares the methods an L1 shares with the C-Chain once; l1(…) takes them from cChain", () => {
    expect(count(client, /chainId\(params\?: \w+ChainIdParams, options\?: CallOptions\)/g)).toBe(1);
    expect(count(client, /getBalance\(params: \w*EthGetBalanceParams, options\?: CallOptions\)/g)).toBe(1);
    expect(count(client, "* Returns the EVM chain id.")).toBe(1);
    expect(client).toMatch(/readonly eth: Pick<\n\s+NodeClient<N>\["cChain"\]\["eth"\],\n\s+\| "chainId"\n/);
    expect(client).toContain('readonly web3: Pick<NodeClient<N>["cChain"]["web3"], "clientVersion" | "sha3">;');
    expect(client).toContain("JSON-RPC `eth_chainId` at `/ext/bc/C/rpc`, and as `l1(…).eth.chainId` at `/ext/bc/{blockchainId}/rpc`");
    // what the L1 serves and the C-Chain does not stays on l1(…)
    expect(client).toContain("feeConfig(params?: L1EthFeeConfigParams, options?: CallOptions): Promise<T.L1FeeConfigResult>;");
  });

  it("lists the standard JSON-RPC errors once, on the client; a method's own errors stay on it", () => {
    expect(count(client, '@throws {@link ParseError} code -32700: "Parse error"')).toBe(1);
    expect(count(client, '@throws {@link MethodNotFoundError} code -32601: "Method not found"')).toBe(1);
    // every declared method that throws the whole set says so in one line (a method an L1 shares with the C-Chain is declared once)
    expect(count(client, "@throws the standard JSON-RPC errors (listed on {@link NodeClient})")).toBeGreaterThan(80);
    // admin.alias declares its own error and two standard ones (not the whole set): all three stay on it
    expect(client).toMatch(/@throws \{@link AliasTooLongError\} code -32000: "alias length is too long"\n\s+\* @throws \{@link InvalidParamsError\}/);
  });

  it("compiles validators of the same shape once, with no if (true)", () => {
    for (const module of ["node", "data-api", "metrics-api"]) {
      const text = read(`${module}/validators.js`);
      expect(count(text, "if (true)")).toBe(0);
      const bodies = [...text.matchAll(/^function \$\w+\(x, p, e\) \{\n([\s\S]*?)^\}\n/gm)].map((m) => m[1]);
      expect(bodies.length - new Set(bodies).size).toBe(0);
    }
  });

  it("keeps the node client within 60 % of its 76.9 lines per method before issue 28", () => {
    const out = execFileSync(process.execPath, ["scripts/generated-lines.mjs", "--json", "--no-duplicates"], { cwd: new URL("../..", import.meta.url), encoding: "utf8" });
    const { nodeClient } = JSON.parse(out) as { nodeClient: { perMethod: number } };
    expect(nodeClient.perMethod).toBeLessThanOrEqual(76.9 * 0.6);
  });
});
