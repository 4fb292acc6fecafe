/**
 * The clients in a real browser: test/interop/browser/page.ts, bundled by
 * esbuild for the browser platform, is served from one loopback origin and
 * calls the package's own mock server (`@avaspec/client/mock-server`) on
 * another, so Chromium sends real CORS preflights. Headless Chromium (the
 * system's `chromium`, driven by playwright-core) renders each result into
 * the DOM, and the test compares it with what the mock answers to a plain
 * request. Chromium missing is a failure, not a skip: `.ci/run` installs it.
 */
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type RunningMockServer } from "@avaspec/client/mock-server";
import { freePort, INTEROP, ROOT, tempDir } from "./helpers.js";

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let browser: Promise<BrowserContext> | undefined;
let site: Server;
let siteUrl: string;
let mock: RunningMockServer;
const mockLog: string[] = [];

function chromiumPath(): string {
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("no `chromium` on PATH: install the Debian package (apt-get install -y --no-install-recommends chromium), as .ci/run does");
  }
}

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(INTEROP, "browser", "page.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    alias: { "@avaspec/client": join(ROOT, "generated", "src") },
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]!.text;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>avaspec</title><script type="module" src="/page.js"></script></head><body></body></html>`;
  site = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else if (path === "/page.js") res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
  mock = await startMockServer({ port: 0, log: (line) => mockLog.push(line) });
}, 120_000);

/** Launched by the first test that needs it, so a missing Chromium fails each test (vitest would report a failing beforeAll's tests as skipped). */
function launch(): Promise<BrowserContext> {
  browser ??= (async () => chromium.launchPersistentContext(tempDir("chromium-profile"), { executablePath: chromiumPath(), headless: true, args: ARGS }))();
  return browser;
}

afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
  await mock?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
});

/** Loads the page against `api` and returns each <output>'s outcome and text. */
async function render(api: string): Promise<{ page: Page; errors: string[]; outputs: Record<string, { outcome: string; text: string }> }> {
  const page = await (await launch()).newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${siteUrl}?api=${encodeURIComponent(api)}`);
  await page.waitForSelector("body[data-done]", { timeout: 30_000 });
  const outputs = await page.$$eval("output", (els) => Object.fromEntries(els.map((e) => [e.id, { outcome: (e as HTMLElement).dataset["outcome"] ?? "", text: e.textContent ?? "" }])));
  return { page, errors, outputs };
}

async function rpcResult(endpoint: string, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(mock.url + endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const reply = (await res.json()) as { result?: unknown; error?: unknown };
  expect(reply.error).toBeUndefined();
  return reply.result;
}

describe("headless Chromium", () => {
  it("renders a Data API call and two JSON-RPC calls made through the clients, equal to what the mock answers", async () => {
    const { page, errors, outputs } = await render(mock.url);
    console.log(`${await page.evaluate(() => navigator.userAgent)}: ${Object.keys(outputs).join(", ")}`);
    expect(errors).toEqual([]);
    expect(Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.outcome]))).toEqual({ chain: "ok", "node-version": "ok", "eth-chain-id": "ok", "eth-chain-id-bigint": "ok", "ws-heads": "ok" });

    // the same calls, made with plain requests from Node
    const chain = await (await fetch(`${mock.url}/v1/chains/43114`)).json();
    expect(JSON.parse(outputs["chain"]!.text)).toEqual(chain);
    expect(JSON.parse(outputs["node-version"]!.text)).toEqual(await rpcResult("/ext/info", "info.getNodeVersion", {}));
    const chainId = await rpcResult("/ext/bc/C/rpc", "eth_chainId", []);
    expect(JSON.parse(outputs["eth-chain-id"]!.text)).toEqual(chainId);
    // newHeads over the mock's /ext/bc/C/ws, from Chromium's WebSocket: two consecutive heads, read as bigints
    const heads = JSON.parse(outputs["ws-heads"]!.text) as string[];
    expect(heads).toHaveLength(2);
    const [h1, h2] = heads.map((h) => /^bigint (\d+)$/.exec(h)?.[1]);
    expect(BigInt(h2!) - BigInt(h1!)).toBe(1n);
    expect(mockLog.some((l) => /\/ext\/bc\/C\/ws/.test(l))).toBe(true);
    // the default node client, in the browser too: a bigint (the number policy)
    expect(JSON.parse(outputs["eth-chain-id-bigint"]!.text)).toBe(`bigint ${BigInt(chainId as string).toString()}`);
    expect(chain).toMatchObject({ chainId: "43114" });

    // cross-origin from the page: the browser asked first, and the mock's CORS answer let the calls through
    expect(new URL(siteUrl).origin).not.toBe(mock.url);
    expect(mockLog.filter((l) => l.includes("(preflight)")).length).toBeGreaterThan(0);
    expect(mockLog.some((l) => l.startsWith("GET /v1/chains/43114 → 200"))).toBe(true);
    expect(mockLog.some((l) => l.startsWith("POST /ext/info → 200"))).toBe(true);
    await page.close();
  });

  it("control: the page pointed at a closed port renders the typed NetworkError of each call", async () => {
    const { page, outputs } = await render(`http://127.0.0.1:${await freePort()}`);
    expect(outputs).toEqual({
      chain: { outcome: "error", text: "NetworkError" },
      "node-version": { outcome: "error", text: "NetworkError" },
      "eth-chain-id": { outcome: "error", text: "NetworkError" },
      "eth-chain-id-bigint": { outcome: "error", text: "NetworkError" },
      "ws-heads": { outcome: "error", text: "NetworkError" },
    });
    await page.close();
  });
});
