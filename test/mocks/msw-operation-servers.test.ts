/**
 * The MSW mocks answer an operation whose path or operation declares its own
 * server at that server, as the client calls it (they were only at the
 * module's base URL, so such calls went to the network), and a document with
 * a TRACE operation still gets its handlers (MSW has no TRACE handler; the
 * client never sends one). test/fixtures/wire-31 under MSW's real setupServer;
 * anything unhandled is an error.
 */
import { describe, expect, it } from "vitest";
import { createWireClient } from "../fixtures/wire-31/golden/src/api/client.js";
import { isThing } from "../fixtures/wire-31/golden/src/api/validators.js";
import { createMocks } from "../fixtures/wire-31/golden/src/mocks/index.js";
import { useMsw } from "../helpers/msw.js";

const mocks = createMocks({ seed: 1, baseUrls: { api: "http://127.0.0.1:9/v1" } });
useMsw(mocks);

describe("operation servers under MSW", () => {
  it("the path's and the operation's servers are mocked where the client sends them", async () => {
    const api = createWireClient({ baseUrl: "http://127.0.0.1:9/v1", retry: false, validateResponse: "strict" });
    expect(isThing(await api.createUpload({ body: { id: "a" } }))).toBe(true);
    expect(isThing(await api.replaceUpload({ body: { id: "a" } }))).toBe(true);
    expect(isThing(await api.getEdgeStatus())).toBe(true);
    expect((await api.listThings()).every(isThing)).toBe(true);
  });

  it("overrides steer them like any operation", async () => {
    mocks.override("createUpload", { status: 503 });
    const api = createWireClient({ baseUrl: "http://127.0.0.1:9/v1", retry: false });
    await expect(api.createUpload({ body: { id: "a" } })).rejects.toMatchObject({ statusCode: 503 });
  });
});
