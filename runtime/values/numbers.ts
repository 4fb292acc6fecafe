/**
 * The number policy: integers the spec sends as strings (`x-avaspec-integer`,
 * or a string with format int64/uint64/int32/uint32), read as `bigint` or
 * kept as the wire's string, and written from `bigint | number | string`;
 * and JSON numbers that may pass 2^53 (`format: int64`, or
 * `x-avaspec-integer: true` on a number), read as `bigint` with every digit
 * (exact.ts reads them from the text) or kept as numbers while they fit one.
 *
 * Generated code holds one walker per schema that contains such integers
 * (`Walk`): it visits exactly the integer strings of a value, by the schema,
 * and hands each to a leaf function — `decodeLeaf` (wire string → bigint)
 * or `encodeLeaf` (bigint or number → wire string, checked). Walkers copy
 * what they change and never modify the value they are given.
 */
import { ValidationError, paramsError, type RequestInfo, type ValidationIssue } from "../errors/errors.js";
import { overflowIssue } from "../errors/depth.js";
import { answers, run, type Check, type ValidationResult } from "./validate.js";
import type { Leaf, Walk } from "./walk.js";
import { toDocumented } from "./wire-forms.js";

/** How a client returns the integers the spec marks: `bigint`, or as the wire has them (strings, and numbers that fit a double). */
export type Numbers = "bigint" | "string";

declare const integerString: unique symbol;

/**
 * Marks a generated string type that holds an integer, or a number type
 * whose integers may pass 2^53 (`"number"`); type-level only: no value ever
 * has this property. `Decoded` turns marked types into `bigint`,
 * `Encodable` lets them also be given as `bigint` or `number`.
 */
export interface IntegerString<E extends "decimal" | "hex" | "number" = "decimal" | "hex" | "number"> {
  readonly [integerString]?: E;
}

declare const hexEncoded: unique symbol;

/**
 * Marks a generated `` `0x${string}` `` type (hashes, addresses, bytes),
 * type-level only, like `IntegerString`: its one property is optional, so
 * viem's `Hex` and `Address` and any `0x` literal fit it, and it fits them.
 * It is there for the names: TypeScript prints a bare template literal
 * alias as its template, an intersection by its alias (`Hash32`).
 */
export interface HexEncoded {
  readonly [hexEncoded]?: true;
}

type IsIntegerString<T> = typeof integerString extends keyof T ? true : false;

// an array is mapped through its element (`Decoded<U>[]`): a mapped type over a type that is an array of itself
// (`type Tree = Tree[]`) is instantiated without end (TS2589); tuples keep their places
type DecodedBigint<T> = T extends string | number ? (IsIntegerString<T> extends true ? bigint : T) : T extends readonly (infer U)[] ? (U[] extends T ? DecodedBigint<U>[] : { [K in keyof T]: DecodedBigint<T[K]> }) : T extends object ? { [K in keyof T]: DecodedBigint<T[K]> } : T;

/**
 * An integer of a generated response type as a client with `numbers: N`
 * returns it: `bigint` under "bigint", its wire type `T` under "string".
 * Generated types that hold integers take `N` and write their integers this
 * way (`Block<N>`), so a client's results keep their names in hovers and errors.
 */
export type Numbered<T, N extends Numbers> = N extends "bigint" ? bigint : T;

/** A value of type `T` as a client with `numbers: N` returns it: every integer string a `bigint` under "bigint", `T` itself under "string". */
export type Decoded<T, N extends Numbers> = N extends "bigint" ? DecodedBigint<T> : T;

/** What a parameter (or a mock body) of type `T` accepts: every integer string also as a `bigint` or a `number`. */
export type Encodable<T> = T extends string | number ? (IsIntegerString<T> extends true ? T | bigint | number : T) : T extends readonly (infer U)[] ? (U[] extends T ? Encodable<U>[] : { [K in keyof T]: Encodable<T[K]> }) : T extends object ? { [K in keyof T]: Encodable<T[K]> } : T;

