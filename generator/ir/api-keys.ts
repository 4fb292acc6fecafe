/**
 * API-key schemes: which header (or query parameter) a client's `apiKey` is
 * sent under when an operation accepts several alternative schemes.
 *
 * The rule: the scheme marked `x-avaspec-preferred: true` (at most one per
 * document), else the first the operation's `security` lists, as
 * hey-api's client does with one token. `apiKeys` (by scheme name) sends
 * a key under any scheme the operation accepts. Cookie schemes are not sent
 * by the client.
 */
import * as ptr from "../load/pointer.js";
import type { IrApiKeyScheme, IrDocument, IrHttpOperation } from "./types.js";

type Report = (code: string, pointer: string, message: string, hint?: string) => void;

/** `x-avaspec-preferred` on a security scheme: true or false, when present; true only on an API-key scheme. */
export function readPreferred(scheme: Record<string, unknown>, pointer: string, report: Report): boolean {
  const v = scheme["x-avaspec-preferred"];
  if (v === undefined || v === false) return false;
  const at = ptr.join(pointer, "x-avaspec-preferred");
  if (v !== true) {
    report("extension/preferred", at, `x-avaspec-preferred must be true or false, got ${JSON.stringify(v)?.slice(0, 120)}`);
    return false;
  }
  if (scheme["type"] !== "apiKey" || scheme["in"] === "cookie") {
    report("extension/preferred", at, "x-avaspec-preferred marks the API-key scheme (in a header or the query) a client's apiKey is sent under; this scheme is not one", "put it on a scheme with type: apiKey");
    return false;
  }
  return true;
}

/** Refuses a second preferred scheme in one document: the rule would have no answer. */
export function checkOnePreferred(schemes: readonly IrApiKeyScheme[], report: Report): void {
  const marked = schemes.filter((s) => s.preferred);
  for (const s of marked.slice(1)) {
    report("extension/preferred", ptr.join(s.pointer, "x-avaspec-preferred"), `only one security scheme of a document may be preferred; ${JSON.stringify(marked[0]!.id)} already is`);
    delete s.preferred;
  }
}

/** The API-key schemes an operation is sent with, in order: the one `apiKey` goes under first. */
export function apiKeySchemes(ir: Pick<IrDocument, "securitySchemes">, op: IrHttpOperation): IrApiKeyScheme[] {
  const accepted = op.security.schemes.flatMap((id) => {
    const s = ir.securitySchemes.find((x) => x.id === id);
    return s && s.in !== "cookie" ? [s] : [];
  });
  const preferred = accepted.findIndex((s) => s.preferred);
  return preferred <= 0 ? accepted : [accepted[preferred]!, ...accepted.filter((_, i) => i !== preferred)];
}
