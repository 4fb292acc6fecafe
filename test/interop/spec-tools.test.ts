/**
 * The spec documents in the tools people import them into, run for real:
 * Redocly's linter (recommended rules), @apidevtools/swagger-parser's
 * validator, Postman's converter (openapi-to-postmanv2), the OpenRPC
 * reference validator and dereferencer, and openapi-typescript, whose output
 * must type-check under `tsc --strict`. Each check has a broken control beside
 * it, so a tool that stopped looking would fail the test.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { parseOpenRPCDocument, validateOpenRPCDocument } from "@open-rpc/schema-utils-js";
import Converter from "openapi-to-postmanv2";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BUNDLED_DIR, INTEROP, ROOT, SPEC_DIR, bundledDocs, openapiDocs, openrpcDocs, tempDir, tool } from "./helpers.js";

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
}

async function lint(args: string[]): Promise<LintReport> {
  const r = await tool("redocly", ["lint", ...args, "--format", "json"]);
  const start = r.stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly printed no report (exit ${r.code}):\n${r.stderr}`);
  return JSON.parse(r.stdout.slice(start)) as LintReport;
}

describe("Redocly lint (recommended ruleset, test/interop/redocly.yaml)", () => {
  it.each(openapiDocs.map((f) => f.replace(".openapi.yaml", "")))("%s: 0 errors, 0 warnings", async (api) => {
    const report = await lint([api, "--config", join(INTEROP, "redocly.yaml")]);
    expect(report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("control: a document with a dangling $ref and an operation without responses has errors", async () => {
    const dir = tempDir("redocly");
    const doc = parse(readFileSync(join(SPEC_DIR, "data-api.openapi.yaml"), "utf8"));
    const first = Object.values(doc.paths as Record<string, Record<string, { responses?: unknown }>>)[0]!;
    delete Object.values(first)[0]!.responses;
    doc.components.schemas.ChainInfo = { $ref: "#/components/schemas/NoSuchSchema" };
    writeFileSync(join(dir, "broken.json"), JSON.stringify(doc));
    const report = await lint([join(dir, "broken.json"), "--extends", "recommended"]);
    expect(report.totals.errors).toBeGreaterThanOrEqual(2);
    expect(report.problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(["no-unresolved-refs"]));
  });
});

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `GET /v1/chains/{chainId}` for every operation of an OpenAPI document. */
function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).filter((k) => HTTP_METHODS.includes(k)).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

const bundledOpenapi = bundledDocs.filter((f) => f.endsWith(".openapi.json"));

describe("@apidevtools/swagger-parser validate", () => {
  it.each([...openapiDocs.map((f) => `spec/${f}`), ...bundledOpenapi.map((f) => `generated/spec/${f}`)])("%s: valid, and every operation dereferences", async (name) => {
    const file = join(ROOT, name);
    const api = (await SwaggerParser.validate(file)) as unknown as { paths: Record<string, Record<string, unknown>> };
    const source = parse(readFileSync(file, "utf8")) as { paths: Record<string, Record<string, unknown>> };
    expect(operationsOf(api)).toEqual(operationsOf(source));
    expect(JSON.stringify(api)).not.toContain('"$ref"');
  });

  it("control: a dangling $ref and a server variable without a default are rejected", async () => {
    const dir = tempDir("swagger-parser");
    const doc = JSON.parse(readFileSync(join(BUNDLED_DIR, bundledOpenapi[0]!), "utf8"));
    doc.servers = [{ url: "https://{host}", variables: { host: {} } }];
    writeFileSync(join(dir, "broken.json"), JSON.stringify(doc));
    await expect(SwaggerParser.validate(join(dir, "broken.json"))).rejects.toThrow(/default/);
    const dangling = JSON.parse(readFileSync(join(BUNDLED_DIR, bundledOpenapi[0]!), "utf8"));
    dangling.components.schemas.ChainInfo = { $ref: "#/components/schemas/NoSuchSchema" };
    writeFileSync(join(dir, "dangling.json"), JSON.stringify(dangling));
    await expect(SwaggerParser.validate(join(dir, "dangling.json"))).rejects.toThrow(/NoSuchSchema/);
  });
});

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method: string; url: { path: string[] } };
}

function toPostman(data: object): Promise<{ name: string; requests: string[] }> {
  return new Promise((resolve, reject) =>
    Converter.convert({ type: "json", data }, { folderStrategy: "Tags" }, (error, converted) => {
      if (error) return reject(new Error(error.message));
      const result = converted as unknown as { result: boolean; reason?: string; output: { data: { info: { name: string }; item: PostmanItem[] } }[] };
      if (!result.result) return reject(new Error(result.reason));
      const requests: string[] = [];
      // Postman writes a whole-segment path parameter as `:name`, one inside a segment (`{tokenId}:reindex`) as the variable `{{name}}`
      const segment = (p: string) => p.replace(/^:(.*)$/, "{$1}").replace(/\{\{([^}]+)\}\}/g, "{$1}");
      const walk = (items: PostmanItem[]) => items.forEach((i) => (i.item ? walk(i.item) : i.request && requests.push(`${i.request.method} /${i.request.url.path.map(segment).join("/")}`)));
      walk(result.output[0]!.data.item);
      resolve({ name: result.output[0]!.data.info.name, requests: requests.sort() });
    }),
  );
}