/** Thrown by `encodeLeaf` for a number it cannot send (and by a reading that cannot be exact); callers turn it into a ValidationError. */
export class IntegerIssue {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

const DECIMAL = /^-?[0-9]+$/;
const HEX = /^0[xX][0-9a-fA-F]+$/;

/**
 * Wire → bigint: a string in integer syntax becomes a bigint; anything else
 * (a value the server should not have sent) stays as it is. JSON numbers
 * (`format: int64`) are read by exact.ts, which generated walkers call for them.
 */
export const decodeLeaf: Leaf = (x, spec) => (typeof x === "string" && (spec.charCodeAt(0) === 104 /* h */ ? HEX : DECIMAL).test(x) ? BigInt(x) : x);

interface Range {
  readonly hex: boolean;
  readonly min: bigint | undefined;
  readonly max: bigint | undefined;
  readonly label: string;
}

const ranges = new Map<string, Range>();

function range(spec: string): Range {
  let r = ranges.get(spec);
  if (r === undefined) {
    const signed = spec.startsWith("signed ");
    const [encoding, bitsText] = spec.slice(signed ? 7 : 0).split("/");
    const bits = bitsText === undefined ? undefined : BigInt(bitsText);
    const label = `${signed ? "a signed" : "an unsigned"}${bits === undefined ? "" : ` ${bits}-bit`} integer`;
    r = {
      hex: encoding === "hex",
      min: signed ? (bits === undefined ? undefined : -(1n << (bits - 1n))) : 0n,
      max: bits === undefined ? undefined : signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n,
      label,
    };
    ranges.set(spec, r);
  }
  return r;
}

/**
 * bigint or number → the wire string (`0x`-prefixed lower-case hex without
 * leading zeros, or decimal digits). A fraction, a number beyond 2^53−1
 * (it may already have lost digits), a negative value for an unsigned
 * integer or one outside the width throws an IntegerIssue. Strings (and
 * anything else) pass as given: the generated checks judge them.
 */
export const encodeLeaf: Leaf = (x, spec, p) => {
  let n: bigint;
  if (typeof x === "bigint") n = x;
  else if (typeof x === "number") {
    if (!Number.isInteger(x)) throw new IntegerIssue(p, `must be an integer, got ${x}`);
    if (!Number.isSafeInteger(x)) throw new IntegerIssue(p, `${x} is beyond Number.MAX_SAFE_INTEGER and may have lost digits: pass a bigint or a string`);
    n = BigInt(x);
  } else return x;
  const r = range(spec);
  if (r.min !== undefined && n < r.min) throw new IntegerIssue(p, r.min === 0n ? `must not be negative (${r.label}), got ${n}` : `must be at least ${r.min} (${r.label}), got ${n}`);
  if (r.max !== undefined && n > r.max) throw new IntegerIssue(p, `must be at most ${r.max} (${r.label}), got ${n}`);
  return r.hex ? `0x${n.toString(16)}` : n.toString();
};

/** `x` with `value` at `key`: `x` itself when nothing changed, else a shallow copy (generated walkers call it). */
export function withKey(original: object, copy: Record<string, unknown> | undefined, key: string | number, before: unknown, after: unknown): Record<string, unknown> | undefined {
  if (before === after) return copy;
  const out = copy ?? ((Array.isArray(original) ? original.slice() : { ...original }) as Record<string, unknown>);
  if (key === "__proto__") Object.defineProperty(out, key, { value: after, writable: true, enumerable: true, configurable: true });
  else out[key] = after;
  return out;
}

/** Walks the own property `key` of `o` (`seg`: its pointer segment, "/key" escaped); `copy` as `withKey` keeps it. */
export function prop(o: Record<string, unknown>, copy: Record<string, unknown> | undefined, key: string, seg: string, walk: Walk, f: Leaf, p: string): Record<string, unknown> | undefined {
  if (!Object.prototype.hasOwnProperty.call(o, key)) return copy;
  const v = o[key];
  return v === undefined ? copy : withKey(o, copy, key, v, walk(v, f, p + seg));
}

/** Walks the items of `a` from index `from`: `a` itself when nothing changed, else a copy. */
export function items(a: readonly unknown[], from: number, walk: Walk, f: Leaf, p: string): unknown[] {
  let copy: unknown[] | undefined;
  for (let i = from; i < a.length; i++) {
    const v = a[i];
    const y = walk(v, f, `${p}/${i}`);
    if (y !== v) (copy ??= a.slice())[i] = y;
  }
  return copy ?? (a as unknown[]);
}

/**
 * A union's integers, by the branch the value is of (each branch with
 * integers comes with its generated check; `self` is the union's own).
 * Reading (`decodeLeaf`): the first branch whose check the wire value
 * passes is walked; when none passes, the first branch's walker (it
 * converts only what has its shape). Writing: a value the union already
 * takes goes as given; otherwise each branch is walked in turn and the
 * first whose output passes its check wins; a branch that cannot take a number is
 * skipped, and when none fits, the first IntegerIssue met is rethrown (the
 * number was meant for an integer that cannot take it), else `x` comes back
 * unchanged for the checks to judge.
 */
export function walkUnion(x: unknown, f: Leaf, p: string, branches: readonly (readonly [Walk, Check])[], self: Check): unknown {
  // reading a value a server sent (decoding integers, converting wire forms, or a mock writing one): its branch decides
  if (f !== encodeLeaf) {
    for (const [walk, check] of branches) if (answers(check, x)) return walk(x, f, p);
    // a value that matches no branch exactly (a server that leaves a field out): the first branch's walker,
    // which converts only what has its shape and integer syntax, and leaves the rest as it is
    return branches.length > 0 ? branches[0]![0](x, f, p) : x;
  }
  // a value the union takes as given (a height as a JSON number where a number is a branch) goes as given
  if (self(x, "", null)) return x;
  let issue: IntegerIssue | undefined;
  for (const [walk, check] of branches) {
    let y: unknown;
    try {
      y = walk(x, f, p);
    } catch (error) {
      if (!(error instanceof IntegerIssue)) throw error;
      issue ??= error;
      continue;
    }
    if (check(y, "", null)) return y;
  }
  if (issue) throw issue;
  return x;
}

/**
 * A descriptor's reading of its result under a number policy: under
 * "bigint" the value with its integers as bigints (`walk` is the schema's
 * walker), else the value as it is. A result with JSON-number integers
 * (`format: int64`) has exact.ts's reading, which takes the body as
 * received (`text`, to read digits beyond 2^53) and the call (`request`, to
 * name it in the error when it cannot).
 */
export interface Decoder {
  (value: unknown, numbers: Numbers | undefined, text?: string, request?: RequestInfo): unknown;
  readonly walk: Walk;
}

/** A descriptor's writing of its params: bigints and numbers given for string-encoded integers in the wire form, or a ValidationError naming the parameter. */
export type Encoder = <P>(params: P, operationId: string, method: string, url: string) => P;

/**
 * The Decoder of a walker. Generated code makes one per walker a result
 * descriptor names (and `encoder` one per params walker), so a bundle
 * carries only the direction its operations use, and one whose operations
 * have no string-encoded integers carries none of this code.
 */
export function decoder(walk: Walk): Decoder {
  // a result too deep to walk is caught by the transport, which knows the call (http.ts decodeResult)
  return Object.assign((value: unknown, numbers: Numbers | undefined) => (numbers === "bigint" ? walk(value, decodeLeaf, "") : value), { walk });
}

/** The Encoder of a params walker. */
export function encoder(walk: Walk): Encoder {
  return <P>(params: P, operationId: string, method: string, url: string): P => {
    try {
      return walk(params, encodeLeaf, "") as P;
    } catch (error) {
      if (!(error instanceof IntegerIssue)) throw paramsError(operationId, method, url, [overflowIssue(error, "", "sent")]);
      throw paramsError(operationId, method, url, [{ path: error.path, message: error.message, keyword: "integer" }]);
    }
  };
}

/**
 * A value of the schema with every integer string as a bigint (a copy where
 * anything changed). A value nested deeper than the walker can follow is a
 * ValidationError with the depth issue (depth.ts).
 */
export function decodeIntegers<T>(walk: Walk, value: T): T {
  try {
    return walk(value, decodeLeaf, "") as T;
  } catch (error) {
    // a JSON number beyond 2^53, which the value no longer holds exactly (exact.ts)
    if (error instanceof IntegerIssue) throw valueError({ path: error.path, message: error.message, keyword: "integer" });
    throw valueError(overflowIssue(error, "", "read"));
  }
}

/** A value of the schema in its wire form: bigints and numbers given for integer strings written as strings; throws IntegerIssue (or, nested too deep to walk, a ValidationError). */
export function encodeIntegers<T>(walk: Walk, value: T): T {
  try {
    return walk(value, encodeLeaf, "") as T;
  } catch (error) {
    if (error instanceof IntegerIssue) throw error;
    throw valueError(overflowIssue(error, "", "written"));
  }
}

function valueError(issue: ValidationIssue): ValidationError {
  return new ValidationError(`the value at ${issue.path || "/"} ${issue.message}`, { issues: [issue] });
}

/**
 * A generated validator's answer under a number policy: the value checked as
 * a server may send it, its wire forms converted (`forms`, the schema's
 * wire-form walker, when it has one), then (with "bigint") its integers decoded.
 */
export function validated<T>(check: Check, walk: Walk, value: unknown, numbers: Numbers | undefined, forms?: Walk): ValidationResult<T> {
  const result = run<T>(check, value, true);
  if (!result.ok || (numbers !== "bigint" && forms === undefined)) return result;
  try {
    const documented = forms === undefined ? result.value : (forms(result.value, toDocumented, "") as T);
    return { ok: true, value: numbers === "bigint" ? decodeIntegers(walk, documented) : documented };
  } catch (error) {
    if (error instanceof ValidationError) return { ok: false, issues: error.issues };
    return { ok: false, issues: [overflowIssue(error, "", "read")] };
  }
}
