/**
 * MSW handlers over a mock service: one per HTTP operation and one per
 * JSON-RPC endpoint, at each API's base URL. Only `@avaspec/client/mocks`
 * imports this file, so MSW (an optional peer dependency) is loaded only there.
 */
import { http, HttpResponse, type HttpHandler } from "msw";
import { escapeRegExp, pathPattern, type MockService, type MockTable } from "./mock.js";

/** `tables` pairs each API's mock table with the base URL its client calls. */
export function createMswHandlers(service: MockService, tables: readonly { table: MockTable; baseUrl: string }[]): HttpHandler[] {
  const handlers: HttpHandler[] = [];
  const seen = new Set<string>();
  const resolver = async ({ request }: { request: Request }) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
    const r = await service.handle({ method: request.method, url: request.url, headers, ...(body !== undefined ? { body } : {}) });
    if (!r) return undefined;
    if (r.networkError) return HttpResponse.error();
    return new HttpResponse(r.body === "" ? null : r.body, { status: r.status, headers: r.headers });
  };
  for (const { table, baseUrl } of tables) {
    const base = escapeRegExp(baseUrl.replace(/\/+$/, ""));
    for (const entry of table.entries) {
      if (entry.kind === "http") {
        const key = `${entry.op.method} ${baseUrl}${entry.op.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const method = entry.op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete" | "head" | "options";
        handlers.push(http[method](new RegExp(`^${base}${pathPattern(entry.op.path)}(?:[?#].*)?$`), resolver));
      } else {
        const key = `POST ${baseUrl}${entry.method.endpoint}`;
        if (seen.has(key)) continue;
        seen.add(key);
        handlers.push(http.post(new RegExp(`^${base}${escapeRegExp(entry.method.endpoint)}(?:[?#].*)?$`), resolver));
      }
    }
  }
  return handlers;
}
