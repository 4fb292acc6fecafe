/**
 * The one way an MCP server calls an API: by an operation of the catalog,
 * with arguments an agent wrote. Both modes go through it (a tool call in
 * tools mode, each client call of a code-mode snippet, as the sandbox's host
 * function), so the same rules hold everywhere:
 *
 * - the policy first: a write is refused unless allowed (policy.ts);
 * - the arguments are taken as data: one plain object, copied member by
 *   member into fresh objects (a `__proto__` key or an inherited member is
 *   refused, so nothing an agent sends reaches a prototype), members the
 *   operation does not take are refused by name, and the generated client
 *   checks the rest with the package's validators before anything is sent;
 * - the real generated client makes the call (retries, typed errors, its
 *   transport to the configured base URLs only);
 * - the result comes back as JSON data (bigints as strings), an error as a
 *   `McpCallError` whose message is the typed error's, secrets redacted.
 */
import { dotted, type CatalogIndex, type McpOperation } from "./catalog.js";
import { allowed, refusal, type AccessPolicy } from "./policy.js";
import { errorText, jsonSafe, redact } from "./results.js";
import { DEFAULT_STREAM_LIMITS, collectStream, isItemStream, type StreamCollectLimits } from "./streams.js";

/** The package's clients by name (`dataApi`, `node`), made with the server's options. */
export type McpClients = { readonly [name: string]: unknown };

/** Why a call did not give a result: refused by the policy, arguments refused, unknown operation, or the API call failed. */
export class McpCallError extends Error {
  override name = "McpCallError";
  constructor(
    readonly kind: "refused" | "arguments" | "unknown" | "failed",
    message: string,
  ) {
    super(message);
  }
}

/** The deepest arguments accepted: JSON from an agent has no reason to nest deeper. */
const MAX_DEPTH = 64;

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** Where a JSON value holds a `__proto__` key (a JSON pointer), if anywhere: what `JSON.parse` made of the agent's message, before anything else reads it. */
export function protoKeyAt(value: unknown, at = ""): string | undefined {
  const stack: [unknown, string][] = [[value, at]];
  while (stack.length > 0) {
    const [v, where] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, "__proto__")) return where || "/";
    for (const [k, x] of Object.entries(v)) stack.push([x, `${where}/${k}`]);
  }
  return undefined;
}

/** Why arguments with a `__proto__` key are refused. */
export const protoRefusal = (at: string): string => `the key "__proto__" at ${at} is refused: arguments are data, and this key would reach an object's prototype`;

