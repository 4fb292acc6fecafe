/**
 * What an OpenAPI document says about the wire besides its schemas, read for
 * the IR: the servers of a path item or an operation, the Encoding Objects of
 * a form body, and which response describes a 2XX answer when none is
 * declared.
 */
import { isHttpServerUrl } from "../validate/suspicious.js";
import { buildServers, serverUrl } from "./servers.js";
import type { IrFieldEncoding, IrResponse } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);


/**
 * The base URL an operation declares for itself: the first http(s) server of
 * the operation's `servers`, else of its path item's (the operation's win),
 * with variables at their defaults; undefined when it declares none, or the
 * same URL as the document's default.
 */
export function ownServer(operationServers: unknown, pathServers: unknown, documentDefault: string): string | undefined {
  for (const list of [operationServers, pathServers]) {
    const servers = buildServers(list);
    if (servers.length === 0) continue;
    const url = serverUrl(servers.find((s) => isHttpServerUrl(s.url)));
    // a list of only ws:/javascript: URLs says nothing the client can use (the validator warned)
    if (url === "") continue;
    return url.replace(/\/+$/, "") === documentDefault.replace(/\/+$/, "") ? undefined : url;
  }
  return undefined;
}

const FIELD_STYLES = new Set(["form", "spaceDelimited", "pipeDelimited", "deepObject"]);

/**
 * The fields of an `application/x-www-form-urlencoded` body that their
 * Encoding Object serializes by style: those with `style`, `explode` or
 * `allowReserved` (OpenAPI: any of them makes the field behave as a query
 * parameter, `form` by default; without them, `contentType` rules and the
 * client keeps its default). Undefined when there are none.
 */
export function formEncoding(contentType: string, encoding: unknown): Record<string, IrFieldEncoding> | undefined {
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType) || !isObj(encoding)) return undefined;
  const out: Record<string, IrFieldEncoding> = {};
  for (const [field, e] of Object.entries(encoding)) {
    if (!isObj(e) || !("style" in e || "explode" in e || "allowReserved" in e)) continue;
    const style = typeof e["style"] === "string" && FIELD_STYLES.has(e["style"]) ? (e["style"] as IrFieldEncoding["style"]) : "form";
    out[field] = { style, explode: typeof e["explode"] === "boolean" ? e["explode"] : style === "form", allowReserved: e["allowReserved"] === true };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * `default` covers every status the operation does not declare: with no 2XX
 * response declared, that includes the 2XX answers, so it is marked as
 * describing them (`success`). Beside a 2XX response it stays the error body.
 */
export function defaultDescribesSuccess(responses: IrResponse[]): void {
  if (responses.some((r) => r.success)) return;
  for (const r of responses) if (r.status === "default") r.success = true;
}
