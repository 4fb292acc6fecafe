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
import { numberedName, type NumberedKind } from "../types/numbered.js";

/** One exported validator: `validateX`, the Standard Schema object `XSchema` or the type guard `isX`. */
export type ValidatorExport =
  | { kind: "validate"; name: string; check: string; type: string; what: string; wrappedIn?: string; walker?: string; response?: true; forms?: string; numbered?: NumberedKind }
  | { kind: "standard"; name: string; check: string; type: string; what: string; documented?: string }
  | { kind: "guard"; name: string; check: string; type: string; what: string };

const capitalized = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

function docsOf(e: ValidatorExport): string {
  if (e.kind === "standard") return `${capitalized(e.what)} as a Standard Schema v1 validator.`;
  if (e.kind === "guard") return `Whether a value is a valid ${e.what} (a type guard; no issues are collected).`;
  const forms = e.forms === undefined ? "" : " Values a server sends in another form than documented (`x-avaspec-wire-form`) are valid, and come back in the documented form (a copy; the input is left as it is).";
  if (e.walker === undefined) return `Validates ${e.what}: every issue with its JSON-pointer path, keyword and expected value.${forms}`;
  return `Validates ${e.what} in its wire form: every issue with its JSON-pointer path, keyword and expected value.${forms} With \`numbers: "bigint"\`, the valid value comes back with its string-encoded integers as bigints (a copy; the input is left as it is).`;
}

/** The JavaScript of an export (validators.js). */
export function exportJs(e: ValidatorExport): WriterFunction {
  return (w) => {
    const name = identifier(e.name);
    if (e.kind === "standard") {
      w.writeLine(`export const ${name} = /*#__PURE__*/ standard(${e.check}${e.documented === undefined ? "" : `, ${e.documented}`});`);
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
    // a schema's or a result's validator reads what a server may send; a params validator what is to be sent
    const response = e.response ? ", true" : "";
    if (e.walker === undefined) {
      w.writeLine(`export function ${name}(value) {`);
      w.writeLine(e.forms === undefined ? `  return run(${e.check}, ${value}${response});` : `  return normalized(run(${e.check}, ${value}${response}), ${e.forms});`);
    } else {
      w.writeLine(`export function ${name}(value, options) {`);
      w.writeLine(`  return validated(${e.check}, ${e.walker}, ${value}, options?.numbers${e.forms === undefined ? "" : `, ${e.forms}`});`);
    }
    w.writeLine("}");
  };
}

/** A validator's value under the number policy: the type by its name (`T.Block<N>`), else mapped (`Decoded<…>`). */
export function decodedType(e: Extract<ValidatorExport, { kind: "validate" }>): string {
  return e.numbered === undefined ? `Decoded<${e.type}, N>` : numberedName(e.type, e.numbered);
}

/** The declaration of an export, with its docs (validators.d.ts). */
export function exportDts(e: ValidatorExport): WriterFunction {
  return (w) => {
    writeDocs(w, docsOf(e));
    const name = identifier(e.name);
    if (e.kind === "standard") w.writeLine(`export declare const ${name}: StandardSchemaV1<unknown, ${e.type}>;`);
    else if (e.kind === "guard") w.writeLine(`export declare function ${name}(value: unknown): value is ${e.type};`);
    else if (e.walker === undefined) w.writeLine(`export declare function ${name}(value: unknown): ValidationResult<${e.type}>;`);
    else w.writeLine(`export declare function ${name}<N extends Numbers = "string">(value: unknown, options?: { readonly numbers?: N }): ValidationResult<${decodedType(e)}>;`);
  };
}

/**
 * The declarations of what the client's descriptors take from validators.js
 * (checks and integer codecs), under one comment: the module index does not
 * re-export them.
 */
export function internalsDts(names: readonly { name: string; type: "Check" | "Decoder" | "Encoder" | "Normalizer" }[]): WriterFunction {
  return (w) => {
    writeDocs(w, "Checks and integer codecs the client's operation descriptors use (not re-exported by the module index).");
    for (const n of names) w.writeLine(`export declare const ${identifier(n.name)}: ${n.type};`);
  };
}
