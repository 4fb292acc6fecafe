/**
 * avaspec's specification extensions: the IR builders read them as checked
 * here, so a malformed value is a diagnostic, never a silent default.
 */
import * as ptr from "../load/pointer.js";
import type { IrLifecycle, IrMcpMarks, IrOperation } from "../ir/types.js";
import { isOpenApi32, pathItemOperations } from "../load/operations.js";

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

type Report = (code: string, pointer: string, message: string, hint?: string) => void;

/** `x-avaspec-idempotent` on an operation or method: a boolean, when present. */
export function checkIdempotent(node: Record<string, unknown>, at: string, report: Report): void {
  const v = node["x-avaspec-idempotent"];
  if (v !== undefined && typeof v !== "boolean") report("extension/idempotent", ptr.join(at, "x-avaspec-idempotent"), `x-avaspec-idempotent must be true or false, got ${JSON.stringify(v)}`);
}

/** `x-avaspec-token-lifetime` on a page-token parameter: whole seconds above 0, when present. */
export function checkTokenLifetime(node: Record<string, unknown>, at: string, report: Report): void {
  const v = node["x-avaspec-token-lifetime"];
  if (v !== undefined && !(Number.isInteger(v) && (v as number) > 0)) {
    report("extension/token-lifetime", ptr.join(at, "x-avaspec-token-lifetime"), `x-avaspec-token-lifetime must be a whole number of seconds above 0, got ${JSON.stringify(v)}`, "e.g. 86400 for tokens that expire after 24 hours");
  }
}

const LIFECYCLE = [
  ["x-avaspec-added-in", "addedIn"],
  ["x-avaspec-deprecated-in", "deprecatedIn"],
  ["x-avaspec-removed-in", "removedIn"],
] as const;

/**
 * The release markers on an operation or method (`x-avaspec-added-in`,
 * `x-avaspec-deprecated-in`, `x-avaspec-removed-in`: each names a release of
 * the server, e.g. `"v1.15.0 (Helicon)"`), and `x-avaspec-unimplemented` (a
 * sentence saying which servers do not implement it and what they answer).
 */
export function checkOperationExtensions(node: Record<string, unknown>, at: string, report: Report): void {
  checkIdempotent(node, at, report);
  for (const [key] of LIFECYCLE) {
    const v = node[key];
    if (v !== undefined && (typeof v !== "string" || v.trim() === "")) report("extension/lifecycle", ptr.join(at, key), `${key} must name a release (a non-empty string), got ${JSON.stringify(v)}`, 'e.g. "v1.15.0"');
  }
  const u = node["x-avaspec-unimplemented"];
  if (u !== undefined && (typeof u !== "string" || u.trim() === "")) report("extension/unimplemented", ptr.join(at, "x-avaspec-unimplemented"), `x-avaspec-unimplemented must be a sentence saying which servers do not implement it, got ${JSON.stringify(u)}`);
  checkMcpMarks(node, at, report);
}

const MCP_MARKS = ["readOnly", "idempotent", "destructive", "exclude"] as const;

/** `x-avaspec-mcp` on an operation or method: an object of booleans among `readOnly`, `idempotent`, `destructive`, `exclude`. */
function checkMcpMarks(node: Record<string, unknown>, at: string, report: Report): void {
  const v = node["x-avaspec-mcp"];
  if (v === undefined) return;
  const where = ptr.join(at, "x-avaspec-mcp");
  const hint = "e.g. { readOnly: true } for a POST that only queries, { exclude: true } to leave it out of MCP servers";
  if (!isObj(v)) return report("extension/mcp", where, `x-avaspec-mcp must be an object of booleans (${MCP_MARKS.join(", ")}), got ${JSON.stringify(v)}`, hint);
  for (const [key, value] of Object.entries(v)) {
    if (!(MCP_MARKS as readonly string[]).includes(key)) report("extension/mcp", ptr.join(where, key), `x-avaspec-mcp has no member ${JSON.stringify(key)}; it takes ${MCP_MARKS.join(", ")}`, hint);
    else if (typeof value !== "boolean") report("extension/mcp", ptr.join(where, key), `x-avaspec-mcp.${key} must be true or false, got ${JSON.stringify(value)}`, hint);
  }
}

