export * from "./ws.js";
