/**
 * Issue 30 (1): how the generator reads pagination from a spec. The rule
 * (generator/ir/paging.ts, the README's Pagination section) by the shape of
 * each operation's parameters and 2XX body, whatever its names; the
 * `x-avaspec-pagination` declaration, and Speakeasy's
 * `x-speakeasy-pagination` read as one; the warning for an operation that
 * looks paged but matches no rule; and a declaration that does not fit its
 * operation, an error at its pointer that leaves the output untouched.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { oneOffConfig } from "../../generator/config.js";
import { generate } from "../../generator/generate.js";
import type { IrPaging } from "../../generator/ir/types.js";
import { parseDiagnostics, runCli } from "../helpers/cli.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function workspace(spec: string): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-paging-"));
  dirs.push(dir);
  writeFileSync(join(dir, "api.yaml"), spec);
  return dir;
}

/** The document's operations, each with a response body and parameters written short. */
function spec(ops: Record<string, { params?: string; body: string; extra?: string; headers?: boolean }>): string {
  const paths = Object.entries(ops).map(([id, o]) => `  /${id}:
    get:
      operationId: ${id}
${o.extra ? o.extra.replace(/^/gm, "      ") + "\n" : ""}      parameters: [${o.params ?? ""}]
      responses:
        '200':
          description: ok
${o.headers ? "          headers:\n            Link: {schema: {type: string}}\n" : ""}          content:
            application/json:
              schema: ${o.body}`);
  return `openapi: 3.1.0
info: {title: Shop, version: '1'}
servers: [{url: 'https://api.shop.example'}]
paths:
${paths.join("\n")}
components:
  schemas:
    Item: {type: object, properties: {id: {type: string}}}
`;
}

const q = (name: string, type: string) => `{name: ${name}, in: query, schema: {type: ${type}}}`;
const arr = "{type: array, items: {$ref: '#/components/schemas/Item'}}";

function pagingOf(text: string) {
  const dir = workspace(text);
  const result = generate(oneOffConfig(join(dir, "api.yaml"), join(dir, "out")));
  const paging = new Map<string, IrPaging | undefined>();
  for (const op of result.irs[0]!.operations) if (op.protocol === "http") paging.set(op.id, op.paging);
  return { paging, diagnostics: result.diagnostics };
}

