/**
 * What a mock service serves when no override steers it: an entry's example
 * or a body synthesized from its schema (seeded by the service's seed, the
 * entry and a salt, so the same request always gets the same bytes, and
 * checked with the entry's generated validator), and the pages of a list
 * operation cut from it.
 */
import type { ValidationIssue } from "../errors/errors.js";
import { IntegerIssue, encodeIntegers, type Decoder } from "../values/numbers.js";
import { UnsatisfiableSchemaError, hash, rng, synthesize } from "./synthesize.js";
import type { MockHttpEntry, MockRpcEntry, MockTable } from "./types.js";
import { cutPage, type MockPage } from "./pages.js";

export interface MockBodies {
  /** The body an entry serves before paging: its example (unless the service synthesizes everything), else one synthesized with `salt`. */
  body(entry: MockHttpEntry | MockRpcEntry, table: MockTable, salt: string): unknown;
  /** A body synthesized from the entry's schema with `salt`, its example set aside (null for a JSON-RPC result without a schema); `fallback` when no attempt gives a valid one. */
  synthesized(entry: MockHttpEntry | MockRpcEntry, table: MockTable, salt: string, fallback?: unknown): unknown;
  /** The page of a list operation that `params` (and `url`, the URL the client called) ask for; undefined for a token the service did not issue. */
  page(entry: MockHttpEntry, table: MockTable, params: Record<string, unknown>, url?: string): MockPage | undefined;
}

/** Attempts at a body that use the schema's examples, of the 25 made. */
const EXAMPLE_ATTEMPTS = 10;

export function mockBodies(options: { seed: number; pages: number; examples: boolean }): MockBodies {
  const { seed, pages } = options;

  function synthesized(entry: MockHttpEntry | MockRpcEntry, table: MockTable, salt: string, fallback?: unknown): unknown {
    const id = entry.kind === "http" ? entry.op.id : entry.method.method;
    if (entry.schema === undefined) return entry.kind === "rpc" ? null : undefined;
    const check = table.results?.get(entry.kind === "http" ? entry.op : entry.method);
    const next = rng(hash(`${seed}:${id}:${salt}`));
    let last: ValidationIssue[] = [];
    let unsatisfiable: UnsatisfiableSchemaError | undefined;
    for (let attempt = 0; attempt < 25; attempt++) {
      let v: unknown;
      try {
        // the first attempts take the spec's examples for values; later ones do without, in case an example does not pass
        v = synthesize(entry.schema, table.defs, next, attempt < EXAMPLE_ATTEMPTS);
      } catch (error) {
        // a random branch may have recursed too deep: another attempt may pick a finite one
        if (!(error instanceof UnsatisfiableSchemaError)) throw error;
        unsatisfiable = error;
        continue;
      }
      if (!check) return v;
      const issues: ValidationIssue[] = [];
      if (check(v, "", issues)) return v;
      last = issues;
    }
    if (fallback !== undefined) return structuredClone(fallback);
    if (last.length === 0 && unsatisfiable) throw new Error(`avaspec mock: cannot synthesize a body for ${id}: ${unsatisfiable.message}; give the operation an example, or steer it with an override`);
    throw new Error(`avaspec mock: could not synthesize a valid body for ${id}: ${last.map((i) => `${i.path} ${i.message}`).join("; ")}`);
  }

  function body(entry: MockHttpEntry | MockRpcEntry, table: MockTable, salt: string): unknown {
    if (options.examples && entry.example !== undefined) return structuredClone(entry.example);
    // synthesizing everything: the example still stands in for a schema no attempt could satisfy
    return synthesized(entry, table, salt, entry.example);
  }

  function page(entry: MockHttpEntry, table: MockTable, params: Record<string, unknown>, url = `http://mock${entry.op.path}`): MockPage | undefined {
    return cutPage(entry.paging!, (n) => body(entry, table, `page${n}`), params, url, { seed: `${seed}:${entry.op.id}`, pages, types: entry.types });
  }

  return { body, page, synthesized };
}

/** An override's body in the wire form: bigints and numbers given for string-encoded integers written as the spec says. */
export function wireBody(decoder: Decoder | undefined, value: unknown, id: string): unknown {
  if (decoder === undefined) return value;
  try {
    // the result's walker, writing this time
    return encodeIntegers(decoder.walk, value);
  } catch (error) {
    if (error instanceof IntegerIssue) throw new Error(`avaspec mock: the override body of ${id} at ${error.path || "/"} ${error.message}`);
    throw error;
  }
}
