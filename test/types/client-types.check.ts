/**
 * Compiled by test/types/client-types.test.ts (and `npm run typecheck`):
 * every `@ts-expect-error` line must be an error, everything else must
 * compile. Hex values are template types, so block tags beside quantities
 * keep their literals.
 */
import { createNodeClient, type Address, type BlockNumberOrTag, type Hash32, type TransactionInfo, type Uint } from "@avaspec/client/node";
import { createDataApiClient } from "@avaspec/client/data-api";

const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650" });
const data = createDataApiClient({ baseUrl: "http://127.0.0.1:1" });

export async function hexTemplates(plain: string): Promise<void> {
  const address: Address = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
  // @ts-expect-error a hex value needs its 0x prefix
  const noPrefix: Address = "8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
  // @ts-expect-error a plain string is not known to be hex
  const unknownString: Hash32 = plain;
  const balance: Uint = await node.cChain.eth.getBalance({ address, block: "latest" });
  const asHex: `0x${string}` | `0X${string}` = balance;
  await node.cChain.eth.getBalance({ address, block: "0x1b4" });
  await data.getNativeBalance({ chainId: "43114", address });
  // @ts-expect-error the Data API's address is hex too
  await data.getNativeBalance({ chainId: "43114", address: plain });
  void [noPrefix, unknownString, asHex];
}

export async function blockTags(): Promise<void> {
  const tag: BlockNumberOrTag = "finalized";
  await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: tag });
  // @ts-expect-error a misspelt block tag is not a quantity either
  await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latests" });
  // @ts-expect-error nor a block number without its 0x prefix
  await node.cChain.eth.getBlockByNumber({ block: "436", hydratedTransactions: false });
}

export async function hydratedNarrowing(flag: boolean): Promise<void> {
  const full = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: true });
  if (full) {
    const txs: TransactionInfo[] = full.transactions;
    // @ts-expect-error full transactions are not hashes
    const asHashes: Hash32[] = full.transactions;
    void [txs, asHashes];
  }
  const hashes = await node.cChain.eth.getBlockByHash({ blockHash: "0x65e18b272c7a0753ac84df6ccfc932a49008e9b1a5768bb8fdc6a870e0ab09ff", hydratedTransactions: false });
  if (hashes) {
    const ids: Hash32[] = hashes.transactions;
    // @ts-expect-error hashes are not transaction objects
    const asTxs: TransactionInfo[] = hashes.transactions;
    void [ids, asTxs];
  }
  const either = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: flag });
  if (either) {
    // @ts-expect-error with a flag known only at run time, transactions may be either form
    const unknownForm: TransactionInfo[] = either.transactions;
    void unknownForm;
  }
  // inside a batch too
  const [a] = await node.batch((n) => [n.cChain.eth.getBlockByNumber({ block: "0x1", hydratedTransactions: true })] as const);
  if (a.ok && a.value) {
    const batched: TransactionInfo[] = a.value.transactions;
    void batched;
  }
}
