// Type-checked by `npm run typecheck`: the README's examples must compile against the generated client.
import { AbortError, ApiError, RateLimitError, TimeoutError, bindEndpoint, callHttp, createEip1193Provider, createRpcTransport, resolveHttpConfig, withEndpoint } from "@avaspec/client";
import { DATA_API_DEFAULT_BASE_URL, createDataApiClient, dataApiResults, getChainInfoOperation, type ChainInfo } from "@avaspec/client/data-api";
import { NODE_DEFAULT_BASE_URL, cChainProviderMethods, createNodeClient, infoGetNodeVersionMethod, l1EthChainId, l1EthChainIdMethod, type CChainRpcSchema } from "@avaspec/client/node";

export async function readmeNodeExample(): Promise<void> {
  const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650" });
  const { version } = await node.info.getNodeVersion();
  const validators = await node.platform.getCurrentValidators({ nodeIDs: ["NodeID-…"] });
  const balance = await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latest" });
  await node.cChain.admin.setLogLevel({ level: "info" });
  const last = await node.index.cBlock.getLastAccepted({ encoding: "hex" });
  const health = await node.http.getHealth({ tag: ["11111111111111111111111111111111LpoYY"] });
  const [id, height] = await node.batch((n) => [n.info.getNodeID(), n.cChain.eth.blockNumber()] as const);
  if (id.ok) console.log(id.value.nodeID);
  if (height.ok) console.log(height.value + 1n);
  const dexalot = node.l1({ blockchainId: "21Ths5Afqi5r4PaoV8r8cruGZWhN11y5rxvy89K8px7pKy3P8E" });
  const chainId: bigint = await dexalot.eth.chainId();
  const { feeConfig } = await dexalot.eth.feeConfig();
  const { validators: l1Validators } = await dexalot.validators.getCurrentValidators();
  console.log(version, validators.validators.length, balance, last.id, health.healthy, chainId, feeConfig.gasLimit, l1Validators.length);
}

// The README's "Endpoints with path variables" example.
export async function readmeEndpointVariablesExample(): Promise<void> {
  const { createPublicClient, custom } = await import("viem");
  const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650", batch: { auto: true } });
  const dfk = node.l1({ blockchainId: "q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi" });
  const [a, b] = await Promise.all([dfk.eth.blockNumber(), node.cChain.eth.blockNumber()]);
  const viemDfk = createPublicClient({ transport: custom(dfk.provider, { retryCount: 0 }) });
  const core = createNodeCore();
  const id = await l1EthChainId(withEndpoint(core, { blockchainId: "q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi" }));
  const rpc = createRpcTransport({}, NODE_DEFAULT_BASE_URL);
  const hex = await rpc.call(bindEndpoint(l1EthChainIdMethod, { blockchainId: "q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi" }), {});
  console.log(a + b, viemDfk, id + 1n, hex.startsWith("0x"));
}

// The README's "Reliability" example.

declare const log: { debug(message: string): void };
declare function traceparent(): string;
declare function use(tx: unknown): void;

export async function readmeReliabilityExample(address: `0x${string}`, signal: AbortSignal): Promise<void> {
  const data = createDataApiClient({
    apiKey: process.env["AVAX_API_KEY"],
    retry: { retries: 4, baseDelayMs: 250 },
    timeoutMs: 10_000,
    onRequest: (e) => e.setHeader("traceparent", traceparent()),
    onResponse: (e) => log.debug(`${e.operationId} #${e.attempt} → ${e.status ?? e.error?.name} ${e.durationMs}ms`),
  });
  try {
    for await (const tx of data.listErc20Transactions.iterate({ chainId: "43114", address }, { limit: 1_000, signal })) use(tx);
  } catch (e) {
    if (e instanceof RateLimitError) console.error(`rate limited; retry in ${e.retryAfterMs ?? "?"} ms`);
    else if (e instanceof TimeoutError || e instanceof AbortError) console.error(e.message);
    else if (e instanceof ApiError) console.error(e.statusCode, e.messages, `after ${e.attempts} attempts`);
    else throw e;
  }
}

// The README's "Smallest bundles" example: descriptors are typed, so calls infer params and results.
export async function readmeDescriptorExample(): Promise<void> {
  const api = resolveHttpConfig({ apiKey: process.env["AVAX_API_KEY"] }, DATA_API_DEFAULT_BASE_URL);
  const chain: ChainInfo = await callHttp(api, getChainInfoOperation, { chainId: "43114" });
  // @ts-expect-error a wrong param name is a type error
  await callHttp(api, getChainInfoOperation, { chain: "43114" });
  const rpc = createRpcTransport({}, NODE_DEFAULT_BASE_URL);
  const { version } = await rpc.call(infoGetNodeVersionMethod, {});
  const [a, b] = await rpc.batch((call) => [call(infoGetNodeVersionMethod, {}), call(infoGetNodeVersionMethod, {})] as const);
  const checked = resolveHttpConfig({ validateResponse: "strict" }, DATA_API_DEFAULT_BASE_URL, dataApiResults);
  console.log(chain.chainName, version, a.ok && a.value.version, b.ok, checked.validateResponse);
}

// The README's "Mocks" overrides: typed by operation id and JSON-RPC method name.

export function readmeMocksExample(mocks: import("@avaspec/client/mocks").Mocks): void {
  mocks.override("getChainInfo", { status: 503 }); // also: body, headers, delay, networkError
  mocks.override("getChainInfo", { status: 404, body: { message: "no such chain", statusCode: 404, error: "Not Found" } });
  mocks.override("info.getNodeVersion", { rpcError: { code: -32000, message: "bootstrapping" } });
  mocks.override("info.getNodeVersion", { body: { version: "avalanchego/1.13.0", databaseVersion: "v1.4.5", rpcProtocolVersion: "39", gitCommit: "abc", vmVersions: {} } });
}

