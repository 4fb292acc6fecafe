/**
 * The tree-shakable form of the client: a core and one function per
 * operation. Each function's doc comment is its summary and a link to the
 * client method, where the description and errors are written.
 */
import { endpointGroupOf } from "../../ir/endpoints.js";
import { isStreamed } from "../../ir/streams.js";
import type { IrDocument, IrPaging } from "../../ir/types.js";
import { comment, identifier, literal, propertyKey, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { decoded, paramsOptional, policyType, resultType, type ClientContext } from "./context.js";
import { functionDocs } from "./docs.js";
import { endpointTypeName } from "./endpoint-groups.js";
import { nextPageDoc } from "./paging.js";

/**
 * The tree-shakable form: the state the functions share (`XCore`), its
 * factory, and one exported function per operation in viem's style,
 * `getChainInfo(core, params, options)`, typed by the core's `numbers`.
 * Nothing links the functions to each other, so a bundle keeps only the
 * ones it calls (and their descriptors).
 */
export function emitFunctions(c: ClientContext): void {
  const { ir, out } = c;
  const core = identifier(ir.names.core);
  out.statements.push((w) => {
    writeDocs(w, coreDocs(ir, c.hasRpc));
    w.write(`export interface ${core}<N extends Numbers = Numbers> `).inlineBlock(() => {
      w.writeLine("/** How integers the spec sends as strings come back: the result types follow it. */");
      w.writeLine("readonly numbers: N;");
      w.writeLine(`readonly options: ${identifier(ir.names.options)} & { results?: ResultChecks };`);
      if (c.hasRpc) w.writeLine("readonly rpc: RpcTransport;");
      if (c.hasHttp) {
        w.writeLine("/** The settled HTTP options, made by the first HTTP call (so a bundle without one does not hold the code). */");
        w.writeLine("http?: HttpConfig;");
      }
    });
    w.newLine();
    writeDocs(w, coreFactoryDocs(ir, c.defaultNumbers));
    const base = identifier(ir.names.defaultBaseUrl);
    w.write(`export function ${identifier(ir.names.coreFactory)}<N extends Numbers = ${stringLiteral(c.defaultNumbers)}>(options: ${identifier(ir.names.options)} & { numbers?: N; results?: ResultChecks } = {}): ${core}<N> `).inlineBlock(() => {
      w.writeLine(`const numbers = (options.numbers ?? ${stringLiteral(c.defaultNumbers)}) as N;`);
      // an HTTP module settles its options now, so that a bad option fails here; a mixed one on its first HTTP call
      if (c.hasHttp && !c.hasRpc) w.writeLine(`return { numbers, options, http: resolveHttpConfig(options, ${base}, options.results, numbers) };`);
      else if (c.hasRpc) w.writeLine(`return { numbers, options, rpc: createRpcTransport(options, ${base}, options.results, numbers) };`);
      // a document without operations (webhooks only): a core with nothing to call
      else w.writeLine("return { numbers, options };");
    });
    if (c.hasHttp && c.hasRpc) {
      w.newLine();
      w.writeLine(`function httpOf(client: ${core}): HttpConfig {`);
      w.writeLine(`  return (client.http ??= resolveHttpConfig(client.options, ${base}, client.options.results, client.numbers));`);
      w.writeLine("}");
    }
  });
  for (const op of ir.operations) {
    const optional = paramsOptional(op);
    const params = identifier(op.names.params);
    const name = identifier(op.names.function);
    const decodes = c.decodes.has(op);
    const generic = decodes ? "<N extends Numbers>" : "";
    // a method of an endpoint with path variables: the core carries their values (withEndpoint)
    const endpoint = endpointGroupOf(ir, op.group);
    const coreType = `${decodes ? `${core}<N>` : core}${endpoint ? ` & { readonly endpoint: ${endpointTypeName(endpoint)} }` : ""}`;
    const rpcCall = endpoint ? "endpointCall(client.rpc.call, client.endpoint)" : "client.rpc.call";
    const call = op.protocol === "http" ? `callHttp(${c.hasRpc ? "httpOf(client)" : "client.http!"}, ${identifier(op.names.descriptor)}, params, options)` : `${rpcCall}(${identifier(op.names.descriptor)}, params, options)`;
    const paged = c.paging.get(op);
    const docs = functionDocs(op, ir.names.client, core, pagedNote(paged));
    if (isStreamed(op)) {
      out.statements.push((w) => {
        const item = decoded(c, op, resultType(c, op));
        const http = c.hasRpc ? "httpOf(client)" : "client.http!";
        writeDocs(w, docs);
        // under a numbers policy the item's type follows N, which the descriptor's own type cannot say
        const args = `${http}, ${identifier(op.names.descriptor)}, params, options${decodes ? " as StreamOptions<never>" : ""}`;
        w.write(`export function ${name}${generic}(client: ${coreType}, params${optional ? "?" : ""}: ${params}, options?: StreamOptions<${item}>): ItemStream<${item}> `).inlineBlock(() => {
          w.writeLine(`return streamHttp(${args})${decodes ? ` as ItemStream<${item}>` : ""};`);
        });
      });
      continue;
    }
    out.statements.push((w) => {
      const byParam = op.protocol === "json-rpc" ? op.resultByParam : undefined;
      for (const v of byParam?.variants ?? []) {
        writeDocs(w, docs);
        w.writeLine(`export function ${name}${generic}(client: ${coreType}, params: ${params} & { ${propertyKey(byParam!.param)}: ${literal(v.value)} }, options?: CallOptions): Promise<${policyType(c, op, v.schema)}>;`);
      }
      if (byParam) {
        writeDocs(w, docs);
        w.writeLine(`export function ${name}${generic}(client: ${coreType}, params${optional ? "?" : ""}: ${params}, options?: CallOptions): Promise<${decoded(c, op, resultType(c, op))}>;`);
      } else writeDocs(w, docs);
      const result = decoded(c, op, resultType(c, op));
      w.write(`export function ${name}${generic}(client: ${coreType}, params${optional ? "?" : ""}: ${params}, options?: CallOptions): Promise<${result}> `).inlineBlock(() => {
        w.writeLine(`return ${call}${decodes ? ` as Promise<${result}>` : ""};`);
      });
    });
  }
}

/** The doc comment of `XCore`. */
export function coreDocs(ir: IrDocument, hasRpc: boolean): string {
  return `What the functions of ${comment(ir.info.title)} share, made by {@link ${identifier(ir.names.coreFactory)}}: the settled options${hasRpc ? " and the JSON-RPC transport (its batching included)" : ""}. Each operation is also a function of its own (\`${identifier(ir.operations[0]?.names.function ?? "operation")}(core, params)\`), so a bundle holds only the operations it calls.\n\n@typeParam N - How integers the spec sends as strings come back (the \`numbers\` option).`;
}

/** The doc comment of `createXCore`. */
export function coreFactoryDocs(ir: IrDocument, defaultNumbers: string): string {
  return `Creates the state of ${comment(ir.info.title)}'s functions, for the tree-shakable form: \`${identifier(ir.operations[0]?.names.function ?? "operation")}(core, params)\` instead of \`client.${ir.operations[0] ? [...ir.operations[0].group, ir.operations[0].names.method].join(".") : "operation"}(params)\`. Same options as {@link ${identifier(ir.names.factory)}}; \`validateResponse\` needs \`results\` (\`${comment(ir.names.results)}\`), which the client factory passes itself. Integers the spec sends as strings come back as \`${defaultNumbers}\`s unless \`numbers\` says otherwise.`;
}

/** What an operation's function says of its pages. */
export function pagedNote(paged: IrPaging | undefined): string | undefined {
  return paged ? `${nextPageDoc(paged)} (the client object's \`.pages()\` and \`.iterate()\` walk them all).` : undefined;
}
