/**
 * What goes back to the agent: a JSON value as text (bigints as decimal
 * strings), with every secret the server holds (its API keys) replaced, cut at
 * a size limit with a note saying how to ask for less. Also the text of a
 * failed call: the typed error's name, message, HTTP status or JSON-RPC code
 * and data, never a stack trace.
 */
import { ApiError, AvaspecError, RpcError, ValidationError } from "../errors/errors.js";
import { dotted, type McpOperation } from "./catalog.js";

export const REDACTED = "[redacted]";

/** `text` with every occurrence of each secret (of 4 characters or more) replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

/** A value as JSON text: bigints as decimal strings, `undefined` as null. */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v), indent) ?? "null";
}

/** The value JSON would carry: bigints as strings, no functions or prototypes (what crosses to an agent or a sandbox). */
export function jsonSafe(value: unknown): unknown {
  return JSON.parse(jsonText(value));
}

/** Text over `limit` bytes (UTF-8), cut there with a note on how to ask for less; else as it is. */
export function cut(text: string, limit: number, op?: McpOperation): { text: string; cut: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return { text, cut: false };
  // a cut inside a character is dropped by the decoder's replacement, so step back to a character start
  let end = limit;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const head = new TextDecoder().decode(bytes.subarray(0, end));
  return { text: `${head}\n… [cut at ${end.toLocaleString("en")} of ${bytes.length.toLocaleString("en")} bytes] ${howToPage(op)}`, cut: true };
}

function howToPage(op: McpOperation | undefined): string {
  if (op?.paging?.size || op?.paging?.param) {
    const size = op.paging.size ? `a smaller \`${op.paging.size}\`` : undefined;
    const next = op.paging.param ? `the next page with \`${op.paging.param}\` from this page's next-page field` : undefined;
    return `Ask ${dotted(op.path)} for less: ${[size, next].filter(Boolean).join(", or ")}; or filter the result in code mode before returning it.`;
  }
  return "Ask for less (narrower arguments, a smaller range), or in code mode return only the fields you need.";
}

/** A failed call as the agent sees it: the error's kind, message, status or code, data; no stack, no secret. */
export function errorText(error: unknown, secrets: readonly string[]): string {
  let text: string;
  if (error instanceof ApiError) text = `${error.name} (HTTP ${error.statusCode}): ${error.message}`;
  else if (error instanceof RpcError) {
    const data = error.data === undefined ? "" : ` data: ${short(jsonText(error.data), 500)}`;
    text = `${error.name} (JSON-RPC code ${error.code}): ${error.message}${data}`;
  } else if (error instanceof ValidationError) {
    const issues = error.issues.slice(0, 5).map((i) => `${i.path || "/"}: ${i.message}`);
    text = `${error.name}: ${error.message}${issues.length > 1 ? `\n${issues.join("\n")}` : ""}`;
  } else if (error instanceof AvaspecError) text = `${error.name}: ${error.message}`;
  else if (error instanceof Error) text = `${error.name}: ${error.message}`;
  else text = `Error: ${String(error)}`;
  return redact(text, secrets);
}

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
