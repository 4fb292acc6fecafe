/**
 * The signal sweep of write-signals.test.ts (24 runs, in test:slow) and
 * write-signals-quick.test.ts (6 runs, in npm test). A signal at any moment of a write: the real CLI is killed the instant its
 * staging folder appears (seen through fs.watch, no test hook in the CLI),
 * over and over, so the kill lands in the first milliseconds of staging —
 * before the signal handlers were installed, or while a staged write was
 * still in flight, where the handler used to crash with ENOTEMPTY or leave an
 * empty staging folder that blocked the next run. Every kill must end in the
 * signal, no stack trace, no staging folder, and the output either as it was
 * or (a kill after the commit point) complete.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { expect } from "vitest";
import { STAGING_DIR } from "../../generator/write.js";
import { CLI, ROOT, runCli } from "../helpers/cli.js";

const PETSTORE = readFileSync(join(ROOT, "test/fixtures/petstore-30/spec.yaml"), "utf8");
const ARGS = ["generate", "--input", "api.yaml", "--out", "client"];

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (lstatSync(full).isDirectory()) {
        out[relative(root, full) + "/"] = "dir";
        walk(full);
      } else out[relative(root, full)] = readFileSync(full, "utf8");
    }
  };
  walk(root);
  return out;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  stagingLeft: boolean;
  /** The output folder as it was before the run (the kill landed before the commit point). */
  asBefore: boolean;
}

/** Runs generate in `dir` and sends `signal` as soon as the staging folder appears in client/. */
function killAtStaging(dir: string, signal: NodeJS.Signals, before: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const out = join(dir, "client");
    const child = spawn(process.execPath, [CLI, ...ARGS], { cwd: dir, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let sent = false;
    const watcher = watch(out, (_event, name) => {
      if (!sent && name?.toString() === STAGING_DIR) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on("error", reject);
    child.on("close", (code, sig) => {
      watcher.close();
      resolve({ code, signal: sig, stderr, stagingLeft: existsSync(join(out, STAGING_DIR)), asBefore: JSON.stringify(snapshot(out)) === JSON.stringify(before) });
    });
  });
}

/** A template folder with a generated client and a changed spec, and the client folder's snapshot before the killed runs. */
export function signalTemplate(): { template: string; before: Record<string, string> } {
  const template = mkdtempSync(join(tmpdir(), "avaspec-signals-"));
  writeFileSync(join(template, "api.yaml"), PETSTORE);
  expect(runCli(ARGS, template).status).toBe(0);
  // the spec changes (a renamed method, so a major version): the killed run writes different files
  writeFileSync(join(template, "api.yaml"), PETSTORE.replace("operationId: listPets", "operationId: listAllPets").replace(/^( {2}version: )1\.0\.0$/m, "$12.0.0"));
  return { template, before: snapshot(join(template, "client")) };
}

/** Up to `runs` runs killed at staging, until `landed` kills have landed while staging; asserts each outcome; returns how many landed before the commit point. */
export async function signalSweep(template: string, before: Record<string, string>, runs: number, landed: number): Promise<number> {
  const signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];
  const outcomes: Outcome[] = [];
  for (let i = 0; i < runs && outcomes.filter((o) => o.asBefore || o.code !== 0).length < landed; i++) {
    const dir = mkdtempSync(join(tmpdir(), "avaspec-signals-run-"));
    try {
      cpSync(template, dir, { recursive: true });
      const signal = signals[i % signals.length]!;
      const o = await killAtStaging(dir, signal, before);
      outcomes.push(o);
      const what = `run ${i} (${signal}): ${JSON.stringify(o)}`;
      expect(o.stderr, what).not.toMatch(/\n\s+at |ENOTEMPTY|internal error/);
      expect(o.stagingLeft, what).toBe(false);
      // a kill before the commit point: the process dies of it and the output is untouched;
      // after it (or after the run ended): the new output is complete
      if (!o.asBefore) expect(runCli([...ARGS, "--check"], dir).status, what).toBe(0);
      expect(o.signal === signal || o.code === 0, what).toBe(true);
      if (i === 0) {
        // nothing left that makes the next run wait
        const next = runCli(ARGS, dir);
        expect(next.stderr, what).toBe("");
        expect(next.status, what).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return outcomes.filter((o) => o.asBefore && o.signal !== null).length;
}
