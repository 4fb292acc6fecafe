/**
 * Webhooks (OpenAPI 3.1): the API calls a receiver the user runs, so nothing
 * is called and nothing is mocked; what the receiver needs is the type of
 * each payload and a check of what arrives. types.ts gets the payload map
 * (`ShopWebhooks`: webhook → payload type), validators.ts a validator by
 * webhook name (`validateShopWebhook("orderCreated", body)`), typed by that map.
 */
import type { WriterFunction } from "../writer.js";
import type { IrDocument, IrSchema } from "../ir/types.js";
import { comment, identifier, propertyKey, stringLiteral } from "./escape.js";
import { printType, toTypeNode, writeDocs, type TypeContext } from "./types/type-node.js";

/** What a webhook's doc comment says: its method and name as the spec has them, then its summary or description. */
function describe(h: NonNullable<IrDocument["webhooks"]>[number]): string {
  const about = h.summary ?? h.description;
  return `\`${h.method.toUpperCase()}\` webhook \`${comment(h.name)}\` (${comment(h.contentType)})${about ? `: ${comment(about)}` : ""}`;
}

/** The payload map of types.ts, or undefined when the module has no webhooks. */
export function webhookPayloads(ir: IrDocument, ctx: TypeContext): WriterFunction | undefined {
  const hooks = ir.webhooks ?? [];
  if (hooks.length === 0 || !ir.names.webhooks) return undefined;
  const name = identifier(ir.names.webhooks.payloads);
  return (w) => {
    writeDocs(w, "The payloads the API sends to your webhooks (the spec's `webhooks`), by webhook: the JSON body each request delivers.");
    w.write(`export interface ${name} `).inlineBlock(() => {
      for (const h of hooks) {
        writeDocs(w, describe(h));
        w.write(`${propertyKey(h.key)}: `);
        printType(w, toTypeNode(h.payload, ctx));
        w.write(";").newLine();
      }
    });
    w.newLine();
  };
}

/**
 * The validator by webhook name, or undefined when the module has no
 * webhooks. `check` gives the check function of a payload schema, `typeOf`
 * the payload map's name as validators.ts sees it.
 */
export function webhookValidator(ir: IrDocument, check: (s: IrSchema) => string, typeOf: (name: string) => string): { js: WriterFunction; dts: WriterFunction } | undefined {
  const hooks = ir.webhooks ?? [];
  if (hooks.length === 0 || !ir.names.webhooks) return undefined;
  const map = typeOf(ir.names.webhooks.payloads);
  const name = identifier(ir.names.webhooks.validate);
  const cases = hooks.map((h) => [stringLiteral(h.key), check(h.payload)] as const);
  return {
    // validators.js: JavaScript, like the other validators (see exports.ts)
    js: (w) => {
      w.writeLine(`export function ${name}(name, value) {`);
      w.writeLine("  switch (name) {");
      for (const [key, fn] of cases) w.writeLine(`    case ${key}:`).writeLine(`      return run(${fn}, value);`);
      w.writeLine("  }");
      w.writeLine('  return { ok: false, issues: [{ path: "", message: `no webhook is named ${JSON.stringify(name)}`, keyword: "webhook" }] };');
      w.writeLine("}");
    },
    dts: (w) => {
      writeDocs(w, `Validates the body a webhook request delivered, by the webhook's name in {@link ${map}}: every issue with its JSON-pointer path, keyword and expected value. A name the spec does not have is an issue too, never an exception.`);
      w.writeLine(`export declare function ${name}<K extends keyof ${map}>(name: K, value: unknown): ValidationResult<${map}[K]>;`);
    },
  };
}

/** The README's webhook example for a module (empty when it has none): a receiver that checks what arrives, or, without validators, one typed by the payload map. */
export function webhookExample(ir: IrDocument, subpath: string, validators: boolean): string {
  const first = ir.webhooks?.[0];
  const names = ir.names.webhooks;
  if (!first || !names) return "";
  const key = stringLiteral(first.key);
  if (!validators) {
    return [`import type { ${identifier(names.payloads)} } from ${stringLiteral(subpath)};`, "", "// a webhook receiver, given the request's JSON body", `function receive(payload: ${identifier(names.payloads)}[${key}]): void {`, "  console.log(payload);", "}"].join("\n");
  }
  return [
    `import { ${identifier(names.validate)} } from ${stringLiteral(subpath)};`,
    "",
    "// a webhook receiver, given the request's JSON body",
    "function receive(body: unknown): void {",
    `  const delivered = ${identifier(names.validate)}(${key}, body);`,
    "  if (!delivered.ok) throw new Error(delivered.issues.map((i) => `${i.path} ${i.message}`).join(\"; \"));",
    "  console.log(delivered.value);",
    "}",
  ].join("\n");
}
