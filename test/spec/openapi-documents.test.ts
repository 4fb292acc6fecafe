/**
 * The hand-authored OpenAPI documents against the requirements in the seed:
 * operations, fields, bounds, errors, security, and examples that validate
 * (checked with Ajv, an independent JSON Schema implementation).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

type Doc = Record<string, any>;
const load = (f: string): Doc => parse(readFileSync(join(ROOT, "spec", f), "utf8")) as Doc;
const data = load("data-api.openapi.yaml");
const metrics = load("metrics-api.openapi.yaml");
const seed = readFileSync(join(ROOT, "docs/requirements/data-and-metrics-api.txt"), "utf8");

const deref = (doc: Doc, node: any): any => {
  while (node && typeof node.$ref === "string") node = node.$ref.slice(2).split("/").reduce((o: any, k: string) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  return node;
};
const ops = (doc: Doc) =>
  Object.entries(doc.paths as Record<string, any>).flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>)
      .filter(([, op]) => op?.operationId)
      .map(([method, op]) => ({ path, method, op, id: op.operationId as string, params: ((op.parameters ?? []) as any[]).map((p) => deref(doc, p)) })),
  );
const param = (doc: Doc, id: string, name: string) => ops(doc).find((o) => o.id === id)!.params.find((p: any) => p.name === name);

// The requirement's operations; the real services' further ones are held against their own documents in coverage.test.ts.
const REQUIRED_DATA = ["aggregateSignatures", "getAggregatedSignatures", "listBlockchains", "listErc20Transactions", "getTransactionsForBlock", "getSingleValidatorDetails", "listContractDeployments", "getNativeBalance", "getTransaction", "supportedChains", "getChainInfo", "getContractMetadata", "getChainIdsForAddresses", "getTxByHash"];
const isRequired = (id: string) => REQUIRED_DATA.includes(id) || ["getAddressesByBalanceOverTime", "getAvgTps"].includes(id);
/** The success status of an operation: 200, or 201 where the real service answers a creation with it. */
const okStatus = (op: any) => Object.keys(op.responses).find((k) => /^2\d\d$/.test(k))!;

