/**
 * Scalar values for the package README's examples that the generated
 * validators accept: a string drawn from the schema's pattern (the mock
 * runtime's pattern sampler, each character class taken in turn, so
 * `^0x[0-9a-f]{40}$` gives `0x0123…`), of a length its bounds allow, in its
 * format or integer encoding; a number within its bounds and a multiple of
 * its `multipleOf`. And the test whether a scalar the spec gives (an example,
 * a default) passes its schema: an example the validator refuses would make
 * the README's call fail before it is sent, so it is replaced.
 *
 * Only what is decided on one value is tested here (type, enum, const,
 * pattern, lengths, bounds, multipleOf, through refs and allOf/anyOf/oneOf);
 * objects and arrays are fitted member by member (examples.ts).
 */
import { followRefs, patternFlags } from "../../ir/resolve.js";
import type { IrObjectLikeSchema, IrSchema, JsonValue } from "../../ir/types.js";
import { samplePattern, type PatternSample } from "../validators/pattern.js";

type Lookup = (key: string) => IrSchema | undefined;

/** A value of each format avaspec's validators can assert, and a few more (a Map: a spec's format may be `__proto__`). */
const FORMATS = new Map<string, string>(Object.entries({
  "date-time": "2024-01-01T00:00:00Z",
  date: "2024-01-01",
  time: "12:00:00Z",
  duration: "P1D",
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  email: "user@example.com",
  "idn-email": "user@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  iri: "https://example.com/",
  "uri-reference": "https://example.com/",
  "iri-reference": "https://example.com/",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
}));

/** Whether `pattern` matches `value`; true for a pattern JavaScript cannot compile (the validator reports that one itself). */
function matches(pattern: string, value: string): boolean {
  const flags = patternFlags(pattern);
  return flags === undefined || new RegExp(pattern, flags).test(value);
}

/** JSON Schema lengths count code points. */
const length = (s: string) => [...s].length;

/**
 * The string of a pattern sample with each term at its least count, raised
 * one character at a time (classes only, in turn) until it is `min` long or
 * nothing can grow: the first alternative that lands between `min` and `max`.
 */
function fromSample(sample: PatternSample, min: number, max: number): string | undefined {
  const render = (seq: PatternSample[number], counts: number[]) =>
    seq.map(([unit, , ], i) => {
      let out = "";
      for (let k = 0; k < counts[i]!; k++) out += typeof unit === "string" ? unit[k % unit.length] : (fromSample(unit, 0, Infinity) ?? "");
      return out;
    }).join("");
  let first: string | undefined;
  for (const seq of sample) {
    const counts = seq.map(([, least]) => least);
    let text = render(seq, counts);
    for (let grown = true; length(text) < min && grown; ) {
      grown = false;
      for (let i = 0; i < seq.length && length(text) < min; i++) {
        const [unit, , most] = seq[i]!;
        if (typeof unit !== "string" || counts[i]! >= most) continue;
        counts[i]!++;
        grown = true;
        text = render(seq, counts);
      }
    }
    first ??= text;
    if (length(text) >= min && length(text) <= max) return text;
  }
  return first;
}

/** A string the schema's own keywords accept: from its pattern, its integer encoding or format, else a placeholder of an allowed length. */
export function sampleString(s: IrObjectLikeSchema): string {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Infinity;
  const sample = s.pattern !== undefined ? samplePattern(s.pattern) : undefined;
  const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : 1);
  // a value of the format or integer encoding reads best, when the pattern takes it too
  const candidates = [
    ...(s.integer ? [s.integer.encoding === "hex" ? `0x${Math.max(low, 0).toString(16)}` : String(low)] : []),
    ...(s.format !== undefined && FORMATS.has(s.format) ? [FORMATS.get(s.format)] : []),
    ...(sample ? [fromSample(sample, min, max)] : []),
    "…",
    "x".repeat(Math.max(min, 1)),
  ].filter((c): c is string => c !== undefined);
  const fits = (c: string) => length(c) >= min && length(c) <= max && (s.pattern === undefined || matches(s.pattern, c));
  return candidates.find(fits) ?? candidates[0]!;
}

