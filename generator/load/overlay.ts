/**
 * Overlays (OpenAPI Overlay Specification 1.0 and 1.1) applied to a loaded document,
 * OpenAPI or OpenRPC alike, before it is bundled and validated: what a user
 * writes to patch a vendor's document without forking it.
 *
 * Each action's target is a JSONPath (RFC 9535, by json-p3); `remove: true`
 * takes the selected nodes out of their object or array, and `update` merges
 * into them: objects key by key and recursively, arrays by appending (an
 * array update is concatenated), anything else is replaced. The merge rules
 * are the ones Overlay 1.1 spells out for what 1.0 left loose. Overlay 1.1's
 * `copy` merges the one node its own JSONPath selects, as the document is at
 * that action, the same way (remove wins over update, update over copy).
 *
 * Positions stay true. The document is changed in place, so every node the
 * vendor wrote keeps its identity, and a node's place in the vendor's file is
 * found from its identity, not its pointer (a removal shifts array indices).
 * What an action inserted is located in the overlay, at that action's
 * `update` (a node below it at its own place there), or at its `copy`: a
 * diagnostic about an inserted node points there.
 */
import { dirname, relative, resolve } from "node:path";
import type { Diagnostic } from "./diagnostics.js";
import type { LoadedDocument } from "./load.js";
import { MAX_NESTING } from "./load.js";
import { readOverlay, type Overlay, type OverlayAction } from "./overlay-document.js";
import * as ptr from "./pointer.js";

/**
 * Where a node of the patched document comes from: the spec (its pointer there) or an overlay (its file and pointer).
 * `whole`: everything below the node comes from that same place (a copy action's `copy`), not from places below it.
 */
type Origin = { file: string; pointer: string; doc: LoadedDocument; exact?: boolean; whole?: boolean };

/** The origin of the member `key` of a node from `origin`. */
const below = (origin: Origin, key: string | number): Origin => (origin.whole ? origin : { ...origin, pointer: ptr.join(origin.pointer, key) });

export interface PatchedDocument {
  /** The document to change in place; `locate` gives the spec position of a node, or of its nearest ancestor the spec wrote. */
  doc: LoadedDocument;
  origins: Origins;
  /**
   * Puts the diagnostics (from `start` on) where their node came from: the
   * overlay action that inserted it, or the node's place in the spec when a
   * change moved it (a removed array item shifts the pointers after it).
   */
  remap(diagnostics: Diagnostic[], start?: number): void;
}

type Container = Record<string, unknown> | unknown[];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isContainer = (v: unknown): v is Container => typeof v === "object" && v !== null;

/** Writes an own property, `__proto__` included (a plain assignment of that key would set the prototype). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

export class Origins {
  /** Containers the spec wrote → their pointer there. */
  readonly original = new WeakMap<object, string>();
  /** Containers an overlay inserted → where. */
  readonly inserted = new WeakMap<object, Origin>();
  /** Scalars an overlay set, by their container and key. */
  readonly scalars = new WeakMap<object, Map<string, Origin>>();

  constructor(root: unknown) {
    const stack: [unknown, string][] = [[root, "#"]];
    while (stack.length > 0) {
      const [node, at] = stack.pop()!;
      if (!isContainer(node) || this.original.has(node)) continue;
      this.original.set(node, at);
      for (const [k, v] of Object.entries(node)) if (isContainer(v)) stack.push([v, ptr.join(at, k)]);
    }
  }

  /** Records a value an overlay put at `key` of `parent` (a fresh copy), and everything in it. */
  put(parent: object, key: string, value: unknown, origin: Origin): void {
    if (!isContainer(value)) {
      let byKey = this.scalars.get(parent);
      if (!byKey) this.scalars.set(parent, (byKey = new Map()));
      byKey.set(key, origin);
      return;
    }
    const stack: [Container, Origin][] = [[value, origin]];
    while (stack.length > 0) {
      const [node, from] = stack.pop()!;
      this.inserted.set(node, from);
      for (const [k, v] of Object.entries(node)) if (isContainer(v)) stack.push([v, below(from, k)]);
    }
  }

  /** The origin of the node at a pointer of the patched document, or of its deepest ancestor whose origin is known. */
  of(root: unknown, spec: LoadedDocument, pointer: string): Origin {
    const tokens = ptr.parse(pointer) ?? [];
    let best: Origin = { file: spec.file, pointer: "#", doc: spec, exact: tokens.length === 0 };
    let node: unknown = root;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (!isContainer(node)) break;
      const parent: Container = node;
      const set = this.scalars.get(parent)?.get(token);
      node = Array.isArray(parent) ? parent[Number(token)] : Object.prototype.hasOwnProperty.call(parent, token) ? parent[token] : undefined;
      if (node === undefined) break;
      const exact = i === tokens.length - 1;
      if (isContainer(node)) {
        const from = this.inserted.get(node);
        const at = this.original.get(node);
        if (from) best = { ...from, exact };
        else if (at !== undefined) best = { file: spec.file, pointer: at, doc: spec, exact };
      } else if (set) {
        best = { ...set, exact };
      } else {
        // a scalar inside an object an action inserted sits at the same key below that object in the overlay
        const from = this.inserted.get(parent);
        const at = this.original.get(parent);
        if (from) best = { ...below(from, token), exact };
        else if (at !== undefined) best = { file: spec.file, pointer: ptr.join(at, token), doc: spec, exact };
      }
    }
    return best;
  }
}

