/**
 * Target `types`: one TypeScript declaration per named schema, with JSDoc from
 * the spec. Plain object schemas become interfaces; everything else a type alias.
 */
import type { StatementStructures, WriterFunction } from "ts-morph";
import type { IrDocument, IrNamedSchema, IrObjectLikeSchema } from "../../ir/types.js";
import { identifier } from "../escape.js";
import { typeAlias } from "../statements.js";
import { jsDoc, objectMembers, printType, toTypeNode, writeDocs, writeMember, type TypeContext } from "./type-node.js";

function localTypeContext(ir: IrDocument): TypeContext {
  const byKey = new Map(ir.schemas.map((s) => [s.key, s.name]));
  return { refName: (target) => byKey.get(target) ?? "unknown" };
}

function isPlainObject(s: IrNamedSchema["schema"]): s is IrObjectLikeSchema {
  return (
    s.kind === "schema" &&
    (s.types === undefined || (s.types.length === 1 && s.types[0] === "object")) &&
    s.properties !== undefined &&
    !s.allOf && !s.oneOf && !s.anyOf && !s.enum && !s.const && !s.items && !s.prefixItems
  );
}

export function emitTypes(ir: IrDocument): (StatementStructures | WriterFunction)[] {
  const ctx = localTypeContext(ir);
  return ir.schemas.map((named): StatementStructures | WriterFunction => {
    const docs = jsDoc(named.schema);
    const s = named.schema;
    if (isPlainObject(s)) {
      // keys come from objectMembers, which escapes them; docs were escaped by jsDoc
      const { members, index } = objectMembers(s, ctx);
      return (w) => {
        if (docs) writeDocs(w, docs);
        w.write(`export interface ${identifier(named.name)} `).inlineBlock(() => {
          for (const m of members) writeMember(w, m);
          if (index) {
            w.write("[key: string]: ");
            printType(w, index);
            w.write(";").newLine();
          }
        });
        w.newLine();
      };
    }
    return typeAlias(named.name, docs, toTypeNode(s, ctx));
  });
}

