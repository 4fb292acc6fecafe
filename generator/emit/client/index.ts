/**
 * Target `client`: for each operation a params type, a result type and a
 * descriptor (plain data for the runtime); then the client interface — nested
 * by group — and its factory. Generated code is wiring; behaviour is in runtime/.
 */
import { StructureKind, type StatementStructures } from "ts-morph";
import type { TextWriter, WriterFunction } from "../../writer.js";
import { rpcFields } from "../../ir/resolve.js";
import type { IrDocument, IrEip1193Provider, IrHttpOperation, IrOperation, IrPaging, IrParameter, IrRpcError, IrRpcOperation, IrRpcParam, IrSchema, IrWebSocket } from "../../ir/types.js";
import { isIdentifier } from "../../ir/naming.js";
import { pathOf } from "../../ir/module.js";
import { comment, identifier, literal, propertyKey, stringLiteral } from "../escape.js";
import { constValue, typeAlias } from "../statements.js";
import { httpDescriptor, httpResultType, httpTarget } from "./http-wire.js";
import { apiKeyOptions } from "./api-keys.js";
import { CodeCall, CodeRef, writeValue } from "../value.js";
import { DeprecatedValueWatches } from "./deprecated-values.js";
import { endpointMemberDocs, endpointTypes } from "./endpoint-groups.js";
import { groupTree, socketTree, writeEndpointBuilders, writeFactoryObject, writeGroup, type Paging } from "./groups.js";
import { itemType, pagingValue } from "./paging.js";
import type { ValidatorModule } from "../validators/index.js";
import { resultChecksStatement } from "./results.js";
import { emitFunctions } from "./functions.js";
import { functionsAsJs, type FunctionsModule } from "./functions-js.js";
import { errorSummary, methodDocs } from "./docs.js";
import type { OperationsModule } from "./operations.js";
import { jsDoc, printType, schemaTypeContext, toTypeNode, typeText, UNKNOWN, writeDocs, writeMember, type Member, type TypeContext, type TypeNode } from "../types/type-node.js";

/** The import name of the types module inside client.ts. */
const TYPES_NS = "T";

function docsOf(description: string | undefined, deprecated: boolean, schema: IrSchema): string | undefined {
  const own = [description ? comment(description) : undefined, deprecated ? "@deprecated" : undefined].filter(Boolean).join("\n");
  const fromSchema = jsDoc(schema, "");
  return [own, fromSchema].filter((x) => x).join("\n") || undefined;
}

interface Emitted {
  statements: (StatementStructures | WriterFunction)[];
  usesTypes: boolean;
  usesIntegerString: boolean;
  usesEncodable: boolean;
}

