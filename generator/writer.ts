/**
 * The text writer the emitters' writer functions write into: the part of
 * ts-morph's CodeBlockWriter (code-block-writer 13) that they use, and only
 * that (the emitters are typed by this class), with the same output byte for
 * byte, written for speed. CodeBlockWriter looks up
 * every character in a Set, asks an array of pieces for the last one or two
 * characters and splits every write on a regular expression; on a document of
 * 22,000 operations (Microsoft Graph beta, 120 MB of output) that was a tenth
 * of the generation. This one keeps the last two characters and the trailing
 * newlines as fields and tests characters against a table.
 *
 * Kept the same: indentation is written at the start of a line unless the line
 * starts inside a string literal; the string, template, comment and regular
 * expression state is tracked as CodeBlockWriter tracks it (a port of its
 * `_updateInternalState`), so a multi-line template literal keeps its lines
 * as written. `test/generator/writer.test.ts` checks the two against each
 * other on seeded random sequences of calls.
 */

const NEW_LINE = 10;
const CARRIAGE_RETURN = 13;
const BACK_SLASH = 92;
const FORWARD_SLASH = 47;
const ASTERISK = 42;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACK_TICK = 96;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const DOLLAR_SIGN = 36;
const SPACE = 32;

/** The characters that can change the string / comment / regex state. */
const HANDLED = new Uint8Array(128);
for (const c of [BACK_SLASH, FORWARD_SLASH, NEW_LINE, CARRIAGE_RETURN, ASTERISK, DOUBLE_QUOTE, SINGLE_QUOTE, BACK_TICK, OPEN_BRACE, CLOSE_BRACE]) HANDLED[c] = 1;

const NO_COMMENT = 0;
const LINE_COMMENT = 1;
const STAR_COMMENT = 2;

const isRegExStart = (current: number, past: number, pastPast: number) =>
  past === FORWARD_SLASH && current !== FORWARD_SLASH && current !== ASTERISK && pastPast !== ASTERISK && pastPast !== FORWARD_SLASH;

/** What an emitter writes a top-level statement with. */
export type WriterFunction = (w: TextWriter) => void;

export class TextWriter {
  private readonly texts: string[] = [];
  private length = 0;
  /** The last and the second-to-last character codes written (-1: none). */
  private last1 = -1;
  private last2 = -1;
  /** Newlines at the end of the text, not counting carriage returns between them. */
  private trailingNewLines = 0;
  private indentation = 0;
  private readonly indents: string[] = [""];
  private newLineOnNextWrite = false;
  private comment = NO_COMMENT;
  private readonly stringStack: number[] = [];
  private inRegEx = false;

  constructor(private readonly indentText = "  ") {}

  write(text: string): this {
    this.newLineIfNewLineOnNextWrite();
    this.writeIndentingNewLines(text);
    return this;
  }

  writeLine(text: string): this {
    this.newLineIfNewLineOnNextWrite();
    if (this.length > 0) this.newLineIfLastNot();
    this.writeIndentingNewLines(text);
    this.newLine();
    return this;
  }

  newLine(): this {
    this.newLineOnNextWrite = false;
    this.baseWriteNewline();
    return this;
  }

  newLineIfLastNot(): this {
    this.newLineIfNewLineOnNextWrite();
    if (!this.isLastNewLine()) this.newLine();
    return this;
  }

  blankLine(): this {
    return this.newLineIfLastNot().newLine();
  }

  blankLineIfLastNot(): this {
    if (!this.isLastBlankLine()) this.blankLine();
    return this;
  }

  inlineBlock(block?: () => void): this {
    this.newLineIfNewLineOnNextWrite();
    this.write("{");
    this.indentBlock(block);
    this.newLineIfLastNot().write("}");
    return this;
  }

  /** The block's lines one level deeper; then the next write starts a new line. */
  indent(block: () => void): this {
    this.indentBlock(block);
    if (!this.isLastNewLine()) this.newLineOnNextWrite = true;
    return this;
  }

  /** The text as written, in pieces: a printer joins a file's pieces once instead of copying each writer's text into it. */
  pieces(): readonly string[] {
    return this.texts;
  }

  toString(): string {
    if (this.texts.length > 1) {
      const text = this.texts.join("");
      this.texts.length = 0;
      this.texts.push(text);
    }
    return this.texts[0] ?? "";
  }

  private isLastNewLine(): boolean {
    return this.last1 === NEW_LINE || this.last1 === CARRIAGE_RETURN;
  }

