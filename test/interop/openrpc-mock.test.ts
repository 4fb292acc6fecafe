/**
 * @open-rpc/mock-server (the OpenRPC project's mock: it validates each call's
 * params against the document and answers from the method's `examples`)
 * serves each of the 20 OpenRPC documents, bundled as the package ships
 * them. The generated node client calls every method of every document with
 * an example's params, under `validateResponse: "strict"`, and must get that
 * example's result back exactly: the mock answers other params with data it
 * makes up from the result schema, so a param the client sends wrong fails
 * the comparison.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpcError, ValidationError } from "@avaspec/client";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { clientMethod, methodCases, resolveRef, type MethodCase } from "../helpers/node-specs.js";
import { parse } from "yaml";
import { BUNDLED_DIR, freePort, INTEROP, ROOT, openrpcDocs, startProcess, tempDir } from "./helpers.js";

const CLI = join(INTEROP, "node_modules", "@open-rpc", "mock-server", "build", "cli.js");
const LOOPBACK = join(INTEROP, "loopback.cjs");

type Doc = Record<string, any>;
const cases = methodCases().filter((c) => c.spec.doc.openrpc);
const files = [...new Set(cases.map((c) => c.spec.file))];
const bundled = (file: string) => join(BUNDLED_DIR, `${basename(file, ".yaml")}.json`);

/**
 * The mock picks the example whose i-th param equals the i-th param of the
 * call (params by name are first put in the method's param order), so it
 * can only ever answer an example whose params are a prefix of the method's
 * params, in order. An example that leaves out an earlier optional param
 * (platform.getCurrentValidators' first one gives `nodeIDs` without
 * `subnetID`) never matches: the mock answers made-up data for it.
 */
function answerable(doc: Doc, method: Doc, example: Doc): boolean {
  const params = (method.params ?? []).map((p: Doc) => resolveRef(doc, p).name as string);
  return (example.params ?? []).every((p: Doc, i: number) => resolveRef(doc, p).name === params[i]);
}

interface Call {
  c: MethodCase;
  example: string;
  args: Record<string, unknown> | undefined;
  result: unknown;
}

/** The method's first example, or the first one the mock can answer when that one is a by-name call (args are then just the example's named params). */
function callFor(c: MethodCase): Call | undefined {
  const doc = c.spec.doc;
  const examples: Doc[] = (c.method.examples ?? []).map((e: Doc) => resolveRef(doc, e));
  if (examples[0] && answerable(doc, c.method, examples[0])) return { c, example: examples[0].name, args: c.args, result: c.result ?? null };
  if (c.method.paramStructure === "by-position") return undefined;
  const e = examples.find((x) => answerable(doc, c.method, x));
  if (!e) return undefined;
  const args = Object.fromEntries((e.params as Doc[]).map((p) => resolveRef(doc, p)).map((p: Doc) => [p.name, p.value]));
  return { c, example: e.name, args, result: resolveRef(doc, e.result)?.value ?? null };
}


const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill("SIGTERM")));

/** `open-rpc-mock-server -d <document> -p <port>`, kept on 127.0.0.1 by loopback.cjs; resolves with its URL once it accepts connections. */
async function openrpcMock(document: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = await startProcess(process.execPath, ["--require", LOOPBACK, CLI, "-d", document, "-p", String(port)], /listening on 127\.0\.0\.1:\d+/, children);
  return { url: `http://127.0.0.1:${port}`, child };
}

async function rpc(url: string, method: string, params: unknown): Promise<Doc> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }) });
  return (await res.json()) as Doc;
}

it("covers all 20 OpenRPC documents and every one of their methods, each with an example the mock can answer", () => {
  expect(files.map((f) => basename(f)).sort()).toEqual(openrpcDocs);
  expect(files).toHaveLength(20);
  const total = files.reduce((n, f) => n + (JSON.parse(readFileSync(bundled(f), "utf8")) as Doc).methods.length, 0);
  expect(cases).toHaveLength(total);
  expect(cases.filter((c) => callFor(c) === undefined).map((c) => `${c.spec.file} ${c.wire}`)).toEqual([]);
});

