/** EIP-1193 providers: a viem-style `RpcSchema` type per provider and the descriptors it serves. */
import type { IrEip1193Provider, IrRpcOperation } from "../../ir/types.js";
import { isIdentifier } from "../../ir/naming.js";
import { comment, identifier, stringLiteral } from "../escape.js";
import { writeDocs } from "../types/type-node.js";
import { resultType, type ClientContext, type ProviderNames } from "./context.js";

export type { ProviderNames };

/** Writes each provider's schema type and method list; returns their names by group path. */
export function emitProviders(c: ClientContext): Map<string, ProviderNames> {
  const providers = new Map<string, ProviderNames>();
  for (const provider of c.ir.providers ?? []) {
    const ops = c.ir.operations.filter((op): op is IrRpcOperation => op.protocol === "json-rpc" && op.file === provider.file);
    if (ops.length === 0) continue;
    const names = providerNames(provider);
    providers.set(provider.group.join("."), names);
    c.out.statements.push((w) => {
      writeDocs(w, `The JSON-RPC methods of \`${comment([...provider.group, "provider"].join("."))}\` in viem's \`RpcSchema\` shape (wire name, positional params, result), from ${comment(provider.file)}: \`createPublicClient({ transport: custom(provider), rpcSchema: rpcSchema<${names.schema}>() })\` types \`client.request\`.`);
      w.write(`export type ${names.schema} = readonly [`).newLine();
      w.indent(() => {
        for (const op of ops) {
          w.writeLine(`{ Method: ${stringLiteral(op.transport.method)}; ${schemaParameters(op)}; ReturnType: ${resultType(c, op)} },`);
        }
      });
      w.write("];").newLine().newLine();
      writeDocs(w, `Descriptors of the methods \`${comment([...provider.group, "provider"].join("."))}\` serves (the third argument of \`createEip1193Provider\`).`);
      w.write(`export const ${names.methods}: readonly RpcMethod[] = [`).newLine();
      w.indent(() => {
        for (const op of ops) w.writeLine(`${identifier(op.names.descriptor)},`);
      });
      w.write("];").newLine();
    });
  }
  return providers;
}


/** The names the naming pass gave the provider (`CChainRpcSchema`, `cChainProviderMethods`). */
export function providerNames(provider: IrEip1193Provider): ProviderNames {
  if (!provider.names) throw new Error("internal: the naming pass names every provider");
  return { schema: identifier(provider.names.schema), methods: identifier(provider.names.methods), endpoint: provider.endpoint };
}

/**
 * `Parameters` of a method in the RpcSchema: the positional tuple the wire
 * carries (an optional element only where every later one is optional too),
 * `[filter]` for one-object, the params object for by-name; optional and
 * `undefined` without params.
 */
function schemaParameters(op: IrRpcOperation): string {
  const params = identifier(op.names.params);
  if (op.params.length === 0) return "Parameters?: undefined";
  const optional = !op.params.some((p) => p.required);
  if (op.transport.form === "by-name") return `Parameters${optional ? "?" : ""}: ${params}`;
  if (op.transport.form === "one-object") {
    const label = isIdentifier(op.params[0]!.name) ? `${op.params[0]!.name}: ` : "";
    return `Parameters: [${label}${params}]`;
  }
  const labelled = op.params.every((p) => isIdentifier(p.name));
  let lastRequired = -1;
  op.params.forEach((p, i) => {
    if (p.required) lastRequired = i;
  });
  const elements = op.params.map((p, i) => {
    const type = `${params}[${stringLiteral(p.name)}]`;
    if (i > lastRequired) return `${labelled ? `${p.name}?: ` : ""}${type}${labelled ? "" : "?"}`;
    return `${labelled ? `${p.name}: ` : ""}${p.required ? type : `Exclude<${type}, undefined> | null`}`;
  });
  return `Parameters${optional ? "?" : ""}: [${elements.join(", ")}]`;
}