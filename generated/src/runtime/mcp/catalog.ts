/**
 * The MCP catalog a generated package ships (`src/mcp/catalog.ts`, built by
 * generator/emit/mcp/catalog.ts from the IR): every operation and method of
 * its clients, found by `search`, listed as tools, and called by path. This
 * file reads it: the lookup by path, each tool's self-contained input schema,
 * and the surface a code-mode snippet sees.
 */

export type JsonSchema = boolean | { readonly [key: string]: unknown };

/** Whether a call only reads, and the MCP annotations that follow. */
export interface McpAccess {
  readonly readOnly: boolean;
  readonly idempotent: boolean;
  readonly destructive: boolean;
}

export interface McpOperation {
  /** The client, its groups and the method: `["node", "platform", "getHeight"]`. */
  readonly path: readonly string[];
  /** Its name as a tool in tools mode. */
  readonly tool: string;
  /** The HTTP method and path, or the JSON-RPC method and endpoint. */
  readonly wire: string;
  readonly summary?: string;
  readonly description?: string;
  /** TypeScript: `node.platform.getHeight(): Promise<…>`. */
  readonly signature: string;
  /** One call, as a snippet writes it. */
  readonly example: string;
  /** The arguments (one object), with `$ref`s into the catalog's `defs`. */
  readonly input: JsonSchema;
  /** A group that is a function of its endpoint's variables: the members before it (after the client) and the variables the arguments carry. */
  readonly endpoint?: { readonly depth: number; readonly variables: readonly string[] };
  readonly access: McpAccess;
  readonly tags: readonly string[];
  readonly deprecated?: true;
  /** The params that page (the next page's cursor, page or offset; the page size), for the note on a cut result. */
  readonly paging?: { readonly param?: string; readonly size?: string };
  /** Its response is a stream of items: a call returns the items that arrive, up to the server's stream limits (streams.ts). */
  readonly stream?: true;
}

export interface McpClientInfo {
  /** The client's name in snippets and paths (`dataApi`). */
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  /** The spec's default base URL. */
  readonly baseUrl: string;
  /** Whether its operations take an API key. */
  readonly apiKey: boolean;
  /** Base URLs of operations that declare their own server. */
  readonly servers: readonly string[];
}

export interface McpCatalog {
  /** The package's name. */
  readonly package: string;
  readonly clients: readonly McpClientInfo[];
  readonly operations: readonly McpOperation[];
  /** Named schemas of the input schemas, by name. */
  readonly defs: { readonly [name: string]: JsonSchema };
}

/** The surface of a snippet: clients, groups and methods, as runtime/mcp/sandbox.ts takes it. */
export type Surface = { readonly [name: string]: Surface | "method" };

/** A dotted path: `node.platform.getHeight`. */
export const dotted = (path: readonly string[]): string => path.join(".");

/** The operations by dotted path and by tool name. */
export class CatalogIndex {
  readonly byPath = new Map<string, McpOperation>();
  readonly byTool = new Map<string, McpOperation>();
  constructor(readonly catalog: McpCatalog) {
    for (const op of catalog.operations) {
      this.byPath.set(dotted(op.path), op);
      this.byTool.set(op.tool, op);
    }
  }

  /** Every client, group and method, for the sandbox. */
  surface(): Surface {
    const root: Record<string, unknown> = Object.create(null);
    for (const op of this.catalog.operations) {
      let node = root;
      op.path.forEach((name, i) => {
        if (i === op.path.length - 1) node[name] = "method";
        else {
          if (typeof node[name] !== "object") node[name] = Object.create(null);
          node = node[name] as Record<string, unknown>;
        }
      });
    }
    return root as Surface;
  }

  /** The tool's input schema on its own: the catalog's `defs` it reaches, under `$defs`. */
  inputSchema(op: McpOperation): { readonly [key: string]: unknown } {
    const reached = new Map<string, JsonSchema>();
    const pending: JsonSchema[] = [op.input];
    while (pending.length > 0) {
      const s = pending.pop()!;
      for (const ref of refsIn(s)) {
        if (reached.has(ref) || !Object.prototype.hasOwnProperty.call(this.catalog.defs, ref)) continue;
        const target = this.catalog.defs[ref]!;
        reached.set(ref, target);
        pending.push(target);
      }
    }
    const base = typeof op.input === "object" ? op.input : { type: "object" };
    if (reached.size === 0) return base;
    const defs: Record<string, JsonSchema> = {};
    for (const [name, schema] of [...reached].sort(([a], [b]) => (a < b ? -1 : 1))) Object.defineProperty(defs, name, { value: schema, enumerable: true });
    return { ...base, $defs: defs };
  }
}

const REF_PREFIX = "#/$defs/";

/** The def names a schema's `$ref`s name, found without recursion (schemas nest deep). */
function refsIn(schema: JsonSchema): string[] {
  const found: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string" && x.startsWith(REF_PREFIX)) found.push(x.slice(REF_PREFIX.length));
        else if (typeof x === "object") stack.push(x);
      }
    }
  }
  return found;
}
