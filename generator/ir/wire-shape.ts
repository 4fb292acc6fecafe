/**
 * `x-avaspec-wire-shape: { wrappedIn }` on an OpenRPC result: servers may
 * send the documented value as the one member of an object. The result
 * schema may describe that wire form itself, as a branch of a top-level
 * `oneOf`/`anyOf` (`oneOf: [Documented, { properties: { containers:
 * Documented }, required: [containers] }]`), so that tools reading the
 * document (Ajv, Prism, the OpenRPC tools) accept what the server sends.
 * avaspec strips that branch: callers, types, result checks and mocks get the
 * documented value, and the runtime unwraps the other form before checking it.
 */
import { followRefs } from "./resolve.js";
import type { IrObjectLikeSchema, IrSchema } from "./types.js";

type Lookup = (key: string) => IrSchema | undefined;

/** What only documents a schema or says where it was written: two schemas differing only there are the same. */
const DOCUMENTATION = new Set(["pointer", "title", "description", "examples"]);

const structure = (s: IrSchema): string => JSON.stringify(s, (k, v: unknown) => (DOCUMENTATION.has(k) ? undefined : v));

/** Whether a value of the schema may be an object (an untyped schema may be anything). */
export function admitsObject(s: IrSchema, lookup: Lookup): boolean {
  const t = followRefs(s, lookup);
  if (!t) return true;
  if (t.kind === "boolean") return t.value;
  if (t.kind !== "schema") return true;
  if (t.types) return t.types.includes("object");
  if (t.anyOf || t.oneOf) return [...(t.anyOf ?? []), ...(t.oneOf ?? [])].some((b) => admitsObject(b, lookup));
  if (t.items || t.prefixItems) return false;
  if (t.const) return typeof t.const.value === "object" && t.const.value !== null && !Array.isArray(t.const.value);
  return true;
}

/** The wrapped form's member schema, when a branch is an object whose required member is `property`. */
function wrappedMember(branch: IrSchema, property: string, lookup: Lookup): IrSchema | undefined {
  const t = followRefs(branch, lookup);
  if (t?.kind !== "schema" || !(t.types === undefined || (t.types.length === 1 && t.types[0] === "object"))) return undefined;
  if (!t.required?.includes(property)) return undefined;
  return t.properties?.find((p) => p.name === property)?.schema;
}

/**
 * The documented result of a result schema declared with
 * `x-avaspec-wire-shape: { wrappedIn: property }`: the schema itself, or,
 * when its top-level `oneOf`/`anyOf` lists the wrapped form, the other
 * branches. A problem (a sentence) when the two forms could be confused or
 * the listed wrapped form does not hold the documented value.
 */
export function documentedResult(schema: IrSchema, property: string, lookup: Lookup): { documented: IrSchema } | { problem: string; hint: string } {
  const t = followRefs(schema, lookup);
  const keyword = t?.kind === "schema" ? (t.oneOf ? "oneOf" : t.anyOf ? "anyOf" : undefined) : undefined;
  const branches = keyword ? ((t as IrObjectLikeSchema)[keyword] ?? []) : [];
  const wrapped = branches.map((b) => wrappedMember(b, property, lookup));
  let documented = schema;
  let listed: (IrSchema | undefined)[] = [];
  if (keyword && wrapped.some((w) => w !== undefined)) {
    const rest = branches.filter((_, i) => wrapped[i] === undefined);
    if (rest.length === 0) return { problem: `every branch of the result's ${keyword} is the wrapped form { ${JSON.stringify(property)}: … }`, hint: "list the documented result as a branch too" };
    documented = rest.length === 1 ? rest[0]! : { kind: "schema", pointer: t!.pointer, ...(t!.description ? { description: t!.description } : {}), [keyword]: rest };
    listed = wrapped;
  }
  // the wrapped form is told apart by being an object: the documented one must not be able to be one
  if (admitsObject(documented, lookup)) return { problem: `a result wrapped in ${JSON.stringify(property)} cannot be told apart from the documented result, which may be an object`, hint: "the documented result must be an array, a string, a number, a boolean or null; list the wrapped form as a oneOf branch beside it, which avaspec strips" };
  const same = (w: IrSchema) => structure(w) === structure(documented) || structure(followRefs(w, lookup) ?? w) === structure(followRefs(documented, lookup) ?? documented);
  if (listed.some((w) => w !== undefined && !same(w))) return { problem: `the result's wrapped branch holds another schema under ${JSON.stringify(property)} than the documented result`, hint: `its ${JSON.stringify(property)} must be the documented result (the same $ref), which the client returns after unwrapping` };
  return { documented };
}
