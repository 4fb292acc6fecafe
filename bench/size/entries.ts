/**
 * Entries of the size benchmark (`npm run bench:size`) and the one function
 * that measures them.
 *
 * Every entry is a tiny ES module that does one job the way a browser app
 * would, and exports `run` (and nothing else it does not need), so esbuild
 * keeps exactly what that job pulls in. Each is bundled on its own:
 * minified, tree-shaken, ESM, platform "browser"; the figure is the bundle's
 * bytes and its gzip (level 9) bytes.
 *
 * Groups (the job every entry of a group does):
 * - "data-op":    one GET of one REST operation with a path parameter and an
 *                 API-key header (the Data API's `getChainInfo`,
 *                 GET /v1/chains/{chainId}).
 * - "rpc-method": one JSON-RPC method, sent once on its own and once inside a
 *                 batch (or through the library's automatic batching).
 * - "package":    avaspec's bigger forms (a whole client, the whole package),
 *                 for scale.
 *
 * AVASPEC_ENTRIES need nothing but this repository (the test suite measures
 * them with the root's esbuild); PEER_ENTRIES import the packages installed
 * in bench/size/package.json, which the main package never depends on.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

export type SizeGroup = "data-op" | "rpc-method" | "package";

export interface SizeEntry {
  readonly name: string;
  readonly group: SizeGroup;
  /** ES module source, bundled from stdin. */
  readonly code: string;
}

export interface SizeResult {
  /** Minified bundle, bytes. */
  readonly min: number;
  /** The same bundle gzipped at level 9, bytes. */
  readonly gzip: number;
}

/** The generated package's sources, which `@avaspec/client` is aliased to. */
export const AVASPEC_SRC = fileURLToPath(new URL("../../generated/src", import.meta.url));
/** Where avaspec entries resolve from (the repository root). */
export const ROOT_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** Where peer entries resolve from (bench/size, with its own node_modules). */
export const PEERS_DIR = fileURLToPath(new URL(".", import.meta.url));

/** Entry names of the budgets' jobs. */
export const AVASPEC_DATA_OP = "avaspec: one Data API operation";
export const AVASPEC_RPC_METHOD = "avaspec: one JSON-RPC method incl. batching";
export const AVASPEC_WHOLE_PACKAGE = "avaspec: whole package";
export const AVASPEC_DATA_FUNCTION = "avaspec: one Data API operation, functional form";
export const AVASPEC_RPC_FUNCTION = "avaspec: one JSON-RPC method, functional form";

/** Issue 17's budget for each functional-form entry (gzip bytes): one operation through `fn(core, params)`, retries and typed errors included. */
export const FUNCTION_BUDGET = 6144;

/** Budgets, gzip bytes, for avaspec's entry of each job. */
export const BUDGETS: Readonly<Partial<Record<SizeGroup, { readonly entry: string; readonly gzip: number; readonly label: string }>>> = {
  "data-op": { entry: AVASPEC_DATA_OP, gzip: 2048, label: "one Data API op" },
  "rpc-method": { entry: AVASPEC_RPC_METHOD, gzip: 3072, label: "one JSON-RPC method incl. batching" },
};

/**
 * Subpath exports of generated/package.json that the whole-package entry
 * leaves out: "./mocks" needs msw (an optional peer), "./mock-server" is
 * a Node HTTP server (node:http) and "./mcp" the Node-only MCP server (its
 * SDK and sandbox optional peers), none of which a browser bundle can hold.
 */
const NOT_FOR_BROWSER = new Set(["./mocks", "./mock-server", "./mcp"]);

