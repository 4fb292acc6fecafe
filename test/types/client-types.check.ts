/**
 * Compiled by test/types/client-types.test.ts (and `npm run typecheck`):
 * every `@ts-expect-error` line must be an error, everything else must
 * compile. Hex values are template types, so block tags beside quantities
 * keep their literals.
 */
import type { Decoded } from "@avaspec/client";
import { cChainEthGetBalance, cChainEthGetBlockByNumber, createNodeCore, createNodeClient, type Address, type BlockNumberOrTag, type Hash32, type TransactionInfo as WireTransactionInfo, type Uint } from "@avaspec/client/node";
import { createDataApiClient, createDataApiCore, getChainInfo, getNativeBalance, type ChainInfo } from "@avaspec/client/data-api";

/** A transaction as the default node client returns it (quantities as bigints). */
type TransactionInfo = Decoded<WireTransactionInfo, "bigint">;

const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650" });
const wireNode = createNodeClient({ baseUrl: "http://127.0.0.1:9650", numbers: "string" });
const data = createDataApiClient({ baseUrl: "http://127.0.0.1:1" });

export async function hexTemplates(plain: string): Promise<void> {
  const address: Address = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
  // @ts-expect-error a hex value needs its 0x prefix
  const noPrefix: Address = "8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
  // @ts-expect-error a plain string is not known to be hex
  const unknownString: Hash32 = plain;
  const balance: Uint = await wireNode.cChain.eth.getBalance({ address, block: "latest" });
  const asHex: `0x${string}` = balance;
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

export async function numberPolicy(runtimeChoice: "bigint" | "string"): Promise<void> {
  const address = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
  // the node client's default: bigint
  const balance: bigint = await node.cChain.eth.getBalance({ address, block: "latest" });
  // @ts-expect-error not a string under the default
  const balanceText: string = await node.cChain.eth.getBalance({ address, block: "latest" });
  // numbers: "string": the wire's hex
  const wire: `0x${string}` = await wireNode.cChain.eth.getBalance({ address, block: "latest" });
  // @ts-expect-error not a bigint under numbers: "string"
  const wireBig: bigint = await wireNode.cChain.eth.getBalance({ address, block: "latest" });
  // nested: P-Chain decimal strings, a block's quantities
  const pBalance = await node.platform.getBalance({ addresses: ["P-avax1…"] });
  const amount: bigint = pBalance.balance;
  const block = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
  const height: bigint | undefined = block?.number;
  // parameters take bigint, number and the wire string, for hex and decimal integers alike
  await node.cChain.eth.getBalance({ address, block: 123n });
  await node.cChain.eth.getBalance({ address, block: 123 });
  await wireNode.cChain.eth.getBalance({ address, block: "0x7b" });
  await node.platform.getBlockByHeight({ height: 2n ** 63n });
  // @ts-expect-error a boolean is no quantity
  await node.cChain.eth.getBalance({ address, block: true });
  // HTTP clients: the wire's strings by default, bigint when asked
  const data = createDataApiClient({ baseUrl: "http://127.0.0.1:1" });
  const native = await data.getNativeBalance({ chainId: "43114", address, blockNumber: 41530011n });
  const text: string = native.nativeTokenBalance.balance;
  // @ts-expect-error the Data API's default is the wire's string
  const big: bigint = native.nativeTokenBalance.balance;
  const bigData = createDataApiClient({ baseUrl: "http://127.0.0.1:1", numbers: "bigint" });
  const asBig: bigint = (await bigData.getNativeBalance({ chainId: "43114", address })).nativeTokenBalance.balance;
  // a choice made at run time: either form
  const either = createNodeClient({ numbers: runtimeChoice });
  const maybe: bigint | `0x${string}` = await either.cChain.eth.blockNumber();
  void [balance, balanceText, wire, wireBig, amount, height, text, big, asBig, maybe];
}

export async function functionalForm(): Promise<void> {
  const address = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
  const core = createNodeCore({ baseUrl: "http://127.0.0.1:9650" });
  const balance: bigint = await cChainEthGetBalance(core, { address, block: 1n });
  const wireCore = createNodeCore({ numbers: "string" });
  const hex: `0x${string}` = await cChainEthGetBalance(wireCore, { address, block: "latest" });
  // @ts-expect-error not a bigint under numbers: "string"
  const wrong: bigint = await cChainEthGetBalance(wireCore, { address, block: "latest" });
  const full = await cChainEthGetBlockByNumber(core, { block: "latest", hydratedTransactions: true });
  const txs: TransactionInfo[] | undefined = full?.transactions;
  // @ts-expect-error a misspelt block tag
  await cChainEthGetBalance(core, { address, block: "latests" });
  const api = createDataApiCore({ apiKey: "k" });
  const chain: ChainInfo = await getChainInfo(api, { chainId: "43114" });
  const native = await getNativeBalance(api, { chainId: "43114", address });
  const text: string = native.nativeTokenBalance.balance;
  // @ts-expect-error a missing required parameter
  await getChainInfo(api, {});
  void [balance, hex, wrong, txs, chain, text];
}

export async function webSocketForms(): Promise<void> {
  const ws = node.cChain.ws;
  const height: bigint = await ws.eth.blockNumber();
  const heads = ws.subscribe.newHeads();
  for await (const head of heads) {
    const n: bigint | undefined = head.number;
    void n;
    break;
  }
  ws.subscribe.logs({ filter: { address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", fromBlock: 1n } });
  // @ts-expect-error the P-Chain has no WebSocket form
  void node.platform.ws;
  // @ts-expect-error no such subscription kind
  ws.subscribe.newBlocks();
  const wire = wireNode.cChain.ws.subscribe.newHeads();
  for await (const head of wire) {
    const hex: `0x${string}` | undefined = head.number;
    void hex;
    break;
  }
  void height;
}
