/** Writes a JSON-like value as a TypeScript expression; keys and strings go through the escaping choke point. */
import type { TextWriter } from "../writer.js";
import { isIdentifierName } from "../ir/naming.js";
import { literal, propertyKey } from "./escape.js";

/** A reference to a generated binding inside a value (written as the bare name, not as data). */
export class CodeRef {
  constructor(readonly name: string) {
    if (!isIdentifierName(name)) throw new Error(`internal: ${JSON.stringify(name)} is not a generated binding`);
  }
}

/** A call of a runtime or generated function inside a value, marked pure so that a bundler drops it with an unused value. */
export class CodeCall {
  constructor(
    readonly fn: CodeRef,
    readonly args: readonly unknown[],
  ) {}
}

/** A short list of strings written on one line (`["links", "next"]`), as a person would write a path. */
export class InlineList {
  constructor(readonly items: readonly string[]) {}
}

/**
 * Arrays and objects whose one-line form is at most this long are written on
 * one line, as a person would (`params: [{ name: "address", required: true }]`);
 * longer ones one member per line.
 */
const INLINE_WIDTH = 120;

/** The one-line form of a value, or undefined when it is longer than `room`. */
function oneLine(value: unknown, room: number): string | undefined {
  let text: string | undefined;
  if (value instanceof CodeRef) text = value.name;
  else if (value instanceof CodeCall || value instanceof InlineList) return undefined;
  else if (Array.isArray(value)) {
    const items: string[] = [];
    for (const v of value) {
      const t = oneLine(v, room);
      if (t === undefined) return undefined;
      items.push(t);
    }
    text = `[${items.join(", ")}]`;
  } else if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    const members: string[] = [];
    for (const [k, v] of entries) {
      const t = oneLine(v, room);
      if (t === undefined) return undefined;
      members.push(`${propertyKey(k, "value")}: ${t}`);
    }
    text = members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
  } else text = literal(value);
  return text.length <= room ? text : undefined;
}

export function writeValue(w: TextWriter, value: unknown): void {
  if ((Array.isArray(value) || (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype)) && !(value instanceof InlineList)) {
    const inline = oneLine(value, INLINE_WIDTH);
    if (inline !== undefined) {
      w.write(inline);
      return;
    }
  }
  if (value instanceof CodeRef) {
    w.write(value.name);
    return;
  }
  if (value instanceof CodeCall) {
    w.write(`/* @__PURE__ */ ${value.fn.name}(`);
    value.args.forEach((a, i) => {
      if (i > 0) w.write(", ");
      writeValue(w, a);
    });
    w.write(")");
    return;
  }
  if (value instanceof InlineList) {
    w.write(`[${value.items.map((v) => literal(v)).join(", ")}]`);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      w.write("[]");
      return;
    }
    w.write("[").newLine();
    w.indent(() => {
      for (const v of value) {
        writeValue(w, v);
        w.write(",").newLine();
      }
    });
    w.write("]");
    return;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) {
      w.write("{}");
      return;
    }
    w.write("{").newLine();
    w.indent(() => {
      for (const [k, v] of entries) {
        w.write(`${propertyKey(k, "value")}: `);
        writeValue(w, v);
        w.write(",").newLine();
      }
    });
    w.write("}");
    return;
  }
  w.write(literal(value));
}
