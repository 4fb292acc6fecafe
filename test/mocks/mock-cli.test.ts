/** `npm run mock` (avaspec mock): the README's curl calls against the real process, and a clean SIGINT. */
import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { CLI, ROOT } from "../helpers/cli.js";

it("avaspec mock serves a Data API operation and a JSON-RPC method, logs them, and stops on SIGINT", async () => {
  const child = spawn(process.execPath, [CLI, "mock", "--port", "0", "--seed", "7"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in: ${out}`)), 30_000);
    child.stdout.on("data", () => {
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) (clearTimeout(timer), resolve(m[1]!));
    });
  });
  const chain = (await (await fetch(`${url}/v1/chains/43114`)).json()) as { chainId: string };
  expect(chain.chainId).toBe("43114");
  const rpc = (await (await fetch(`${url}/ext/info`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "info.getNodeVersion" }) })).json()) as { id: number; result: { version: string } };
  expect(rpc).toMatchObject({ id: 1, result: { version: expect.stringMatching(/^avalanchego\//) } });
  child.kill("SIGINT");
  expect(await exited).toBe(0);
  expect(out).toMatch(/GET \/v1\/chains\/43114 → 200 \(getChainInfo\)/);
  expect(out).toMatch(/POST \/ext\/info → 200 \(info\.getNodeVersion\)/);
  expect(out).toMatch(/avaspec mock: stopped/);
}, 60_000);
