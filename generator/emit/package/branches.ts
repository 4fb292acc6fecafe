/**
 * Which branch of a `oneOf`/`anyOf` a README example's object is meant for,
 * so that it is fitted to that branch's type and not to another's: a mixed
 * list (one ERC-20 sub-query beside a native-balance one) keeps each item's
 * own members. An object whose members a branch fixes to other values (a
 * `type` enum of one value, a `const`) is not that branch's; among the rest
 * the one knowing most of its members wins (the first on a tie).
 */
import { followRefs } from "../../ir/resolve.js";
import type { IrObjectLikeSchema, IrSchema, JsonValue } from "../../ir/types.js";

type Lookup = (key: string) => IrSchema | undefined;

/** A branch's members by name: its own and its allOf parts'. */
function membersOf(s: IrSchema, lookup: Lookup, depth = 0): Map<string, IrSchema> {
  const out = new Map<string, IrSchema>();
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema" || depth > 8) return out;
  for (const p of t.properties ?? []) if (!out.has(p.name)) out.set(p.name, p.schema);
  for (const part of t.allOf ?? []) for (const [k, v] of membersOf(part, lookup, depth + 1)) if (!out.has(k)) out.set(k, v);
  return out;
}

/** The one value a member's schema allows, when it allows one (`const`, or an `enum` of one value). */
function fixedValue(s: IrSchema, lookup: Lookup): { value: JsonValue } | undefined {
  const t = followRefs(s, lookup) as IrObjectLikeSchema | undefined;
  if (t?.kind !== "schema") return undefined;
  if (t.const) return t.const;
  return t.enum?.length === 1 ? { value: t.enum[0]! } : undefined;
}

/** The branch an example object fits best, or undefined when none can take it (every branch fixes a member to another value). */
export function branchFor(value: Record<string, JsonValue>, branches: readonly IrSchema[], lookup: Lookup): IrSchema | undefined {
  let best: { branch: IrSchema; score: number } | undefined;
  for (const branch of branches) {
    const members = membersOf(branch, lookup);
    let score = 0;
    let fits = true;
    for (const [k, v] of Object.entries(value)) {
      const m = members.get(k);
      if (m === undefined) {
        score--;
        continue;
      }
      const fixed = fixedValue(m, lookup);
      if (fixed && JSON.stringify(fixed.value) !== JSON.stringify(v)) fits = false;
      score++;
    }
    if (fits && (best === undefined || score > best.score)) best = { branch, score };
  }
  return best?.branch;
}
