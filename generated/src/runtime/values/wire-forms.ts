/**
 * Wire forms (`x-avaspec-wire-form`): a value a server sends as another JSON
 * type than its document says (a price as a JSON number where the document
 * types a decimal string, a sort key as a string where it types an
 * integer). Callers keep the documented type: a response check takes both
 * forms (`wired`), and the client converts the server's form before
 * returning the value (`normalizer`, through the schema's generated walker,
 * as numbers.ts walks string-encoded integers). Mocks asked for the forms
 * servers send convert the other way (`toServer`).
 *
 * A leaf's spec names the two types, the server's first: "number>string",
 * "integer>string", "string>integer", "string>number".
 */
import type { ValidationIssue } from "../errors/errors.js";
import { overflowIssue } from "../errors/depth.js";
import type { Leaf, Walk } from "./walk.js";
import { readingResponse, type Check, type ValidationResult } from "./validate.js";

const INTEGER = /^-?[0-9]+$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/**
 * A number in plain decimal digits, never an exponent: the digits are the
 * shortest that read back as the same number (ECMAScript's Number to String),
 * so 0.1 is "0.1", 1e21 is "1000000000000000000000" and 1.5e-7 is
 * "0.00000015". A number with more significant digits than a double holds
 * was already rounded when the JSON was parsed; these are the digits of what
 * is left.
 */
export function decimalText(n: number): string {
  const s = String(n);
  const e = s.indexOf("e");
  if (e < 0) return s;
  const sign = s.startsWith("-") ? "-" : "";
  const mantissa = s.slice(sign.length, e);
  const dot = mantissa.indexOf(".");
  const digits = mantissa.replace(".", "");
  // where the decimal point falls in `digits`
  const point = (dot < 0 ? mantissa.length : dot) + Number(s.slice(e + 1));
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A number written as decimal text, as a number; undefined when it is not one (or is too large for a double). */
function numberOf(s: string, integer: boolean): number | undefined {
  if (!(integer ? INTEGER : NUMBER).test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** One value in the server's form → the documented type; anything else (already documented, or not convertible) as it is. */
export const toDocumented: Leaf = (x, spec) => {
  const to = spec.slice(spec.indexOf(">") + 1);
  if (to === "string") return typeof x === "number" && Number.isFinite(x) ? decimalText(x) : x;
  return typeof x === "string" ? (numberOf(x, to === "integer") ?? x) : x;
};

/** One documented value → the form servers send (what mocks serve with `wireShapes: "server"`). */
export const toServer: Leaf = (x, spec) => {
  const from = spec.slice(0, spec.indexOf(">"));
  if (from === "string") return typeof x === "number" && Number.isFinite(x) ? decimalText(x) : x;
  return typeof x === "string" ? (numberOf(x, from === "integer") ?? x) : x;
};

/**
 * The rest of a wire-form check, after the documented check failed (generated
 * code calls it): in a response, a value of the server's form passes when it
 * converts to a valid documented value. Issues (`e`) are the converted
 * value's when it is of the server's form ("-3" for an integer with
 * minimum 0: must be >= 0), else the documented check's.
 */
export function wired(x: unknown, p: string, e: ValidationIssue[] | null, wire: Check, documented: Check, spec: string): boolean {
  if (readingResponse() && wire(x, p, null)) {
    const y = toDocumented(x, spec, p);
    if (y !== x) {
      if (documented(y, p, null)) return true;
      if (e !== null) documented(y, p, e);
      return false;
    }
  }
  if (e !== null) documented(x, p, e);
  return false;
}

/** A descriptor's conversion of its result to the documented form (`walk` is the schema's wire-form walker). */
export interface Normalizer {
  (value: unknown): unknown;
  readonly walk: Walk;
}

/** The Normalizer of a walker: generated code makes one per result that holds a wire form. */
export function normalizer(walk: Walk): Normalizer {
  // a value too deep to walk is caught by the transport, which knows the call (depth.ts)
  return Object.assign((value: unknown) => walk(value, toDocumented, ""), { walk });
}

/** A validator's valid result with its wire forms converted to the documented ones (a copy where anything changed). */
export function normalized<T>(result: ValidationResult<T>, walk: Walk): ValidationResult<T> {
  if (!result.ok) return result;
  try {
    return { ok: true, value: walk(result.value, toDocumented, "") as T };
  } catch (error) {
    const issue: ValidationIssue = overflowIssue(error, "", "read");
    return { ok: false, issues: [issue] };
  }
}

/** A documented value in the forms servers send (mocks, `wireShapes: "server"`). */
export function serverForm(walk: Walk, value: unknown): unknown {
  return walk(value, toServer, "");
}
