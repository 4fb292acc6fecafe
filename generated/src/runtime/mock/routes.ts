/**
 * Where the mock service finds the operation or JSON-RPC endpoint a request
 * path names. A table's entries live at their paths below the API's base URL
 * (`/stores/{storeId}`, the endpoint `/ext/info`, or "" for a document whose
 * server URL is the endpoint itself), and the base URL of the spec's own
 * server may have a path of its own (`https://api.shop.example/v2`,
 * `http://localhost:8545/rpc`): the table's `basePath`. Every entry is
 * served at both, the spec's path and the bare one below the origin, so that
 * a tool given the server URL with the mock's origin (curl, a client in
 * another language) reaches it just as a client given the origin alone does.
 * A path that names an entry exactly wins over one reached by dropping a
 * table's base path. An endpoint whose path holds variables
 * (`/ext/bc/{blockchainId}/rpc`) answers any value of them, after the
 * endpoints that name a path exactly (`/ext/bc/C/rpc`).
 */
import type { MockHttpEntry, MockRpcEntry, MockTable, MockWebSocket } from "./types.js";

/** `s` as a regular expression source that matches it literally. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A path template as a regular expression source: each `{param}` one capturing segment, the rest literal. */
export function pathPattern(template: string): string {
  return template.replace(/\{[^}]+\}|[^{]+/g, (m) => (m.startsWith("{") ? "([^/?#]+)" : escapeRegExp(m)));
}

/** A JSON-RPC endpoint as a lookup key: "" (a document served at the base URL itself), "/" and "/x/" are "/" and "/x". */
export function endpointKey(path: string): string {
  return "/" + path.replace(/^\/+|\/+$/g, "");
}

/** A table's base path as it prefixes request paths: "" or "/v2" (no trailing slash). */
export function basePathOf(table: MockTable): string {
  const base = table.basePath ?? "";
  return base === "" || base === "/" ? "" : "/" + base.replace(/^\/+|\/+$/g, "");
}

export interface HttpRoute {
  entry: MockHttpEntry;
  table: MockTable;
  /** The operation's path alone, then below the table's base path (absent when it has none). */
  match: RegExp;
  below?: RegExp;
  /** The path params, in the order of the pattern's groups. */
  names: string[];
}

/** The methods of one JSON-RPC endpoint, by name. */
export type RpcMethods = Map<string, { entry: MockRpcEntry; table: MockTable }>;

export interface MockRoutes {
  /** The operation a request's method and path name, with the path params' raw values. */
  http(method: string, path: string): { route: HttpRoute; groups: string[] } | undefined;
  /** The JSON-RPC endpoint at a path, if any. */
  rpc(path: string): RpcMethods | undefined;
  /** Every table's WebSocket paths, each also below its table's base path. */
  webSockets: MockWebSocket[];
}

export function mockRoutes(tables: readonly MockTable[]): MockRoutes {
  const routes: HttpRoute[] = [];
  const endpoints = new Map<string, RpcMethods>();
  // endpoints with path variables, matched by pattern when no endpoint has the path itself
  const templated: { match: RegExp; methods: RpcMethods }[] = [];
  // below a base path: filled after every endpoint's own path, so that an endpoint's own path wins
  const below: [string, MockRpcEntry, MockTable][] = [];
  const webSockets: MockWebSocket[] = [];
  const add = (key: string, entry: MockRpcEntry, table: MockTable, replace: boolean) => {
    let methods = endpoints.get(key);
    if (!methods) endpoints.set(key, (methods = new Map()));
    if (replace || !methods.has(entry.method.method)) methods.set(entry.method.method, { entry, table });
  };
  for (const table of tables) {
    const base = basePathOf(table);
    for (const entry of table.entries) {
      if (entry.kind === "http") {
        const names = [...entry.op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        const pattern = pathPattern(entry.op.path);
        routes.push({ entry, table, match: new RegExp(`^${pattern}$`), ...(base ? { below: new RegExp(`^${escapeRegExp(base)}${pattern}$`) } : {}), names });
      } else {
        add(endpointKey(entry.method.endpoint), entry, table, true);
        if (base) below.push([endpointKey(base + entry.method.endpoint), entry, table]);
      }
    }
    for (const ws of table.webSockets ?? []) {
      webSockets.push(ws);
      if (base) webSockets.push({ path: base + ws.path, endpoint: ws.endpoint });
    }
  }
  for (const [key, entry, table] of below) add(key, entry, table, false);
  for (const [key, methods] of endpoints) if (key.includes("{")) templated.push({ match: new RegExp(`^${pathPattern(key)}$`), methods });

  const find = (method: string, path: string, which: "match" | "below") => {
    for (const route of routes) {
      if (route.entry.op.method.toUpperCase() !== method) continue;
      const m = route[which]?.exec(path);
      if (m) return { route, groups: m.slice(1) };
    }
    return undefined;
  };
  return {
    http: (method, path) => find(method, path, "match") ?? find(method, path, "below"),
    rpc: (path) => {
      const key = endpointKey(path);
      return endpoints.get(key) ?? templated.find((t) => t.match.test(key))?.methods;
    },
    webSockets,
  };
}
