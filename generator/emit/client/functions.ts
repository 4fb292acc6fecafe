/**
 * The tree-shakable form of a client: the state its functions share, the
 * factory of that state, and one exported function per operation.
 */
import type { WriterFunction } from "../../writer.js";
import type { IrDocument, IrOperation, IrPaging } from "../../ir/types.js";
import { endpointGroupOf } from "../../ir/endpoints.js";
import { comment, identifier, literal, propertyKey, stringLiteral } from "../escape.js";
import { toTypeNode, typeText, writeDocs, type TypeContext } from "../types/type-node.js";
import { methodDocs } from "./docs.js";
import { endpointTypeName } from "./endpoint-groups.js";
import type { Paging } from "./groups.js";
import { nextPageDoc } from "./paging.js";

export interface FunctionContext {
  hasHttp: boolean;
  hasRpc: boolean;
  numbered: boolean;
  defaultNumbers: "bigint" | "string";
  /** Operations whose results hold string-encoded integers (typed by the number policy). */
  decodes: ReadonlySet<IrOperation>;
  decoded: (op: IrOperation, type: string) => string;
  resultType: (op: IrOperation) => string;
  ctx: TypeContext;
  paging: Paging;
}

/**
 * The tree-shakable form: the state the functions share (`XCore`), its
 * factory, and one exported function per operation in viem's style,
 * `getChainInfo(core, params, options)`, typed by the core's `numbers`.
 * Nothing links the functions to each other, so a bundle keeps only the
 * ones it calls (and their descriptors).
 */
export function emitFunctions(ir: IrDocument, f: FunctionContext): WriterFunction[] {
  const out: WriterFunction[] = [];
  const core = identifier(ir.names.core);
  out.push((w) => {
    writeDocs(w, coreDocs(ir, f.hasRpc));
    w.write(`export interface ${core}<N extends Numbers = Numbers> `).inlineBlock(() => {
      w.writeLine("/** How integers the spec sends as strings come back: the result types follow it. */");
      w.writeLine("readonly numbers: N;");
      w.writeLine(`readonly options: ${identifier(ir.names.options)} & { results?: ResultChecks };`);
      if (f.hasRpc) w.writeLine("readonly rpc: RpcTransport;");
      if (f.hasHttp) {
        w.writeLine("/** The settled HTTP options, made by the first HTTP call (so a bundle without one does not hold the code). */");
        w.writeLine("http?: HttpConfig;");
      }
    });
    w.newLine();
    writeDocs(w, coreFactoryDocs(ir, f.defaultNumbers));
    const base = identifier(ir.names.defaultBaseUrl);
    w.write(`export function ${identifier(ir.names.coreFactory)}<N extends Numbers = ${stringLiteral(f.defaultNumbers)}>(options: ${identifier(ir.names.options)} & { numbers?: N; results?: ResultChecks } = {}): ${core}<N> `).inlineBlock(() => {
      w.writeLine(`const numbers = (options.numbers ?? ${stringLiteral(f.defaultNumbers)}) as N;`);
      // an HTTP module settles its options now, so that a bad option fails here; a mixed one on its first HTTP call
      if (f.hasHttp && !f.hasRpc) w.writeLine(`return { numbers, options, http: resolveHttpConfig(options, ${base}, options.results, numbers) };`);
      else if (f.hasRpc) w.writeLine(`return { numbers, options, rpc: createRpcTransport(options, ${base}, options.results, numbers) };`);
      // a document without operations (webhooks only): a core with nothing to call
      else w.writeLine("return { numbers, options };");
    });
    if (f.hasHttp && f.hasRpc) {
      w.newLine();
      w.writeLine(`function httpOf(client: ${core}): HttpConfig {`);
      w.writeLine(`  return (client.http ??= resolveHttpConfig(client.options, ${base}, client.options.results, client.numbers));`);
      w.writeLine("}");
    }
  });
  for (const op of ir.operations) {
    const optional = op.protocol === "http" ? !op.parameters.some((p) => p.required) && !op.requestBody?.required : !op.params.some((p) => p.required);
    const params = identifier(op.names.params);
    const name = identifier(op.names.function);
    const decodes = f.decodes.has(op);
    const generic = decodes ? "<N extends Numbers>" : "";
    // a method of an endpoint with path variables: the core carries their values (withEndpoint)
    const endpoint = endpointGroupOf(ir, op.group);
    const coreType = `${decodes ? `${core}<N>` : core}${endpoint ? ` & { readonly endpoint: ${endpointTypeName(endpoint)} }` : ""}`;
    const rpcCall = endpoint ? "endpointCall(client.rpc.call, client.endpoint)" : "client.rpc.call";
    const call = op.protocol === "http" ? `callHttp(${f.hasRpc ? "httpOf(client)" : "client.http!"}, ${identifier(op.names.descriptor)}, params, options)` : `${rpcCall}(${identifier(op.names.descriptor)}, params, options)`;
    const paged = f.paging.get(op);
    const docs = functionDocs(ir, op, paged);
    out.push((w) => {
      const byParam = op.protocol === "json-rpc" ? op.resultByParam : undefined;
      for (const v of byParam?.variants ?? []) {
        writeDocs(w, docs);
        w.writeLine(`export function ${name}${generic}(client: ${coreType}, params: ${params} & { ${propertyKey(byParam!.param)}: ${literal(v.value)} }, options?: CallOptions): Promise<${f.decoded(op, typeText(toTypeNode(v.schema, f.ctx)))}>;`);
      }
      if (byParam) {
        writeDocs(w, docs);
        w.writeLine(`export function ${name}${generic}(client: ${coreType}, params${optional ? "?" : ""}: ${params}, options?: CallOptions): Promise<${f.decoded(op, f.resultType(op))}>;`);
      } else writeDocs(w, docs);
      const result = f.decoded(op, f.resultType(op));
      w.write(`export function ${name}${generic}(client: ${coreType}, params${optional ? "?" : ""}: ${params}, options?: CallOptions): Promise<${result}> `).inlineBlock(() => {
        w.writeLine(`return ${call}${decodes ? ` as Promise<${result}>` : ""};`);
      });
    });
  }
  return out;
}

