/**
 * IR passes that run after building: naming. All TypeScript names of one
 * output module come from one registry, so nothing exported can collide.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import * as ptr from "../load/pointer.js";
import { deriveOperationName, isIdentifierName, NameRegistry, pascalCase, toIdentifier } from "./naming.js";
import type { IrDocument, IrSchema } from "./types.js";

export function assignNames(ir: IrDocument, clientName: string, diagnostics: Diagnostic[], locate: (pointer: string) => { line: number; col: number }): void {
  const exported = new NameRegistry();
  // names the emitted modules import or use themselves
  exported.reserve("T", "HttpOperation", "CallOptions", "HttpClientOptions", "callHttp", "resolveHttpConfig", "Promise", "Record");
  const base = toIdentifier(clientName, "pascal");
  ir.names = {
    factory: exported.claim(`create${base}Client`),
    client: exported.claim(`${base}Client`),
    options: exported.claim(`${base}ClientOptions`),
    defaultBaseUrl: exported.claim(`${toConstant(base)}_DEFAULT_BASE_URL`),
  };
  for (const s of ir.schemas) {
    const source = s.id.startsWith("#") ? (ptr.parse(s.id)?.at(-1) ?? "Schema") : s.id;
    s.name = exported.claim(toIdentifier(source, "pascal"));
  }
  const methods = new NameRegistry();
  for (const op of ir.operations) {
    const wanted = op.id !== "" ? (isIdentifierName(op.id) ? op.id : toIdentifier(op.id, "camel")) : deriveOperationName(op.transport.method, op.transport.path);
    const method = methods.claim(wanted);
    if (method !== wanted) {
      const { line, col } = locate(op.pointer);
      diagnostics.push({ code: "naming/collision", severity: "warning", message: `operation name ${JSON.stringify(wanted)} is taken; using ${JSON.stringify(method)}`, file: ir.source.file, pointer: op.pointer, line, col });
    }
    const type = pascalCase(method) || "Operation";
    // A response that is exactly one named schema is typed by that schema's name: no alias.
    const bodies = successBodies(op);
    const only = bodies.length === 1 && bodies[0]!.kind === "ref" ? ir.schemas.find((s) => s.pointer === (bodies[0] as { target: string }).target) : undefined;
    op.names = {
      method,
      params: exported.claim(`${type}Params`),
      response: only ? only.name : exported.claim(`${type}Response`),
      descriptor: exported.claim(toIdentifier(`${method}Operation`, "camel")),
    };
  }
}

/** The distinct schemas of an operation's 2XX bodies (first media type each). */
export function successBodies(op: IrDocument["operations"][number]): IrSchema[] {
  const out: IrSchema[] = [];
  for (const r of op.responses) {
    const c = r.success ? r.content[0] : undefined;
    if (c && !out.some((s) => s.kind === "ref" && c.schema.kind === "ref" && s.target === c.schema.target)) out.push(c.schema);
  }
  return out;
}

function toConstant(pascal: string): string {
  return pascal.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}
