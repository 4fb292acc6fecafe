/**
 * Structural checks an OpenAPI 3.0/3.1/3.2 document must pass before the IR is
 * built, plus avaspec's own rules. Every finding is a Diagnostic with a code,
 * the pointer of the node at fault and its position; nothing is thrown.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";
import { isOpenApi32, pathItemOperations } from "../load/operations.js";
import { checkOpenApi32Schema, checkTagParents } from "./openapi32.js";
import { checkAdvice, checkOperationExtensions, checkTokenLifetime } from "./extensions.js";
import { checkDocumentLimits, readLimits } from "./limits.js";
import { paginationDeclaration } from "./pagination.js";
import { checkObjectRefCycles, checkRefs } from "./refs.js";
import { checkServerUrls, suspicious, warner } from "./suspicious.js";
import { checkWire } from "./wire.js";
import { append } from "../append.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function validateOpenApi(doc: LoadedDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (code: string, pointer: string, message: string, hint?: string, severity: "error" | "warning" = "error") => {
    const { line, col } = doc.locate(pointer);
    out.push({ code, severity, message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };
  const root = doc.root;
  if (!isObj(root)) {
    report("openapi/root", "#", "the document must be an object");
    return out;
  }
  if (root["openapi"] === undefined && root["swagger"] !== undefined) {
    // Swagger "2.0" is converted on load (load/swagger2.ts); any other version ends here
    report("openapi/swagger-2", "#/swagger", `this is a Swagger ${JSON.stringify(root["swagger"])} document; avaspec reads Swagger "2.0" (converted to OpenAPI 3.0 on load), OpenAPI 3.0 and 3.1`, 'set "swagger: \'2.0\'" if the document is Swagger 2.0; convert an older one to Swagger 2.0 or OpenAPI 3 first');
    return out;
  }
  const version = root["openapi"];
  if (typeof version !== "string" || !/^3\.[012]\.\d+(-.+)?$/.test(version)) {
    report("openapi/version", isObj(root) && "openapi" in root ? "#/openapi" : "#", `unsupported or missing "openapi" version ${JSON.stringify(version ?? null)}`, 'avaspec reads OpenAPI 3.0.x, 3.1.x and 3.2.x: set "openapi: 3.1.0"');
  }
  const is32 = isOpenApi32(root);
  // 3.2 documents meet the official schema first: what it refuses, avaspec's own rules need not guess at
  if (is32 && checkOpenApi32Schema(root, report)) return out;
  if (is32) checkTagParents(root, report);
  const info = root["info"];
  if (!isObj(info)) report("openapi/info", "#", 'missing "info" object');
  else {
    if (typeof info["title"] !== "string") report("openapi/info", "#/info", 'missing "info.title"');
    if (typeof info["version"] !== "string") report("openapi/info", "#/info", 'missing "info.version" (a string)');
  }

  checkRefs(doc, root, "#", report);
  checkObjectRefCycles(doc, "openapi", report);
  checkAdvice(root, report);
  checkDocumentLimits(root, report);
  append(out, suspicious(doc), suspiciousOpenApi(doc), checkWire(doc));

  const paths = root["paths"];
  if (paths !== undefined && !isObj(paths)) report("openapi/paths", "#/paths", '"paths" must be an object');
  if (paths === undefined && root["webhooks"] === undefined && root["components"] === undefined) report("openapi/paths", "#", 'missing "paths"');
  const seenIds = new Map<string, string>();
  // what a declared range's `head` may name: any operation of the document, before or after it
  const operationIds = Object.values(isObj(paths) ? paths : {}).flatMap((item) => (isObj(item) ? pathItemOperations(item, is32).map(({ op }) => (isObj(op) ? op["operationId"] : undefined)) : [])).filter((id): id is string => typeof id === "string");
  for (const [path, item] of Object.entries(isObj(paths) ? paths : {})) {
    const itemPtr = ptr.join("#/paths", path);
    if (!path.startsWith("/")) report("openapi/path", itemPtr, `path ${JSON.stringify(path)} must start with "/"`);
    if (!isObj(item)) {
      report("openapi/path-item", itemPtr, "a path item must be an object");
      continue;
    }
    const templateNames = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
    const pathLevel = declaredParams(doc, item["parameters"], ptr.join(itemPtr, "parameters"));
    for (const { keys, op } of pathItemOperations(item, is32)) {
      const opPtr = ptr.join(itemPtr, ...keys);
      if (!isObj(op)) {
        report("openapi/operation", opPtr, "an operation must be an object");
        continue;
      }
      const id = op["operationId"];
      if (id !== undefined) {
        if (typeof id !== "string" || id.trim() === "") report("operation/id", ptr.join(opPtr, "operationId"), "operationId must be a non-empty string");
        else if (seenIds.has(id)) report("operation/duplicate-id", ptr.join(opPtr, "operationId"), `duplicate operationId ${JSON.stringify(id)} (first used at ${seenIds.get(id)})`, "operationIds must be unique: rename one of them");
        else seenIds.set(id, ptr.join(opPtr, "operationId"));
      }
      if (!isObj(op["responses"]) || Object.keys(op["responses"]).length === 0) report("operation/responses", opPtr, 'an operation needs a non-empty "responses" object');
      checkOperationExtensions(op, opPtr, report);
      paginationDeclaration(op, opPtr, report);
      readLimits(op, opPtr, "operation", report, undefined, operationIds);
      const opLevel = declaredParams(doc, op["parameters"], ptr.join(opPtr, "parameters"));
      const all = new Map([...pathLevel, ...opLevel]);
      for (const name of templateNames) {
        if (!all.has(`path:${name}`)) report("parameter/path-undeclared", opPtr, `path template parameter {${name}} of ${JSON.stringify(path)} is not declared`, `add a parameter with "in: path" and "name: ${name}"`);
      }
      for (const [key, p] of all) {
        checkTokenLifetime(p.value, p.pointer, report);
        if (!key.startsWith("path:")) continue;
        const name = key.slice(5);
        if (!templateNames.includes(name)) report("parameter/path-unused", p.pointer, `path parameter ${JSON.stringify(name)} does not appear in ${JSON.stringify(path)}`);
        if (p.value["required"] !== true) report("parameter/path-required", p.pointer, `path parameter ${JSON.stringify(name)} must have "required: true"`);
      }
    }
  }
  return out;
}

function declaredParams(doc: LoadedDocument, list: unknown, listPtr: string): Map<string, { pointer: string; value: Record<string, unknown> }> {
  const out = new Map<string, { pointer: string; value: Record<string, unknown> }>();
  if (!Array.isArray(list)) return out;
  for (const [i, p] of list.entries()) {
    let value: unknown = p;
    let pointer = ptr.join(listPtr, i);
    if (isObj(p) && typeof p["$ref"] === "string") {
      const r = doc.resolve(p["$ref"]);
      if (!r) continue;
      value = r.value;
      pointer = r.pointer;
    }
    if (isObj(value) && typeof value["name"] === "string" && typeof value["in"] === "string") {
      out.set(`${value["in"]}:${value["name"]}`, { pointer, value });
    }
  }
  return out;
}

/** OpenAPI: `parameters` that is not a list (it would be dropped), a parameter listed twice (the last would win), a server URL that is not http(s). */
function suspiciousOpenApi(doc: LoadedDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = warner(doc, out);
  const root = doc.root;
  if (!isObj(root)) return out;
  const lists: { holder: Record<string, unknown>; pointer: string }[] = [];
  const servers: { list: unknown; pointer: string }[] = [{ list: root["servers"], pointer: "#/servers" }];
  for (const [path, item] of Object.entries(isObj(root["paths"]) ? root["paths"] : {})) {
    if (!isObj(item)) continue;
    const itemPtr = ptr.join("#/paths", path);
    lists.push({ holder: item, pointer: itemPtr });
    servers.push({ list: item["servers"], pointer: ptr.join(itemPtr, "servers") });
    for (const { keys, op } of pathItemOperations(item, isOpenApi32(root))) {
      if (isObj(op)) {
        lists.push({ holder: op, pointer: ptr.join(itemPtr, ...keys) });
        servers.push({ list: op["servers"], pointer: ptr.join(itemPtr, ...keys, "servers") });
      }
    }
  }
  for (const { holder, pointer } of lists) {
    const params = holder["parameters"];
    if (params === undefined) continue;
    const here = ptr.join(pointer, "parameters");
    if (!Array.isArray(params)) {
      warn("openapi/parameters", here, "parameters must be a list; this one is ignored", "write it as a YAML list (- name: …) or a JSON array");
      continue;
    }
    const seen = new Map<string, number>();
    params.forEach((p, i) => {
      const resolved = isObj(p) && typeof p["$ref"] === "string" ? doc.resolve(p["$ref"])?.value : p;
      if (!isObj(resolved) || typeof resolved["name"] !== "string" || typeof resolved["in"] !== "string") return;
      const id = `${resolved["in"]} ${resolved["name"]}`;
      const first = seen.get(id);
      if (first !== undefined) warn("openapi/parameter-duplicate", ptr.join(here, i), `${resolved["in"]} parameter ${JSON.stringify(resolved["name"])} is listed twice (first at ${ptr.join(here, first)}); the last one is used`, "a parameter is unique by name and location: remove one");
      else seen.set(id, i);
    });
  }
  for (const { list, pointer } of servers) checkServerUrls(list, pointer, warn, "openapi/server-url");
  return out;
}