/** The well-formed members of `x-avaspec-mcp` (the validator reported the rest). */
function mcpMarks(node: Record<string, unknown>): IrMcpMarks | undefined {
  const v = node["x-avaspec-mcp"];
  if (!isObj(v)) return undefined;
  const marks: IrMcpMarks = {};
  for (const key of MCP_MARKS) if (typeof v[key] === "boolean") marks[key] = v[key];
  return Object.keys(marks).length > 0 ? marks : undefined;
}

/**
 * What a checked operation or method says of its status, as the IR keeps it:
 * `deprecated` (the spec's flag, or a release that deprecated or removed
 * it), its release markers and `x-avaspec-unimplemented`, each only when present.
 */
export function operationStatus(node: Record<string, unknown>): Pick<IrOperation, "deprecated" | "lifecycle" | "unimplemented" | "mcp"> {
  const lifecycle: IrLifecycle = {};
  for (const [key, field] of LIFECYCLE) {
    const v = node[key];
    if (typeof v === "string" && v.trim() !== "") lifecycle[field] = v;
  }
  const u = node["x-avaspec-unimplemented"];
  const mcp = mcpMarks(node);
  return {
    deprecated: node["deprecated"] === true || lifecycle.deprecatedIn !== undefined || lifecycle.removedIn !== undefined,
    ...(Object.keys(lifecycle).length > 0 ? { lifecycle } : {}),
    ...(typeof u === "string" && u.trim() !== "" ? { unimplemented: u } : {}),
    ...(mcp ? { mcp } : {}),
  };
}

/** `x-avaspec-eip1193` at an OpenRPC document's root: a boolean, when present. */
export function checkEip1193(root: Record<string, unknown>, report: Report): void {
  const v = root["x-avaspec-eip1193"];
  if (v !== undefined && typeof v !== "boolean") report("extension/eip1193", "#/x-avaspec-eip1193", `x-avaspec-eip1193 must be true or false, got ${JSON.stringify(v)}`);
}

/**
 * `x-avaspec-wire-shape` on an OpenRPC result: `{ wrappedIn: "containers" }`
 * says servers may also send the result as `{ "containers": <result> }`.
 * The property, when the value is well-formed.
 */
export function checkWireShape(node: Record<string, unknown>, at: string, report: Report): string | undefined {
  const v = node["x-avaspec-wire-shape"];
  if (v === undefined) return undefined;
  const where = ptr.join(at, "x-avaspec-wire-shape");
  const wrapped = isObj(v) ? v["wrappedIn"] : undefined;
  if (typeof wrapped !== "string" || wrapped === "" || Object.keys(v as object).length !== 1) {
    report("extension/wire-shape", where, `x-avaspec-wire-shape must be { wrappedIn: "<property>" }, got ${JSON.stringify(v)}`, 'e.g. { wrappedIn: "containers" } when servers send { "containers": [...] } for a documented array');
    return undefined;
  }
  return wrapped;
}

/**
 * `x-avaspec-result-by-param` on an OpenRPC method:
 * `{ param: <a declared param>, variants: [{ value: <scalar>, schema: <schema> }, …] }`
 * types the result by that param's value. The checked value, when well-formed.
 */
