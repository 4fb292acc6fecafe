/**
 * The public face of validators.js: each exported validator written twice,
 * as JavaScript for validators.js and as a declaration (with its docs) for
 * validators.d.ts. The module is JavaScript so that the TypeScript compiler
 * of a package never reads its thousands of lines of narrowing code: it
 * reads only the declarations (see docs/adr/0005-generated-validators.md).
 */
import type { WriterFunction } from "../../writer.js";
import { identifier, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";

/** One exported validator: `validateX`, the Standard Schema object `XSchema` or the type guard `isX`. */
export type ValidatorExport =
  | { kind: "validate"; name: string; check: string; type: string; what: string; wrappedIn?: string; walker?: string }
  | { kind: "standard"; name: string; check: string; type: string; what: string }
  | { kind: "guard"; name: string; check: string; type: string; what: string };

const capitalized = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

function docsOf(e: ValidatorExport): string {
  if (e.kind === "standard") return `${capitalized(e.what)} as a Standard Schema v1 validator.`;
  if (e.kind === "guard") return `Whether a value is a valid ${e.what} (a type guard; no issues are collected).`;
  if (e.walker === undefined) return `Validates ${e.what}: every issue with its JSON-pointer path, keyword and expected value.`;
  return `Validates ${e.what} in its wire form: every issue with its JSON-pointer path, keyword and expected value. With \`numbers: "bigint"\`, the valid value comes back with its string-encoded integers as bigints (a copy; the input is left as it is).`;
}

/** The JavaScript of an export (validators.js). */
export function exportJs(e: ValidatorExport): WriterFunction {
  return (w) => {
    const name = identifier(e.name);
    if (e.kind === "standard") {
      w.writeLine(`export const ${name} = /*#__PURE__*/ standard(${e.check});`);
      return;
    }
    if (e.kind === "guard") {
      w.writeLine(`export function ${name}(value) {`);
      // through the runtime, so a value nested too deep to check answers false instead of overflowing the stack
      w.writeLine(`  return is(${e.check}, value);`);
      w.writeLine("}");
      return;
    }
    const value = e.wrappedIn === undefined ? "value" : `unwrapped(value, ${stringLiteral(e.wrappedIn)})`;
    if (e.walker === undefined) {
      w.writeLine(`export function ${name}(value) {`);
      w.writeLine(`  return run(${e.check}, ${value});`);
    } else {
      w.writeLine(`export function ${name}(value, options) {`);
      w.writeLine(`  return validated(${e.check}, ${e.walker}, ${value}, options?.numbers);`);
    }
    w.writeLine("}");
  };
}

/** The declaration of an export, with its docs (validators.d.ts). */
export function exportDts(e: ValidatorExport): WriterFunction {
  return (w) => {
    writeDocs(w, docsOf(e));
    const name = identifier(e.name);
    if (e.kind === "standard") w.writeLine(`export declare const ${name}: StandardSchemaV1<unknown, ${e.type}>;`);
    else if (e.kind === "guard") w.writeLine(`export declare function ${name}(value: unknown): value is ${e.type};`);
    else if (e.walker === undefined) w.writeLine(`export declare function ${name}(value: unknown): ValidationResult<${e.type}>;`);
    else w.writeLine(`export declare function ${name}<N extends Numbers = "string">(value: unknown, options?: { readonly numbers?: N }): ValidationResult<Decoded<${e.type}, N>>;`);
  };
}

/**
 * The declarations of what the client's descriptors take from validators.js
 * (checks and integer codecs), under one comment: the module index does not
 * re-export them.
 */
export function internalsDts(names: readonly { name: string; type: "Check" | "Decoder" | "Encoder" }[]): WriterFunction {
  return (w) => {
    writeDocs(w, "Checks and integer codecs the client's operation descriptors use (not re-exported by the module index).");
    for (const n of names) w.writeLine(`export declare const ${identifier(n.name)}: ${n.type};`);
  };
}
