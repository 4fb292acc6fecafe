// Side by side: Optic's breaking findings (test/diff/optic.ts) against
// `avaspec diff`'s breaking changes on the same pair, and what is left over
// on either side against the explanations in disagreements.json.
//
// Matching. An Optic finding has a rule and a location (`before#/paths/…` in
// the old document or `after#/paths/…` in the new one, a pointer into the
// document with every `$ref` followed). Its pointer is walked through that
// document's `$ref`s to where it lands, e.g. the property of a shared
// component schema, which Optic reports once per operation and status that
// reaches it while avaspec reports it once. An avaspec breaking change
// matches when its rule is one that answers the Optic rule (OPTIC_RULES) and
// its place on the same side (old for `before#`, new for `after#`) is where
// the finding lands or inside it (a parameter's schema for a parameter).
// Failing that, a removal (COVERING: an operation, a response, a response's
// media type) answers every finding inside what it removed, in the same
// operation (Optic reports each status and property of a removed operation),
// and for Optic's union rule, a response change at a branch of the union or
// at a branch's property (UNION_RULE).
import { readFileSync } from "node:fs";
import type { Change } from "../../generator/diff/index.ts";
import type { OpticFinding } from "./optic.ts";

/** Optic rule → the avaspec rules that report the same change. */
export const OPTIC_RULES: Record<string, readonly string[]> = {
  "prevent operation removal": ["operation-removed"],
  "prevent response status code removal": ["success-status-removed", "error-status-removed"],
  "prevent removing response property": ["response-property-removed", "response-restructured"],
  "request and response property enums": ["request-enum-value-removed", "request-enum-added", "response-enum-value-added", "response-enum-removed", "response-enum-opened"],
  "prevent query parameters enum breaking changes": ["request-enum-value-removed", "request-enum-added"],
  "prevent narrowing in response union types": ["response-union-branch-added", "response-type-widened", "response-restructured"],
  "prevent making response property optional": ["response-property-became-optional"],
  "prevent response property type changes": ["response-type-widened", "response-restructured"],
  "prevent request property type changes": ["request-type-narrowed", "request-restructured"],
  "prevent changing request property to required": ["request-property-became-required", "request-property-added-required"],
  "prevent new required query parameters": ["param-added-required", "param-moved"],
  "prevent new required header parameters": ["param-added-required", "param-moved"],
};

/** avaspec rules that remove a whole operation or response: they answer every finding Optic makes inside it. */
export const COVERING: readonly string[] = ["operation-removed", "success-status-removed", "error-status-removed", "response-media-type-removed"];

/** Whether avaspec's operation label (`GET /a/{id}`) is the operation of an Optic pointer (`/paths/~1a~1{x}/get/…`); path parameter names aside. */
function sameOperation(label: string | undefined, pointer: string): boolean {
  const [, , path, method] = pointer.split("/");
  if (!label || !path || !method) return false;
  const norm = (p: string) => p.replace(/\{[^}]*\}/g, "{}");
  return norm(label) === norm(`${method.toUpperCase()} ${unescape(path)}`);
}

/**
 * Optic's union rule reports at the union ("did not overlap with the previous schema") what changed somewhere inside
 * its branches (e.g. `oneOf/1/sync_to_organizations: was made optional`); avaspec reports that change where it is, in
 * the branch's (shared) schema. Such a finding is answered by an avaspec response change at a branch of the union or
 * at one of a branch's properties (when nothing answers it where it is).
 */
export const UNION_RULE = "prevent narrowing in response union types";

