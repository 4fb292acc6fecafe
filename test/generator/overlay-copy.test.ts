/**
 * Overlay 1.1's `copy` action: the specification's three examples (a simple
 * copy, a copy into a target an update made first, a move by update, copy and
 * remove) give the results its text shows; a copy source that selects nothing
 * or several nodes, a copy in a 1.0 overlay and a copy of the wrong kind are
 * errors at the action, nothing applied; and through the CLI, a copied
 * operation is generated, while what a copy breaks is reported at the copy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDiagnostics, runCli } from "../helpers/cli.js";
import { overlaid as apply, scratchFolders } from "../helpers/overlaid.js";

const scratch = scratchFolders("avaspec-overlay-copy-");

/** The specification's source description for its copy examples (versions/1.1.0.md, "Copy Example"). */
const SOURCE = `openapi: 3.1.0
info:
  title: Example API
  version: 1.0.0
paths:
  /items:
    get:
      responses:
        200:
          description: OK
  /some-items:
    delete:
      responses:
        200:
          description: OK
`;
const ok = { responses: { 200: { description: "OK" } } };

function overlaid(spec: string, overlay: string) {
  const dir = scratch({ "openapi.yaml": spec, "overlay.yaml": overlay });
  const r = apply(join(dir, "openapi.yaml"), [join(dir, "overlay.yaml")]);
  return { applied: r.ok, root: r.root as { paths: Record<string, unknown> }, diagnostics: r.diagnostics };
}
const overlay = (actions: string, version = "1.1.0") => `overlay: ${version}\ninfo:\n  title: Copy\n  version: 1.0.0\nactions:\n${actions}`;

