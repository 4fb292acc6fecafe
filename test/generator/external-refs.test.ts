/**
 * External `$ref`s: refused by default, followed only into allowed folders
 * and URL prefixes (`refs.allow`, `--allow-ref`), bundled into the document
 * (schemas hoisted under components, other objects copied in place). The
 * HTTP case runs a real server on 127.0.0.1 in a child process and checks
 * what it was asked for.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const COMMON = `components:
  schemas:
    Money:
      type: object
      required: [amount]
      properties:
        amount: { type: string }
        next: { $ref: "#/components/schemas/Money" }
        currency: { $ref: "./currency.yaml" }
  parameters:
    Limit:
      name: limit
      in: query
      schema: { type: integer, maximum: 100 }
`;
const PATHS = `get:
  operationId: getPrice
  parameters:
    - $ref: "./common.yaml#/components/parameters/Limit"
  responses:
    "200":
      description: ok
      content:
        application/json:
          schema: { $ref: "./common.yaml#/components/schemas/Money" }
`;
const api = (extra = "") => `openapi: 3.1.0
info: { title: Ext, version: 1.0.0 }
paths:
  /price:
    $ref: "./shared/paths.yaml"
  /total:
    get:
      operationId: getTotal
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "shared/common.yaml#/components/schemas/Money" }
${extra}`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function project(spec: string, allow?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "avaspec-refs-"));
  dirs.push(dir);
  mkdirSync(join(dir, "shared"));
  writeFileSync(join(dir, "shared/common.yaml"), COMMON);
  writeFileSync(join(dir, "shared/currency.yaml"), "type: string\nenum: [USD, EUR]\n");
  writeFileSync(join(dir, "shared/paths.yaml"), PATHS);
  writeFileSync(join(dir, "secret.yaml"), "type: string\n");
  writeFileSync(join(dir, "api.yaml"), spec);
  writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "x" }, inputs: [{ spec: "api.yaml", output: "api", clientName: "Api", ...(allow === undefined ? {} : { refs: { allow } }) }] }));
  return dir;
}

describe("external $refs from files", () => {
  it("are refused by default, at the first one, with a hint naming refs.allow", () => {
    const dir = project(api());
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^api\.yaml:5:5 at #\/paths\/~1price\/\$ref: external \$ref "\.\/shared\/paths\.yaml" is not allowed \[ref\/external\]/);
    expect(r.stderr).toContain("refs.allow");
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("are bundled when their folder is allowed: path items and parameters copied, schemas hoisted (recursion kept)", () => {
    const dir = project(api(), ["./shared/"]);
    const r = runCli(["generate"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const types = readFileSync(join(dir, "out/src/api/types.ts"), "utf8");
    expect(types).toContain("export interface Money {\n  amount: string;\n  next?: Money;\n  currency?: Currency;\n}");
    expect(types).toContain('export type Currency = "USD" | "EUR";');
    const client = readFileSync(join(dir, "out/src/api/client.ts"), "utf8");
    expect(client).toMatch(/export type GetPriceParams = \{\s+\/\*\* @maximum 100 \*\/\s+limit\?: number;/);
    expect(client).toContain("readonly getTotal: HttpMethod<GetTotalParams | void, T.Money>;");
    // the bundled document ships: every $ref in it is local now
    const shipped = readFileSync(join(dir, "out/spec/api.json"), "utf8");
    expect([...shipped.matchAll(/"\$ref":\s*"([^"]+)"/g)].map((m) => m[1]!.startsWith("#"))).not.toContain(false);
    expect(runCli(["generate", "--check"], dir).status).toBe(0);
  });

  it("the same from the command line: --allow-ref", () => {
    const dir = project(api());
    expect(runCli(["generate", "--input", "api.yaml", "--out", "one", "--allow-ref", "shared"], dir).status).toBe(0);
    expect(readFileSync(join(dir, "one/src/api/types.ts"), "utf8")).toContain("export interface Money");
  });

  it("stop at the allowlist: a target outside it (also through ../) is an error at the ref that led there, and is not read", () => {
    const dir = project(api(`components:\n  schemas:\n    S:\n      $ref: "./shared/../secret.yaml"\n`), ["./shared/"]);
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at #\/components\/schemas\/S\/\$ref: external \$ref "\.\/shared\/\.\.\/secret\.yaml" is not allowed/);
    // a chain that leaves the allowed folder from inside it: reported at the root ref
    writeFileSync(join(dir, "shared/currency.yaml"), '$ref: "../secret.yaml"\n');
    writeFileSync(join(dir, "api.yaml"), api());
    const r2 = runCli(["generate"], dir);
    expect(r2.status).toBe(1);
    expect(r2.stderr).toMatch(/at #\/paths\/~1price\/\$ref: \$ref "\.\.\/secret\.yaml": .*secret\.yaml is not in refs\.allow \[ref\/external\]/);
  });

  it("a missing fragment or file is a diagnostic at the root ref", () => {
    const dir = project(api(`components:\n  schemas:\n    S:\n      $ref: "./shared/common.yaml#/components/schemas/Nope"\n    T:\n      $ref: "./shared/missing.yaml"\n`), ["./shared/"]);
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at #\/components\/schemas\/S\/\$ref: \$ref "\.\/shared\/common\.yaml#\/components\/schemas\/Nope": nothing at #\/components\/schemas\/Nope/);
    expect(r.stderr).toMatch(/at #\/components\/schemas\/T\/\$ref: \$ref "\.\/shared\/missing\.yaml": cannot read .*missing\.yaml/);
  });

  it("refuses a malformed refs setting", () => {
    const dir = project(api(), "./shared/");
    expect(runCli(["generate"], dir)).toMatchObject({ status: 2, stderr: expect.stringContaining("refs must be") });
  });
});

describe("external $refs over HTTP (a loopback server in another process)", () => {
  let server: ChildProcess;
  let base: string;
  const asked = () => readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  let logFile: string;
  beforeAll(async () => {
    httpDir = mkdtempSync(join(tmpdir(), "avaspec-refs-http-"));
    const dir = httpDir;
    logFile = join(dir, "asked.log");
    writeFileSync(logFile, "");
    const script = `
      const { createServer } = require("node:http");
      const { appendFileSync } = require("node:fs");
      const docs = { "/schemas/money.yaml": ${JSON.stringify("type: object\nrequired: [amount]\nproperties:\n  amount: { type: string }\n  currency: { $ref: ./currency.yaml }\n")}, "/schemas/currency.yaml": "type: string\\nenum: [USD, EUR]\\n", "/private/key.yaml": "type: string\\n" };
      createServer((req, res) => {
        appendFileSync(${JSON.stringify(logFile)}, req.url + "\\n");
        const doc = docs[req.url];
        res.writeHead(doc ? 200 : 404, { "content-type": "application/yaml" }).end(doc ?? "");
      }).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`;
    server = spawn(process.execPath, ["-e", script]);
    const port = await new Promise<string>((resolve) => server.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
    base = `http://127.0.0.1:${port}`;
  });
  let httpDir: string;
  afterAll(() => {
    server.kill();
    rmSync(httpDir, { recursive: true, force: true });
  });

  const httpSpec = (ref: string) => `openapi: 3.1.0
info: { title: Ext, version: 1.0.0 }
paths:
  /total:
    get:
      operationId: getTotal
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "${ref}" }
`;

  it("fetches an allowed URL prefix, and the refs inside it relative to it", () => {
    const dir = project(httpSpec(`${base}/schemas/money.yaml`), [`${base}/schemas/`]);
    const r = runCli(["generate"], dir);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, "out/src/api/types.ts"), "utf8")).toContain("export interface Money {\n  amount: string;\n  currency?: Currency;\n}");
    expect(asked()).toEqual(["/schemas/money.yaml", "/schemas/currency.yaml"]);
  });

  it("never asks for a URL outside the allowlist, nor for anything by default", () => {
    writeFileSync(logFile, "");
    const outside = project(httpSpec(`${base}/private/key.yaml`), [`${base}/schemas/`]);
    expect(runCli(["generate"], outside).status).toBe(1);
    const byDefault = project(httpSpec(`${base}/schemas/money.yaml`));
    expect(runCli(["generate"], byDefault).status).toBe(1);
    expect(asked()).toEqual([]);
  });

  it("an allowed URL that answers 404 is a diagnostic at the ref", () => {
    const dir = project(httpSpec(`${base}/schemas/gone.yaml`), [`${base}/schemas/`]);
    const r = runCli(["generate"], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/at #\/paths\/~1total\/get\/responses\/200\/content\/application~1json\/schema\/\$ref: .*cannot read http:\/\/127\.0\.0\.1:\d+\/schemas\/gone\.yaml: HTTP 404/);
  });
});
