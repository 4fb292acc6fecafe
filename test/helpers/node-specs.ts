/** The node documents as the config lists them, with each method's client path and wire expectations. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT } from "./cli.js";

type Doc = Record<string, any>;
export interface NodeSpec {
  file: string;
  doc: Doc;
  group: string[];
  splitNamespaces: boolean;
  endpoint: string;
}

export function nodeSpecs(): NodeSpec[] {
  const config = JSON.parse(readFileSync(join(ROOT, "avaspec.config.json"), "utf8"));
  const input = config.inputs.find((i: { output: string }) => i.output === "node");
  return input.specs.map((e: { spec: string; group?: string; splitNamespaces?: boolean }) => {
    const doc = parse(readFileSync(join(ROOT, e.spec), "utf8")) as Doc;
    const server = doc.servers?.[0];
    const url = server ? server.url.replace(/\{([^}]+)\}/g, (_: string, v: string) => server.variables?.[v]?.default ?? "") : "";
    return { file: e.spec, doc, group: e.group ? e.group.split(".") : [], splitNamespaces: e.splitNamespaces ?? true, endpoint: new URL(url).pathname.replace(/\/+$/, "") };
  });
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
        } else wireParams = args ?? {};
      }
      out.push({ spec, method, wire, path, args, wireParams, result: resolveRef(spec.doc, example?.result)?.value });
    }
  }
  return out;
}
