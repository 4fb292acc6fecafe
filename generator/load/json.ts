/**
 * JSON text: the scanners the loader reads JSON documents with (positions of
 * pointers, duplicate keys) and, for text JSON.parse refuses, where and why
 * (JSON.parse's own messages differ from one Node version to the next and
 * give an offset, not a line and column).
 */

/**
 * The offset of the `"` that closes the double-quoted string opening at
 * `open` (a backslash escapes the character after it), or the text's length
 * when none does. Found with indexOf, not character by character: the
 * scanners of a 13 MB JSON document spend most of their time in strings.
 */
export function closingQuote(text: string, open: number): number {
  for (let i = open + 1; ; ) {
    const q = text.indexOf('"', i);
    if (q === -1) return text.length;
    // escaped when an odd number of backslashes runs up to it (inside the string: the opening quote is not one)
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    i = q + 1;
  }
}

/**
 * Whether some object of valid JSON text repeats a key (compared as written).
 * Records in `ends` where each container ends (offset of its `{` or `[` →
 * just after its `}` or `]`, both plus `shift`), as jsonLocator's scan would.
 */
export function hasDuplicateKey(text: string, ends: Map<number, number>, shift: number): boolean {
  const objects: (Set<string> | undefined)[] = [];
  const starts: number[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      const start = i;
      i = closingQuote(text, i);
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const key = text.slice(start + 1, i);
        if (keys.has(key)) return true;
        keys.add(key);
      }
    } else if (ch === 0x7b /* { */) {
      objects.push(new Set());
      starts.push(i);
      expectKey = true;
    } else if (ch === 0x5b /* [ */) {
      objects.push(undefined);
      starts.push(i);
      expectKey = false;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      objects.pop();
      ends.set(starts.pop()! + shift, i + 1 + shift);
    }
    else if (ch === 0x2c /* , */) expectKey = objects[objects.length - 1] !== undefined;
    else if (ch === 0x3a /* : */) expectKey = false;
  }
  return false;
}

/** Thrown when a text is not the JSON the position scanner follows (it then goes the YAML way). */
export class NotJson extends Error {}

/** Positions of JSON pointers in a JSON text: each container's members are found once, by scanning it, the first time a pointer goes through it. */
export function jsonLocator(text: string, knownEnds?: Map<number, number>): (tokens: readonly string[]) => { line: number; col: number } {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const position = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - lineStarts[lo]! + 1 };
  };
  const ws = (i: number) => {
    while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t")) i++;
    return i;
  };
  const stringEnd = (i: number) => {
    // i at the opening quote
    const q = closingQuote(text, i);
    if (q >= text.length) throw new NotJson();
    return q + 1;
  };
  /** Where each container scanned over ends (for a JSON document, all of them, from its duplicate-key scan): a container inside one already scanned is not scanned again when a pointer goes into it. */
  const ends = knownEnds ?? new Map<number, number>();
  const valueEnd = (i: number): number => {
    const ch = text[i];
    if (ch === '"') return stringEnd(i);
    if (ch === "{" || ch === "[") {
      const known = ends.get(i);
      if (known !== undefined) return known;
      const open: number[] = [];
      for (let j = i; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (c === 0x22 /* " */) j = stringEnd(j) - 1;
        else if (c === 0x7b /* { */ || c === 0x5b /* [ */) open.push(j);
        else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
          ends.set(open.pop()!, j + 1);
          if (open.length === 0) return j + 1;
        }
      }
      throw new NotJson();
    }
    let j = i;
    while (j < text.length && !",}] \n\r\t".includes(text[j]!)) j++;
    if (j === i) throw new NotJson();
    return j;
  };
  /** A container's members: key (or index) → [where the member is shown (its key), where its value starts]. */
  const index = new Map<number, Map<string, [number, number]>>();
  const members = (start: number): Map<string, [number, number]> => {
    let m = index.get(start);
    if (m) return m;
    m = new Map();
    const object = text[start] === "{";
    let i = ws(start + 1);
    for (let n = 0; text[i] !== (object ? "}" : "]"); n++) {
      if (object) {
        if (text[i] !== '"') throw new NotJson();
        const keyEnd = stringEnd(i);
        const key = JSON.parse(text.slice(i, keyEnd)) as string;
        const colon = ws(keyEnd);
        if (text[colon] !== ":") throw new NotJson();
        const value = ws(colon + 1);
        if (!m.has(key)) m.set(key, [i, value]);
        i = ws(valueEnd(value));
      } else {
        m.set(String(n), [i, i]);
        i = ws(valueEnd(i));
      }
      if (text[i] === ",") i = ws(i + 1);
      else if (text[i] !== (object ? "}" : "]")) throw new NotJson();
    }
    index.set(start, m);
    return m;
  };
  return (tokens) => {
    let value = ws(0);
    let shown = value;
    for (const t of tokens) {
      if (text[value] !== "{" && text[value] !== "[") break;
      const member = members(value).get(t);
      if (!member) break;
      [shown, value] = member;
    }
    return position(shown);
  };
}