/**
 * A number the schema's own keywords accept: its lower bound (1 when it has
 * none), else the first multiple of `multipleOf` above it, else a value
 * between its bounds, else its upper bound.
 */
export function sampleNumber(s: IrObjectLikeSchema, integral: boolean): number {
  const step = s.multipleOf;
  const { minimum: min, maximum: max, exclusiveMinimum: exMin, exclusiveMaximum: exMax } = s;
  const lows = [min, exMin === undefined ? undefined : integral ? Math.floor(exMin) + 1 : exMin + 1].filter((x): x is number => x !== undefined);
  const highs = [max, exMax === undefined ? undefined : integral ? Math.ceil(exMax) - 1 : exMax - 1].filter((x): x is number => x !== undefined);
  const low = lows.length > 0 ? Math.max(...lows) : highs.length > 0 ? Math.min(1, ...highs) : 1;
  const bounds = [min ?? exMin, max ?? exMax];
  const middle = bounds[0] !== undefined && bounds[1] !== undefined ? (bounds[0] + bounds[1]) / 2 : undefined;
  const candidates = [
    low,
    ...(step ? [Math.ceil(low / step) * step, (Math.floor((exMin ?? min ?? low) / step) + 1) * step] : []),
    ...(middle !== undefined ? [integral ? Math.round(middle) : middle, ...(step ? [Math.round(middle / step) * step] : [])] : []),
    ...highs,
    ...(step && highs.length > 0 ? [Math.floor(Math.min(...highs) / step) * step, (Math.ceil((exMax ?? max!) / step) - 1) * step] : []),
  ];
  return candidates.find((v) => numberFits(v, s, integral)) ?? candidates[0]!;
}

function numberFits(v: number, s: IrObjectLikeSchema, integral: boolean): boolean {
  if (integral && !Number.isInteger(v)) return false;
  if (s.minimum !== undefined && v < s.minimum) return false;
  if (s.maximum !== undefined && v > s.maximum) return false;
  if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) return false;
  if (s.exclusiveMaximum !== undefined && v >= s.exclusiveMaximum) return false;
  // a multiple up to floating-point error, as a validator of decimal steps must allow
  if (s.multipleOf !== undefined && Math.abs(v / s.multipleOf - Math.round(v / s.multipleOf)) > 1e-9) return false;
  return true;
}

const typeOf = (v: JsonValue): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v);

/** Whether a scalar passes what its schema says of one value (objects and arrays: true, they are fitted member by member). */
export function scalarFits(value: JsonValue, s: IrSchema | undefined, lookup: Lookup, depth = 0): boolean {
  if (value !== null && typeof value === "object") return true;
  const t = followRefs(s, lookup);
  if (!t || depth > 24) return true;
  if (t.kind === "boolean") return t.value;
  if (t.kind !== "schema") return true;
  const type = typeOf(value);
  if (t.types && !t.types.some((x) => x === type || (x === "number" && type === "integer"))) return false;
  if (t.enum && !t.enum.includes(value)) return false;
  if (t.const && t.const.value !== value) return false;
  if (typeof value === "string") {
    if (t.minLength !== undefined && length(value) < t.minLength) return false;
    if (t.maxLength !== undefined && length(value) > t.maxLength) return false;
    if (t.pattern !== undefined && !matches(t.pattern, value)) return false;
  }
  if (typeof value === "number" && !numberFits(value, t, false)) return false;
  if (t.allOf && !t.allOf.every((x) => scalarFits(value, x, lookup, depth + 1))) return false;
  for (const branches of [t.oneOf, t.anyOf]) if (branches && branches.length > 0 && !branches.some((x) => scalarFits(value, x, lookup, depth + 1))) return false;
  return true;
}
