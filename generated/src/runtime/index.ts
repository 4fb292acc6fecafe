export * from "./errors.js";
export * from "./http.js";
export * from "./jsonrpc.js";
export type { Check, StandardIssue, StandardResult, StandardSchemaV1, ValidationResult } from "./validate.js";
export * from "./paginate.js";
