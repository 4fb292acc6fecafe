/**
 * What a spec's extensions say of an operation or method beyond its wire
 * (re-exported by types.ts): the releases that added, deprecated or removed
 * it, and how the MCP servers generated from it treat it.
 */

/** `x-avaspec-added-in`, `x-avaspec-deprecated-in`, `x-avaspec-removed-in`: each names a release of the server. */
export interface IrLifecycle {
  addedIn?: string;
  deprecatedIn?: string;
  removedIn?: string;
}

/**
 * `x-avaspec-mcp`: each member, when given, overrides the classification by
 * HTTP method or JSON-RPC method name (generator/emit/mcp/access.ts).
 */
export interface IrMcpMarks {
  /** Reads only: allowed in a read-only server (a POST that queries), or `false` for a GET that changes something. */
  readOnly?: boolean;
  /** Repeating it has no further effect (the MCP `idempotentHint`). */
  idempotent?: boolean;
  /** It may destroy or overwrite data (the MCP `destructiveHint`). */
  destructive?: boolean;
  /** Left out of the MCP server altogether. */
  exclude?: boolean;
}
