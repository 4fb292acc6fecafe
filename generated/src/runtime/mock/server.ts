/// <reference types="node" />
/**
 * A standalone mock server (Node): every API of a mock service on one origin,
 * 127.0.0.1 by default, with CORS, one log line per request, and a clean
 * shutdown on close(). `npx avaspec mock` / `npm run mock` start it, and so
 * does a generated package's own command (its package.json `bin`, through
 * `mockServerCommand`).
 *
 * Given `mockSockets` (server-ws.ts), as the `mock-server` entry of a package
 * with WebSocket paths gives it, the service's WebSocket paths (its tables'
 * `webSockets`) are served too, over node:http's upgrade: each message is a
 * JSON-RPC call to the path's endpoint, `eth_subscribe` sends notifications
 * (see `createMockSocketHub`), and `push()` / `dropConnections()` steer them
 * from a test. An upgrade on any other path is answered 404. Without it this
 * file reaches no WebSocket code, and an upgrade is answered as a plain
 * request (404 on a path no operation has).
 *
 * Node only: the reference above brings Node's types to this file and to the
 * `mock-server` entry that imports it; every other entry point of a generated
 * package is built without them (its tsconfig has `types: []`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import type { MockResponse, MockService, MockServiceOptions } from "./types.js";
import { UsageError } from "../errors/errors.js";

export interface MockServerOptions {
  /** Port (default 4010; 0 picks a free one). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Where each request's log line goes (default stdout); null for none. */
  log?: ((line: string) => void) | null;
  /** The longest WebSocket message accepted, in bytes (default 16 MiB); a longer one closes the connection with 1009. */
  maxPayload?: number;
}

/** A test's steering of the mock server's WebSocket connections. */
export interface MockSocketControls {
  /** Emits now, to every WebSocket subscription of `kind`: `payload`, or the next synthesized one; returns how many were sent. */
  push(kind: string, payload?: unknown): number;
  /** Terminates every open WebSocket connection, as a network failure would. */
  dropConnections(): void;
}

/** The WebSocket side of a mock server (server-ws.ts `mockSockets`): it answers the upgrades, and a test steers it. */
export interface MockSocketServing extends MockSocketControls {
  /**
   * Answers an upgrade request: the arguments of node:http's 'upgrade' event
   * (IncomingMessage, Duplex, Buffer), `unknown` here so that this file's
   * declarations name no Node type (a consumer of `mock-server` needs no
   * `@types/node`).
   */
  upgrade(req: unknown, socket: unknown, head: unknown): void;
}

/** Makes the WebSocket side of a mock server over `service`. */
export type MockSockets = (service: Pick<MockService, "handle" | "webSockets" | "subscriptions">, options: MockServerOptions, log: ((line: string) => void) | null) => MockSocketServing;

/** A running mock server. */
export interface RunningMockServer {
  /** `http://127.0.0.1:4010` */
  readonly url: string;
  /** Stops listening, terminates every open WebSocket (their subscriptions and timers stop) and resets every connection. */
  close(): Promise<void>;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-expose-headers": "*",
  "access-control-max-age": "600",
};

/** Serves `service`; with `sockets` (server-ws.ts `mockSockets`), its WebSocket paths too. */
export function serveMocks(service: Pick<MockService, "handle">, options?: MockServerOptions): Promise<RunningMockServer>;
export function serveMocks(service: Pick<MockService, "handle" | "webSockets" | "subscriptions">, options: MockServerOptions, sockets: MockSockets): Promise<RunningMockServer & MockSocketControls>;
export function serveMocks(service: Pick<MockService, "handle" | "webSockets" | "subscriptions">, options: MockServerOptions = {}, sockets?: MockSockets): Promise<RunningMockServer & Partial<MockSocketControls>> {
  const log = options.log === undefined ? (line: string) => process.stdout.write(line + "\n") : options.log;
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => void answer(service, req, res, log));
  const ws = sockets?.(service, options, log);
  if (ws) server.on("upgrade", (req, socket, head) => ws.upgrade(req, socket, head));
  const connections = new Set<import("node:net").Socket>();
  server.on("connection", (s) => {
    connections.add(s);
    s.on("close", () => connections.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : options.port;
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            ws?.dropConnections();
            server.close(() => done());
            for (const s of connections) s.destroy();
          }),
        ...(ws ? { push: (kind: string, payload?: unknown) => ws.push(kind, payload), dropConnections: () => ws.dropConnections() } : {}),
      });
    });
  });
}

async function answer(service: Pick<MockService, "handle">, req: IncomingMessage, res: ServerResponse, log: ((line: string) => void) | null): Promise<void> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const method = req.method ?? "GET";
  const path = req.url ?? "/";
  const write = (status: number, headers: Record<string, string>, body: string, handled: string) => {
    res.writeHead(status, { ...CORS, ...headers });
    res.end(body);
    log?.(`${method} ${path} → ${status} ${handled ? `(${handled}) ` : ""}${Date.now() - started}ms`);
  };
  if (method === "OPTIONS") return write(204, {}, "", "preflight");
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
  try {
    // the origin the client called (the host it sent), for the next page URLs of the mocks
    const base = `http://${/^[\w.:[\]-]+$/.test(req.headers.host ?? "") ? req.headers.host : "mock"}`;
    const r = await service.handle({ method, url: `http://mock${path}`, base, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks).toString("utf8") } : {}) });
    if (!r) return write(404, { "content-type": "application/json" }, JSON.stringify({ message: `no mocked operation answers ${method} ${path.split("?")[0]}`, statusCode: 404, error: "Not Found" }), "");
    if (r.networkError) {
      log?.(`${method} ${path} → connection reset (${r.handled})`);
      req.socket.destroy();
      return;
    }
    if (r.chunks) return void paced(res, r, CORS, () => log?.(`${method} ${path} → ${r.status} (${r.handled}, ${r.chunks!.length} items) ${Date.now() - started}ms`));
    write(r.status, r.headers, r.body, r.handled);
  } catch (e) {
    write(500, { "content-type": "application/json" }, JSON.stringify({ message: String((e as Error).message ?? e), statusCode: 500, error: "Internal Server Error" }), "error");
  }
}

