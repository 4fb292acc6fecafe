/**
 * A greedy shrinker for a failing document: it deletes parts (operations,
 * methods, schemas, properties, parameters, enum values, any member or list
 * element, outermost first) and simplifies names (operationIds, method and
 * parameter names, property keys, schema names, enum values, tags) while the
 * failure still reproduces, until nothing more goes or the budget runs out.
 * Whether it reproduces is the caller's predicate (the failing step, re-run
 * on the one document), and a shrunk document stays valid (the caller's
 * `valid`, see valid.ts).
 */
import type { Json, JsonObject } from "./arbitrary.js";

type Path = (string | number)[];

const isObj = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function put(obj: JsonObject, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function at(root: Json, path: Path): Json | undefined {
  let cur: Json | undefined = root;
  for (const k of path) {
    if (Array.isArray(cur) && typeof k === "number") cur = cur[k];
    else if (isObj(cur) && typeof k === "string" && Object.hasOwn(cur, k)) cur = cur[k];
    else return undefined;
  }
  return cur;
}

/** Every path in the tree, outermost first (breadth-first). */
function paths(root: Json): Path[] {
  const out: Path[] = [];
  const queue: Path[] = [[]];
  while (queue.length > 0) {
    const p = queue.shift()!;
    const v = at(root, p);
    const children: Path[] = Array.isArray(v) ? v.map((_, i) => [...p, i]) : isObj(v) ? Object.keys(v).map((k) => [...p, k]) : [];
    out.push(...children);
    queue.push(...children);
  }
  return out;
}

function remove(root: Json, path: Path): boolean {
  const parent = at(root, path.slice(0, -1));
  const last = path.at(-1)!;
  if (Array.isArray(parent) && typeof last === "number" && last < parent.length) {
    parent.splice(last, 1);
    return true;
  }
  if (isObj(parent) && typeof last === "string" && Object.hasOwn(parent, last)) {
    delete parent[last];
    return true;
  }
  return false;
}

const escapeToken = (t: string) => encodeURIComponent(t.replace(/~/g, "~0").replace(/\//g, "~1"));

/** Visits every `$ref` holder in the tree. */
function eachRef(root: Json, visit: (holder: JsonObject, path: Path) => void, path: Path = []): void {
  if (Array.isArray(root)) root.forEach((v, i) => eachRef(v, visit, [...path, i]));
  else if (isObj(root)) {
    if (typeof root["$ref"] === "string") visit(root, path);
    for (const [k, v] of Object.entries(root)) eachRef(v, visit, [...path, k]);
  }
}

/** Deletes a component and what refers to it: schema refs become `{}`, other refs (parameters, responses, errors…) are removed. */
function removeComponent(doc: JsonObject, kind: string, name: string): void {
  const prefix = `#/components/${kind}/${escapeToken(name)}`;
  const holders: Path[] = [];
  eachRef(doc, (h, p) => {
    const ref = h["$ref"] as string;
    if (ref === prefix || ref.startsWith(prefix + "/")) holders.push(p);
  });
  remove(doc, ["components", kind, name]);
  // deepest first, so earlier paths stay valid
  for (const p of holders.reverse()) {
    if (kind === "schemas") {
      const parent = at(doc, p.slice(0, -1));
      const last = p.at(-1)!;
      if (p.length === 0) continue;
      if (Array.isArray(parent)) parent[last as number] = {};
      else if (isObj(parent)) put(parent, last as string, {});
    } else remove(doc, p);
  }
}

function renameComponent(doc: JsonObject, kind: string, from: string, to: string): void {
  const holder = at(doc, ["components", kind]);
  if (!isObj(holder)) return;
  const entries = Object.entries(holder).map(([k, v]) => [k === from ? to : k, v] as const);
  for (const k of Object.keys(holder)) delete holder[k];
  for (const [k, v] of entries) put(holder, k, v);
  const prefix = `#/components/${kind}/${escapeToken(from)}`;
  eachRef(doc, (h) => {
    const ref = h["$ref"] as string;
    if (ref === prefix || ref.startsWith(prefix + "/")) h["$ref"] = `#/components/${kind}/${escapeToken(to)}${ref.slice(prefix.length)}`;
  });
  // discriminator mappings name schemas too
  const walk = (v: Json): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObj(v)) {
      if (kind === "schemas" && isObj(v["discriminator"]) && isObj(v["discriminator"]["mapping"])) {
        const m = v["discriminator"]["mapping"];
        for (const k of Object.keys(m)) if (m[k] === from) m[k] = to;
      }
      Object.values(v).forEach(walk);
    }
  };
  walk(doc);
}

function renameKey(obj: JsonObject, from: string, to: string): void {
  const entries = Object.entries(obj).map(([k, v]) => [k === from ? to : k, v] as const);
  for (const k of Object.keys(obj)) delete obj[k];
  for (const [k, v] of entries) put(obj, k, v);
}

/** Keys whose string values are names worth simplifying. */
const NAME_VALUES = new Set(["name", "operationId", "propertyName"]);

export interface ShrinkResult {
  doc: JsonObject;
  tries: number;
  accepted: number;
  /** True when the budget ran out before a pass changed nothing. */
  exhausted: boolean;
}

/**
 * Shrinks `original` while `fails` holds; `valid` guards every candidate
 * before it is tried (a change that makes the document invalid is not one).
 */
export async function shrink(original: JsonObject, fails: (doc: JsonObject) => Promise<boolean>, valid: (doc: JsonObject) => boolean, budget: { ms: number; tries: number }): Promise<ShrinkResult> {
  const deadline = performance.now() + budget.ms;
  let best = clone(original);
  let tries = 0;
  let accepted = 0;
  const out = () => performance.now() > deadline || tries >= budget.tries;
  const attempt = async (change: (doc: JsonObject) => boolean): Promise<boolean> => {
    if (out()) return false;
    const candidate = clone(best);
    if (!change(candidate)) return false;
    if (JSON.stringify(candidate) === JSON.stringify(best) || !valid(candidate)) return false;
    tries++;
    if (await fails(candidate)) {
      best = candidate;
      accepted++;
      return true;
    }
    return false;
  };
  /** Deletes some children of a container; components take what refers to them along. */
  const removeChildren = (doc: JsonObject, container: Path, keys: (string | number)[]): boolean => {
    const component = container.length === 2 && container[0] === "components";
    // array indices from the last, so the others stay put
    for (const k of [...keys].sort((a, b) => (typeof a === "number" && typeof b === "number" ? b - a : 0))) {
      if (component) removeComponent(doc, String(container[1]), String(k));
      else if (!remove(doc, [...container, k])) return false;
    }
    return true;
  };
  const childKeys = (path: Path): (string | number)[] => {
    const v = at(best, path);
    return Array.isArray(v) ? v.map((_, i) => i) : isObj(v) ? Object.keys(v) : [];
  };
  let fresh = 0;
  for (let progress = true; progress && !out(); ) {
    progress = false;
    // 1. deletions, outermost containers first; in each, halves, then quarters… then single members (as ddmin does)
    const containers: Path[] = [[], ...paths(best).filter((p) => typeof at(best, p) === "object" && at(best, p) !== null)];
    for (const container of containers) {
      if (out()) break;
      if (at(best, container) === undefined) continue;
      for (let chunk = Math.ceil(childKeys(container).length / 2); chunk >= 1 && !out(); chunk = chunk === 1 ? 0 : Math.ceil(chunk / 2)) {
        for (let start = 0; start < childKeys(container).length && !out(); ) {
          const keys = childKeys(container).slice(start, start + chunk);
          if (await attempt((doc) => removeChildren(doc, container, keys))) progress = true;
          else start += chunk;
        }
      }
    }
    // 1b. OpenAPI paths: a template segment goes with its path parameters; literal segments become plain
    for (const path of isObj(best["paths"]) ? Object.keys(best["paths"]) : []) {
      const segments = path.split("/");
      for (let i = 1; i < segments.length && !out(); i++) {
        const template = /^\{([^}]*)\}$/.exec(segments[i]!)?.[1];
        if (template === undefined && segments[i] === `s${i}`) continue;
        const to = [...segments.slice(0, i), ...(template !== undefined ? [] : [`s${i}`]), ...segments.slice(i + 1)].join("/") || "/";
        const changed = await attempt((doc) => {
          const paths = doc["paths"] as JsonObject;
          if (Object.hasOwn(paths, to)) return false;
          renameKey(paths, path, to);
          if (template === undefined) return true;
          const drop = (list: Json[]) => list.filter((p) => !(isObj(p) && p["in"] === "path" && p["name"] === template));
          const item = paths[to] as JsonObject;
          for (const holder of [item, ...Object.values(item)]) if (isObj(holder) && Array.isArray(holder["parameters"])) holder["parameters"] = drop(holder["parameters"]);
          return true;
        });
        // the path key changed: its segments are read again on the next pass
        if (changed) {
          progress = true;
          break;
        }
      }
    }
    // 2. names: component keys, property keys and name-like values become short plain names
    for (const p of paths(best)) {
      if (out()) break;
      const parentPath = p.slice(0, -1);
      const key = p.at(-1);
      const value = at(best, p);
      const parent = at(best, parentPath);
      if (value === undefined) continue;
      const simple = () => `n${++fresh}`;
      if (parentPath.length === 2 && parentPath[0] === "components" && typeof key === "string" && !/^N\d+$/.test(key)) {
        if (await attempt((doc) => (renameComponent(doc, String(parentPath[1]), key, `N${++fresh}`), true))) progress = true;
      } else if (parentPath.at(-1) === "properties" && isObj(parent) && typeof key === "string" && !/^n\d+$/.test(key)) {
        const to = simple();
        const ok = await attempt((doc) => {
          const holder = at(doc, parentPath);
          const schema = at(doc, parentPath.slice(0, -1));
          if (!isObj(holder)) return false;
          renameKey(holder, key, to);
          if (isObj(schema) && Array.isArray(schema["required"])) schema["required"] = schema["required"].map((r) => (r === key ? to : r));
          return true;
        });
        if (ok) progress = true;
      } else if (typeof value === "string" && !/^n\d+$/.test(value) && ((typeof key === "string" && NAME_VALUES.has(key)) || parentPath.at(-1) === "enum" || parentPath.at(-1) === "tags" || parentPath.at(-1) === "required")) {
        if (
          await attempt((doc) => {
            const holder = at(doc, parentPath);
            if (Array.isArray(holder)) holder[key as number] = simple();
            else if (isObj(holder)) put(holder, key as string, simple());
            return true;
          })
        )
          progress = true;
      }
    }
  }
  return { doc: best, tries, accepted, exhausted: out() };
}