/**
 * The document made ready for changes that keep its positions: the nodes the
 * spec wrote are indexed by identity before any change.
 */
export function patchable(spec: LoadedDocument): PatchedDocument {
  const origins = new Origins(spec.root);
  const locate = (pointer: string) => {
    const o = origins.of(spec.root, spec, pointer);
    // an inserted node is shown at the nearest node of the spec around it (remap moves its diagnostics to the overlay)
    return o.doc === spec ? spec.locate(o.pointer) : spec.locate(nearestSpecAncestor(origins, spec, pointer));
  };
  const remap = (ds: Diagnostic[], start = 0) => {
    for (let i = start; i < ds.length; i++) {
      const d = ds[i]!;
      if (d.file !== spec.file) continue;
      const o = origins.of(spec.root, spec, d.pointer);
      if (o.doc === spec) {
        if (o.exact && o.pointer !== d.pointer) ds[i] = { ...d, pointer: o.pointer };
        continue;
      }
      const { line, col } = o.doc.locate(o.pointer);
      const why = `${d.pointer} of ${spec.file} was put there by this overlay action`;
      ds[i] = { ...d, file: o.file, pointer: o.pointer, line, col, hint: d.hint ? `${d.hint}; ${why}` : why };
    }
  };
  return { doc: { ...spec, locate }, origins, remap };
}

/**
 * Applies overlays in order (each overlay's actions in order, on the result
 * of the one before); false after an error diagnostic, when the document must
 * not be used. A target that selects nothing is a warning at that action.
 */
export function applyOverlays(patched: PatchedDocument, files: readonly string[], diagnostics: Diagnostic[], sources?: Map<string, string>): boolean {
  const overlays: Overlay[] = [];
  let broken = false;
  for (const file of files) {
    const overlay = readOverlay(file, diagnostics, sources);
    if (overlay) overlays.push(overlay);
    else broken = true;
  }
  if (broken) return false;
  for (const overlay of overlays) {
    checkExtends(overlay, patched.doc.file, diagnostics);
    for (const action of overlay.actions) if (!applyAction(patched.doc.root, action, overlay.doc, patched.origins, diagnostics)) return false;
  }
  return true;
}

/**
 * An overlay whose `extends` names another file than the document it is
 * applied to gets a warning at its `extends` (it is applied all the same: the
 * command line or the config chose the document). A URL is not compared:
 * nothing says which local file it stands for.
 */
