/**
 * The WebSocket forms of JSON-RPC endpoints: where each one is, and for each
 * subscription kind it serves a payload type and a descriptor (its params,
 * codecs and how a reconnect's gap is backfilled).
 */
import type { IrDocument, IrSubscriptionKind } from "../../ir/types.js";
import { pathOf } from "../../ir/module.js";
import type { TextWriter } from "../../writer.js";
import { comment, identifier, propertyKey } from "../escape.js";
import { constValue, typeAlias } from "../statements.js";
import { CodeRef, writeValue } from "../value.js";
import type { ValidatorModule } from "../validators/index.js";
import { toTypeNode, writeDocs, type Member } from "../types/type-node.js";
import { NUMBERS_DECLARATION, usesNumbers } from "../types/numbered.js";
import { writeObjectType, type ClientContext } from "./context.js";

/** The descriptor of the JSON-RPC method `method` of `file`, when the module has it. */
export function descriptorOf(ir: IrDocument, file: string, method: string): CodeRef | undefined {
  const op = ir.operations.find((o) => o.protocol === "json-rpc" && o.file === file && o.transport.method === method);
  return op ? new CodeRef(identifier(op.names.descriptor)) : undefined;
}

/** Whether a subscription's payload type takes the number policy: the client decodes it, and its type holds integers. */
export function payloadFollowsPolicy(c: ClientContext, k: IrSubscriptionKind, codecs: { result?: string } | undefined): boolean {
  return codecs?.result !== undefined && usesNumbers(k.result, c.ir.schemas);
}

/** The sockets table and the subscription kinds; names what it uses from validators.js into `used` and the payload checks into `results`. */
export function emitSockets(c: ClientContext, validators: Pick<ValidatorModule, "subscriptionCodecs" | "subscriptionChecks">, used: Set<string>, results: [CodeRef, CodeRef][]): void {
  const { ir, out, sockets, ctx, requestCtx } = c;
  const { subscriptionCodecs, subscriptionChecks } = validators;
  if (sockets.length === 0) return;
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
      // a payload that holds integers takes the number policy, as results do (types/numbered.ts)
      const policy = payloadFollowsPolicy(c, k, codecs);
      out.statements.push(typeAlias(names.payload, `What each \`${comment(k.kind)}\` notification carries (\`${comment(w.subscriptions!.subscribe)}\` over ${comment(w.path)}).${k.description ? `\n\n${comment(k.description)}` : ""}`, toTypeNode(k.result, policy ? c.policyCtx : ctx), policy ? NUMBERS_DECLARATION : ""));
      const members: Member[] = k.params.map((p) => ({ key: propertyKey(p.name), optional: !p.required, type: toTypeNode(p.schema, requestCtx), ...(p.description ? { docs: comment(p.description) } : {}) }));
      const paramsType = (w2: TextWriter) => {
        if (codecs?.params) w2.write("Encodable<");
        writeObjectType(w2, members);
        if (codecs?.params) w2.write(">");
      };
      if (codecs?.params) out.usesEncodable = true;
      const backfill = k.backfill?.by === "blocks" ? { by: "blocks", method: descriptorOf(ir, w.file, k.backfill.method), extra: k.backfill.extra } : k.backfill?.by === "range" ? { by: "range", method: descriptorOf(ir, w.file, k.backfill.method), head: descriptorOf(ir, w.file, k.backfill.head), ...(k.backfill.block ? { block: descriptorOf(ir, w.file, k.backfill.block), blockExtra: k.backfill.blockExtra ?? [] } : {}), filterParam: k.backfill.filter, key: k.backfill.key } : undefined;
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