/** The doc comment of `XCore`. */
export function coreDocs(ir: IrDocument, hasRpc: boolean): string {
  return `What the functions of ${comment(ir.info.title)} share, made by {@link ${identifier(ir.names.coreFactory)}}: the settled options${hasRpc ? " and the JSON-RPC transport (its batching included)" : ""}. Each operation is also a function of its own (\`${identifier(ir.operations[0]?.names.function ?? "operation")}(core, params)\`), so a bundle holds only the operations it calls.\n\n@typeParam N - How integers the spec sends as strings come back (the \`numbers\` option).`;
}

/** The doc comment of `createXCore`. */
export function coreFactoryDocs(ir: IrDocument, defaultNumbers: string): string {
  return `Creates the state of ${comment(ir.info.title)}'s functions, for the tree-shakable form: \`${identifier(ir.operations[0]?.names.function ?? "operation")}(core, params)\` instead of \`client.${ir.operations[0] ? [...ir.operations[0].group, ir.operations[0].names.method].join(".") : "operation"}(params)\`. Same options as {@link ${identifier(ir.names.factory)}}; \`validateResponse\` needs \`results\` (\`${comment(ir.names.results)}\`), which the client factory passes itself. Integers the spec sends as strings come back as \`${defaultNumbers}\`s unless \`numbers\` says otherwise.`;
}

/** The doc comment of an operation's function. */
export function functionDocs(ir: IrDocument, op: IrOperation, paged: IrPaging | undefined): string {
  return `${methodDocs(op)}${paged ? `\n\n${nextPageDoc(paged)} (the client object's \`.pages()\` and \`.iterate()\` walk them all).` : ""}\n\nThe tree-shakable form of \`${comment([...op.group, op.names.method].join("."))}\`: \`client\` is a {@link ${identifier(ir.names.core)}}.`;
}