/** client.ts; the HTTP operations' descriptors go to `operations` (operations.js and its declarations). */
export function emitClient(ir: IrDocument, validators: Pick<ValidatorModule, "checks" | "walkers" | "subscriptionCodecs" | "subscriptionChecks">, operations: OperationsModule, functions: FunctionsModule): (StatementStructures | WriterFunction)[] {
  // an HTTP module's code goes to functions.js (emit/client/functions-js.ts); client.ts keeps its types
  const asJs = functionsAsJs(ir);
  const { checks, walkers, subscriptionCodecs, subscriptionChecks } = validators;
  const schemaNames = new Set(ir.schemas.map((s) => s.name));
  const byKey = new Map(ir.schemas.map((s) => [s.key, s]));
  const out: Emitted = { statements: [], usesTypes: false, usesIntegerString: false, usesEncodable: false };
  // results are response shapes, params request shapes (readOnly members out, writeOnly in)
  const typeRef = (direction: "request" | "response"): TypeContext => schemaTypeContext(ir.schemas, direction, TYPES_NS, () => (out.usesTypes = true), () => (out.usesIntegerString = true));
  const ctx = typeRef("response");
  const requestCtx = typeRef("request");
  // list operations, once: the interface and the factory both need them
  const paging: Paging = new Map();
  for (const op of ir.operations) if (op.protocol === "http" && op.paging) paging.set(op, op.paging);
  const anyPaged = paging.size > 0;
  const hasHttp = ir.operations.some((op) => op.protocol === "http");
  const hasRpc = ir.operations.some((op) => op.protocol === "json-rpc");
  const resultType = (op: IrOperation) => {
    if (schemaNames.has(op.names.response)) {
      out.usesTypes = true;
      return `${TYPES_NS}.${op.names.response}`;
    }
    return op.names.response;
  };

  // declared JSON-RPC errors first: the descriptors below refer to their classes
  const errorBases = emitRpcErrors(ir, ctx, out);

  const used = new Set<string>();
  // values the server no longer takes: their notices go before the first descriptor that names one
  const watches = new DeprecatedValueWatches(ir, (key) => byKey.get(key)?.schema);
  const noticesAt = out.statements.length;
  /** Runtime encoders the descriptors name (parameter styles, body encoders): imported by name. */
  const encoders = new Set<string>();
  const results: [CodeRef, CodeRef][] = [];
  for (const op of ir.operations) {
    const c = checks.get(op);
    // an operation without parameters needs no generated check: the runtime refuses params that are not an object
    const noParams = op.protocol === "http" ? op.parameters.length === 0 && !op.requestBody : op.params.length === 0;
    const check = c && !noParams ? new CodeRef(c.params) : undefined;
    // client.ts names the checks of its result pairs and JSON-RPC descriptors; operations.js those of the HTTP descriptors
    const named = op.protocol === "http" ? undefined : used;
    if (c && check) named?.add(c.params);
    if (c?.result) {
      if (!asJs) used.add(c.result);
      results.push([new CodeRef(identifier(op.names.descriptor)), new CodeRef(c.result)]);
    }
    const walk = walkers.get(op);
    if (walk) [walk.params, walk.result, walk.forms].forEach((n) => n && named?.add(n));
    const integers = { paramIntegers: walk?.params ? new CodeRef(walk.params) : undefined, resultIntegers: walk?.result ? new CodeRef(walk.result) : undefined, resultForms: walk?.forms ? new CodeRef(walk.forms) : undefined };
    const optional = op.protocol === "http" ? !op.parameters.some((p) => p.required) && !op.requestBody?.required : !op.params.some((p) => p.required);
    const types = `<${identifier(op.names.params)}${optional ? " | undefined" : ""}, ${resultType(op)}>`;
    const values = watches.watch(op);
    // operations.d.ts names client.ts's types through its namespace import
    const declared = `<C.${identifier(op.names.params)}${optional ? " | undefined" : ""}, ${schemaNames.has(op.names.response) ? `${TYPES_NS}.` : "C."}${identifier(op.names.response)}>`;
    if (op.protocol === "http") emitHttpOperation(ir, op, ctx, requestCtx, schemaNames, out, check, declared, encoders, integers, operations, values);
    else emitRpcOperation(op, ctx, requestCtx, schemaNames, byKey, out, check, types, integers, values);
  }
  out.statements.splice(noticesAt, 0, ...watches.statements());
  // the number policy: results that hold string-encoded integers are typed by the client's `numbers`
  const decodes = new Set(ir.operations.filter((op) => walkers.get(op)?.result !== undefined));
  const numbered = decodes.size > 0;
  const decoded = (op: IrOperation, type: string) => (decodes.has(op) ? `Decoded<${type}, N>` : type);
  const defaultNumbers = hasRpc ? "bigint" : "string";

  // EIP-1193 providers: a viem-style RpcSchema type and the descriptors each one serves
  const providers = new Map<string, ProviderNames>();
  for (const provider of ir.providers ?? []) {
    const ops = ir.operations.filter((op): op is IrRpcOperation => op.protocol === "json-rpc" && op.file === provider.file);
    if (ops.length === 0) continue;
    const names = providerNames(provider);
    providers.set(provider.group.join("."), names);
    out.statements.push((w) => {
      writeDocs(w, `The JSON-RPC methods of \`${comment([...provider.group, "provider"].join("."))}\` in viem's \`RpcSchema\` shape (wire name, positional params, result), from ${comment(provider.file)}: \`createPublicClient({ transport: custom(provider), rpcSchema: rpcSchema<${names.schema}>() })\` types \`client.request\`.`);
      w.write(`export type ${names.schema} = readonly [`).newLine();
      w.indent(() => {
        for (const op of ops) {
          w.writeLine(`{ Method: ${stringLiteral(op.transport.method)}; ${schemaParameters(op)}; ReturnType: ${resultType(op)} },`);
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

  // WebSocket forms of JSON-RPC endpoints: where each is, and the subscription kinds they serve
  const sockets = (ir.webSockets ?? []).filter((w) => ir.operations.some((op) => op.protocol === "json-rpc" && op.file === w.file));
  const descriptorOf = (file: string, method: string) => {
    const op = ir.operations.find((o) => o.protocol === "json-rpc" && o.file === file && o.transport.method === method);
    return op ? new CodeRef(identifier(op.names.descriptor)) : undefined;
  };
  if (sockets.length > 0) {
    const basePath = pathOf(ir.defaultBaseUrl);
    const table = Object.fromEntries(sockets.map((w) => [w.endpoint, basePath === "" || w.path.startsWith(`${basePath}/`) ? { path: w.path.slice(basePath.length) } : { path: w.path, fromOrigin: true }]));
    out.statements.push(constValue(ir.names.webSockets!, "Where each JSON-RPC endpoint's WebSocket form is (the spec's ws:/wss: servers): below the client's base URL, with http→ws and https→wss.", "Readonly<Record<string, WsPath>>", table));
    for (const w of sockets) {
      for (const k of w.subscriptions?.kinds ?? []) {
        const names = k.names!;
        const codecs = subscriptionCodecs.get(k);
        [codecs?.params, codecs?.result].forEach((n) => n && used.add(n));
        const payloadCheck = subscriptionChecks.get(k);
        if (payloadCheck) {
          used.add(payloadCheck);
          results.push([new CodeRef(identifier(names.descriptor)), new CodeRef(payloadCheck)]);
        }
        out.statements.push(typeAlias(names.payload, `What each \`${comment(k.kind)}\` notification carries (\`${comment(w.subscriptions!.subscribe)}\` over ${comment(w.path)}).${k.description ? `\n\n${comment(k.description)}` : ""}`, toTypeNode(k.result, ctx)));
        const members: Member[] = k.params.map((p) => ({ key: propertyKey(p.name), optional: !p.required, type: toTypeNode(p.schema, requestCtx), ...(p.description ? { docs: comment(p.description) } : {}) }));
        const paramsType = (w2: TextWriter) => {
          if (codecs?.params) w2.write("Encodable<");
          writeObjectType(w2, members);
          if (codecs?.params) w2.write(">");
        };
        if (codecs?.params) out.usesEncodable = true;
        const backfill = k.backfill?.by === "blocks" ? { by: "blocks", method: descriptorOf(w.file, k.backfill.method), extra: k.backfill.extra } : k.backfill?.by === "range" ? { by: "range", method: descriptorOf(w.file, k.backfill.method), head: descriptorOf(w.file, k.backfill.head), ...(k.backfill.block ? { block: descriptorOf(w.file, k.backfill.block), blockExtra: k.backfill.blockExtra ?? [] } : {}), filterParam: k.backfill.filter, key: k.backfill.key } : undefined;
        const descriptor = {
          kind: k.kind,
          endpoint: w.endpoint,
          subscribe: w.subscriptions!.subscribe,
          unsubscribe: w.subscriptions!.unsubscribe,
          notification: w.subscriptions!.notification,
          params: k.params.map((p) => p.name),
          resultIntegers: codecs?.result ? new CodeRef(codecs.result) : undefined,
          paramIntegers: codecs?.params ? new CodeRef(codecs.params) : undefined,
          backfill,
        };
        out.statements.push((w2) => {
          writeDocs(w2, `Subscription kind \`${comment(k.kind)}\` of \`${comment(w.subscriptions!.subscribe)}\` (WebSocket ${comment(w.path)})${k.backfill ? `; after a reconnect the gap is filled with \`${comment(k.backfill.method)}\`` : ""}.`);
          w2.write(`export const ${identifier(names.descriptor)}: SubscriptionKind<`);
          paramsType(w2);
          w2.write(`, ${identifier(names.payload)}> = `);
          writeValue(w2, descriptor);
          w2.write(";").newLine();
        });
      }
    }
  }

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

  // the client interface, nested by group
  const tree = groupTree(ir.operations, ir.endpointGroups, (g) => endpointMemberDocs(ir, g));
  const clientDocs = [comment(ir.info.title), ir.info.description ? comment(ir.info.description) : ""].filter(Boolean).join("\n\n");
  const writeMethod = (w: TextWriter, op: IrOperation) => {
    const optional = op.protocol === "http" ? !op.parameters.some((p) => p.required) && !op.requestBody?.required : !op.params.some((p) => p.required);
    writeDocs(w, methodDocs(op));
    const paged = paging.get(op);
    if (paged) {
      // a list operation: the call, plus .pages() and .iterate() over every page
      const result = resultType(op);
      w.writeLine(`readonly ${propertyKey(op.names.method)}: PagedMethod<${identifier(op.names.params)}${optional ? " | void" : ""}, ${decoded(op, result)}, ${decoded(op, itemType(result, paged))}>;`);
    } else {
      // a result typed by a param's value: one overload per value, then the general signature
      const byParam = op.protocol === "json-rpc" ? op.resultByParam : undefined;
      for (const v of byParam?.variants ?? []) {
        w.writeLine(`${propertyKey(op.names.method, "method")}(params: ${identifier(op.names.params)} & { ${propertyKey(byParam!.param)}: ${literal(v.value)} }, options?: CallOptions): Promise<${decoded(op, typeText(toTypeNode(v.schema, ctx)))}>;`);
        writeDocs(w, methodDocs(op));
      }
      w.writeLine(`${propertyKey(op.names.method, "method")}(params${optional ? "?" : ""}: ${identifier(op.names.params)}, options?: CallOptions): Promise<${decoded(op, resultType(op))}>;`);
    }
  };
  const socketAt = (path: string[]) => sockets.find((w) => w.group.join(".") === path.join("."));
  const N = numbered ? "N" : '"string"';
  out.statements.push((w) => {
    writeDocs(w, numbered ? `${clientDocs}\n\n@typeParam N - How integers the spec sends as strings come back (the \`numbers\` option): \`${defaultNumbers}\` unless the options say otherwise.` : clientDocs);
    w.write(`export interface ${identifier(ir.names.client)}${numbered ? `<N extends Numbers = ${stringLiteral(defaultNumbers)}>` : ""} `).inlineBlock(() => {
      writeGroup(w, tree, [], (path) => {
        const p = providers.get(path.join("."));
        if (p) {
          writeDocs(w, `EIP-1193 provider for these JSON-RPC methods over this client's transport (its retries, batching, timeouts and errors): \`custom(provider)\` in viem, \`new BrowserProvider(provider)\` in ethers. \`params\` is the positional array as on the wire; a method the document does not declare is sent as given. Over HTTP, \`on\` and \`removeListener\` never call their listeners.`);
          w.writeLine(`readonly provider: Eip1193Provider<${p.schema}>;`);
        }
        const socket = socketAt(path);
        if (socket) {
          writeDocs(w, `The same methods over the WebSocket endpoint ${comment(socket.path)} (one socket, opened on first use: calls and batches multiplexed by id), and its subscriptions: async iterators (or onData/onError) that survive reconnects (keep-alive, backoff with jitter, resubscription, the gap backfilled in order and deduplicated, reorgs reported). Options: \`webSocket\` (URL, a WebSocket constructor on Node 20, keep-alive, reconnect, buffer).`);
          w.write("readonly ws: ").inlineBlock(() => {
            writeGroup(w, socketTree(ir.operations, socket), [], () => undefined, (op) => writeMethod(w, op));
            w.write("readonly subscribe: ").inlineBlock(() => {
              for (const k of socket.subscriptions?.kinds ?? []) {
                const names = k.names!;
                const payload = subscriptionCodecs.get(k)?.result ? `Decoded<${identifier(names.payload)}, ${N}>` : identifier(names.payload);
                const paramsType = `SubscriptionParams<typeof ${identifier(names.descriptor)}>`;
                writeDocs(w, `\`${comment(socket.subscriptions!.subscribe)}\` kind \`${comment(k.kind)}\`${k.description ? `: ${comment(k.description)}` : ""}${k.backfill ? `\n\nAfter a reconnect, what was missed is fetched with \`${comment(k.backfill.method)}\` and delivered in order before new events, each event once.` : ""}`);
                if (k.params.length === 0) w.writeLine(`${propertyKey(names.method, "method")}(options?: SubscribeOptions<${payload}>): Subscription<${payload}>;`);
                else w.writeLine(`${propertyKey(names.method, "method")}(params${k.params.some((p) => p.required) ? "" : "?"}: ${paramsType}, options?: SubscribeOptions<${payload}>): Subscription<${payload}>;`);
              }
            });
            w.write(";").newLine();
            writeDocs(w, "Sends every call `build` makes as one batch message over the socket; results in call order.");
            w.writeLine(`batch<const R extends readonly Promise<unknown>[]>(build: (ws: Omit<${identifier(ir.names.client)}${numbered ? "<N>" : ""}${path.map((k) => `[${stringLiteral(k)}]`).join("")}["ws"], "subscribe" | "batch" | "close">) => R): Promise<BatchResults<R>>;`);
            writeDocs(w, "Closes the socket and ends every subscription (the next call opens a new one).");
            w.writeLine("close(): Promise<void>;");
          });
          w.write(";").newLine();
        }
      }, (op) => writeMethod(w, op));
      if (hasRpc) {
        writeDocs(w, "Sends every JSON-RPC call `build` makes in one batch (chunks of at most `batch.maxSize`, default 40).\nResults come back in call order; one failing call does not fail the others.");
        w.writeLine(`batch<const R extends readonly Promise<unknown>[]>(build: (client: Omit<${identifier(ir.names.client)}${numbered ? "<N>" : ""}, "batch">) => R): Promise<BatchResults<R>>;`);
      }
    });
    w.newLine();
  });

  if (!asJs) out.statements.push(constValue(ir.names.defaultBaseUrl, "Base URL used when no `baseUrl` option is given.", undefined, ir.defaultBaseUrl));

  const factoryDocs = `Creates a client for ${comment(ir.info.title)}: one method per operation.${numbered ? `\n\nIntegers the spec sends as strings come back as \`${defaultNumbers}\`${defaultNumbers === "bigint" ? "s" : "s, as on the wire"} unless \`numbers\` says otherwise; parameters take them as a bigint, a number or a string.` : ""}`;
  if (!asJs) out.statements.push((w) => {
    const client = identifier(ir.names.client);
    // the implementation is typed with the wire's strings; the runtime decodes as `numbers` says, and the result is typed by N
    const wire = numbered ? `${client}<"string">` : client;
    writeDocs(w, factoryDocs);
    const signature = numbered ? `<N extends Numbers = ${stringLiteral(defaultNumbers)}>(options: ${identifier(ir.names.options)} & { numbers?: N } = {}): ${client}<N>` : `(options: ${identifier(ir.names.options)} = {}): ${client}`;
    w.write(`export function ${identifier(ir.names.factory)}${signature} `).inlineBlock(() => {
      const base = identifier(ir.names.defaultBaseUrl);
      const results = identifier(ir.names.results);
      const numbersArg = numbered && defaultNumbers !== "string" ? `, ${stringLiteral(defaultNumbers)}` : "";
      if (hasHttp) w.writeLine(`const http = resolveHttpConfig(options, ${base}, ${results}${numbersArg});`);
      if (hasRpc) {
        w.writeLine(`const rpc = createRpcTransport(options, ${base}, ${results}${numbersArg});`);
        if (sockets.length > 0) {
          // one WebSocket transport for every ws form of the module; it connects on first use
          const probe = sockets.map((k) => k.subscriptions?.probe && descriptorOf(k.file, k.subscriptions.probe)).find((d) => d !== undefined);
          w.writeLine(`const ws = createWsTransport(options, ${base}, ${identifier(ir.names.webSockets!)}, ${probe ? probe.name : "undefined"}, ${results}${numbersArg || ', "string"'});`);
          for (const socket of sockets) {
            const member = [...socket.group, "ws"].map((k) => `[${stringLiteral(k)}]`).join("");
            const fn = `buildWs${sockets.indexOf(socket) || ""}`;
            w.write(`const ${fn} = (call: RpcCall): Omit<${wire}${member}, "subscribe" | "batch" | "close"> => (`);
            writeFactoryObject(w, socketTree(ir.operations, socket), paging, [...socket.group, "ws"], wire, () => undefined);
            w.write(");").newLine();
          }
        }
        const extra = (path: string[]) => {
          const p = providers.get(path.join("."));
          if (p) w.writeLine(`provider: createEip1193Provider<${p.schema}>(call, ${stringLiteral(p.endpoint)}, ${p.methods}),`);
          const socket = socketAt(path);
          if (socket) {
            const fn = `buildWs${sockets.indexOf(socket) || ""}`;
            w.write("ws: ").inlineBlock(() => {
              w.writeLine(`...${fn}(ws.call),`);
              w.write("subscribe: ").inlineBlock(() => {
                for (const k of socket.subscriptions?.kinds ?? []) {
                  const d = identifier(k.names!.descriptor);
                  if (k.params.length === 0) w.writeLine(`${propertyKey(k.names!.method, "value")}: (subscribeOptions) => ws.subscribe(${d}, {}, subscribeOptions),`);
                  else w.writeLine(`${propertyKey(k.names!.method, "value")}: (params, subscribeOptions) => ws.subscribe(${d}, params ?? {}, subscribeOptions),`);
                }
              });
              w.write(",").newLine();
              w.writeLine(`batch: (fn) => ws.batch((call) => fn(${fn}(call))),`);
              w.writeLine("close: () => ws.close(),");
            });
            w.write(",").newLine();
          }
        };
        writeEndpointBuilders(w, tree, [], (node, path) => {
          w.write(`const ${node.endpoint!.builder} = (call: RpcCall): ReturnType<${wire}${path.map((k) => `[${stringLiteral(k)}]`).join("")}> => (`);
          writeFactoryObject(w, node, paging, path, `ReturnType<${wire}${path.map((k) => `[${stringLiteral(k)}]`).join("")}>`, extra, path.length);
          w.write(");").newLine();
        });
        w.write(`const build = (call: RpcCall): Omit<${wire}, "batch"> => (`);
        writeFactoryObject(w, tree, paging, [], wire, extra);
        w.write(");").newLine();
        if (numbered) {
          w.writeLine(`const client: ${wire} = { ...build(rpc.call), batch: (fn) => rpc.batch((call) => fn(build(call))) };`);
          w.writeLine(`return client as unknown as ${client}<N>;`);
        } else w.writeLine(`return { ...build(rpc.call), batch: (fn) => rpc.batch((call) => fn(build(call))) };`);
      } else {
        w.write(numbered ? `const client: ${wire} = ` : "return ");
        writeFactoryObject(w, tree, paging, [], wire, () => {});
        w.write(";").newLine();
        if (numbered) w.writeLine(`return client as unknown as ${client}<N>;`);
      }
    });
  });

  if (asJs) functions.set({ ir, results, factoryDocs, numbered, decodes, resultType, paging, writeClientObject: (w) => writeFactoryObject(w, tree, paging, [], identifier(ir.names.client), () => {}) });
  else out.statements.push(...emitFunctions(ir, { hasHttp, hasRpc, numbered, defaultNumbers, decodes, decoded, resultType, ctx, paging }));

  const runtimeImports = [
    ...(hasHttp && !asJs ? ["callHttp", "resolveHttpConfig"] : []),
    ...(hasRpc ? ["createRpcTransport"] : []),
    ...(sockets.length > 0 ? ["createWsTransport", { name: "Subscription", isTypeOnly: true }, { name: "SubscriptionKind", isTypeOnly: true }, { name: "SubscriptionParams", isTypeOnly: true }, { name: "SubscribeOptions", isTypeOnly: true }, { name: "WebSocketOptions", isTypeOnly: true }, { name: "WsPath", isTypeOnly: true }] : []),
    ...(providers.size > 0 ? ["createEip1193Provider"] : []),
    ...(watches.any ? ["valueNotices", { name: "DeprecatedValue", isTypeOnly: true }] : []),
    ...((ir.endpointGroups ?? []).length > 0 ? ["endpointCall"] : []),
    ...[...errorBases].sort(),
    ...(anyPaged && !asJs ? ["paged"] : []),
    ...(asJs ? [] : ["resultChecks"]),
    { name: "CallOptions", isTypeOnly: true },
    ...(results.length > 0 && !asJs ? [{ name: "Check", isTypeOnly: true }] : []),
    ...(asJs ? [] : [{ name: "ResultChecks", isTypeOnly: true }]),
    ...(anyPaged ? [{ name: "PagedMethod", isTypeOnly: true }] : []),
    ...(providers.size > 0 ? [{ name: "Eip1193Provider", isTypeOnly: true }] : []),
    ...(hasRpc ? [{ name: "BatchResults", isTypeOnly: true }, { name: "RpcCall", isTypeOnly: true }, { name: "RpcClientOptions", isTypeOnly: true }, { name: "RpcMethod", isTypeOnly: true }] : [{ name: "HttpClientOptions", isTypeOnly: true }]),
    ...(numbered ? [{ name: "Decoded", isTypeOnly: true }] : []),
    ...(numbered || !asJs ? [{ name: "Numbers", isTypeOnly: true }] : []),
    ...(hasHttp && !asJs ? [{ name: "HttpConfig", isTypeOnly: true }] : []),
    ...(hasRpc ? [{ name: "RpcTransport", isTypeOnly: true }] : []),
    ...(out.usesEncodable ? [{ name: "Encodable", isTypeOnly: true }] : []),
    ...(out.usesIntegerString ? [{ name: "IntegerString", isTypeOnly: true }] : []),
  ];
  // nothing but types (an HTTP module whose code is in functions.js): one type-only import, which leaves no import in JavaScript
  const typesOnly = runtimeImports.every((n) => typeof n !== "string" && n.isTypeOnly);
  const imports: (StatementStructures | WriterFunction)[] = [{ kind: StructureKind.ImportDeclaration, moduleSpecifier: "../runtime/index.js", isTypeOnly: typesOnly, namedImports: typesOnly ? runtimeImports.map((n) => (typeof n === "string" ? n : n.name)) : runtimeImports }];
  if (out.usesTypes) imports.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, namespaceImport: TYPES_NS, moduleSpecifier: "./types.js" });
  // what the HTTP descriptors name is imported by operations.js; client.ts names only the checks of its own statements (the result pairs, JSON-RPC descriptors)
  if (used.size > 0) imports.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: "./validators.js", namedImports: [...used].sort() });
  if (operations.descriptors.length > 0) {
    if (!asJs) imports.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: "./operations.js", namedImports: operations.names });
    imports.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: "./operations.js", namedExports: operations.names });
  }
  if (functions.any) imports.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: "./functions.js", namedExports: functions.exportNames() });
  return [...imports, ...out.statements];
}

/** What the first call of a deprecated operation warns (a string literal in the descriptor). */
function deprecationMessage(op: IrOperation): string | undefined {
  if (!op.deprecated) return undefined;
  const name = op.protocol === "json-rpc" ? op.transport.method : `${op.id || op.names.method} (${op.transport.method.toUpperCase()} ${op.endpoint}${op.transport.path})`;
  const l = op.lifecycle;
  if (l?.removedIn) return `${name} is ${l.deprecatedIn ? `deprecated in ${l.deprecatedIn} and ` : ""}removed in ${l.removedIn}; servers do not serve it from then on`;
  return `${name} is deprecated${l?.deprecatedIn ? ` since ${l.deprecatedIn}` : ""}`;
}

/**
 * One class per declared JSON-RPC error (named by the naming pass; errors that
 * are the same share it), extending `RpcServerError` for the server range
 * -32000…-32099 and `RpcError` otherwise, so `instanceof` works on what a
 * call throws. The statics say which replies it answers to; a `data` schema
 * types `data`. Returns the runtime base classes used.
 */
function emitRpcErrors(ir: IrDocument, ctx: TypeContext, out: Emitted): Set<string> {
  const bases = new Set<string>();
  const classes = new Map<string, { error: IrRpcError; data: TypeNode | undefined; methods: string[] }>();
  for (const op of ir.operations) {
    if (op.protocol !== "json-rpc") continue;
    for (const e of op.errors) {
      const entry = classes.get(e.className) ?? { error: e, data: undefined, methods: [] };
      if (!entry.methods.includes(op.transport.method)) entry.methods.push(op.transport.method);
      // the same error written in several merged documents: the docs of whichever describes it, the data type of whichever types it
      if (!entry.error.description && e.description) entry.error = e;
      const data = e.data ? toTypeNode(e.data, ctx) : undefined;
      if (!entry.data && data && !(data.k === "raw" && data.text === "unknown")) entry.data = data;
      classes.set(e.className, entry);
    }
  }
  // classes that share their code with another error of the same method: matched by message too
  const shared = new Set<string>();
  for (const op of ir.operations) {
    if (op.protocol !== "json-rpc") continue;
    for (const e of op.errors) if (op.errors.some((o) => o.code === e.code && o.className !== e.className)) shared.add(e.className);
  }
  for (const [name, { error: e, data, methods }] of classes) {
    const base = e.code <= -32000 && e.code >= -32099 ? "RpcServerError" : "RpcError";
    bases.add(base);
    const shown = methods.slice(0, 5).map((m) => `\`${m}\``).join(", ") + (methods.length > 5 ? ` and ${methods.length - 5} more` : "");
    const docs = [
      comment(`JSON-RPC error ${errorSummary(e)}${e.source !== e.message ? ` (${e.source})` : ""}, declared by ${shown}.`),
      e.description ? comment(e.description) : undefined,
      shared.has(name) ? comment(`Where a method declares another error with code ${e.code} as well, a reply with that code is this one only when its message starts with ${JSON.stringify(e.message)} (ignoring case); one that matches none of them is an \`RpcServerError\` or \`RpcError\`.`) : undefined,
    ].filter(Boolean).join("\n\n");
    out.statements.push((w) => {
      writeDocs(w, docs);
      w.write(`export class ${identifier(name)} extends ${base} `).inlineBlock(() => {
        w.writeLine(`static readonly code = ${e.code};`);
        w.writeLine(`static readonly rpcMessage = ${stringLiteral(e.message)};`);
        w.writeLine(`override name = ${stringLiteral(name)};`);
        if (data) {
          w.write("declare readonly data: ");
          printType(w, { k: "union", parts: [data, { k: "raw", text: "undefined" }] });
          w.write(";").newLine();
        }
      });
      w.newLine();
    });
  }
  return bases;
}

interface IntegerWalkerRefs {
  paramIntegers: CodeRef | undefined;
  resultIntegers: CodeRef | undefined;
  /** The result's wire-form normaliser (`x-avaspec-wire-form`). */
  resultForms: CodeRef | undefined;
}

function emitHttpOperation(ir: IrDocument, op: IrHttpOperation, ctx: TypeContext, requestCtx: TypeContext, schemaNames: Set<string>, out: Emitted, check: CodeRef | undefined, types: string, encoders: Set<string>, integers: IntegerWalkerRefs, operations: OperationsModule, deprecatedValues: CodeCall | undefined): void {
  const members: Member[] = op.parameters.map((p: IrParameter) => {
    const docs = docsOf(p.description, p.deprecated, p.schema);
    return { key: propertyKey(p.key), optional: !p.required, type: toTypeNode(p.schema, requestCtx), ...(docs ? { docs } : {}) };
  });
  const body = op.requestBody?.content[0];
  if (op.requestBody) {
    members.push({ key: "body", optional: !op.requestBody.required, type: body ? toTypeNode(body.schema, requestCtx) : UNKNOWN, docs: comment(op.requestBody.description ?? "The request body.") });
  }
  out.statements.push(typeAlias(op.names.params, `Parameters of \`${comment([...op.group, op.names.method].join("."))}\`.${integers.paramIntegers ? ENCODABLE_NOTE : ""}`, encodableType(out, integers, (w) => writeObjectType(w, members))));
  if (!schemaNames.has(op.names.response)) {
    const { type, docs } = httpResultType(ir, op, ctx);
    out.statements.push(typeAlias(op.names.response, docs, type));
  }
  const descriptor = httpDescriptor(ir, op, encoders, { idempotent: op.idempotent || undefined, deprecated: deprecationMessage(op), deprecatedValues, check, ...integers });
  operations.add({ name: op.names.descriptor, docs: `Wire description of \`${comment(op.names.method)}\` (${descriptor.method} ${comment(httpTarget(op))}).`, type: `HttpOperation${types}`, value: descriptor });
}

function emitRpcOperation(op: IrRpcOperation, ctx: TypeContext, requestCtx: TypeContext, schemaNames: Set<string>, byKey: Map<string, IrDocument["schemas"][number]>, out: Emitted, check: CodeRef | undefined, types: string, integers: IntegerWalkerRefs, deprecatedValues: CodeCall | undefined): void {
  const docs = (integers.paramIntegers ? (text: string) => text + ENCODABLE_NOTE : (text: string) => text)(`Params of \`${comment([...op.group, op.names.method].join("."))}\` (JSON-RPC \`${comment(op.transport.method)}\`, sent ${op.transport.form === "by-name" ? "by name" : op.transport.form === "by-position" ? "by position" : "as an array holding one object"}).`);
  if (op.transport.form === "one-object") {
    out.statements.push(typeAlias(op.names.params, docs, encodableType(out, integers, toTypeNode(op.params[0]!.schema, requestCtx))));
  } else {
    const members: Member[] = op.params.map((p: IrRpcParam) => {
      const d = docsOf(p.description, p.deprecated, p.schema);
      return { key: propertyKey(p.name), optional: !p.required, type: toTypeNode(p.schema, requestCtx), ...(d ? { docs: d } : {}) };
    });
    out.statements.push(typeAlias(op.names.params, docs, encodableType(out, integers, (w) => writeObjectType(w, members))));
  }
  const fields = rpcFields(op, (key) => byKey.get(key)?.schema).map((f) => ({ name: f.name, required: f.required || undefined }));
  if (!schemaNames.has(op.names.response)) {
    const t: TypeNode = op.result ? toTypeNode(op.result.schema, ctx) : { k: "raw", text: "void" };
    out.statements.push(typeAlias(op.names.response, `Result of \`${comment(op.transport.method)}\`.${op.result?.description ? `\n\n${comment(op.result.description)}` : ""}`, t));
  }
  const errors = [...new Set(op.errors.map((e) => e.className))].map((name) => new CodeRef(identifier(name)));
  const descriptor = { method: op.transport.method, endpoint: op.endpoint, form: op.transport.form, idempotent: op.idempotent || undefined, deprecated: deprecationMessage(op), deprecatedValues, wrappedIn: op.result?.wire?.property, params: fields, check, ...integers, errors: errors.length > 0 ? errors : undefined };
  out.statements.push(constValue(op.names.descriptor, `Wire description of JSON-RPC \`${comment(op.transport.method)}\`.`, `RpcMethod${types}`, descriptor));
}

const ENCODABLE_NOTE = "\n\nIntegers the spec sends as strings may be given as a bigint, a number or a string; they are sent in the spec's wire form (a fraction, a negative value for an unsigned integer or one out of range is a ValidationError).";

/** A params type: `Encodable<…>` when its integers may be given as bigints and numbers. */
function encodableType(out: Emitted, integers: IntegerWalkerRefs, type: TypeNode | WriterFunction): TypeNode | WriterFunction {
  if (!integers.paramIntegers) return type;
  out.usesEncodable = true;
  return (w: TextWriter) => {
    w.write("Encodable<");
    if (typeof type === "function") type(w);
    else printType(w, type);
    w.write(">");
  };
}

export interface ProviderNames {
  /** The viem-style RpcSchema type (`CChainRpcSchema`). */
  schema: string;
  /** The descriptors it serves (`cChainProviderMethods`). */
  methods: string;
  endpoint: string;
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

function writeObjectType(w: TextWriter, members: Member[]): void {
  if (members.length === 0) {
    w.write("Record<string, never>");
    return;
  }
  w.write("{").newLine();
  w.indent(() => members.forEach((m) => writeMember(w, m)));
  w.write("}");
}

