export * from "./errors.js";
export * from "./http.js";
