/** RFC 6901 JSON pointers in URI-fragment form (`#/a/b~1c`). */
export function escapeToken(token: string): string {
  // most tokens have neither character: no regex runs for them (pointers are made for every node of a big document)
  return token.includes("~") || token.includes("/") ? token.replace(/~/g, "~0").replace(/\//g, "~1") : token;
}

function unescapeToken(token: string): string {
  return token.includes("~") ? token.replace(/~1/g, "/").replace(/~0/g, "~") : token;
}

export function join(pointer: string, ...tokens: (string | number)[]): string {
  let p = pointer;
  for (const t of tokens) p += "/" + escapeToken(String(t));
  return p;
}

/**
 * Splits `#/a/b` into tokens; undefined for a pointer that is not local.
 * With `uri` the text is a URI fragment (a `$ref` value) and is percent-decoded
 * first; the generator's own pointers are not URI-encoded.
 */
export function parse(pointer: string, uri = false): string[] | undefined {
  if (!pointer.startsWith("#")) return undefined;
  let frag = pointer.slice(1);
  if (uri) {
    try {
      frag = decodeURIComponent(frag);
    } catch {
      return undefined;
    }
  }
  if (frag === "") return [];
  if (!frag.startsWith("/")) return undefined;
  return frag.slice(1).split("/").map(unescapeToken);
}

/** Own-property lookup along a pointer; undefined when any step is missing. */
export function get(root: unknown, tokens: readonly string[]): { found: true; value: unknown } | { found: false } {
  let cur: unknown = root;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= cur.length) return { found: false };
      cur = cur[Number(t)];
    } else if (typeof cur === "object" && cur !== null && Object.prototype.hasOwnProperty.call(cur, t)) {
      cur = (cur as Record<string, unknown>)[t];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: cur };
}
