/**
 * What a large package costs the TypeScript compiler (issue 26, item 20).
 * tsc's control flow analysis makes every identifier that a module-level
 * initialiser reads walk back over each initialised module-level declaration
 * above it, so a module of n descriptors that each name a check or an encoder
 * costs time in n²: on Microsoft Graph beta (22,361 operations) tsc took
 * 113 CPU s on the descriptors alone and 42 on the validators' code. So the
 * checks (validators.js) and the HTTP descriptors (operations.js) are
 * JavaScript with declarations, which tsc reads as declarations only, and
 * what stays TypeScript reads identifiers at the module level a fixed number
 * of times, however many operations there are. Counted with the TypeScript
 * parser on the package of a generated spec of 400 operations; the bench
 * (`npm run bench:generate -- --only graph`) has the times on Graph beta.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ts } from "ts-morph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, TSC } from "../helpers/cli.js";

const OPERATIONS = 400;
let dir: string;
let pkg: string;

/** A spec of `n` GET operations, each with a path parameter, two query parameters (one in a non-default style) and a JSON result. */
function spec(n: number): object {
  const paths = Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `/items${i}/{id}`,
      {
        get: {
          operationId: `getItem${i}`,
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "fields", in: "query", explode: false, schema: { type: "array", items: { type: "string", enum: ["a", "b", "c"] } } },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1 } },
          ],
          // every tenth answers an inline list, which the client names (GetItem10Response) and MockAnswers refers to by that name
          responses: { "200": { description: "ok", content: { "application/json": { schema: i % 10 === 0 ? { type: "object", properties: { items: { type: "array", items: { $ref: `#/components/schemas/Item${i % 50}` } } } } : { $ref: `#/components/schemas/Item${i % 50}` } } } } },
        },
      },
    ]),
  );
  const schemas = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`Item${i}`, { type: "object", required: ["id"], properties: { id: { type: "string" }, count: { type: "integer" }, tags: { type: "array", items: { type: "string" } } } }]));
  return { openapi: "3.1.0", info: { title: "Many", version: "1" }, paths, components: { schemas } };
}

/**
 * The work tsc's control flow analysis does on a TypeScript file's
 * module-level initialisers, in steps: each identifier an initialiser reads
 * walks back over the initialised module-level declarations above it (an
 * upper bound: a read of a local binding stops at its declaration). Reads
 * inside function bodies (declarations, arrows, methods) are analysed against
 * the body and do not count; neither do type positions or property names.
 */
function flowWalkSteps(file: string): number {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const readsIn = (root: ts.Node): number => {
    let reads = 0;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) || ts.isTypeNode(node) || ts.isClassLike(node)) return;
      if (ts.isIdentifier(node)) {
        const parent = node.parent;
        const isName = (ts.isPropertyAssignment(parent) && parent.name === node) || (ts.isPropertyAccessExpression(parent) && parent.name === node);
        if (!isName) reads++;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(root);
    return reads;
  };
  let initialised = 0;
  let steps = 0;
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (!d.initializer) continue;
      steps += readsIn(d.initializer) * initialised;
      initialised++;
    }
  }
  return steps;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "avaspec-compile-cost-"));
  writeFileSync(join(dir, "many.json"), JSON.stringify(spec(OPERATIONS)));
  const r = runCli(["generate", "--input", "many.json", "--out", "out"], dir);
  if (r.status !== 0) throw new Error(`generate failed:\n${r.stderr}`);
  pkg = join(dir, "out");
  // the package's devDependencies (typescript, @types/node) as this repository has them
  symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`a package of ${OPERATIONS} operations`, () => {
  it("ships its checks, HTTP descriptors and client code as JavaScript with declarations, and its build copies them to dist/", () => {
    for (const f of ["validators.js", "validators.d.ts", "operations.js", "operations.d.ts", "functions.js", "functions.d.ts"]) expect(existsSync(join(pkg, "src/many", f)), f).toBe(true);
    for (const f of ["validators.ts", "operations.ts", "functions.ts"]) expect(existsSync(join(pkg, "src/many", f)), f).toBe(false);
    // the descriptors keep their types: declared with their params and result types
    expect(readFileSync(join(pkg, "src/many/operations.d.ts"), "utf8")).toContain("export declare const getItem7Operation: HttpOperation<C.GetItem7Params, T.Item7>;");
    // so do the functions and the factory, which client.ts re-exports; client.ts itself holds types only (no function body for tsc to check)
    const functions = readFileSync(join(pkg, "src/many/functions.d.ts"), "utf8");
    expect(functions).toContain("export declare function getItem7(client: ManyCore, params: C.GetItem7Params, options?: CallOptions): Promise<T.Item7>;");
    expect(functions).toContain("export declare function createManyClient(options?: C.ManyClientOptions): C.ManyClient;");
    const client = readFileSync(join(pkg, "src/many/client.ts"), "utf8");
    expect(client).toMatch(/^export \{[^}]*\bcreateManyClient, type ManyCore, createManyCore, getItem0\b[^}]*\} from "\.\/functions\.js";$/m);
    expect(client).not.toMatch(/^(export )?(function|const) /m);
    const build = spawnSync("npm", ["run", "build"], { cwd: pkg, encoding: "utf8" });
    expect(build.stderr).not.toMatch(/error/i);
    expect(build.status).toBe(0);
    for (const f of ["validators.js", "validators.d.ts", "operations.js", "operations.d.ts", "functions.js", "functions.d.ts", "client.js", "client.d.ts"]) expect(existsSync(join(pkg, "dist/many", f)), f).toBe(true);
  }, 180_000);

  it("types MockAnswers' entries by one generic alias, and success bodies by the names the client gives them, not spelt out again", () => {
    const mocks = readFileSync(join(pkg, "src/many/mocks.ts"), "utf8");
    expect(mocks).toContain("  getItem10: Answer<undefined, C.GetItem10Response> | Answer<200, C.GetItem10Response>;");
    expect(mocks).toContain("  getItem7: Answer<undefined, T.Item7> | Answer<200, T.Item7>;");
  });

  it("type-checks, declarations included", () => {
    const r = spawnSync(process.execPath, [TSC, "-p", join(pkg, "tsconfig.json"), "--noEmit", "--skipLibCheck", "false", "--pretty", "false"], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 180_000);

  it("costs tsc's control flow analysis work in proportion to its operations, not to their square", () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) files.push(join(d, e.name));
      }
    };
    walk(join(pkg, "src"));
    const steps = Object.fromEntries(files.map((f) => [f.slice(pkg.length + 1), flowWalkSteps(f)]));
    // descriptors naming their checks in client.ts were about 3 reads each over all the descriptors above them: 240,000 steps here
    for (const [file, n] of Object.entries(steps)) expect(n, file).toBeLessThanOrEqual(2 * OPERATIONS);
  });

  it("the step count sees module-level reads (a control for the bound above)", () => {
    const f = join(dir, "control.ts");
    writeFileSync(f, 'import { a } from "./a.js";\nexport const x = { check: a };\nexport const y = [a, a];\nexport function f() { return a; }\nexport const z = a;\n');
    // x reads a with nothing above it; y reads it twice over x; z once over x and y
    expect(flowWalkSteps(f)).toBe(4);
  });
});
