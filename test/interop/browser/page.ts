/**
 * The page browser.test.ts bundles with esbuild and loads in headless
 * Chromium: one Data API call and two node JSON-RPC calls through the
 * generated clients, against the API origin given as `?api=`. Each result is
 * rendered as JSON into an <output>, or the error's name when the call fails;
 * `<body data-done>` marks the end.
 */
import { createDataApiClient } from "@avaspec/client/data-api";
import { createNodeClient } from "@avaspec/client/node";

const options = { baseUrl: new URLSearchParams(location.search).get("api") ?? "", validateResponse: "strict", retry: false } as const;
const data = createDataApiClient(options);
// wire values, to compare with what the mock answers; the default (bigint) client renders its chain id as a decimal
const node = createNodeClient({ ...options, numbers: "string" });
const bigNode = createNodeClient({ ...options, webSocket: { reconnect: { retries: 0 } } });

async function show(id: string, call: () => Promise<unknown>): Promise<void> {
  const out = document.createElement("output");
  out.id = id;
  try {
    out.textContent = JSON.stringify(await call());
    out.dataset["outcome"] = "ok";
  } catch (e) {
    out.textContent = e instanceof Error ? e.name : String(e);
    out.dataset["outcome"] = "error";
  }
  document.body.append(out);
}

await Promise.all([
  show("chain", () => data.getChainInfo({ chainId: "43114" })),
  show("node-version", () => node.info.getNodeVersion()),
  show("eth-chain-id", () => node.cChain.eth.chainId()),
  show("eth-chain-id-bigint", async () => {
    const id = await bigNode.cChain.eth.chainId();
    return `${typeof id} ${id.toString()}`;
  }),
  // the C-Chain WebSocket endpoint of the mock server, through the browser's own WebSocket
  show("ws-heads", async () => {
    const heads: string[] = [];
    for await (const head of bigNode.cChain.ws.subscribe.newHeads()) {
      heads.push(`${typeof head.number} ${String(head.number)}`);
      if (heads.length === 2) break;
    }
    await bigNode.cChain.ws.close();
    return heads;
  }),
]);
document.body.dataset["done"] = "true";