/** The package's JavaScript subpath exports, from generated/package.json ("." first). */
export function packageSubpaths(): string[] {
  const pkg = JSON.parse(readFileSync(new URL("../../generated/package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> };
  return Object.keys(pkg.exports).filter((k) => !k.includes("*") && !k.endsWith(".json") && !NOT_FOR_BROWSER.has(k));
}

function identifier(subpath: string): string {
  return subpath.replace(/^\.\/?/, "").replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase());
}

/** Re-exports every subpath (the root flat, the others as namespaces, so clashing names such as shared validators are all kept). */
function wholePackageSource(): string {
  return packageSubpaths()
    .map((p) => (p === "." ? `export * from "@avaspec/client";` : `export * as ${identifier(p)} from "@avaspec/client/${p.slice(2)}";`))
    .join("\n");
}

/**
 * avaspec's entries. Both budgeted forms include what every avaspec call
 * does: parameter checks from the spec (ValidationError before sending),
 * default retries (2, exponential backoff with jitter, Retry-After honoured)
 * for idempotent calls, a per-attempt timeout (30 s) tied to the caller's
 * AbortSignal, onRequest/onResponse hooks, API-key redaction and typed
 * errors (ApiError by status, NetworkError, TimeoutError, AbortError…).
 * Response validation is off by default, so its validators are not included.
 */
export const AVASPEC_ENTRIES: readonly SizeEntry[] = [
  {
    name: AVASPEC_DATA_OP,
    group: "data-op",
    // The lean, tree-shakable form: one operation descriptor and callHttp.
    code: `
import { callHttp, resolveHttpConfig } from "@avaspec/client";
import { DATA_API_DEFAULT_BASE_URL, getChainInfoOperation } from "@avaspec/client/data-api";
const api = resolveHttpConfig({ apiKey: "k" }, DATA_API_DEFAULT_BASE_URL);
export const run = () => callHttp(api, getChainInfoOperation, { chainId: "43114" });
`,
  },
  {
    name: AVASPEC_RPC_METHOD,
    group: "rpc-method",
    // One method descriptor, sent alone (auto-batched) and in an explicit batch.
    code: `
import { createRpcTransport } from "@avaspec/client";
import { NODE_DEFAULT_BASE_URL, infoGetNodeVersionMethod } from "@avaspec/client/node";
const rpc = createRpcTransport({ batch: { auto: true } }, NODE_DEFAULT_BASE_URL);
export const run = () => Promise.all([rpc.call(infoGetNodeVersionMethod, {}), rpc.batch((call) => [call(infoGetNodeVersionMethod, {})])]);
`,
  },
  {
    name: AVASPEC_DATA_FUNCTION,
    group: "data-op",
    // The documented tree-shakable form (README "Two forms"): the module's core and one operation function.
    code: `
import { createDataApiCore, getChainInfo } from "@avaspec/client/data-api";
const api = createDataApiCore({ apiKey: "k" });
export const run = () => getChainInfo(api, { chainId: "43114" });
`,
  },
  {
    name: AVASPEC_RPC_FUNCTION,
    group: "rpc-method",
    // viem's job below through the functional form: eth_chainId (its quantity read as a bigint) alone, and a
    // pair in one tick (automatic batching: one request).
    code: `
import { cChainEthChainId, createNodeCore } from "@avaspec/client/node";
const node = createNodeCore({ batch: { auto: true } });
export const run = () => Promise.all([cChainEthChainId(node), Promise.all([cChainEthChainId(node), cChainEthChainId(node)])]);
`,
  },
  {
    name: "avaspec: eth_getBalance, functional form (params checked)",
    group: "rpc-method",
    // For scale: a method with parameters, whose generated checks (address pattern, a block as quantity, tag,
    // hash or EIP-1898 object) and bigint-to-hex writing come along. viem checks none of these.
    code: `
import { cChainEthGetBalance, createNodeCore } from "@avaspec/client/node";
const node = createNodeCore({ batch: { auto: true } });
export const run = () => cChainEthGetBalance(node, { address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: 1n });
`,
  },
  {
    name: "avaspec: Data API client (createDataApiClient, all operations)",
    group: "package",
    // The factory's object holds every operation, pagination and the response validators (validateResponse can be switched on).
    code: `
import { createDataApiClient } from "@avaspec/client/data-api";
const client = createDataApiClient({ apiKey: "k" });
export const run = () => client.getChainInfo({ chainId: "43114" });
`,
  },
  {
    name: "avaspec: node client (createNodeClient)",
    group: "package",
    // Every node JSON-RPC method of every API (info, platform, health, indexes…) and their response validators.
    code: `
import { createNodeClient } from "@avaspec/client/node";
const client = createNodeClient();
export const run = () => client.info.getNodeVersion();
`,
  },
  {
    name: AVASPEC_WHOLE_PACKAGE,
    group: "package",
    // Everything a browser can hold: all runtime exports, all clients, types' validators and descriptors.
    code: wholePackageSource(),
  },
];

const DATA_BASE = "https://glacier-api.avax.network";
const NODE_RPC = "https://api.avax.network/ext/bc/C/rpc";

/** Peers doing the same jobs. Each comment says what the bundle holds that avaspec's does, or does not. */
export const PEER_ENTRIES: readonly SizeEntry[] = [
  {
    name: "openapi-fetch: one GET (createClient + GET)",
    group: "data-op",
    // Typed fetch wrapper: path/query/body serialisation (all OpenAPI styles), middleware.
    // No retries, no timeout, no parameter or response validation; errors are returned as { error }, not thrown.
    code: `
import createClient from "openapi-fetch";
const client = createClient({ baseUrl: "${DATA_BASE}", headers: { "x-glacier-api-key": "k" } });
export const run = () => client.GET("/v1/chains/{chainId}", { params: { path: { chainId: "43114" } } });
`,
  },
  {
    name: "@hey-api/client-fetch: one GET (createClient + get)",
    group: "data-op",
    // Runtime client of @hey-api/openapi-ts: path/query serialisation (all styles), auth, interceptors, body serialisers.
    // No retries, no timeout, no validation unless the codegen adds a validator; errors returned as { error } by default.
    code: `
import { createClient } from "@hey-api/client-fetch";
const client = createClient({ baseUrl: "${DATA_BASE}", headers: { "x-glacier-api-key": "k" } });
export const run = () => client.get({ url: "/v1/chains/{chainId}", path: { chainId: "43114" } });
`,
  },
  {
    name: "ky: one GET with default retry",
    group: "data-op",
    // "fetch + retries" baseline: retries (2 by default, backoff, Retry-After), timeout, hooks, HTTPError.
    // No OpenAPI knowledge: the URL is built by hand; no parameter or response validation.
    code: `
import ky from "ky";
export const run = () => ky.get("${DATA_BASE}/v1/chains/" + encodeURIComponent("43114"), { headers: { "x-glacier-api-key": "k" } }).json();
`,
  },
  {
    name: "ofetch: one GET with retry",
    group: "data-op",
    // "fetch + retries" baseline: retries (set to 2 like avaspec's default; its own default is 1), timeout, interceptors, FetchError, JSON parsing.
    // No OpenAPI knowledge: the URL is built by hand; no parameter or response validation.
    code: `
import { ofetch } from "ofetch";
export const run = () => ofetch("/v1/chains/" + encodeURIComponent("43114"), { baseURL: "${DATA_BASE}", headers: { "x-glacier-api-key": "k" }, retry: 2 });
`,
  },
  {
    name: "viem: createClient + http({ batch }) + request",
    group: "rpc-method",
    // The most tree-shaken form: the bare client and http transport, one request alone and one auto-batched pair.
    // Includes retries (3 by default, backoff), timeout, JSON-RPC batching and typed RPC errors; no result validation.
    code: `
import { createClient, http } from "viem";
const client = createClient({ transport: http("${NODE_RPC}", { batch: true }) });
export const run = () => Promise.all([client.request({ method: "eth_chainId" }), Promise.all([client.request({ method: "eth_chainId" }), client.request({ method: "eth_chainId" })])]);
`,
  },
  {
    name: "viem: createPublicClient(...).getChainId()",
    group: "rpc-method",
    // The documented everyday form: the public client carries every public action (not tree-shakable), same transport.
    code: `
import { createPublicClient, http } from "viem";
const client = createPublicClient({ transport: http("${NODE_RPC}", { batch: true }) });
export const run = () => Promise.all([client.getChainId(), Promise.all([client.getChainId(), client.getChainId()])]);
`,
  },
  {
    name: "ethers v6: JsonRpcProvider.send",
    group: "rpc-method",
    // JsonRpcProvider batches every request (batchMaxCount 100 by default); network detection, polling, events,
    // retries only for rate limits (429 with backoff in FetchRequest); typed errors; no result validation.
    // staticNetwork skips the detection call, not its code.
    code: `
import { JsonRpcProvider } from "ethers";
const provider = new JsonRpcProvider("${NODE_RPC}", undefined, { staticNetwork: true });
export const run = () => Promise.all([provider.send("eth_chainId", []), Promise.all([provider.send("eth_chainId", []), provider.send("eth_chainId", [])])]);
`,
  },
];

async function bundle(code: string, resolveDir: string): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents: code, resolveDir, sourcefile: "entry.ts", loader: "ts" },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: "esm",
    platform: "browser",
    write: false,
    alias: { "@avaspec/client": AVASPEC_SRC },
    logLevel: "silent",
    // Licence banners are left out for every entry alike: the figure is code.
    legalComments: "none",
  });
  return result.outputFiles[0]!.contents;
}

/** Bundles `code` (from stdin, resolved from `resolveDir`) minified and tree-shaken for the browser; returns its bytes and gzip bytes. */
export async function measure(code: string, resolveDir: string): Promise<SizeResult> {
  const bytes = await bundle(code, resolveDir);
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** The bundle `measure` measures, as text (for tests that look inside it). */
export async function bundleText(code: string, resolveDir: string): Promise<string> {
  return new TextDecoder().decode(await bundle(code, resolveDir));
}
