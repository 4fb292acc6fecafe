/**
 * Things a document may legally say, or that a parser turns into something
 * else, which the generator would otherwise take silently: each is a warning
 * at its pointer, and generation goes on.
 */
import type { Diagnostic } from "../load/diagnostics.js";
import type { LoadedDocument } from "../load/load.js";
import * as ptr from "../load/pointer.js";

import { isDataMember, NAME_MAPS } from "../load/vocabulary.js";

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

export type Warn = (code: string, pointer: string, message: string, hint?: string) => void;

/** A warning reporter into `out`, positioned in `doc`. */
export function warner(doc: LoadedDocument, out: Diagnostic[]): Warn {
  return (code, pointer, message, hint) => {
    const { line, col } = doc.locate(pointer);
    out.push({ code, severity: "warning", message, file: doc.file, pointer, line, col, ...(hint ? { hint } : {}) });
  };
}

/** What the walk below visits: containers, and the one kind of scalar it reports (a value popped without either adds nothing). */
const walked = (v: unknown): boolean => (typeof v === "object" && v !== null) || (typeof v === "number" && !Number.isFinite(v));

export function suspicious(doc: LoadedDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const warn = warner(doc, out);
  // iterative: the tree may be deep; `inNames` marks a map whose keys are names, `data` a value that is only data
  const stack: { node: unknown; pointer: string; inNames: boolean; data: boolean }[] = [{ node: doc.root, pointer: "#", inNames: false, data: false }];
  while (stack.length > 0) {
    const { node, pointer, inNames, data } = stack.pop()!;
    if (typeof node === "number" && !Number.isFinite(node)) warn("load/number", pointer, "a number too large for a double (e.g. 1e999) was read as Infinity", "write a smaller number, or a string if the value is an identifier");
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        if (walked(v)) stack.push({ node: v, pointer: ptr.join(pointer, i), inNames: false, data });
      });
      continue;
    }
    if (!isObj(node)) continue;
    for (const key of Object.keys(node)) {
      const value = node[key];
      // the member's pointer is made only for what is reported or walked into (most members are scalars and fine)
      if (!data && !inNames) {
        if (key === "$ref" && typeof value !== "string") warn("ref/type", ptr.join(pointer, key), `$ref must be a string; ${JSON.stringify(value)} is ignored`);
        if (key === "$ref" && typeof value === "string" && value.startsWith("#")) {
          const tokens = ptr.parse(value, true);
          if (tokens && tokens.length <= 1 && NOT_TARGETS.has(tokens[0] ?? "")) warn("ref/target", ptr.join(pointer, key), `$ref ${JSON.stringify(value)} points at a part of the document, not at a schema or another reusable object; it is read as any value`, "point it at components (OpenAPI) or a $defs/definitions entry");
        }
        if (key === "multipleOf" && typeof value === "number" && !(value > 0)) warn("schema/multipleOf", ptr.join(pointer, key), `multipleOf must be greater than 0; ${value} is ignored`);
        if (key === "pattern" && typeof value === "string" && NESTED_QUANTIFIER.test(value)) {
          warn("schema/pattern-backtracking", ptr.join(pointer, key), `pattern ${JSON.stringify(value)} nests quantifiers, so a long string that almost matches can take seconds to check (catastrophic backtracking)`, "write it without the outer quantifier, e.g. ^(a+)+$ as ^a+$");
        }
      }
      if (!walked(value)) continue;
      const childData = data || (!inNames && isDataMember(key, value));
      stack.push({ node: value, pointer: ptr.join(pointer, key), inNames: !inNames && !childData && NAME_MAPS.has(key), data: childData });
    }
  }
  return out;
}

/**
 * Whether a server URL can be the client's base URL: http, https or relative.
 * A `javascript:`, `file:`, `data:` or `ws:` URL never is (the builders pass
 * over it; `checkServerUrls` warns).
 */
export function isHttpServerUrl(url: string): boolean {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https";
}

/** A warning for each server URL of a `servers` list (at `pointer`) that cannot be a base URL (for OpenRPC, a ws: or wss: server is the endpoint's WebSocket form, not a warning). */
export function checkServerUrls(list: unknown, pointer: string, warn: Warn, code: "openapi/server-url" | "openrpc/server-url"): void {
  if (!Array.isArray(list)) return;
  list.forEach((s, i) => {
    const url = isObj(s) ? s["url"] : undefined;
    if (code === "openrpc/server-url" && typeof url === "string" && /^wss?:\/\//i.test(url)) return;
    if (typeof url === "string" && !isHttpServerUrl(url)) warn(code, ptr.join(pointer, i, "url"), `server URL ${JSON.stringify(url)} is not http or https; the client will not use it as a base URL`, "pass baseUrl to the client, or fix the URL");
  });
}
