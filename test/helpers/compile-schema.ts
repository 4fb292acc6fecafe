/**
 * Compiles one raw JSON Schema through avaspec's own pipeline — the IR schema
 * builder and the validator compiler — into a callable check, the way the
 * generator does for spec schemas. Used by the conformance and differential tests.
 */
import { ts } from "ts-morph";
import type { Diagnostic } from "../../generator/load/diagnostics.js";
import { loadText } from "../../generator/load/load.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SchemaBuilder, type Dialect } from "../../generator/ir/schema.js";
import { buildOpenApiIr } from "../../generator/ir/build-openapi.js";
import type { IrNamedSchema, IrSchema } from "../../generator/ir/types.js";
import { validateOpenApi } from "../../generator/validate/openapi.js";
import { SchemaResources } from "../../generator/load/resources.js";
import type { LoadedDocument } from "../../generator/load/load.js";
import { NameRegistry, toIdentifier } from "../../generator/ir/naming.js";
import { ValidatorCompiler } from "../../generator/emit/validators/compile.js";
import { Printer } from "../../generator/print.js";
import * as validateHelpers from "../../runtime/values/validate.js";
import * as formatHelpers from "../../runtime/values/formats.js";

const helpers = { ...validateHelpers, ...formatHelpers } as Record<string, unknown>;
import type { ValidationIssue } from "../../runtime/errors/errors.js";

export interface Compiled {
  /** True when the value is valid (answer-only mode). */
  valid(value: unknown): boolean;
  /** Every issue (collecting mode); empty when valid. */
  issues(value: unknown): ValidationIssue[];
  diagnostics: Diagnostic[];
  source: string;
}

const printer = new Printer();
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Documents a schema may reference by URI: the test suite's remotes (served
 * as http://localhost:1234/…) and the draft meta-schemas Ajv ships. Loaded once.
 */
function preloaded(draft7: boolean): SchemaResources<LoadedDocument> {
  const docs: { doc: LoadedDocument; uri: string }[] = [];
  const add = (path: string, uri: string) => docs.push({ doc: loadText(path, readFileSync(path, "utf8")).document!, uri });
  const remotes = here("../json-schema-test-suite/remotes");
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith(".json")) add(p, `http://localhost:1234/${relative(remotes, p).split("\\").join("/")}`);
    }
  };
  walk(remotes);
  const refs = here("../../node_modules/ajv/dist/refs");
  add(join(refs, "json-schema-draft-07.json"), "http://json-schema.org/draft-07/schema");
  add(join(refs, "json-schema-2020-12/schema.json"), "https://json-schema.org/draft/2020-12/schema");
  for (const f of readdirSync(join(refs, "json-schema-2020-12/meta"))) add(join(refs, "json-schema-2020-12/meta", f), `https://json-schema.org/draft/2020-12/meta/${f.replace(/\.json$/, "")}`);
  return new SchemaResources(docs, draft7 ? "draft-07" : "2020-12");
}
const preloadedCache = new Map<boolean, SchemaResources<LoadedDocument>>();

export function compileSchema(schema: unknown, dialect: Dialect, file = "schema.json", options: { formats?: "annotate" | "assert" } = {}): Compiled {
  const loaded = loadText(file, JSON.stringify(schema));
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  const doc = loaded.document!;
  const draft7 = dialect === "draft-07";
  if (!preloadedCache.has(draft7)) preloadedCache.set(draft7, preloaded(draft7));
  const resources = new SchemaResources([{ doc, uri: "https://avaspec.test/schema.json" }], draft7 ? "draft-07" : "2020-12", preloadedCache.get(draft7));
  const builder = new SchemaBuilder(doc, dialect, diagnostics, draft7 ? "#/definitions" : "#/$defs", resources);
  builder.buildNamedSchemas();
  const root = builder.build(doc.root, "#");
  return compiled([...builder.named.values()], root, diagnostics, options);
}

/**
 * Compiles a schema as generation reads it: `components.schemas.S` of an
 * OpenAPI 3.1 document, through the generator's own front end (load,
 * validate, IR), whose $refs resolve within that document alone.
 */
export function compileInOpenApi(schema: unknown): Compiled {
  const text = JSON.stringify({ openapi: "3.1.0", info: { title: "Suite", version: "1" }, paths: {}, components: { schemas: { S: schema } } });
  const loaded = loadText("suite.json", text);
  const doc = loaded.document!;
  const diagnostics: Diagnostic[] = [...loaded.diagnostics, ...validateOpenApi(doc)];
  const ir = diagnostics.some((d) => d.severity === "error") ? undefined : buildOpenApiIr(doc, diagnostics);
  const target = ir?.schemas.find((n) => n.pointer === "#/components/schemas/S");
  // a document that does not build has nothing to check with: its diagnostics say why
  if (!ir || !target || diagnostics.some((d) => d.severity === "error")) return { valid: () => false, issues: () => [{ path: "", message: "does not build" }], diagnostics, source: "" };
  return compiled(ir.schemas, { kind: "ref", target: target.key, pointer: "#" }, diagnostics);
}

function compiled(named: IrNamedSchema[], root: IrSchema, diagnostics: Diagnostic[], options: { formats?: "annotate" | "assert" } = {}): Compiled {
  const names = new NameRegistry();
  for (const n of named) n.name = names.claim(toIdentifier(n.id.startsWith("#") ? "Ref " + n.id : n.id, "pascal"));
  const compiler = new ValidatorCompiler(named, options);
  const rootCheck = compiler.check(root);
  const source = printer.print([], compiler.decls);
  const js = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const names2 = Object.keys(helpers);
  const check = new Function(...names2, `${js}\nreturn ${rootCheck};`)(...names2.map((n) => helpers[n])) as validateHelpers.Check;
  return {
    valid: (value) => check(value, "", null),
    issues: (value) => {
      const e: ValidationIssue[] = [];
      check(value, "", e);
      return e;
    },
    diagnostics,
    source,
  };
}