describe.each(files)("%s served by @open-rpc/mock-server", (file) => {
  const calls = cases.filter((c) => c.spec.file === file).flatMap((c) => callFor(c) ?? []);
  let url: string;
  let child: ChildProcess;
  let node: NodeClient<"string">;
  beforeAll(async () => {
    ({ url, child } = await openrpcMock(bundled(file)));
    // the examples are wire values: compared with the client's wire form (numbers: "string")
    node = createNodeClient({ baseUrl: url, validateResponse: "strict", retry: false, numbers: "string" });
  }, 120_000);
  afterAll(() => void child?.kill("SIGTERM"));

  it("serves the document: rpc.discover lists its methods", async () => {
    const reply = await rpc(url, "rpc.discover", []);
    const doc = JSON.parse(readFileSync(bundled(file), "utf8")) as Doc;
    expect((reply.result.methods as Doc[]).map((m) => m.name)).toEqual((doc.methods as Doc[]).map((m) => resolveRef(doc, m).name));
  });

  it.each(calls.map((call) => [`node.${call.c.path.join(".")} (${call.c.wire}, example "${call.example}")`, call] as const))("%s answers the example's result", async (_name, call) => {
    expect(await clientMethod(node, call.c)(call.args)).toEqual(call.result);
  });

  it("control: a method of another document is unknown here (RpcError -32601)", async () => {
    const names = new Set(calls.map((call) => call.c.wire));
    const other = cases.find((c) => !names.has(c.wire))!;
    const error = await clientMethod(node, other)(other.args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32601, method: other.wire });
  });
});

describe("what the mock checks", () => {
  it("control: params that break the document get -32602 from the mock (it validates ours too)", async () => {
    const { url } = await openrpcMock(bundled("node-info.openrpc.yaml"));
    const ok = await rpc(url, "info.isBootstrapped", { chain: "X" });
    expect(ok.result).toEqual({ isBootstrapped: true });
    const bad = await rpc(url, "info.isBootstrapped", { chain: 5 });
    expect(bad.error.code).toBe(-32602);
  });

  it("control: a document whose example breaks its own result schema fails the strict client, so the results above were checked", async () => {
    const doc = JSON.parse(readFileSync(bundled("node-info.openrpc.yaml"), "utf8")) as Doc;
    const method = (doc.methods as Doc[]).map((m) => resolveRef(doc, m)).find((m) => m.name === "info.getNodeVersion")!;
    const result = resolveRef(doc, resolveRef(doc, method.examples[0]).result);
    result.value = { ...result.value, version: 42 };
    const broken = join(tempDir("openrpc-mock"), "node-info.openrpc.json");
    writeFileSync(broken, JSON.stringify(doc));
    const { url } = await openrpcMock(broken);
    const strict = await createNodeClient({ baseUrl: url, validateResponse: "strict", retry: false }).info.getNodeVersion().catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ValidationError);
    expect((strict as ValidationError).issues[0]!.path).toBe("/version");
    expect(await createNodeClient({ baseUrl: url, retry: false }).info.getNodeVersion()).toMatchObject({ version: 42 });
  });

  const substituted = cases.filter((c) => {
    const call = callFor(c);
    return call !== undefined && call.args !== c.args;
  });
  it.each(substituted.map((c) => [c.wire, c] as const))("limitation: the mock cannot answer the first example of %s (params matched by position), so another example is called", async (_name, c) => {
    const { url } = await openrpcMock(bundled(c.spec.file));
    const made = await clientMethod(createNodeClient({ baseUrl: url, retry: false, numbers: "string" }), c)(c.args);
    expect(made).not.toEqual(c.result);
  });
});

