/**
 * JSON integers beyond 2^53. A schema's `format: int64` (or
 * `x-avaspec-integer: true` on a number) says an integer may not fit a
 * double, and JSON.parse rounds one that does not (9007199254740993 becomes
 * 9007199254740992) before any walker sees it; Node 20's JSON.parse gives a
 * reviver no source text. So a client reads a result that holds such
 * integers with `exactDecoder`: where a marked value is an integer beyond
 * 2^53, the body's text is parsed again with every integer literal beyond
 * 2^53 quoted, and the same JSON pointer there holds its digits (a string
 * the server sent is a string in both parses, so the two cannot be
 * confused). Under `numbers: "bigint"` the digits become the bigint;
 * otherwise the call fails with a ValidationError, since a number cannot
 * hold them: a rounded value is never returned. The text is parsed again
 * only when such a value is met, and only bundles whose operations have such
 * integers carry this module.
 *
 * Writing: a bigint given for one is checked against its range and sent as
 * a JSON number with all its digits (`exactBody` writes a request body,
 * `exactJson` any value, as the mocks do).
 */
import { paramsError, ValidationError, type RequestInfo } from "../errors/errors.js";
import { decodeLeaf, encodeLeaf, encoder, IntegerIssue, type Decoder, type Encoder, type Numbers } from "./numbers.js";
import type { Leaf, Walk } from "./walk.js";

const INTEGER = /^-?[0-9]+$/;
/** A JSON string (skipped whole) or a JSON number: the tokens of a text in which digits can stand. */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/g;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a leaf spec is a JSON number's: "number", "number/64", "unsigned number/64". */
const isNumberSpec = (spec: string): boolean => spec.charCodeAt(0) === 110 /* n */ || spec.charCodeAt(0) === 117; /* u */

/** The integer's range from its spec (a JSON number is signed unless the spec says "unsigned"); an IntegerIssue outside it. */
function checkRange(spec: string, n: bigint, p: string): void {
  const unsigned = spec.charCodeAt(0) === 117;
  const slash = spec.indexOf("/");
  const bits = slash < 0 ? undefined : BigInt(spec.slice(slash + 1));
  const label = `${unsigned ? "an unsigned" : "a signed"}${bits === undefined ? "" : ` ${bits}-bit`} integer`;
  const min = unsigned ? 0n : bits === undefined ? undefined : -(1n << (bits - 1n));
  const max = bits === undefined ? undefined : unsigned ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n;
  if (min !== undefined && n < min) throw new IntegerIssue(p, min === 0n ? `must not be negative (${label}), got ${n}` : `must be at least ${min} (${label}), got ${n}`);
  if (max !== undefined && n > max) throw new IntegerIssue(p, `must be at most ${max} (${label}), got ${n}`);
}

/** One integer to send: a bigint in range goes as a number when one holds it exactly, else stays a bigint for `exactJson`. */
function writeNumber(x: unknown, spec: string, p: string): unknown {
  if (typeof x === "number" && Number.isInteger(x)) {
    if (!Number.isSafeInteger(x)) throw new IntegerIssue(p, `${x} is beyond Number.MAX_SAFE_INTEGER and may have lost digits: pass a bigint`);
    checkRange(spec, BigInt(x), p);
    return x;
  }
  if (typeof x !== "bigint") return x;
  checkRange(spec, x, p);
  return x >= -SAFE && x <= SAFE ? Number(x) : x;
}

/** Why an integer beyond 2^53 was not returned, by the policy it was read under. */
function beyond(shown: string, numbers: Numbers | undefined): string {
  if (numbers !== "bigint") return `${shown} is beyond Number.MAX_SAFE_INTEGER (2^53 - 1), which a JavaScript number cannot hold exactly: read it with numbers: "bigint"`;
  return `${shown} is beyond Number.MAX_SAFE_INTEGER and may have lost digits when the JSON was parsed (the digits are read from the text of an HTTP response only)`;
}

/** Reading without the text (a validator given a parsed value, a JSON-RPC result): a safe integer becomes a bigint; one beyond 2^53 is an IntegerIssue. */
function readNumber(x: unknown, p: string): unknown {
  if (typeof x !== "number" || !Number.isInteger(x)) return x;
  if (!Number.isSafeInteger(x)) throw new IntegerIssue(p, beyond(String(x), "bigint"));
  return BigInt(x);
}

/**
 * Generated walkers call this for a JSON-number integer, with their leaf
 * `f`: reading (`decodeLeaf`) and writing (`encodeLeaf`) get a number's own
 * rules; any other leaf (the exact reading below) is called as it is.
 */
export function numberLeaf(x: unknown, f: Leaf, spec: string, p: string): unknown {
  return f === decodeLeaf ? readNumber(x, p) : f === encodeLeaf ? writeNumber(x, spec, p) : f(x, spec, p);
}

