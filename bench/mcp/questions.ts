/**
 * The questions `npm run bench:mcp` asks the MCP server of @avaspec/client,
 * each answered twice, as an agent would once it knows the API: by one
 * code-mode snippet (`execute`) that calls what it needs and returns only the
 * answer, and by the tools-mode calls that get the same facts (the agent then
 * reads the whole of each result). Addresses and ids are the specs' examples,
 * which the mock server answers.
 */

/** A tools-mode call: a tool name and its arguments. */
export type ToolCall = [string, Record<string, unknown>];

export interface Question {
  question: string;
  /** The body of an async function, run by `execute`. */
  snippet: string;
  /** The tools-mode calls, in order. */
  tools: ToolCall[];
}

const ADDRESS = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
const C_TX = "0x53e1f346639db35b81c338e7cd65748118fb55ab1e29e9534abc91475c74e07b";
const P_TX = "2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm";
const NODE_ID = "NodeID-JuHmmNsXBoxE1ypQuyxkTh9gRujPLmacY";

export const QUESTIONS: Question[] = [
  {
    question: "top 5 validators by stake",
    snippet: `const { validators } = await node.platform.getCurrentValidators({});
return validators.map((v) => ({ nodeID: v.nodeID, weight: BigInt(v.weight ?? v.stakeAmount ?? 0) }))
  .sort((a, b) => (b.weight > a.weight ? 1 : b.weight < a.weight ? -1 : 0)).slice(0, 5).map((v) => ({ ...v, weight: v.weight.toString() }));`,
    tools: [["node_platform_getCurrentValidators", {}]],
  },
  {
    question: "C-Chain balance of an address, in AVAX",
    snippet: `const wei = await node.cChain.eth.getBalance({ address: "${ADDRESS}", block: "latest" });
return Number(BigInt(wei)) / 1e18;`,
    tools: [["node_cChain_eth_getBalance", { address: ADDRESS, block: "latest" }]],
  },
  {
    question: "latest heights of the P-Chain and the C-Chain",
    snippet: `const [p, c] = await Promise.all([node.platform.getHeight(), node.cChain.eth.blockNumber()]);
return { p: p.height, c: Number(BigInt(c)) };`,
    tools: [["node_platform_getHeight", {}], ["node_cChain_eth_blockNumber", {}]],
  },
  {
    question: "an address's last 5 ERC-20 transfers",
    snippet: `const { transactions } = await dataApi.listErc20Transactions({ chainId: "43114", address: "${ADDRESS}", pageSize: 5 });
return transactions.map((t) => ({ tx: t.txHash, token: t.erc20Token.symbol, value: t.value, from: t.from.address, to: t.to.address }));`,
    tools: [["dataApi_listErc20Transactions", { chainId: "43114", address: ADDRESS, pageSize: 5 }]],
  },
  {
    question: "a transaction's status across the P-Chain, X-Chain and C-Chain",
    snippet: `const [p, x, c] = await Promise.allSettled([node.platform.getTxStatus({ txID: "${P_TX}" }), node.xChain.avm.getTxStatus({ txID: "${P_TX}" }), node.cChain.eth.getTransactionReceipt({ transactionHash: "${C_TX}" })]);
return { p: p.status === "fulfilled" ? p.value.status : p.reason.message, x: x.status === "fulfilled" ? x.value.status : x.reason.message, c: c.status === "fulfilled" ? c.value?.status ?? null : c.reason.message };`,
    tools: [["node_platform_getTxStatus", { txID: P_TX }], ["node_xChain_avm_getTxStatus", { txID: P_TX }], ["node_cChain_eth_getTransactionReceipt", { transactionHash: C_TX }]],
  },
  {
    question: "the node's version and network",
    snippet: `const [v, n] = await Promise.all([node.info.getNodeVersion(), node.info.getNetworkName()]);
return { version: v.version, network: n.networkName };`,
    tools: [["node_info_getNodeVersion", {}], ["node_info_getNetworkName", {}]],
  },
  {
    question: "current AVAX supply, in AVAX",
    snippet: `const { supply } = await node.platform.getCurrentSupply({});
return Number(BigInt(supply)) / 1e9;`,
    tools: [["node_platform_getCurrentSupply", {}]],
  },
  {
    question: "minimum validator and delegator stake, in AVAX",
    snippet: `const s = await node.platform.getMinStake({});
return { validator: Number(BigInt(s.minValidatorStake)) / 1e9, delegator: Number(BigInt(s.minDelegatorStake)) / 1e9 };`,
    tools: [["node_platform_getMinStake", {}]],
  },
  {
    question: "C-Chain gas price and base fee, in gwei",
    snippet: `const [gas, base] = await Promise.all([node.cChain.eth.gasPrice(), node.cChain.eth.baseFee()]);
return { gasPrice: Number(BigInt(gas)) / 1e9, baseFee: Number(BigInt(base)) / 1e9 };`,
    tools: [["node_cChain_eth_gasPrice", {}], ["node_cChain_eth_baseFee", {}]],
  },
  {
    question: "how many transactions the latest C-Chain block has",
    snippet: `const block = await node.cChain.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false });
return { number: Number(BigInt(block.number)), transactions: block.transactions.length };`,
    tools: [["node_cChain_eth_getBlockByNumber", { block: "latest", hydratedTransactions: false }]],
  },
  {
    question: "whether the node has bootstrapped the P, X and C chains",
    snippet: `const chains = ["P", "X", "C"];
const r = await Promise.all(chains.map((chain) => node.info.isBootstrapped({ chain })));
return Object.fromEntries(chains.map((c, i) => [c, r[i].isBootstrapped]));`,
    tools: [["node_info_isBootstrapped", { chain: "P" }], ["node_info_isBootstrapped", { chain: "X" }], ["node_info_isBootstrapped", { chain: "C" }]],
  },
  {
    question: "how many chains the Data API supports, and their names",
    snippet: `const { chains } = await dataApi.supportedChains({});
return { count: chains.length, names: chains.map((c) => c.chainName) };`,
    tools: [["dataApi_supportedChains", {}]],
  },
  {
    question: "the C-Chain's RPC URL and explorer",
    snippet: `const c = await dataApi.getChainInfo({ chainId: "43114" });
return { rpcUrl: c.rpcUrl, explorer: c.explorerUrl };`,
    tools: [["dataApi_getChainInfo", { chainId: "43114" }]],
  },
  {
    question: "an address's native balance with its USD value (Data API)",
    snippet: `const { nativeTokenBalance: b } = await dataApi.getNativeBalance({ chainId: "43114", address: "${ADDRESS}" });
return { symbol: b.symbol, balance: b.balance, decimals: b.decimals, usd: b.balanceValue?.value };`,
    tools: [["dataApi_getNativeBalance", { chainId: "43114", address: ADDRESS }]],
  },
  {
    question: "an address's ERC-20 balances, non-zero only",
    snippet: `const { erc20TokenBalances } = await dataApi.listErc20Balances({ chainId: "43114", address: "${ADDRESS}", pageSize: 100 });
return erc20TokenBalances.filter((t) => t.balance !== "0").map((t) => ({ symbol: t.symbol, balance: t.balance, decimals: t.decimals }));`,
    tools: [["dataApi_listErc20Balances", { chainId: "43114", address: ADDRESS, pageSize: 100 }]],
  },
  {
    question: "the latest 3 C-Chain blocks and their transaction counts (Data API)",
    snippet: `const { blocks } = await dataApi.getLatestBlocks({ chainId: "43114", pageSize: 3 });
return blocks.map((b) => ({ number: b.blockNumber, txCount: b.txCount }));`,
    tools: [["dataApi_getLatestBlocks", { chainId: "43114", pageSize: 3 }]],
  },
  {
    question: "a validator's current stake and uptime (Data API)",
    snippet: `const { validators } = await dataApi.getSingleValidatorDetails({ network: "mainnet", nodeId: "${NODE_ID}", pageSize: 1 });
const v = validators[0];
return v ? { status: v.validationStatus, amountStaked: v.amountStaked, uptime: v.uptimePerformance ?? null } : null;`,
    tools: [["dataApi_getSingleValidatorDetails", { network: "mainnet", nodeId: NODE_ID, pageSize: 1 }]],
  },
  {
    question: "total stake on the primary network, in AVAX",
    snippet: `const { weight } = await node.platform.getTotalStake({});
return Number(BigInt(weight)) / 1e9;`,
    tools: [["node_platform_getTotalStake", {}]],
  },
  {
    question: "active addresses on the C-Chain, the last 3 data points (Metrics API)",
    snippet: `const { results } = await metricsApi.getEvmChainMetrics({ chainId: "43114", metric: "activeAddresses", pageSize: 3 });
return results.map((r) => ({ t: r.timestamp, value: r.value }));`,
    tools: [["metricsApi_getEvmChainMetrics", { chainId: "43114", metric: "activeAddresses", pageSize: 3 }]],
  },
  {
    question: "whether the node is healthy, and which checks fail",
    snippet: `const h = await node.health.health({});
return { healthy: h.healthy, failing: Object.entries(h.checks).filter(([, c]) => c.error).map(([name]) => name) };`,
    tools: [["node_health_health", {}]],
  },
  {
    question: "how many peers the node has, and how many run the latest version",
    snippet: `const { numPeers, peers } = await node.info.peers({});
const versions = peers.map((p) => p.version);
const latest = versions.sort().at(-1);
return { numPeers, onLatest: versions.filter((v) => v === latest).length, latest };`,
    tools: [["node_info_peers", {}]],
  },
  {
    question: "a C-Chain transaction's sender, value in AVAX and status",
    snippet: `const [tx, receipt] = await Promise.all([node.cChain.eth.getTransactionByHash({ transactionHash: "${C_TX}" }), node.cChain.eth.getTransactionReceipt({ transactionHash: "${C_TX}" })]);
return tx ? { from: tx.from, avax: Number(BigInt(tx.value)) / 1e18, status: receipt?.status } : null;`,
    tools: [["node_cChain_eth_getTransactionByHash", { transactionHash: C_TX }], ["node_cChain_eth_getTransactionReceipt", { transactionHash: C_TX }]],
  },
];
