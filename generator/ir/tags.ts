/**
 * OpenAPI 3.2's hierarchical tags: a tag may name a `parent` tag. An
 * operation's tags in the IR are the ones it lists, then their ancestors, so
 * whatever selects operations by tag (the MCP server's allow and deny
 * patterns, its tool search) reaches a parent's operations through its
 * children. Earlier versions have no `parent`: their tags read as written.
 */
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Each tag's parent, by the document's `tags` list. */
export function tagParents(root: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of Array.isArray(root["tags"]) ? root["tags"] : []) {
    if (isObj(t) && typeof t["name"] === "string" && typeof t["parent"] === "string") out.set(t["name"], t["parent"]);
  }
  return out;
}

/** `tags` followed by their ancestors, each once (a cycle, which the validator refuses, stops where it repeats). */
export function withAncestors(tags: readonly string[], parents: ReadonlyMap<string, string>): string[] {
  const out = [...new Set(tags)];
  for (let i = 0; i < out.length; i++) {
    const parent = parents.get(out[i]!);
    if (parent !== undefined && !out.includes(parent)) out.push(parent);
  }
  return out;
}
