/** A real node:http server on 127.0.0.1 that records every request and answers from a script. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes, as received. */
  raw: Buffer;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  /** Accept the request and never answer (the socket stays open until close()). */
  hang?: boolean;
}

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** Sets how the next requests are answered. */
  reply(fn: (req: RecordedRequest) => Reply): void;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  let answer: (req: RecordedRequest) => Reply = () => ({ status: 200, body: {} });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const rec: RecordedRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: raw.toString("utf8"), raw };
      requests.push(rec);
      const r = answer(rec);
      if (r.hang) return;
      const isText = typeof r.body === "string" || Buffer.isBuffer(r.body);
      const payload = r.body === undefined ? "" : isText ? (r.body as string | Buffer) : JSON.stringify(r.body);
      res.writeHead(r.status ?? 200, { "content-type": isText ? "text/plain" : "application/json", ...r.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(fn) {
      answer = fn;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
