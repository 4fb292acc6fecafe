export * from "./jsonrpc.js";
export * from "./eip1193.js";
export * from "./endpoints.js";
