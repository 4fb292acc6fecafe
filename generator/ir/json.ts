/**
 * The JSON values a spec holds (examples, defaults, enums, consts) and the
 * JSON Schema type names, for every stage that reads them.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** Whether a JSON value is of one of the types (an integral number is an "integer" too, any number a "number"). */
export function fitsTypes(value: unknown, types: readonly JsonType[]): boolean {
  if (value === null) return types.includes("null");
  if (Array.isArray(value)) return types.includes("array");
  switch (typeof value) {
    case "string":
      return types.includes("string");
    case "boolean":
      return types.includes("boolean");
    case "number":
      return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
    case "object":
      return types.includes("object");
    default:
      return false;
  }
}
