/**
 * The escaping choke point. Spec strings are untrusted: every identifier,
 * property key, string literal and comment that an emitter builds from spec
 * text goes through exactly one of these functions, and nothing else writes
 * spec text into generated code.
 */
import { isIdentifier } from "../ir/naming.js";

/** A name that must already be a valid identifier (the naming pass made it so). Throws otherwise: never emit a broken one. */
export function identifier(name: string): string {
  if (!isIdentifier(name)) throw new Error(`internal: ${JSON.stringify(name)} is not a safe identifier; names must come from the naming pass`);
  return name;
}

const BARE_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A property key for a type member or an object literal. Keys that are not
 * plain identifiers are quoted. In value position `__proto__` is written as a
 * computed key, because `{ "__proto__": x }` would set the prototype.
 */
export function propertyKey(name: string, position: "type" | "value" | "method" = "type"): string {
  if (position === "value" && name === "__proto__") return `[${stringLiteral(name)}]`;
  // a bare `new(…)` in an interface is a construct signature, not a method
  if (position === "method" && name === "new") return stringLiteral(name);
  return BARE_KEY.test(name) ? name : stringLiteral(name);
}

/** A double-quoted string literal; JSON escaping plus the two line separators JSON leaves raw. */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Any JSON value as a TypeScript literal expression (for literal types and data). */
export function literal(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return stringLiteral(value);
    case "number":
      return Number.isFinite(value) ? (Object.is(value, -0) ? "0" : String(value)) : "number";
    case "boolean":
      return String(value);
    default:
      throw new Error(`internal: literal() takes JSON scalars, got ${typeof value}`);
  }
}

/**
 * Text for the inside of a `/** … *\/` comment: `*\/` cannot close it,
 * control characters are dropped, a leading `@` cannot start a tag.
 */
export function comment(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, " ")
    .replace(/\*\//g, "*\\/")
    .split("\n")
    .map((line) => line.replace(/^(\s*)@/, "$1\\@").trimEnd())
    .join("\n")
    .trim();
}

/** A JSON value rendered for a comment (`@default`, `@example`). */
export function commentValue(value: unknown): string {
  return comment(JSON.stringify(value) ?? "undefined");
}