// The README's "viem and ethers" example.
export async function readmeProviderExample(): Promise<void> {
  const { createPublicClient, custom, rpcSchema } = await import("viem");
  const { avalanche } = await import("viem/chains");
  const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650", batch: { auto: true } });
  const client = createPublicClient({ chain: avalanche, transport: custom(node.cChain.provider, { retryCount: 0 }), rpcSchema: rpcSchema<CChainRpcSchema>() });
  const height: bigint = await client.getBlockNumber();
  const wei: string = await client.request({ method: "eth_getBalance", params: ["0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", "latest"] });
  const chainId: string = await node.cChain.provider.request({ method: "eth_chainId" });
  const strict = createEip1193Provider<CChainRpcSchema>(createRpcTransport({}, NODE_DEFAULT_BASE_URL).call, "/ext/bc/C/rpc", cChainProviderMethods, { unknownMethods: "reject" });
  console.log(height, wei, chainId, strict);
}

// The README's "Numbers" and "Two forms" examples.
import { createDataApiCore, getChainInfo } from "@avaspec/client/data-api";
import { cChainEthGetBalance, createNodeCore, infoGetNodeVersion } from "@avaspec/client/node";

export async function readmeNumbersExample(address: `0x${string}`): Promise<void> {
  const node = createNodeClient();
  const wei: bigint = await node.cChain.eth.getBalance({ address, block: 41_530_011n });
  const hex = await createNodeClient({ numbers: "string" }).cChain.eth.blockNumber();
  const asHex: `0x${string}` = hex;
  const data = createDataApiClient({ numbers: "bigint" });
  const balance: bigint = (await data.getNativeBalance({ chainId: "43114", address })).nativeTokenBalance.balance;
  console.log(wei, asHex, balance);
}

export async function readmeTwoFormsExample(address: `0x${string}`): Promise<void> {
  const api = createDataApiCore({ apiKey: process.env["AVAX_API_KEY"] });
  const chain: ChainInfo = await getChainInfo(api, { chainId: "43114" });
  const node = createNodeCore({ batch: { auto: true } });
  const [wei, { version }] = await Promise.all([cChainEthGetBalance(node, { address, block: "latest" }), infoGetNodeVersion(node)]);
  const strict = createDataApiCore({ validateResponse: "strict", results: dataApiResults });
  console.log(chain.chainName, wei + 1n, version, strict.numbers);
}

// The README's "WebSocket" example.
import WebSocket from "ws";
import type { WebSocketConstructor } from "@avaspec/client";

export async function readmeWebSocketExample(token: `0x${string}`): Promise<void> {
  const node = createNodeClient({ baseUrl: "http://127.0.0.1:9650", webSocket: { WebSocket: WebSocket as unknown as WebSocketConstructor } });
  const height = await node.cChain.ws.eth.blockNumber();
  const [id, block] = await node.cChain.ws.batch((ws) => [ws.eth.chainId(), ws.eth.getBlockByNumber({ block: "latest", hydratedTransactions: false })] as const);
  for await (const head of node.cChain.ws.subscribe.newHeads()) {
    if (head.number! > height + 10n) break;
  }
  // what the example's consumer keeps its logs in
  const store = { add: (log: { blockNumber?: bigint }) => void log, dropFrom: (height: bigint) => void height };
  const logs = node.cChain.ws.subscribe.logs({ filter: { address: token } }, {
    onData: (log) => store.add(log),
    onReconnect: ({ missedFrom, missedTo, backfilled }) => console.log(`gap ${missedFrom}…${missedTo}: ${backfilled} backfilled`),
    onReorg: ({ number }) => store.dropFrom(number),
    onInvalid: (e) => console.warn(e.message, e.issues),
  });
  await logs.unsubscribe();
  await node.cChain.ws.close();
  console.log(id, block);
}

// The README's "Pagination" example.
export async function readmePaginationExample(chainId: string, address: `0x${string}`): Promise<void> {
  const data = createDataApiClient();
  for await (const tx of data.listErc20Transactions.iterate({ chainId, address }, { limit: 500 })) console.log(tx.txHash);
  for await (const page of data.listErc20Transactions.pages({ chainId, address }, { maxPages: 3 })) console.log(page.transactions.length);
}

// The README's "Range splitting" example: iterate on the members that declare a range.
export async function readmeRangeExample(signal: AbortSignal): Promise<void> {
  const node = createNodeClient();
  const address = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC" as const;
  const logs = node.cChain.eth.getLogs.iterate({ fromBlock: 0, toBlock: "latest", address }, { signal, onProgress: (p) => console.log(p.done, "/", p.total) });
  for await (const log of logs) console.log(log);
  console.log(logs.progress.done, logs.progress.total, logs.progress.windows, logs.progress.retries);
  // an L1's eth_getLogs has it too, its head being that L1's eth_blockNumber
  const l1Logs = node.l1({ blockchainId: "21Ths5Afqi5r4PaoV8r8cruGZWhN11y5rxvy89K8px7pKy3P8E" }).eth.getLogs.iterate({ fromBlock: 0 }, { window: 2048 });
  for await (const log of l1Logs) console.log(log);
  const data = createDataApiClient();
  const head = async () => 70_000_000;
  for await (const transfer of data.listErc20Transactions.iterate({ chainId: "43114", address, startBlock: 60_000_000 }, { window: 10_000, head })) console.log(transfer.blockNumber);
}
