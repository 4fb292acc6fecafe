/**
 * test/fixtures/wire-31 on the wire, against a real loopback node:http
 * server: servers declared on a path or an operation, a response declared
 * only as `default`, text and `*∕*` bodies, cookie / header / query /
 * form-field styles checked byte for byte against OpenAPI 3.1's style table,
 * an operation named toJSON, and requests fetch can never send.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, NotFoundError, UnsendableRequestError, ValidationError } from "../fixtures/wire-31/golden/src/runtime/errors/errors.js";
import { createWireClient, createWireCore, replaceUpload, type WireClient } from "../fixtures/wire-31/golden/src/api/client.js";
import type { Event, Thing } from "../fixtures/wire-31/golden/src/api/types.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
const last = () => server.requests.at(-1)!;

/**
 * A fetch that records where each request was going, then sends it to the
 * loopback server instead, path and query unchanged: the spec's hosts are
 * never contacted.
 */
function redirecting(seen: string[]): typeof fetch {
  return (input, init) => {
    const url = String(input);
    seen.push(url);
    return fetch(url.replace(/^https?:\/\/[^/]+/, server.url), init);
  };
}

describe("servers of paths and operations (item 8)", () => {
  it("each operation goes to its own server: the operation's, else its path's, else the document's", async () => {
    const seen: string[] = [];
    const api = createWireClient({ fetch: redirecting(seen), retry: false });
    server.reply(() => ({ status: 201, body: { id: "u" } }));
    await api.listThings();
    await api.createUpload({ body: { id: "u" } });
    await api.replaceUpload({ body: { id: "u" } });
    expect(seen).toEqual(["https://api.wire.example.com/v1/things", "https://uploads.wire.example.com/v2/uploads", "https://eu.files.wire.example.com/v3/uploads"]);
    expect(server.requests.slice(-3).map((r) => `${r.method} ${r.url}`)).toEqual(["GET /v1/things", "POST /v2/uploads", "PUT /v3/uploads"]);
  });

  it("baseUrl replaces the document's server only; a relative operation server is resolved against it", async () => {
    const seen: string[] = [];
    const api = createWireClient({ baseUrl: `${server.url}/base/`, fetch: redirecting(seen), retry: false });
    server.reply(() => ({ body: { id: "x" } }));
    await api.listThings();
    await api.getEdgeStatus();
    await api.createUpload({ body: { id: "x" } });
    expect(seen).toEqual([`${server.url}/base/things`, `${server.url}/edge-api/edge/status`, "https://uploads.wire.example.com/v2/uploads"]);
  });

  it("operationServers moves single operations, by operation id, in both client forms", async () => {
    const seen: string[] = [];
    const options = { baseUrl: `${server.url}/base`, operationServers: { createUpload: `${server.url}/up/`, replaceUpload: `${server.url}/r`, listThings: `${server.url}/list` }, fetch: redirecting(seen), retry: false as const };
    const api = createWireClient(options);
    server.reply(() => ({ body: { id: "x" } }));
    await api.createUpload({ body: { id: "x" } });
    await api.listThings();
    await replaceUpload(createWireCore(options), { body: { id: "x" } });
    expect(seen).toEqual([`${server.url}/up/uploads`, `${server.url}/list/things`, `${server.url}/r/uploads`]);
  });
});

describe("responses declared only as default (item 9)", () => {
  const api = () => createWireClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });

  it("a 2XX answer is returned and checked as default's schema", async () => {
    server.reply(() => ({ body: { id: "a", size: 3 } }));
    const thing: Thing = await api().getAnything();
    expect(thing).toEqual({ id: "a", size: 3 });
    server.reply(() => ({ body: { size: 3 } }));
    await expect(api().getAnything()).rejects.toThrow(ValidationError);
  });

  it("any other status is still an ApiError carrying the body", async () => {
    server.reply(() => ({ status: 404, body: { id: "gone" } }));
    const e = await api().getAnything().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NotFoundError);
    expect((e as ApiError).body).toEqual({ id: "gone" });
  });

  it("beside a 200, default is the error body of the undeclared statuses", async () => {
    server.reply(() => ({ status: 418, body: { title: "teapot", status: 418 } }));
    const e = await api().getChecked().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).statusCode).toBe(418);
    expect((e as ApiError).body).toEqual({ title: "teapot", status: 418 });
  });
});

describe("bodies that are not JSON are typed as what the call returns (item 10)", () => {
  const api = () => createWireClient({ baseUrl: server.url, retry: false, validateResponse: "strict" });

  it("text/event-stream: a stream of the events' data, each parsed and checked against the event schema (issue 31)", async () => {
    const stream = 'event: tick\ndata: {"kind":"tick","at":1}\n\ndata: {"kind":"tock","at":2}\n\n';
    server.reply(() => ({ headers: { "content-type": "text/event-stream" }, body: stream }));
    const events: Event[] = [];
    for await (const event of api().streamEvents()) events.push(event);
    expect(events).toEqual([
      { kind: "tick", at: 1 },
      { kind: "tock", at: 2 },
    ]);
    expect(last().headers["accept"]).toBe("text/event-stream");
  });

  it("text/plain with an integer schema: the text", async () => {
    server.reply(() => ({ body: "42" }));
    const count: string = await api().getCount();
    expect(count).toBe("42");
  });

  it("*/*: parsed and checked when the response is JSON, the text otherwise", async () => {
    server.reply(() => ({ headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify({ id: "j" }) }));
    expect(await api().getAnyMedia()).toEqual({ id: "j" });
    expect(last().headers["accept"]).toBe("*/*");
    server.reply(() => ({ headers: { "content-type": "text/csv" }, body: "id\nj\n" }));
    expect(await api().getAnyMedia()).toBe("id\nj\n");
    server.reply(() => ({ headers: { "content-type": "application/problem+json" }, body: JSON.stringify({ nope: 1 }) }));
    await expect(api().getAnyMedia()).rejects.toThrow(ValidationError);
  });
});

