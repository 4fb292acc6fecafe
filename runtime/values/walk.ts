/**
 * The shape of a generated walker and of the leaf function it hands values
 * to. Generated code holds one walker per schema that has values to convert:
 * it visits exactly those values, by the schema, copying what it changes.
 * The integer codecs (numbers.ts: wire string ↔ bigint) and the wire-form
 * converters (wire-forms.ts: the server's JSON type ↔ the documented one)
 * both walk with it, so it sits below both.
 */

/**
 * Converts one value found at `p` (a JSON pointer). `spec` says how it is
 * written. For an integer: "hex" or "decimal", then "/bits" when the width
 * is bounded, with "signed " in front for a signed decimal ("hex/256",
 * "signed decimal/64"); for a wire form, the two types, the server's first
 * ("number>string").
 */
export type Leaf = (x: unknown, spec: string, p: string) => unknown;

/** A generated walker: `x` with each value the schema marks passed through `f`. */
export type Walk = (x: unknown, f: Leaf, p: string) => unknown;
