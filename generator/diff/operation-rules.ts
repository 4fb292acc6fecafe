/**
 * The diff rules for operations, matched by what identifies them on the wire
 * (HTTP method and path with path parameter names ignored; JSON-RPC endpoint
 * and method name): added, removed, deprecated, renamed or moved in the
 * generated client, and their parameters, bodies, responses, results, errors,
 * security and declared limits compared (schemas by schema-rules.ts, limits by
 * limits-rules.ts).
 */
import type { IrHttpOperation, IrOperation, IrRpcOperation } from "../ir/types.js";
import { wireMethod } from "../load/operations.js";
import { sides, type ChangeList } from "./changes.js";
import type { SchemaRules } from "./schema-rules.js";
import { compareLimits, limitsPointer } from "./limits-rules.js";
import { compareStreams } from "./stream-rules.js";

const opKey = (op: IrOperation): string => (op.protocol === "http" ? `${wireMethod(op.transport.method)} ${op.endpoint}${op.transport.path.replace(/\{[^}]*\}/g, "{}")}` : `${op.endpoint} ${op.transport.method}`);
const opLabel = (op: IrOperation): string => (op.protocol === "http" ? `${wireMethod(op.transport.method)} ${op.endpoint}${op.transport.path}` : op.transport.method);

export function diffOperations(changes: ChangeList, schemas: SchemaRules): void {
  const oldOps = new Map(changes.oldSide.ir.operations.map((op) => [opKey(op), op]));
  const newOps = new Map(changes.newSide.ir.operations.map((op) => [opKey(op), op]));
  const moved = methodChanges(changes, oldOps, newOps);
  for (const [k, op] of oldOps) if (!newOps.has(k) && !moved.has(op)) changes.add(op.protocol === "http" ? "operation-removed" : "method-removed", "breaking-wire", `${opLabel(op)} was removed`, { operation: opLabel(op), old: [op.file, op.pointer] });
  for (const [k, op] of newOps) if (!oldOps.has(k) && !moved.has(op)) changes.add(op.protocol === "http" ? "operation-added" : "method-added", "addition", `${opLabel(op)} is new`, { operation: opLabel(op), new: [op.file, op.pointer] });
  for (const [k, o] of oldOps) {
    const n = newOps.get(k);
    if (!n) continue;
    const operation = opLabel(n);
    const at = { operation, old: [o.file, o.pointer] as [string, string], new: [n.file, n.pointer] as [string, string] };
    const files: [string, string] = [o.file, n.file];
    if (n.deprecated && !o.deprecated) changes.add("operation-deprecated", "deprecation", `${operation} is deprecated${n.lifecycle?.removedIn ? ` (removed in ${n.lifecycle.removedIn})` : n.lifecycle?.deprecatedIn ? ` (since ${n.lifecycle.deprecatedIn})` : ""}`, at);
    if (o.deprecated && !n.deprecated) changes.add("operation-undeprecated", "documentation", `${operation} is no longer deprecated`, at);
    if ((o.description ?? "") !== (n.description ?? "") || (o.summary ?? "") !== (n.summary ?? "")) changes.add("operation-description-changed", "documentation", `${operation}: summary or description changed`, at);
    if (o.names.method !== n.names.method) changes.add("method-renamed", "breaking-code", `${operation}: the generated method ${[...o.group, o.names.method].join(".")} is now ${[...n.group, n.names.method].join(".")}`, at);
    else if (o.group.join(".") !== n.group.join(".")) changes.add("method-moved", "breaking-code", `${operation}: the generated method moved from ${[...o.group, o.names.method].join(".")} to ${[...n.group, n.names.method].join(".")}`, at);
    if (o.protocol === "http" && n.protocol === "http") compareHttp(changes, schemas, o, n, operation, files);
    if (o.protocol === "json-rpc" && n.protocol === "json-rpc") compareRpc(changes, schemas, o, n, operation, files);
    compareLimits(changes, o.limits, n.limits, operation, { operation, old: [o.file, limitsPointer(o.pointer, o.limits)], new: [n.file, limitsPointer(n.pointer, n.limits)] });
  }
}

/**
 * An HTTP operation that kept its operationId and path but is sent with
 * another method (POST → QUERY, as OpenAPI 3.2 allows a search to become; an
 * `additionalOperations` key whose spelling changed): one breaking change
 * naming both methods, rather than a removal and an unrelated addition.
 * Returns the operations it paired.
 */
