export * from "./errors.js";
export * from "./http.js";
export * from "./jsonrpc.js";
export * from "./eip1193.js";
export type { Check, StandardIssue, StandardResult, StandardSchemaV1, ValidationResult } from "./validate.js";
export * from "./paginate.js";
export * from "./styles.js";
export * from "./bodies.js";
export { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, type ReliabilityOptions, type RequestEvent, type ResponseEvent, type RetryOptions } from "./send.js";
