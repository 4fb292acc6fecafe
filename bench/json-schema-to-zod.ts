/**
 * Builds zod schemas mechanically from the same JSON Schemas the other
 * validators use, for the benchmark only (covers the keywords our specs use).
 */
import { z, type ZodType } from "zod";

type S = Record<string, any> | boolean;

export function toZod(schema: S, root: Record<string, any>, cache = new Map<string, ZodType>()): ZodType {
  if (schema === true) return z.unknown();
  if (schema === false) return z.never();
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref as string;
    if (!cache.has(ref)) {
      const target = ref.slice(2).split("/").reduce((o: any, k: string) => o[k], root);
      cache.set(ref, z.lazy(() => built));
      const built = toZod(target, root, cache);
      cache.set(ref, built);
    }
    return cache.get(ref)!;
  }
  const parts: ZodType[] = [];
  const types: string[] | undefined = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum) parts.push(z.union(schema.enum.map((v: any) => z.literal(v)) as [ZodType, ZodType]).or(z.never()));
  else if (schema.const !== undefined) parts.push(z.literal(schema.const));
  else if (types) {
    const options = types.map((t) => typed(t, schema, root, cache));
    parts.push(options.length === 1 ? options[0]! : z.union(options as [ZodType, ZodType]));
  } else if (schema.properties) parts.push(typed("object", schema, root, cache));
  if (schema.anyOf) parts.push(z.union(schema.anyOf.map((s: S) => toZod(s, root, cache)) as [ZodType, ZodType]));
  if (schema.oneOf) parts.push(z.union(schema.oneOf.map((s: S) => toZod(s, root, cache)) as [ZodType, ZodType]));
  for (const s of schema.allOf ?? []) parts.push(toZod(s, root, cache));
  if (parts.length === 0) return z.unknown();
  return parts.reduce((a, b) => z.intersection(a, b));
}

function typed(t: string, s: Record<string, any>, root: Record<string, any>, cache: Map<string, ZodType>): ZodType {
  switch (t) {
    case "string": {
      let r = z.string();
      if (s.pattern) r = r.regex(new RegExp(s.pattern, "u"));
      if (s.minLength !== undefined) r = r.min(s.minLength);
      if (s.maxLength !== undefined) r = r.max(s.maxLength);
      return r;
    }
    case "integer":
    case "number": {
      let r = t === "integer" ? z.number().int() : z.number();
      if (s.minimum !== undefined) r = r.min(s.minimum);
      if (s.maximum !== undefined) r = r.max(s.maximum);
      return r;
    }
    case "boolean":
      return z.boolean();
    case "null":
      return z.null();
    case "array": {
      let r = z.array(s.items ? toZod(s.items, root, cache) : z.unknown());
      if (s.minItems !== undefined) r = r.min(s.minItems);
      if (s.maxItems !== undefined) r = r.max(s.maxItems);
      return r;
    }
    default: {
      const required = new Set<string>(s.required ?? []);
      const shape: Record<string, ZodType> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        const p = toZod(v as S, root, cache);
        shape[k] = required.has(k) ? p : p.optional();
      }
      const ap = s.additionalProperties;
      if (ap === false) return z.strictObject(shape);
      if (ap && ap !== true) return z.object(shape).catchall(toZod(ap, root, cache));
      return z.looseObject(shape);
    }
  }
}
