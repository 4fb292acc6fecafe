/**
 * What an HTTP operation throws for the error responses its spec declares:
 * a union type of `ApiError<Body, Status>` per status (or range, or
 * `default`) in client.ts (`GetOrderError`), and a guard that narrows a
 * caught value to it (`isGetOrderError`), which both the client object and
 * the functional form use. The guard is a function of its own, so a bundle
 * holds the statuses of only the operations whose errors it narrows. See
 * docs/adr/0023-typed-errors-and-responses.md.
 */
import { errorResponses, returnedStatuses } from "../../ir/errors.js";
import type { IrHttpOperation, IrOperation, IrResponse } from "../../ir/types.js";
import type { TextWriter, WriterFunction } from "../../writer.js";
import { comment, identifier, stringLiteral } from "../escape.js";
import { printType, toTypeNode, writeDocs, type TypeContext, type TypeNode } from "../types/type-node.js";
import type { RuntimeName } from "../runtime-files.js";

/** The runtime's type of every status of a range: `4XX` → `ClientErrorStatus`. */
const RANGES: Record<string, string> = { "3": "RedirectStatus", "4": "ClientErrorStatus", "5": "ServerErrorStatus" };

/** Where the operation is on the client (`shop.getOrder`), for documentation. */
const member = (op: IrHttpOperation) => comment([...op.group, op.names.method].join("."));

/** One member of an operation's error union: a body and the statuses it is thrown with. */
interface Member {
  body: TypeNode;
  /** The status type: codes joined (`400 | 404`), a range's type or the other statuses (`OtherStatus<…>`). */
  status: string;
}

/** The HTTP operations whose error types and guards the naming pass named. */
export function erroringOperations(ops: readonly IrOperation[]): IrHttpOperation[] {
  return ops.filter((op): op is IrHttpOperation => op.protocol === "http" && op.names.error !== undefined);
}

/**
 * What client.ts imports from the runtime for the error types of `ops`
 * (`ApiError` and the status types they name) and, when it holds the
 * client's code itself (`code`: a module with JSON-RPC too), for the guards
 * and the root's advice.
 */
export function errorRuntimeImports(ir: { names: { advice?: string } }, ops: readonly IrHttpOperation[], ctx: TypeContext, code: boolean): RuntimeName[] {
  const types = new Set<string>();
  for (const op of ops) {
    types.add("ApiError");
    for (const m of members(op, ctx)) for (const n of m.status.match(/\b[A-Z]\w+/g) ?? []) types.add(n);
  }
  return [...(code && ops.length > 0 ? ["isOperationError"] : []), ...[...types].sort(), ...(code && ir.names.advice ? ["ErrorAdvice"] : [])].map((name) => (name === "isOperationError" ? name : { name, isTypeOnly: true }));
}

/** The error types of client.ts, one per operation that declares error responses. */
export function errorTypeStatements(ops: readonly IrHttpOperation[], ctx: TypeContext): WriterFunction[] {
  return ops.map((op) => (w: TextWriter) => {
    const list = members(op, ctx);
    const others = errorResponses(op).some((r) => r.status === "default") ? "Its `default` response covers the statuses it does not list." : "A status it does not declare is a plain `ApiError`, which the guard does not take.";
    writeDocs(w, `What \`${member(op)}\` throws for the error responses its spec declares: an \`ApiError\` whose \`body\` has the type of the response of its \`statusCode\`. Narrow a caught value with {@link ${identifier(op.names.errorGuard!)}}, then by \`statusCode\`. ${others}`);
    const writeMember = (m: Member) => {
      w.write("ApiError<");
      printType(w, m.body);
      w.write(`, ${m.status}>`);
    };
    w.write(`export type ${identifier(op.names.error!)} =`);
    for (const m of list) {
      // one member on the line, several one per line
      if (list.length === 1) w.write(" ");
      else w.newLine().write("  | ");
      writeMember(m);
    }
    w.write(";").newLine();
  });
}

/** The guard's `isOperationError` arguments after the error: the operation's id and its statuses (none: `default` covers them all). */
function guardArguments(op: IrHttpOperation): string {
  const responses = errorResponses(op);
  const id = stringLiteral(op.id || op.names.method);
  if (responses.some((r) => r.status === "default")) return id;
  const statuses = responses.map((r) => (/^\d+$/.test(r.status) ? r.status : stringLiteral(r.status.toUpperCase())));
  return `${id}, [${statuses.join(", ")}]`;
}

