/**
 * The number policy in the type names. A named response type that holds an
 * integer takes the policy as a type parameter, `Block<N extends Numbers =
 * "string">`, its integers written `Numbered<Uint, N>`, so a client with
 * `numbers: "bigint"` returns `Block<"bigint">`: hovers and errors name the
 * types (`Block<"bigint">`, `hash: Hash32`, `number: bigint`) where a mapped
 * type over the wire type (`Decoded<Block, "bigint">`) printed every member
 * spelt out. `Block` alone stays the wire type, as before.
 *
 * Which types take the parameter is read from what the type printer writes,
 * not from a second description of the schema keywords: each named schema
 * is printed once with a recording context (the integers it writes, the
 * names it refers to), and the references close the set. A named schema that
 * is one integer string (`Uint`) keeps no parameter: a reference to it is
 * `Numbered<Uint, N>`, so `Uint` keeps its name under the wire policy.
 * Request shapes (`…Input`, params) stay wire types: `Encodable<…>` widens them.
 */
import { httpResult, schemasOf } from "../../ir/results.js";
import type { IrDocument, IrNamedSchema, IrOperation, IrSchema } from "../../ir/types.js";
import { toTypeNode, type TypeContext } from "./type-node.js";

/** A named type that takes the policy (`generic`), or is one integer (`leaf`, wrapped where it is named). */
export type NumberedKind = "generic" | "leaf";

/** The type parameter's name in declarations and in the client's types. */
export const NUMBERS_PARAM = "N";
/** A generic declaration's parameter list. */
export const NUMBERS_DECLARATION = `<${NUMBERS_PARAM} extends Numbers = "string">`;

const cache = new WeakMap<readonly IrNamedSchema[], ReadonlyMap<string, NumberedKind>>();

/** A pure integer string (following `$ref` aliases): what prints as `string & IntegerString<…>` and nothing else. */
function isLeaf(s: IrSchema, byKey: ReadonlyMap<string, IrNamedSchema>, seen = new Set<string>()): boolean {
  if (s.kind === "ref") {
    const target = byKey.get(s.target);
    if (!target || seen.has(s.target)) return false;
    seen.add(s.target);
    return isLeaf(target.schema, byKey, seen);
  }
  if (s.kind !== "schema" || s.integer === undefined || s.types?.length !== 1 || s.format === "binary" || s.const || s.enum || s.knownValues || s.allOf || s.anyOf || s.oneOf) return false;
  return s.types[0] === (s.integer.encoding === "number" ? "integer" : "string") || (s.integer.encoding === "number" && s.types[0] === "number");
}

/** What printing a schema with the policy writes: whether it names `N` itself, and the named types it refers to. */
function recorded(s: IrSchema): { direct: boolean; refs: Set<string> } {
  const refs = new Set<string>();
  let direct = false;
  const ctx: TypeContext = {
    direction: "response",
    numbers: NUMBERS_PARAM,
    refName: (target) => (refs.add(target), "X"),
    onMarker: (m) => {
      if (m === "Numbered") direct = true;
    },
    // what the printer writes without the policy names no `N`
    wire: { direction: "response", refName: () => "X" },
  };
  toTypeNode(s, ctx);
  return { direct, refs };
}

/** The named schemas (by key) whose response type takes the policy, or is one integer. */
export function numberedTypes(schemas: readonly IrNamedSchema[]): ReadonlyMap<string, NumberedKind> {
  const known = cache.get(schemas);
  if (known) return known;
  const byKey = new Map(schemas.map((s) => [s.key, s]));
  const kinds = new Map<string, NumberedKind>();
  const pending: [string, Set<string>][] = [];
  for (const s of schemas) {
    if (isLeaf(s.schema, byKey)) kinds.set(s.key, "leaf");
    else {
      const { direct, refs } = recorded(s.schema);
      if (direct) kinds.set(s.key, "generic");
      else if (refs.size > 0) pending.push([s.key, refs]);
    }
  }
  // a type that names a numbered type is numbered: a fixpoint over the references (cycles included)
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, refs] of pending) {
      if (kinds.has(key) || ![...refs].some((r) => kinds.has(r))) continue;
      kinds.set(key, "generic");
      changed = true;
    }
  }
  cache.set(schemas, kinds);
  return kinds;
}

/**
 * A response context that writes the policy: integers as `Numbered<…, N>`,
 * numbered types as `X<N>`, one-integer types as `Numbered<X, N>`. `wire`
 * keeps the context without it (pattern properties, which the integer
 * walkers do not follow, stay wire types).
 */
export function withNumbers(ctx: TypeContext, schemas: readonly IrNamedSchema[]): TypeContext {
  const kinds = numberedTypes(schemas);
  return {
    ...ctx,
    numbers: NUMBERS_PARAM,
    wire: ctx,
    refName: (target) => {
      const name = ctx.refName(target);
      const kind = kinds.get(target);
      if (kind === undefined) return name;
      ctx.onMarker?.("Numbered");
      return kind === "generic" ? `${name}<${NUMBERS_PARAM}>` : `Numbered<${name}, ${NUMBERS_PARAM}>`;
    },
  };
}

/** Whether a schema's response type, written with the policy, names `N` (so a declaration of it takes the parameter). */
export function usesNumbers(s: IrSchema, schemas: readonly IrNamedSchema[]): boolean {
  const kinds = numberedTypes(schemas);
  const { direct, refs } = recorded(s);
  return direct || [...refs].some((r) => kinds.has(r));
}

/**
 * How an operation's result type follows the policy: the named type's kind
 * when the result is one (`T.Block<N>`), else the client's own alias of it is
 * generic when its type names the policy.
 */
export function resultKind(ir: IrDocument, op: IrOperation): NumberedKind | undefined {
  const named = ir.schemas.find((s) => s.name === op.names.response);
  if (named) return numberedTypes(ir.schemas).get(named.key);
  const schemas = op.protocol === "http" ? httpResult(op, schemasOf(ir)).schemas : op.result ? [op.result.schema] : [];
  return schemas.some((s) => usesNumbers(s, ir.schemas)) ? "generic" : undefined;
}

/** Whether a module's schemas or operations hold a JSON integer that may pass 2^53 (format int64): its README says how they are read. */
export function holdsJsonIntegers(ir: IrDocument): boolean {
  const seen = new Set<object>();
  const visit = (x: unknown): boolean => {
    if (x === null || typeof x !== "object" || seen.has(x)) return false;
    seen.add(x);
    if ((x as { integer?: { encoding?: string } }).integer?.encoding === "number") return true;
    return Object.values(x).some(visit);
  };
  return visit(ir.schemas) || visit(ir.operations);
}

/** A named response type under the policy: `X<N>`, `Numbered<X, N>` or `X`, by its kind. */
export function numberedName(name: string, kind: NumberedKind | undefined): string {
  if (kind === "generic") return `${name}<${NUMBERS_PARAM}>`;
  if (kind === "leaf") return `Numbered<${name}, ${NUMBERS_PARAM}>`;
  return name;
}
