/**
 * Swagger 2.0 documents are converted to OpenAPI 3.0 on load by
 * swagger2openapi (docs/adr/0026-swagger-2-on-load.md) and then go through
 * the same validation, IR and emitters as any 3.0 document. The converted
 * document keeps the original's text and locates every pointer through
 * swagger2-pointers.ts, so a diagnostic found after the conversion still
 * names the line, column and pointer of the file as written.
 *
 * The converter's promise-based API runs in a worker thread that this thread
 * waits for (Atomics.wait): the generator is synchronous from loading to
 * writing. It never reads or fetches anything: external `$ref`s are bundled
 * before the conversion by avaspec's own policy (load/bundle.ts, `refs.allow`)
 * and the converter is told not to resolve any (`resolve: false`).
 */
import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Diagnostic } from "./diagnostics.js";
import { derivedDocument, type LoadedDocument } from "./load.js";
import * as ptr from "./pointer.js";
import { originalPointer, sanitise } from "./swagger2-pointers.js";

const require = createRequire(import.meta.url);

/** How long the conversion of one document may take before it is reported as failed. */
const CONVERT_TIMEOUT_MS = 120_000;
/** Where the converter leaves a warning instead of failing (its `warnOnly` mode). */
const WARNING_KEY = "x-s2o-warning";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A `swagger` document without `openapi` (validate/openapi.ts refuses other versions than 2.0 itself). */
export function isSwagger2(root: unknown): boolean {
  return isObj(root) && root["openapi"] === undefined && (root["swagger"] === "2.0" || root["swagger"] === 2);
}

/**
 * The worker's script. Errors of any kind, even loading the converter,
 * become a message: the waiting thread must always be woken.
 */
const WORKER = `
const { workerData } = require("node:worker_threads");
const done = (message) => {
  workerData.port.postMessage(message);
  Atomics.store(workerData.signal, 0, 1);
  Atomics.notify(workerData.signal, 0);
};
try {
  const s2o = require(workerData.converter);
  s2o.convertObj(workerData.swagger, { patch: true, warnOnly: true, resolve: false, warnProperty: ${JSON.stringify(WARNING_KEY)} })
    .then((o) => done({ openapi: o.openapi }), (e) => done({ error: String((e && e.message) || e) }));
} catch (e) {
  done({ error: String((e && e.message) || e) });
}
`;

/** Runs swagger2openapi's convertObj on a copy of the root and waits for it. */
function runConverter(swagger: unknown): { openapi: Json } | { error: string } {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, { eval: true, workerData: { converter: require.resolve("swagger2openapi"), swagger, port: port2, signal }, transferList: [port2] });
  try {
    const waited = Atomics.wait(signal, 0, 0, CONVERT_TIMEOUT_MS);
    const received = receiveMessageOnPort(port1)?.message as { openapi?: Json; error?: string } | undefined;
    if (waited === "timed-out" || !received) return { error: `the conversion did not finish within ${CONVERT_TIMEOUT_MS / 1000} s` };
    if (received.error !== undefined || !received.openapi) return { error: received.error ?? "the converter returned nothing" };
    return { openapi: received.openapi };
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/** The converter's own warnings, each taken off the node it was left on. */
function takeWarnings(node: unknown, pointer: string, out: { pointer: string; message: string }[]): void {
  if (Array.isArray(node)) node.forEach((v, i) => takeWarnings(v, `${pointer}/${i}`, out));
  else if (isObj(node)) {
    if (typeof node[WARNING_KEY] === "string") {
      out.push({ pointer, message: node[WARNING_KEY] });
      delete node[WARNING_KEY];
    }
    for (const [k, v] of Object.entries(node)) if (typeof v === "object" && v !== null) takeWarnings(v, ptr.join(pointer, k), out);
  }
}

/** Where a failure of the converter belongs: it names a component whose sanitised name clashes, or nothing. */
function failurePointer(root: Json, message: string): string {
  const clash = /^Duplicate sanitised (securityScheme|parameter|response) name (.*)$/.exec(message);
  if (!clash) return "#/swagger";
  const section = { securityScheme: "securityDefinitions", parameter: "parameters", response: "responses" }[clash[1] as "securityScheme" | "parameter" | "response"];
  const names = isObj(root[section]) ? Object.keys(root[section]) : [];
  const name = names.find((n) => n !== clash[2] && sanitise(n) === clash[2]);
  return name === undefined ? ptr.join("#", section) : ptr.join("#", section, name);
}

/**
 * The OpenAPI 3.0 document made from a loaded Swagger 2.0 one (whose root the
 * bundler has already completed), or the diagnostics of a conversion that
 * failed. The converter's warnings (a lossy `collectionFormat`, say) come
 * back as warnings at the original positions. The small errors it fixes (its
 * `patch` option: a path parameter without `required: true`, a response
 * without a description…) are fixed silently: it counts them but does not say
 * where, and its count includes nodes that are not errors (every `nullable`).
 */
export function convertSwagger2(doc: LoadedDocument): { document?: LoadedDocument; diagnostics: Diagnostic[] } {
  const original = doc.root as Json;
  const at = (pointer: string) => ({ pointer, ...doc.locate(pointer) });
  const result = runConverter(original["swagger"] === 2 ? { ...original, swagger: "2.0" } : original);
  if ("error" in result) {
    return { diagnostics: [{ code: "swagger2/convert", severity: "error", message: `cannot convert this Swagger 2.0 document to OpenAPI 3.0: ${result.error}`, file: doc.file, ...at(failurePointer(original, result.error)), hint: "fix the document at this place; avaspec converts Swagger 2.0 with swagger2openapi" }] };
  }
  const converted = result.openapi;
  const warnings: { pointer: string; message: string }[] = [];
  takeWarnings(converted, "#", warnings);
  const back = (pointer: string) => originalPointer(original, converted, pointer);
  const made = derivedDocument(doc.file, doc.text, converted, (pointer) => doc.locate(back(pointer)), back);
  const diagnostics: Diagnostic[] = [...made.diagnostics];
  for (const w of warnings) diagnostics.push({ code: "swagger2/lossy", severity: "warning", message: `converting to OpenAPI 3.0: ${w.message}`, file: doc.file, ...at(back(w.pointer)), hint: "the OpenAPI 3.0 document cannot say this exactly; see the README's \"Swagger 2.0\" section" });
  return { ...(made.document ? { document: made.document } : {}), diagnostics };
}

/** Component pointers in a text, as Swagger 2.0 writes them. */
const asWritten = (text: string) => text.replace(/#\/components\/(schemas|parameters|responses)\//g, (_, kind: string) => (kind === "schemas" ? "#/definitions/" : `#/${kind}/`));

/** Diagnostics found in a converted document, given the pointers of the document as written. */
export function restorePointers(doc: LoadedDocument, diagnostics: Diagnostic[]): Diagnostic[] {
  if (!doc.original) return diagnostics;
  for (const d of diagnostics) {
    if (d.file !== doc.file) continue;
    d.pointer = doc.original(d.pointer);
    // a `$ref` quoted in a message as the conversion rewrote it, as written
    d.message = asWritten(d.message);
    if (d.hint !== undefined) d.hint = asWritten(d.hint);
  }
  return diagnostics;
}
