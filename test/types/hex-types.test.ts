/**
 * One hex type (issue 30, point 5): every hash, address and quantity of
 * every generated client is `` `0x${string}` `` marked with `HexEncoded` (or
 * `IntegerString<"hex">`), which viem's `Hex` and `Address` take and give,
 * so a value flows from any response into any parameter and into viem with
 * no cast. Checked by the real tsc against the generated package, with viem
 * (a devDependency of this repository) resolved from its node_modules.
 */
import { describe, expect, it } from "vitest";
import { typecheckAgainstGenerated } from "../helpers/cli.js";

const FLOWS = `
import { createPublicClient, http, type Address, type Hex } from "viem";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createNodeClient, type Hash32 } from "@avaspec/client/node";

const viem = createPublicClient({ transport: http("http://127.0.0.1:9") });

export async function dataApi(numbers: "bigint" | "string") {
  const data = numbers === "bigint" ? createDataApiClient({ numbers: "bigint" }) : createDataApiClient();
  const page = await data.listTransactions({ chainId: "43114", address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F" });
  const tx = page.transactions[0]!.nativeTransaction;
  // a listed transaction's hash, straight into the Data API's own getTransaction
  const details = await data.getTransaction({ chainId: "43114", txHash: tx.txHash });
  // and into viem: its getTransaction takes a Hash, getBalance an Address
  await viem.getTransaction({ hash: tx.txHash });
  await viem.getTransaction({ blockHash: details.nativeTransaction.blockHash, index: 0 });
  await viem.getBalance({ address: tx.from.address });
  // an ERC-20 token's address from a transfer, back into a Data API parameter that takes an address
  const transfers = await data.listErc20Transactions({ chainId: "43114", address: tx.to.address });
  await data.getContractMetadata({ chainId: "43114", address: transfers.transactions[0]!.erc20Token.address });
  // and into the node client's parameters
  const node = createNodeClient();
  await node.cChain.eth.getTransactionByHash({ transactionHash: tx.txHash });
  await node.cChain.eth.getBalance({ address: tx.from.address, block: "latest" });
}

export async function node(hash: Hex, account: Address) {
  for (const node of [createNodeClient(), createNodeClient({ numbers: "string" })]) {
    // viem's Hex and Address into the node client, and its results into viem and back
    const tx = await node.cChain.eth.getTransactionByHash({ transactionHash: hash });
    const balance = await node.cChain.eth.getBalance({ address: account, block: "latest" });
    if (tx === null) return balance;
    const h: Hash32 = tx.hash;
    const asViem: Hex = h;
    await viem.getTransaction({ hash: tx.hash });
    await viem.getBalance({ address: tx.from });
    const block = await node.cChain.eth.getBlockByHash({ blockHash: tx.blockHash ?? asViem, hydratedTransactions: false });
    if (block) await viem.getBlock({ blockHash: block.parentHash });
  }
  return undefined;
}
`;

describe("one hex type across the clients and viem", () => {
  it("a Data API txHash from a listed transaction goes into getTransaction, the node client and viem without a cast", () => {
    expect(typecheckAgainstGenerated({ "flows.ts": FLOWS })).toBe("");
  }, 120_000);

  it("a string that lacks the prefix is still refused at compile time", () => {
    const out = typecheckAgainstGenerated({
      "bad.ts": `import { createDataApiClient } from "@avaspec/client/data-api";\nexport const p = createDataApiClient().getTransaction({ chainId: "43114", txHash: "023de352" });\n`,
    });
    expect(out).toMatch(/error TS2322: Type '"023de352"' is not assignable to type '`0x\$\{string\}`/);
  }, 120_000);
});