function methodChanges(changes: ChangeList, oldOps: ReadonlyMap<string, IrOperation>, newOps: ReadonlyMap<string, IrOperation>): Set<IrOperation> {
  const paired = new Set<IrOperation>();
  const where = (op: IrHttpOperation) => `${op.id}\u0000${op.endpoint}${op.transport.path.replace(/\{[^}]*\}/g, "{}")}`;
  const added = new Map<string, IrHttpOperation>();
  for (const [k, op] of newOps) if (!oldOps.has(k) && op.protocol === "http" && op.id !== "") added.set(where(op), op);
  for (const [k, o] of oldOps) {
    if (newOps.has(k) || o.protocol !== "http" || o.id === "") continue;
    const n = added.get(where(o));
    if (!n) continue;
    paired.add(o).add(n);
    changes.add("operation-method-changed", "breaking-wire", `${opLabel(o)} is now ${opLabel(n)} (operationId ${JSON.stringify(o.id)}): existing clients still send ${wireMethod(o.transport.method)}`, { operation: opLabel(n), old: [o.file, o.pointer], new: [n.file, n.pointer] });
  }
  return paired;
}

function compareHttp(changes: ChangeList, schemas: SchemaRules, o: IrHttpOperation, n: IrHttpOperation, operation: string, files: [string, string]): void {
  const at = (op: [string, string] | undefined, np: [string, string] | undefined) => sides(operation, op, np);
  const byName = (list: IrHttpOperation["parameters"]) => new Map(list.map((p) => [p.name, p]));
  const oParams = byName(o.parameters);
  const nParams = byName(n.parameters);
  for (const [name, p] of oParams) {
    const q = nParams.get(name);
    if (!q) changes.add("param-removed", "breaking-wire", `${operation}: ${p.in} parameter "${name}" was removed`, at([files[0], p.pointer], undefined));
    else if (q.in !== p.in) changes.add("param-moved", "breaking-wire", `${operation}: parameter "${name}" moved from ${p.in} to ${q.in}`, at([files[0], p.pointer], [files[1], q.pointer]));
    else {
      if (!p.required && q.required) changes.add("param-became-required", "breaking-wire", `${operation}: ${q.in} parameter "${name}" is now required`, at([files[0], p.pointer], [files[1], q.pointer]));
      if (q.deprecated && !p.deprecated) changes.add("param-deprecated", "deprecation", `${operation}: ${q.in} parameter "${name}" is deprecated`, at([files[0], p.pointer], [files[1], q.pointer]));
      if (q.style !== p.style || q.explode !== p.explode) changes.add("param-style-changed", "breaking-wire", `${operation}: ${q.in} parameter "${name}" is serialised differently (${p.style}${p.explode ? ", exploded" : ""} → ${q.style}${q.explode ? ", exploded" : ""})`, at([files[0], p.pointer], [files[1], q.pointer]));
      schemas.compare(p.schema, q.schema, "request", operation, files, `${q.in} ${name}`);
    }
  }
  for (const [name, q] of nParams) {
    if (oParams.has(name)) continue;
    if (q.required) changes.add("param-added-required", "breaking-wire", `${operation}: new required ${q.in} parameter "${name}"`, at(undefined, [files[1], q.pointer]));
    else changes.add("param-added", "addition", `${operation}: new optional ${q.in} parameter "${name}"`, at(undefined, [files[1], q.pointer]));
  }
  // request body
  const ob = o.requestBody;
  const nb = n.requestBody;
  if (!ob && nb?.required) changes.add("request-body-added-required", "breaking-wire", `${operation}: a request body is now required`, at(undefined, [files[1], nb.pointer]));
  else if (ob && !nb) changes.add("request-body-removed", "breaking-wire", `${operation}: the request body was removed`, at([files[0], ob.pointer], undefined));
  else if (ob && nb) {
    if (!ob.required && nb.required) changes.add("request-body-became-required", "breaking-wire", `${operation}: the request body is now required`, at([files[0], ob.pointer], [files[1], nb.pointer]));
    for (const c of ob.content) if (!nb.content.some((d) => d.contentType === c.contentType)) changes.add("request-media-type-removed", "breaking-wire", `${operation}: the request body is no longer accepted as ${c.contentType}`, at([files[0], ob.pointer], [files[1], nb.pointer]));
    const oc = ob.content[0];
    const nc = nb.content.find((d) => d.contentType === oc?.contentType);
    if (oc && nc) schemas.compare(oc.schema, nc.schema, "request", operation, files, "body");
  }
  // responses: callers read the success bodies and handle the documented errors (as JSON-RPC's `errors`)
  for (const r of o.responses) {
    const s = n.responses.find((x) => x.status === r.status);
    if (!s) {
      if (r.success) changes.add("success-status-removed", "breaking-wire", `${operation}: the ${r.status} response was removed`, at([files[0], r.pointer], undefined));
      else changes.add("error-status-removed", "breaking-wire", `${operation}: the ${r.status} error response was removed`, at([files[0], r.pointer], undefined));
      continue;
    }
    for (const c of r.content) {
      const d = s.content.find((x) => x.contentType === c.contentType);
      if (!d) changes.add("response-media-type-removed", "breaking-wire", `${operation}: the ${r.status} response is no longer ${c.contentType}`, at([files[0], c.schema.pointer.endsWith("/schema") ? c.schema.pointer.slice(0, -"/schema".length) : r.pointer], [files[1], s.pointer]));
      else schemas.compare(c.schema, d.schema, "response", operation, files, `${r.status}`);
    }
  }
  for (const s of n.responses) {
    if (o.responses.some((r) => r.status === s.status)) continue;
    if (s.success) changes.add("success-status-added", "addition", `${operation}: new ${s.status} response`, at(undefined, [files[1], s.pointer]));
    else changes.add("error-status-added", "addition", `${operation}: declares a ${s.status} error response`, at(undefined, [files[1], s.pointer]));
  }
  compareStreams(changes, schemas, o, n, operation, files);
  // security
  const wasOpen = o.security.schemes.length === 0 || o.security.optional;
  const nowClosed = n.security.schemes.length > 0 && !n.security.optional;
  if (wasOpen && nowClosed) changes.add("security-added", "breaking-wire", `${operation}: now requires ${n.security.schemes.join(" or ")}`, at([files[0], o.pointer], [files[1], n.pointer]));
}

