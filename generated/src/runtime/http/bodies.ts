/**
 * Request bodies other than JSON: `application/x-www-form-urlencoded` and
 * `multipart/form-data`, built from the params' `body` object. A descriptor
 * names the encoder it needs (`encode: formBody`), so bundles of JSON-only
 * operations carry none of this. Raw bodies (octet-stream, text) need no
 * encoder: fetch sends a Blob, an ArrayBuffer, a typed array or a string as is.
 */
import type { BodyEncoder } from "./http.js";
import { queryStyle } from "./styles.js";
import { hasOwn, isBinary } from "../values/validate.js";

/** One field's values as text: arrays repeat the field, objects travel as JSON. */
function fieldValues(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(fieldValues);
  return [typeof value === "object" ? JSON.stringify(value) : String(value)];
}

/** A value inside a styled field: scalars as text, anything deeper (which no style defines) as JSON. */
const styledText = (value: unknown): string => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));

/**
 * `a=1&b=x&b=y`: arrays repeat the key (form, exploded), nested objects are
 * JSON. A field whose Encoding Object gives a style (`fields`) is written as
 * a query parameter of that style: `filter%5Bcolor%5D=red` for `deepObject`,
 * `ids=1,2` for `form` not exploded. A string or URLSearchParams goes as is.
 */
export const formBody: BodyEncoder = (body, fields) => {
  if (typeof body === "string" || body instanceof URLSearchParams) return { body: String(body), contentType: "application/x-www-form-urlencoded" };
  const pairs: string[] = [];
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const field = fields !== undefined && hasOwn(fields, k) ? fields[k] : undefined;
    if (field === undefined) for (const text of fieldValues(v)) pairs.push(new URLSearchParams([[k, text]]).toString());
    else if (v !== undefined && v !== null) pairs.push(...(queryStyle({ name: k, in: "query", ...field }, v, styledText) as string[]));
  }
  return { body: pairs.join("&"), contentType: "application/x-www-form-urlencoded" };
};

/**
 * FormData parts: bytes (a Blob, File, ArrayBuffer or typed array) become file
 * parts, arrays repeat the part, objects are JSON, the rest text. fetch writes
 * the content-type with its boundary, so none is set here.
 */
export const multipartBody: BodyEncoder = (body) => {
  if (body instanceof FormData) return { body };
  const form = new FormData();
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === undefined || item === null) continue;
      if (isBinary(item)) {
        const blob = item instanceof Blob ? item : new Blob([item as ArrayBuffer]);
        form.append(k, blob, typeof File !== "undefined" && blob instanceof File ? blob.name : k);
      } else form.append(k, fieldValues(item)[0]!);
    }
  }
  return { body: form };
};
