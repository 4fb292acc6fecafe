/**
 * TextWriter (generator/writer.ts) must write what ts-morph's CodeBlockWriter
 * writes for the same calls: seeded random sequences of the calls the
 * emitters make, with text full of the characters that move its string,
 * template, comment and regex state, run on both.
 */
import { CodeBlockWriter } from "ts-morph";
import { describe, expect, it } from "vitest";
import { TextWriter } from "../../generator/writer.js";
import { rng } from "../../runtime/mock/mock.js";


const PIECES = ["a", "x = 1;", " ", "{", "}", '"', "'", "`", "${", "\\", "/", "*", "/*", "*/", "//", "\n", "\r\n", "\r", "é", "名", "\n\n", "return `", "${x}`", "/^a+$/u", "a / b", "// note\n", "/** doc */", '"s\\"q"', "'it\\'s'", "\\n"];

type Call = { op: string; text?: string; children?: Call[] };

function calls(next: () => number, depth: number): Call[] {
  const out: Call[] = [];
  const n = 1 + Math.floor(next() * 8);
  for (let i = 0; i < n; i++) {
    const r = next();
    const text = Array.from({ length: Math.floor(next() * 5) }, () => PIECES[Math.floor(next() * PIECES.length)]!).join("");
    if (r < 0.35) out.push({ op: "write", text });
    else if (r < 0.55) out.push({ op: "writeLine", text });
    else if (r < 0.6) out.push({ op: "newLine" });
    else if (r < 0.65) out.push({ op: "newLineIfLastNot" });
    else if (r < 0.7) out.push({ op: "blankLine" });
    else if (r < 0.75) out.push({ op: "blankLineIfLastNot" });
    else if (depth < 3 && r < 0.88) out.push({ op: "inlineBlock", children: calls(next, depth + 1) });
    else if (depth < 3) out.push({ op: "indent", children: calls(next, depth + 1) });
    else out.push({ op: "write", text });
  }
  return out;
}

interface Target {
  write(t: string): unknown;
  writeLine(t: string): unknown;
  newLine(): unknown;
  newLineIfLastNot(): unknown;
  blankLine(): unknown;
  blankLineIfLastNot(): unknown;
  inlineBlock(f: () => void): unknown;
  indent(f: () => void): unknown;
  toString(): string;
}

/** Plays the calls; `probes` gets the text after each one (the writers' state decides the next call's indentation). */
function play(w: Target, list: Call[], probes: string[]): void {
  for (const c of list) {
    if (c.children) {
      const children = c.children;
      (w[c.op as "inlineBlock"] as (f: () => void) => unknown).call(w, () => play(w, children, probes));
    } else if (c.text !== undefined) (w[c.op as "write"] as (t: string) => unknown).call(w, c.text);
    else (w[c.op as "newLine"] as () => unknown).call(w);
    probes.push(w.toString());
  }
}

describe("TextWriter writes what CodeBlockWriter writes", () => {
  it("on 3,000 seeded random call sequences", () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const list = calls(rng(seed), 0);
      const a = new CodeBlockWriter({ indentNumberOfSpaces: 2, useTabs: false, newLine: "\n" });
      const b = new TextWriter();
      const pa: string[] = [];
      const pb: string[] = [];
      play(a as unknown as Target, list, pa);
      play(b, list, pb);
      if (b.toString() !== a.toString() || pa.join("\u0000") !== pb.join("\u0000")) {
        expect({ seed, text: b.toString(), probes: pb }).toEqual({ seed, text: a.toString(), probes: pa });
      }
    }
  });

  it("control: a writer that indents inside a template literal differs", () => {
    const a = new CodeBlockWriter({ indentNumberOfSpaces: 2 });
    const b = new TextWriter();
    for (const w of [a, b] as Target[]) w.inlineBlock(() => w.write("const s = `line 1\nline 2`;"));
    expect(b.toString()).toBe(a.toString());
    expect(b.toString()).toContain("\nline 2`");
    const naive = "{\n  const s = `line 1\n  line 2`;\n}";
    expect(b.toString()).not.toBe(naive);
  });
});
