/**
 * Rewrites a JSON Schema `pattern` into an equivalent one that V8 tests
 * faster. Validation only asks whether a pattern matches, so:
 *
 * - capturing groups become non-capturing (no captures to record);
 * - a pattern whose every atom matches one printable-ASCII character drops
 *   the `u` flag (it cannot change what such a pattern matches, and V8 runs
 *   non-unicode expressions faster);
 * - `^lit C{n,m} lit$` (one counted class between fixed text) becomes a
 *   length test plus `^lit C* lit$`: irregexp runs a counted repetition about
 *   twice as slowly as a star.
 *
 * Only a conservative subset is rewritten: anything the tokenizer does not
 * know (lookaround, backreferences, `.`, negated classes, `\s`, `\p{…}`,
 * non-ASCII, named groups, flags-dependent escapes) keeps the pattern as
 * written, tested with `u` when it compiles so.
 */

/** How to test a pattern: a regular expression and, when it is implied, a length range (code units). */
export interface PatternPlan {
  source: string;
  flags: "" | "u";
  minLength?: number;
  maxLength?: number;
}

type Single = { kind: "char" | "class"; text: string };
type Atom = Single | { kind: "group"; alternatives: Seq[] };
interface Term {
  atom: Atom;
  min: number;
  max: number; // Infinity for unbounded
  quantifier: string; // as written, "" for exactly one
}
type Seq = (Term | { kind: "anchor"; text: "^" | "$" })[];

const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
/** Escapes that mean the same single ASCII character with and without `u`. */
const IDENTITY_ESCAPES = new Set([..."^$\\.*+?()[]{}|/-"]);

class Bail extends Error {}

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Seq[] {
    const alts = this.alternatives();
    if (this.i !== this.src.length) throw new Bail();
    return alts;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternatives(): Seq[] {
    const alts: Seq[] = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      alts.push(this.sequence());
    }
    return alts;
  }

  private sequence(): Seq {
    const seq: Seq = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === "|" || c === ")") return seq;
      if (c === "^" || c === "$") {
        this.i++;
        seq.push({ kind: "anchor", text: c });
        continue;
      }
      const atom = this.atom();
      seq.push(this.quantified(atom));
    }
  }

  private atom(): Atom {
    const c = this.src[this.i]!;
    if (c === "(") {
      this.i++;
      if (this.src.startsWith("?:", this.i)) this.i += 2;
      else if (this.peek() === "?") throw new Bail(); // lookaround, named group
      const alternatives = this.alternatives();
      if (this.peek() !== ")") throw new Bail();
      this.i++;
      return { kind: "group", alternatives };
    }
    if (c === "[") return { kind: "class", text: this.klass() };
    if (c === "\\") return this.escape(false);
    if (SYNTAX.has(c) || !printable(c)) throw new Bail(); // `.`, a stray quantifier or bracket, non-ASCII
    this.i++;
    return { kind: "char", text: c };
  }

  private escape(inClass: boolean): Single {
    const e = this.src[this.i + 1];
    if (e === undefined) throw new Bail();
    this.i += 2;
    if (e === "d") return { kind: "class", text: "\\d" };
    if (e === "w") return { kind: "class", text: "\\w" };
    // `-` is an identity escape only inside a class in u-mode
    if (IDENTITY_ESCAPES.has(e) && (e !== "-" || inClass)) return { kind: "char", text: `\\${e}` };
    throw new Bail();
  }

  private klass(): string {
    let out = "[";
    this.i++;
    if (this.peek() === "^") throw new Bail(); // a negated class matches non-ASCII, by code point or by unit
    if (this.peek() === "]") throw new Bail(); // `[]` is the empty class
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new Bail();
      if (c === "]") {
        this.i++;
        return out + "]";
      }
      const lo = this.classAtom();
      if (this.peek() === "-" && this.src[this.i + 1] !== "]") {
        this.i++;
        const hi = this.classAtom();
        if (lo.startsWith("\\") && lo.length === 2 && /[dw]/.test(lo[1]!)) throw new Bail();
        if (hi.startsWith("\\") && hi.length === 2 && /[dw]/.test(hi[1]!)) throw new Bail();
        if (charOf(lo) > charOf(hi)) throw new Bail();
        out += `${lo}-${hi}`;
      } else out += lo;
    }
  }

  private classAtom(): string {
    const c = this.src[this.i]!;
    if (c === "\\") return this.escape(true).text;
    if (c === "[" || !printable(c)) throw new Bail();
    this.i++;
    return c;
  }

  private quantified(atom: Atom): Term {
    const start = this.i;
    let min = 1;
    let max = 1;
    const c = this.peek();
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d{1,5})(,(\d{0,5}))?\}/.exec(this.src.slice(this.i));
      if (!m) throw new Bail(); // a literal brace is an error in u-mode, literal without: keep as written
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min) throw new Bail();
      this.i += m[0].length - 1;
    } else return { atom, min, max, quantifier: "" };
    this.i++;
    if (this.peek() === "?") this.i++; // lazy: the same set of matches
    if (["*", "+", "?", "{"].includes(this.peek() ?? "")) throw new Bail();
    return { atom, min, max, quantifier: this.src.slice(start, this.i) };
  }
}

