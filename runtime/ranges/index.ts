export * from "./ranges.js";
export * from "./ranged.js";
