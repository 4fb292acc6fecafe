/**
 * Under `numbers: "bigint"` the result types keep their names (issue 30,
 * point 5): tsc prints `BlockWithTransactionHashes<"bigint">`, `Hash32` and
 * `Erc20Transfer<"bigint">` in its messages (what an editor's hover shows),
 * where a mapped `Decoded<T, "bigint">` printed every member spelt out.
 * Each line below assigns a result to `number`, so tsc's error prints the
 * result's type; the test reads those printed types.
 */
import { describe, expect, it } from "vitest";
import { typecheckAgainstGenerated } from "../helpers/cli.js";

const SNIPPET = `
import { createNodeClient } from "@avaspec/client/node";
import { createDataApiClient, validateErc20Transfer } from "@avaspec/client/data-api";

const node = createNodeClient();
const block = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
export const a: number = block;
export const b: number = block!.hash;
export const c: number = block!.transactions;
const full = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: true });
export const d: number = full;
export const e: number = await node.cChain.eth.getTransactionByHash({ transactionHash: block!.hash });
const wire = await createNodeClient({ numbers: "string" }).cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
export const f: number = wire!.number;
const data = createDataApiClient({ numbers: "bigint" });
for await (const t of data.listErc20Transactions.iterate({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" })) {
  const g: number = t;
  const h: number = t.txHash;
  const i: string = t.blockNumber;
  void [g, h, i];
}
const checked = validateErc20Transfer({}, { numbers: "bigint" });
if (checked.ok) {
  const j: number = checked.value;
  void j;
}
`;

/** The type tsc printed for line `line` (1-based) of the snippet: `Type '…' is not assignable to type …`. */
function printed(out: string, line: number): string {
  const m = new RegExp(`snippet\\.ts\\(${line},\\d+\\): error TS2322: Type '(.*?)' is not assignable to type`).exec(out);
  if (!m) throw new Error(`no TS2322 on line ${line} of the snippet in:\n${out}`);
  return m[1]!;
}

describe("result types keep their names under the bigint policy", () => {
  it("tsc prints the names of results, their members and list items", () => {
    const out = typecheckAgainstGenerated({ "snippet.ts": SNIPPET });
    const line = (text: string) => SNIPPET.split("\n").findIndex((l) => l.includes(text)) + 1;
    expect(printed(out, line("const a:"))).toBe('BlockWithTransactionHashes<"bigint"> | null');
    expect(printed(out, line("const b:"))).toBe("Hash32");
    // Block's transactions narrowed by BlockWithTransactionHashes's allOf: an intersection, named member by member
    expect(printed(out, line("const c:"))).toBe('Hash32[] | (TransactionInfo<"bigint">[] & Hash32[])');
    expect(printed(out, line("const d:"))).toBe('BlockWithTransactions<"bigint"> | null');
    expect(printed(out, line("const e:"))).toBe('CChainEthGetTransactionByHashResult<"bigint">');
    // the wire policy keeps the quantity's own name
    expect(printed(out, line("const f:"))).toBe("Uint");
    expect(printed(out, line("const g:"))).toBe('Erc20Transfer<"bigint">');
    expect(printed(out, line("const h:"))).toBe("EvmHash");
    expect(printed(out, line("const i:"))).toBe("bigint");
    expect(printed(out, line("const j:"))).toBe('Erc20Transfer<"bigint">');
    // and nothing else failed
    expect(out.match(/error TS/g)?.length).toBe(10);
  }, 120_000);
});
