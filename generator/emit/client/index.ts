/**
 * Target `client`: for each operation a parameters type, a response type and
 * an operation descriptor (plain data for the runtime), then the client
 * interface and its factory. Generated code is wiring; behaviour is in runtime/.
 */
import { StructureKind, VariableDeclarationKind, type CodeBlockWriter, type StatementStructures, type WriterFunction } from "ts-morph";
import { successBodies } from "../../ir/passes.js";
import type { IrDocument, IrOperation, IrParameter } from "../../ir/types.js";
import { comment, identifier, propertyKey, stringLiteral } from "../escape.js";
import { jsDoc, printType, toTypeNode, UNKNOWN, writeMember, type Member, type TypeContext } from "../types/type-node.js";
import { constValue, typeAlias } from "../statements.js";

/** The import name of the types module inside client.ts. */
const TYPES_NS = "T";

export function defaultBaseUrl(ir: IrDocument): string {
  const server = ir.servers[0];
  if (!server) return "";
  return server.url.replace(/\{([^}]+)\}/g, (m, name: string) => server.variables.find((v) => v.name === name)?.default ?? m);
}

function apiKeyScheme(ir: IrDocument, op: IrOperation) {
  return ir.securitySchemes.find((s) => op.security.schemes.includes(s.id) && s.in !== "cookie");
}

function responseKind(op: IrOperation): "json" | "text" | "none" {
  const c = op.responses.find((r) => r.success && r.content.length > 0)?.content[0];
  if (!c) return "none";
  return /json/i.test(c.contentType) ? "json" : "text";
}

function paramDocs(p: IrParameter): string | undefined {
  const own = [p.description ? comment(p.description) : undefined, p.deprecated ? "@deprecated" : undefined].filter(Boolean).join("\n");
  const fromSchema = jsDoc(p.schema, "");
  return [own, fromSchema].filter((x) => x).join("\n") || undefined;
}

