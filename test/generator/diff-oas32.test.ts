/**
 * `avaspec diff` on OpenAPI 3.2 documents: a QUERY operation or an
 * `additionalOperations` method added or removed is an operation added or
 * removed; an operation that keeps its operationId and path but changes its
 * method (POST → QUERY, an additional method respelt) is one breaking
 * `operation-method-changed`, not a removal and an unrelated addition.
 */
import { describe, expect, it } from "vitest";
import { diffModules, type Change } from "../../generator/diff/index.js";
import { runCli } from "../helpers/cli.js";
import { diffSides, type Doc } from "../helpers/diff-sides.js";

const { dir, write, side } = diffSides("avaspec-diff-oas32-");
const diff = (before: Doc, after: Doc): Pick<Change, "rule" | "class" | "message">[] => diffModules(side(before), side(after)).map(({ rule, class: c, message }) => ({ rule, class: c, message }));

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "array", items: { type: "string" } } } } } };
const search = (id = "searchItems") => ({ operationId: id, requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: ok });
function api(paths: Doc): Doc {
  return { openapi: "3.2.0", info: { title: "T", version: "1" }, servers: [{ url: "https://api.example.com" }], paths };
}
const base = () => ({ "/items": { get: { operationId: "listItems", responses: ok } } });

describe("QUERY and additionalOperations", () => {
  it("a QUERY operation added is an addition, removed is breaking-wire", () => {
    const withQuery = api({ "/items": { ...base()["/items"], query: search() } });
    expect(diff(api(base()), withQuery)).toEqual([{ rule: "operation-added", class: "addition", message: "QUERY /items is new" }]);
    expect(diff(withQuery, api(base()))).toEqual([{ rule: "operation-removed", class: "breaking-wire", message: "QUERY /items was removed" }]);
  });

  it("an additionalOperations method added or removed, named as the document spells it", () => {
    const withCopy = api({ "/items": { ...base()["/items"], additionalOperations: { COPY: { operationId: "copyItems", responses: ok } } } });
    expect(diff(api(base()), withCopy)).toEqual([{ rule: "operation-added", class: "addition", message: "COPY /items is new" }]);
    expect(diff(withCopy, api(base()))).toEqual([{ rule: "operation-removed", class: "breaking-wire", message: "COPY /items was removed" }]);
  });

  it("POST → QUERY under the same operationId and path is one method change", () => {
    const before = api({ "/items": { ...base()["/items"], post: search() } });
    const after = api({ "/items": { ...base()["/items"], query: search() } });
    expect(diff(before, after)).toEqual([{ rule: "operation-method-changed", class: "breaking-wire", message: 'POST /items is now QUERY /items (operationId "searchItems"): existing clients still send POST' }]);
  });

  it("an additional method respelt (purge → PURGE) is a method change: it is sent as written", () => {
    const spelt = (m: string) => api({ "/items": { ...base()["/items"], additionalOperations: { [m]: { operationId: "purgeItems", responses: ok } } } });
    expect(diff(spelt("purge"), spelt("PURGE"))).toEqual([{ rule: "operation-method-changed", class: "breaking-wire", message: 'purge /items is now PURGE /items (operationId "purgeItems"): existing clients still send purge' }]);
  });

  it("a method change under another operationId stays a removal and an addition", () => {
    const before = api({ "/items": { ...base()["/items"], post: search("findItems") } });
    const after = api({ "/items": { ...base()["/items"], query: search("searchItems") } });
    expect(diff(before, after).map((c) => c.rule).sort()).toEqual(["operation-added", "operation-removed"]);
  });

  it("the CLI reports it and fails on breaking-wire", () => {
    const r = runCli(["diff", write(api({ "/items": { post: search() } })), write(api({ "/items": { query: search() } })), "--fail-on", "breaking-wire"], dir);
    expect(r.stdout).toContain("operation-method-changed");
    expect(r.status).not.toBe(0);
  });
});