describe("the detection rule", () => {
  const { paging, diagnostics } = pagingOf(
    spec({
      snake: { params: `${q("page_token", "string")}, ${q("page_size", "integer")}`, body: `{type: object, properties: {items: ${arr}, next_page_token: {type: string}}}` },
      stripe: { params: q("starting_after", "string"), body: `{type: object, properties: {data: ${arr}, has_more: {type: boolean}, next_cursor: {type: [string, "null"]}}}` },
      startKey: { params: q("startKey", "string"), body: `{type: object, properties: {results: ${arr}, nextPageStartKey: {type: string}}}` },
      since: { params: q("since", "integer"), body: `{type: object, properties: {results: ${arr}, next_since: {type: integer}}}` },
      relay: { params: q("after", "string"), body: `{type: object, properties: {nodes: ${arr}, pageInfo: {type: object, properties: {endCursor: {type: string}, hasNextPage: {type: boolean}}}}}` },
      // a next page URL beside an integer page parameter: a string is not the page number
      django: { params: q("page", "integer"), body: `{type: object, properties: {count: {type: integer}, next: {type: [string, "null"], format: uri}, results: ${arr}}}` },
      // a bare next beside a cursor parameter: its cursor (no URI format)
      bareNext: { params: q("cursor", "string"), body: `{type: object, properties: {data: ${arr}, next: {type: string}}}` },
      hal: { body: `{type: object, properties: {items: ${arr}, _links: {type: object, properties: {next: {type: object, properties: {href: {type: string}}}}}}}` },
      github: { params: q("per_page", "integer"), body: arr, headers: true },
      numbered: { params: `${q("pageNumber", "integer")}, ${q("pageSize", "integer")}`, body: `{type: object, properties: {records: ${arr}, totalCount: {type: integer}}}` },
      skip: { params: `${q("skip", "integer")}, ${q("take", "integer")}`, body: `{type: object, properties: {rows: ${arr}, hasMore: {type: boolean}}}` },
      union: { params: q("cursor", "string"), body: `{anyOf: [{type: object, properties: {a: ${arr}, nextCursor: {type: string}}}, {type: object, properties: {a: ${arr}, nextCursor: {type: string}, other: {type: string}}}]}` },
      plain: { body: arr },
      // a writeOnly array is not in the response a page is read from (the random-document test found it typed as the items)
      writeOnlyBeside: { params: q("cursor", "string"), body: `{type: object, properties: {secret: {type: array, writeOnly: true, items: {type: integer}}, data: ${arr}, nextCursor: {type: string}}}` },
      writeOnlyAlone: { params: q("cursor", "string"), body: `{type: object, properties: {ok: {type: array, writeOnly: true, items: {type: integer}}, nextCursor: {type: string}}}` },
      // a linked list's next is an object, and there is no list: not paging
      linked: { body: "{type: object, properties: {value: {type: integer}, next: {type: object, properties: {value: {type: integer}}}}}" },
    }),
  );

  it.each([
    ["snake", { style: "cursor", items: ["items"], cursors: [{ param: { key: "page_token", name: "page_token" }, next: ["next_page_token"] }], size: { key: "page_size", name: "page_size" } }],
    ["stripe", { style: "cursor", items: ["data"], cursors: [{ param: { key: "starting_after", name: "starting_after" }, next: ["next_cursor"] }], hasMore: ["has_more"] }],
    ["startKey", { style: "cursor", cursors: [{ param: { key: "startKey", name: "startKey" }, next: ["nextPageStartKey"] }] }],
    ["since", { style: "cursor", cursors: [{ param: { key: "since", name: "since" }, next: ["next_since"] }] }],
    ["relay", { style: "cursor", items: ["nodes"], cursors: [{ param: { key: "after", name: "after" }, next: ["pageInfo", "endCursor"] }], hasMore: ["pageInfo", "hasNextPage"] }],
    ["django", { style: "url", items: ["results"], next: ["next"] }],
    ["bareNext", { style: "cursor", items: ["data"], cursors: [{ param: { key: "cursor", name: "cursor" }, next: ["next"] }] }],
    ["hal", { style: "url", items: ["items"], next: ["_links", "next", "href"] }],
    ["github", { style: "link", items: [], size: { key: "per_page", name: "per_page" } }],
    ["numbered", { style: "page", items: ["records"], param: { key: "pageNumber", name: "pageNumber" }, start: 1, total: ["totalCount"] }],
    ["skip", { style: "offset", items: ["rows"], param: { key: "skip", name: "skip" }, start: 0, hasMore: ["hasMore"] }],
    ["union", { style: "cursor", items: ["a"], cursors: [{ param: { key: "cursor", name: "cursor" }, next: ["nextCursor"] }] }],
    ["writeOnlyBeside", { style: "cursor", items: ["data"], cursors: [{ param: { key: "cursor", name: "cursor" }, next: ["nextCursor"] }] }],
  ])("%s", (id, expected) => {
    expect(paging.get(id)).toMatchObject({ declared: false, ...expected });
  });

  it("an operation that does not look paged gets neither paging nor a warning", () => {
    expect(paging.get("plain")).toBeUndefined();
    expect(paging.get("linked")).toBeUndefined();
    expect(paging.get("writeOnlyAlone")?.items).not.toEqual(["ok"]);
    expect(diagnostics.filter((d) => d.code.startsWith("pagination"))).toEqual([]);
  });
});