describe("the specification's copy examples", () => {
  it("simple copy: /items' operations are merged into /some-items", () => {
    const r = overlaid(SOURCE, overlay(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths["/items"]'\n`));
    expect(r.diagnostics).toEqual([]);
    expect(r.root.paths).toEqual({ "/items": { get: ok }, "/some-items": { get: ok, delete: ok } });
  });

  it("ensure the target exists, then copy: an update makes /other-items and the copy fills it", () => {
    const r = overlaid(SOURCE, overlay(`  - target: '$.paths'\n    update: { "/other-items": {} }\n  - target: '$.paths["/other-items"]'\n    copy: '$.paths["/items"]'\n`));
    expect(r.diagnostics).toEqual([]);
    expect(r.root.paths).toEqual({ "/items": { get: ok }, "/other-items": { get: ok }, "/some-items": { delete: ok } });
  });

  it("move: update, copy and remove rename /items to /new-items; the copy is not the source (changing one leaves the other)", () => {
    const r = overlaid(SOURCE, overlay(`  - target: '$.paths'\n    update: { "/new-items": {} }\n  - target: '$.paths["/new-items"]'\n    copy: '$.paths["/items"]'\n  - target: '$.paths["/items"]'\n    remove: true\n`));
    expect(r.diagnostics).toEqual([]);
    expect(r.root.paths).toEqual({ "/new-items": { get: ok }, "/some-items": { delete: ok } });
    const both = overlaid(SOURCE, overlay(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths["/items"]'\n  - target: '$.paths["/items"].get'\n    update: { summary: only here }\n`));
    expect(both.root.paths["/some-items"]).toEqual({ get: ok, delete: ok });
  });

  it("copies into arrays (appended) and scalars (replaced), and into a node inside its own source", () => {
    const spec = `openapi: 3.1.0\ninfo: { title: T, version: 1.0.0, description: old }\ntags: [{ name: a }]\nx-more: [{ name: b }, { name: c }]\npaths:\n  /a:\n    get: { responses: { "200": { description: OK } } }\n`;
    const r = overlaid(spec, overlay(`  - target: $.tags\n    copy: $['x-more']\n  - target: $.info.description\n    copy: $.info.title\n  - target: $.paths['/a'].get\n    copy: $.paths['/a']\n`));
    expect(r.diagnostics).toEqual([]);
    const root = r.root as unknown as { tags: unknown[]; info: { description: string }; paths: { "/a": { get: Record<string, unknown> } } };
    expect(root.tags).toEqual([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(root.info.description).toBe("T");
    // a snapshot of the source taken before the merge: no cycle
    expect(root.paths["/a"].get).toEqual({ responses: { 200: { description: "OK" } }, get: { responses: { 200: { description: "OK" } } } });
  });

  it("remove wins over copy, and update over copy, in one action", () => {
    const r = overlaid(SOURCE, overlay(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths["/items"]'\n    update: { summary: updated }\n  - target: '$.paths["/items"]'\n    copy: '$.paths["/some-items"]'\n    remove: true\n`));
    expect(r.diagnostics).toEqual([]);
    expect(r.root.paths).toEqual({ "/some-items": { delete: ok, summary: "updated" } });
  });
});

describe("copy errors: at the action, nothing used", () => {
  const failing = (actions: string, version?: string) => {
    const r = overlaid(SOURCE, overlay(actions, version));
    expect(r.applied).toBe(false);
    return r.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.pointer, `${d.line}:${d.col}`, d.message]);
  };

  it("a source that selects nothing, or several nodes", () => {
    expect(failing(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths["/nothing"]'\n`)).toEqual([["overlay/apply", "#/actions/0/copy", "7:5", 'copy $.paths["/nothing"] must select one node of the document; it selects nothing']]);
    expect(failing(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths.*'\n`)).toEqual([["overlay/apply", "#/actions/0/copy", "7:5", "copy $.paths.* must select one node of the document; it selects 2 nodes"]]);
  });

  it("a copy of another kind than its target", () => {
    expect(failing(`  - target: '$.paths["/some-items"]'\n    copy: $.info.title\n`)).toEqual([["overlay/apply", "#/actions/0/copy", "7:5", 'the target $[\'paths\'][\'/some-items\'] is an object: copy $.info.title selects a string to merge into it']]);
    expect(failing(`  - target: $.info.title\n    copy: '$.paths["/items"]'\n`)).toEqual([["overlay/apply", "#/actions/0/copy", "7:5", 'the target $[\'info\'][\'title\'] is a string: copy $.paths["/items"] selects an object, not a value of that kind to replace it']]);
  });

  it("copy in a 1.0 overlay, a copy that is not a JSONPath", () => {
    expect(failing(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths["/items"]'\n`, "1.0.0")).toEqual([["overlay/invalid", "#/actions/0/copy", "7:5", "copy is an Overlay 1.1 action; this overlay declares 1.0"]]);
    expect(failing(`  - target: '$.paths["/some-items"]'\n    copy: '$.paths['\n`)[0]!.slice(0, 2)).toEqual(["overlay/invalid", "#/actions/0/copy"]);
  });
});

describe("copy through the CLI", () => {
  const SHOP = `openapi: 3.1.0
info: { title: Shop, version: 1.0.0 }
paths:
  /orders:
    get:
      operationId: listOrders
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema: { type: array, items: { type: string } }
`;

  it("a copied and renamed operation is generated beside its source", () => {
    const dir = scratch({
      "shop.yaml": SHOP,
      "copy.overlay.yaml": overlay(`  - target: $.paths\n    update: { /archived-orders: {} }\n  - target: $.paths['/archived-orders']\n    copy: $.paths['/orders']\n  - target: $.paths['/archived-orders'].get\n    update: { operationId: listArchivedOrders }\n`),
    });
    const r = runCli(["generate", "--input", "shop.yaml", "--out", "out", "--overlay", "copy.overlay.yaml"], dir);
    expect(r.stderr).not.toContain("error");
    expect(r.status).toBe(0);
    const operations = readFileSync(join(dir, "out/src/shop/operations.d.ts"), "utf8");
    expect(operations).toContain("/** Wire description of `listOrders` (GET /orders). */");
    expect(operations).toContain("/** Wire description of `listArchivedOrders` (GET /archived-orders). */");
  });

  it("what a copy breaks is reported at the copy, with the document's pointer in the hint", () => {
    const dir = scratch({
      "shop.yaml": SHOP,
      "copy.overlay.yaml": overlay(`  - target: $.paths['/orders']
    update: { post: { operationId: listOrders, responses: { "200": { description: OK } } } }
  - target: $.paths
    update: { /again: {} }
  - target: $.paths['/again']
    copy: $.paths['/orders']
`),
    });
    const r = runCli(["generate", "--input", "shop.yaml", "--out", "out", "--overlay", "copy.overlay.yaml"], dir);
    expect(r.status).toBe(1);
    // the post the update wrote, at the update; the get and post the copy made under /again, at the copy
    expect(parseDiagnostics(r.stderr).map((d) => [d.code, d.line.split(" at ")[0], d.pointer])).toEqual([
      ["operation/duplicate-id", "copy.overlay.yaml:7:23", "#/actions/0/update/post/operationId"],
      ["operation/duplicate-id", "copy.overlay.yaml:11:5", "#/actions/2/copy"],
      ["operation/duplicate-id", "copy.overlay.yaml:11:5", "#/actions/2/copy"],
    ]);
    expect(r.stderr).toContain("#/paths/~1again/get/operationId of shop.yaml was put there by this overlay action");
    expect(r.stderr).toContain("out/ was left untouched");
  });
});
