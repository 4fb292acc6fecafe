/**
 * What an error message advises, by status. The runtime has no advice of its
 * own: what to do about a 401 or a 404 depends on the API (which credential,
 * which ids), so it comes from the spec (`x-avaspec-advice` on a response or
 * at the document's root, written into the descriptors) and from the
 * client's `errorAdvice` option.
 */

/** Advice texts by status: a code (`"404"`), a range (`"4XX"`) or `"default"`; an empty text says nothing. */
export type ErrorAdvice = Readonly<Record<string, string>>;

/**
 * The advice for a status: by its code, then its range, then `default`; at
 * each step the first of `sources` that has one (the client's, then the
 * spec's), so a client's `default` does not hide the spec's `404`.
 */
export function adviceFor(status: number, ...sources: (ErrorAdvice | undefined)[]): string | undefined {
  for (const key of [status, `${Math.floor(status / 100)}XX`, "default"]) {
    for (const advice of sources) if (advice?.[key] !== undefined) return advice[key];
  }
  return undefined;
}
