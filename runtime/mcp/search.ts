/**
 * Code mode's `search`: operations found by words and names across every
 * client of the package, each answered with its TypeScript signature, its
 * doc text and one example call, until a size budget is spent. Scoring is
 * plain word matching, weighted by where the word is found (the method's
 * name, its groups, its wire name, its summary, its description); a query
 * that is a method's name or dotted path finds it first.
 */
import { dotted, type CatalogIndex, type McpOperation } from "./catalog.js";

export interface SearchOptions {
  /** At most this many operations (default 8). */
  limit?: number;
  /** The answer's size in characters (default 6,000): whole entries only, then a line saying how many more matched. */
  budget?: number;
}

/** `getCurrentValidators` → ["get", "current", "validators"]; `eth_getBalance` → ["eth", "get", "balance"]. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** A word without a plural or verb ending, so `validators` finds `validator` and `transfers` `transfer`. */
const stem = (w: string): string => (w.length > 4 && w.endsWith("ies") ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);

interface Indexed {
  op: McpOperation;
  name: Set<string>;
  groups: Set<string>;
  wire: Set<string>;
  summary: Set<string>;
  description: Set<string>;
  full: string;
}

const indexes = new WeakMap<CatalogIndex, Indexed[]>();

function indexed(index: CatalogIndex): Indexed[] {
  let list = indexes.get(index);
  if (list) return list;
  const bag = (text: string | undefined) => new Set(words(text ?? "").map(stem));
  list = index.catalog.operations.map((op) => ({
    op,
    name: bag(op.path[op.path.length - 1]),
    groups: bag(op.path.slice(0, -1).join(" ") + " " + op.tags.join(" ")),
    wire: bag(op.wire),
    summary: bag(op.summary),
    description: bag(op.description),
    full: dotted(op.path).toLowerCase(),
  }));
  indexes.set(index, list);
  return list;
}

function score(entry: Indexed, query: string, terms: string[]): number {
  const q = query.trim().toLowerCase();
  let total = 0;
  // a method's own name or path, as written
  if (q === entry.full || entry.full.endsWith(`.${q}`)) total += 100;
  else if (q.length > 2 && entry.full.includes(q)) total += 20;
  for (const t of terms) {
    if (entry.name.has(t)) total += 6;
    if (entry.groups.has(t)) total += 4;
    if (entry.wire.has(t)) total += 3;
    if (entry.summary.has(t)) total += 3;
    if (entry.description.has(t)) total += 1;
  }
  // every word found somewhere beats a few found often
  const found = terms.filter((t) => entry.name.has(t) || entry.groups.has(t) || entry.wire.has(t) || entry.summary.has(t) || entry.description.has(t)).length;
  return total + (terms.length > 0 ? (found / terms.length) * 10 : 0) - (entry.op.deprecated ? 2 : 0);
}

/** One operation as `search` shows it. */
export function describe(op: McpOperation): string {
  const access = op.access.readOnly ? "read-only" : `writes${op.access.destructive ? " (destructive)" : ""}`;
  const lines = [`## ${dotted(op.path)} — ${op.wire}; ${access}${op.deprecated ? "; deprecated" : ""}`];
  const doc = [op.summary, op.description].filter(Boolean).join(" ");
  if (doc) lines.push(doc);
  lines.push(op.signature, `e.g. ${op.example}`);
  return lines.join("\n");
}

/** What the package has, for an empty query: each client and its groups, with counts. */
function overview(index: CatalogIndex): string {
  const lines = [`${index.catalog.package}: ${index.catalog.operations.length} operations. Search with words ("validators stake", "erc20 transfers") or a name ("getBalance").`];
  for (const c of index.catalog.clients) {
    const groups = new Map<string, number>();
    for (const op of index.catalog.operations) if (op.path[0] === c.name) groups.set(dotted(op.path.slice(0, -1)), (groups.get(dotted(op.path.slice(0, -1))) ?? 0) + 1);
    lines.push(`- ${c.name}: ${c.title}${c.description ? ` — ${c.description}` : ""}`, `  ${[...groups].map(([g, n]) => `${g} (${n})`).join(", ")}`);
  }
  return lines.join("\n");
}

/** The answer to a search: matching operations, best first, within the budget. */
export function search(index: CatalogIndex, query: string, options: SearchOptions = {}): string {
  const limit = Math.max(1, options.limit ?? 8);
  const budget = options.budget ?? 6000;
  const terms = [...new Set(words(query).map(stem))];
  if (terms.length === 0) return overview(index);
  const ranked = indexed(index)
    .map((e) => ({ e, s: score(e, query, terms) }))
    .filter((x) => x.s > 10)
    .sort((a, b) => b.s - a.s || (a.e.full < b.e.full ? -1 : 1));
  if (ranked.length === 0) return `Nothing matches ${JSON.stringify(query)}. Try other words, or an empty query for what the package has.`;
  const parts: string[] = [];
  let used = 0;
  for (const { e } of ranked.slice(0, limit)) {
    const text = describe(e.op);
    if (parts.length > 0 && used + text.length > budget) break;
    parts.push(text.length > budget ? `${text.slice(0, budget)}…` : text);
    used += text.length;
  }
  const more = ranked.length - parts.length;
  if (more > 0) parts.push(`(${more} more match${more === 1 ? "" : "es"}: add words to narrow the search, or search a name.)`);
  return parts.join("\n\n");
}
