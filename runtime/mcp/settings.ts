/**
 * How an MCP server's clients are made: base URLs and API keys from whoever
 * runs the server (options, the command line, environment variables), never
 * from the agent. Each client gets a `fetch` that reaches only its own
 * origins (its base URL and the servers its operations declare), so no call
 * made for an agent can go elsewhere, not even by a next-page URL.
 */
import type { McpCatalog } from "./catalog.js";

export interface McpClientSettings {
  /** One base URL for every client (the package's mock server serves them all on one origin). */
  baseUrl?: string;
  /** Base URLs by client name (`dataApi`), over `baseUrl`. */
  baseUrls?: Readonly<Record<string, string>>;
  /** One API key for every client that takes one. */
  apiKey?: string;
  /** API keys by client name, over `apiKey`. */
  apiKeys?: Readonly<Record<string, string>>;
  /** Per attempt, as the clients' `timeoutMs`. */
  timeoutMs?: number;
  /** The fetch the clients' guarded fetch calls (default: the global one at call time). */
  fetch?: typeof fetch;
}

/** The options a generated factory takes, as an MCP server makes its clients. */
export interface McpClientOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch: typeof fetch;
  /** Results as on the wire: what the catalog's schemas and signatures show (an integer the spec sends as a string stays one). */
  numbers: "string";
  /** A deprecation is in the operation's doc; a warning on stderr would reach nobody. */
  deprecationWarnings: false;
}

const own = (o: Readonly<Record<string, string>> | undefined, k: string): string | undefined => (o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The base URL a client is made with: its own setting, the common one, or the spec's default. */
export function baseUrlOf(catalog: McpCatalog, settings: McpClientSettings, client: string): string {
  return own(settings.baseUrls, client) ?? settings.baseUrl ?? catalog.clients.find((c) => c.name === client)?.baseUrl ?? "";
}

/** A fetch that refuses every origin but the client's own. */
export function guardedFetch(origins: ReadonlySet<string>, inner: typeof fetch | undefined): typeof fetch {
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const origin = originOf(url);
    if (origin === undefined || !origins.has(origin)) return Promise.reject(new TypeError(`refused: this MCP server reaches only ${[...origins].join(", ")}, not ${origin ?? "that URL"}`));
    return (inner ?? globalThis.fetch)(input, init);
  };
}

/** The options of one client of the catalog. */
export function clientOptions(catalog: McpCatalog, settings: McpClientSettings, client: string): McpClientOptions {
  const info = catalog.clients.find((c) => c.name === client);
  const baseUrl = baseUrlOf(catalog, settings, client);
  const origins = new Set([baseUrl, ...(info?.servers ?? [])].map(originOf).filter((o): o is string => o !== undefined));
  const apiKey = info?.apiKey ? (own(settings.apiKeys, client) ?? settings.apiKey) : undefined;
  return {
    ...(baseUrl !== "" ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    fetch: guardedFetch(origins, settings.fetch),
    numbers: "string",
    deprecationWarnings: false,
  };
}

/** Every API key the settings hold: the server never returns them. */
export function secretsOf(settings: McpClientSettings): string[] {
  return [settings.apiKey, ...Object.values(settings.apiKeys ?? {})].filter((k): k is string => typeof k === "string" && k.length > 0);
}
