/**
 * Differential property test: random schemas built from the supported
 * keywords and random instances; the generated validator must agree with Ajv
 * (2020-12, strict: false) on every case. Seeded, so a failure reproduces.
 *
 * Kept out of the generators: multipleOf with fractions (Ajv uses plain `%`,
 * avaspec tolerates binary rounding as the official suite expects), numbers
 * beyond ±1000 (float modulo of huge values), and `contains: false` (with
 * `maxContains` Ajv accepts `[]`, although 2020-12 §10.3.1.3 requires a match
 * unless minContains is 0), `contains` beside `prefixItems` (Ajv accepts `[]`
 * there too), and `unevaluatedItems` (Ajv does not count the items `contains`
 * matched as evaluated, which 2020-12 requires); the official suite covers
 * those instead.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../helpers/compile-schema.js";

const SEED = 20261122;
const SCHEMAS = 200;
const INSTANCES = 50;

const KEYS = ["a", "b", "c", "x1", "xy"];
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -20, max: 20 }),
    fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom("", "a", "ab", "abc", "x1", "xyz", "😀", "a😀", "2024", "aaaa"),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const types = fc.constantFrom("string", "number", "integer", "boolean", "null", "array", "object");

const schema: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown }>((tie) => {
  const sub = tie("schema");
  const fragment = fc.oneof(
    fc.record({ type: fc.oneof(types, fc.uniqueArray(types, { minLength: 1, maxLength: 3 })) }),
    fc.record({ enum: fc.array(json, { minLength: 1, maxLength: 4 }) }),
    fc.record({ const: json }),
    fc.record({ minLength: fc.nat(3) }),
    fc.record({ maxLength: fc.nat(3) }),
    fc.record({ pattern: fc.constantFrom("^a", "b$", "^[a-z]+$", "\\d", "^.{2}$", "😀") }),
    fc.record({ minimum: fc.integer({ min: -10, max: 10 }) }),
    fc.record({ maximum: fc.integer({ min: -10, max: 10 }) }),
    fc.record({ exclusiveMinimum: fc.integer({ min: -10, max: 10 }) }),
    fc.record({ exclusiveMaximum: fc.integer({ min: -10, max: 10 }) }),
    fc.record({ multipleOf: fc.constantFrom(1, 2, 3, 5) }),
    fc.record({ properties: fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 3 }) }),
    fc.record({ required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }) }),
    fc.record({ additionalProperties: sub }),
    fc.record({ patternProperties: fc.dictionary(fc.constantFrom("^x", "y$", "^[ab]$"), sub, { maxKeys: 2 }) }),
    fc.record({ propertyNames: sub }),
    fc.record({ minProperties: fc.nat(3) }),
    fc.record({ maxProperties: fc.nat(3) }),
    fc.record({ dependentRequired: fc.dictionary(fc.constantFrom(...KEYS), fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }), { maxKeys: 2 }) }),
    fc.record({ dependentSchemas: fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 2 }) }),
    fc.record({ items: sub }),
    fc.record({ prefixItems: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
    fc.record({ minItems: fc.nat(3) }),
    fc.record({ maxItems: fc.nat(3) }),
    fc.record({ uniqueItems: fc.boolean() }),
    fc.record({ contains: sub.filter((c) => c !== false), minContains: fc.nat(2) }, { requiredKeys: ["contains"] }),
    fc.record({ contains: sub.filter((c) => c !== false), maxContains: fc.nat(2) }, { requiredKeys: ["contains"] }),
    fc.record({ allOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: sub }),
    fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ["if"] }),
    fc.record({ unevaluatedProperties: sub }),
  );
  return {
    schema: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.boolean(),
      fc.array(fragment, { minLength: 1, maxLength: 3 }).map((parts) => {
        const merged = Object.assign({}, ...parts) as Record<string, unknown>;
        if ("contains" in merged) delete merged["prefixItems"];
        return merged;
      }),
    ),
  };
}).schema;

describe("generated validators agree with Ajv (2020-12)", () => {
  it(`on ${SCHEMAS} random schemas × ${INSTANCES} instances (seed ${SEED})`, () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    // a JSON round trip: fast-check builds null-prototype objects; real JSON data has none
    const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;
    const schemas = fc.sample(schema, { seed: SEED, numRuns: SCHEMAS }).map(asJson);
    const instances = fc.sample(json, { seed: SEED + 1, numRuns: INSTANCES }).map(asJson);
    let cases = 0;
    const disagreements: string[] = [];
    for (const s of schemas) {
      const ours = compileSchema(s, "openapi-3.1");
      expect(ours.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const theirs = ajv.compile(typeof s === "boolean" ? s : { ...(s as object) });
      for (const value of [...instances, ...((s as { enum?: unknown[] }).enum ?? [])]) {
        cases++;
        const a = theirs(value) as boolean;
        const b = ours.valid(value);
        const c = ours.issues(value).length === 0;
        if (a !== b || b !== c) disagreements.push(`schema ${JSON.stringify(s)} value ${JSON.stringify(value)}: ajv ${a}, avaspec ${b}/${c}`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(SCHEMAS * INSTANCES);
  });
});
