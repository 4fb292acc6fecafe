/**
 * Run by the property test in a fresh Node process:
 *   node test/property/import-check.mjs <list.json> <result.json>
 * The list holds, per document, the built modules of its package folder (and
 * last the package-wide entry points). Each group is imported in turn; the
 * result file lists every side effect seen while importing it: a throw, a
 * write to stdout or stderr, console output, a network, process or file-system
 * call, a global added or removed, a built-in prototype changed, a timer or
 * handle left active, an unhandled rejection. Imports must do none of these.
 * Then each group's `checks` (values Ajv accepts against a component schema)
 * are run through that schema's generated validator, which must accept them.
 */
import childProcess from "node:child_process";
import dgram from "node:dgram";
import dns from "node:dns";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import tls from "node:tls";
import { pathToFileURL } from "node:url";

const [listFile, resultFile] = process.argv.slice(2);
const list = JSON.parse(fs.readFileSync(listFile, "utf8"));
const writeResult = fs.writeFileSync.bind(fs);

/** @type {{ label: number | "package", what: string }[]} */
const events = [];
/** @type {number | "package" | undefined} */
let current;
const record = (what) => events.push({ label: current ?? "package", what });
const show = (args) => args.map((a) => (typeof a === "string" ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })())).join(" ").slice(0, 300);

// Lazily created platform globals and third-party modules are not the generated code's doing: touch and load them first.
void [globalThis.fetch, globalThis.Request, globalThis.Response, globalThis.Headers, globalThis.FormData, globalThis.Blob, globalThis.AbortController, globalThis.TextEncoder, globalThis.URL, globalThis.crypto, globalThis.performance, globalThis.navigator];
await import("msw");

// Output
for (const [name, stream] of [["stdout", process.stdout], ["stderr", process.stderr]]) {
  stream.write = (chunk) => (record(`${name} write: ${String(chunk).slice(0, 300)}`), true);
}
for (const m of ["log", "error", "warn", "info", "debug", "trace", "dir", "table", "group", "time", "count", "assert"]) console[m] = (...args) => record(`console.${m}: ${show(args)}`);

// Network, processes and the file system
const blocked = (what) =>
  function (...args) {
    record(`${what}: ${show(args.filter((a) => typeof a !== "function"))}`);
    throw new Error(`${what} is not allowed while importing`);
  };
globalThis.fetch = (...args) => (record(`fetch: ${show([String(args[0])])}`), Promise.reject(new Error("fetch is not allowed while importing")));
if (globalThis.WebSocket) globalThis.WebSocket = blocked("WebSocket");
for (const [mod, name, fns] of [
  [http, "http", ["request", "get", "createServer"]],
  [https, "https", ["request", "get", "createServer"]],
  [net, "net", ["connect", "createConnection", "createServer"]],
  [tls, "tls", ["connect", "createServer"]],
  [dns, "dns", ["lookup", "resolve", "resolve4", "resolve6"]],
  [dgram, "dgram", ["createSocket"]],
  [childProcess, "child_process", ["spawn", "exec", "execFile", "fork", "spawnSync", "execSync", "execFileSync"]],
  [fs, "fs", ["writeFile", "writeFileSync", "appendFile", "appendFileSync", "mkdir", "mkdirSync", "rm", "rmSync", "unlink", "unlinkSync", "rename", "renameSync", "createWriteStream", "copyFile", "copyFileSync"]],
  [fs.promises, "fs.promises", ["writeFile", "appendFile", "mkdir", "rm", "unlink", "rename", "copyFile"]],
]) {
  for (const fn of fns) mod[fn] = blocked(`${name}.${fn}`);
}
net.Socket.prototype.connect = blocked("net.Socket.connect");
syncBuiltinESMExports();

process.on("unhandledRejection", (e) => record(`unhandled rejection: ${e instanceof Error ? e.message : String(e)}`));
process.on("uncaughtException", (e) => record(`uncaught exception: ${e instanceof Error ? e.message : String(e)}`));

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, String: String.prototype, Number: Number.prototype, Boolean: Boolean.prototype, Promise: Promise.prototype, RegExp: RegExp.prototype, Error: Error.prototype, Map: Map.prototype, Set: Set.prototype, JSON, Math, Reflect };
const snapshot = () => ({
  globals: new Map(Reflect.ownKeys(globalThis).map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)])),
  protos: Object.fromEntries(Object.entries(PROTOTYPES).map(([n, p]) => [n, new Map(Reflect.ownKeys(p).map((k) => [k, Object.getOwnPropertyDescriptor(p, k)]))])),
});
/** Active handles and timers by kind (file reads of the imports themselves do not count). */
const resources = () => {
  const counts = new Map();
  for (const r of process.getActiveResourcesInfo()) if (!/^(FSReq|CloseReq|FileHandle|StatWatcher)/.test(r)) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
};
const same = (a, b) => a === b || (a && b && Object.is(a.value, b.value) && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable);
const settle = () => new Promise((resolve) => setImmediate(resolve));

let modules = 0;
let checked = 0;
for (const group of list) {
  current = group.label;
  await settle();
  const before = snapshot();
  const handles = resources();
  const loaded = new Map();
  for (const file of group.modules) {
    try {
      loaded.set(file.split(/[\\/]/).at(-1), await import(pathToFileURL(file).href));
      modules++;
    } catch (e) {
      record(`import threw: ${file.split(/[\\/]/).slice(-2).join("/")}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    }
  }
  await settle();
  const after = snapshot();
  for (const [k, d] of after.globals) if (!before.globals.has(k)) record(`global added: ${String(k)}`);
  else if (!same(before.globals.get(k), d)) record(`global changed: ${String(k)}`);
  for (const k of before.globals.keys()) if (!after.globals.has(k)) record(`global removed: ${String(k)}`);
  for (const [name, props] of Object.entries(after.protos)) {
    const was = before.protos[name];
    for (const [k, d] of props) if (!was.has(k) || !same(was.get(k), d)) record(`prototype changed: ${name}.${String(k)}`);
    for (const k of was.keys()) if (!props.has(k)) record(`prototype changed: ${name}.${String(k)} removed`);
  }
  for (const [kind, n] of resources()) if (n > (handles.get(kind) ?? 0)) record(`handle left active: ${kind}`);
  // then each default and example of a component schema (Ajv accepted it) must pass that schema's generated validator
  const validators = loaded.get("validators.js");
  for (const c of validators ? (group.checks ?? []) : []) {
    checked++;
    try {
      const result = validators[c.validator](c.value);
      if (result?.ok !== true) record(`validator rejects a valid value: ${c.validator}(${show([c.value])}) for ${c.what}: ${show([result?.issues ?? result])}`);
    } catch (e) {
      record(`validator threw: ${c.validator} for ${c.what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
current = undefined;
writeResult(resultFile, JSON.stringify({ events, modules, checked }));
process.exit(0);