describe("the warning: looks paged, matches no rule", () => {
  const { paging, diagnostics } = pagingOf(
    spec({
      // a cursor parameter and no next cursor in the body
      noNext: { params: q("cursor", "string"), body: `{type: object, properties: {data: ${arr}}}` },
      // a next cursor, two arrays: which are the items?
      twoArrays: { params: q("cursor", "string"), body: `{type: object, properties: {data: ${arr}, included: ${arr}, next_cursor: {type: string}}}` },
      // one union branch lacks the cursor
      halfUnion: { params: q("cursor", "string"), body: `{anyOf: [{type: object, properties: {a: ${arr}, nextCursor: {type: string}}}, {type: object, properties: {a: ${arr}}}]}` },
      // a next that may be a cursor or a URL, and no parameter to send a cursor in
      ambiguousNext: { params: q("limit", "integer"), body: `{type: object, properties: {data: ${arr}, next: {type: string}}}` },
      silenced: { params: q("cursor", "string"), body: `{type: object, properties: {data: ${arr}}}`, extra: "x-avaspec-pagination: false" },
    }),
  );
  const warnings = diagnostics.filter((d) => d.code === "pagination/unrecognised");

  it("is a warning with the operation's pointer and line, and what to declare", () => {
    expect(warnings.map((d) => [d.pointer, d.severity])).toEqual([
      ["#/paths/~1noNext/get", "warning"],
      ["#/paths/~1twoArrays/get", "warning"],
      ["#/paths/~1halfUnion/get", "warning"],
      ["#/paths/~1ambiguousNext/get", "warning"],
    ]);
    expect(warnings[0]!.message).toBe('noNext looks paged (parameter "cursor") but matches no pagination rule, so it has no .pages() or .iterate()');
    expect(warnings[0]!.line).toBeGreaterThan(5);
    expect(warnings[0]!.hint).toContain("x-avaspec-pagination");
    expect(warnings[1]!.message).toContain("its 2XX body has no single array of items (it has data, included: declare items)");
    expect([...paging.values()].every((p) => p === undefined)).toBe(true);
  });

  it("x-avaspec-pagination: false says the operation does not page", () => {
    expect(warnings.some((d) => d.pointer.includes("silenced"))).toBe(false);
  });
});

