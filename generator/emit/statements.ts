/**
 * Top-level statements written with the writer directly (ts-morph's structure
 * printer adds a hanging indent to multi-line types and initializers).
 * Names must come from the naming pass; docs must already be escaped.
 */
import type { TextWriter, WriterFunction } from "../writer.js";
import { identifier } from "./escape.js";
import { printType, writeDocs, type TypeNode } from "./types/type-node.js";
import { writeValue } from "./value.js";

/** `params`: a type parameter list (`<N extends Numbers = "string">`), written as given. */
export function typeAlias(name: string, docs: string | undefined, type: TypeNode | ((w: TextWriter) => void), params = ""): WriterFunction {
  return (w) => {
    if (docs) writeDocs(w, docs);
    w.write(`export type ${identifier(name)}${params} = `);
    if (typeof type === "function") type(w);
    else printType(w, type);
    w.write(";").newLine();
  };
}

export function constValue(name: string, docs: string | undefined, typeAnnotation: string | undefined, value: unknown): WriterFunction {
  return (w) => {
    if (docs) writeDocs(w, docs);
    w.write(`export const ${identifier(name)}${typeAnnotation ? `: ${typeAnnotation}` : ""} = `);
    writeValue(w, value);
    w.write(";").newLine();
  };
}
