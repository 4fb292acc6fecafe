/**
 * Target `types`: one TypeScript declaration per named schema, with JSDoc from
 * the spec. Plain object schemas become interfaces; everything else a type alias.
 */
import type { StatementStructures } from "ts-morph";
import { Kind } from "../../structure-kind.js";
import type { WriterFunction } from "../../writer.js";
import type { IrDocument, IrNamedSchema, IrObjectLikeSchema } from "../../ir/types.js";
import { identifier } from "../escape.js";
import { typeAlias } from "../statements.js";
import { webhookPayloads } from "../webhooks.js";
import { NUMBERS_DECLARATION, numberedTypes, withNumbers } from "./numbered.js";
import { jsDoc, objectMembers, printType, schemaTypeContext, shapeName, toTypeNode, writeDocs, writeMember, type Marker, type TypeContext } from "./type-node.js";

function isPlainObject(s: IrNamedSchema["schema"]): s is IrObjectLikeSchema {
  return (
    s.kind === "schema" &&
    (s.types === undefined || (s.types.length === 1 && s.types[0] === "object")) &&
    s.properties !== undefined &&
    !s.allOf && !s.oneOf && !s.anyOf && !s.enum && !s.knownValues && !s.const && !s.items && !s.prefixItems
  );
}

export function emitTypes(ir: IrDocument): (StatementStructures | WriterFunction)[] {
  const markers = new Set<Marker>();
  const marked = (name: Marker) => void markers.add(name);
  const response = schemaTypeContext(ir.schemas, "response", undefined, undefined, marked);
  const request = schemaTypeContext(ir.schemas, "request", undefined, undefined, marked);
  // a response type holding integers takes the number policy as a parameter (numbered.ts)
  const numbered = numberedTypes(ir.schemas);
  const policy = withNumbers(response, ir.schemas);
  const declarations = ir.schemas.flatMap((named) => {
    const docs = jsDoc(named.schema);
    const generic = numbered.get(named.key) === "generic";
    if (generic) marked("Numbers");
    // a schema with readOnly/writeOnly members: the name is the response shape, `…Input` the request shape
    const input = named.names.input;
    const shapes: [string, TypeContext, string | undefined, boolean][] = [[named.name, generic ? policy : response, docs, generic]];
    if (input) shapes.push([input, request, [docs, `What requests send as \`${named.name}\`: readOnly members left out, writeOnly ones in.`].filter(Boolean).join("\n\n"), false]);
    return shapes.map(([name, ctx, text, takesPolicy]) => declaration(named.schema, name, text, ctx, takesPolicy));
  });
  // what webhooks deliver is written by the API, as a response is
  const hooks = webhookPayloads(ir, response);
  if (hooks) declarations.push(hooks);
  if (markers.size === 0) return declarations;
  return [{ kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: "../runtime/values/numbers.js", namedImports: [...markers].sort() }, ...declarations];
}

function declaration(s: IrNamedSchema["schema"], name: string, docs: string | undefined, ctx: TypeContext, generic: boolean): WriterFunction {
  const params = generic ? NUMBERS_DECLARATION : "";
  if (isPlainObject(s)) {
    // keys come from objectMembers, which escapes them; docs were escaped by jsDoc
    const { members, index } = objectMembers(s, ctx);
    return (w) => {
      if (docs) writeDocs(w, docs);
      w.write(`export interface ${identifier(name)}${params} `).inlineBlock(() => {
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
  return typeAlias(name, docs, toTypeNode(s, ctx), params);
}
