/**
 * The mock runtime's exports in one place: the table and service types
 * (types.ts), the seeded synthesis (synthesize.ts), the service
 * (service.ts) and the WebSocket bridge (socket-hub.ts). Nothing in the
 * runtime imports this file, so it closes no cycle.
 */
export * from "./types.js";
export * from "./synthesize.js";
export { createMockService } from "./service.js";
export { escapeRegExp, pathPattern } from "./routes.js";
export * from "./socket-hub.js";
