/** Casing of names built from spec text: an acronym is a word, and a lone lower-case `s` after it is its plural (no word list). */
import { describe, expect, it } from "vitest";
import { pascalCase, words } from "../../generator/ir/naming.js";

describe("acronyms", () => {
  it("an acronym is a word, and a lone s after it its plural", () => {
    expect(words("getUTXOs")).toEqual(["get", "UTXOs"]);
    expect(pascalCase("getUTXOs")).toBe("GetUtxos");
    expect(pascalCase("UTXO")).toBe("Utxo");
    expect(pascalCase("nodeIDs")).toBe("NodeIds");
    expect(pascalCase("URLs")).toBe("Urls");
    expect(pascalCase("loadVMs")).toBe("LoadVms");
    expect(pascalCase("getACPsOfSubnet")).toBe("GetAcpsOfSubnet");
    expect(pascalCase("ERC20s")).toBe("Erc20s");
  });

  it("not a plural: a capital that starts a word, a lone capital, a longer lower-case run", () => {
    expect(pascalCase("HTTPServer")).toBe("HttpServer");
    expect(pascalCase("APIStatus")).toBe("ApiStatus");
    expect(pascalCase("getIs")).toBe("GetIs");
    expect(pascalCase("isAValue")).toBe("IsAValue");
    expect(pascalCase("ERC20Token")).toBe("Erc20Token");
    expect(pascalCase("Bytes32")).toBe("Bytes32");
    expect(pascalCase("XMLHttpRequest")).toBe("XmlHttpRequest");
  });
});
