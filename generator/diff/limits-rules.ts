/**
 * The diff rules for `x-avaspec-limits` (ADR 0028), on operations and on
 * documents and their servers. A limit that lets less through than before (a
 * higher cost, a smaller range, batch or answer, fewer requests per second, a
 * plan's smaller quota per second) is breaking-wire: calls that passed may now
 * be refused, and a budget paces them more. One that lets more through is
 * documentation. A plan that is gone is breaking-code (`createBudget(limits,
 * { plan })` refuses a name the document no longer declares), as is the
 * exported constant of a document's limits; new ones are additions.
 */
import type { IrDocumentLimits, IrLimits } from "../ir/types.js";
import type { ChangeAt, ChangeList } from "./changes.js";

const LIMITS_KEY = "x-avaspec-limits";

/** Each figure a declaration sets, by name, with the way in which it lets less through (the quotas of the plans in `plans` only). */
function figures(l: IrLimits | undefined, plans: ReadonlySet<string>): Map<string, { value: number; worseWhen: "higher" | "lower" }> {
  const out = new Map<string, { value: number; worseWhen: "higher" | "lower" }>();
  if (!l) return out;
  const lower = (name: string, value: number | undefined) => {
    if (value !== undefined) out.set(name, { value, worseWhen: "lower" });
  };
  if (l.cost !== undefined) out.set("cost", { value: l.cost, worseWhen: "higher" });
  lower("requestsPerSecond", l.requestsPerSecond);
  lower("batch.maxItems", l.batch?.maxItems);
  lower("batch.maxResponseBytes", l.batch?.maxResponseBytes);
  lower("range.maxSpan", l.range?.maxSpan);
  lower("range.maxResults", l.range?.maxResults);
  for (const p of (l.plans ?? []).filter((x) => plans.has(x.name))) p.quotas.forEach((q, i) => lower(`plans.${p.name}.quotas[${i}] (units per second)`, q.quota / q.window));
  return out;
}

/** What is absent lets everything through, but a cost: absent, one unit. */
const unset = (name: string) => (name === "cost" ? 1 : Infinity);
const shown = (v: number) => (v === Infinity ? "no limit" : String(Math.round(v * 1000) / 1000));

/** Compares two declarations (either may be absent) of one operation, document or server (`plans`: false for a server's, read over its document's). */
export function compareLimits(changes: ChangeList, o: IrLimits | undefined, n: IrLimits | undefined, label: string, at: ChangeAt, plans = true): void {
  // a plan on one side only is added or removed below, its quotas not compared
  const names = (l: IrLimits | undefined) => new Set((l?.plans ?? []).map((p) => p.name));
  const [op, np] = [names(o), names(n)];
  const both = new Set([...op].filter((p) => np.has(p)));
  const [of, nf] = [figures(o, both), figures(n, both)];
  for (const name of new Set([...of.keys(), ...nf.keys()])) {
    const before = of.get(name)?.value ?? unset(name);
    const after = nf.get(name)?.value ?? unset(name);
    if (before === after) continue;
    const worseWhen = (of.get(name) ?? nf.get(name))!.worseWhen;
    const worse = worseWhen === "higher" ? after > before : after < before;
    const message = `${label}: ${LIMITS_KEY} ${name} is ${shown(after)} (was ${shown(before)})${worse ? ": calls that passed may be refused, and a budget paces them more" : ""}`;
    changes.add(worse ? "limit-tightened" : "limit-loosened", worse ? "breaking-wire" : "documentation", message, at);
  }
  if (!plans) return;
  for (const p of op) if (!np.has(p)) changes.add("limit-plan-removed", "breaking-code", `${label}: plan "${p}" is no longer declared: createBudget(…, { plan: "${p}" }) refuses it`, at);
  for (const p of np) if (!op.has(p)) changes.add("limit-plan-added", "addition", `${label}: declares plan "${p}"`, at);
}

/**
 * The documents' declarations, matched by their group in the client (the
 * constant's name also holds the client's, which two files compared may not
 * share), and their servers' by URL.
 */
export function diffDocumentLimits(changes: ChangeList): void {
  const byGroup = (list: IrDocumentLimits[] | undefined) => new Map((list ?? []).map((d) => [d.group.join("."), d]));
  const [olds, news] = [byGroup(changes.oldSide.ir.limits), byGroup(changes.newSide.ir.limits)];
  for (const [group, o] of olds) {
    const n = news.get(group);
    const name = (n ?? o).name ?? (group || "the document");
    if (!n) {
      changes.add("limits-removed", "breaking-code", `${name}: the document no longer declares ${LIMITS_KEY}, and the constant is no longer generated`, { old: [o.file, o.pointer] });
      continue;
    }
    const at: ChangeAt = { old: [o.file, o.pointer], new: [n.file, n.pointer] };
    compareLimits(changes, o.limits, n.limits, name, at);
    // what applies on a server that declares some: its members over the document's
    for (const s of new Set([...o.servers.map((x) => x.url), ...n.servers.map((x) => x.url)])) {
      const [os, ns] = [o.servers.find((x) => x.url === s)?.limits, n.servers.find((x) => x.url === s)?.limits];
      // the document's plans are compared above, once
      const over = (root: IrLimits, own: IrLimits | undefined): IrLimits => ({ ...root, plans: own?.plans ?? [], ...own, batch: { ...root.batch, ...own?.batch } });
      if (os || ns) compareLimits(changes, over(o.limits, os), over(n.limits, ns), `${name} on ${s}`, at, false);
    }
  }
  for (const [group, n] of news) if (!olds.has(group)) changes.add("limits-added", "addition", `${n.name ?? (group || "the document")}: the document declares ${LIMITS_KEY} (a new constant)`, { new: [n.file, n.pointer] });
}

/** An operation's declaration: at its `x-avaspec-limits`, or at the operation on a side without one. */
export const limitsPointer = (pointer: string, limits: IrLimits | undefined) => (limits ? `${pointer}/${LIMITS_KEY}` : pointer);