describe("serialization, byte for byte (item 11)", () => {
  const api = () => createWireClient({ baseUrl: server.url, retry: false });

  it("cookies: form not exploded (array, object) as one pair, exploded arrays as one pair per value", async () => {
    server.reply(() => ({ status: 204 }));
    await api().getStyled({ ids: ["a", "b c", "d,e"], prefs: { R: 100, G: 200, B: 150 }, flavours: ["x", "y"] });
    expect(last().headers["cookie"]).toBe("ids=a,b%20c,d%2Ce; prefs=R,100,G,200,B,150; flavours=x; flavours=y");
  });

  it("object headers: simple, exploded and not, passed through without percent-encoding", async () => {
    server.reply(() => ({ status: 204 }));
    await api().getStyled({ "X-Color": { R: 100, G: 200, B: 150 }, "X-Shade": { R: 1, G: 2, B: 3 } });
    expect(last().headers["x-color"]).toBe("R=100,G=200,B=150");
    expect(last().headers["x-shade"]).toBe("R,1,G,2,B,3");
  });

  it("allowReserved: reserved characters and %XX escapes pass; what a query cannot hold is still encoded", async () => {
    server.reply(() => ({ status: 204 }));
    await api().getStyled({ next: "/a/b?c=d:e,f@g!%20h[i]#j 100%", plain: "/a/b?c" });
    expect(last().url).toBe("/styles?next=/a/b?c=d:e,f@g!%20h%5Bi%5D%23j%20100%25&plain=%2Fa%2Fb%3Fc");
  });

  it("form body fields follow their Encoding Object: deepObject, form not exploded, pipeDelimited, allowReserved; the rest as before", async () => {
    server.reply(() => ({ status: 204 }));
    await api().submitForm({ body: { name: "a b", filter: { R: 1, G: 2 }, ids: [1, 2, 3], tags: ["x", "y"], path: "/p/q", meta: { a: 1 } } });
    expect(last().headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(last().body).toBe("name=a+b&filter%5BR%5D=1&filter%5BG%5D=2&ids=1,2,3&tags=x|y&path=/p/q&meta=%7B%22a%22%3A1%7D");
  });
});

describe("an operation named toJSON (item 12)", () => {
  it("is not the client's toJSON: JSON.stringify of something holding the client sends nothing", async () => {
    const api = createWireClient({ baseUrl: server.url, retry: false });
    const before = server.requests.length;
    expect("toJSON" in api).toBe(false);
    expect(JSON.stringify({ api, n: 1 })).toBe('{"api":{},"n":1}');
    server.reply(() => ({ body: { id: "j" } }));
    expect(await api.toJSON2()).toEqual({ id: "j" });
    expect(server.requests.length).toBe(before + 1);
    expect(last().url).toBe("/json");
  });
});

describe("requests fetch can never send (item 13)", () => {
  /** A client counting what reaches fetch, with the default retry policy. */
  function counting(): { api: WireClient; attempts: () => number } {
    let n = 0;
    const api = createWireClient({ baseUrl: server.url, retry: { baseDelayMs: 1 }, fetch: (input, init) => (n++, fetch(input, init)) });
    return { api, attempts: () => n };
  }

  it("a body on GET: UnsendableRequestError, nothing sent, no retry; the same call without a body is sent", async () => {
    const { api, attempts } = counting();
    const e = await api.searchThings({ body: { q: "x" } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnsendableRequestError);
    expect((e as UnsendableRequestError).message).toBe("searchThings: fetch cannot send a body with GET, so the request was not sent");
    expect((e as UnsendableRequestError).attempts).toBe(0);
    expect(attempts()).toBe(0);
    server.reply(() => ({ body: [] }));
    expect(await api.searchThings()).toEqual([]);
    expect(attempts()).toBe(1);
  });

  it("a TRACE operation: refused, not retried", async () => {
    const { api, attempts } = counting();
    const e = await api.traceRoute().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnsendableRequestError);
    expect((e as Error).message).toMatch(/^traceRoute: fetch cannot send a TRACE request/);
    expect(attempts()).toBe(0);
  });

  it("a Transfer-Encoding header, as a parameter, a client header or from a hook: refused, not retried", async () => {
    const { api, attempts } = counting();
    await expect(api.getWithHeaders({ "Transfer-Encoding": "chunked" })).rejects.toThrow(/^getWithHeaders: fetch cannot send the header "Transfer-Encoding" \(the HTTP stack writes it\)/);
    const withHeader = createWireClient({ baseUrl: server.url, headers: { Connection: "upgrade" } });
    await expect(withHeader.listThings()).rejects.toBeInstanceOf(UnsendableRequestError);
    const fromHook = createWireClient({ baseUrl: server.url, onRequest: (e) => e.setHeader("Upgrade", "websocket") });
    await expect(fromHook.listThings()).rejects.toBeInstanceOf(UnsendableRequestError);
    expect(attempts()).toBe(0);
  });

  it("Accept, Content-Type and Authorization parameters are ignored, as OpenAPI says", async () => {
    server.reply(() => ({ status: 204 }));
    await createWireClient({ baseUrl: server.url, retry: false }).getWithHeaders({ "X-Request-Id": "r1", Accept: "text/html", "Content-Type": "text/csv", Authorization: "Basic x" } as never);
    expect(last().headers["x-request-id"]).toBe("r1");
    expect(last().headers["accept"]).toBe("application/json");
    expect(last().headers["content-type"]).toBeUndefined();
    expect(last().headers["authorization"]).toBeUndefined();
  });
});