/** A copy of JSON arguments into fresh objects and arrays, refusing what could reach a prototype. */
function copyArguments(value: unknown, at: string, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new McpCallError("arguments", `arguments nest deeper than ${MAX_DEPTH} levels at ${at || "/"}`);
  if (Array.isArray(value)) return value.map((v, i) => copyArguments(v, `${at}/${i}`, depth + 1));
  if (typeof value === "object" && value !== null) {
    if (!isPlain(value)) throw new McpCallError("arguments", `the value at ${at || "/"} is not a plain JSON object`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === "__proto__") throw new McpCallError("arguments", protoRefusal(at || "/"));
      Object.defineProperty(out, key, { value: copyArguments(value[key], `${at}/${key}`, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (typeof value === "function" || typeof value === "symbol") throw new McpCallError("arguments", `the value at ${at || "/"} is not JSON`);
  return value;
}

/** The names an operation's arguments may have, when its schema lists them and takes no others. */
function argumentNames(op: McpOperation): string[] | undefined {
  const input = op.input;
  if (typeof input !== "object" || input["additionalProperties"] !== false) return undefined;
  const properties = input["properties"];
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
}

export interface HostOptions {
  policy: AccessPolicy;
  /** Values never shown to the agent (the API keys the clients hold). */
  secrets: readonly string[];
  /** How much of a streamed operation's items one call returns (streams.ts). */
  stream?: Partial<StreamCollectLimits>;
}

export class McpHost {
  constructor(
    readonly index: CatalogIndex,
    private readonly clients: McpClients,
    readonly options: HostOptions,
  ) {}

  /** The operation at a dotted path, or an error naming the closest ones. */
  operation(path: readonly string[]): McpOperation {
    const op = this.index.byPath.get(dotted(path));
    if (op) return op;
    throw new McpCallError("unknown", `${dotted(path)} is not an operation of this server; search for it by words`);
  }

  /** The arguments as a fresh plain object the operation takes, or an McpCallError saying what is wrong. */
  arguments(op: McpOperation, args: unknown): Record<string, unknown> {
    if (args === undefined || args === null) return {};
    if (!isPlain(args)) throw new McpCallError("arguments", `${dotted(op.path)} takes one object of named arguments, got ${Array.isArray(args) ? "an array" : typeof args}`);
    const copy = copyArguments(args, "", 0) as Record<string, unknown>;
    const names = argumentNames(op);
    const unknown = names ? Object.keys(copy).filter((k) => !names.includes(k)) : [];
    if (unknown.length > 0) throw new McpCallError("arguments", `${dotted(op.path)} has no argument ${unknown.map((k) => JSON.stringify(k)).join(", ")}; it takes ${names!.length > 0 ? names!.join(", ") : "none"}`);
    return copy;
  }

  /** Calls an operation: policy, arguments, the client; the result as JSON data. */
  async call(op: McpOperation, args: unknown, signal?: AbortSignal): Promise<unknown> {
    if (!allowed(op, this.options.policy)) throw new McpCallError("refused", refusal(op));
    const params = this.arguments(op, args);
    const method = this.method(op, params);
    try {
      const result = await method(params, signal);
      return jsonSafe(isItemStream(result) ? await collectStream(result, { ...DEFAULT_STREAM_LIMITS, ...this.options.stream }, signal, (e) => errorText(e, this.options.secrets)) : result);
    } catch (e) {
      throw new McpCallError("failed", errorText(e, this.options.secrets));
    }
  }

  /** The snippet's host function (runtime/mcp/sandbox.ts): a call by path, its one argument an object. */
  readonly hostCall = async (path: readonly string[], args: readonly unknown[], signal?: AbortSignal): Promise<unknown> => {
    try {
      const op = this.operation(path);
      if (args.length > 1) throw new McpCallError("arguments", `${dotted(path)} takes one object of named arguments, got ${args.length} arguments`);
      return await this.call(op, args[0], signal);
    } catch (e) {
      // the snippet sees the message only (the sandbox rethrows it as an Error)
      throw new Error(e instanceof McpCallError ? e.message : redact(String((e as Error)?.message ?? e), this.options.secrets));
    }
  };

  /** The client function of an operation; a group that takes its endpoint's variables is called with them (taken out of the params). */
  private method(op: McpOperation, params: Record<string, unknown>): (params: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown> {
    let node: unknown = this.clients[op.path[0]!];
    const members = op.path.slice(1);
    members.forEach((name, i) => {
      if (op.endpoint && i === op.endpoint.depth) {
        const values: Record<string, unknown> = {};
        for (const v of op.endpoint.variables) {
          values[v] = params[v];
          delete params[v];
        }
        node = (node as (values: Record<string, unknown>) => unknown)(values);
      }
      // the names come from the catalog, never from the agent
      node = typeof node === "object" || typeof node === "function" ? (node as Record<string, unknown>)[name] : undefined;
    });
    if (typeof node !== "function") throw new McpCallError("unknown", `${dotted(op.path)} is not a method of the client (the catalog and the package differ: regenerate it)`);
    const fn = node as (params: Record<string, unknown>, options?: { signal: AbortSignal }) => Promise<unknown>;
    // a snippet's run that ends (time or call limit) aborts the calls it left waiting
    return (p, signal) => (signal ? fn(p, { signal }) : fn(p));
  }
}
