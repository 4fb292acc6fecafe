/**
 * MSW handlers over a mock service: one per HTTP operation and one per
 * JSON-RPC endpoint, at each API's base URL (the WebSocket paths' handlers
 * are msw-ws.ts, which only a package with WebSocket paths ships). Only
 * `@avaspec/client/mocks` imports this file, so MSW (an optional peer
 * dependency) is loaded only there.
 *
 * This file and msw-ws.ts are the modules that name MSW, and the package must
 * still build without it: the namespace import below is the only line that
 * can fail to resolve, and only that line's error is ignored. With MSW
 * installed every use of `msw.` below is checked against MSW's own types (a
 * namespace import cannot hide a missing export); without it they are `any`,
 * and the other entry points never import this file.
 */
// @ts-ignore: msw is an optional peer dependency; without it this import is `any`
import * as msw from "msw";
import { serverBase } from "../http/http.js";
import { escapeRegExp, pathPattern } from "./routes.js";
import type { MockService, MockTable } from "./types.js";

/** MSW's request handler type (`any` when MSW is not installed). */
export type HttpHandler = msw.HttpHandler;

/** A streamed answer's body: its chunks, `intervalMs` apart, until the request is aborted. */
function pacedBody(chunks: readonly string[], intervalMs: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, intervalMs));
      if (signal.aborted) return controller.close();
      if (i === chunks.length) return controller.close();
      controller.enqueue(encoder.encode(chunks[i++]!));
    },
  });
}

/** `tables` pairs each API's mock table with the base URL its client calls. */
export function createMswHandlers(service: Pick<MockService, "handle">, tables: readonly { table: MockTable; baseUrl: string }[]): HttpHandler[] {
  const handlers: HttpHandler[] = [];
  const seen = new Set<string>();
  // the service knows operations by their paths below the base URL: a base URL with a path of its own (…/glacier) is cut off first
  const resolverFor = (root: string) => async ({ request }: { request: Request }) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
    const below = request.url.startsWith(root);
    const url = below ? `http://mock${request.url.slice(root.length).replace(/^(?=[?#]|$)/, "/")}` : request.url;
    const r = await service.handle({ method: request.method, url, headers, ...(below ? { base: root } : {}), ...(body !== undefined ? { body } : {}) });
    if (!r) return undefined;
    if (r.networkError) return msw.HttpResponse.error();
    if (r.chunks) return new msw.HttpResponse(pacedBody(r.chunks, r.intervalMs ?? 0, request.signal), { status: r.status, headers: r.headers });
    return new msw.HttpResponse(r.body === "" ? null : r.body, { status: r.status, headers: r.headers });
  };
  const resolvers = new Map<string, ReturnType<typeof resolverFor>>();
  const resolverAt = (root: string) => resolvers.get(root) ?? resolvers.set(root, resolverFor(root)).get(root)!;
  for (const { table, baseUrl } of tables) {
    const root = baseUrl.replace(/\/+$/, "");
    const base = escapeRegExp(root);
    const resolver = resolverAt(root);
    for (const entry of table.entries) {
      if (entry.kind === "http") {
        // fetch cannot send a TRACE (the client refuses it), and MSW has no handler for one
        if (entry.op.method === "TRACE") continue;
        // an operation with a server of its own is answered there, as the client calls it
        const opRoot = entry.op.server === undefined ? root : serverBase(entry.op.server, root).replace(/\/+$/, "");
        const key = `${entry.op.method} ${opRoot}${entry.op.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // by MSW's handler class, not msw.http.<verb>: QUERY and 3.2's other methods have no helper of their own
        handlers.push(new msw.HttpHandler(entry.op.method, new RegExp(`^${escapeRegExp(opRoot)}${pathPattern(entry.op.path)}(?:[?#].*)?$`), resolverAt(opRoot)));
      } else {
        const key = `POST ${baseUrl}${entry.method.endpoint}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // an endpoint with path variables (`/ext/bc/{blockchainId}/rpc`) is answered for any value of them
        handlers.push(msw.http.post(new RegExp(`^${base}${pathPattern(entry.method.endpoint)}(?:[?#].*)?$`), resolver));
      }
    }
  }
  return handlers;
}
