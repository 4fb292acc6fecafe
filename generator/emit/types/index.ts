/**
 * Target `types`: one TypeScript declaration per named schema, with JSDoc from
 * the spec. Plain object schemas become interfaces; everything else a type alias.
 */
import { StructureKind, type InterfaceDeclarationStructure, type StatementStructures, type WriterFunction } from "ts-morph";
import type { IrDocument, IrNamedSchema, IrObjectLikeSchema } from "../../ir/types.js";
import { identifier } from "../escape.js";
import { typeAlias } from "../statements.js";
import { jsDoc, objectMembers, printType, toTypeNode, type TypeContext } from "./type-node.js";

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
    const base = { name: identifier(named.name), isExported: true, ...(docs ? { docs: [docs] } : {}) };
    const s = named.schema;
    if (isPlainObject(s)) {
      const { members, index } = objectMembers(s, ctx);
      const decl: InterfaceDeclarationStructure = {
        ...base,
        kind: StructureKind.Interface,
        // keys come from objectMembers, which escapes them; docs were escaped by jsDoc
        properties: members.map((m) => ({ name: m.key, hasQuestionToken: m.optional, type: (w) => printType(w, m.type), ...(m.docs ? { docs: [m.docs] } : {}) })),
        ...(index ? { indexSignatures: [{ keyName: "key", keyType: "string", returnType: (w) => printType(w, index) }] } : {}),
      };
      return decl;
    }
    return typeAlias(named.name, docs, toTypeNode(s, ctx));
  });
}

