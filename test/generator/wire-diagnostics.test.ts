/**
 * Requests fetch can never send, and header parameters OpenAPI ignores, are
 * warnings at their pointer when generating (test/fixtures/wire-31), and the
 * ignored parameters are left out of the client.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../generator/config.js";
import { generate } from "../../generator/generate.js";
import { ROOT } from "../helpers/cli.js";

describe("wire warnings", () => {
  const { diagnostics, irs } = generate(loadConfig(join(ROOT, "test/fixtures/wire-31/avaspec.config.json")));
  const wire = diagnostics.filter((d) => d.code.startsWith("operation/") || d.code.startsWith("parameter/header"));

  it("name the operation or parameter, with its position", () => {
    expect(wire.map((d) => [d.code, d.severity, d.pointer, `${d.file.split("/").pop()}:${d.line}:${d.col}`])).toEqual([
      ["operation/body-on-get", "warning", "#/paths/~1search/get/requestBody", "spec.yaml:194:7"],
      ["operation/trace", "warning", "#/paths/~1trace/trace", "spec.yaml:207:5"],
      ["parameter/header-unsendable", "warning", "#/paths/~1headers/get/parameters/0", "spec.yaml:215:11"],
      ["parameter/header-ignored", "warning", "#/paths/~1headers/get/parameters/1", "spec.yaml:218:11"],
      ["parameter/header-ignored", "warning", "#/paths/~1headers/get/parameters/2", "spec.yaml:221:11"],
      ["parameter/header-ignored", "warning", "#/paths/~1headers/get/parameters/3", "spec.yaml:224:11"],
    ]);
    expect(wire[0]!.message).toBe("fetch cannot send a body with GET; a call that gives one is refused before sending");
    expect(wire[3]!.message).toBe('header parameter "Accept" is ignored, as OpenAPI says: the media types describe it');
  });

  it("leave the ignored header parameters out of the operation", () => {
    const op = irs[0]!.operations.find((o) => o.id === "getWithHeaders");
    expect(op?.protocol === "http" ? op.parameters.map((p) => p.name) : []).toEqual(["Transfer-Encoding", "X-Request-Id"]);
  });
});
