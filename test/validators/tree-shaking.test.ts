/** Importing one validator bundles only the schemas it reaches (esbuild, minified, tree-shaken). */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

async function bundle(code: string): Promise<string> {
  const r = await build({ stdin: { contents: code, resolveDir: ROOT, loader: "ts" }, bundle: true, minify: true, format: "esm", write: false, treeShaking: true, logLevel: "silent" });
  return r.outputFiles[0]!.text;
}

describe("validators are tree-shakable", () => {
  it("one operation's validator pulls in only its schemas", async () => {
    const one = await bundle(`import { validateGetChainInfoResponse } from "./generated/src/data-api/validators.js"; console.log(validateGetChainInfoResponse({}));`);
    const all = await bundle(`import * as v from "./generated/src/data-api/validators.js"; console.log(v);`);
    // ChainInfo's own fields are there…
    expect(one).toContain("chainName");
    expect(one).toContain("utilityAddresses");
    // …schemas it does not reach are not
    for (const unrelated of ["signedMessage", "genesisData", "quorumPercentage", "delegatorCount", "erc1155Token"]) {
      expect(one, unrelated).not.toContain(unrelated);
      expect(all, unrelated).toContain(unrelated);
    }
    expect(one.length).toBeLessThan(all.length / 5);
  });

  it("an unused Standard Schema object costs nothing", async () => {
    const withStd = await bundle(`import { ChainInfoSchema } from "./generated/src/data-api/validators.js"; console.log(ChainInfoSchema);`);
    const none = await bundle(`import { ChainInfoSchema } from "./generated/src/data-api/validators.js"; void ChainInfoSchema;`);
    expect(withStd).toContain("avaspec");
    expect(none.trim()).toBe("");
  });
});
