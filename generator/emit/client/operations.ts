/**
 * operations.js and operations.d.ts: the HTTP operation descriptors, as
 * JavaScript with declarations. A descriptor is data that names runtime
 * encoders and generated checks; in a TypeScript module, tsc's control flow
 * analysis makes each such name at the top level walk back over every
 * declaration above it, so thousands of descriptors cost time that grows with
 * the square of their number (on Microsoft Graph beta, 22,361 descriptors were
 * about 100 of the 113 CPU seconds tsc spent on the package). Declared here,
 * they cost tsc one line each. client.ts imports them and re-exports them, so
 * the module's public names are what they were.
 */
import { Kind } from "../../structure-kind.js";
import type { Statement } from "../../print.js";
import type { WriterFunction } from "../../writer.js";
import { identifier } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { CodeRef, writeValue } from "../value.js";
import { runtimeImports } from "../runtime-files.js";

interface Descriptor {
  name: string;
  docs: string;
  /** Its type as operations.d.ts spells it (client types as `C.…`, schema types as `T.…`). */
  type: string;
  value: Record<string, unknown>;
}

/** Every CodeRef inside a value. */
function refsOf(value: unknown, into: Set<string>): Set<string> {
  if (value instanceof CodeRef) into.add(value.name);
  else if (Array.isArray(value)) for (const v of value) refsOf(v, into);
  else if (value && typeof value === "object") for (const v of Object.values(value)) refsOf(v, into);
  return into;
}

/** A module constant of operations.js that descriptors name (not exported: the descriptors are its API). */
interface Constant {
  name: string;
  docs: string;
  value: unknown;
}

export class OperationsModule {
  readonly descriptors: Descriptor[] = [];
  private readonly constants: Constant[] = [];

  add(d: Descriptor): void {
    this.descriptors.push(d);
  }

  /** A value several descriptors may name (a deprecated value's notice), written once, before them. */
  addConstant(c: Constant): void {
    this.constants.push(c);
  }

  get names(): string[] {
    return this.descriptors.map((d) => identifier(d.name));
  }

  /** operations.js: the descriptors, importing the runtime encoders and the checks and codecs of validators.js they name. */
  js(fromValidators: ReadonlySet<string>): Statement[] {
    const refs = new Set<string>();
    for (const d of this.descriptors) refsOf(d.value, refs);
    for (const c of this.constants) refs.delete(identifier(c.name));
    const checks = [...refs].filter((r) => fromValidators.has(r)).sort();
    const runtime = [...refs].filter((r) => !fromValidators.has(r)).sort();
    const statements: Statement[] = [];
    statements.push(...runtimeImports(runtime));
    if (checks.length > 0) statements.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "./validators.js", namedImports: checks });
    for (const c of this.constants) {
      statements.push((w) => {
        writeDocs(w, c.docs);
        w.write(`const ${identifier(c.name)} = `);
        writeValue(w, c.value);
        w.write(";").newLine();
      });
    }
    for (const d of this.descriptors) {
      statements.push((w) => {
        w.write(`export const ${identifier(d.name)} = `);
        writeValue(w, d.value);
        w.write(";").newLine();
      });
    }
    return statements;
  }

  /** operations.d.ts: each descriptor's type and docs. */
  dts(): Statement[] {
    const usesTypes = this.descriptors.some((d) => /\bT\./.test(d.type));
    const statements: Statement[] = [
      // a document's declared limits (emit/client/limits.ts) are declared here too
      ...runtimeImports(["HttpOperation", ...(this.descriptors.some((d) => d.type.startsWith("StreamOperation<")) ? ["StreamOperation"] : []), ...(this.descriptors.some((d) => d.type === "ServiceLimits") ? ["ServiceLimits"] : [])].map((name) => ({ name, isTypeOnly: true }))),
      ...(usesTypes ? [{ kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" } as const] : []),
      { kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: "C", moduleSpecifier: "./client.js" },
    ];
    const declarations: WriterFunction = (w) => {
      this.descriptors.forEach((d, i) => {
        if (i > 0) w.blankLine();
        writeDocs(w, d.docs);
        w.writeLine(`export declare const ${identifier(d.name)}: ${d.type};`);
      });
    };
    statements.push(declarations);
    return statements;
  }
}
