/**
 * The wire fixture's result types say what its calls return (test/client/wire.test.ts
 * checks the values): tsc, strict, on code using test/fixtures/wire-31's client.
 */
import { describe, expect, it } from "vitest";
import { typecheckAgainstGenerated } from "../helpers/cli.js";

const code = `import { createWireClient } from "@avaspec/client/api";
import type { Event, Thing } from "@avaspec/client/api";

const api = createWireClient();
// default only: the 2XX body is default's schema (was void)
export const anything: Promise<Thing> = api.getAnything();
// a text/event-stream body is a stream of its events' data (issue 31); text/plain comes back as text (was the number schema)
export const events: AsyncIterable<Event> = api.streamEvents();
// @ts-expect-error: a stream, not one body
export const whole: Promise<string> = api.streamEvents();
export const count: Promise<string> = api.getCount();
// */*: JSON or text, as the response says
export async function anyMedia(): Promise<string> {
  const value = await api.getAnyMedia();
  // @ts-expect-error: a */* answer may be text, not a Thing
  const thing: Thing = value;
  return typeof value === "string" ? value : thing.id;
}
// an operation named toJSON is the method toJSON2; the client has no toJSON
export const json: Promise<Thing> = api.toJSON2();
// @ts-expect-error: not a member
api.toJSON;
// servers of single operations, by operation id
createWireClient({ operationServers: { createUpload: "http://127.0.0.1:1" } });
`;

describe("wire fixture types", () => {
  it("match what the calls return", () => {
    expect(typecheckAgainstGenerated({ "wire.ts": code }, "test/fixtures/wire-31/golden/src")).toBe("");
  }, 120_000);
});