/** The text parsed with every integer literal beyond 2^53 as a string of its digits; undefined when it does not parse. */
function quotedIntegers(text: string): unknown {
  try {
    return JSON.parse(text.replace(TOKEN, (t) => (t.charCodeAt(0) !== 34 && INTEGER.test(t) && !Number.isSafeInteger(Number(t)) ? `"${t}"` : t)));
  } catch {
    return undefined;
  }
}

/** The value at a JSON pointer (own members only). */
function at(root: unknown, pointer: string): unknown {
  let v = root;
  for (const segment of pointer.split("/").slice(1)) {
    if (v === null || typeof v !== "object") return undefined;
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    v = Object.prototype.hasOwnProperty.call(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

/**
 * The Decoder of a result that holds JSON-number integers: under "bigint"
 * every marked integer as a bigint (one beyond 2^53 from the digits of
 * `text`), under "string" the value as it is unless a marked integer is
 * beyond 2^53, which is a ValidationError. Without the text (a JSON-RPC
 * result), an integer beyond 2^53 is a ValidationError under both.
 */
export function exactDecoder(walk: Walk): Decoder {
  return Object.assign(
    (value: unknown, numbers: Numbers | undefined, text?: string, request?: RequestInfo) => {
      let digits: unknown;
      let parsed = false;
      const leaf: Leaf = (x, spec, p) => {
        if (!isNumberSpec(spec)) return numbers === "bigint" ? decodeLeaf(x, spec, p) : x;
        if (typeof x !== "number" || !Number.isInteger(x)) return x;
        if (Number.isSafeInteger(x)) return numbers === "bigint" ? BigInt(x) : x;
        if (!parsed) {
          parsed = true;
          digits = text === undefined ? undefined : quotedIntegers(text);
        }
        const d = at(digits, p);
        if (numbers === "bigint" && typeof d === "string" && INTEGER.test(d)) return BigInt(d);
        throw new IntegerIssue(p, beyond(typeof d === "string" ? d : String(x), numbers));
      };
      try {
        return walk(value, leaf, "");
      } catch (error) {
        if (!(error instanceof IntegerIssue)) throw error;
        const issue = { path: error.path, message: error.message, keyword: "integer" };
        throw new ValidationError(`${request?.operationId ?? "a response"}: the integer at ${error.path || "/"}: ${error.message}`, { ...(request ? { request } : {}), issues: [issue], ...(text === undefined ? {} : { rawBody: text }) });
      }
    },
    { walk },
  );
}

/**
 * JSON text of a value whose bigints are written as JSON numbers with all
 * their digits (JSON.stringify refuses bigints); everything else as
 * JSON.stringify writes it. Undefined where JSON.stringify gives undefined.
 */
export function exactJson(value: unknown): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const own = value as { toJSON?: () => unknown } & Record<string, unknown>;
  if (typeof own.toJSON === "function") return exactJson(own.toJSON());
  if (Array.isArray(value)) return `[${value.map((v) => exactJson(v) ?? "null").join(",")}]`;
  const members: string[] = [];
  for (const key of Object.keys(own)) {
    const text = exactJson(own[key]);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}

/** A value without bigints: each one a number when a number holds it exactly (a copy where one changed); beyond that an IntegerIssue. */
function withoutBigints(value: unknown, p: string): unknown {
  if (typeof value === "bigint") {
    if (value < -SAFE || value > SAFE) throw new IntegerIssue(p, "is beyond Number.MAX_SAFE_INTEGER: a JSON-RPC request cannot carry it with all its digits yet");
    return Number(value);
  }
  if (value === null || typeof value !== "object") return value;
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const [k, v] of Object.entries(value)) {
    const y = withoutBigints(v, `${p}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (y !== v) (copy ??= (Array.isArray(value) ? value.slice() : { ...value }) as Record<string, unknown>)[k as never] = y as never;
  }
  return copy ?? value;
}

/**
 * The Encoder of JSON-RPC params that hold JSON-number integers. The
 * JSON-RPC transports write their envelopes with JSON.stringify, which has
 * no way to write a bigint, so one beyond 2^53 is refused before sending (a
 * ValidationError naming it) rather than sent rounded; an HTTP body is
 * written with `exactBody` and takes it.
 */
export function jsonRpcEncoder(walk: Walk): Encoder {
  const write = encoder(walk);
  return <P>(params: P, operationId: string, method: string, url: string): P => {
    const out = write(params, operationId, method, url);
    try {
      return withoutBigints(out, "") as P;
    } catch (error) {
      if (!(error instanceof IntegerIssue)) throw error;
      throw paramsError(operationId, method, url, [{ path: error.path, message: error.message, keyword: "integer" }]);
    }
  };
}

/** The body encoder of an operation whose JSON body holds JSON-number integers (descriptors name it: `exactBody("application/json")`). */
export function exactBody(contentType: string): (body: unknown) => { body: string; contentType: string } {
  return (body) => ({ body: exactJson(body) ?? "null", contentType });
}
