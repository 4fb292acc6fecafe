/** What bench/stream.ts takes from avaspec: the streams-31 fixture's generated client, bundled by bench/bundled.ts. */
export { createFeedsClient } from "../test/fixtures/streams-31/golden/src/api/client.js";
