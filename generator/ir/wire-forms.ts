/**
 * Two schema extensions for values servers send otherwise than their
 * document promises, read by the schema builder:
 *
 * - `x-avaspec-wire-form: <schema>`: servers send the value as another
 *   JSON type (a price documented as a decimal string arrives as a JSON
 *   number). The schema describes that form; its `type` is one of string,
 *   number or integer, and the documented type the other side of a
 *   conversion avaspec knows: a number written as decimal text, or decimal
 *   text read as a number.
 * - `x-avaspec-response-pattern: false` beside a `pattern`: the pattern
 *   checks what is sent, never what servers answer.
 *
 * A malformed value is an `extension/…` diagnostic at its pointer.
 */
import * as ptr from "../load/pointer.js";
import { followRefs } from "./resolve.js";
import type { IrSchema, IrWireForm } from "./types.js";

type Report = (code: string, pointer: string, message: string, severity?: "error" | "warning", hint?: string) => void;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

type Scalar = "string" | "number" | "integer";

const WIRE_HINT = "e.g. { type: number } where the document types a decimal string the server sends as a JSON number, or { type: string } where it types an integer the server sends as a string";

/** The wire form a schema node declares, built (its conversion is settled once every named schema is built: `settleWireForm`). */
export function readWireForm(node: Record<string, unknown>, pointer: string, build: (node: unknown, pointer: string) => IrSchema, report: Report): IrWireForm | undefined {
  const v = node["x-avaspec-wire-form"];
  if (v === undefined) return undefined;
  const at = ptr.join(pointer, "x-avaspec-wire-form");
  const type = isObj(v) ? scalarOf(Array.isArray(v["type"]) ? v["type"] : [v["type"]]) : undefined;
  if (!isObj(v) || type === undefined) {
    report("extension/wire-form", at, `x-avaspec-wire-form must be a schema whose type is string, number or integer, got ${JSON.stringify(v)?.slice(0, 120)}`, "error", WIRE_HINT);
    return undefined;
  }
  return { pointer: at, schema: build(v, at), from: type };
}

/** The one scalar type of a type list (null aside; integer and number together are number), or undefined. */
function scalarOf(types: readonly unknown[]): Scalar | undefined {
  const rest = types.filter((t) => t !== "null");
  if (rest.length === 0 || !rest.every((t) => t === "string" || t === "number" || t === "integer")) return undefined;
  if (rest.includes("string")) return rest.length === 1 ? "string" : undefined;
  return rest.includes("number") ? "number" : "integer";
}

/** The documented scalar type of a schema: its own type, else its allOf parts' (a 3.1 `$ref` with siblings), through refs. */
function documentedType(s: IrSchema, lookup: (key: string) => IrSchema | undefined, depth = 0): Scalar | undefined {
  const t = followRefs(s, lookup);
  if (t?.kind !== "schema" || depth > 8) return undefined;
  if (t.types) return scalarOf(t.types);
  for (const part of t.allOf ?? []) {
    const found = documentedType(part, lookup, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Decides the conversion of a schema's wire form against its documented
 * type: number or integer on the wire for a documented string, a string on
 * the wire for a documented number or integer. Anything else is an error,
 * and the wire form is dropped.
 */
export function settleWireForm(owner: IrSchema, lookup: (key: string) => IrSchema | undefined, report: Report): void {
  const form = owner.wireForm!;
  const to = documentedType({ ...owner, wireForm: undefined } as IrSchema, lookup);
  const from = form.from!;
  const convertible = to !== undefined && (to === "string" ? from !== "string" : from === "string");
  if (convertible) {
    form.to = to;
    return;
  }
  delete owner.wireForm;
  const documented = to === undefined ? "a schema without one string, number or integer type" : `type ${to}`;
  report("extension/wire-form", form.pointer, `x-avaspec-wire-form: a ${from} on the wire cannot stand for ${documented}: avaspec converts a number to decimal text and decimal text to a number`, "error", WIRE_HINT);
}

/** `x-avaspec-response-pattern`: true when the node's pattern checks requests only. */
export function readResponsePattern(node: Record<string, unknown>, pointer: string, report: Report): boolean {
  const v = node["x-avaspec-response-pattern"];
  if (v === undefined || v === true) return false;
  const at = ptr.join(pointer, "x-avaspec-response-pattern");
  if (v !== false) {
    report("extension/response-pattern", at, `x-avaspec-response-pattern must be true or false, got ${JSON.stringify(v)?.slice(0, 120)}`);
    return false;
  }
  if (typeof node["pattern"] !== "string") {
    report("extension/response-pattern", at, "x-avaspec-response-pattern: false needs a pattern beside it (the one responses are not held to)", "warning", "put it on the schema that has the pattern, not on a $ref to it");
    return false;
  }
  return true;
}
