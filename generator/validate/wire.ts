/**
 * Requests a document may describe but `fetch` can never send, and header
 * parameters OpenAPI says to ignore: each is a warning at its pointer. The
 * client refuses the first kind before sending (`UnsendableRequestError`),
 * and the IR leaves the second out.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { isFixedMethod, isOpenApi32, pathItemOperations } from "../load/operations.js";
import { UNSENDABLE_HEADER } from "../../runtime/http/unsendable.js";
import { warner } from "./suspicious.js";

/**
 * Header parameters left out of the client. OpenAPI 3.x, Parameter Object:
 * `If in is "header" and the name field is "Accept", "Content-Type" or
 * "Authorization", the parameter definition SHALL be ignored` (the media
 * types and the security schemes say those); and Content-Length, which fetch
 * writes itself from the body (a value given for it would be replaced).
 */
export const IGNORED_HEADER_PARAMETERS = ["accept", "content-type", "authorization", "content-length"];

/** Whether a parameter is one of those (the IR leaves it out; `checkWire` warned). */
export function isIgnoredHeaderParameter(where: unknown, name: unknown): boolean {
  return where === "header" && typeof name === "string" && IGNORED_HEADER_PARAMETERS.includes(name.toLowerCase());
}

/** Methods the Fetch standard forbids (it throws on them), whatever their case. */
const FORBIDDEN_BY_FETCH = /^(connect|trace|track)$/i;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function checkWire(doc: LoadedDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = warner(doc, out);
  const root = doc.root;
  if (!isObj(root) || !isObj(root["paths"])) return out;
  const is32 = isOpenApi32(root);
  const seen = new Set<string>();
  const header = (node: unknown, pointer: string) => {
    let p = node;
    let at = pointer;
    if (isObj(p) && typeof p["$ref"] === "string") {
      const r = doc.resolve(p["$ref"]);
      p = r?.value;
      at = r?.pointer ?? at;
    }
    // a shared parameter is reported once, where it is written
    if (!isObj(p) || p["in"] !== "header" || typeof p["name"] !== "string" || seen.has(at)) return;
    seen.add(at);
    const name = p["name"].toLowerCase();
    if (name === "content-length") {
      warn("parameter/header-ignored", at, 'header parameter "Content-Length" is left out of the client: fetch writes it from the body', "remove the parameter");
    } else if (IGNORED_HEADER_PARAMETERS.includes(name)) {
      warn("parameter/header-ignored", at, `header parameter ${JSON.stringify(p["name"])} is ignored, as OpenAPI says: ${name === "authorization" ? "the security schemes describe" : "the media types describe"} it`, name === "authorization" ? "describe it with a security scheme (or pass it in the client's headers option)" : "remove the parameter");
    } else if (UNSENDABLE_HEADER.test(name)) {
      warn("parameter/header-unsendable", at, `header parameter ${JSON.stringify(p["name"])} cannot be sent: fetch refuses or replaces it (the HTTP stack writes it); a call that gives it is refused before sending`, "remove the parameter");
    }
  };
  for (const [path, item] of Object.entries(root["paths"])) {
    if (!isObj(item)) continue;
    const itemPtr = ptr.join("#/paths", path);
    const params = (holder: Record<string, unknown>, at: string) => {
      if (Array.isArray(holder["parameters"])) holder["parameters"].forEach((p, i) => header(p, ptr.join(at, "parameters", i)));
    };
    params(item, itemPtr);
    for (const { method, keys, op } of pathItemOperations(item, is32)) {
      if (!isObj(op)) continue;
      const opPtr = ptr.join(itemPtr, ...keys);
      params(op, opPtr);
      if (method === "trace") warn("operation/trace", opPtr, "fetch cannot send a TRACE request; calls of this operation are refused before sending", "remove the operation, or call it with another HTTP client");
      else if (!isFixedMethod(method) && FORBIDDEN_BY_FETCH.test(method)) warn("operation/unsendable-method", opPtr, `fetch cannot send a ${method} request; calls of this operation are refused before sending`, "remove the operation, or call it with another HTTP client");
      else if ((method === "get" || method === "head") && op["requestBody"] !== undefined) {
        warn("operation/body-on-get", ptr.join(opPtr, "requestBody"), `fetch cannot send a body with ${method.toUpperCase()}; a call that gives one is refused before sending`, "send it as query parameters, or make the operation a POST");
      }
    }
  }
  return out;
}
