/** Running the interop tools (installed in test/interop/node_modules by `npm run test:interop`). */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "../helpers/cli.js";

export { ROOT };

export const INTEROP = fileURLToPath(new URL("./", import.meta.url));
export const SPEC_DIR = join(ROOT, "spec");
export const BUNDLED_DIR = join(ROOT, "generated", "spec");

export const openapiDocs = readdirSync(SPEC_DIR).filter((f) => f.endsWith(".openapi.yaml")).sort();
export const openrpcDocs = readdirSync(SPEC_DIR).filter((f) => f.endsWith(".openrpc.yaml")).sort();
export const bundledDocs = readdirSync(BUNDLED_DIR).filter((f) => f.endsWith(".json")).sort();

/** One entry of `npm pack --json`. */
export interface PackResult {
  filename: string;
  version: string;
  files: { path: string; size: number }[];
  entryCount: number;
  size: number;
  unpackedSize: number;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool from test/interop/node_modules/.bin; never throws on a non-zero exit. */
export function tool(name: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}): Promise<Run> {
  return run(join(INTEROP, "node_modules", ".bin", name), args, options);
}

export function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd ?? INTEROP, env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", ...options.env }, timeout: options.timeout ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `avaspec-${prefix}-`));
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** Starts a long-running tool, adds it to `children` (for the caller's afterAll to kill) and resolves once its output matches `ready`. */
export function startProcess(file: string, args: string[], ready: RegExp, children: ChildProcess[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: INTEROP, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${file} did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", (e) => reject(e));
    child.on("exit", (code) => reject(new Error(`${file} exited (${code}):\n${out}`)));
  });
}
