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

/** `form` not exploded, `spaceDelimited`, `pipeDelimited` and `deepObject`: the query's `name=value` pairs. */
export const queryStyle: ParamEncoder = (spec, value, text) => {
  const name = enc(spec.name);
  const explode = spec.explode ?? spec.style === "form";
  if (Array.isArray(value)) {
    const parts = value.map((v) => enc(text(v)));
    if (explode) return parts.map((p) => `${name}=${p}`);
    return [`${name}=${parts.join(spec.style === "spaceDelimited" ? "%20" : spec.style === "pipeDelimited" ? "|" : ",")}`];
  }
  if (value !== null && typeof value === "object") {
    const kv = encodedEntries(value as Record<string, unknown>, text);
    if (spec.style === "deepObject") return kv.map(([k, v]) => `${name}%5B${k}%5D=${v}`);
    if (explode) return kv.map(([k, v]) => `${k}=${v}`);
    return [`${name}=${kv.flat().join(",")}`];
  }
  return [`${name}=${enc(text(value))}`];
};
