export * from "./errors.js";
export * from "./statuses.js";
