export * from "./http.js";
export * from "./paginate.js";
export * from "./styles.js";
export * from "./bodies.js";
export { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, type Budget, type ReliabilityOptions, type RequestEvent, type ResponseEvent, type RetryOptions } from "./send.js";
export * from "./with-response.js";
export { adviceFor, type ErrorAdvice } from "./advice.js";
export * from "./budget.js";
