/**
 * A real public document with a streamed response (issue 31): Hugging Face Text Generation Inference's OpenAPI
 * document (test/fixtures/tgi-30, Apache-2.0, see its NOTICE), whose /generate_stream answers with server-sent
 * events. Its generated package type-checks (test/generator/golden.test.ts keeps it current), and its client
 * streams typed, checked StreamResponse items from the package's own mock server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTgiClient, generateStream, createTgiCore } from "../fixtures/tgi-30/golden/src/tgi/client.js";
import type { StreamResponse } from "../fixtures/tgi-30/golden/src/tgi/types.js";
import { startMockServer, type MockServer } from "../fixtures/tgi-30/golden/src/mock-server/index.js";
import { typecheckAgainstGenerated } from "../helpers/cli.js";

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, stream: { items: 8, intervalMs: 1 } });
});
afterAll(() => server.close());

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe("Text Generation Inference: /generate_stream from the package's own mock server", () => {
  it("streams typed StreamResponse items, each checked against the document's schema", async () => {
    const tgi = createTgiClient({ baseUrl: server.url, validateResponse: "strict" });
    const stream = tgi.generate_stream({ body: { inputs: "What is Deep Learning?", parameters: { max_new_tokens: 8 } } });
    const items: StreamResponse[] = await collect(stream);
    expect(items).toHaveLength(8);
    for (const item of items) expect(typeof item.token.text).toBe("string");
    expect(stream.lastEventId).toBe("8");
    // the functional form, resumed from an event id: the items after it
    expect(await collect(generateStream(createTgiCore({ baseUrl: server.url }), { body: { inputs: "x" } }, { lastEventId: "5" }))).toEqual(items.slice(5));
  });

  it("the client's types say what the call returns", () => {
    const code = `import { createTgiClient, type StreamResponse } from "@avaspec/client/tgi";
const tgi = createTgiClient();
export async function tokens(): Promise<string[]> {
  const out: string[] = [];
  for await (const item of tgi.generate_stream({ body: { inputs: "hi" } })) {
    const typed: StreamResponse = item;
    out.push(typed.token.text);
  }
  return out;
}
// @ts-expect-error: a stream, not one body
export const whole: Promise<StreamResponse> = tgi.generate_stream({ body: { inputs: "hi" } });
`;
    expect(typecheckAgainstGenerated({ "tgi.ts": code }, "test/fixtures/tgi-30/golden/src")).toBe("");
  }, 120_000);
});