/** Writes a streamed answer one chunk at a time, `intervalMs` apart; stops when the client goes away. */
function paced(res: ServerResponse, r: MockResponse, cors: Record<string, string>, done: () => void): void {
  res.writeHead(r.status, { ...cors, ...r.headers });
  const chunks = r.chunks!;
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  res.on("close", () => clearTimeout(timer));
  const next = () => {
    if (res.destroyed) return;
    if (i === chunks.length) {
      res.end();
      return done();
    }
    res.write(chunks[i++]!);
    timer = setTimeout(next, r.intervalMs ?? 0);
  };
  timer = setTimeout(next, r.intervalMs ?? 0);
}

/**
 * The limits mode a package's `startMockServer` takes (`limits: true`, or
 * these): the declared limits refused as the services refuse them
 * (limits.ts `limitMockService`, whose options these are a part of).
 */
export interface MockServerLimits {
  /** The plan of requests with an API key (default: the first plan that needs one). */
  plan?: string;
  /** Refuses this share of the requests at random, seeded. */
  faults?: { rate: number; seed?: number };
}

/** A package's `startMockServer` (its `mock-server` entry). */
export type StartMockServer = (options: MockServiceOptions & MockServerOptions & { limits?: boolean | MockServerLimits }) => Promise<RunningMockServer>;

function usage(name: string): string {
  return `usage: ${name} [--port 4010] [--host 127.0.0.1] [--seed 1] [--synthesize] [--server-shapes] [--limits [--plan <name>] [--faults <rate>]]

Serves the mocks of every API of the package on one origin, until Ctrl-C.
  --port <n>      port (default 4010; 0 picks a free one)
  --host <addr>   interface (default 127.0.0.1)
  --seed <n>      seed of the synthesized data (default 1)
  --synthesize    synthesize every body from the schemas, ignoring the spec's examples
  --server-shapes answer results that real servers send otherwise than documented
                  (x-avaspec-wire-shape, x-avaspec-wire-form) as the servers do
  --limits        enforce the declared limits (x-avaspec-limits): plans per API key,
                  batch and range caps; refuse over them as the services do
  --plan <name>   with --limits: the plan of requests with an API key
  --faults <rate> with --limits: refuse this share (0-1) of requests at random, seeded by --seed`;
}

/**
 * A generated package's mock server command (`bin` in its package.json):
 * parses the arguments, serves until SIGINT or SIGTERM and resolves with the
 * exit code (0; 1 when the server cannot listen; 2 for a usage error).
 */
export async function mockServerCommand(name: string, start: StartMockServer, argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { port: { type: "string", default: "4010" }, host: { type: "string", default: "127.0.0.1" }, seed: { type: "string", default: "1" }, synthesize: { type: "boolean", default: false }, "server-shapes": { type: "boolean", default: false }, limits: { type: "boolean", default: false }, plan: { type: "string" }, faults: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    }));
  } catch (e) {
    process.stderr.write(`${name}: ${(e as Error).message}\n\n${usage(name)}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${usage(name)}\n`);
    return 0;
  }
  const port = Number(values.port);
  const seed = Number(values.seed);
  if (!/^\d+$/.test(values.port) || port > 65535 || !/^-?\d+$/.test(values.seed) || !Number.isSafeInteger(seed)) {
    process.stderr.write(`${name}: --port must be 0–65535 and --seed an integer\n\n${usage(name)}\n`);
    return 2;
  }
  const rate = values.faults === undefined ? undefined : Number(values.faults);
  if ((rate !== undefined && !(rate >= 0 && rate <= 1)) || ((values.plan !== undefined || rate !== undefined) && !values.limits)) {
    process.stderr.write(`${name}: --plan and --faults need --limits, and --faults is a share from 0 to 1\n\n${usage(name)}\n`);
    return 2;
  }
  const limits = values.limits ? { ...(values.plan !== undefined ? { plan: values.plan } : {}), ...(rate !== undefined ? { faults: { rate, seed } } : {}) } : undefined;
  let server: RunningMockServer;
  try {
    server = await start({ port, host: values.host, seed, examples: !values.synthesize, wireShapes: values["server-shapes"] ? "server" : "documented", ...(limits ? { limits } : {}) });
  } catch (e) {
    // an option the caller got wrong (limits.ts's MockLimitsOptionError, in packages that ship it), not a failure to listen
    if (e instanceof UsageError) {
      process.stderr.write(`${name}: ${(e as Error).message}\n\n${usage(name)}\n`);
      return 2;
    }
    process.stderr.write(`${name}: cannot listen on ${values.host}:${port}: ${(e as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`${name}: every API on ${server.url} (seed ${seed}${limits ? ", limits enforced" : ""}); Ctrl-C stops\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  process.stdout.write(`${name}: stopped\n`);
  return 0;
}
