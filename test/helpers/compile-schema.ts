/**
 * Compiles one raw JSON Schema through avaspec's own pipeline — the IR schema
 * builder and the validator compiler — into a callable check, the way the
 * generator does for spec schemas. Used by the conformance and differential tests.
 */
import { ts } from "ts-morph";
import type { Diagnostic } from "../../generator/load/diagnostics.js";
import { loadText } from "../../generator/load/load.js";
import { SchemaBuilder, type Dialect } from "../../generator/ir/schema.js";
import { NameRegistry, toIdentifier } from "../../generator/ir/naming.js";
import { ValidatorCompiler } from "../../generator/emit/validators/compile.js";
import { Printer } from "../../generator/print.js";
import * as helpers from "../../runtime/validate.js";
import type { ValidationIssue } from "../../runtime/errors.js";

export interface Compiled {
  /** True when the value is valid (answer-only mode). */
  valid(value: unknown): boolean;
  /** Every issue (collecting mode); empty when valid. */
  issues(value: unknown): ValidationIssue[];
  diagnostics: Diagnostic[];
  source: string;
}

const printer = new Printer();

export function compileSchema(schema: unknown, dialect: Dialect, file = "schema.json"): Compiled {
  const loaded = loadText(file, JSON.stringify(schema));
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  const doc = loaded.document!;
  const builder = new SchemaBuilder(doc, dialect, diagnostics, dialect === "draft-07" ? "#/definitions" : "#/$defs");
  builder.buildNamedSchemas();
  const root = builder.build(doc.root, "#");
  const names = new NameRegistry();
  const named = [...builder.named.values()];
  for (const n of named) n.name = names.claim(toIdentifier(n.id.startsWith("#") ? "Ref " + n.id : n.id, "pascal"));
  const compiler = new ValidatorCompiler(named);
  const rootCheck = compiler.check(root);
  const source = printer.print([], compiler.decls);
  const js = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const names2 = Object.keys(helpers);
  const check = new Function(...names2, `${js}\nreturn ${rootCheck};`)(...names2.map((n) => (helpers as Record<string, unknown>)[n])) as helpers.Check;
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
