/**
 * What the keyword emitters (scalars, objects, arrays, composition,
 * unevaluated, predicate) need of the validator compiler: the checks of
 * subschemas, hoisted constants, failure statements and the runtime helpers
 * used. The compiler (compile.ts) implements it; each keyword module is a set
 * of functions over it, so none needs to know how the others work.
 */
import type { RawText } from "../../print.js";
import type { WriterFunction } from "../../writer.js";
import type { IrSchema, JsonValue } from "../../ir/types.js";
import type { Lines } from "./lines.js";

export interface CheckEmitter {
  /** Runtime helpers the output uses (imported from runtime/values/validate.js). */
  readonly helpers: Set<string>;
  /** The check function's name for any schema (emitted on first use). */
  check(s: IrSchema): string;
  /** A named schema's node, by its key. */
  resolve(key: string): IrSchema | undefined;
  /** A fresh number for a generated name. */
  nextId(): number;
  /** Adds a top-level declaration, in creation order. */
  declare(decl: WriterFunction | RawText): void;
  /** A declaration slot kept in creation order, filled later (for functions whose body names others). */
  reserve(): (decl: WriterFunction | RawText) => void;
  /** A function with this parameter list and body, once per distinct body: its name (`${prefix}N`). */
  shared(prefix: string, params: string, body: string): string;
  /** Hoists a pure expression once per distinct text: the constant's name. */
  hoist(text: string): string;
  /** Hoists a JSON value as a constant: its name. */
  hoistValue(value: unknown): string;
  /** The test of a pattern as a function of the tested expression, or undefined (and a problem) for an invalid one. */
  regex(pattern: string, pointer: string, requestOnly?: boolean): ((v: string) => string) | undefined;
  /** The runtime function asserting a format, when assertion is on and the format is known. */
  formatFn(format: string | undefined): string | undefined;
  /** The test of a `type` list on `v`. */
  typeTest(types: readonly string[], v: string, format?: string): string;
  /** Reports a failure of `keyword` at `path` (returns false at once when only the answer matters). */
  failStmt(L: Lines, keyword: string, message: string, expected?: unknown, path?: string): void;
  /** Calls `check` on `x` at `path`, setting `ok` on failure. */
  sub(L: Lines, check: string, x: string, path: string): void;
  /** Checks a subschema at a call site: an inline predicate first where there is one, the full check to collect issues. */
  subSchema(L: Lines, schema: IrSchema, x: string, path: string, where?: CallSite): void;
}

/** Enums longer than this are tested with a hoisted Set (or left to the full check) rather than a chain of comparisons. */
export const INLINE_ENUM = 32;

export const isScalar = (v: JsonValue): boolean => v === null || typeof v !== "object";

/**
 * Where a subschema's check is written: `pre` is tested first (the value is
 * there), `guard` must also hold for a failure to count (tested after the
 * cheap predicate where there is one, else before the check), and a
 * `chained` check continues the `if` just written (`else if`).
 */
export interface CallSite {
  pre?: string;
  guard?: string;
  chained?: boolean;
}