export function emitClient(ir: IrDocument): (StatementStructures | WriterFunction)[] {
  const schemaNames = new Set(ir.schemas.map((s) => s.name));
  const byPointer = new Map(ir.schemas.map((s) => [s.pointer, s.name]));
  let usesTypes = false;
  const ctx: TypeContext = {
    refName: (target) => {
      const name = byPointer.get(target);
      if (!name) return "unknown";
      usesTypes = true;
      return `${TYPES_NS}.${name}`;
    },
  };
  const statements: (StatementStructures | WriterFunction)[] = [];
  const usedKey = ir.operations.map((op) => apiKeyScheme(ir, op)).find((k) => k !== undefined);

  for (const op of ir.operations) {
    const members: Member[] = op.parameters.map((p) => {
      const docs = paramDocs(p);
      return { key: propertyKey(p.name), optional: !p.required, type: toTypeNode(p.schema, ctx), ...(docs ? { docs } : {}) };
    });
    const body = op.requestBody?.content[0];
    if (op.requestBody) {
      members.push({ key: "body", optional: !op.requestBody.required, type: body ? toTypeNode(body.schema, ctx) : UNKNOWN, docs: comment(op.requestBody.description ?? "The request body.") });
    }
    statements.push(typeAlias(op.names.params, `Parameters of {@link ${identifier(ir.names.client)}.${comment(op.names.method)}}.`, (w) => writeObjectType(w, members)));
    if (!schemaNames.has(op.names.response)) {
      const bodies = successBodies(op).map((s) => toTypeNode(s, ctx));
      statements.push(typeAlias(op.names.response, `Successful (2XX) response body of \`${comment(op.names.method)}\`.`, bodies.length === 0 ? { k: "raw", text: "void" } : bodies.length === 1 ? bodies[0]! : { k: "union", parts: bodies }));
    }
    const key = apiKeyScheme(ir, op);
    const descriptor = {
      id: op.id || op.names.method,
      method: op.transport.method.toUpperCase(),
      path: op.transport.path,
      params: op.parameters.map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required || undefined,
        style: p.style === (p.in === "query" || p.in === "cookie" ? "form" : "simple") ? undefined : p.style,
        explode: p.explode === (p.style === "form") ? undefined : p.explode,
      })),
      body: op.requestBody ? { required: op.requestBody.required, contentType: body?.contentType ?? "application/json" } : undefined,
      response: responseKind(op),
      apiKey: key ? { name: key.name, in: key.in } : undefined,
    };
    statements.push(constValue(op.names.descriptor, `Wire description of \`${comment(op.names.method)}\` (${descriptor.method} ${comment(op.transport.path)}).`, "HttpOperation", descriptor));
  }

  statements.push({
    kind: StructureKind.Interface,
    name: identifier(ir.names.options),
    isExported: true,
    docs: [`Options of {@link ${identifier(ir.names.factory)}}.`],
    extends: ["HttpClientOptions"],
    properties: usedKey
      ? [{ name: "apiKey", hasQuestionToken: true, type: "string", docs: [comment(`API key, sent as the \`${usedKey.name}\` ${usedKey.in} parameter, and only when set.${usedKey.description ? `\n\n${usedKey.description}` : ""}`)] }]
      : [],
  });

  const clientDocs = [comment(ir.info.title), ir.info.description ? comment(ir.info.description) : ""].filter(Boolean).join("\n\n");
  statements.push({
    kind: StructureKind.Interface,
    name: identifier(ir.names.client),
    isExported: true,
    docs: [clientDocs],
    methods: ir.operations.map((op) => {
      const optional = !op.parameters.some((p) => p.required) && !op.requestBody?.required;
      const response = schemaNames.has(op.names.response) ? `${TYPES_NS}.${op.names.response}` : op.names.response;
      if (schemaNames.has(op.names.response)) usesTypes = true;
      const docs = [op.summary ? comment(op.summary) : undefined, op.description ? comment(op.description) : undefined, `\`${op.transport.method.toUpperCase()} ${comment(op.transport.path)}\``, op.deprecated ? "@deprecated" : undefined]
        .filter(Boolean)
        .join("\n\n");
      return {
        name: propertyKey(op.names.method),
        docs: [docs],
        parameters: [
          { name: "params", type: identifier(op.names.params), hasQuestionToken: optional },
          { name: "options", type: "CallOptions", hasQuestionToken: true },
        ],
        returnType: `Promise<${response}>`,
      };
    }),
  });

  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ["Base URL used when no `baseUrl` option is given: the spec's first server, variables at their defaults."],
    declarations: [{ name: identifier(ir.names.defaultBaseUrl), initializer: stringLiteral(defaultBaseUrl(ir)) }],
  });

  statements.push({
    kind: StructureKind.Function,
    name: identifier(ir.names.factory),
    isExported: true,
    docs: [`Creates a client for ${comment(ir.info.title)}: one method per operation, named by its operationId.`],
    parameters: [{ name: "options", type: identifier(ir.names.options), initializer: "{}" }],
    returnType: identifier(ir.names.client),
    statements: (w) => {
      w.writeLine(`const config = resolveHttpConfig(options, ${identifier(ir.names.defaultBaseUrl)});`);
      w.write("return {").newLine();
      w.indent(() => {
        for (const op of ir.operations) {
          w.writeLine(`${propertyKey(op.names.method, "value")}: (params, callOptions) => callHttp(config, ${identifier(op.names.descriptor)}, params, callOptions),`);
        }
      });
      w.writeLine("};");
    },
  });

  const imports: (StatementStructures | WriterFunction)[] = [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: "../runtime/index.js",
      namedImports: ["callHttp", "resolveHttpConfig", { name: "CallOptions", isTypeOnly: true }, { name: "HttpClientOptions", isTypeOnly: true }, { name: "HttpOperation", isTypeOnly: true }],
    },
  ];
  if (usesTypes) imports.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, namespaceImport: TYPES_NS, moduleSpecifier: "./types.js" });
  return [...imports, ...statements];
}

function writeObjectType(w: CodeBlockWriter, members: Member[]): void {
  if (members.length === 0) {
    w.write("Record<string, never>");
    return;
  }
  w.write("{").newLine();
  w.indent(() => members.forEach((m) => writeMember(w, m)));
  w.write("}");
}
