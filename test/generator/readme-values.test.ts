/**
 * The values in a generated README's examples pass the package's own
 * validators: every call of an operation in a TypeScript block (a client
 * method, `.iterate`/`.pages`, a batch's calls, `callHttp` and
 * `rpc.call` with a descriptor) has params its `validate…Params` accepts, and
 * every value a block hands a schema validator (`validateX(value)`) is one
 * it accepts. Tried on generated/ and every fixture's golden. The calls are
 * found by parsing the blocks (TypeScript's parser, no type checker) and
 * resolved to operations through the IR of the package's config; literal
 * arguments are read from the syntax tree, never evaluated.
 *
 * Subscribe methods exist only over a WebSocket, so no example calls one over
 * HTTP: they are shown as the WebSocket form's `ws.subscribe` members.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ts } from "ts-morph";
import { loadConfig, targetsOf } from "../../generator/config.js";
import { buildModule } from "../../generator/front-end.js";
import type { IrOperation } from "../../generator/ir/types.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { readmeModules } from "../helpers/readme.js";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Validator = (...args: unknown[]) => { ok: boolean; issues?: unknown[] };

const packages: [string, string][] = [
  ["generated", "avaspec.config.json"],
  ...readdirSync(join(ROOT, "test/fixtures"))
    .filter((f) => existsSync(join(ROOT, "test/fixtures", f, "golden/README.md")))
    .map((f): [string, string] => [`test/fixtures/${f}/golden`, `test/fixtures/${f}/avaspec.config.json`]),
];

interface Module {
  output: string;
  factory: string;
  ops: IrOperation[];
  /** Operations by their path on the client (`cChain.eth.getBalance`) and by descriptor name. */
  byPath: Map<string, IrOperation>;
  byDescriptor: Map<string, IrOperation>;
  /** The subscribe and unsubscribe methods of its WebSocket forms. */
  socketOnly: Set<IrOperation>;
  validators: Record<string, Validator> | undefined;
}

async function modulesOf(dir: string, configFile: string): Promise<Module[]> {
  const config = loadConfig(resolve(ROOT, configFile));
  const out: Module[] = [];
  for (const input of config.inputs) {
    const built = buildModule(config, input, []);
    if (!built) throw new Error(`${configFile}: ${input.output} does not build`);
    const { ir } = built;
    const file = resolve(ROOT, dir, "src", input.output, "validators.js");
    const validators = targetsOf(input).has("validators") && existsSync(file) ? ((await import(pathToFileURL(file).href)) as Record<string, Validator>) : undefined;
    const socketOnly = new Set(
      ir.operations.filter((op) => op.protocol === "json-rpc" && (ir.webSockets ?? []).some((w) => w.file === op.file && (w.subscriptions?.subscribe === op.transport.method || w.subscriptions?.unsubscribe === op.transport.method))),
    );
    out.push({
      output: input.output,
      factory: ir.names.factory,
      ops: ir.operations,
      byPath: new Map(ir.operations.map((op) => [[...op.group, op.names.method].join("."), op])),
      byDescriptor: new Map(ir.operations.map((op) => [op.names.descriptor, op])),
      socketOnly,
      validators,
    });
  }
  return out;
}

const NOT_LITERAL = Symbol("not a literal");

/** The JSON value a literal expression writes; NOT_LITERAL for anything else (a variable, a call). */
function literal(node: ts.Expression): Json | typeof NOT_LITERAL {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return literal(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => literal(e));
    return items.includes(NOT_LITERAL) ? NOT_LITERAL : (items as Json[]);
  }
  if (ts.isObjectLiteralExpression(node)) {
    const out: { [k: string]: Json } = {};
    for (const p of node.properties) {
      if (!ts.isPropertyAssignment(p)) return NOT_LITERAL;
      const name = ts.isComputedPropertyName(p.name) ? (ts.isStringLiteral(p.name.expression) ? p.name.expression.text : undefined) : ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name) ? p.name.text : undefined;
      const value = literal(p.initializer);
      if (name === undefined || value === NOT_LITERAL) return NOT_LITERAL;
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return NOT_LITERAL;
}

