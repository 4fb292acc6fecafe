/**
 * Issue 27: the node documents against the method names a current node
 * registers (test/spec/real-operations/node.json, written from the Go sources
 * it names). Every real method must be documented at its endpoint, so a
 * method a node serves and the package lacks fails here; a documented method
 * no current node serves must say so (removed, unimplemented or a
 * requirement-only endpoint). Every document in spec/ counts, also those the
 * config does not generate yet (the Subnet-EVM L1 documents).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { bundledSpec, resolveRef } from "../helpers/node-specs.js";

type Doc = Record<string, any>;
interface Group {
  source: string;
  path: string;
  type: string;
  methods: string[];
}
interface RealEndpoint {
  endpoint: string;
  paths?: string[];
  sharedWith?: string;
  groups: Group[];
}
interface Real {
  sources: Record<string, { repository: string; commit: string; license: string }>;
  endpoints: RealEndpoint[];
  leftOut: { endpoint: string; methods: string[]; reason: string }[];
  requirementOnly: { endpoint: string; reason: string }[];
}

const real = JSON.parse(readFileSync(join(ROOT, "test/spec/real-operations/node.json"), "utf8")) as Real;

/** Each node OpenRPC document with the endpoint paths of its HTTP servers (path variables kept as `{name}`). */
const documents = readdirSync(join(ROOT, "spec"))
  .filter((f) => f.startsWith("node-") && f.endsWith(".openrpc.yaml"))
  .map((file) => {
    // bundled: the L1 document lists the methods it shares with the C-Chain by $ref to that document
    const doc = bundledSpec(`spec/${file}`);
    // a server variable that holds the origin ({baseUrl}) is filled in; path variables ({blockchainId}) stay as they are
    const origin = (s: Doc) => (s.url as string).replace(/\{([^}]+)\}/g, (m, v: string) => (/^https?:/.test(s.variables?.[v]?.default ?? "") ? s.variables[v].default : m));
    const paths = (doc.servers as Doc[])
      .map(origin)
      .filter((url) => /^https?:/.test(url))
      .map((url) => decodeURIComponent(new URL(url).pathname).replace(/\/+$/, ""));
    const methods = (doc.methods as Doc[]).map((m) => resolveRef(doc, m) as Doc);
    return { file, doc, paths, methods };
  });

/** Documented method names per endpoint path. */
const documented = new Map<string, Map<string, { file: string; method: Doc }>>();
for (const d of documents)
  for (const p of d.paths) {
    const at = documented.get(p) ?? new Map();
    for (const m of d.methods) at.set(m.name, { file: d.file, method: m });
    documented.set(p, at);
  }

const pathsOf = (e: RealEndpoint) => e.paths ?? [e.endpoint];
const realAt = new Map<string, Set<string>>();
for (const e of real.endpoints) for (const p of pathsOf(e)) realAt.set(p, new Set(e.groups.flatMap((g) => g.methods)));

describe("the list of real methods", () => {
  it("names its sources with commit and licence, and each group its Go file and type", () => {
    for (const s of Object.values(real.sources)) {
      expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(["BSD-3-Clause", "LGPL-3.0"]).toContain(s.license);
    }
    for (const e of real.endpoints)
      for (const g of e.groups) {
        expect(real.sources[g.source], `${e.endpoint} ${g.type}`).toBeDefined();
        expect(g.path, e.endpoint).toMatch(/\.go\b/);
        expect(g.methods.length, `${e.endpoint} ${g.type}`).toBeGreaterThan(0);
      }
  });

  it("names each method once per endpoint, in the wire form of its server", () => {
    for (const e of real.endpoints) {
      const names = e.groups.flatMap((g) => g.methods);
      expect(new Set(names).size, e.endpoint).toBe(names.length);
      for (const n of names) expect(n, e.endpoint).toMatch(/^[a-z][A-Za-z0-9]*[._][a-z][A-Za-z0-9]*$/);
    }
  });

  it("gives a reason for every method left out, none of which is also counted as served", () => {
    for (const l of real.leftOut) {
      expect(l.reason.length, l.endpoint).toBeGreaterThan(40);
      for (const m of l.methods) expect(realAt.get(l.endpoint)?.has(m) ?? false, `${l.endpoint} ${m}`).toBe(false);
    }
  });
});

describe.each(real.endpoints.flatMap((e) => pathsOf(e).map((p) => [p, e] as const)))("%s", (path, e) => {
  it("documents every method a current node registers there", () => {
    const here = new Set([...(documented.get(path)?.keys() ?? []), ...(e.sharedWith ? (documented.get(e.sharedWith)?.keys() ?? []) : [])]);
    const missing = e.groups.flatMap((g) => g.methods.filter((m) => !here.has(m)).map((m) => `${m} (${g.source} ${g.path} ${g.type})`));
    expect(missing).toEqual([]);
  });
});

describe("documented methods no current node serves", () => {
  const requirementOnly = new Set(real.requirementOnly.map((r) => r.endpoint));
  const extras = [...documented].flatMap(([path, methods]) =>
    [...methods].filter(([name]) => !(realAt.get(path)?.has(name) ?? false)).map(([name, { file, method }]) => ({ path, name, file, method })),
  );

  it("are each marked removed or unimplemented, or sit at an endpoint the requirement documents", () => {
    const unexplained = extras.filter((x) => !requirementOnly.has(x.path) && x.method["x-avaspec-removed-in"] === undefined && x.method["x-avaspec-unimplemented"] === undefined);
    expect(unexplained.map((x) => `${x.file} ${x.name}`)).toEqual([]);
  });

  it("every requirement-only endpoint has a reason and a document", () => {
    for (const r of real.requirementOnly) {
      expect(r.reason.length).toBeGreaterThan(40);
      expect(documented.has(r.endpoint), r.endpoint).toBe(true);
      expect(realAt.has(r.endpoint), r.endpoint).toBe(false);
    }
  });
});
