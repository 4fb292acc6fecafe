/**
 * functions.js and functions.d.ts: the code of an HTTP client module (its
 * base URL, result checks, client factory, core factory and one function per
 * operation) as JavaScript with declarations, like operations.js. In a
 * TypeScript module tsc checks every function body and contextually types the
 * factory's object literal against the client interface, member by member: on
 * Microsoft Graph beta (22,361 operations) the functions and the factory cost
 * it about 0.4 GB of its 1.3 GB. Declared, each costs tsc one signature,
 * resolved only where a caller uses it. client.ts re-exports them, so the
 * module's public names and types are what they were; what the code does is
 * tested by running it (the client tests against real servers).
 *
 * Modules with JSON-RPC keep this code in client.ts: their descriptors,
 * sockets and endpoint builders live there, and they are small.
 */
import type { Statement } from "../../print.js";
import type { TextWriter } from "../../writer.js";
import type { IrDocument, IrOperation } from "../../ir/types.js";
import { identifier, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { numberedName, type NumberedKind } from "../types/numbered.js";
import type { CodeRef } from "../value.js";
import { runtimeImports } from "../runtime-files.js";
import { Kind } from "../../structure-kind.js";
import { functionDocs } from "./docs.js";
import { coreDocs, coreFactoryDocs, pagedNote } from "./functions.js";
import type { Paging } from "./groups.js";
import type { Ranged } from "./ranges.js";
import { ADVICE_DOCS, erroringOperations, writeGuardsDts, writeGuardsJs } from "./http-errors.js";
import { writeValue } from "../value.js";
import { callsHttp, isStreamed } from "./streams.js";

/** Whether a module's client code goes to functions.js: HTTP operations only, none behind an endpoint of path variables. */
export function functionsAsJs(ir: { operations: readonly { protocol: string }[]; endpointGroups?: readonly unknown[] }): boolean {
  return ir.operations.length > 0 && ir.operations.every((op) => op.protocol === "http") && (ir.endpointGroups ?? []).length === 0;
}

export interface FunctionsInput {
  ir: IrDocument;
  /** [descriptor, result check] pairs, in descriptor order. */
  results: readonly [CodeRef, CodeRef][];
  factoryDocs: string;
  /** Whether any result holds string-encoded integers (the client types take `N`). */
  numbered: boolean;
  decodes: ReadonlySet<IrOperation>;
  /** How each result type follows the number policy (types/numbered.ts). */
  resultKinds: ReadonlyMap<IrOperation, NumberedKind>;
  /** An operation's result type as client.ts spells it: `T.X` or a name of client.ts. */
  resultType: (op: IrOperation) => string;
  paging: Paging;
  ranged: Ranged;
  /** Writes the client object the factory returns (no type annotations inside: it is JavaScript). */
  writeClientObject: (w: TextWriter) => void;
}

export class FunctionsModule {
  private input: FunctionsInput | undefined;

  set(input: FunctionsInput): void {
    this.input = input;
  }

  get any(): boolean {
    return this.input !== undefined;
  }

  /** What client.ts re-exports from functions.js. */
  exportNames(): (string | { name: string; isTypeOnly: boolean })[] {
    const { ir } = this.need();
    return [
      identifier(ir.names.defaultBaseUrl),
      identifier(ir.names.results),
      ...(ir.names.advice ? [identifier(ir.names.advice)] : []),
      identifier(ir.names.factory),
      { name: identifier(ir.names.core), isTypeOnly: true },
      identifier(ir.names.coreFactory),
      ...ir.operations.map((op) => identifier(op.names.function)),
      ...erroringOperations(ir.operations).map((op) => identifier(op.names.errorGuard!)),
    ];
  }

  js(): Statement[] {
    const { ir, results, paging, ranged, writeClientObject } = this.need();
    const base = identifier(ir.names.defaultBaseUrl);
    const resultsName = identifier(ir.names.results);
    const checks = [...new Set(results.map(([, check]) => check.name))].sort();
    const erroring = erroringOperations(ir.operations);
    const statements: Statement[] = [
      ...runtimeImports([...(callsHttp(ir) ? ["callHttp"] : []), ...(ir.operations.some((op) => !paging.has(op) && !isStreamed(op)) ? ["httpMethod"] : []), ...([...paging.keys()].some((op) => !ranged.has(op)) ? ["paged"] : []), ...(ranged.size > 0 ? ["rangedPaged"] : []), "resolveHttpConfig", "resultChecks", ...(ir.operations.some(isStreamed) ? ["streamHttp", "streamMethod"] : []), ...(erroring.length > 0 ? ["isOperationError"] : [])]),
      ...(checks.length > 0 ? [{ kind: Kind.ImportDeclaration, moduleSpecifier: "./validators.js", namedImports: checks } as const] : []),
      { kind: Kind.ImportDeclaration, moduleSpecifier: "./operations.js", namedImports: ir.operations.map((op) => identifier(op.names.descriptor)) },
    ];
    statements.push((w) => {
      w.writeLine(`export const ${base} = ${stringLiteral(ir.defaultBaseUrl)};`);
      w.blankLine();
      if (results.length === 0) w.writeLine(`export const ${resultsName} = /* @__PURE__ */ resultChecks([]);`);
      else {
        // listed by a function that resultChecks calls on first use: a bundle that never validates responses drops the checks
        w.writeLine(`export const ${resultsName} = /* @__PURE__ */ resultChecks(${identifier(ir.names.resultPairs)});`);
        w.blankLine();
        w.write(`function ${identifier(ir.names.resultPairs)}() `).inlineBlock(() => {
          w.write("return [").newLine();
          w.indent(() => {
            for (const [descriptor, check] of results) w.writeLine(`[${descriptor.name}, ${check.name}],`);
          });
          w.write("];").newLine();
        });
      }
      const advice = ir.names.advice && identifier(ir.names.advice);
      if (advice) {
        w.blankLine();
        w.write(`export const ${advice} = `);
        writeValue(w, ir.advice);
        w.write(";").newLine();
      }
      w.blankLine();
      w.write(`export function ${identifier(ir.names.factory)}(options = {}) `).inlineBlock(() => {
        w.writeLine(`const http = resolveHttpConfig(options, ${base}, ${resultsName}${advice ? `, "string", ${advice}` : ""});`);
        w.write("return ");
        writeClientObject(w);
        w.write(";").newLine();
      });
      w.blankLine();
      w.write(`export function ${identifier(ir.names.coreFactory)}(options = {}) `).inlineBlock(() => {
        w.writeLine(`const numbers = options.numbers ?? "string";`);
        // settled now, so that a bad option fails here rather than on the first call
        w.writeLine(`return { numbers, options, http: resolveHttpConfig(options, ${base}, options.results, numbers) };`);
      });
      for (const op of ir.operations) {
        w.blankLine();
        w.write(`export function ${identifier(op.names.function)}(client, params, options) `).inlineBlock(() => {
          w.writeLine(`return ${isStreamed(op) ? "streamHttp" : "callHttp"}(client.http, ${identifier(op.names.descriptor)}, params, options);`);
        });
      }
      writeGuardsJs(w, erroring);
    });
    return statements;
  }

  dts(): Statement[] {
    const { ir, factoryDocs, numbered, decodes, resultKinds, resultType, paging } = this.need();
    const core = identifier(ir.names.core);
    const options = `C.${identifier(ir.names.options)}`;
    const client = `C.${identifier(ir.names.client)}`;
    // client.ts's own names are reached through its namespace here
    const result = (op: IrOperation) => {
      const t = resultType(op);
      const type = t.startsWith("T.") ? t : `C.${identifier(t)}`;
      return numberedName(type, resultKinds.get(op));
    };
    const usesTypes = ir.operations.some((op) => resultType(op).startsWith("T."));
    const runtime = ["CallOptions", ...(ir.names.advice ? ["ErrorAdvice"] : []), "HttpConfig", ...(ir.operations.some(isStreamed) ? ["ItemStream"] : []), ...([...resultKinds.values()].includes("leaf") ? ["Numbered"] : []), "Numbers", "ResultChecks", ...(ir.operations.some(isStreamed) ? ["StreamOptions"] : [])];
    const statements: Statement[] = [
      ...runtimeImports(runtime.map((name) => ({ name, isTypeOnly: true }))),
      ...(usesTypes ? [{ kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: "T", moduleSpecifier: "./types.js" } as const] : []),
      { kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: "C", moduleSpecifier: "./client.js" },
    ];
    statements.push((w) => {
      writeDocs(w, "Base URL used when no `baseUrl` option is given.");
      w.writeLine(`export declare const ${identifier(ir.names.defaultBaseUrl)} = ${stringLiteral(ir.defaultBaseUrl)};`);
      w.blankLine();
      writeDocs(w, "Result checks by descriptor: what `validateResponse` checks 2XX bodies against (the third argument of `resolveHttpConfig` when descriptors are called directly).");
      w.writeLine(`export declare const ${identifier(ir.names.results)}: ResultChecks;`);
      if (ir.names.advice) {
        w.blankLine();
        writeDocs(w, ADVICE_DOCS);
        w.writeLine(`export declare const ${identifier(ir.names.advice)}: ErrorAdvice;`);
      }
      w.blankLine();
      writeDocs(w, factoryDocs);
      const signature = numbered ? `<N extends Numbers = "string">(options?: ${options} & { numbers?: N }): ${client}<N>` : `(options?: ${options}): ${client}`;
      w.writeLine(`export declare function ${identifier(ir.names.factory)}${signature};`);
      w.blankLine();
      writeDocs(w, coreDocs(ir, false));
      w.write(`export interface ${core}<N extends Numbers = Numbers> `).inlineBlock(() => {
        w.writeLine("/** How integers the spec sends as strings come back: the result types follow it. */");
        w.writeLine("readonly numbers: N;");
        w.writeLine(`readonly options: ${options} & { results?: ResultChecks };`);
        w.writeLine("/** The settled HTTP options, made by the first HTTP call (so a bundle without one does not hold the code). */");
        w.writeLine("http?: HttpConfig;");
      });
      w.newLine().blankLine();
      writeDocs(w, coreFactoryDocs(ir, "string"));
      w.writeLine(`export declare function ${identifier(ir.names.coreFactory)}<N extends Numbers = "string">(options?: ${options} & { numbers?: N; results?: ResultChecks }): ${core}<N>;`);
      for (const op of ir.operations) {
        const optional = op.protocol === "http" && !op.parameters.some((p) => p.required) && !op.requestBody?.required;
        const generic = decodes.has(op) ? "<N extends Numbers>" : "";
        w.blankLine();
        writeDocs(w, functionDocs(op, ir.names.client, core, pagedNote(paging.get(op))));
        const returns = isStreamed(op) ? `options?: StreamOptions<${result(op)}>): ItemStream<${result(op)}>` : `options?: CallOptions): Promise<${result(op)}>`;
        w.writeLine(`export declare function ${identifier(op.names.function)}${generic}(client: ${core}${generic ? "<N>" : ""}, params${optional ? "?" : ""}: C.${identifier(op.names.params)}, ${returns};`);
      }
      writeGuardsDts(w, erroringOperations(ir.operations));
    });
    return statements;
  }

  private need(): FunctionsInput {
    if (!this.input) throw new Error("internal: functions.js asked for before the client was emitted");
    return this.input;
  }
}
