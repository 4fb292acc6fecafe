/**
 * Nothing numbered in the public API unless the spec numbered it: every name
 * a generated module exports (its index: types, client, the validators it
 * lists; the mocks entry) that ends in a digit must end in a name or word the
 * spec documents wrote (`Bytes32`, `Uint256`, `Erc20Token`, `eth_simulateV1`),
 * so a suffix the naming registry appended to resolve a clash (`Cb58Id3`)
 * fails. Checked on the generated package and on every fixture's golden
 * output; the fixtures that provoke the last-resort suffix on purpose list it.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { numberedBeyondSpec, publicNames, specWords } from "../helpers/public-names.js";

const root = resolve(import.meta.dirname, "../..");

describe("public names", () => {
  it("the generated package exports no number the spec did not write", () => {
    const names = publicNames(join(root, "generated"));
    // the check sees the numbered names the spec did write
    expect([...names]).toEqual(expect.arrayContaining(["Bytes32", "Uint256", "validateHash32", "isBytes65"]));
    expect(numberedBeyondSpec(join(root, "generated"), join(root, "avaspec.config.json"))).toEqual([]);
  });

  it("the check itself catches a suffix the registry appended", () => {
    const words = specWords(join(root, "avaspec.config.json"));
    expect(words.has("Bytes32")).toBe(true);
    expect(words.has("Cb58Id3")).toBe(false);
  });

  // last resorts the fixtures provoke on purpose: a name the emitted code uses itself, or two schemas of one document that are one identifier
  const LAST_RESORT: Record<string, string[]> = {
    "collisions-31": ["then2"], // an operation named then: `then` is never a member or an export (a thenable module or client), so its method and function are then2
    "extensions-31": ["RpcClientOptions2"], // clientName "Rpc": RpcClientOptions is the runtime's
    "generality-31": ["getHealthCheck2", "isBinary2", "isObject2"], // schemas Binary and Object: isBinary/isObject are runtime helpers validators.js imports; two operations that want the method getHealthCheck (a naming/collision warning): the second's function is getHealthCheck2
    "hostile-31": ["EvilName2", "isEvilName2", "validateEvilName2"], // two schemas of one document whose names are one identifier
    "openai-31": ["ResponseFormatJsonSchemaSchema2", "validateCreateChatCompletionResponse2"], // OpenAI's document names schemas ResponseFormatJsonSchemaSchema (so ResponseFormatJsonSchema's Standard Schema validator cannot have that name) and CreateChatCompletionResponse (whose validator is the name createChatCompletion's result validator wants)
    "rpc-openrpc-14": ["Operation2", "isOperation2", "validateOperation2"], // the Midnight document holds a schema Operation twice, in the `definitions` of two of its schemas (schemars copies it into each)
    "wire-31": ["toJson2"], // an operation named toJSON: `toJSON` is never a member (JSON.stringify would call it), so its method is toJSON2 and its function toJson2
  };
  const fixtures = readdirSync(join(root, "test/fixtures")).filter((f) => existsSync(join(root, "test/fixtures", f, "golden/src")));
  it.each(fixtures)("fixture %s: numbered names are the spec's or a listed last resort", (fixture) => {
    const dir = join(root, "test/fixtures", fixture);
    expect(numberedBeyondSpec(join(dir, "golden"), join(dir, "avaspec.config.json"))).toEqual(LAST_RESORT[fixture] ?? []);
  });
});
