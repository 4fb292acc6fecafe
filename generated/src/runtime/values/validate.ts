/**
 * Support for generated validators: the result shape, the Standard Schema v1
 * interface, and the few helpers generated checks share (JSON equality,
 * code-point length, multipleOf, uniqueness). Generated code does the rest.
 */
import type { ValidationIssue } from "../errors/errors.js";
import { isStackOverflow, overflowIssue } from "../errors/depth.js";

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/**
 * A generated check. With `e` an array it collects every issue; with `e`
 * null it only answers, stopping at the first failure (used inside anyOf,
 * oneOf, not, if and contains).
 */
export type Check = (x: unknown, p: string, e: ValidationIssue[] | null) => boolean;

/** The Standard Schema v1 interface (https://standardschema.dev), inlined: no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey> | undefined;
}

/**
 * Whether the check running now reads a value a server sent. One check per
 * schema serves both directions, and two spec extensions differ between
 * them: a pattern marked `x-avaspec-response-pattern: false` tests what is
 * sent only (`requestOnly`), and a value in the form servers send instead of
 * the documented one (`x-avaspec-wire-form`) is valid in a response only
 * (`wired`, wire-forms.ts). Checks are synchronous and never call out, so a
 * flag set around one check run is seen by exactly that run.
 */
let responding = false;

/** Whether the running check reads a response (see `responding`). */
export function readingResponse(): boolean {
  return responding;
}

/**
 * Runs a check and returns the typed value or every issue. Valid values take
 * the fast answer-only path; only an invalid one is checked again to collect
 * its issues. `response`: the value is one a server sent (see `responding`).
 */
export function run<T>(check: Check, value: unknown, response = false): ValidationResult<T> {
  const was = responding;
  responding = response;
  try {
    if (check(value, "", null)) return { ok: true, value: value as T };
    const issues: ValidationIssue[] = [];
    check(value, "", issues);
    return { ok: false, issues };
  } catch (error) {
    // a value nested deeper than the stack: not valid as far as anyone can tell, and said so (depth.ts)
    return { ok: false, issues: [overflowIssue(error, "")] };
  } finally {
    responding = was;
  }
}

/** Whether a value a server sent passes a check (the answer only; see `responding`). */
export function answers(check: Check, value: unknown): boolean {
  const was = responding;
  responding = true;
  try {
    return check(value, "", null);
  } finally {
    responding = was;
  }
}

/**
 * A pattern that tests what is sent only (`x-avaspec-response-pattern:
 * false`): in a response any string passes, since the server's own
 * documents promise no such shape.
 */
export function requestOnly(source: string, flags?: string): { test(s: string): boolean } {
  const re = new RegExp(source, flags);
  return { test: (s) => responding || re.test(s) };
}

/**
 * A type guard's answer: false, too, for a value nested too deep to check.
 * A guard says whether the value is of the documented type, so it reads it
 * as something to send: a value in a server's wire form is not (yet) one.
 */
export function is(check: Check, value: unknown): boolean {
  const was = responding;
  responding = false;
  try {
    return check(value, "", null);
  } catch (error) {
    if (isStackOverflow(error)) return false;
    throw error;
  } finally {
    responding = was;
  }
}

/**
 * The documented value inside the wrapped form a server may send instead
 * (`x-avaspec-wire-shape`): `{ [property]: value }` gives `value`; any
 * other value is already in the documented form (which is never an object).
 */
export function unwrapped(value: unknown, property: string): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value) && hasOwn(value, property) ? (value as Record<string, unknown>)[property] : value;
}

/** Splits a JSON pointer into Standard Schema path segments. */
export function pathSegments(pointer: string): PropertyKey[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * A Standard Schema object around a check. It reads values as a server may
 * send them, as `validateX` does; `documented` (the schema's wire-form
 * normaliser, when it has one) turns a valid value into the documented form.
 */
export function standard<T>(check: Check, documented?: (value: unknown) => unknown): StandardSchemaV1<unknown, T> {
  return {
    "~standard": {
      version: 1,
      vendor: "avaspec",
      validate(value: unknown): StandardResult<T> {
        const r = run<T>(check, value, true);
        if (r.ok && documented) {
          try {
            return { value: documented(r.value) as T };
          } catch (error) {
            return { issues: [{ message: overflowIssue(error, "").message, path: [] }] };
          }
        }
        return r.ok ? { value: r.value } : { issues: r.issues.map((i) => ({ message: i.message, path: pathSegments(i.path) })) };
      },
    },
  };
}

/** Records one issue; returns false so a check can `return fail(...)`. */
export function fail(e: ValidationIssue[] | null, path: string, keyword: string, message: string, expected?: unknown): false {
  if (e) e.push(expected === undefined ? { path, message, keyword } : { path, message, keyword, expected });
  return false;
}

export const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Sets `k` as an own data property: `__proto__` and friends become plain keys, never the prototype. */
export function setOwn(o: object, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Object.prototype, read by generated checks: on an object whose prototype it
 * is (everything JSON.parse returns) a property `k` can only be inherited when
 * `OP[k]` is defined, so a cheap load stands in for a hasOwnProperty call. A
 * polluted Object.prototype therefore never supplies a property.
 */
export const OP = Object.prototype as Record<string, unknown>;

export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** Escapes a key for a JSON pointer path. */
export const esc = (k: string): string => (k.includes("~") || k.includes("/") ? k.replace(/~/g, "~0").replace(/\//g, "~1") : k);

/** JSON equality: numbers by value (1 equals 1.0), objects regardless of key order. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!hasOwn(b as object, k) || !equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** Whether every item differs from every other (JSON equality). */
export function unique(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return false;
  return true;
}

/** String length in Unicode code points, as JSON Schema counts it. */
export function length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * `x` is a multiple of `m`. The quotient may be off by one unit in the last
 * place from binary rounding (0.0075 / 0.0001 is 74.99999999999999), and no more.
 */
export function multipleOf(x: number, m: number): boolean {
  const q = x / m;
  if (!Number.isFinite(q)) return false;
  return Number.isInteger(q) || Math.abs(q - Math.round(q)) <= Number.EPSILON * Math.abs(q);
}

/** Raw bytes as fetch sends them: a Blob (or File), an ArrayBuffer or a typed array / DataView. */
export function isBinary(x: unknown): x is Blob | ArrayBuffer | ArrayBufferView {
  return (typeof Blob !== "undefined" && x instanceof Blob) || x instanceof ArrayBuffer || ArrayBuffer.isView(x);
}