describe("operations", () => {
  it("the Data API keeps the requirement's 14 operationIds", () => {
    expect(ops(data).map((o) => o.id)).toEqual(expect.arrayContaining(REQUIRED_DATA));
  });
  it("the Metrics API keeps the requirement's 2 operationIds", () => {
    expect(ops(metrics).map((o) => o.id)).toEqual(expect.arrayContaining(["getAddressesByBalanceOverTime", "getAvgTps"]));
  });
  it("every endpoint of the seed is there with its method and path", () => {
    const listed = [...seed.matchAll(/\*\*(GET|POST)\*\* `(?:\{metrics_url\})?([^`]+)`/g)].map((m) => `${m[1]} ${m[2]!.trim()}`);
    expect(listed).toHaveLength(16);
    const ours = [...ops(data), ...ops(metrics)].map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(ours).toEqual(expect.arrayContaining(listed));
  });
});

describe("fields", () => {
  const resources = seed.slice(seed.indexOf("## Resources and their fields"), seed.indexOf("## States and transitions"));
  const names = new Set([...resources.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)].map((m) => m[1]!));
  const properties = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === "object") {
      const o = node as Record<string, unknown>;
      if (o["properties"] && typeof o["properties"] === "object") for (const k of Object.keys(o["properties"] as object)) properties.add(k);
      Object.values(o).forEach(collect);
    }
  };
  collect(data.components);
  collect(metrics.components);

  it("every field of every resource in the seed is a schema property", () => {
    expect(names.size).toBeGreaterThan(150);
    expect([...names].filter((n) => !properties.has(n))).toEqual([]);
  });

  it("large integers share one decimal-string schema with a pattern", () => {
    const big = data.components.schemas.BigIntString;
    expect(big).toMatchObject({ type: "string", pattern: "^(0|[1-9][0-9]*)$" });
    const uses = JSON.stringify(data).split('"#/components/schemas/BigIntString"').length - 1;
    expect(uses).toBeGreaterThan(20);
  });

  it("names every closed enum of the seed", () => {
    const v = deref(data, data.components.schemas.ValidationStatus);
    expect(v.enum).toEqual(["completed", "active", "pending", "removed"]);
    expect(deref(data, param(data, "listBlockchains", "network").schema).enum).toEqual(["mainnet", "fuji", "testnet"]);
    expect(deref(data, param(data, "listBlockchains", "sortOrder").schema).enum).toEqual(["asc", "desc"]);
    expect(deref(data, param(data, "supportedChains", "feature").schema).enum).toEqual(["nftIndexing", "webhooks", "teleporter"]);
    const currency = deref(data, param(data, "getNativeBalance", "currency").schema);
    expect(currency.enum).toEqual(["usd", "eur", "aud", "cad", "chf", "clp", "cny", "czk", "dkk", "gbp", "hkd", "huf", "jpy", "nzd"]);
    expect(currency.default ?? param(data, "getNativeBalance", "currency").schema.default).toBe("usd");
  });
});

describe("bounds and defaults", () => {
  it.each([
    [data, "listBlockchains", 100, 1, 10000],
    [data, "listErc20Transactions", 10, 1, 100],
    [data, "getSingleValidatorDetails", 10, 1, 100],
    [data, "listContractDeployments", 10, 1, 100],
    [data, "getTransactionsForBlock", 0, 0, 100],
    [metrics, "getAddressesByBalanceOverTime", 1000, 1, 5000],
  ])("pageSize of %#: default, minimum, maximum", (doc, id, def, min, max) => {
    const s = deref(doc, param(doc, id as string, "pageSize").schema);
    expect([s.default, s.minimum, s.maximum]).toEqual([def, min, max]);
  });

  it("quorum settings: 0..100, defaults 67 and 0, at least one of message/justification", () => {
    const body = deref(data, data.components.schemas.SignatureAggregationRequest);
    expect(body.properties.quorumPercentage).toMatchObject({ minimum: 0, maximum: 100, default: 67 });
    expect(body.properties.quorumPercentageBuffer).toMatchObject({ minimum: 0, maximum: 100, default: 0 });
    expect(body.anyOf).toEqual([{ required: ["message"] }, { required: ["justification"] }]);
    expect(body.description).toMatch(/quorumPercentage \+ quorumPercentageBuffer/);
  });

  it("required parameters are required", () => {
    expect(param(data, "getChainIdsForAddresses", "addresses").required).toBe(true);
    expect(param(metrics, "getAddressesByBalanceOverTime", "threshold").required).toBe(true);
    for (const doc of [data, metrics]) for (const o of ops(doc)) for (const p of o.params) if (p.in === "path") expect(p.required, `${o.id} ${p.name}`).toBe(true);
  });

  it("blockchainId accepts the p-chain, x-chain and c-chain aliases", () => {
    expect(JSON.stringify(param(data, "getTxByHash", "blockchainId").schema)).toContain('["p-chain","x-chain","c-chain"]');
  });
});

describe("errors, security, servers", () => {
  const statuses = ["400", "401", "403", "404", "429", "500", "502", "503"];
  it.each([...ops(data).map((o) => [o.id, data, o] as const), ...ops(metrics).map((o) => [o.id, metrics, o] as const)])("%s documents its success status and every error status with the shared error body", (id, doc, o) => {
    // the requirement's operations answer 200; the real services answer some creations with 201 (coverage.test.ts checks which)
    expect(Object.keys(o.op.responses).sort()).toEqual([isRequired(id) ? "200" : okStatus(o.op), ...statuses]);
    expect(["200", "201"]).toContain(okStatus(o.op));
    for (const s of statuses) {
      const r = deref(doc, o.op.responses[s]);
      expect(r.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    }
  });

  it("the error body's message is a string or an array of strings", () => {
    for (const doc of [data, metrics]) {
      const e = doc.components.schemas.ErrorBody;
      expect([...e.required].sort()).toEqual(["error", "message", "statusCode"]);
      expect(e.properties.message.anyOf ?? e.properties.message.oneOf).toMatchObject([{ type: "string" }, { type: "array", items: { type: "string" } }]);
    }
  });

  it("the Data API takes an optional key in the requirement's x-service-api-key header or the real x-glacier-api-key; the Metrics API needs none", () => {
    // the requirement's scheme comes first: it is the one the generated client sends the key under today
    expect(Object.values(data.components.securitySchemes)).toEqual([
      expect.objectContaining({ type: "apiKey", in: "header", name: "x-service-api-key" }),
      expect.objectContaining({ type: "apiKey", in: "header", name: "x-glacier-api-key" }),
    ]);
    expect(data.security).toEqual([{}, { ApiKeyAuth: [] }, { GlacierApiKey: [] }]);
    // the metrics service requires nothing (an empty requirement first); a key, when given, goes in the real header
    expect(Object.values(metrics.components.securitySchemes)).toEqual([expect.objectContaining({ type: "apiKey", in: "header", name: "x-glacier-api-key" })]);
    expect(metrics.security).toEqual([{}, { GlacierApiKey: [] }]);
  });

  it("servers have variables for the two base URLs", () => {
    expect(data.servers[0].variables.host.default).toBe("glacier-api.avax.network");
    expect(metrics.servers[0].variables.host.default).toBe("metrics.avax.network");
  });
});

describe("examples validate against their schemas (Ajv 2020-12)", () => {
  for (const [name, doc] of [["data", data], ["metrics", metrics]] as const) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...doc, $id: "doc.json" }, "doc.json");
    const check = (schema: unknown, value: unknown) => {
      const validate = ajv.compile({ $ref: "#/x", $defs: {}, x: schema, $id: undefined } as never);
      return validate(value) ? [] : validate.errors;
    };
    const validateAt = (pointerSchema: any, value: unknown) => {
      const s = JSON.parse(JSON.stringify(pointerSchema).replace(/"#\/components\//g, '"doc.json#/components/'));
      return check(s, value);
    };
    for (const o of ops(doc)) {
      it(`${name}: ${o.id} has a success example and parameter examples, all valid`, () => {
        const media = o.op.responses[okStatus(o.op)].content?.["application/json"];
        // a success without a body (reindexNft's 201) has no example to give
        const example = media ? (media.example ?? (Object.values(media.examples ?? {})[0] as any)?.value) : null;
        expect(example, "success example").toBeDefined();
        if (media) expect(validateAt(media.schema, example)).toEqual([]);
        for (const p of o.params) {
          expect(p.example, `${p.name} example`).toBeDefined();
          expect(validateAt(p.schema, p.example), p.name).toEqual([]);
        }
        if (o.op.requestBody) {
          const rb = deref(doc, o.op.requestBody).content["application/json"];
          const ex = rb.example ?? (Object.values(rb.examples ?? {})[0] as any)?.value;
          expect(validateAt(rb.schema, ex)).toEqual([]);
        }
      });
    }
    it(`${name}: every schema's own examples are valid`, () => {
      // the schema-level `examples` of components and their subschemas (e.g. XChainLinearTransaction's)
      const found: [string, any, unknown][] = [];
      const walk = (s: any, at: string): void => {
        if (!s || typeof s !== "object") return;
        if (Array.isArray(s.examples)) s.examples.forEach((e: unknown, i: number) => found.push([`${at}/examples/${i}`, s, e]));
        for (const [k, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) walk(sub, `${at}/properties/${k}`);
        for (const k of ["allOf", "anyOf", "oneOf"]) (s[k] ?? []).forEach((sub: unknown, i: number) => walk(sub, `${at}/${k}/${i}`));
        for (const k of ["items", "additionalProperties"]) walk(s[k], `${at}/${k}`);
      };
      for (const [k, s] of Object.entries((doc.components?.schemas ?? {}) as Record<string, unknown>)) walk(s, `#/components/schemas/${k}`);
      expect(found.length).toBeGreaterThan(0);
      const problems = found.filter(([, schema, example]) => (validateAt(schema, example) ?? []).length > 0).map(([at]) => at);
      expect(problems).toEqual([]);
    });
    it(`${name}: a wrong body is rejected (the check can fail)`, () => {
      expect(validateAt({ $ref: "#/components/schemas/ErrorBody" }, { message: 5 })).not.toEqual([]);
    });
  }
});

