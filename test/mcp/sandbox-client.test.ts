/**
 * The sandbox in front of real generated clients: the petstore fixture's and
 * the Data API's, against a node:http server on 127.0.0.1. The host runs each
 * call with the client (its base URL and API key stay on the host); the
 * snippet sees results and typed errors only.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDataApiClient } from "@avaspec/client/data-api";
import { createApiClient } from "../fixtures/petstore-30/golden/src/api/client.js";
import { closeSandbox, runSnippet, type HostCall, type Surface } from "../../runtime/mcp/sandbox.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await closeSandbox();
  await server.close();
});

const KEY = "glacier-key-3b9f1c0d77e2";

function clients(): { surface: Surface; host: HostCall } {
  const api = createApiClient({ baseUrl: server.url, retry: false });
  const dataApi = createDataApiClient({ baseUrl: server.url, apiKey: KEY, retry: false });
  const methods: Record<string, Record<string, (params: unknown, options: { signal?: AbortSignal }) => Promise<unknown>>> = {
    api: api as never,
    dataApi: dataApi as never,
  };
  const surface: Surface = {
    api: { listPets: "method", getPetById: "method" },
    dataApi: { getChainInfo: "method" },
  };
  const host: HostCall = (path, args, signal) => methods[path[0]!]![path[1]!]!(args[0], { signal });
  return { surface, host };
}

it("runs a snippet against the petstore client: calls go out from the host, results come back as data", async () => {
  server.reply((req) => {
    if (req.url.startsWith("/pets?")) return { body: { items: [{ id: 1, name: "Rex", status: "available" }, { id: 2, name: "Tom", status: "sold" }], next: null } };
    if (req.url === "/pets/1") return { body: { id: 1, name: "Rex", status: "available", tag: "dog" } };
    return { status: 404, body: { code: 404, message: "no such pet" } };
  });
  const { surface, host } = clients();
  const source = [
    "const page = await api.listPets({ limit: 10 });",
    "const available = page.items.filter((p: { status: string }) => p.status === 'available');",
    "const first = await api.getPetById({ petId: available[0].id });",
    "let missing: string;",
    "try { await api.getPetById({ petId: 99 }); } catch (e) { missing = `${e.name} ${e.statusCode}: ${e.message}`; }",
    "return { names: page.items.map((p) => p.name), tag: first.tag, missing };",
  ].join("\n");
  const outcome = await runSnippet(source, surface, host);
  expect(outcome).toMatchObject({ ok: true, calls: 3, result: { names: ["Rex", "Tom"], tag: "dog" } });
  const missing = (outcome as { result: { missing: string } }).result.missing;
  expect(missing).toMatch(/^NotFoundError 404: getPetById failed with 404/);
  expect(server.requests.slice(-3).map((r) => r.url)).toEqual(["/pets?limit=10", "/pets/1", "/pets/99"]);
});

it("a server that echoes the API key: the key the host sent never reaches the snippet or the result", async () => {
  server.reply((req) => ({ body: { chainId: "43114", chainName: `echo ${String(req.headers["x-glacier-api-key"])}`, status: "OK" } }));
  const { surface, host } = clients();
  const outcome = await runSnippet("const c = await dataApi.getChainInfo({ chainId: '43114' }); console.log(c.chainName); return c", surface, host, undefined, { secrets: [KEY] });
  expect(outcome).toMatchObject({ ok: true, result: { chainId: "43114", chainName: "echo [redacted]" }, logs: ["echo [redacted]"] });
  expect(server.requests.at(-1)!.headers["x-glacier-api-key"]).toBe(KEY);
  expect(JSON.stringify(outcome)).not.toContain(KEY);
});