export const JSON_COMMENTS = "JSON does not allow comments";

/** Where JSON text first breaks the grammar, and how, in words; undefined for valid JSON. */
export function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  const open: { ch: "{" | "["; at: number }[] = [];
  /** What comes next: a value; an object's first key or `}`; a key after a comma; a `:`; a `,` or the closing bracket; nothing more. */
  let expect: "value" | "first-key" | "key" | "colon" | "comma" | "end" = "value";
  let lastKey: string | undefined;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const position = (offset: number) => {
    const before = text.slice(0, offset);
    return `line ${before.split("\n").length}, column ${offset - before.lastIndexOf("\n")}`;
  };
  for (;;) {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
    const ch = text[i];
    if (ch === undefined) {
      const inner = open.at(-1);
      if (inner) return { offset: text.length, message: `the JSON text ends inside the ${inner.ch === "{" ? "object" : "array"} opened at ${position(inner.at)}: it looks cut short` };
      return expect === "end" ? undefined : { offset: text.length, message: "the file holds no JSON value" };
    }
    if (ch === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) return { offset: i, message: JSON_COMMENTS };
    const top = open.at(-1);
    if (expect === "end") return { offset: i, message: "more text after the end of the JSON value" };
    if (expect === "comma") {
      if (ch === ",") {
        expect = top!.ch === "{" ? "key" : "value";
        i++;
        continue;
      }
      if ((ch === "}" && top!.ch === "{") || (ch === "]" && top!.ch === "[")) {
        open.pop();
        expect = open.length === 0 ? "end" : "comma";
        i++;
        continue;
      }
      return { offset: i, message: top!.ch === "{" ? `expected "," or "}" after the value of ${JSON.stringify(lastKey)}` : 'expected "," or "]" after an array item' };
    }
    if (expect === "colon") {
      if (ch !== ":") return { offset: i, message: `expected ":" after the property name ${JSON.stringify(lastKey)}` };
      expect = "value";
      i++;
      continue;
    }
    if (expect === "first-key" || expect === "key") {
      if (ch === "}" && expect === "first-key") {
        open.pop();
        expect = open.length === 0 ? "end" : "comma";
        i++;
        continue;
      }
      if (ch === "}") return { offset: i, message: 'a comma before "}": JSON allows no trailing comma' };
      if (ch !== '"') return { offset: i, message: ch === "'" ? "JSON property names take double quotes" : "expected a property name in double quotes" };
      const end = stringEnd(text, i);
      if (typeof end !== "number") return end;
      lastKey = JSON.parse(text.slice(i, end)) as string;
      expect = "colon";
      i = end;
      continue;
    }
    // a value
    if (ch === "{" || ch === "[") {
      open.push({ ch, at: i });
      expect = ch === "{" ? "first-key" : "value";
      i++;
      if (ch === "[") {
        while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
        if (text[i] === "]") {
          open.pop();
          expect = open.length === 0 ? "end" : "comma";
          i++;
        }
      }
      continue;
    }
    if (ch === "]" && top?.ch === "[") return { offset: i, message: 'a comma before "]": JSON allows no trailing comma' };
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (typeof end !== "number") return end;
      i = end;
    } else if (ch === "'") return { offset: i, message: "JSON strings take double quotes" };
    else {
      const word = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|^(?:true|false|null)/.exec(text.slice(i, i + 400));
      const rest = text.slice(i + (word?.[0].length ?? 0), i + (word?.[0].length ?? 0) + 1);
      if (!word || /[\w.+-]/.test(rest)) {
        const shown = /^[^\s,:{}[\]"]{1,20}/.exec(text.slice(i))?.[0] ?? ch;
        return { offset: i, message: `${JSON.stringify(shown)} is not a JSON value (a string in double quotes, a number, true, false, null, an object or an array)` };
      }
      i += word[0].length;
    }
    expect = open.length === 0 ? "end" : "comma";
  }
}

/** Just after the string opening at `i`, or where and why it is not a JSON string. */
function stringEnd(text: string, i: number): number | { offset: number; message: string } {
  const q = closingQuote(text, i);
  const body = text.slice(i + 1, Math.min(q, text.length));
  const control = body.search(/[\u0000-\u001f]/);
  if (control >= 0) return { offset: i + 1 + control, message: body[control] === "\n" ? "a string runs past the end of its line (unclosed quote?)" : "a control character inside a string (write it escaped, e.g. \\t)" };
  if (q >= text.length) return { offset: i, message: "a string is never closed" };
  // escapes taken pair by pair, so `\\q` is an escaped backslash and a q
  for (const m of body.matchAll(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])|\\.?/g)) {
    if (m[1] === undefined) return { offset: i + 1 + m.index, message: `${JSON.stringify(m[0])} is not a JSON escape` };
  }
  return q + 1;
}
