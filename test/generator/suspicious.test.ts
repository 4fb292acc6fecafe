/**
 * What a document may say but the generator used to take silently is a
 * warning at its pointer; generation goes on (and the client never uses a
 * server URL that is not http or https).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const SPEC = `openapi: 3.1.0
info: {title: S, version: '1'}
servers:
  - url: javascript:alert(1)
  - url: https://api.example.com
paths:
  /a:
    parameters: {name: x, in: query}
    get:
      operationId: getA
      parameters:
        - {name: q, in: query, schema: {type: string}}
        - {name: q, in: query, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
components:
  schemas:
    Thing:
      type: object
      properties:
        n: {type: number, multipleOf: 0}
        big: {type: number, maximum: 1e999}
        slow: {type: string, pattern: '^(a+)+$'}
        fine: {type: string, pattern: '^[a-z]+(-[a-z]+)*$', example: {$ref: 5}}
        odd: {$ref: 5}
        whole: {$ref: '#/paths'}
`;

let dir: string;
let stderr: string;
let status: number | null;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "avaspec-suspicious-"));
  writeFileSync(join(dir, "api.yaml"), SPEC);
  ({ stderr, status } = runCli(["generate", "--input", "api.yaml", "--out", "out"], dir));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("warnings, and generation goes on", () => {
  it("generates", () => expect(status).toBe(0));
  it.each([
    ["#/servers/0/url", "openapi/server-url", "is not http or https"],
    ["#/paths/~1a/parameters", "openapi/parameters", "parameters must be a list"],
    ["#/paths/~1a/get/parameters/1", "openapi/parameter-duplicate", 'query parameter "q" is listed twice'],
    ["#/components/schemas/Thing/properties/n/multipleOf", "schema/multipleOf", "multipleOf must be greater than 0"],
    ["#/components/schemas/Thing/properties/big/maximum", "load/number", "read as Infinity"],
    ["#/components/schemas/Thing/properties/slow/pattern", "schema/pattern-backtracking", "catastrophic backtracking"],
    ["#/components/schemas/Thing/properties/odd/$ref", "ref/type", "$ref must be a string; 5 is ignored"],
    ["#/components/schemas/Thing/properties/whole/$ref", "ref/target", 'points at a part of the document'],
  ])("at %s: %s", (pointer, code, message) => {
    const line = stderr.split("\n").find((l) => l.includes(` at ${pointer}: `) && l.includes(`[${code}] (warning)`));
    expect(line, stderr).toBeDefined();
    expect(line).toContain(message);
  });
  it("says nothing about data (an example holding $ref: 5) or a pattern without nested quantifiers", () => {
    expect(stderr).not.toContain("properties/fine");
  });
  it("does not take the javascript: server as the client's base URL", () => {
    // an HTTP module's base URL is in its functions.js (declared in functions.d.ts); client.ts holds the types
    const code = ["client.ts", "functions.js", "functions.d.ts"].map((f) => readFileSync(join(dir, "out/src/api", f), "utf8")).join("\n");
    expect(readFileSync(join(dir, "out/src/api/functions.js"), "utf8")).toContain('_DEFAULT_BASE_URL = "https://api.example.com"');
    expect(code).not.toContain("javascript:");
  });
});

describe("OpenRPC servers: the same rule", () => {
  const RPC = JSON.stringify({
    openrpc: "1.3.2",
    info: { title: "R", version: "1" },
    servers: [{ name: "ws", url: "wss://node.example.com/ext/bc/C/ws" }, { name: "http", url: "https://node.example.com/ext/bc/C/rpc" }],
    methods: [{ name: "eth_chainId", params: [], result: { name: "id", schema: { type: "string" } }, servers: [{ name: "odd", url: "javascript:alert(1)" }] }],
  });

  it("a javascript: server is a warning; a ws: server is the endpoint's WebSocket form (no warning); neither is the HTTP base URL, the https one is", () => {
    writeFileSync(join(dir, "rpc.json"), RPC);
    const r = runCli(["generate", "--input", "rpc.json", "--out", "rpc-out"], dir);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/#\/servers\/0\/url/);
    expect(r.stderr).toMatch(/at #\/methods\/0\/servers\/0\/url: server URL "javascript:alert\(1\)" is not http or https.*\[openrpc\/server-url\] \(warning\)/);
    const client = readFileSync(join(dir, "rpc-out/src/rpc/client.ts"), "utf8");
    expect(client).toContain('"https://node.example.com/ext/bc/C/rpc"');
    expect(client).not.toContain("wss://node.example.com");
    // the document's base URL is its HTTP endpoint: the WebSocket path is taken from the origin
    expect(client).toMatch(/"": \{\s*path: "\/ext\/bc\/C\/ws",\s*fromOrigin: true,\s*\}/);
  });
});
