/** The node documents as the config lists them, with each method's client path and wire expectations. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleExternalRefs } from "../../generator/load/bundle.js";
import { loadFile } from "../../generator/load/load.js";
import { ROOT } from "./cli.js";

type Doc = Record<string, any>;
export interface NodeSpec {
  file: string;
  doc: Doc;
  group: string[];
  splitNamespaces: boolean;
  /** The path the client calls: path variables at their examples (the server variables' defaults). */
  endpoint: string;
  /** The endpoint's path variables with those examples; empty for an endpoint without. */
  variables: Record<string, string>;
}

/**
 * A spec document as the package ships it: its `$ref`s into the other spec
 * documents (the L1 document lists the C-Chain's methods, schemas and errors
 * so) bundled in by the generator's own bundler.
 */
export function bundledSpec(file: string): Doc {
  const { document, diagnostics } = loadFile(join(ROOT, file));
  if (!document) throw new Error(`${file}: ${diagnostics.map((d) => d.message).join("; ")}`);
  const problems = bundleExternalRefs(document, [join(ROOT, "spec")]);
  if (problems.length > 0) throw new Error(`${file}: ${problems.map((d) => d.message).join("; ")}`);
  return document.root as Doc;
}

export function nodeSpecs(): NodeSpec[] {
  const config = JSON.parse(readFileSync(join(ROOT, "avaspec.config.json"), "utf8"));
  const input = config.inputs.find((i: { output: string }) => i.output === "node");
  return input.specs.map((e: { spec: string; group?: string; splitNamespaces?: boolean }) => {
    const doc = bundledSpec(e.spec);
    const server = doc.servers?.[0];
    const url = server ? server.url.replace(/\{([^}]+)\}/g, (_: string, v: string) => server.variables?.[v]?.default ?? "") : "";
    // the variables in the URL's path: the client takes them (`node.l1({ blockchainId })`)
    const path = server ? (/^[a-z]+:\/\/[^/]*(.*)$/i.exec(server.url)?.[1] ?? "") : "";
    const variables = Object.fromEntries([...path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, String(server.variables[m[1]!].default)]));
    return { file: e.spec, doc, group: e.group ? e.group.split(".") : [], splitNamespaces: e.splitNamespaces ?? true, endpoint: new URL(url).pathname.replace(/\/+$/, ""), variables };
  });
}

/**
 * The client's method for a case: its path walked from the client, calling
 * the group that takes an endpoint's path variables with the case's values
 * (`node.l1({ blockchainId }).eth.feeConfig`).
 */
export function clientMethod(client: unknown, c: MethodCase): (params?: unknown) => Promise<unknown> {
  const withVariables = Object.keys(c.spec.variables).length > 0;
  const owner = c.path.slice(0, -1).reduce((o: any, k, i) => (withVariables && i === c.spec.group.length - 1 ? o?.[k]?.(c.spec.variables) : o?.[k]), client) as Record<string, unknown>;
  const fn = owner?.[c.path.at(-1)!];
  if (typeof fn !== "function") throw new Error(`no method node.${c.path.join(".")}`);
  return (fn as (p?: unknown) => Promise<unknown>).bind(owner);
}

export const resolveRef = (doc: Doc, node: any): any => {
  while (node && typeof node.$ref === "string") node = node.$ref.slice(2).split("/").reduce((o: any, k: string) => o?.[k], doc);
  return node;
};

export interface MethodCase {
  spec: NodeSpec;
  method: any;
  wire: string;
  /** Path on the client: ["cChain", "eth", "getBalance"]. */
  path: string[];
  args: Record<string, unknown> | undefined;
  /** The params member the node must receive. */
  wireParams: unknown;
  result: unknown;
}

/** Every method with its first example pairing turned into a call and the envelope it must produce. */
export function methodCases(): MethodCase[] {
  const out: MethodCase[] = [];
  for (const spec of nodeSpecs()) {
    if (!spec.doc.openrpc) continue;
    for (const raw of spec.doc.methods) {
      const method = resolveRef(spec.doc, raw);
      const wire: string = method.name;
      const m = /^([A-Za-z][A-Za-z0-9]*)[._](.+)$/.exec(wire);
      const path = [...spec.group, ...(m && spec.splitNamespaces ? [m[1]!] : []), m ? m[2]! : wire];
      const example = resolveRef(spec.doc, method.examples?.[0]);
      const params: any[] = (method.params ?? []).map((p: unknown) => resolveRef(spec.doc, p));
      const values = new Map<string, unknown>((example?.params ?? []).map((p: any) => [resolveRef(spec.doc, p).name, resolveRef(spec.doc, p).value]));
      const byPosition = method.paramStructure === "by-position";
      const single = params.length === 1 ? params[0] : undefined;
      const oneObject = byPosition && single?.required === true && Object.keys(resolveRef(spec.doc, single.schema)?.properties ?? {}).length > 0;
      let args: Record<string, unknown> | undefined;
      let wireParams: unknown;
      if (oneObject) {
        args = values.get(single.name) as Record<string, unknown>;
        wireParams = [args];
      } else {
        const given = params.filter((p) => values.has(p.name));
        args = given.length > 0 ? Object.fromEntries(given.map((p) => [p.name, values.get(p.name)])) : undefined;
        if (byPosition) {
          const last = params.reduce((acc: number, p, i) => (values.has(p.name) ? i : acc), -1);
          wireParams = params.slice(0, last + 1).map((p) => (values.has(p.name) ? values.get(p.name) : null));
          // a method that declares no params leaves the member out
        } else wireParams = params.length === 0 ? undefined : (args ?? {});
      }
      out.push({ spec, method, wire, path, args, wireParams, result: resolveRef(spec.doc, example?.result)?.value });
    }
  }
  return out;
}
