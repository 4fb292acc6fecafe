/**
 * What bench/overhead.ts takes from avaspec, in one module: the bench
 * bundles it with esbuild into plain JavaScript (as the published package's
 * compiled dist/ is), or imports it through tsx with BENCH_AVASPEC=source.
 */
export { callHttp, resolveHttpConfig } from "../generated/src/runtime/http/http.js";
export { DATA_API_DEFAULT_BASE_URL, createDataApiClient, createDataApiCore, getChainInfo, getChainInfoOperation } from "../generated/src/data-api/index.js";
export { cChainEthGetBalance, createNodeClient, createNodeCore } from "../generated/src/node/index.js";