export function checkResultByParam(method: Record<string, unknown>, paramNames: readonly string[], at: string, report: Report): { param: string; variants: { value: unknown; schema: unknown }[] } | undefined {
  const v = method["x-avaspec-result-by-param"];
  if (v === undefined) return undefined;
  const where = ptr.join(at, "x-avaspec-result-by-param");
  const shape = 'x-avaspec-result-by-param must be { param: "<param name>", variants: [{ value: <string, number or boolean>, schema: <schema> }, …] }';
  if (!isObj(v) || typeof v["param"] !== "string" || !Array.isArray(v["variants"]) || v["variants"].length === 0) {
    report("extension/result-by-param", where, shape);
    return undefined;
  }
  if (!paramNames.includes(v["param"])) {
    report("extension/result-by-param", ptr.join(where, "param"), `x-avaspec-result-by-param names ${JSON.stringify(v["param"])}, which is not a param of this method`);
    return undefined;
  }
  const seen = new Set<unknown>();
  for (const [i, variant] of (v["variants"] as unknown[]).entries()) {
    const value = isObj(variant) ? variant["value"] : undefined;
    if (!isObj(variant) || !["string", "number", "boolean"].includes(typeof value) || !(isObj(variant["schema"]) || typeof variant["schema"] === "boolean")) {
      report("extension/result-by-param", ptr.join(where, "variants", i), shape);
      return undefined;
    }
    if (seen.has(value)) {
      report("extension/result-by-param", ptr.join(where, "variants", i, "value"), `two variants for the value ${JSON.stringify(value)}`);
      return undefined;
    }
    seen.add(value);
  }
  return { param: v["param"], variants: v["variants"] as { value: unknown; schema: unknown }[] };
}

/*
 * `x-avaspec-advice`: what an error message advises, from the spec. On a
 * response object, one sentence for that response's status; at an OpenAPI
 * document's root, sentences by status (`"401"`), range (`"5XX"`) or
 * `"default"`. The IR builder (ir/advice.ts) reads what passes here.
 */

/** A key of the root's map: a status code, a range or `default`, as OpenAPI writes response keys. */
export const ADVICE_KEY = /^(?:[1-5]\d\d|[1-5]XX|default)$/;

const sentence = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** Every `x-avaspec-advice` of an OpenAPI document: its root's, its operations' responses' and `components/responses`'. */
export function checkAdvice(root: Record<string, unknown>, report: Report): void {
  const top = root["x-avaspec-advice"];
  if (top !== undefined) {
    const at = "#/x-avaspec-advice";
    if (!isObj(top) || Object.keys(top).length === 0) report("extension/advice", at, `x-avaspec-advice at the document's root must map statuses to sentences, got ${JSON.stringify(top)}`, 'e.g. { "401": "Check the apiKey option.", "5XX": "Try again later." }');
    else {
      for (const [key, text] of Object.entries(top)) {
        if (!ADVICE_KEY.test(key)) report("extension/advice", ptr.join(at, key), `x-avaspec-advice: ${JSON.stringify(key)} is not a status code, a range such as "5XX" or "default"`);
        else if (!sentence(text)) report("extension/advice", ptr.join(at, key), `x-avaspec-advice: the advice for ${key} must be a sentence, got ${JSON.stringify(text)}`);
      }
    }
  }
  const responses = (node: unknown, at: string) => {
    for (const [status, r] of Object.entries(isObj(node) ? node : {})) {
      const v = isObj(r) ? r["x-avaspec-advice"] : undefined;
      if (v !== undefined && !sentence(v)) report("extension/advice", ptr.join(at, status, "x-avaspec-advice"), `x-avaspec-advice on a response must be a sentence (what to do about it), got ${JSON.stringify(v)}`);
    }
  };
  const components = root["components"];
  if (isObj(components)) responses(components["responses"], "#/components/responses");
  for (const [path, item] of Object.entries(isObj(root["paths"]) ? root["paths"] : {})) {
    if (!isObj(item)) continue;
    for (const { keys, op } of pathItemOperations(item, isOpenApi32(root))) {
      if (isObj(op)) responses(op["responses"], ptr.join("#/paths", path, ...keys, "responses"));
    }
  }
}
