/**
 * Values nested deeper than the call stack allows. The generated validators
 * and integer walkers recurse once per level of the value they check, and so
 * do the engine's `JSON.stringify` and `structuredClone`: a body nested some
 * thousands of levels deep (a server's, a caller's, a recursive schema's
 * honest data) overflows the stack, a RangeError in V8 and JavaScriptCore,
 * an InternalError in SpiderMonkey. Rather than rewrite every generated walk
 * without recursion, each runtime entry point that runs one catches the
 * overflow here and reports it as a validation issue saying how deep the
 * value nests, so that every error a caller sees stays an `AvaspecError`.
 */
import type { ValidationIssue } from "./errors.js";

/** The keyword of the issue a value too deep to check gets. */
export const DEPTH_KEYWORD = "depth";

/** Whether `error` is the engine running out of stack. */
export function isStackOverflow(error: unknown): boolean {
  if (error instanceof RangeError) return /call stack/i.test(error.message);
  return error instanceof Error && error.name === "InternalError" && /recursion/i.test(error.message);
}

/** The pointer segment of a key. */
const segment = (k: string | number) => "/" + String(k).replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * How many levels of objects and arrays `value` nests (a scalar: 0), counted
 * with a stack of our own so that it works where recursion fails, each
 * object once however often it is shared; Infinity when the value holds
 * itself. `member` is the own key of `value` under which the deepest nesting
 * lies (undefined for a scalar or an empty container).
 */
export function nesting(value: unknown): { depth: number; member: string | number | undefined } {
  if (typeof value !== "object" || value === null) return { depth: 0, member: undefined };
  const heights = new Map<object, number>();
  const onPath = new Set<object>([value]);
  let member: string | number | undefined;
  // each frame: a container on the current path, its keys, the next one to visit and the tallest child so far
  const frames: { node: object; keys: (string | number)[]; next: number; tallest: number }[] = [{ node: value, keys: keysOf(value), next: 0, tallest: 0 }];
  const lift = (frame: (typeof frames)[number], height: number, key: string | number) => {
    if (height <= frame.tallest) return;
    frame.tallest = height;
    if (frame === frames[0]) member = key;
  };
  while (frames.length > 0) {
    const top = frames[frames.length - 1]!;
    if (top.next === top.keys.length) {
      frames.pop();
      onPath.delete(top.node);
      heights.set(top.node, top.tallest + 1);
      const parent = frames[frames.length - 1];
      if (parent) lift(parent, top.tallest + 1, parent.keys[parent.next - 1]!);
      continue;
    }
    const key = top.keys[top.next++]!;
    const child = (top.node as Record<string | number, unknown>)[key];
    if (typeof child !== "object" || child === null) continue;
    if (onPath.has(child)) return { depth: Infinity, member: frames.length === 1 ? key : (frames[0]!.keys[frames[0]!.next - 1] as string | number) };
    const known = heights.get(child);
    if (known !== undefined) lift(top, known, key);
    else {
      onPath.add(child);
      frames.push({ node: child, keys: keysOf(child), next: 0, tallest: 0 });
    }
  }
  return { depth: heights.get(value)!, member };
}

function keysOf(node: object): (string | number)[] {
  return Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
}

/**
 * The issue of a value at `path` too deep to be checked: at the member of the
 * value under which the deepest nesting lies (a call's parameter, a field of
 * a body), saying how many levels it nests.
 */
export function depthIssue(value: unknown, path: string, what = "checked"): ValidationIssue {
  const { depth: whole, member } = nesting(value);
  // the depth of what is at the issue's path: the member's, one level less than the whole value's
  const depth = member === undefined ? whole : whole - 1;
  const where = member === undefined ? path : path + segment(member);
  const message = depth === Infinity ? `holds itself (a cycle): it cannot be ${what}` : `nests ${depth} levels deep, deeper than can be ${what} here`;
  return { path: where, message, keyword: DEPTH_KEYWORD };
}

/**
 * For a `catch` around a recursive walk of `value` (at `path`): the depth
 * issue when `error` is a stack overflow; any other error is rethrown as it was.
 */
export function overflowIssue(error: unknown, value: unknown, path: string, what?: string): ValidationIssue {
  if (!isStackOverflow(error)) throw error;
  return depthIssue(value, path, what);
}

/**
 * `JSON.stringify(value)` for an error's `rawBody` and the like: a value too
 * deep to write (or that JSON cannot hold: a cycle, a bigint) comes back as a
 * note saying so, not an exception.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch (error) {
    if (error instanceof TypeError) return `(not JSON: ${error.message})`;
    if (!isStackOverflow(error)) throw error;
    return `(a JSON value ${nesting(value).depth} levels deep: too deep to write out)`;
  }
}
