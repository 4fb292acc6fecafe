/**
 * The generated clients' types, checked by the real tsc inside `npm test`:
 * client-types.check.ts compiles with every `@ts-expect-error` an error,
 * and a misspelt block tag gets TypeScript's own "Did you mean".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, typecheckAgainstGenerated } from "../helpers/cli.js";

describe("generated client types", () => {
  it("client-types.check.ts compiles, and each @ts-expect-error is an error", () => {
    expect(typecheckAgainstGenerated({ "check.ts": readFileSync(join(ROOT, "test/types/client-types.check.ts"), "utf8") })).toBe("");
  }, 120_000);

  it("a misspelt block tag gets TypeScript's 'Did you mean'", () => {
    const out = typecheckAgainstGenerated({
      "tag.ts": `import type { BlockNumberOrTag } from "@avaspec/client/node";\nexport const tag: BlockNumberOrTag = "latests";\n`,
    });
    expect(out).toMatch(/error TS2820: Type '"latests"' is not assignable to type 'BlockNumberOrTag'\. Did you mean '"latest"'\?/);
  }, 120_000);

  it("a call's params keep the 'Did you mean' where integers also take bigint and number", () => {
    const out = typecheckAgainstGenerated({
      "call.ts": `import { createNodeClient } from "@avaspec/client/node";\nexport const p = createNodeClient().cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latests" });\n`,
    });
    expect(out).toMatch(/error TS2820: Type '"latests"' is not assignable to type .*Did you mean '"latest"'\?/);
  }, 120_000);
});

describe("at run time, an anyOf/oneOf failure lists the allowed literals", () => {
  it("a misspelt block tag is refused before sending, with the tags it could be", async () => {
    const { createNodeClient } = await import("@avaspec/client/node");
    const { ValidationError } = await import("@avaspec/client");
    let sent = 0;
    const node = createNodeClient({ baseUrl: "http://127.0.0.1:9", retry: false, fetch: async () => (sent++, new Response("{}")) });
    const e = await node.cChain.eth.getBalance({ address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", block: "latests" as never }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as Error).message).toMatch(/block.*must match a schema in anyOf: one of "earliest", "finalized", "safe", "latest", "pending", "accepted", or a string matching \^0\[xX\]/);
    expect(sent).toBe(0);
  });
});
