/**
 * Things a document may legally say, or that a parser turns into something
 * else, which the generator would otherwise take silently: each is a warning
 * at its pointer, and generation goes on.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";

import { isDataMember, NAME_MAPS } from "./refs.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Top-level members a `$ref` can point at that hold no reusable object. */
const NOT_TARGETS = new Set(["", "openapi", "openrpc", "info", "paths", "servers", "security", "tags", "externalDocs", "webhooks", "jsonSchemaDialect", "methods"]);
/**
 * A group that is one quantified atom, itself quantified, such as `(a+)+`,
 * `(\\w*)*` or `([a-z]+){2,}`: on a near-miss input a backtracking engine
 * (JavaScript's) tries exponentially many ways to split the text. A group
 * with more in it (`(-[a-z]+)*`) is split one way only and is not flagged.
 */
const NESTED_QUANTIFIER = /\((?:\?:)?(?:\\.|\[(?:[^\]\\]|\\.)*\]|[^()\\|[])[+*]\)(?:[+*]|\{\d+,\d*\})/;

type Warn = (code: string, pointer: string, message: string, hint?: string) => void;

/** A warning reporter into `out`, positioned in `doc`. */
function warner(doc: LoadedDocument, out: Diagnostic[]): Warn {
  return (code, pointer, message, hint) => {
    const { line, col } = doc.locate(pointer);
    out.push({ code, severity: "warning", message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };
}

export function suspicious(doc: LoadedDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = warner(doc, out);
  // iterative: the tree may be deep; `inNames` marks a map whose keys are names, `data` a value that is only data
  const stack: { node: unknown; pointer: string; inNames: boolean; data: boolean }[] = [{ node: doc.root, pointer: "#", inNames: false, data: false }];
  while (stack.length > 0) {
    const { node, pointer, inNames, data } = stack.pop()!;
    if (typeof node === "number" && !Number.isFinite(node)) warn("load/number", pointer, "a number too large for a double (e.g. 1e999) was read as Infinity", "write a smaller number, or a string if the value is an identifier");
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push({ node: v, pointer: ptr.join(pointer, i), inNames: false, data }));
      continue;
    }
    if (!isObj(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      const here = ptr.join(pointer, key);
      if (!data && !inNames) {
        if (key === "$ref" && typeof value !== "string") warn("ref/type", here, `$ref must be a string; ${JSON.stringify(value)} is ignored`);
        if (key === "$ref" && typeof value === "string" && value.startsWith("#")) {
          const tokens = ptr.parse(value, true);
          if (tokens && tokens.length <= 1 && NOT_TARGETS.has(tokens[0] ?? "")) warn("ref/target", here, `$ref ${JSON.stringify(value)} points at a part of the document, not at a schema or another reusable object; it is read as any value`, "point it at components (OpenAPI) or a $defs/definitions entry");
        }
        if (key === "multipleOf" && typeof value === "number" && !(value > 0)) warn("schema/multipleOf", here, `multipleOf must be greater than 0; ${value} is ignored`);
        if (key === "pattern" && typeof value === "string" && NESTED_QUANTIFIER.test(value)) {
          warn("schema/pattern-backtracking", here, `pattern ${JSON.stringify(value)} nests quantifiers, so a long string that almost matches can take seconds to check (catastrophic backtracking)`, "write it without the outer quantifier, e.g. ^(a+)+$ as ^a+$");
        }
      }
      const childData = data || (!inNames && isDataMember(key, value));
      stack.push({ node: value, pointer: here, inNames: !inNames && !childData && NAME_MAPS.has(key), data: childData });
    }
  }
  return out;
}

/** OpenAPI: `parameters` that is not a list (it would be dropped), a parameter listed twice (the last would win), a server URL that is not http(s). */
export function suspiciousOpenApi(doc: LoadedDocument): Diagnostic[] {
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
    for (const m of ["get", "put", "post", "delete", "options", "head", "patch", "trace"]) {
      if (isObj(item[m])) {
        lists.push({ holder: item[m], pointer: ptr.join(itemPtr, m) });
        servers.push({ list: item[m]["servers"], pointer: ptr.join(itemPtr, m, "servers") });
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
  for (const { list, pointer } of servers) {
    if (!Array.isArray(list)) continue;
    list.forEach((s, i) => {
      const url = isObj(s) ? s["url"] : undefined;
      if (typeof url !== "string") return;
      const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
      if (scheme !== undefined && scheme !== "http" && scheme !== "https") warn("openapi/server-url", ptr.join(pointer, i, "url"), `server URL ${JSON.stringify(url)} is not http or https; the client will not use it as a base URL`, "pass baseUrl to the client, or fix the URL");
    });
  }
  return out;
}