function compareRpc(changes: ChangeList, schemas: SchemaRules, o: IrRpcOperation, n: IrRpcOperation, operation: string, files: [string, string]): void {
  const at = (op: [string, string] | undefined, np: [string, string] | undefined) => sides(operation, op, np);
  const positional = (op: IrRpcOperation) => op.transport.form !== "by-name";
  if (positional(o) !== positional(n)) changes.add("param-structure-changed", "breaking-wire", `${operation}: params are now sent ${positional(n) ? "by position" : "by name"}`, at([files[0], o.pointer], [files[1], n.pointer]));
  const oNames = o.params.map((p) => p.name);
  const nNames = n.params.map((p) => p.name);
  if (positional(o) && positional(n)) {
    const kept = oNames.filter((x) => nNames.includes(x));
    const order = nNames.filter((x) => oNames.includes(x));
    if (kept.join("\u0000") !== order.join("\u0000")) changes.add("params-reordered", "breaking-wire", `${operation}: params were reordered (${oNames.join(", ")} → ${nNames.join(", ")})`, at([files[0], o.pointer], [files[1], n.pointer]));
    // a new param before an old one shifts the old one's position
    nNames.forEach((name, i) => {
      if (!oNames.includes(name) && nNames.slice(i + 1).some((x) => oNames.includes(x))) changes.add("param-inserted", "breaking-wire", `${operation}: param "${name}" was inserted at position ${i + 1}`, at(undefined, [files[1], n.params[i]!.pointer]));
    });
  }
  for (const p of o.params) {
    const q = n.params.find((x) => x.name === p.name);
    if (!q) {
      changes.add("param-removed", "breaking-wire", `${operation}: param "${p.name}" was removed`, at([files[0], p.pointer], undefined));
      continue;
    }
    if (!p.required && q.required) changes.add("param-became-required", "breaking-wire", `${operation}: param "${p.name}" is now required`, at([files[0], p.pointer], [files[1], q.pointer]));
    if (q.deprecated && !p.deprecated) changes.add("param-deprecated", "deprecation", `${operation}: param "${p.name}" is deprecated`, at([files[0], p.pointer], [files[1], q.pointer]));
    schemas.compare(p.schema, q.schema, "request", operation, files, p.name);
  }
  for (const q of n.params) {
    if (o.params.some((p) => p.name === q.name)) continue;
    if (q.required) changes.add("param-added-required", "breaking-wire", `${operation}: new required param "${q.name}"`, at(undefined, [files[1], q.pointer]));
    else changes.add("param-added", "addition", `${operation}: new optional param "${q.name}"`, at(undefined, [files[1], q.pointer]));
  }
  if (o.result && n.result) schemas.compare(o.result.schema, n.result.schema, "response", operation, files, "result");
  else if (o.result && !n.result) changes.add("result-removed", "breaking-wire", `${operation}: the result was removed`, at([files[0], o.result.pointer], undefined));
  const oCodes = new Set(o.errors.map((e) => e.code));
  const nCodes = new Set(n.errors.map((e) => e.code));
  for (const e of o.errors) if (!nCodes.has(e.code)) changes.add("error-removed", "breaking-wire", `${operation}: error ${e.code} (${e.message}) is no longer declared`, at([files[0], e.pointer], undefined));
  for (const e of n.errors) if (!oCodes.has(e.code)) changes.add("error-added", "addition", `${operation}: declares error ${e.code} (${e.message})`, at(undefined, [files[1], e.pointer]));
}
