export * from "./errors.js";
export * from "./http-stream.js";
export * from "./sse.js";
export * from "./lines.js";
export { type ConsumerOptions, type StreamBuffer } from "./consumer.js";
export { type ReconnectPolicy } from "./backoff.js";
