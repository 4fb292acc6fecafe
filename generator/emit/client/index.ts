/**
 * Target `client`: for each operation a params type, a result type and a
 * descriptor (plain data for the runtime); then the client interface — nested
 * by group — and its factory, and the tree-shakable functions. Generated code
 * is wiring; behaviour is in runtime/. This file puts the pieces in order:
 * `descriptors.ts` (per operation), `rpc-errors.ts`, `providers.ts`,
 * `sockets.ts`, `interface.ts`, `factory.ts`, `functions.ts`.
 */
import type { StatementStructures } from "ts-morph";
import { Kind } from "../../structure-kind.js";
import type { WriterFunction } from "../../writer.js";
import type { IrDocument, IrOperation } from "../../ir/types.js";
import { comment, identifier } from "../escape.js";
import { constValue, typeAlias } from "../statements.js";
import { apiKeyOptions } from "./api-keys.js";
import { endpointMemberDocs, endpointTypes } from "./endpoint-groups.js";
import { groupTree, type Paging } from "./groups.js";
import type { ValidatorModule } from "../validators/index.js";
import { resultChecksStatement } from "./results.js";
import type { OperationsModule } from "./operations.js";
import { runtimeImports as runtimeImportDeclarations } from "../runtime-files.js";
import { schemaTypeContext } from "../types/type-node.js";
import { resultKind, withNumbers, type NumberedKind } from "../types/numbered.js";
import { TYPES_NS, type ClientContext, type Emitted } from "./context.js";
import { emitOperations } from "./descriptors.js";
import { standardErrors } from "./docs.js";
import { emitRpcErrors } from "./rpc-errors.js";
import { emitProviders } from "./providers.js";
import { emitSockets } from "./sockets.js";
import { writeClientInterface } from "./interface.js";
import { factoryDocs, writeClientFactory } from "./factory.js";
import { functionsAsJs, type FunctionsModule } from "./functions-js.js";
import { writeFactoryObject } from "./groups.js";
import { rangedOperations } from "./ranges.js";
import { resultType } from "./context.js";
import { emitFunctions } from "./functions.js";
import { callsHttp, isStreamed, streamImports } from "./streams.js";
import { sharedMethods } from "./shared-methods.js";
import { emitServiceLimits } from "./limits.js";
import { ADVICE_DOCS, erroringOperations, errorRuntimeImports, errorTypeStatements, guardStatements } from "./http-errors.js";

export { providerNames, type ProviderNames } from "./providers.js";

