/**
 * The mock runtime's core exports in one place: the table and service types
 * (types.ts), the seeded synthesis (synthesize.ts) and the service
 * (service.ts). The JSON-RPC side (rpc.ts), the synthetic chain (chain.ts)
 * and the WebSocket bridge (socket-hub.ts) are imported from their own files
 * by the generated code that needs them, so that a package of HTTP APIs
 * ships none of them. Nothing in the runtime imports this file, so it closes
 * no cycle.
 */
export * from "./types.js";
export * from "./synthesize.js";
export { createMockService } from "./service.js";
export { escapeRegExp, pathPattern } from "./routes.js";
