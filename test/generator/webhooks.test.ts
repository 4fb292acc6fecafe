/**
 * Issue 26, item 18: OpenAPI 3.1 `webhooks` were dropped without a word. A
 * webhook's JSON request body is what the API delivers to a receiver the
 * user runs: the module now has a type per payload, a payload map by webhook
 * (`ApiWebhooks`) and a validator by webhook name (`validateApiWebhook`),
 * exercised here on the features-31 fixture's generated package. A webhook
 * without a JSON body is a warning, through the real CLI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { validateApiWebhook, type ApiWebhooks } from "../fixtures/features-31/golden/src/api/index.js";
import { parseDiagnostics, ROOT, runCli } from "../helpers/cli.js";

describe("the generated receiver side of webhooks (features-31)", () => {
  const settings = { "content-type": "text/plain" };

  it("validates a delivered payload by webhook name and types it by the payload map", () => {
    const r = validateApiWebhook("settings.updated", { settings, at: "2026-01-02T03:04:05Z" });
    expect(r.ok).toBe(true);
    if (r.ok) {
      const payload: ApiWebhooks["settings.updated"] = r.value;
      expect(payload.settings["content-type"]).toBe("text/plain");
    }
    // a payload that is a component schema: the webhook's entry is that schema's type
    const tree = validateApiWebhook("treeChanged", { value: "root", children: [{ value: "leaf", children: [] }] });
    expect(tree.ok).toBe(true);
  });

  it("reports what is wrong with a payload as issues with their paths", () => {
    const r = validateApiWebhook("settings.updated", { settings: {}, at: 5 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path).sort()).toEqual(["/at", "/settings/content-type"]);
    const wrongHook = validateApiWebhook("treeChanged", { settings, at: "2026-01-02T03:04:05Z" });
    expect(wrongHook.ok).toBe(false);
  });

  it("answers a name the spec does not have with an issue, not an exception (a receiver may route by untyped input)", () => {
    const r = validateApiWebhook("nope" as keyof ApiWebhooks, {});
    expect(r).toEqual({ ok: false, issues: [{ path: "", message: 'no webhook is named "nope"', keyword: "webhook" }] });
  });

  it("documents the payload map and the validator in the package README", () => {
    const readme = readFileSync(join(ROOT, "test/fixtures/features-31/golden/README.md"), "utf8");
    expect(readme).toContain("### Webhooks");
    expect(readme).toContain('const delivered = validateApiWebhook("treeChanged", body);');
  });
});

describe("generating a document with webhooks", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("types every JSON payload (an inline one named for its webhook) and warns about a webhook with no JSON body", () => {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-hooks-"));
    dirs.push(dir);
    const spec = `openapi: 3.1.0
info: {title: Shop, version: "1"}
webhooks:
  order-created:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [id]
              properties: {id: {type: string}}
      responses:
        "200": {description: ok}
  ping:
    post:
      responses:
        "200": {description: ok}
`;
    writeFileSync(join(dir, "shop.yaml"), spec);
    const r = runCli(["generate", "--input", "shop.yaml", "--out", "out", "--client-name", "Shop"], dir);
    expect(r.status).toBe(0);
    expect(parseDiagnostics(r.stderr).map((d) => d.line)).toEqual(['shop.yaml:16:5 at #/webhooks/ping/post: webhook "ping" (POST) has no JSON request body with a schema: nothing is generated for it [openapi/webhook] (warning)']);
    const types = readFileSync(join(dir, "out/src/shop/types.ts"), "utf8");
    expect(types).toContain("export interface OrderCreatedWebhook {\n  id: string;\n}");
    expect(types).toMatch(/export interface ShopWebhooks \{\n\s+\/\*\* `POST` webhook `order-created` \(application\/json\) \*\/\n\s+"order-created": OrderCreatedWebhook;\n\}/);
    expect(readFileSync(join(dir, "out/src/shop/index.ts"), "utf8")).toContain("validateShopWebhook");
  });
});
