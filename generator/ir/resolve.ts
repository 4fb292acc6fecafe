/** Small IR queries shared by the builders and emitters. */
import type { IrDocument, IrNamedSchema, IrObjectLikeSchema, IrRpcOperation, IrSchema } from "./types.js";

const byKeyCache = new WeakMap<IrNamedSchema[], Map<string, IrNamedSchema>>();

/** The named schema with a key: a map built once per schema list (a list searched per lookup made the README of a 22,000-operation document quadratic). */
export function namedSchema(ir: Pick<IrDocument, "schemas">, key: string): IrNamedSchema | undefined {
  let map = byKeyCache.get(ir.schemas);
  if (!map || map.size !== ir.schemas.length) byKeyCache.set(ir.schemas, (map = new Map(ir.schemas.map((s) => [s.key, s]))));
  return map.get(key);
}

/** Follows refs (through `lookup`, by named-schema key) to the schema behind them; undefined for a dangling or cyclic chain. */
export function followRefs(s: IrSchema | undefined, lookup: (key: string) => IrSchema | undefined): IrSchema | undefined {
  let cur = s;
  for (let i = 0; cur?.kind === "ref" && i < 32; i++) cur = lookup(cur.target);
  return cur?.kind === "ref" ? undefined : cur;
}

/** The object schema behind a schema, when it is an object with named properties. */
export function objectWithProperties(s: IrSchema | undefined, lookup: (key: string) => IrSchema | undefined): IrObjectLikeSchema | undefined {
  const t = followRefs(s, lookup);
  return t?.kind === "schema" && (t.types === undefined || (t.types.length === 1 && t.types[0] === "object")) && (t.properties?.length ?? 0) > 0 ? t : undefined;
}

/** The names a JSON-RPC call's params object carries: the params, or for `one-object` the object's fields. */
export function rpcFields(op: IrRpcOperation, lookup: (key: string) => IrSchema | undefined): { name: string; required: boolean }[] {
  if (op.transport.form !== "one-object") return op.params.map((p) => ({ name: p.name, required: p.required }));
  return (objectWithProperties(op.params[0]?.schema, lookup)?.properties ?? []).map((p) => ({ name: p.name, required: p.required }));
}

/** Flags JavaScript can compile a JSON Schema pattern with ("u" preferred), or undefined when it cannot. */
export function patternFlags(pattern: string): "u" | "" | undefined {
  // the generated code must load on every supported Node, not only on the one generating it
  if (newerRegExpSyntax(pattern)) return undefined;
  for (const flags of ["u", ""] as const) {
    try {
      new RegExp(pattern, flags);
      return flags;
    } catch {
      // some valid ECMA-262 patterns use escapes u-mode rejects
    }
  }
  return undefined;
}

/**
 * Regular-expression syntax that Node 24 compiles but Node 20 and 22 (the
 * oldest supported) do not: modifiers such as `(?i:…)` and a capture group
 * name used twice. Undefined when there is none.
 */
export function newerRegExpSyntax(pattern: string): string | undefined {
  // outside character classes and escapes
  const plain = pattern.replace(/\\./g, "__").replace(/\[(?:[^\]\\]|\\.)*\]/g, "__");
  if (/\(\?(?:[ims]+(?:-[ims]*)?|-[ims]+):/.test(plain)) return "inline modifiers like (?i:…)";
  const names = [...plain.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((m) => m[1]!);
  if (new Set(names).size !== names.length) return "a capture group name used twice";
  return undefined;
}
