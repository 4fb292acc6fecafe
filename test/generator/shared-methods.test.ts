/**
 * Methods declared once where the API is shared (issue 28): when two groups
 * of a client serve the same method — same name, params type, result type
 * and documentation, on another endpoint — the later group's interface takes
 * the first one's declaration by `Pick`, whose doc comment names both places.
 * Read from the IR, not from any API's names: here two OpenRPC documents of a
 * made-up key-value store, merged into one client as the groups `alpha` and
 * `beta`. Each group still calls its own endpoint, and the public types stay
 * what they were (the same shapes; each group's own params types exported).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, typecheckAgainstGenerated } from "../helpers/cli.js";
import { startRpcServer, type Envelope, type RpcTestServer } from "../helpers/rpc-server.js";

const key = { name: "key", required: true, description: "The key.", schema: { type: "string" } };
const method = (name: string, summary: string, params: unknown[], result: unknown) => ({ name, summary, paramStructure: "by-position", params, result: { name: "result", schema: result } });
// what both documents serve alike
const get = method("kv_get", "Reads a key.", [key], { type: "string" });
const put = method("kv_put", "Writes a key.", [key, { name: "value", required: true, schema: { type: "string" } }], { type: "boolean" });
const ping = method("meta_ping", "Answers pong.", [], { type: "string" });
const doc = (title: string, path: string, methods: unknown[]) => JSON.stringify({ openrpc: "1.3.2", info: { title, version: "1" }, servers: [{ name: "store", url: `http://127.0.0.1:1${path}` }], methods });
const ALPHA = doc("Alpha store", "/alpha", [get, put, ping, method("kv_del", "Deletes a key.", [key], { type: "boolean" }), method("kv_list", "Lists the keys.", [], { type: "array", items: { type: "string" } })]);
const BETA = doc("Beta store", "/beta", [
  get,
  put,
  ping,
  // the same name with another result, and the same signature with other words: each declared on its own
  method("kv_del", "Deletes a key.", [key], { type: "integer" }),
  method("kv_list", "Lists the keys, newest first.", [], { type: "array", items: { type: "string" } }),
  method("kv_count", "Counts the keys.", [], { type: "integer" }),
]);

let dir: string;
let src: string;
let client: string;
let run: ReturnType<typeof runCli>;
let server: RpcTestServer;
beforeAll(async () => {
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  // inside the repository, so that the generated TypeScript imports resolve when the test loads it
  dir = mkdtempSync(join(ROOT, ".tmp", "shared-methods-"));
  writeFileSync(join(dir, "alpha.json"), ALPHA);
  writeFileSync(join(dir, "beta.json"), BETA);
  writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "kv" }, inputs: [{ output: "kv", clientName: "Kv", baseUrl: "http://127.0.0.1:1", specs: [{ spec: "alpha.json", group: "alpha" }, { spec: "beta.json", group: "beta" }] }] }));
  run = runCli(["generate", "--config", "avaspec.config.json"], dir);
  src = join(dir, "out/src");
  client = readFileSync(join(src, "kv/client.ts"), "utf8");
  server = await startRpcServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("methods two groups share are declared once", () => {
  it("generates without diagnostics", () => {
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("the later group takes the same methods by Pick and declares only its own", () => {
    expect(client).toContain('readonly kv: Pick<KvClient["alpha"]["kv"], "get" | "put"> & {');
    // a group all of whose methods are shared is only the Pick
    expect(client).toContain('readonly meta: Pick<KvClient["alpha"]["meta"], "ping">;');
    expect(client).not.toMatch(/get\(params: BetaKvGetParams/);
    expect(client).not.toMatch(/put\(params: BetaKvPutParams/);
    // another result, other words, a method of its own: written out
    expect(client).toContain("del(params: BetaKvDelParams, options?: CallOptions): Promise<BetaKvDelResult>;");
    expect(client).toContain("export type BetaKvDelResult = number;");
    expect(client).toMatch(/list\(params\?: BetaKvListParams, options\?: CallOptions\)/);
    expect(client).toMatch(/count\(params\?: BetaKvCountParams, options\?: CallOptions\)/);
    // each group's types, descriptors and functions stay its own
    expect(client).toContain("export type BetaKvGetParams = {");
    expect(client).toContain("export const betaKvGetMethod: RpcMethod<BetaKvGetParams, BetaKvGetResult> = {");
  });

  it("the declaration names both places", () => {
    expect(client).toContain("* JSON-RPC `kv_get` at `/alpha`, and as `beta.kv.get` at `/beta`");
    expect(client).toContain("* JSON-RPC `kv_del` at `/alpha`\n");
  });

  it("the shared declaration types the later group's calls as before", () => {
    const use = [
      'import type { KvClient, BetaKvGetParams, BetaKvPutParams } from "kv/kv";',
      "type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;",
      "declare const kv: KvClient;",
      'const value: Promise<string> = kv.beta.kv.get({ key: "a" });',
      "// @ts-expect-error the key is a string",
      "kv.beta.kv.get({ key: 1 });",
      'const wrote: Promise<boolean> = kv.beta.kv.put({ key: "a", value: "b" });',
      "const params: Same<Parameters<KvClient[\"beta\"][\"kv\"][\"get\"]>[0], BetaKvGetParams> = true;",
      "const putParams: Same<Parameters<KvClient[\"beta\"][\"kv\"][\"put\"]>[0], BetaKvPutParams> = true;",
      "const deleted: Promise<number> = kv.beta.kv.del({ key: \"a\" });",
      "export { value, wrote, params, putParams, deleted };",
      "",
    ].join("\n");
    const out = typecheckAgainstGenerated({ "use.ts": use.replace('"kv/kv"', JSON.stringify(join(src, "kv/index.js"))) }, src);
    expect(out).toBe("");
  });

  it("each group still calls its own endpoint", async () => {
    server.answer((env: Envelope, path) => ({ result: env.method === "kv_get" ? `${path}:${String((env.params as unknown[])[0])}` : true }));
    // the generated module, loaded as TypeScript (its types are checked above)
    type Get = { get(params: { key: string }): Promise<string> };
    const { createKvClient } = (await import(join(src, "kv/client.ts"))) as { createKvClient(options: { baseUrl: string; retry: false }): { alpha: { kv: Get }; beta: { kv: Get } } };
    const kv = createKvClient({ baseUrl: server.url, retry: false });
    expect(await kv.alpha.kv.get({ key: "a" })).toBe("/alpha:a");
    expect(await kv.beta.kv.get({ key: "b" })).toBe("/beta:b");
    expect(server.requests.map((r) => r.path)).toEqual(["/alpha", "/beta"]);
  });
});
