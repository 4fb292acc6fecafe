/**
 * JSON-RPC endpoints whose path holds server variables: an OpenRPC server
 * `https://node/ext/bc/{blockchainId}/rpc` serves one chain per value, so
 * the variable is the caller's to give, not a default to bake in. The
 * document's group on the client becomes a function of its variables
 * (`node.l1({ blockchainId })`) returning the methods bound to that endpoint;
 * a document without a group gets the member `at` for it.
 *
 * Here: reading the template from a server URL, placing a document's
 * operations below the function in the module pass, and checking that what
 * shares a function agrees (`config/endpoint-variables`).
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { IrDocument, IrEndpointGroup, IrServer } from "./types.js";

/** The group member of a document without a group whose endpoint holds variables. */
export const UNGROUPED_ENDPOINT_MEMBER = "at";

/** A server URL split at its path: the origin (variables at their defaults) and the path with its declared variables kept as `{name}`. */
export function endpointTemplate(server: IrServer): { origin: string; path: string; variables: IrServer["variables"] } | undefined {
  const declared = new Map(server.variables.map((v) => [v.name, v]));
  // a variable that holds a whole base URL (`{node_url}/ext/bc/C/rpc`, default `https://…`) is the origin, not a path variable
  const url = server.url.replace(/\{([^}]+)\}/g, (all, name: string) => (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(declared.get(name)?.default ?? "") ? declared.get(name)!.default : all));
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)/.exec(url);
  const origin = m?.[1] ?? "";
  const path = (m?.[2] ?? "").replace(/\/+$/, "");
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!).filter((n) => declared.has(n));
  if (names.length === 0) return undefined;
  const fill = (s: string) => s.replace(/\{([^}]+)\}/g, (all, name: string) => declared.get(name)?.default ?? all);
  return { origin: fill(origin), path, variables: [...new Set(names)].map((n) => declared.get(n)!) };
}

/**
 * Merges the module's endpoint groups (one per document whose endpoint holds
 * variables) by group path and checks them: documents sharing a function
 * take the same variables, nothing else sits below it, and one function is
 * not inside another. Problems are errors at the document's server.
 */
export function settleEndpointGroups(ir: IrDocument, diagnostics: Diagnostic[], locate: (file: string, pointer: string) => { line: number; col: number }): void {
  const groups = ir.endpointGroups ?? [];
  if (groups.length === 0) return;
  const report = (g: IrEndpointGroup, message: string, hint: string) => {
    const { line, col } = locate(g.file, g.pointer);
    diagnostics.push({ code: "config/endpoint-variables", severity: "error", message, file: g.file, pointer: g.pointer, line, col, hint });
  };
  const byPath = new Map<string, IrEndpointGroup>();
  for (const g of groups) {
    const key = g.group.join(".");
    const first = byPath.get(key);
    if (!first) byPath.set(key, g);
    else if (first.variables.map((v) => v.name).join() !== g.variables.map((v) => v.name).join()) {
      report(g, `group ${JSON.stringify(key)} takes {${first.variables.map((v) => v.name).join(", ")}} for ${first.file}, but this document's endpoint holds {${g.variables.map((v) => v.name).join(", ")}}`, "documents that share a group must name the same path variables (or give each document its own group)");
    } else first.files.push(...g.files.filter((f) => !first.files.includes(f)));
  }
  const merged = [...byPath.values()];
  const below = (path: string[], prefix: string[]) => prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
  for (const g of merged) {
    const outer = merged.find((o) => o !== g && below(g.group, o.group));
    if (outer) report(g, `group ${JSON.stringify(g.group.join("."))} is inside ${JSON.stringify(outer.group.join("."))}, whose endpoint holds path variables too`, "give the document a group outside the other one");
  }
  for (const op of ir.operations) {
    const g = merged.find((x) => below(op.group, x.group));
    if (g && !g.files.includes(op.file)) {
      report(g, `the group ${JSON.stringify(g.group.join("."))} is a function of {${g.variables.map((v) => v.name).join(", ")}}, but ${op.file} puts ${JSON.stringify(op.id)} inside it without that endpoint`, "give that document another group");
      break;
    }
  }
  ir.endpointGroups = merged;
}

/** The endpoint group an operation (or any group path) sits in, if any. */
export function endpointGroupOf(ir: Pick<IrDocument, "endpointGroups">, group: readonly string[]): IrEndpointGroup | undefined {
  return ir.endpointGroups?.find((g) => g.group.length <= group.length && g.group.every((p, i) => group[i] === p));
}
