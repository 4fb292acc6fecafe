/**
 * The sandbox tests' host: a small surface whose methods are real async
 * functions, and a record of every call the host received (path, arguments,
 * whether its signal was aborted).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { HostCall, SnippetOutcome, Surface } from "../../runtime/mcp/sandbox.js";
import { runSnippet } from "../../runtime/mcp/sandbox.js";

export const surface: Surface = {
  node: { platform: { getHeight: "method", getBalance: "method" } },
  data: { echo: "method", fail: "method", slow: "method", hang: "method", secret: "method" },
};

/** An error shaped like the clients' typed errors: a message, a name, a status, a stack the sandbox must not pass on. */
export class StatusError extends Error {
  override name = "NotFoundError";
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

export const API_KEY = "sk-live-7f3a9c2e11d04b6f";

export interface HostRecord {
  calls: { path: string; args: readonly unknown[] }[];
  aborted: number;
}

export function makeHost(): { host: HostCall; record: HostRecord } {
  const record: HostRecord = { calls: [], aborted: 0 };
  const host: HostCall = async (path, args, signal) => {
    record.calls.push({ path: path.join("."), args });
    let settled = false;
    // counts the calls still running when the run ended
    signal?.addEventListener("abort", () => settled || record.aborted++, { once: true });
    try {
      return await method(path, args);
    } finally {
      settled = true;
    }
  };
  return { host, record };
}

async function method(path: readonly string[], args: readonly unknown[]): Promise<unknown> {
    await sleep(1);
    switch (path.join(".")) {
      case "node.platform.getHeight":
        return { height: 18446744073709551617n };
      case "node.platform.getBalance": {
        const { address } = (args[0] ?? {}) as { address?: string };
        return { address, balance: 25_000_000_000n, unit: "nAVAX" };
      }
      case "data.echo":
        return args[0];
      case "data.fail":
        throw new StatusError(`getChain failed with 404 Not Found: no chain ${JSON.stringify(args[0])}`, 404);
      case "data.slow":
        await sleep(20);
        return 1;
      case "data.hang":
        return new Promise(() => {});
      case "data.secret":
        // a server that echoes the key it was sent
        return { echoed: API_KEY, header: `Bearer ${API_KEY}`, [API_KEY]: "as a key" };
      default:
        throw new Error(`no such method ${path.join(".")}`);
    }
}

/** A normal run after a hostile one: the sandbox still serves. */
export async function healthy(): Promise<SnippetOutcome> {
  const { host } = makeHost();
  return runSnippet("const { height } = await node.platform.getHeight({});\nreturn { height, next: height + 1n }", surface, host);
}

export const HEALTHY = { ok: true, result: { height: "18446744073709551617", next: "18446744073709551618" }, calls: 1 };