/** client.ts; the HTTP operations' descriptors go to `operations` (operations.js and its declarations). */
export function emitClient(ir: IrDocument, validators: Pick<ValidatorModule, "checks" | "walkers" | "subscriptionCodecs" | "subscriptionChecks" | "hasNumbers" | "jsonIntegers">, operations: OperationsModule, functions: FunctionsModule): (StatementStructures | WriterFunction)[] {
  const c = clientContext(ir, validators);
  // an HTTP module's code goes to functions.js (emit/client/functions-js.ts); client.ts keeps its types
  const asJs = functionsAsJs(ir);
  const { out, hasHttp, hasRpc, sockets } = c;
  // declared JSON-RPC errors first: the descriptors below refer to their classes
  const errorBases = emitRpcErrors(ir, c.ctx, out);
  const { used, results, watches, shapes } = emitOperations(c, validators, operations);
  const providers = (c.providers = emitProviders(c));
  emitSockets(c, validators, used, results);
  // functions.js imports the result checks; client.ts then names no check
  if (asJs) used.clear();

  // result checks (and subscription payload checks) live apart from the descriptors: a bundle that does not validate
  // responses drops them; after every descriptor they name
  if (!asJs) out.statements.push(resultChecksStatement(ir.names, results, hasHttp, sockets.some((k) => (k.subscriptions?.kinds.length ?? 0) > 0)));

  const optionsBase = hasRpc ? "RpcClientOptions" : "HttpClientOptions";
  const optionsDocs = `Options of {@link ${identifier(ir.names.factory)}}.`;
  out.statements.push(
    apiKeyOptions(ir, ir.names.options, optionsDocs, optionsBase) ??
      typeAlias(ir.names.options, optionsDocs, { k: "raw", text: sockets.length > 0 ? `${optionsBase} & {\n  /** The WebSocket transport of ${sockets.map((w) => "`" + comment([...w.group, "ws"].join(".")) + "`").join(", ")}: its URL, WebSocket constructor, keep-alive, reconnect and buffer. */\n  webSocket?: WebSocketOptions;\n}` : optionsBase }),
  );

  // what the groups that are functions of their endpoint's path variables take
  out.statements.push(...endpointTypes(ir));

  const tree = groupTree(ir.operations, ir.endpointGroups, (g) => endpointMemberDocs(ir, g));
  out.statements.push(writeClientInterface(c, tree, validators.subscriptionCodecs, sharedMethods(c, tree, shapes)));
  // what the HTTP operations throw for their declared error responses (http-errors.ts)
  const erroring = erroringOperations(ir.operations);
  out.statements.push(...errorTypeStatements(erroring, c.ctx));
  if (asJs) {
    functions.set({ ir, results, factoryDocs: factoryDocs(c), numbered: c.numbered, decodes: c.decodes, resultKinds: c.resultKinds, resultType: (op) => resultType(c, op), paging: c.paging, ranged: c.ranged, writeClientObject: (w) => writeFactoryObject(w, tree, c, [], identifier(ir.names.client), () => {}) });
  } else {
    out.statements.push(constValue(ir.names.defaultBaseUrl, "Base URL used when no `baseUrl` option is given.", undefined, ir.defaultBaseUrl));
    if (ir.names.advice) out.statements.push(constValue(ir.names.advice, ADVICE_DOCS, "ErrorAdvice", ir.advice));
    out.statements.push(writeClientFactory(c, tree));
    emitFunctions(c);
    out.statements.push(...guardStatements(erroring));
  }

  const limitsImports = emitServiceLimits(ir, asJs, out, operations);
  const { numbered } = c;
  const anyPaged = c.paging.size > 0;
  const rangedRpc = [...c.ranged.keys()].some((op) => op.protocol === "json-rpc");
  const rangedHttp = [...c.ranged.keys()].some((op) => op.protocol === "http");
  // list operations that are not ranged: `paged` and its type
  const plainPaged = [...c.paging.keys()].some((op) => !c.ranged.has(op));
  // HTTP operations that do not page are HttpMethods (a call and its withResponse)
  const httpMethods = ir.operations.some((op) => op.protocol === "http" && !c.paging.has(op) && !isStreamed(op));
  const runtimeImports = [
    ...(hasHttp && !asJs ? [...(callsHttp(ir) ? ["callHttp"] : []), ...(httpMethods ? ["httpMethod"] : []), "resolveHttpConfig"] : []),
    ...streamImports(ir, asJs),
    ...errorRuntimeImports(ir, erroring, c.ctx, !asJs),
    ...(httpMethods ? [{ name: "HttpMethod", isTypeOnly: true }] : []),
    ...(hasRpc ? ["createRpcTransport"] : []),
    ...(sockets.length > 0 ? ["createWsTransport", { name: "Subscription", isTypeOnly: true }, { name: "SubscriptionKind", isTypeOnly: true }, { name: "SubscriptionParams", isTypeOnly: true }, { name: "SubscribeOptions", isTypeOnly: true }, { name: "WebSocketOptions", isTypeOnly: true }, { name: "WsPath", isTypeOnly: true }] : []),
    ...(providers.size > 0 ? ["createEip1193Provider"] : []),
    ...(watches.any ? ["valueNotices", { name: "DeprecatedValue", isTypeOnly: true }] : []),
    ...((ir.endpointGroups ?? []).length > 0 ? ["endpointCall"] : []),
    ...[...errorBases].sort(),
    ...(plainPaged && !asJs ? ["paged"] : []),
    ...(rangedHttp && !asJs ? ["rangedPaged"] : []),
    ...(rangedRpc ? ["rangedCall", { name: "RangedMethod", isTypeOnly: true }] : []),
    ...(rangedHttp ? [{ name: "RangedPagedMethod", isTypeOnly: true }] : []),
    ...(asJs ? [] : ["resultChecks"]),
    ...limitsImports,
    { name: "CallOptions", isTypeOnly: true },
    ...(results.length > 0 && !asJs ? [{ name: "Check", isTypeOnly: true }] : []),
    ...(asJs ? [] : [{ name: "ResultChecks", isTypeOnly: true }]),
    ...(plainPaged ? [{ name: "PagedMethod", isTypeOnly: true }] : []),
    ...(providers.size > 0 ? [{ name: "Eip1193Provider", isTypeOnly: true }] : []),
    ...(hasRpc ? [{ name: "BatchResults", isTypeOnly: true }, { name: "RpcCall", isTypeOnly: true }, { name: "RpcClientOptions", isTypeOnly: true }, { name: "RpcMethod", isTypeOnly: true }] : [{ name: "HttpClientOptions", isTypeOnly: true }]),
    ...(numbered || !asJs ? [{ name: "Numbers", isTypeOnly: true }] : []),
    ...(hasHttp && !asJs ? [{ name: "HttpConfig", isTypeOnly: true }] : []),
    ...(hasRpc ? [{ name: "RpcTransport", isTypeOnly: true }] : []),
    ...(out.usesEncodable ? [{ name: "Encodable", isTypeOnly: true }] : []),
    ...[...out.markers].sort().map((name) => ({ name, isTypeOnly: true })),
  ];
  const imports: (StatementStructures | WriterFunction)[] = runtimeImportDeclarations(runtimeImports);
  if (out.usesTypes) imports.push({ kind: Kind.ImportDeclaration, isTypeOnly: true, namespaceImport: TYPES_NS, moduleSpecifier: "./types.js" });
  // what the HTTP descriptors name is imported by operations.js; client.ts names only the checks of its own statements (the result pairs, JSON-RPC descriptors)
  if (used.size > 0) imports.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "./validators.js", namedImports: [...used].sort() });
  if (operations.descriptors.length > 0) {
    if (!asJs) imports.push({ kind: Kind.ImportDeclaration, moduleSpecifier: "./operations.js", namedImports: operations.names });
    imports.push({ kind: Kind.ExportDeclaration, moduleSpecifier: "./operations.js", namedExports: operations.names });
  }
  if (functions.any) imports.push({ kind: Kind.ExportDeclaration, moduleSpecifier: "./functions.js", namedExports: functions.exportNames() });
  return [...imports, ...out.statements];
}
/**
 * How each result type follows the number policy: a named type by its kind
 * (types/numbered.ts), the client's own result alias as generic when its
 * type names the policy. Only operations whose results the runtime decodes.
 */
