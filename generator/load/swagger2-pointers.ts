/**
 * Pointers of an OpenAPI 3.0 document converted from Swagger 2.0, taken back
 * to the Swagger 2.0 document they came from, so a diagnostic names the place
 * the user wrote. The rules follow what swagger2openapi moves:
 *
 *   components/schemas/X            ← definitions/X
 *   components/parameters/X         ← parameters/X (`schema/…` ← the parameter's own type keys)
 *   components/responses/X, …/responses/C/content/<type>/schema ← …/responses/C/schema
 *   components/securitySchemes/X    ← securityDefinitions/X (flows/<flow>/… ← …)
 *   requestBody (and components/requestBodies/X) ← the `in: body` parameter, or
 *     the `in: formData` parameter named by `schema/properties/<name>`
 *   servers                         ← host, basePath, schemes
 *   openapi                         ← swagger
 *
 * Component names the converter sanitised are matched by sanitising the
 * original names the same way. Whatever the rules do not reach falls back to
 * the nearest ancestor that exists in the original.
 */
import * as ptr from "./pointer.js";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const child = (v: unknown, k: string | number): unknown => (Array.isArray(v) ? v[Number(k)] : isObj(v) ? v[String(k)] : undefined);

/** swagger2openapi's renaming of parameter, response and security scheme names (oas-kit-common's sanitise). */
export function sanitise(name: string): string {
  const parts = name.replace("[]", "Array").split("/");
  parts[0] = parts[0]!.replace(/[^A-Za-z0-9_\-.]+|\s+/gm, "_");
  return parts.join("/");
}
/** …and of schema names (sanitiseAll: `/` too). */
const sanitiseAll = (name: string) => sanitise(name.split("/").join("_"));

/** The original name of a component the converter may have renamed. */
function originalName(section: unknown, name: string, rename: (n: string) => string): string {
  if (!isObj(section) || name in section) return name;
  // a clash got a numeric suffix: the name without it
  const bare = name.replace(/\d+$/, "");
  return Object.keys(section).find((n) => rename(n) === name) ?? Object.keys(section).find((n) => rename(n) === bare) ?? name;
}

/** Inside a parameter other than a body: its 3.0 `schema` holds what 2.0 wrote on the parameter itself. */
const parameterRest = (rest: string[]) => (rest[0] === "schema" ? rest.slice(1) : rest);

/** Inside a response: the schema and examples under `content/<type>` were on the response itself. */
function responseRest(rest: string[]): string[] {
  if (rest[0] === "content") {
    if (rest[2] === "schema") return rest.slice(2);
    if (rest[2] === "example" || rest[2] === "examples") return ["examples", rest[1] ?? ""];
    return [];
  }
  if (rest[0] === "headers" && rest[2] === "schema") return [...rest.slice(0, 2), ...rest.slice(3)];
  return rest;
}

/** The index in the original list of the parameter at `index` of the converted one (body and formData parameters left the list). */
function originalParameter(originalList: unknown, convertedList: unknown, index: string): number | undefined {
  const p = child(convertedList, index);
  if (!Array.isArray(originalList) || !isObj(p)) return undefined;
  const i = originalList.findIndex((o) => {
    if (!isObj(o)) return false;
    if (typeof p["$ref"] === "string") return typeof o["$ref"] === "string" && sanitise(o["$ref"].split("/").pop() ?? "") === p["$ref"].split("/").pop();
    return o["name"] === p["name"] && o["in"] === p["in"];
  });
  return i < 0 ? undefined : i;
}

/** Where a request body came from: the body parameter, or for a form, the formData parameter a property names. */
function requestBodyOrigin(original: Json, op: Json, pathItem: Json, rest: string[], opTokens: string[], itemTokens: string[]): string[] {
  // a parameter given by `$ref` to the document's `parameters` is looked for where it is defined
  const shared = (p: unknown): { value: unknown; at?: string[] } => {
    const name = isObj(p) && typeof p["$ref"] === "string" ? /^#\/parameters\/(.+)$/.exec(p["$ref"])?.[1] : undefined;
    const tokens = name === undefined ? undefined : ptr.parse(`#/parameters/${name}`, true);
    return tokens ? { value: child(original["parameters"], tokens[1]!), at: tokens } : { value: p };
  };
  const find = (test: (p: Json) => boolean): string[] | undefined => {
    for (const [list, at] of [
      [op["parameters"], opTokens],
      [pathItem["parameters"], itemTokens],
    ] as const) {
      if (!Array.isArray(list)) continue;
      for (const [i, p] of list.entries()) {
        const found = shared(p);
        if (isObj(found.value) && test(found.value)) return found.at ?? [...at, "parameters", String(i)];
      }
    }
    return undefined;
  };
  const body = find((p) => p["in"] === "body");
  if (body) {
    if (rest[0] === "content") return rest[2] === "schema" ? [...body, ...rest.slice(2)] : body;
    return rest[0] === "description" || rest[0] === "required" ? [...body, rest[0]] : body;
  }
  // a form: content/<type>/schema/properties/<name>/… is the formData parameter <name>
  const field = rest[0] === "content" && rest[2] === "schema" && rest[3] === "properties" ? rest[4] : undefined;
  const form = (field !== undefined ? find((p) => p["in"] === "formData" && p["name"] === field) : undefined) ?? find((p) => p["in"] === "formData");
  if (form && field !== undefined && rest.length > 5) return [...form, ...rest.slice(5)];
  return form ?? opTokens;
}