  private isLastBlankLine(): boolean {
    return this.trailingNewLines >= 2;
  }

  private isInString(): boolean {
    const n = this.stringStack.length;
    return n > 0 && this.stringStack[n - 1] !== OPEN_BRACE;
  }

  private indentBlock(block?: () => void): void {
    if (this.length > 0) this.newLineIfLastNot();
    this.indentation++;
    block?.();
    this.indentation = Math.max(0, this.indentation - 1);
  }

  private newLineIfNewLineOnNextWrite(): void {
    if (!this.newLineOnNextWrite) return;
    this.newLineOnNextWrite = false;
    this.newLine();
  }

  private writeIndentingNewLines(text: string): void {
    if (!text) {
      this.writeIndividual("");
      return;
    }
    if (text.indexOf("\n") < 0) {
      this.writeIndividual(text);
      return;
    }
    const items = text.split(/\r?\n/);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.baseWriteNewline();
      const s = items[i]!;
      if (s.length > 0) this.writeIndividual(s);
    }
  }

  private writeIndividual(s: string): void {
    if (!this.isInString() && (this.isLastNewLine() || this.length === 0)) this.writeIndentation();
    this.updateState(s);
    this.internalWrite(s);
  }

  private writeIndentation(): void {
    const level = this.indentation;
    while (this.indents.length <= level) this.indents.push(this.indentText.repeat(this.indents.length));
    this.internalWrite(this.indents[level]!);
  }

  private baseWriteNewline(): void {
    if (this.comment === LINE_COMMENT) this.comment = NO_COMMENT;
    const top = this.stringStack[this.stringStack.length - 1];
    if ((top === DOUBLE_QUOTE || top === SINGLE_QUOTE) && this.last1 !== BACK_SLASH) this.stringStack.pop();
    this.internalWrite("\n");
  }

  private internalWrite(text: string): void {
    const n = text.length;
    if (n === 0) return;
    this.texts.push(text);
    this.length += n;
    if (n >= 2) {
      this.last2 = text.charCodeAt(n - 2);
      this.last1 = text.charCodeAt(n - 1);
    } else {
      this.last2 = this.last1;
      this.last1 = text.charCodeAt(0);
    }
    let newLines = 0;
    for (let i = n - 1; i >= 0; i--) {
      const c = text.charCodeAt(i);
      if (c === NEW_LINE) newLines++;
      else if (c !== CARRIAGE_RETURN) {
        this.trailingNewLines = newLines;
        return;
      }
    }
    this.trailingNewLines += newLines;
  }

  /** code-block-writer's `_updateInternalState`: strings, template literals, comments and regular expressions. */
  private updateState(str: string): void {
    const stack = this.stringStack;
    for (let i = 0; i < str.length; i++) {
      const current = str.charCodeAt(i);
      if (current >= 128 || HANDLED[current] === 0) continue;
      const past = i === 0 ? this.last1 : str.charCodeAt(i - 1);
      const pastPast = i === 0 ? this.last2 : i === 1 ? this.last1 : str.charCodeAt(i - 2);
      if (this.inRegEx) {
        if ((past === FORWARD_SLASH && pastPast !== BACK_SLASH) || past === NEW_LINE) this.inRegEx = false;
        else continue;
      } else if (!this.isInString() && this.comment === NO_COMMENT && isRegExStart(current, past, pastPast)) {
        this.inRegEx = true;
        continue;
      }
      if (!this.isInString()) {
        if (this.comment === NO_COMMENT && past === FORWARD_SLASH && current === FORWARD_SLASH) this.comment = LINE_COMMENT;
        else if (this.comment === NO_COMMENT && past === FORWARD_SLASH && current === ASTERISK) this.comment = STAR_COMMENT;
        else if (this.comment === STAR_COMMENT && past === ASTERISK && current === FORWARD_SLASH) this.comment = NO_COMMENT;
      }
      if (this.comment !== NO_COMMENT) continue;
      const top = stack.length === 0 ? undefined : stack[stack.length - 1];
      if (past !== BACK_SLASH && (current === DOUBLE_QUOTE || current === SINGLE_QUOTE || current === BACK_TICK)) {
        if (top === current) stack.pop();
        else if (top === OPEN_BRACE || top === undefined) stack.push(current);
      } else if (pastPast !== BACK_SLASH && past === DOLLAR_SIGN && current === OPEN_BRACE && top === BACK_TICK) stack.push(current);
      else if (current === CLOSE_BRACE && top === OPEN_BRACE) stack.pop();
    }
  }
}