function resultKinds(ir: IrDocument, decodes: ReadonlySet<IrOperation>): Map<IrOperation, NumberedKind> {
  const kinds = new Map<IrOperation, NumberedKind>();
  for (const op of decodes) {
    const kind = resultKind(ir, op);
    if (kind) kinds.set(op, kind);
  }
  return kinds;
}

/** The facts every piece of the client emitter asks. */
function clientContext(ir: IrDocument, validators: Pick<ValidatorModule, "walkers" | "jsonIntegers">): ClientContext {
  const out: Emitted = { statements: [], usesTypes: false, markers: new Set(), usesEncodable: false };
  const typeRef = (direction: "request" | "response") => schemaTypeContext(ir.schemas, direction, TYPES_NS, () => (out.usesTypes = true), (name) => out.markers.add(name));
  const paging: Paging = new Map();
  for (const op of ir.operations) if (op.protocol === "http" && op.paging) paging.set(op, op.paging);
  const ranged = rangedOperations(ir.operations, (op) => paging.has(op));
  const hasRpc = ir.operations.some((op) => op.protocol === "json-rpc");
  const decodes = new Set<IrOperation>(ir.operations.filter((op) => validators.walkers.get(op)?.result !== undefined));
  const ctx = typeRef("response");
  return {
    ir,
    out,
    ctx,
    requestCtx: typeRef("request"),
    policyCtx: withNumbers(ctx, ir.schemas),
    resultKinds: resultKinds(ir, decodes),
    schemaNames: new Set(ir.schemas.map((s) => s.name)),
    paging,
    ranged,
    hasHttp: ir.operations.some((op) => op.protocol === "http"),
    hasRpc,
    numbered: decodes.size > 0,
    defaultNumbers: hasRpc ? "bigint" : "string",
    decodes,
    jsonIntegers: validators.jsonIntegers,
    providers: new Map(),
    sockets: (ir.webSockets ?? []).filter((w) => ir.operations.some((op) => op.protocol === "json-rpc" && op.file === w.file)),
    standard: standardErrors(ir),
  };
}
