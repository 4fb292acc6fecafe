/**
 * `target.push(...items)` passes every item as an argument, and V8 overflows
 * its stack at about 100,000 arguments: a spec with 10,000 schemas has more
 * validator declarations than that. This appends one at a time.
 */
export function append<T>(target: T[], ...lists: Iterable<T>[]): T[] {
  for (const items of lists) for (const x of items) target.push(x);
  return target;
}
