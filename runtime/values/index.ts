export type { Check, StandardIssue, StandardResult, StandardSchemaV1, ValidationResult } from "./validate.js";
export { decodeIntegers, encodeIntegers, type Decoded, type Encodable, type HexEncoded, type IntegerString, type Numbered, type Numbers } from "./numbers.js";
export * from "./values.js";
export type { DocumentLimits, LimitKind, LimitPlan, LimitSignal, LimitSignals, OperationLimits, RangeLimit, ServiceLimits } from "./limits.js";
