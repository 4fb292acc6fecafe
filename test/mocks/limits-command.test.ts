/**
 * Issue 32: the limits mode from the generated package's mock command
 * (`--limits`, `--plan`, `--faults`), as a real process, and from
 * `startMockServer({ limits })`. Before, the command knew no `--limits`
 * (a usage error) and the server answered a 1,001-call batch.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AvaspecError, UsageError } from "@avaspec/client";
import { startMockServer } from "@avaspec/client/mock-server";
import { mockServerCommand } from "../../runtime/mock/server.js";
import { UsageError as RuntimeUsageError } from "../../runtime/errors/errors.js";

const CLI = fileURLToPath(new URL("../../generated/src/mock-server/cli.ts", import.meta.url));
const running: ChildProcess[] = [];
afterEach(async () => {
  for (const p of running) if (p.exitCode === null) {
    p.kill("SIGTERM");
    await once(p, "exit");
  }
  running.length = 0;
});

/** Starts the package's mock command; resolves with its URL once it listens, or its exit code and stderr. */
function command(args: string[]): Promise<{ url?: string; code?: number | null; stderr: string }> {
  const p = spawn(process.execPath, ["--import", "tsx", CLI, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  running.push(p);
  let out = "";
  let err = "";
  return new Promise((resolve) => {
    p.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /every API on (http:\/\/[^\s]+) /.exec(out);
      if (m) resolve({ url: m[1], stderr: err });
    });
    p.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    p.on("exit", (code) => resolve({ code, stderr: err }));
  });
}

const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId", params: [] }));
const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());

describe("the mock command's --limits", () => {
  it("refuses a batch over the node's declared 1,000 calls with -32600 'batch too large', and serves it without --limits", async () => {
    const limited = await command(["--limits"]);
    expect(limited.url, limited.stderr).toBeDefined();
    expect(await post(`${limited.url}/ext/bc/C/rpc`, batch(1001))).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch too large" } });
    expect(await post(`${limited.url}/ext/bc/C/rpc`, batch(1000))).toHaveLength(1000);
    const plain = await command([]);
    expect(await post(`${plain.url}/ext/bc/C/rpc`, batch(1001))).toHaveLength(1001);
  }, 60_000);

  it("refuses a plan no document declares, and --faults without --limits, as usage errors", async () => {
    const unknown = await command(["--limits", "--plan", "platinum"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no plan "platinum" is declared (known: unauthenticated, free, base, growth, pro)');
    // a usage error, not a failure to listen
    expect(unknown.stderr).not.toContain("cannot listen");
    const bare = await command(["--faults", "0.1"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("--plan and --faults need --limits");
  }, 60_000);
});

describe("a usage error is any UsageError, whichever module threw it", () => {
  /** Runs the command in this process with `start`, capturing what it writes to stderr. */
  async function run(start: () => Promise<never>): Promise<{ code: number; stderr: string }> {
    let stderr = "";
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
    try {
      return { code: await mockServerCommand("mock", start, ["--port", "0"]), stderr };
    } finally {
      spy.mockRestore();
    }
  }

  it("an option error of another name exits 2 with the usage text; any other error is a failure to listen (1)", async () => {
    class OtherOptionError extends RuntimeUsageError {
      override name = "OtherOptionError";
    }
    const usage = await run(() => Promise.reject(new OtherOptionError("no such region")));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^mock: no such region\n\nusage: mock \[--port 4010\]/);
    const failure = await run(() => Promise.reject(new Error("EADDRINUSE")));
    expect(failure).toEqual({ code: 1, stderr: "mock: cannot listen on 127.0.0.1:0: EADDRINUSE\n" });
  });

  it("startMockServer's unknown plan is a UsageError and an AvaspecError, before it listens", async () => {
    const error = await startMockServer({ port: 0, log: null, limits: { plan: "platinum" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(AvaspecError);
    expect((error as Error).name).toBe("MockLimitsOptionError");
  });
});

describe("startMockServer({ limits })", () => {
  it("serves the public node's 40-call cap when told to behave as that server", async () => {
    const server = await startMockServer({ port: 0, log: null, limits: { server: "https://api.avax.network/ext/bc/C/rpc" } });
    try {
      expect(await post(`${server.url}/ext/bc/C/rpc`, batch(41))).toMatchObject({ id: null, error: { code: -32600, message: "batch too large" } });
      expect(await post(`${server.url}/ext/bc/C/rpc`, batch(40))).toHaveLength(40);
    } finally {
      await server.close();
    }
  });
});
