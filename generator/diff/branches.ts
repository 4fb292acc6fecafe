/**
 * The branches of a `oneOf`/`anyOf` in two versions, paired so that each old
 * branch is compared with the new branch that is the same variant. A branch
 * that names a schema is that schema (a renamed one is found by its
 * structure); an inline branch is found by its content: first one of the
 * same structure, then one with the same tag (its `const`, or the values of
 * the properties that tell the variants apart, such as a discriminator), and
 * last, among branches without a tag, by order. So a branch removed from the
 * middle is that branch, and the later ones are not each reported changed.
 */
import type { IrNamedSchema, IrObjectLikeSchema, IrSchema, JsonValue } from "../ir/types.js";

type ByKey = Map<string, IrNamedSchema>;

/** What only documents a schema, or says where it was written. */
const DOCUMENTATION = new Set(["pointer", "title", "description", "examples"]);

/**
 * Structure of a schema without what only documents it (for "the same
 * schema under another name"), its refs replaced by their targets' structure
 * six levels deep. Each level is built once from the IR: a recursive schema
 * ends at the depth limit.
 */
export function shape(s: IrSchema, byKey: ByKey, depth = 0): unknown {
  if (depth > 6) return "…";
  if (s.kind === "ref") {
    const t = byKey.get(s.target);
    return t ? shape(t.schema, byKey, depth + 1) : "?";
  }
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (typeof v !== "object" || v === null) return v;
    if ((v as { kind?: unknown }).kind === "ref") return depth < 6 ? shape(v as IrSchema, byKey, depth + 1) : "…";
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!DOCUMENTATION.has(k) && x !== undefined) out[k] = strip(x);
    return out;
  };
  return strip(s);
}

/** The schema behind a chain of refs (undefined when it dangles or cycles). */
function behind(s: IrSchema, byKey: ByKey): Exclude<IrSchema, { kind: "ref" }> | undefined {
  let cur: IrSchema | undefined = s;
  for (let hops = 0; cur?.kind === "ref" && hops < 64; hops++) cur = byKey.get(cur.target)?.schema;
  return cur === undefined || cur.kind === "ref" ? undefined : cur;
}

/** The one value a schema allows by `const` or a one-value `enum`. */
function single(s: IrSchema | undefined, byKey: ByKey): { value: JsonValue } | undefined {
  const t = s && behind(s, byKey);
  if (t?.kind !== "schema") return undefined;
  if (t.const) return t.const;
  return t.enum?.length === 1 ? { value: t.enum[0]! } : undefined;
}

/**
 * What tells an inline branch from its siblings, in words: its own single
 * value (`const "b"`), or the single values of its properties (the
 * discriminator's alone when the union has one: `type "dog"`). Undefined when
 * it has none.
 */
function tagOf(b: IrSchema, byKey: ByKey, discriminator: string | undefined): string | undefined {
  const own = single(b, byKey);
  if (own) return `const ${JSON.stringify(own.value)}`;
  const t = behind(b, byKey);
  if (t?.kind !== "schema") return undefined;
  const tags = (t.properties ?? [])
    .filter((p) => discriminator === undefined || p.name === discriminator)
    .flatMap((p) => {
      const v = single(p.schema, byKey);
      return v ? [`${p.name} ${JSON.stringify(v.value)}`] : [];
    })
    .sort();
  return tags.length > 0 ? tags.join(", ") : undefined;
}

export interface BranchPairing {
  /** [old index, new index], by new index. */
  pairs: [number, number][];
  /** Old branches without a partner, and new ones. */
  gone: number[];
  fresh: number[];
  /** How each branch is named in a message: the schema it names, or `branch 1 (const "b")`. */
  oldLabel(i: number): string;
  newLabel(j: number): string;
}

export function pairBranches(o: IrObjectLikeSchema, n: IrObjectLikeSchema, ob: IrSchema[], nb: IrSchema[], oldByKey: ByKey, newByKey: ByKey): BranchPairing {
  const pairs: [number, number][] = [];
  const usedO = new Set<number>();
  const usedN = new Set<number>();
  const pair = (i: number, j: number) => (pairs.push([i, j]), usedO.add(i), usedN.add(j));
  const nameOf = (b: IrSchema, byKey: ByKey) => (b.kind === "ref" ? byKey.get(b.target)?.name : undefined);
  const oNames = ob.map((b) => nameOf(b, oldByKey));
  const nNames = nb.map((b) => nameOf(b, newByKey));
  const oShapes = ob.map((b) => JSON.stringify(shape(b, oldByKey)));
  const nShapes = nb.map((b) => JSON.stringify(shape(b, newByKey)));
  const oTags = ob.map((b, i) => (oNames[i] === undefined ? tagOf(b, oldByKey, o.discriminator?.propertyName) : undefined));
  const nTags = nb.map((b, j) => (nNames[j] === undefined ? tagOf(b, newByKey, n.discriminator?.propertyName) : undefined));
  /** Pairs each unpaired old branch `fits` with the first unpaired new one it matches. */
  const match = (fits: (i: number, j: number) => boolean) =>
    ob.forEach((_, i) => {
      if (usedO.has(i)) return;
      const j = nb.findIndex((_, j) => !usedN.has(j) && fits(i, j));
      if (j >= 0) pair(i, j);
    });
  // named branches: by name, then a renamed one by its structure
  match((i, j) => oNames[i] !== undefined && oNames[i] === nNames[j]);
  match((i, j) => oNames[i] !== undefined && nNames[j] !== undefined && oShapes[i] === nShapes[j]);
  // inline branches: by structure, by tag, then the untagged ones in order
  const inline = (i: number, j: number) => oNames[i] === undefined && nNames[j] === undefined;
  match((i, j) => inline(i, j) && oShapes[i] === nShapes[j]);
  match((i, j) => inline(i, j) && oTags[i] !== undefined && oTags[i] === nTags[j]);
  match((i, j) => inline(i, j) && oTags[i] === undefined && nTags[j] === undefined);
  const label = (names: (string | undefined)[], tags: (string | undefined)[]) => (i: number) => names[i] ?? `branch ${i}${tags[i] !== undefined ? ` (${tags[i]})` : ""}`;
  return {
    pairs: pairs.sort((a, b) => a[1] - b[1]),
    gone: ob.map((_, i) => i).filter((i) => !usedO.has(i)),
    fresh: nb.map((_, j) => j).filter((j) => !usedN.has(j)),
    oldLabel: label(oNames, oTags),
    newLabel: label(nNames, nTags),
  };
}
