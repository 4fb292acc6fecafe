/**
 * OpenAPI parameter styles other than the defaults (path `simple`, query
 * `form` exploded), after RFC 6570. A descriptor names the encoder it needs
 * (`encode: pathStyle`), so only bundles of operations that use these styles
 * carry this code.
 */
import { encodedEntries, type ParamEncoder } from "./http.js";

const enc = encodeURIComponent;

/** `simple` exploded, `label` and `matrix`, each exploded or not: one path segment. */
export const pathStyle: ParamEncoder = (spec, value, text) => {
  const explode = spec.explode === true;
  const name = enc(spec.name);
  // what comes before each value, and what joins exploded ones
  const lead = spec.style === "label" ? "." : spec.style === "matrix" ? `;${name}=` : "";
  if (Array.isArray(value)) {
    const parts = value.map((v) => enc(text(v)));
    if (!explode) return lead + parts.join(",");
    return spec.style === "matrix" ? parts.map((p) => lead + p).join("") : lead + parts.join(spec.style === "label" ? "." : ",");
  }
  if (value !== null && typeof value === "object") {
    const kv = encodedEntries(value as Record<string, unknown>, text);
    if (!explode) return lead + kv.flat().join(",");
    const pairs = kv.map(([k, v]) => `${k}=${v}`);
    return spec.style === "matrix" ? pairs.map((p) => `;${p}`).join("") : (spec.style === "label" ? "." : "") + pairs.join(spec.style === "label" ? "." : ",");
  }
  return lead + enc(text(value));
};

/**
 * A header parameter that may be an object, in `simple` style (a header's
 * only one), passed through without percent-encoding as OpenAPI asks:
 * `k,v,k2,v2`, or exploded `k=v,k2=v2`; an array `a,b`.
 */
export const headerStyle: ParamEncoder = (spec, value, text) => {
  if (Array.isArray(value)) return value.map(text).join(",");
  if (value === null || typeof value !== "object") return text(value);
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, text(v)]);
  return (spec.explode === true ? entries.map(([k, v]) => `${k}=${v}`) : entries.flat()).join(",");
};

/**
 * RFC 6570 reserved expansion, which `allowReserved` asks for: reserved
 * characters and `%XX` escapes go as they are (a value may hold `a/b` or a
 * pre-encoded `%26`), except `#`, `[` and `]`, which a query cannot hold;
 * everything else, a lone `%` included, is percent-encoded.
 */
function reserved(s: string): string {
  return s.replace(/%[0-9A-Fa-f]{2}|[^%]+|%/g, (m) => (m.length === 3 && m.charAt(0) === "%" ? m : encodeURI(m).replace(/#/g, "%23")));
}

/**
 * `form` (not exploded, or keeping reserved characters), `spaceDelimited`,
 * `pipeDelimited` and `deepObject`: the `name=value` pairs of a query (or of
 * a cookie header, or a form body's styled field).
 */
export const queryStyle: ParamEncoder = (spec, value, text) => {
  const name = enc(spec.name);
  const explode = spec.explode ?? spec.style === "form";
  const encode = spec.allowReserved === true ? reserved : enc;
  if (Array.isArray(value)) {
    const parts = value.map((v) => encode(text(v)));
    if (explode) return parts.map((p) => `${name}=${p}`);
    return [`${name}=${parts.join(spec.style === "spaceDelimited" ? "%20" : spec.style === "pipeDelimited" ? "|" : ",")}`];
  }
  if (value !== null && typeof value === "object") {
    const kv = encodedEntries(value as Record<string, unknown>, text, encode);
    if (spec.style === "deepObject") return kv.map(([k, v]) => `${name}%5B${k}%5D=${v}`);
    if (explode) return kv.map(([k, v]) => `${k}=${v}`);
    return [`${name}=${kv.flat().join(",")}`];
  }
  return [`${name}=${encode(text(value))}`];
};

/**
 * A parameter given by a media type rather than a style (`content`): a
 * query parameter is `name=` and its value's JSON text (or text); OpenAPI
 * 3.2's `in: querystring` is the whole query string: the value's JSON text,
 * or, for `application/x-www-form-urlencoded`, an object's members as form
 * fields (an array's items repeat the field; an object member is JSON).
 */
export const contentQuery: ParamEncoder = (spec, value, text) => {
  if (spec.in === "querystring" && spec.content === "form" && value !== null && typeof value === "object" && !Array.isArray(value)) {
    const field = (v: unknown) => enc(v !== null && typeof v === "object" ? JSON.stringify(v) : text(v));
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((item) => `${enc(k)}=${field(item)}`));
  }
  const serialized = enc(spec.content === "json" ? JSON.stringify(value) : text(value));
  return [spec.in === "querystring" ? serialized : `${enc(spec.name)}=${serialized}`];
};