function printable(c: string): boolean {
  const n = c.charCodeAt(0);
  return c.length === 1 && n >= 0x20 && n <= 0x7e;
}

function charOf(a: string): number {
  return (a.startsWith("\\") ? a[1]! : a).charCodeAt(0);
}

function emitSeq(seq: Seq): string {
  return seq.map((t) => ("atom" in t ? emitAtom(t.atom) + t.quantifier : t.text)).join("");
}

function emitAtom(a: Atom): string {
  return a.kind === "group" ? `(?:${a.alternatives.map(emitSeq).join("|")})` : a.text;
}

/** The plan for testing `pattern`, compiled with `flags` (what the pattern itself compiles with). */
export function planPattern(pattern: string, flags: "" | "u"): PatternPlan {
  let alts: Seq[];
  try {
    alts = new Parser(pattern).parse();
  } catch (e) {
    if (e instanceof Bail) return { source: pattern, flags };
    throw e;
  }
  const plan: PatternPlan = { source: alts.map(emitSeq).join("|"), flags: "" };
  // ^ fixed… C{n,m} fixed… $: the length fixes the count, so the count can go
  const seq = alts.length === 1 ? alts[0]! : undefined;
  if (seq && seq.length >= 3 && isAnchor(seq[0], "^") && isAnchor(seq[seq.length - 1], "$")) {
    const body = seq.slice(1, -1);
    const terms = body.filter((t): t is Term & { atom: Single } => "atom" in t && t.atom.kind !== "group");
    if (terms.length === body.length) {
      const counted = terms.filter((t) => t.quantifier !== "");
      if (counted.length === 1 && counted[0]!.quantifier.startsWith("{")) {
        const t = counted[0]!;
        const fixed = terms.length - 1;
        plan.source = "^" + terms.map((x) => x.atom.text + (x === t ? "*" : "")).join("") + "$";
        if (fixed + t.min > 0) plan.minLength = fixed + t.min;
        if (t.max !== Infinity) plan.maxLength = fixed + t.max;
      }
    }
  }
  return plan;
}

function isAnchor(t: Seq[number] | undefined, a: "^" | "$"): boolean {
  return t !== undefined && !("atom" in t) && t.text === a;
}

/**
 * The prefixes of a pattern that only hex-prefixed strings match: one
 * alternative starting `^0x`, `^0X` or `^0[xX]` gives `["0x"]`, `["0X"]` or
 * both; undefined for any other pattern (or one the tokenizer does not know).
 */
export function hexPrefixes(pattern: string): ("0x" | "0X")[] | undefined {
  let alts: Seq[];
  try {
    alts = new Parser(pattern).parse();
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  }
  const [anchor, zero, x] = alts.length === 1 ? alts[0]! : [];
  const once = (t: Seq[number] | undefined): Single | undefined => (t && "atom" in t && t.quantifier === "" && t.atom.kind !== "group" ? t.atom : undefined);
  if (!isAnchor(anchor, "^") || once(zero)?.text !== "0") return undefined;
  const letter = once(x)?.text;
  if (letter === "x" || letter === "X") return [`0${letter}`];
  return letter === "[xX]" || letter === "[Xx]" ? ["0x", "0X"] : undefined;
}

/** Alternatives of sequences of [characters to draw from | a group, min, max]: what a sampler needs of a pattern. */
export type PatternSample = [string | PatternSample, number, number][][];

const PRINTABLE = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));

/**
 * A description of `pattern` from which strings that match it can be drawn,
 * for mock data; undefined for what the tokenizer does not know (then the
 * schema's examples stand in). Anchors are dropped: a drawn string matches
 * the whole pattern, so it matches anchored or not.
 */
export function samplePattern(pattern: string): PatternSample | undefined {
  let alts: Seq[];
  try {
    alts = new Parser(pattern).parse();
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  }
  // `a^b` cannot match; only leading ^ and trailing $ are dropped safely
  for (const seq of alts) {
    const inner = seq.slice(isAnchor(seq[0], "^") ? 1 : 0, isAnchor(seq[seq.length - 1], "$") ? -1 : undefined);
    if (inner.some((t) => !("atom" in t))) return undefined;
  }
  return sampleAlts(alts);
}

function sampleAlts(alts: Seq[], top = true): PatternSample | undefined {
  const out: PatternSample = [];
  for (const seq of alts) {
    const terms: PatternSample[number] = [];
    for (const t of seq) {
      if (!("atom" in t)) {
        if (top) continue; // checked above: only a leading ^ or a trailing $
        return undefined;
      }
      const max = t.max === Infinity ? t.min + 8 : t.max;
      if (t.atom.kind === "group") {
        const inner = sampleAlts(t.atom.alternatives, false);
        if (!inner) return undefined;
        terms.push([inner, t.min, max]);
      } else {
        const re = new RegExp(`^(?:${t.atom.text})$`);
        const chars = PRINTABLE.filter((c) => re.test(c)).join("");
        if (chars === "") return undefined;
        terms.push([chars, t.min, max]);
      }
    }
    out.push(terms);
  }
  return out;
}