describe("the real wire forms where the requirement's types stay (issue 27)", () => {
  /** Every schema node a response of the document can reach, with where it was reached. */
  function responseNodes(doc: Doc): [string, any][] {
    const out: [string, any][] = [];
    const seen = new Set<unknown>();
    const walk = (node: any, at: string): void => {
      if (!node || typeof node !== "object" || seen.has(node)) return;
      seen.add(node);
      out.push([at, node]);
      if (typeof node.$ref === "string") return walk(deref(doc, node), node.$ref);
      for (const [k, sub] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) walk(sub, `${at}/properties/${k}`);
      for (const k of ["allOf", "anyOf", "oneOf"]) (node[k] ?? []).forEach((sub: unknown, i: number) => walk(sub, `${at}/${k}/${i}`));
      for (const k of ["items", "additionalProperties"]) walk(node[k], `${at}/${k}`);
    };
    for (const o of ops(doc)) for (const [status, r] of Object.entries(o.op.responses)) walk(deref(doc, r)?.content?.["application/json"]?.schema, `${o.id} ${status}`);
    return out;
  }

  it.each([["data", data], ["metrics", metrics]] as const)("%s: every pattern a response can reach is declared request-only (the real documents put no pattern on any field)", (_name, doc) => {
    const patterned = responseNodes(doc).filter(([, node]) => typeof node.pattern === "string");
    expect(patterned.length).toBeGreaterThan(doc === data ? 3 : -1);
    expect(patterned.filter(([, node]) => node["x-avaspec-response-pattern"] !== false).map(([at]) => at)).toEqual([]);
  });

  it("Money.value keeps the requirement's decimal string and declares the real wire form, a JSON number", () => {
    const value = data.components.schemas.Money.properties.value;
    expect(value.$ref).toBe("#/components/schemas/DecimalString");
    expect(value["x-avaspec-wire-form"]).toEqual({ type: "number" });
  });

  it("sortKey keeps the requirement's integer and declares the real wire form, a string of digits", () => {
    const sortKey = metrics.components.schemas.BalanceOverTimeEntry.properties.sortKey;
    expect(sortKey.type).toBe("integer");
    expect(sortKey["x-avaspec-wire-form"]).toEqual({ type: "string", pattern: "^-?[0-9]+$" });
  });

  it("getAvgTps declares the service's own query parameters and both page-key pairs", () => {
    const avg = ops(metrics).find((o) => o.id === "getAvgTps")!;
    expect(avg.params.map((p: any) => p.name)).toEqual(["chainId", "pageToken", "from", "to", "startKey"]);
    expect(avg.op.deprecated).toBe(true);
    expect(avg.op["x-avaspec-pagination"]).toEqual([
      { style: "cursor", param: "pageToken", next: "nextPageToken", items: "results" },
      { style: "cursor", param: "startKey", next: "nextPageStartKey", items: "results" },
    ]);
    expect(Object.keys(metrics.components.schemas.AvgTpsResponse.properties)).toEqual(expect.arrayContaining(["nextPageToken", "nextPageStartKey"]));
  });
});

describe("the bundled JSON copies", () => {
  it.each([["data-api", data], ["metrics-api", metrics]])("generated/spec/%s.openapi.json equals the YAML source", (name, doc) => {
    expect(JSON.parse(readFileSync(join(ROOT, `generated/spec/${name}.openapi.json`), "utf8"))).toEqual(doc);
  });
});

describe("written as people write them", () => {
  // A YAML dumper's anchors (`&a1` … `*a1`) in an example read the same to every tool, but they are not how the
  // documents are written by hand, and they send the loader down its slow path (aliases must be counted: see
  // generator/load/load.ts): repeated parts are written out, or shared with $ref.
  it.each(readdirSync(join(ROOT, "spec")).filter((f) => /\.ya?ml$/.test(f)))("%s has no YAML anchors or aliases", (file) => {
    const text = readFileSync(join(ROOT, "spec", file), "utf8");
    const anchors = [...text.matchAll(/^.*:\s+[&*][A-Za-z0-9_-]+\b.*$/gm)].map((m) => m[0].trim());
    expect(anchors).toEqual([]);
  });
});
