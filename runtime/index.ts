export * from "./errors.js";
export * from "./http.js";
export * from "./jsonrpc.js";
