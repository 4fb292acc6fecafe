export { matchesSignal, rangeDefaults, scanFilter, scanRange, type BlockRange, type RangeProgress, type RangeScan, type ScanRangeOptions } from "./ranges.js";
export { rangedCall, rangedPaged, type RangeIterateOptions, type RangedMethod, type RangedPagedMethod } from "./ranged.js";