/** A pointer under an operation (`opTokens` in both documents). */
function operationTokens(original: Json, converted: Json, opTokens: string[], rest: string[]): string[] {
  const op = ptr.get(original, opTokens);
  const convertedOp = ptr.get(converted, opTokens);
  const pathItem = ptr.get(original, opTokens.slice(0, -1));
  if (!op.found || !isObj(op.value) || !convertedOp.found || !pathItem.found || !isObj(pathItem.value)) return opTokens;
  if (rest[0] === "parameters" && rest[1] !== undefined) {
    const i = originalParameter(op.value["parameters"], child(convertedOp.value, "parameters"), rest[1]);
    return i === undefined ? opTokens : [...opTokens, "parameters", String(i), ...parameterRest(rest.slice(2))];
  }
  if (rest[0] === "requestBody") return requestBodyOrigin(original, op.value, pathItem.value, rest.slice(1), opTokens, opTokens.slice(0, -1));
  if (rest[0] === "responses" && rest[1] !== undefined) return [...opTokens, "responses", rest[1], ...responseRest(rest.slice(2))];
  return [...opTokens, ...rest];
}

/** A pointer under `paths` (or `x-ms-paths`): path items keep their keys, operations their methods. */
function pathTokens(original: Json, converted: Json, tokens: string[]): string[] {
  const item = tokens.slice(0, 2);
  const rest = tokens.slice(2);
  if (rest[0] === "parameters" && rest[1] !== undefined) {
    const list = (doc: Json) => child(child(child(doc, item[0]!), item[1]!), "parameters");
    const i = originalParameter(list(original), list(converted), rest[1]);
    return i === undefined ? item : [...item, "parameters", String(i), ...parameterRest(rest.slice(2))];
  }
  if (rest.length === 0) return item;
  return operationTokens(original, converted, [...item, rest[0]!], rest.slice(1));
}

/** A shared request body the converter made: where the first operation using it took it from. */
function requestBodyUser(original: Json, converted: Json, name: string, rest: string[]): string[] {
  const ref = ptr.join("#/components/requestBodies", name);
  for (const section of ["paths", "x-ms-paths"]) {
    for (const [path, item] of Object.entries(isObj(converted[section]) ? converted[section] : {})) {
      for (const [method, op] of Object.entries(isObj(item) ? item : {})) {
        if (isObj(op) && isObj(op["requestBody"]) && op["requestBody"]["$ref"] === ref) return operationTokens(original, converted, [section, path, method], ["requestBody", ...rest]);
      }
    }
  }
  return isObj(original["parameters"]) && name in original["parameters"] ? ["parameters", name] : [];
}

function componentTokens(original: Json, converted: Json, kind: string, name: string, rest: string[]): string[] {
  switch (kind) {
    case "schemas":
      return ["definitions", originalName(original["definitions"], name, sanitiseAll), ...rest];
    case "parameters":
      return ["parameters", originalName(original["parameters"], name, sanitise), ...parameterRest(rest)];
    case "responses":
      return ["responses", originalName(original["responses"], name, sanitise), ...responseRest(rest)];
    case "securitySchemes":
      return ["securityDefinitions", originalName(original["securityDefinitions"], name, sanitise), ...(rest[0] === "flows" ? rest.slice(2) : rest)];
    case "requestBodies":
      return requestBodyUser(original, converted, name, rest);
    default:
      return [];
  }
}

/** The tokens a converted pointer's tokens came from, before the nearest-ancestor fallback. */
function mapTokens(original: Json, converted: Json, tokens: string[]): string[] {
  const [head, ...rest] = tokens;
  if (head === undefined) return [];
  if (head === "openapi") return ["swagger"];
  if (head === "servers") return isObj(original) && "x-servers" in original ? ["x-servers", ...rest] : [["host"], ["basePath"], ["schemes"]].find(([k]) => k! in original) ?? [];
  if (head === "components") return rest.length >= 2 ? componentTokens(original, converted, rest[0]!, rest[1]!, rest.slice(2)) : [];
  if ((head === "paths" || head === "x-ms-paths") && rest.length > 0) return pathTokens(original, converted, tokens);
  return tokens;
}

/** The pointer of the Swagger 2.0 document (`original`) that a pointer of its conversion (`converted`) came from. */
export function originalPointer(original: Json, converted: Json, pointer: string): string {
  const tokens = ptr.parse(pointer);
  if (tokens === undefined) return pointer;
  const mapped = mapTokens(original, converted, tokens);
  while (mapped.length > 0 && !ptr.get(original, mapped).found) mapped.pop();
  return "#" + mapped.map((t) => "/" + ptr.escapeToken(t)).join("");
}