function checkExtends(overlay: Overlay, specFile: string, diagnostics: Diagnostic[]): void {
  const named = overlay.extends;
  if (named === undefined || /^[a-z][a-z0-9+.-]*:/i.test(named)) return;
  let file: string;
  try {
    file = decodeURIComponent(named.split(/[?#]/)[0]!);
  } catch {
    file = named;
  }
  const expected = resolve(dirname(overlay.doc.file), file);
  if (expected === resolve(specFile)) return;
  diagnostics.push({
    code: "overlay/extends",
    severity: "warning",
    message: `this overlay extends ${named} (${relative(process.cwd(), expected) || "."}), not ${specFile}, the document it was applied to`,
    file: overlay.doc.file,
    pointer: "#/extends",
    ...overlay.doc.locate("#/extends"),
    hint: "apply it to the document it names, or change extends",
  });
}

function nearestSpecAncestor(origins: Origins, spec: LoadedDocument, pointer: string): string {
  const tokens = ptr.parse(pointer) ?? [];
  for (let n = tokens.length - 1; n >= 0; n--) {
    const o = origins.of(spec.root, spec, "#" + tokens.slice(0, n).map((t) => "/" + ptr.escapeToken(t)).join(""));
    if (o.doc === spec) return o.pointer;
  }
  return "#";
}

/** Applies one action; false after an error diagnostic (the document is then not used). */
function applyAction(root: unknown, action: OverlayAction, overlay: LoadedDocument, origins: Origins, diagnostics: Diagnostic[]): boolean {
  const at = (pointer: string) => ({ file: overlay.file, pointer, ...overlay.locate(pointer) });
  let nodes;
  try {
    nodes = action.path.query(root as never).nodes;
  } catch (e) {
    diagnostics.push({ code: "overlay/apply", severity: "error", message: `the target cannot be evaluated: ${(e as Error).message}`, ...at(`${action.pointer}/target`) });
    return false;
  }
  if (nodes.length === 0) {
    diagnostics.push({ code: "overlay/no-match", severity: "warning", message: `the target ${action.target} selects nothing in the document; this action changed nothing`, ...at(`${action.pointer}/target`), hint: "check the target against the document (an earlier action may have removed what it selects)" });
    return true;
  }
  const fail = (message: string, pointer: string) => {
    diagnostics.push({ code: "overlay/apply", severity: "error", message, ...at(pointer) });
    return false;
  };
  // what is merged: the update as written, or (Overlay 1.1) the one node the copy selects, as the document is now
  let merged: { value: unknown; field: "update" | "copy" } | undefined;
  if (!action.remove && action.update) merged = { value: action.update.value, field: "update" };
  else if (!action.remove && action.copy) {
    const sources = action.copy.path.query(root as never).nodes;
    if (sources.length !== 1) return fail(`copy ${action.copy.source} must select one node of the document; it selects ${sources.length === 0 ? "nothing" : `${sources.length} nodes`}`, `${action.pointer}/copy`);
    merged = { value: sources[0]!.value, field: "copy" };
  }
  // last first: removing an array item leaves the indices of the items before it as they were
  for (const node of [...nodes].reverse()) {
    const location = node.location;
    const parent = location.length === 0 ? undefined : valueAt(root, location.slice(0, -1));
    const key = location.length === 0 ? undefined : String(location[location.length - 1]);
    if (action.remove) {
      if (parent === undefined || key === undefined) return fail("an action cannot remove the whole document", `${action.pointer}/target`);
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete (parent as Record<string, unknown>)[key];
      continue;
    }
    if (!merged) continue;
    const { value, field } = merged;
    const where = `${action.pointer}/${field}`;
    if (location.length + depthOf(value) > MAX_NESTING) return fail(`the ${field} would nest the document deeper than ${MAX_NESTING} levels`, where);
    const origin: Origin = { file: overlay.file, pointer: where, doc: overlay, ...(field === "copy" ? { whole: true } : {}) };
    if (isObj(node.value)) {
      if (!isObj(value)) return fail(`the target ${node.path} is an object: ${field === "copy" ? `copy ${action.copy!.source} selects ${kindOf(value)}` : "update must be an object"} to merge into it`, where);
      // a copy into its own source, or into a node inside it, merges a snapshot taken first
      mergeInto(node.value, field === "copy" ? structuredClone(value) : value, origin, origins);
    } else if (Array.isArray(node.value)) {
      appendTo(node.value, field === "copy" ? structuredClone(value) : value, origin, origins);
    } else if (parent !== undefined && key !== undefined) {
      if (isContainer(value)) return fail(`the target ${node.path} is ${kindOf(node.value)}: ${field === "copy" ? `copy ${action.copy!.source} selects ${kindOf(value)}, not` : "update must be"} a value of that kind to replace it`, where);
      replace(parent as Container, key, value, origin, origins);
    }
  }
  return true;
}

const kindOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`);

function valueAt(root: unknown, location: readonly (string | number)[]): unknown {
  let node = root;
  for (const step of location) node = (node as Record<string, unknown>)[String(step)];
  return node;
}

function depthOf(value: unknown): number {
  if (!isContainer(value)) return 0;
  let deepest = 0;
  for (const v of Object.values(value)) deepest = Math.max(deepest, depthOf(v));
  return deepest + 1;
}

/** Merges a copy of `update` into `target` as the Overlay rules say. */
function mergeInto(target: Record<string, unknown>, update: Record<string, unknown>, origin: Origin, origins: Origins): void {
  for (const [k, v] of Object.entries(update)) {
    const here = below(origin, k);
    const current = Object.prototype.hasOwnProperty.call(target, k) ? target[k] : undefined;
    if (isObj(current) && isObj(v)) mergeInto(current, v, here, origins);
    else if (Array.isArray(current) && Array.isArray(v)) appendTo(current, v, here, origins);
    else replace(target, k, v, here, origins);
  }
}

function appendTo(target: unknown[], update: unknown, origin: Origin, origins: Origins): void {
  const items = Array.isArray(update) ? update.map((v, i) => [v, below(origin, i)] as const) : [[update, origin] as const];
  for (const [v, from] of items) {
    const copy = structuredClone(v);
    target.push(copy);
    origins.put(target, String(target.length - 1), copy, from);
  }
}

function replace(parent: Container, key: string, value: unknown, origin: Origin, origins: Origins): void {
  const copy = structuredClone(value);
  if (Array.isArray(parent)) parent[Number(key)] = copy;
  else setOwn(parent, key, copy);
  origins.put(parent, key, copy, origin);
}
