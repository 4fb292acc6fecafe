/**
 * The client options for API keys: `apiKey`, sent under each operation's
 * first scheme (generator/ir/api-keys.ts says which), and, when the API
 * takes keys under several schemes, `apiKeys`: a key per scheme, by the
 * scheme's name in the spec.
 */
import { apiKeySchemes } from "../../ir/api-keys.js";
import type { IrApiKeyScheme, IrDocument } from "../../ir/types.js";
import type { WriterFunction } from "../../writer.js";
import { comment, identifier, propertyKey } from "../escape.js";
import { writeDocs } from "../types/type-node.js";

/** How a scheme's key travels, for docs: "the `x-key` header". */
const place = (s: IrApiKeyScheme) => `the \`${s.name}\` ${s.in === "header" ? "header" : "query parameter"}`;

/**
 * The options interface of a client whose operations take API keys
 * (`name` extends `base`), or undefined when none does.
 */
export function apiKeyOptions(ir: IrDocument, name: string, docs: string, base: string): WriterFunction | undefined {
  const firsts: IrApiKeyScheme[] = [];
  const all: IrApiKeyScheme[] = [];
  for (const op of ir.operations) {
    if (op.protocol !== "http") continue;
    const schemes = apiKeySchemes(ir, op);
    if (schemes[0] && !firsts.includes(schemes[0])) firsts.push(schemes[0]);
    for (const s of schemes) if (!all.includes(s)) all.push(s);
  }
  if (firsts.length === 0) return undefined;
  const others = all.filter((s) => !firsts.includes(s));
  const sent =
    firsts.length === 1
      ? `API key, sent as ${place(firsts[0]!)} (the \`${firsts[0]!.id}\` scheme), and only when set.`
      : `API key, sent only when set, under the first scheme each operation takes: ${firsts.map((s) => `${place(s)} (\`${s.id}\`)`).join(" or ")}.`;
  const also = others.length > 0 ? `\n\nThe API also takes a key as ${others.map((s) => `${place(s)} (\`${s.id}\`)`).join(" or ")}: \`apiKeys\` sends one there.` : "";
  const description = firsts.length === 1 && firsts[0]!.description ? `\n\n${firsts[0]!.description}` : "";
  return (w) => {
    writeDocs(w, docs);
    w.write(`export interface ${identifier(name)} extends ${base} `).inlineBlock(() => {
      writeDocs(w, comment(sent + also + description));
      w.writeLine("apiKey?: string;");
      if (all.length < 2) return;
      writeDocs(w, "Keys by the name of the spec's security scheme, each sent under its scheme by the operations that take it, besides or instead of `apiKey` (a key named here wins over `apiKey` for its scheme). An empty key is not sent.");
      w.write("apiKeys?: ").inlineBlock(() => {
        for (const s of all) {
          writeDocs(w, `Sent as ${comment(place(s))}${firsts.includes(s) ? " (where `apiKey` goes too)" : ""}.`);
          w.writeLine(`readonly ${propertyKey(s.id)}?: string;`);
        }
      });
      w.write(";").newLine();
    });
    w.newLine();
  };
}
