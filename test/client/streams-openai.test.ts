/**
 * A real public OpenAPI 3.1 document with streamed responses (issue 31): OpenAI's (test/fixtures/openai-31, MIT,
 * trimmed to its streamed operations by trim.mjs, see its NOTICE). /audio/speech streams as published (its
 * text/event-stream ranks before the audio bytes); /chat/completions offers JSON first, so the fixture's overlay
 * removes the JSON to stream it. Its generated package type-checks (test/generator/typecheck.test.ts), and its
 * client streams typed, checked events from the package's own mock server and through MSW's setupServer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiClient, createOpenAiCore, createSpeech, openAiResults } from "../fixtures/openai-31/golden/src/openai/client.js";
import type { CreateChatCompletionStreamResponse, CreateSpeechResponseStreamEvent } from "../fixtures/openai-31/golden/src/openai/types.js";
import { startMockServer, type MockServer } from "../fixtures/openai-31/golden/src/mock-server/index.js";
import { createMocks } from "../fixtures/openai-31/golden/src/mocks/index.js";
import { typecheckAgainstGenerated } from "../helpers/cli.js";
import { useMsw } from "../helpers/msw.js";

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

const chat = { body: { model: "gpt-4o", messages: [{ role: "user" as const, content: "Say hi" }], stream: true } };

describe("OpenAI: streamed operations from the package's own mock server", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, stream: { items: 6, intervalMs: 1 } });
  });
  afterAll(() => server.close());

  it("/chat/completions streams typed CreateChatCompletionStreamResponse chunks, each checked", async () => {
    const openai = createOpenAiClient({ baseUrl: server.url, validateResponse: "strict" });
    const stream = openai.createChatCompletion(chat);
    const chunks: CreateChatCompletionStreamResponse[] = await collect(stream);
    expect(chunks).toHaveLength(6);
    for (const chunk of chunks) {
      expect(chunk.object).toBe("chat.completion.chunk");
      expect(Array.isArray(chunk.choices)).toBe(true);
    }
    expect(stream.lastEventId).toBe("6");
    // resumed from an event id: the chunks after it
    expect(await collect(openai.createChatCompletion(chat, { lastEventId: "4" }))).toEqual(chunks.slice(4));
  });

  it("/audio/speech streams its audio events as the document publishes it (the functional form)", async () => {
    const core = createOpenAiCore({ baseUrl: server.url, validateResponse: "strict", results: openAiResults });
    const events: CreateSpeechResponseStreamEvent[] = await collect(createSpeech(core, { body: { model: "tts-1", input: "Hello", voice: "alloy", stream_format: "sse" } }));
    expect(events).toHaveLength(6);
    for (const event of events) expect(["speech.audio.delta", "speech.audio.done"]).toContain(event.type);
  });
});

describe("OpenAI: the MSW handlers stream through setupServer", () => {
  useMsw(createMocks({ stream: { items: 3, intervalMs: 1 } }));

  it("/chat/completions at the document's own server URL, checked", async () => {
    const openai = createOpenAiClient({ validateResponse: "strict" });
    const chunks = await collect(openai.createChatCompletion(chat));
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) expect(chunk.object).toBe("chat.completion.chunk");
  });
});

describe("OpenAI: the client's types", () => {
  it("say that a streamed call returns typed items, not one body", () => {
    const code = `import { createOpenAiClient, type CreateChatCompletionStreamResponse } from "@avaspec/client/openai";
const openai = createOpenAiClient();
export async function text(): Promise<string> {
  let out = "";
  for await (const chunk of openai.createChatCompletion({ body: { model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true } })) {
    const typed: CreateChatCompletionStreamResponse = chunk;
    out += typed.choices[0]?.delta.content ?? "";
  }
  return out;
}
// @ts-expect-error: a stream, not one body
export const whole: Promise<CreateChatCompletionStreamResponse> = openai.createChatCompletion({ body: { model: "gpt-4o", messages: [] } });
`;
    expect(typecheckAgainstGenerated({ "openai.ts": code }, "test/fixtures/openai-31/golden/src")).toBe("");
  }, 120_000);
});
