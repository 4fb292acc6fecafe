/**
 * Declared OpenRPC errors become exported classes: named from their
 * `components/errors` key or their message, shared by every method (and
 * merged document) that declares the same error, kept clear of every other
 * exported name, with `data` typed when the document says its error `data`
 * values are schemas (`x-error-data-schema: true`); a `data` that is not a
 * schema then is a diagnostic.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const doc = (extra: Record<string, unknown>, methods: unknown[], errors: Record<string, unknown> = {}) =>
  JSON.stringify({ openrpc: "1.3.2", info: { title: "E", version: "1" }, ...extra, methods, components: { errors, schemas: { TimeoutError: { type: "string" }, Code: { type: "integer" } } } });

const A = doc(
  { "x-error-data-schema": true },
  [
    { name: "a.one", params: [], result: { name: "r", schema: { type: "string" } }, errors: [{ $ref: "#/components/errors/Busy" }, { code: 9, message: "invalid   input!", data: { type: "object", properties: { field: { type: "string" } }, required: ["field"] } }] },
    { name: "a.two", params: [], result: { name: "r", schema: { type: "string" } }, errors: [{ $ref: "#/components/errors/Busy" }, { $ref: "#/components/errors/TimeoutError" }, { code: 10, message: "" }] },
  ],
  {
    Busy: { code: -32005, message: "busy", data: { description: "How long to wait, in seconds.", $ref: "#/components/schemas/Code" } },
    TimeoutError: { code: -32006, message: "timed out" },
  },
);
// the same Busy error, without a data schema, in a second document merged into the same client: one class
const B = doc({}, [{ name: "b.one", params: [], result: { name: "r", schema: { type: "string" } }, errors: [{ $ref: "#/components/errors/Busy" }] }], { Busy: { code: -32005, message: "busy" } });

let dir: string;
let client: string;
let run: ReturnType<typeof runCli>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "avaspec-rpc-errors-"));
  writeFileSync(join(dir, "a.json"), A);
  writeFileSync(join(dir, "b.json"), B);
  writeFileSync(join(dir, "avaspec.config.json"), JSON.stringify({ out: "out", package: { name: "e" }, inputs: [{ output: "e", clientName: "E", baseUrl: "http://127.0.0.1:1", specs: [{ spec: "a.json" }, { spec: "b.json" }] }] }));
  run = runCli(["generate", "--config", "avaspec.config.json"], dir);
  client = readFileSync(join(dir, "out/src/e/client.ts"), "utf8");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("error classes", () => {
  it("generates without diagnostics", () => {
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("one class per distinct error, named from its key or its message", () => {
    const classes = [...client.matchAll(/^export class (\w+) extends (\w+)/gm)].map((m) => `${m[1]} < ${m[2]}`);
    // TimeoutError is a schema's name here, so the error class takes the next free one; code 10 has no message
    expect(classes).toEqual(["BusyError < RpcServerError", "InvalidInputError < RpcError", "TimeoutError2 < RpcServerError", "Rpc10Error < RpcError"]);
  });

  it("the data schema types data; undocumented data stays unknown", () => {
    expect(client).toMatch(/class BusyError[^}]*declare readonly data: T\.Code \| undefined;/);
    expect(client).toMatch(/class InvalidInputError[^}]*declare readonly data: \{\s*field: string;\s*\} \| undefined;/);
    expect(client).not.toMatch(/class TimeoutError2[^}]*declare/);
  });

  it("each method's descriptor lists its own errors, and its docs name them", () => {
    expect(client).toMatch(/aOneMethod[^;]*errors: \[\s*BusyError,\s*InvalidInputError,?\s*\]/);
    expect(client).toMatch(/aTwoMethod[^;]*errors: \[\s*BusyError,\s*TimeoutError2,\s*Rpc10Error,?\s*\]/);
    expect(client).toMatch(/bOneMethod[^;]*errors: \[\s*BusyError,?\s*\]/);
    expect(client).toContain('@throws {@link TimeoutError2} code -32006: "timed out"');
  });
});

describe("x-error-data-schema", () => {
  const generate = (text: string) => {
    writeFileSync(join(dir, "bad.json"), text);
    return runCli(["generate", "--input", "bad.json", "--out", "bad-out"], dir);
  };

  it("a data value that is not a schema is an error at its pointer, and nothing is written", () => {
    const r = generate(doc({ "x-error-data-schema": true }, [{ name: "m", params: [], result: { name: "r", schema: {} }, errors: [{ code: 1, message: "x", data: "a sentence" }] }]));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/bad\.json:\d+:\d+ at #\/methods\/0\/errors\/0\/data: with x-error-data-schema: true, an error's data must be a JSON Schema \(an object or a boolean\), not string \[openrpc\/error-data-schema\]/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, "bad-out"))).toBe(false);
  });

  it("the flag must be a boolean", () => {
    const r = generate(doc({ "x-error-data-schema": "yes" }, [{ name: "m", params: [], result: { name: "r", schema: {} } }]));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/at #\/x-error-data-schema: x-error-data-schema must be true or false \[openrpc\/error-data-schema\]/);
  });

  it("without the flag a data value is an example: a string documents the error and types nothing", () => {
    const r = generate(doc({}, [{ name: "m", params: [], result: { name: "r", schema: {} }, errors: [{ code: 1, message: "oops", data: "what went wrong" }] }]));
    expect(r.status).toBe(0);
    const out = readFileSync(join(dir, "bad-out/src/bad/client.ts"), "utf8");
    expect(out).toMatch(/what went wrong\s*\n\s*\*\/\s*\nexport class OopsError extends RpcError \{\s*static readonly code = 1;\s*static readonly rpcMessage = "oops";\s*override name = "OopsError";\s*\}/);
  });
});