const guardDocs = (op: IrHttpOperation) => `Whether \`error\` is what \`${member(op)}\` throws for an error response its spec declares ({@link ${identifier(op.names.error!)}}).`;

/** The guards as JavaScript (functions.js). */
export function writeGuardsJs(w: TextWriter, ops: readonly IrHttpOperation[]): void {
  for (const op of ops) {
    w.blankLine();
    w.write(`export function ${identifier(op.names.errorGuard!)}(error) `).inlineBlock(() => w.writeLine(`return isOperationError(error, ${guardArguments(op)});`));
  }
}

/** The guards' declarations (functions.d.ts), their types reached through client.ts's namespace `C`. */
export function writeGuardsDts(w: TextWriter, ops: readonly IrHttpOperation[]): void {
  for (const op of ops) {
    w.blankLine();
    writeDocs(w, guardDocs(op));
    w.writeLine(`export declare function ${identifier(op.names.errorGuard!)}(error: unknown): error is C.${identifier(op.names.error!)};`);
  }
}

/** The guards in TypeScript (client.ts of a module with JSON-RPC methods too). */
export function guardStatements(ops: readonly IrHttpOperation[]): WriterFunction[] {
  return ops.map((op) => (w: TextWriter) => {
    writeDocs(w, guardDocs(op));
    w.write(`export function ${identifier(op.names.errorGuard!)}(error: unknown): error is ${identifier(op.names.error!)} `).inlineBlock(() => w.writeLine(`return isOperationError(error, ${guardArguments(op)});`));
  });
}

/** `@throws` of an HTTP method's doc comment. */
export function httpThrowsDocs(op: IrHttpOperation): string | undefined {
  return op.names.error ? `@throws {@link ${identifier(op.names.error)}} for the error responses the spec declares (narrow with {@link ${identifier(op.names.errorGuard!)}})` : undefined;
}

/**
 * The union's members, in the spec's order: explicit codes with the same
 * body share a member (`ApiError<T.ErrorBody, 400 | 404>`); a range is its
 * statuses less the codes declared beside it; `default` every status no
 * other response (or result) declares.
 */
function members(op: IrHttpOperation, ctx: TypeContext): Member[] {
  const responses = errorResponses(op);
  const codes = responses.filter((r) => /^\d+$/.test(r.status)).map((r) => r.status);
  const ranges = responses.filter((r) => /^\dXX$/i.test(r.status)).map((r) => r.status.charAt(0));
  const out: (Member & { key: string })[] = [];
  for (const r of responses) {
    const body = bodyType(r, ctx);
    const key = JSON.stringify(body);
    if (/^\d+$/.test(r.status)) {
      const same = out.find((m) => m.key === key && /^\d+( \| \d+)*$/.test(m.status));
      if (same) same.status += ` | ${r.status}`;
      else out.push({ key, body, status: r.status });
      continue;
    }
    if (r.status === "default") {
      const declared = [...codes, ...returnedStatuses(op).map(String), ...ranges.map((d) => RANGES[d]!)];
      out.push({ key, body, status: declared.length > 0 ? `OtherStatus<${declared.join(" | ")}>` : "ErrorStatus" });
      continue;
    }
    const digit = r.status.charAt(0);
    const inRange = codes.filter((c) => c.charAt(0) === digit);
    out.push({ key, body, status: inRange.length > 0 ? `OtherStatus<${inRange.join(" | ")}, ${RANGES[digit]}>` : RANGES[digit]! });
  }
  return out.map(({ body, status }) => ({ body, status }));
}

/** A response's body as the runtime parses it: its JSON schema's type; `unknown` for another media type or none (JSON is still parsed when it arrives). */
function bodyType(r: IrResponse, ctx: TypeContext): TypeNode {
  const json = r.content.find((c) => /json/i.test(c.contentType));
  return json ? toTypeNode(json.schema, ctx) : { k: "raw", text: "unknown" };
}

/** The doc comment of the exported root advice (`shopErrorAdvice`). */
export const ADVICE_DOCS = "What error messages advise by status (`x-avaspec-advice` at the spec's root). The client objects use it; the functional form and descriptor calls take it as the `errorAdvice` option (so that bundles which do not want its texts do not carry them).";