describe("declarations", () => {
  it("x-avaspec-pagination names what detection cannot decide; x-speakeasy-pagination is read as the same", () => {
    const { paging, diagnostics } = pagingOf(
      spec({
        declared: { params: q("from", "string"), body: `{type: object, properties: {entries: ${arr}, included: ${arr}, meta: {type: object, properties: {continue: {type: string}}}}}`, extra: "x-avaspec-pagination: {param: from, next: meta.continue, items: entries}" },
        declaredPage: { params: `${q("p", "integer")}, ${q("n", "integer")}`, body: `{type: object, properties: {list: ${arr}, pages: {type: integer}}}`, extra: "x-avaspec-pagination: {style: page, param: p, size: n, start: 0}" },
        speakeasy: { params: `${q("cur", "string")}, ${q("lim", "integer")}`, body: `{type: object, properties: {data: {type: object, properties: {rows: ${arr}}}, next: {type: string}}}`, extra: "x-speakeasy-pagination: {type: cursor, inputs: [{name: cur, in: parameters, type: cursor}, {name: lim, in: parameters, type: limit}], outputs: {nextCursor: $.next, results: $.data.rows}}" },
        speakeasyPages: { params: q("pg", "integer"), body: `{type: object, properties: {things: ${arr}, numPages: {type: integer}}}`, extra: "x-speakeasy-pagination: {type: offsetLimit, inputs: [{name: pg, in: parameters, type: page}], outputs: {results: $.things, numPages: $.numPages}}" },
        speakeasyUnread: { params: q("cur", "string"), body: `{type: object, properties: {data: ${arr}}}`, extra: "x-speakeasy-pagination: {type: cursor, inputs: [{name: cur, in: parameters, type: cursor}], outputs: {nextCursor: '$.data[-1].id', results: $.data}}" },
      }),
    );
    expect(paging.get("declared")).toMatchObject({ declared: true, style: "cursor", items: ["entries"], cursors: [{ param: { name: "from" }, next: ["meta", "continue"] }] });
    expect(paging.get("declaredPage")).toMatchObject({ declared: true, style: "page", items: ["list"], param: { name: "p" }, start: 0, size: { name: "n" }, totalPages: ["pages"] });
    expect(paging.get("speakeasy")).toMatchObject({ declared: true, style: "cursor", items: ["data", "rows"], cursors: [{ param: { name: "cur" }, next: ["next"] }], size: { name: "lim" } });
    expect(paging.get("speakeasyPages")).toMatchObject({ declared: true, style: "page", items: ["things"], param: { name: "pg" }, totalPages: ["numPages"] });
    expect(paging.get("speakeasyUnread")).toBeUndefined();
    const unread = diagnostics.filter((d) => d.code === "extension/pagination");
    expect(unread.map((d) => [d.pointer, d.severity])).toEqual([["#/paths/~1speakeasyUnread/get/x-speakeasy-pagination", "warning"]]);
    expect(unread[0]!.message).toContain("is not a plain path");
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  // the broken declarations in two documents, one run of the CLI each: malformed ones (the validator's), then ones that do not fit their operation (the paging pass's, after validation)
  const broken = [
    ["an unknown key", "{param: cursor, nxt: next_cursor}", "/x-avaspec-pagination/nxt", 'unknown key "nxt"', 0],
    ["a style it does not know", "{style: token, param: cursor}", "/x-avaspec-pagination/style", "style must be one of cursor, page, offset, url, link", 0],
    ["a list of alternatives that is not of cursors", "[{param: cursor, next: next_cursor}, {style: page, param: cursor}]", "/x-avaspec-pagination/1/style", "each entry is style cursor", 0],
    ["a value that is not an object", "yes", "/x-avaspec-pagination", "must be an object, a list of objects or false", 0],
    ["a parameter the operation does not have", "{param: cursr, next: next_cursor}", "/x-avaspec-pagination/param", 'param names "cursr", which is neither a query or header parameter nor a field of the JSON request body', 1],
    ["a field the body does not have", "{param: cursor, next: meta.next}", "/x-avaspec-pagination/next", 'next names "meta.next", which the 2XX body does not have', 1],
    ["items that are not an array", "{param: cursor, next: next_cursor, items: next_cursor}", "/x-avaspec-pagination/items", 'items names "next_cursor", which is not an array', 1],
  ] as const;
  const runs: { dir: string; status: number | null; found: ReturnType<typeof parseDiagnostics> }[] = [];
  const run = (phase: number) =>
    (runs[phase] ??= (() => {
      const ops = broken.map((b, i) => [i, b] as const).filter(([, b]) => b[4] === phase);
      const dir = workspace(spec(Object.fromEntries(ops.map(([i, b]) => [`orders${i}`, { params: q("cursor", "string"), body: `{type: object, properties: {data: ${arr}, next_cursor: {type: string}}}`, extra: `x-avaspec-pagination: ${b[1]}` }]))));
      const { status, stderr } = runCli(["generate", "--input", "api.yaml", "--out", "out"], dir);
      return { dir, status, found: parseDiagnostics(stderr).filter((d) => d.code === "extension/pagination") };
    })());

  it.each([0, 1])("a declaration that does not fit is an error: generation stops with the output untouched (document %i)", (phase) => {
    const { dir, status, found } = run(phase);
    expect(status).not.toBe(0);
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(found).toHaveLength(broken.filter((b) => b[4] === phase).length);
  });

  it.each(broken.map((b, i) => [b[0], i, b[2], b[3], b[4]] as const))("%s is an error at its pointer", (_, i, at, message, phase) => {
    const d = run(phase).found.find((x) => x.pointer === `#/paths/~1orders${i}/get${at}`);
    expect(d, run(phase).found.map((x) => x.pointer).join("\n")).toBeDefined();
    expect([d!.file, d!.warning]).toEqual(["api.yaml", false]);
    expect(d!.message).toContain(message);
    expect(d!.line).toMatch(/^api\.yaml:\d+:\d+ at #/);
  });
});
