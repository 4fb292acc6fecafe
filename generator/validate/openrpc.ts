/**
 * OpenRPC 1.x documents: the official meta-schema (@open-rpc/meta-schema;
 * 1.4.x by its 1.3 rules, see openrpc-meta.ts), then avaspec's own rules. Findings are diagnostics; nothing is thrown.
 */
import type { ValidateFunction } from "ajv";
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { checkEip1193, checkOperationExtensions, checkResultByParam, checkWireShape } from "./extensions.js";
import { checkDocumentLimits, readLimits } from "./limits.js";
import { openRpcMetaValidator } from "./openrpc-meta.js";
import { checkObjectRefCycles, checkRefs } from "./refs.js";
import { checkServerUrls, suspicious, warner } from "./suspicious.js";
import { append } from "../append.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

let metaValidator: ValidateFunction | undefined;

/** The OpenRPC meta-schema validator, made once (compiled here; precompiled in the bundled CLI). */
function meta(): ValidateFunction {
  return (metaValidator ??= openRpcMetaValidator());
}

export function validateOpenRpc(doc: LoadedDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (code: string, pointer: string, message: string, hint?: string, severity: "error" | "warning" = "error") => {
    const { line, col } = doc.locate(pointer);
    out.push({ code, severity, message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };
  const root = doc.root;
  if (!isObj(root) || typeof root["openrpc"] !== "string" || !/^1\.\d+\.\d+/.test(root["openrpc"])) {
    report("openrpc/version", isObj(root) && "openrpc" in root ? "#/openrpc" : "#", "unsupported or missing \"openrpc\" version", 'avaspec reads OpenRPC 1.x: set "openrpc: 1.3.2"');
    return out;
  }
  const validate = meta();
  if (!validate(root)) {
    let version = false;
    for (const e of validate.errors ?? []) {
      const pointer = "#" + e.instancePath;
      // a version the meta-schema does not list fails each branch of its anyOf: one finding says it
      if (pointer === "#/openrpc") {
        if (!version) report("openrpc/version", pointer, `unsupported "openrpc" version ${JSON.stringify(root["openrpc"])}`, "avaspec reads OpenRPC 1.0 to 1.4: the versions the 1.3 meta-schema lists, and 1.4.x");
        version = true;
        continue;
      }
      const detail = e.keyword === "additionalProperties" ? ` (${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)})` : "";
      report("openrpc/meta-schema", pointer, `does not match the OpenRPC meta-schema: ${e.message ?? e.keyword}${detail}`, `see the OpenRPC specification for ${e.schemaPath.split("/").slice(0, 3).join("/")}`);
    }
    return out;
  }
  checkRefs(doc, root, "#", report);
  checkObjectRefCycles(doc, "openrpc", report);
  append(out, suspicious(doc));
  checkErrorData(root, report);
  checkEip1193(root, report);
  checkDocumentLimits(root, report);
  const warn = warner(doc, out);
  checkServerUrls(root["servers"], "#/servers", warn, "openrpc/server-url");
  (root["methods"] as unknown[]).forEach((m, i) => {
    if (isObj(m)) checkServerUrls(m["servers"], ptr.join("#/methods", i, "servers"), warn, "openrpc/server-url");
  });
  const seen = new Map<string, string>();
  // what a declared range's `head` may name
  const methodNames = (root["methods"] as unknown[]).map((m) => (isObj(m) && typeof m["$ref"] === "string" ? doc.resolve(m["$ref"])?.value : m)).flatMap((m) => (isObj(m) && typeof m["name"] === "string" ? [m["name"]] : []));
  (root["methods"] as unknown[]).forEach((m, i) => {
    const at = ptr.join("#/methods", i);
    const method = isObj(m) && typeof m["$ref"] === "string" ? doc.resolve(m["$ref"])?.value : m;
    if (!isObj(method) || typeof method["name"] !== "string") return;
    const name = method["name"];
    checkOperationExtensions(method, at, report);
    const result = isObj(method["result"]) && typeof method["result"]["$ref"] === "string" ? doc.resolve(method["result"]["$ref"]) : { value: method["result"], pointer: ptr.join(at, "result") };
    if (result && isObj(result.value)) checkWireShape(result.value, result.pointer, report);
    if (seen.has(name)) report("method/duplicate-name", ptr.join(at, "name"), `duplicate method name ${JSON.stringify(name)} (first at ${seen.get(name)})`, "JSON-RPC method names must be unique in a document");
    else seen.set(name, ptr.join(at, "name"));
    const params = Array.isArray(method["params"]) ? method["params"] : [];
    const names = new Set<string>();
    const paramNames = params.map((p) => (isObj(p) && typeof p["$ref"] === "string" ? doc.resolve(p["$ref"])?.value : p)).map((cd) => (isObj(cd) && typeof cd["name"] === "string" ? cd["name"] : ""));
    checkResultByParam(method, paramNames, at, report);
    readLimits(method, at, "operation", report, paramNames, methodNames);
    let optionalSeen = false;
    params.forEach((p, j) => {
      const pAt = ptr.join(at, "params", j);
      const cd = isObj(p) && typeof p["$ref"] === "string" ? doc.resolve(p["$ref"])?.value : p;
      if (!isObj(cd) || typeof cd["name"] !== "string") return;
      if (names.has(cd["name"])) report("param/duplicate-name", ptr.join(pAt, "name"), `duplicate param name ${JSON.stringify(cd["name"])} in ${JSON.stringify(name)}`);
      names.add(cd["name"]);
      if (method["paramStructure"] === "by-position") {
        if (cd["required"] === true && optionalSeen) report("param/required-after-optional", pAt, `required param ${JSON.stringify(cd["name"])} follows an optional one in by-position method ${JSON.stringify(name)}`, "positional params can only be omitted from the end");
        if (cd["required"] !== true) optionalSeen = true;
      }
    });
  });
  return out;
}

/**
 * `x-error-data-schema: true` (proposed in open-rpc/spec#392) says every
 * error object's `data` is a JSON Schema of the `data` the server sends, so
 * the generated error classes can type it; a `data` that is not a schema
 * then is a mistake.
 */
function checkErrorData(root: Record<string, unknown>, report: (code: string, pointer: string, message: string, hint?: string) => void): void {
  const flag = root["x-error-data-schema"];
  if (flag === undefined) return;
  if (typeof flag !== "boolean") {
    report("openrpc/error-data-schema", "#/x-error-data-schema", "x-error-data-schema must be true or false", "true: every error object's data is a JSON Schema of the data the server sends");
    return;
  }
  if (!flag) return;
  const check = (error: unknown, at: string) => {
    if (!isObj(error) || typeof error["$ref"] === "string" || !("data" in error)) return;
    const data = error["data"];
    if (!isObj(data) && typeof data !== "boolean") report("openrpc/error-data-schema", ptr.join(at, "data"), `with x-error-data-schema: true, an error's data must be a JSON Schema (an object or a boolean), not ${data === null ? "null" : Array.isArray(data) ? "an array" : typeof data}`, 'describe the data in a schema, e.g. { description: "…", type: "string" }');
  };
  const components = isObj(root["components"]) ? root["components"] : {};
  if (isObj(components["errors"])) for (const [name, e] of Object.entries(components["errors"])) check(e, ptr.join("#/components/errors", name));
  (Array.isArray(root["methods"]) ? root["methods"] : []).forEach((m, i) => {
    if (isObj(m) && Array.isArray(m["errors"])) m["errors"].forEach((e, k) => check(e, ptr.join("#/methods", i, "errors", k)));
  });
}
