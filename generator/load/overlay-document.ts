/**
 * An Overlay document (OpenAPI Overlay Specification 1.0 or 1.1): read with
 * positions like a spec, and checked against the rules of the specification's
 * own JSON Schemas (schemas/v1.0/schema.yaml and v1.1 of OAI/Overlay-Specification;
 * 1.1 adds an action's `copy` and the info's `description`), so
 * a mistake in it is a `file:line:col at #/pointer` diagnostic at the overlay,
 * never a half-applied document. Each target is compiled here too: a JSONPath
 * that does not parse is reported at its action before anything is applied.
 */
import { compile, type JSONPathQuery } from "json-p3";
import type { Diagnostic } from "./diagnostics.js";
import { loadFile, type LoadedDocument } from "./load.js";
import * as ptr from "./pointer.js";

/** One action, its target compiled. `pointer`: the action's place in the overlay (`#/actions/2`). */
export interface OverlayAction {
  pointer: string;
  target: string;
  path: JSONPathQuery;
  remove: boolean;
  /** Absent when the action has no `update` (a `remove: false` action without one changes nothing). */
  update?: { value: unknown };
  /** Overlay 1.1: the JSONPath of the one node whose value is merged into the targets, compiled. */
  copy?: { source: string; path: JSONPathQuery };
}

export interface Overlay {
  doc: LoadedDocument;
  actions: OverlayAction[];
  /** The document the overlay says it applies to (a URI reference), when it says. */
  extends?: string;
}

const VERSION = /^1\.[01]\.\d+$/;
const JSONPATH_HINT = "JSONPath by RFC 9535, e.g. $.paths['/pets'].get or $.paths.*[?@.operationId == 'listPets']";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The overlay at `file`, or undefined after its diagnostics (load errors or a broken overlay). */
export function readOverlay(file: string, diagnostics: Diagnostic[], sources?: Map<string, string>): Overlay | undefined {
  const loaded = loadFile(file);
  for (const d of loaded.diagnostics) diagnostics.push(d);
  const doc = loaded.document;
  if (!doc) return undefined;
  sources?.set(doc.file, doc.text);
  const problems: Diagnostic[] = [];
  const report = (pointer: string, message: string, hint?: string) => {
    const { line, col } = doc.locate(pointer);
    problems.push({ code: "overlay/invalid", severity: "error", message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };
  const actions = checkOverlay(doc.root, report);
  for (const d of problems) diagnostics.push(d);
  const target = isObj(doc.root) && typeof doc.root["extends"] === "string" ? doc.root["extends"] : undefined;
  return actions && problems.length === 0 ? { doc, actions, ...(target !== undefined ? { extends: target } : {}) } : undefined;
}

type Report = (pointer: string, message: string, hint?: string) => void;

/** The actions of a well-formed overlay, reporting every rule it breaks. */
function checkOverlay(root: unknown, report: Report): OverlayAction[] | undefined {
  if (!isObj(root)) {
    report("#", "an overlay document must be an object with overlay, info and actions", "see https://spec.openapis.org/overlay/v1.1.0.html");
    return undefined;
  }
  if (typeof root["overlay"] !== "string") report("#", 'missing "overlay": the Overlay Specification version, e.g. overlay: 1.0.0');
  else if (!VERSION.test(root["overlay"])) report("#/overlay", `unsupported overlay version ${JSON.stringify(root["overlay"])}; avaspec applies Overlay Specification 1.0.x and 1.1.x`);
  // what only 1.1 has is reported in a 1.0 overlay as the version's, not as unknown
  const v11 = typeof root["overlay"] === "string" && root["overlay"].startsWith("1.1.");
  const info = root["info"];
  if (!isObj(info)) report("#", 'missing "info": an object with "title" and "version"');
  else {
    for (const k of ["title", "version"]) if (typeof info[k] !== "string") report(k in info ? `#/info/${k}` : "#/info", `info.${k} must be a string`);
    if (info["description"] !== undefined) {
      if (!v11) report("#/info/description", "info.description is an Overlay 1.1 field; this overlay declares 1.0", "set overlay: 1.1.0");
      else if (typeof info["description"] !== "string") report("#/info/description", "info.description must be a string");
    }
    unknownKeys(info, "#/info", ["title", "version", "description"], report);
  }
  if (root["extends"] !== undefined && typeof root["extends"] !== "string") report("#/extends", "extends must be a URI reference (a string)");
  unknownKeys(root, "#", ["overlay", "info", "extends", "actions"], report);
  const list = root["actions"];
  if (!Array.isArray(list) || list.length === 0) {
    report(Array.isArray(list) ? "#/actions" : "#", '"actions" must list at least one action');
    return undefined;
  }
  const seen = new Map<string, number>();
  const actions: OverlayAction[] = [];
  list.forEach((a: unknown, i) => {
    const at = `#/actions/${i}`;
    const action = checkAction(a, at, report, v11);
    if (!action) return;
    // the schema's uniqueItems: a repeated action is a copy-paste slip, and applying it twice appends twice
    const key = JSON.stringify(a);
    const first = seen.get(key);
    if (first !== undefined) report(at, `this action repeats actions[${first}]`, "remove one of them");
    else seen.set(key, i);
    actions.push(action);
  });
  return actions;
}

function checkAction(a: unknown, at: string, report: Report, v11: boolean): OverlayAction | undefined {
  if (!isObj(a)) {
    report(at, "an action must be an object with a target");
    return undefined;
  }
  unknownKeys(a, at, ["target", "description", "update", "copy", "remove"], report);
  const copy = a["copy"] === undefined ? undefined : checkCopy(a["copy"], `${at}/copy`, report, v11);
  if (a["description"] !== undefined && typeof a["description"] !== "string") report(`${at}/description`, "description must be a string");
  if (a["remove"] !== undefined && typeof a["remove"] !== "boolean") report(`${at}/remove`, "remove must be true or false");
  const target = a["target"];
  if (typeof target !== "string" || !target.startsWith("$")) {
    report(typeof target === "string" ? `${at}/target` : at, 'an action needs a "target": a JSONPath (RFC 9535) starting with $');
    return undefined;
  }
  let path: JSONPathQuery;
  try {
    path = compile(target);
  } catch (e) {
    report(`${at}/target`, `the target is not a JSONPath (RFC 9535): ${(e as Error).message}`, JSONPATH_HINT);
    return undefined;
  }
  return { pointer: at, target, path, remove: a["remove"] === true, ...("update" in a ? { update: { value: a["update"] } } : {}), ...(copy ? { copy } : {}) };
}

/** An action's `copy` (Overlay 1.1): a JSONPath, compiled; undefined after a report. */
function checkCopy(copy: unknown, at: string, report: Report, v11: boolean): OverlayAction["copy"] {
  if (!v11) return report(at, "copy is an Overlay 1.1 action; this overlay declares 1.0", "set overlay: 1.1.0"), undefined;
  if (typeof copy !== "string" || !copy.startsWith("$")) return report(at, "copy must be a JSONPath (RFC 9535) starting with $ that selects the node to copy"), undefined;
  try {
    return { source: copy, path: compile(copy) };
  } catch (e) {
    return report(at, `copy is not a JSONPath (RFC 9535): ${(e as Error).message}`, JSONPATH_HINT), undefined;
  }
}

function unknownKeys(obj: Record<string, unknown>, at: string, known: string[], report: Report): void {
  for (const k of Object.keys(obj)) {
    if (known.includes(k) || k.startsWith("x-")) continue;
    report(ptr.join(at, k), `unknown field ${JSON.stringify(k)}`, `an overlay's fields are ${known.join(", ")} and x- extensions`);
  }
}