describe("openapi-to-postmanv2 (Postman's importer)", () => {
  it.each(bundledOpenapi)("%s converts to a collection with one request per operation", async (file) => {
    const doc = JSON.parse(readFileSync(join(BUNDLED_DIR, file), "utf8"));
    const collection = await toPostman(doc);
    expect(collection.name).toBe(doc.info.title);
    expect(collection.requests).toEqual(operationsOf(doc));
  });

  it("control: a document without paths is refused", async () => {
    const doc = JSON.parse(readFileSync(join(BUNDLED_DIR, bundledOpenapi[0]!), "utf8"));
    delete doc.paths;
    await expect(toPostman(doc)).rejects.toThrow(/Paths Object/);
  });
});

describe("OpenRPC reference tools (@open-rpc/schema-utils-js, @open-rpc/meta-schema)", () => {
  it.each(openrpcDocs)("%s validates against the meta-schema and dereferences", async (file) => {
    const text = readFileSync(join(SPEC_DIR, file), "utf8");
    // as written; a document with $refs into another document (the L1's into the C-Chain's) as the package ships it, bundled
    const doc = /\$ref: "\.\//.test(text) ? JSON.parse(readFileSync(join(BUNDLED_DIR, file.replace(/\.yaml$/, ".json")), "utf8")) : parse(text);
    const valid = validateOpenRPCDocument(doc);
    expect(valid === true ? true : String(valid)).toBe(true);
    const deref = await parseOpenRPCDocument(JSON.stringify(doc));
    expect(deref.methods.length).toBe(doc.methods.length);
    // the tools dereference OpenRPC's own structures; vendor extensions (x-avaspec-result-by-param's variant
    // schemas) are opaque to them and keep their $refs, which avaspec resolves itself
    expect(JSON.stringify(deref, (key, value: unknown) => (key.startsWith("x-") ? undefined : value))).not.toContain('"$ref":"#/components');
  });

  it("control: a method without a name is rejected", () => {
    const doc = parse(readFileSync(join(SPEC_DIR, openrpcDocs[0]!), "utf8"));
    delete doc.methods[0].name;
    expect(validateOpenRPCDocument(doc)).not.toBe(true);
  });
});

describe("the bundled documents the package ships", () => {
  it.each(bundledDocs)("%s: one self-contained file, every $ref internal", (file) => {
    const text = readFileSync(join(BUNDLED_DIR, file), "utf8");
    const refs = [...text.matchAll(/"\$ref":\s*"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !r.startsWith("#/"))).toEqual([]);
    const doc = JSON.parse(text);
    for (const ref of new Set(refs)) {
      const target = ref.slice(2).split("/").reduce<any>((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
      expect(target, ref).toBeDefined();
    }
  });
});

describe("openapi-typescript", () => {
  const usage = `
import type { paths as Data, components as DataC } from "./data-api";
import type { paths as Metrics } from "./metrics-api";
import type { paths as Health } from "./node-health";

type Chain = Data["/v1/chains/{chainId}"]["get"]["responses"][200]["content"]["application/json"];
export const name = (c: Chain): string => c.chainName;
export type Transfer = DataC["schemas"]["Erc20Transfer"];
type Tps = Metrics["/v1/avg_tps/{chainId}"]["get"]["parameters"]["query"];
export const tps: Tps = { pageToken: "3b5f8e2a-9c41-4d7e-8a10-6f2c5d9e7b14" };
type HealthBody = Health["/ext/health"]["get"]["responses"][200]["content"]["application/json"];
export const healthy = (h: HealthBody): boolean => h.healthy;
`;

  async function generateTypes(dir: string): Promise<void> {
    for (const file of openapiDocs) {
      // run in the temp dir: openapi-typescript would otherwise pick up the Redocly config beside the tools
      const r = await tool("openapi-typescript", [join(BUNDLED_DIR, file.replace(".yaml", ".json")), "--output", join(dir, `${file.replace(".openapi.yaml", "")}.ts`)], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
    }
  }

  const tsc = (dir: string, files: string[]) => tool("tsc", ["--strict", "--noEmit", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", ...files.map((f) => join(dir, f))], { cwd: dir });

  it("generates types from every OpenAPI document that type-check with tsc --strict, and a use of them", async () => {
    const dir = tempDir("oats");
    await generateTypes(dir);
    writeFileSync(join(dir, "package.json"), '{ "type": "commonjs" }');
    writeFileSync(join(dir, "use.ts"), usage);
    const r = await tsc(dir, ["use.ts", ...openapiDocs.map((f) => `${f.replace(".openapi.yaml", "")}.ts`)]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 180_000);

  it("control: a wrong field on those types fails tsc", async () => {
    const dir = tempDir("oats-bad");
    await generateTypes(dir);
    writeFileSync(join(dir, "package.json"), '{ "type": "commonjs" }');
    writeFileSync(join(dir, "use.ts"), usage.replace("c.chainName", "c.chainNameTypo"));
    const r = await tsc(dir, ["use.ts"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toContain("chainNameTypo");
  }, 180_000);
});
