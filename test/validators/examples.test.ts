/**
 * Every example in our spec documents passes the generated validator of its
 * schema, and a deliberately wrong variant of each is rejected. Ajv, compiled
 * from the raw spec, picks the wrong variant, so the oracle is independent.
 */
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../generator/config.js";
import { buildModule } from "../../generator/front-end.js";
import type { IrOperation, JsonValue } from "../../generator/ir/types.js";
import { ROOT } from "../helpers/cli.js";

type Validate = (v: unknown) => { ok: boolean };
const config = loadConfig(join(ROOT, "avaspec.config.json"));
const WRONG: unknown[] = [{ "wrong\u0000": true }, [], 123456789, "wrong", true, null, -1.5];

interface Example {
  what: string;
  value: unknown;
  validate: Validate;
  /** The raw schema (with the document, for refs) Ajv checks. */
  oracle: (v: unknown) => boolean;
}

function examplesOf(output: string): Example[] {
  const input = config.inputs.find((i) => i.output === output)!;
  const built = buildModule(config, input, [])!;
  const out: Example[] = [];
  return out.concat(
    ...built.documents.map((d) => {
      const list: Example[] = [];
      const root = d.root as Record<string, any>;
      const isRpc = "openrpc" in root;
      const ajv = isRpc ? new Ajv.default({ strict: false, allErrors: false, validateFormats: false }) : new Ajv2020({ strict: false, validateFormats: false });
      ajv.addSchema({ $id: "doc", components: root["components"] ?? {}, definitions: {} }, "doc");
      const cache = new Map<unknown, (v: unknown) => boolean>();
      const oracleFor = (schema: unknown) => {
        if (!cache.has(schema)) {
          const v = ajv.compile(JSON.parse(JSON.stringify(schema ?? true).replace(/"#\/components\//g, '"doc#/components/')) as object);
          cache.set(schema, (x) => v(x) as boolean);
        }
        return cache.get(schema)!;
      };
      return { d, root, isRpc, oracleFor, list };
    }).flatMap(({ d, root, oracleFor, list }) => {
      const ops = built.ir.operations.filter((op: IrOperation) => op.file.endsWith(d.file));
      return ops.flatMap((op) => collect(op, root, oracleFor, list));
    }),
  );
}

const modules: Record<string, Record<string, Validate>> = {};

function collect(op: IrOperation, root: Record<string, any>, oracleFor: (s: unknown) => (v: unknown) => boolean, list: Example[]): Example[] {
  const label = `${op.file} ${op.id}`;
  const v = (name: string) => (value: unknown) => modules[op.file]![name]!(value);
  const deref = (n: any): any => {
    while (n && typeof n.$ref === "string") n = n.$ref.slice(2).split("/").reduce((o: any, k: string) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], root);
    return n;
  };
  const raw = deref(op.pointer.slice(2).split("/").reduce((o: any, k: string) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], root));
  if (op.protocol === "http") {
    // the success response's example: 200, or 201 where the real service answers a creation with it
    const okStatus = Object.keys(raw.responses ?? {}).find((status) => /^2\d\d$/.test(status));
    const media = deref(raw.responses?.[okStatus ?? "200"])?.content?.["application/json"];
    const example = media?.example ?? (Object.values(media?.examples ?? {})[0] as any)?.value;
    if (example !== undefined) list.push({ what: `${label} ${okStatus} example`, value: example, validate: v(op.names.validateResult), oracle: oracleFor(media.schema) });
    const bodyMedia = deref(raw.requestBody)?.content?.["application/json"];
    const bodyExample = bodyMedia?.example ?? (Object.values(bodyMedia?.examples ?? {})[0] as any)?.value;
    if (bodyExample !== undefined) {
      const required = Object.fromEntries(op.parameters.filter((q) => q.required).map((q) => [q.name, q.example]));
      list.push({ what: `${label} body example`, value: { ...required, body: bodyExample }, validate: v(op.names.validateParams), oracle: (x: any) => oracleFor(bodyMedia.schema)(x?.body) });
    }
    for (const p of op.parameters) {
      if (p.example === undefined) continue;
      const rawParam = (raw.parameters ?? []).map(deref).find((x: any) => x.name === p.name) ?? {};
      const required = Object.fromEntries(op.parameters.filter((q) => q.required && q.name !== p.name).map((q) => [q.name, q.example]));
      const body = op.requestBody?.required ? { body: deref(raw.requestBody)?.content?.["application/json"]?.example } : {};
      list.push({ what: `${label} param ${p.name} example`, value: { ...required, ...body, [p.name]: p.example }, validate: v(op.names.validateParams), oracle: (x: any) => oracleFor(rawParam.schema)(x?.[p.name]) });
    }
  } else {
    const example = deref(raw.examples?.[0]);
    if (example) {
      const values = Object.fromEntries((example.params ?? []).map((p: any) => [deref(p).name, deref(p).value]));
      const params = op.transport.form === "one-object" ? (Object.values(values)[0] as JsonValue) : values;
      const oneSchema = op.transport.form === "one-object" ? deref(raw.params[0]).schema : undefined;
      list.push({
        what: `${label} example params`,
        value: params,
        validate: v(op.names.validateParams),
        oracle: (x: any) => (oneSchema ? oracleFor(oneSchema)(x) : (raw.params ?? []).map(deref).every((p: any) => (x && Object.prototype.hasOwnProperty.call(x, p.name) ? oracleFor(p.schema)(x[p.name]) : !p.required))),
      });
      const result = deref(example.result);
      if (result && "value" in result && op.result) list.push({ what: `${label} example result`, value: result.value, validate: v(op.names.validateResult), oracle: oracleFor(deref(raw.result).schema) });
    }
  }
  return list;
}

describe.each(["data-api", "metrics-api", "node"])("%s examples", (output) => {
  const examples = examplesOf(output);

  it("has examples to check", async () => {
    const mod = (await import(join(ROOT, `generated/src/${output}/validators.js`))) as Record<string, Validate>;
    for (const e of examples) modules[e.what.split(" ")[0]!] = mod;
    expect(examples.length).toBeGreaterThan(output === "metrics-api" ? 5 : 20);
  });

  it("every example validates, and a wrong variant of each is rejected", () => {
    const problems: string[] = [];
    let wrongChecked = 0;
    for (const e of examples) {
      if (!e.oracle(e.value)) problems.push(`${e.what}: the spec's own schema (Ajv) rejects the example`);
      if (!e.validate(e.value).ok) problems.push(`${e.what}: rejected by the generated validator`);
      const isParams = e.what.includes("param");
      const variants = isParams && typeof e.value === "object" && e.value !== null && !Array.isArray(e.value)
        ? Object.keys(e.value).flatMap((k) => WRONG.map((w) => ({ ...(e.value as object), [k]: w })))
        : WRONG;
      const wrong = variants.find((w) => !e.oracle(w));
      if (wrong === undefined) continue;
      wrongChecked++;
      if (e.validate(wrong).ok) problems.push(`${e.what}: wrong variant ${JSON.stringify(wrong).slice(0, 80)} accepted`);
    }
    expect(problems).toEqual([]);
    expect(wrongChecked).toBeGreaterThan(examples.length * 0.8);
  });
});