/** A callee as its root variable and member names, group calls (`l1({ … })`) stepped over. */
function calleePath(node: ts.Expression): { root: string; names: string[] } | undefined {
  const names: string[] = [];
  let cur: ts.Expression = node;
  for (;;) {
    if (ts.isPropertyAccessExpression(cur)) {
      names.unshift(cur.name.text);
      cur = cur.expression;
    } else if (ts.isElementAccessExpression(cur) && ts.isStringLiteral(cur.argumentExpression)) {
      names.unshift(cur.argumentExpression.text);
      cur = cur.expression;
    } else if (ts.isCallExpression(cur)) cur = cur.expression;
    else if (ts.isIdentifier(cur)) return { root: cur.text, names };
    else return undefined;
  }
}

interface Found {
  heading: string;
  what: string;
  /** The validator's arguments: the params, the value (or a webhook's name and body). */
  args: Json[];
  check: Validator;
}

/** Every value a README module passes to an operation or a validator, with the validator that must accept it. */
function valuesIn(heading: string, code: string, modules: Module[], called: Set<IrOperation>, overHttp: string[]): Found[] {
  const source = ts.createSourceFile("readme.ts", code, ts.ScriptTarget.Latest, true);
  const clients = new Map<string, Module>();
  const consts = new Map<string, ts.Expression>();
  const found: Found[] = [];
  const validatorNamed = (name: string) => modules.map((m) => m.validators?.[name]).find((f) => typeof f === "function");
  const opCall = (m: Module | undefined, op: IrOperation, arg: ts.Expression | undefined, what: string) => {
    called.add(op);
    if (m?.socketOnly.has(op)) overHttp.push(`${heading}: ${what}`);
    const value = arg === undefined || arg.kind === ts.SyntaxKind.UndefinedKeyword || (ts.isIdentifier(arg) && arg.text === "undefined") ? {} : literal(arg);
    const check = m?.validators?.[op.names.validateParams];
    if (value !== NOT_LITERAL && check) found.push({ heading, what, args: [value], check });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      consts.set(node.name.text, node.initializer);
      const init = node.initializer;
      if (ts.isCallExpression(init) && ts.isIdentifier(init.expression)) {
        const m = modules.find((x) => x.factory === (init.expression as ts.Identifier).text);
        if (m) clients.set(node.name.text, m);
      }
    }
    // the callback of client.batch((c) => …): `c` is the same client
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "batch" && ts.isIdentifier(node.expression.expression)) {
      const m = clients.get(node.expression.expression.text);
      const fn = node.arguments[0];
      if (m && fn && ts.isArrowFunction(fn) && fn.parameters[0] && ts.isIdentifier(fn.parameters[0].name)) clients.set(fn.parameters[0].name.text, m);
    }
    if (ts.isCallExpression(node)) {
      const path = calleePath(node.expression);
      const [first, second, third] = node.arguments;
      if (path && path.names.length > 0) {
        const m = clients.get(path.root);
        for (const names of [path.names, path.names.slice(0, -1)]) {
          if (names !== path.names && !["iterate", "pages"].includes(path.names.at(-1)!)) continue;
          const key = names.join(".");
          const owner = m ?? (modules.filter((x) => x.byPath.has(key)).length === 1 ? modules.find((x) => x.byPath.has(key)) : undefined);
          const op = owner?.byPath.get(key);
          if (op) {
            opCall(owner, op, first, `${path.root}.${path.names.join(".")}`);
            break;
          }
        }
        // rpc.call(descriptor, params)
        if (path.names.at(-1) === "call" && first && ts.isIdentifier(first)) {
          const m2 = modules.find((x) => x.byDescriptor.has(first.text));
          if (m2) opCall(m2, m2.byDescriptor.get(first.text)!, second, `call(${first.text})`);
        }
      }
      if (path && path.names.length === 0) {
        // callHttp(config, descriptor, params)
        if (path.root === "callHttp" && second && ts.isIdentifier(second)) {
          const m2 = modules.find((x) => x.byDescriptor.has(second.text));
          if (m2) opCall(m2, m2.byDescriptor.get(second.text)!, third, `callHttp(${second.text})`);
        }
        // validateX(value): a schema validator given values the block wrote (a variable's literal initializer too)
        const check = /^validate/.test(path.root) ? validatorNamed(path.root) : undefined;
        const args = node.arguments.map((a) => {
          const e = ts.isIdentifier(a) ? consts.get(a.text) : a;
          return e ? literal(e) : NOT_LITERAL;
        });
        if (check && args.length > 0 && !args.includes(NOT_LITERAL)) found.push({ heading, what: `${path.root}(…)`, args: args as Json[], check });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The values of a package's README examples its validators refuse; the operations no example calls; the subscribe methods called over HTTP. */
async function checkReadme(dir: string, configFile: string) {
  const modules = await modulesOf(dir, configFile);
  const readme = readFileSync(resolve(ROOT, dir, "README.md"), "utf8");
  const called = new Set<IrOperation>();
  const overHttp: string[] = [];
  const found = readmeModules(readme).flatMap((m) => valuesIn(m.heading, m.code, modules, called, overHttp));
  const refused = found.flatMap((f) => {
    const r = f.check(...f.args);
    return r.ok ? [] : [`[${f.heading}] ${f.what}: ${JSON.stringify(f.args)} → ${JSON.stringify(r.issues)}`];
  });
  // every operation of a client is called somewhere (its own section at least), but a subscribe method, which only the socket has
  const clientOps = modules.filter((m) => existsSync(resolve(ROOT, dir, "src", m.output, "client.ts"))).flatMap((m) => m.ops.filter((op) => !m.socketOnly.has(op)));
  return { found, refused, uncalled: clientOps.filter((op) => !called.has(op)).map((op) => [...op.group, op.names.method].join(".")), overHttp, readme };
}

describe.each(packages)("the examples of %s/README.md", (dir, configFile) => {
  it("pass the package's validators: every operation's params and every value given to a validator", async () => {
    const { found, refused, uncalled, overHttp } = await checkReadme(dir, configFile);
    expect(refused).toEqual([]);
    expect(uncalled).toEqual([]);
    expect(found.length).toBeGreaterThan(0);
    expect(overHttp, "a subscribe method called over HTTP").toEqual([]);
  });
});

describe("values the spec constrains", () => {
  const text = (extra: Record<string, unknown>) => ({ type: "string", ...extra });
  const doc = {
    openapi: "3.1.0",
    info: { title: "Constraints", version: "1" },
    paths: {
      "/accounts/{address}": {
        get: {
          operationId: "getAccount",
          parameters: [
            // the spec's own example breaks its pattern: a value the pattern takes instead
            { name: "address", in: "path", required: true, schema: text({ pattern: "^0x[0-9a-f]{40}$" }), example: "0xABC" },
            { name: "code", in: "query", required: true, schema: text({ pattern: "^[A-Z]{3}-\\d{2,4}$" }) },
            { name: "since", in: "query", required: true, schema: text({ format: "date-time" }) },
            { name: "tag", in: "query", required: true, schema: text({ minLength: 5, maxLength: 8 }) },
            { name: "step", in: "query", required: true, schema: { type: "integer", minimum: 3, multipleOf: 5 } },
            { name: "ratio", in: "query", required: true, schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 } },
            { name: "ids", in: "query", required: true, schema: { type: "array", minItems: 2, items: text({ format: "uuid", pattern: "^[0-9a-f-]{36}$" }) } },
            { name: "level", in: "query", required: true, schema: text({ pattern: "^(low|high)$", default: "medium" }) },
            // a format named like an Object.prototype member is just an unknown format
            { name: "odd", in: "query", required: true, schema: text({ format: "__proto__", minLength: 2 }) },
          ],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
  };

  it("are the spec's examples and defaults when its validators take them, else values they take", async () => {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-readme-values-"));
    try {
      writeFileSync(join(dir, "doc.json"), JSON.stringify(doc));
      writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "pkg", package: { name: "@me/pkg" }, inputs: [{ spec: "doc.json", output: "api", clientName: "Constraints", targets: ["types", "validators", "client"] }] }));
      const r = runCli(["generate", "--config", join(dir, "avaspec.config.json")], dir);
      expect(r.status, r.stderr).toBe(0);
      const { found, refused, uncalled } = await checkReadme(join(dir, "pkg"), join(dir, "avaspec.config.json"));
      expect(refused).toEqual([]);
      expect(uncalled).toEqual([]);
      expect(found.some((f) => f.what.endsWith(".getAccount"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
