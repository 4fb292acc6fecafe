export * from "./types.js";
export * from "./ws.js";
