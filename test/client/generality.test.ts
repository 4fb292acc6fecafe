/**
 * The generality fixture's client on the wire (test/fixtures/generality-31):
 * path-level and $ref parameters, deepObject / pipeDelimited / cookie
 * parameters, JSON / form / multipart / octet-stream request bodies, text and
 * binary responses, readOnly/writeOnly request and response shapes, a
 * discriminated oneOf, mixed enums, derived and colliding operation names, and
 * non-ASCII names, against a real loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationError } from "../fixtures/generality-31/golden/src/runtime/errors/errors.js";
import { createApiClient } from "../fixtures/generality-31/golden/src/api/client.js";
import type { ItemInput } from "../fixtures/generality-31/golden/src/api/types.js";
import { validateItem, validateÁrbol } from "../fixtures/generality-31/golden/src/api/validators.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: ReturnType<typeof createApiClient>;
beforeAll(async () => {
  server = await startServer();
  api = createApiClient({ baseUrl: `${server.url}/v2`, retry: false, validateResponse: "strict" });
});
afterAll(() => server.close());
const last = () => server.requests.at(-1)!;

describe("parameters", () => {
  it("sends path-level ($ref) and operation parameters: deepObject, pipeDelimited, cookie, header", async () => {
    server.reply(() => ({ body: [] }));
    await api.listItems({ storeId: 7, "X-Tenant": "acme", filter: { color: "red", size: 3 }, tags: ["a", "b"], session: "s 1" });
    expect(last().url).toBe("/v2/stores/7/items?filter%5Bcolor%5D=red&filter%5Bsize%5D=3&tags=a|b");
    expect(last().headers["x-tenant"]).toBe("acme");
    expect(last().headers["cookie"]).toBe("session=s%201");
  });

  it("checks the $ref'd path parameter's bound before sending", async () => {
    const before = server.requests.length;
    await expect(api.listItems({ storeId: 0, "X-Tenant": "acme" })).rejects.toThrow(/parameter "storeId" must be >= 1/);
    expect(server.requests.length).toBe(before);
  });
});

describe("readOnly / writeOnly", () => {
  it("requests send the Input shape (no readOnly id, writeOnly secret in); responses come back without the secret", async () => {
    const input: ItemInput = { name: "lamp", secret: "s3", shape: { type: "Circle", radius: 2 } };
    server.reply(() => ({ status: 201, body: { id: "i1", name: "lamp", shape: { type: "Circle", radius: 2 } } }));
    const created = await api.createItem({ storeId: 1, "X-Tenant": "t", body: input });
    expect(JSON.parse(last().body)).toEqual(input);
    expect(created).toEqual({ id: "i1", name: "lamp", shape: { type: "Circle", radius: 2 } });
    // one validator for both directions: neither one-way member is required by it
    expect(validateItem({ name: "x" }).ok).toBe(true);
    expect(validateItem({ id: 1, name: "x" }).ok).toBe(false);
  });

  it("a discriminated oneOf rejects a member that fits neither branch, before sending", async () => {
    const before = server.requests.length;
    await expect(api.createItem({ storeId: 1, "X-Tenant": "t", body: { name: "x", secret: "s", shape: { type: "Circle", side: 2 } as never } })).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests.length).toBe(before);
  });
});

describe("request bodies", () => {
  it("form-urlencoded: fields encoded, the content type set", async () => {
    server.reply(() => ({ status: 204 }));
    await api.login({ body: { username: "ana", password: "p&w=1", remember: true } });
    expect(last().headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(last().body).toBe("username=ana&password=p%26w%3D1&remember=true");
  });

  it("multipart: a file part with its bytes, repeated text parts, fetch's boundary", async () => {
    server.reply(() => ({ body: "stored" }));
    const result = await api.uploadFile({ body: { file: new Blob([new Uint8Array([0xff, 0x00, 0x41])]), description: "três", labels: ["a", "b"] } });
    expect(result).toBe("stored");
    const type = last().headers["content-type"]!;
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(type)?.[1];
    expect(boundary, type).toBeDefined();
    const raw = last().raw;
    const parts = raw.toString("latin1").split(`--${boundary}`).slice(1, -1);
    const byName = (n: string) => parts.filter((p) => p.includes(`name="${n}"`));
    expect(byName("file")).toHaveLength(1);
    expect(byName("file")[0]!.endsWith("\r\n\r\n\xff\x00A\r\n")).toBe(true);
    expect(byName("labels").map((p) => p.split("\r\n\r\n")[1]!.replace(/\r\n$/, ""))).toEqual(["a", "b"]);
    expect(Buffer.from(byName("description")[0]!.split("\r\n\r\n")[1]!.replace(/\r\n$/, ""), "latin1").toString("utf8")).toBe("três");
  });

  it("octet-stream: the bytes as given", async () => {
    server.reply(() => ({ status: 204 }));
    await api.putBlob({ id: "b1", body: new Uint8Array([0, 1, 254, 255]) });
    expect(last().headers["content-type"]).toBe("application/octet-stream");
    expect([...last().raw]).toEqual([0, 1, 254, 255]);
  });

  it("a multipart body without its required file part is refused before sending", async () => {
    const before = server.requests.length;
    await expect(api.uploadFile({ body: { description: "no file" } as never })).rejects.toThrow(/file/);
    expect(server.requests.length).toBe(before);
  });
});

describe("responses", () => {
  it("binary: a Blob with the exact bytes and the server's content type", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    server.reply(() => ({ body: bytes, headers: { "content-type": "image/png" } }));
    const blob = await api.getBlob({ id: "b1" });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe("image/png");
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([...bytes]);
    expect(last().headers["accept"]).toBe("*/*");
  });

  it("an error from a binary operation still carries its JSON body", async () => {
    server.reply(() => ({ status: 404, body: { title: "no such blob" } }));
    await expect(api.getBlob({ id: "nope" })).rejects.toMatchObject({ statusCode: 404, body: { title: "no such blob" } });
  });
});

describe("names", () => {
  it("derives names for operations without an operationId, and separates the two that collide", async () => {
    server.reply(() => ({ body: "ok" }));
    expect(await api.getHealthCheck()).toBe("ok");
    expect(last().url).toBe("/v2/health-check");
    expect(await api.getHealthCheck2()).toBe("ok");
    expect(last().url).toBe("/v2/health_check");
  });

  it("keeps non-ASCII operation, schema and property names, and percent-encodes the non-ASCII path", async () => {
    server.reply(() => ({ body: { raíz: "r", ramas: [{ raíz: "h", nivel: "dos" }], nivel: 1 } }));
    const tree = await api.obtenerÑandú();
    expect(tree.ramas?.[0]?.raíz).toBe("h");
    expect(last().url).toBe("/v2/caf%C3%A9/%C3%B1and%C3%BA");
  });

  it("a mixed enum (number, string, boolean, null) accepts each member and nothing else", () => {
    for (const nivel of [1, "dos", true, null]) expect(validateÁrbol({ nivel }).ok, String(nivel)).toBe(true);
    for (const nivel of ["uno", 2, false]) expect(validateÁrbol({ nivel }).ok, String(nivel)).toBe(false);
  });
});