type Json = unknown;
const unescape = (s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~");
const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** The pointers a location lands on in `doc`: its own, then each `$ref` target behind it. Segments are walked with `$ref`s followed. */
export function land(doc: Json, pointer: string): string[] {
  const segs = pointer.replace(/^#?\//, "").split("/").map(unescape);
  let node: Json = doc;
  let at = "#";
  const deref = () => {
    const out: string[] = [];
    for (let hops = 0; node && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string" && hops < 32; hops++) {
      at = (node as { $ref: string }).$ref;
      node = get(doc, at);
      out.push(at);
    }
    return out;
  };
  for (const seg of pointer === "" ? [] : segs) {
    deref();
    node = node && typeof node === "object" ? (node as Record<string, Json>)[seg] : undefined;
    at = `${at}/${escape(seg)}`;
  }
  return [at, ...deref()];
}

/** Every pointer a location passes through in `doc`, before and after each `$ref` on its way. */
export function walked(doc: Json, pointer: string): string[] {
  const out: string[] = [];
  let node: Json = doc;
  let at = "#";
  for (const seg of pointer.replace(/^#?\//, "").split("/").map(unescape)) {
    for (let hops = 0; node && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string" && hops < 32; hops++) {
      at = (node as { $ref: string }).$ref;
      node = get(doc, at);
      out.push(at);
    }
    node = node && typeof node === "object" ? (node as Record<string, Json>)[seg] : undefined;
    at = `${at}/${escape(seg)}`;
    out.push(at);
  }
  return out;
}

/** The branches of the union at `pointer` in `doc` (past `$ref`s) and their properties: where avaspec reports what changed in them. */
export function branchesOf(doc: Json, pointer: string): Set<string> {
  const out = new Set<string>();
  const deref = (at: string): [string, Json] => {
    let node = get(doc, at);
    for (let hops = 0; node && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string" && hops < 32; hops++) node = get(doc, (at = (node as { $ref: string }).$ref));
    return [at, node];
  };
  const [at, union] = deref(pointer);
  for (const k of ["oneOf", "anyOf"]) {
    const list = (union as Record<string, Json> | undefined)?.[k];
    if (!Array.isArray(list)) continue;
    list.forEach((_, i) => {
      const [b, branch] = deref(`${at}/${k}/${i}`);
      out.add(b);
      for (const name of Object.keys(((branch as { properties?: object } | undefined)?.properties ?? {}) as object)) out.add(`${b}/properties/${escape(name)}`);
    });
  }
  return out;
}

function get(doc: Json, pointer: string): Json {
  let node = doc;
  for (const seg of pointer.replace(/^#\/?/, "").split("/").filter((s) => s !== "").map(unescape)) node = node && typeof node === "object" ? (node as Record<string, Json>)[seg] : undefined;
  return node;
}

export interface Side {
  name: string;
  oldDoc: Json;
  newDoc: Json;
  optic: OpticFinding[];
  avaspec: Change[];
}

export interface Comparison {
  name: string;
  /** Each Optic finding with the avaspec changes that answer it (index into `breaking`). */
  optic: { finding: OpticFinding; lands: string[]; matchedBy: number[] }[];
  /** avaspec's breaking changes and how many Optic findings each answers. */
  breaking: { change: Change; answers: number }[];
}

export function compare(s: Side): Comparison {
  const breaking = s.avaspec.filter((c) => c.class === "breaking-wire" || c.class === "breaking-code").map((change) => ({ change, answers: 0 }));
  const optic = s.optic.map((finding) => {
    const [spec, pointer] = finding.location.split("#") as ["before" | "after", string];
    const lands = land(spec === "before" ? s.oldDoc : s.newDoc, pointer);
    const rules = OPTIC_RULES[finding.rule] ?? [];
    // the most specific answer: the same change where it lands, else a removal of what holds it, else (a union) a change inside
    const direct: number[] = [];
    const covering: number[] = [];
    const inside: number[] = [];
    const doc = spec === "before" ? s.oldDoc : s.newDoc;
    let reached: Set<string> | undefined;
    breaking.forEach((b, i) => {
      const c = b.change;
      const place = spec === "before" ? c.old : c.new;
      if (rules.includes(c.rule) && place && lands.some((l) => place.pointer === l || place.pointer.startsWith(`${l}/`))) direct.push(i);
      else if (COVERING.includes(c.rule) && c.old && sameOperation(c.operation, pointer) && walked(doc, pointer).some((w) => w === c.old!.pointer || w.startsWith(`${c.old!.pointer}/`))) covering.push(i);
      else if (finding.rule === UNION_RULE && c.rule.startsWith("response-") && place && (reached ??= branchesOf(doc, lands[lands.length - 1]!)).has(place.pointer)) inside.push(i);
    });
    const matchedBy = direct.length > 0 ? direct : covering.length > 0 ? covering : inside;
    for (const i of matchedBy) breaking[i]!.answers++;
    return { finding, lands, matchedBy };
  });
  return { name: s.name, optic, breaking };
}

export const readJson = (file: string): Json => JSON.parse(readFileSync(file, "utf8"));

/** How a leftover finding is named in disagreements.json. */
export const avaspecKey = (c: Change) => `${c.rule} | ${c.operation ?? "(document)"} | ${c.old?.pointer ?? "-"} | ${c.new?.pointer ?? "-"}`;
export const opticKey = (f: OpticFinding) => `${f.rule} | ${f.location}`;

export interface Disagreements {
  about: string;
  categories: {
    id: string;
    /** The tool that reports these findings (the other has none for them). */
    reportedBy: "avaspec" | "optic";
    /** Which tool is right about them. */
    verdict: "avaspec" | "optic" | "both";
    why: string;
    /** Pair name → the findings, as avaspecKey / opticKey name them. */
    findings: Record<string, string[]>;
  }[];
}

/** The findings only one tool reports, each with the category that explains it (or none). */
export function leftovers(cmp: Comparison, d: Disagreements): { tool: "avaspec" | "optic"; key: string; category?: string }[] {
  const out: { tool: "avaspec" | "optic"; key: string; category?: string }[] = [];
  const explain = (tool: "avaspec" | "optic", key: string) => d.categories.find((c) => c.reportedBy === tool && (c.findings[cmp.name] ?? []).includes(key))?.id;
  for (const o of cmp.optic) if (o.matchedBy.length === 0) out.push({ tool: "optic", key: opticKey(o.finding), category: explain("optic", opticKey(o.finding)) });
  for (const b of cmp.breaking) if (b.answers === 0) out.push({ tool: "avaspec", key: avaspecKey(b.change), category: explain("avaspec", avaspecKey(b.change)) });
  return out;
}

export interface Row {
  tool: "optic" | "avaspec";
  rule: string;
  count: number;
  /** Optic rows: findings an avaspec change answers; avaspec rows: changes that answer at least one Optic finding. */
  matched: number;
  /** Found by this tool only and explained in disagreements.json. */
  explained: number;
  /** Optic rows: the avaspec rules that answer (with counts). */
  answeredBy?: string;
}

/** The side-by-side table over some comparisons: one row per rule of either tool. */
export function table(cmps: Comparison[], d: Disagreements): Row[] {
  const rows = new Map<string, Row>();
  const row = (tool: "optic" | "avaspec", rule: string) => {
    const k = `${tool} ${rule}`;
    if (!rows.has(k)) rows.set(k, { tool, rule, count: 0, matched: 0, explained: 0 });
    return rows.get(k)!;
  };
  const by = new Map<string, Map<string, number>>();
  for (const cmp of cmps) {
    const left = new Set(leftovers(cmp, d).filter((l) => l.category).map((l) => `${l.tool} ${l.key}`));
    for (const o of cmp.optic) {
      const r = row("optic", o.finding.rule);
      r.count++;
      if (o.matchedBy.length > 0) {
        r.matched++;
        const m = by.get(o.finding.rule) ?? new Map<string, number>();
        by.set(o.finding.rule, m);
        for (const rule of new Set(o.matchedBy.map((i) => cmp.breaking[i]!.change.rule))) m.set(rule, (m.get(rule) ?? 0) + 1);
      } else if (left.has(`optic ${opticKey(o.finding)}`)) r.explained++;
    }
    for (const b of cmp.breaking) {
      const r = row("avaspec", b.change.rule);
      r.count++;
      if (b.answers > 0) r.matched++;
      else if (left.has(`avaspec ${avaspecKey(b.change)}`)) r.explained++;
    }
  }
  for (const [rule, m] of by) row("optic", rule).answeredBy = [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", ");
  return [...rows.values()].sort((a, b) => (a.tool === b.tool ? b.count - a.count || a.rule.localeCompare(b.rule) : a.tool === "optic" ? -1 : 1));
}

/** The table as aligned text (for the test's log). */
export function formatTable(title: string, rows: Row[]): string {
  const head = ["tool", "rule", "count", "matched", "explained", "answered by (avaspec rule: Optic findings)"];
  const body = rows.map((r) => [r.tool, r.rule, String(r.count), String(r.matched), String(r.explained), r.answeredBy ?? ""]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join(" | ")} |`;
  return [title, line(head), `|${w.map((n, i) => (i >= 2 && i <= 4 ? `${"-".repeat(n + 1)}:` : "-".repeat(n + 2))).join("|")}|`, ...body.map(line)].join("\n");
}
