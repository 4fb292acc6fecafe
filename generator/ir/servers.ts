/**
 * What an OpenAPI or OpenRPC document says about itself and where it is
 * served: `info` and `servers` have the same shape in both formats, so both
 * IR builders and the per-operation servers (openapi-wire.ts) read them here.
 */
import type { IrDocument, IrServer } from "./types.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** `servers` of OpenAPI and OpenRPC (same shape). */
export function buildServers(list: unknown): IrServer[] {
  return (Array.isArray(list) ? list : []).filter(isObj).map((s) => {
    const vars = isObj(s["variables"]) ? s["variables"] : {};
    return {
      url: str(s["url"]) ?? "/",
      ...(str(s["description"]) ? { description: s["description"] as string } : {}),
      variables: Object.keys(vars)
        .filter((name) => isObj(vars[name]))
        .map((name) => {
          const v = vars[name] as Record<string, unknown>;
          return {
            name,
            default: String(v["default"] ?? ""),
            ...(Array.isArray(v["enum"]) ? { enum: v["enum"].map(String) } : {}),
            ...(str(v["description"]) ? { description: v["description"] as string } : {}),
          };
        }),
    };
  });
}

export function buildInfo(node: unknown): IrDocument["info"] {
  const info = isObj(node) ? node : {};
  return { title: str(info["title"]) ?? "API", version: str(info["version"]) ?? "0.0.0", ...(str(info["description"]) ? { description: info["description"] as string } : {}) };
}

/** A server's URL with every variable at its default ("" when there is no server). */
export function serverUrl(server: IrServer | undefined): string {
  if (!server) return "";
  return server.url.replace(/\{([^}]+)\}/g, (m, name: string) => server.variables.find((v) => v.name === name)?.default ?? m);
}
