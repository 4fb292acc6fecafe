/**
 * Table-driven wire fidelity for node methods (issue 27): each case is a reply
 * in the form the real server writes (from the Go reply struct named in its
 * `source`) and the params a real caller sends. The generated node client,
 * with strict response validation, must send exactly those params to the
 * method's endpoint on a loopback node:http server and return the reply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeClient, type NodeClient } from "@avaspec/client/node";
import { startServer, type TestServer } from "./server.js";

export interface WireCase {
  /** The wire method name, e.g. `platform.getL1Validator`. */
  method: string;
  /** The Go source the reply (and params) are written from. */
  source: string;
  /** The HTTP path the call must go to, e.g. `/ext/bc/P`. */
  path: string;
  call: (node: NodeClient<"string">) => Promise<unknown>;
  /** The `params` member the server must receive (`undefined`: the member is absent or `{}`). */
  params: unknown;
  /** The reply's `result`, as the server writes it. */
  reply: unknown;
  /** What the client returns; the reply itself when omitted. */
  returns?: unknown;
}

export interface FidelityServer {
  server: () => TestServer;
  /** Answers every JSON-RPC request with `result` (or an error object). */
  answer: (result: unknown) => void;
  fail: (error: { code: number; message: string }) => void;
  node: () => NodeClient<"string">;
  /** Deprecation warnings of the clients `node()` made, captured (not printed), in order. */
  warnings: string[];
  lastBody: () => { method: string; params?: unknown; jsonrpc: string; id: unknown };
  lastPath: () => string;
}

/** Starts one loopback server for the calling test file. */
export function useFidelityServer(): FidelityServer {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const warnings: string[] = [];
  const reply = (body: Record<string, unknown>) => server.reply((req) => ({ body: { jsonrpc: "2.0", id: (JSON.parse(req.body) as { id: number }).id, ...body } }));
  return {
    server: () => server,
    answer: (result) => reply({ result }),
    fail: (error) => reply({ error }),
    node: () => createNodeClient({ baseUrl: server.url, retry: false, validateResponse: "strict", numbers: "string", deprecationWarnings: (m) => warnings.push(m) }),
    warnings,
    lastBody: () => JSON.parse(server.requests.at(-1)!.body) as { method: string; params?: unknown; jsonrpc: string; id: unknown },
    lastPath: () => server.requests.at(-1)!.url,
  };
}

/** One test per case: the real reply passes strict validation and the real params go out as given. */
export function describeWireCases(title: string, f: FidelityServer, cases: WireCase[]): void {
  describe(title, () => {
    it.each(cases.map((c) => [`${c.method} (${c.source})`, c] as const))("%s", async (_name, c) => {
      f.answer(c.reply);
      await expect(c.call(f.node())).resolves.toEqual(c.returns ?? c.reply);
      const body = f.lastBody();
      expect(f.lastPath()).toBe(c.path);
      expect(body.method).toBe(c.method);
      if (c.params === undefined) expect(body.params === undefined || (typeof body.params === "object" && Object.keys(body.params as object).length === 0), JSON.stringify(body.params)).toBe(true);
      else expect(body.params).toEqual(c.params);
    });
  });
}
