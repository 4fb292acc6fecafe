/**
 * Values a server no longer takes (`x-avaspec-deprecated-values` in the
 * spec): a descriptor of an operation whose params can carry one holds a
 * watch made here, and the transports give it the params and the client's
 * deprecation notice (`deprecationWarnings`), so the first request carrying
 * the value warns once. Only such descriptors import this module: a bundle
 * of operations without deprecated values does not hold it.
 */
import { hasOwn } from "./validate.js";

/** One deprecated value and what its first use warns. */
export type DeprecatedValue = readonly [value: string | number | boolean, message: string];

/** A path into a params object: property names, `null` for any item of an array or value of an object. */
export type ValuePath = readonly (string | null)[];

/** Tells `warn` the message of every deprecated value the params carry (the notice itself warns once). */
export type ValueWatch = (params: unknown, warn: (message: string) => void) => void;

function holds(x: unknown, path: ValuePath, i: number, value: unknown): boolean {
  if (i === path.length) return x === value;
  if (typeof x !== "object" || x === null) return false;
  const key = path[i]!;
  if (key === null) return Object.values(x).some((v) => holds(v, path, i + 1, value));
  return hasOwn(x, key) && holds((x as Record<string, unknown>)[key], path, i + 1, value);
}

/** The watch of one operation: each deprecated value with the paths where its params can carry it. */
export function valueNotices(entries: readonly (readonly [DeprecatedValue, readonly ValuePath[]])[]): ValueWatch {
  return (params, warn) => {
    for (const [[value, message], paths] of entries) if (paths.some((p) => holds(params, p, 0, value))) warn(message);
  };
}
