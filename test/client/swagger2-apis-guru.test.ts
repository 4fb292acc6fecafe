/**
 * Three Swagger 2.0 documents of the APIs.guru directory
 * (test/fixtures/swagger2-apis-guru, NOTICE.md there), converted on load and
 * generated as OpenAPI 3.0: each client calls the package's own mock server
 * over loopback and gets back what the document describes, validated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApisGuruClient } from "../fixtures/swagger2-apis-guru/golden/src/apisguru/client.js";
import { validateApis, validateMetrics } from "../fixtures/swagger2-apis-guru/golden/src/apisguru/validators.js";
import { startMockServer, type MockServer } from "../fixtures/swagger2-apis-guru/golden/src/mock-server/index.js";
import { createStarwarsClient } from "../fixtures/swagger2-apis-guru/golden/src/starwars/client.js";
import { createXkcdClient } from "../fixtures/swagger2-apis-guru/golden/src/xkcd/client.js";
import { validateComic } from "../fixtures/swagger2-apis-guru/golden/src/xkcd/validators.js";

let mock: MockServer;
const requests: string[] = [];
beforeAll(async () => {
  mock = await startMockServer({ port: 0, log: (line) => requests.push(line) });
});
afterAll(() => mock.close());

describe("xkcd.com (no operationId, a path parameter typed number, no `produces`)", () => {
  it("fetches the current comic and one by id", async () => {
    const xkcd = createXkcdClient({ baseUrl: mock.url, retry: false, validateResponse: "strict" });
    const current = await xkcd.getInfo0Json();
    expect(validateComic(current).ok).toBe(true);
    const byId = await xkcd.getByComicIdInfo0Json({ comicId: 614 });
    expect(validateComic(byId).ok).toBe(true);
  });
});

describe("apis.guru (basePath /v2/, additionalProperties maps, examples)", () => {
  it("lists the APIs and reads the metrics: the document's own examples, valid against its schemas", async () => {
    const guru = createApisGuruClient({ baseUrl: `${mock.url}/v2`, retry: false, validateResponse: "strict" });
    const list = await guru.listAPIs();
    expect(validateApis(list).ok).toBe(true);
    expect(Object.keys(list)).toContain("googleapis.com:drive");
    const metrics = await guru.getMetrics();
    expect(metrics).toEqual({ numAPIs: 238, numEndpoints: 6448, numSpecs: 302 });
    expect(validateMetrics(metrics).ok).toBe(true);
  });
});

describe("funtranslations.com starwars (an API key header, responses without a schema, several `produces`)", () => {
  it("sends the required query parameter and reads the answer (no schema: typed unknown)", async () => {
    const starwars = createStarwarsClient({ baseUrl: mock.url, retry: false, apiKey: "k-1" });
    const before = requests.length;
    const yoda: unknown = await starwars.getTranslateYoda({ text: "Master Obiwan has lost a planet." });
    expect(yoda).toBeDefined();
    expect(requests.slice(before)).toEqual([expect.stringMatching(/^GET \/translate\/yoda\?text=Master(%20|\+)Obiwan(%20|\+)has(%20|\+)lost(%20|\+)a(%20|\+)planet\. → 200 /)]);
  });

  it("refuses a call without the required text before sending", async () => {
    const starwars = createStarwarsClient({ baseUrl: mock.url, retry: false });
    const before = requests.length;
    await expect(starwars.getTranslateSith({} as never)).rejects.toThrow(/text/);
    expect(requests.length).toBe(before);
  });
});
