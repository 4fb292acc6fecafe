/// <reference types="node" />
/**
 * The host's side of the boundary: what the sandbox sends is parsed into
 * plain data, what goes back in is JSON text with bigints and secrets taken
 * care of, and what leaves for the agent is redacted.
 *
 * A reply is `{"v": value}` or `{"e": {message, name?, status?, statusCode?,
 * code?, refused?}}`: the typed error's message and its status or JSON-RPC
 * code, never its stack or cause. Strings are tagged for the prelude
 * (sandbox-prelude.ts): a bigint travels as "\u0000n<digits>", a string that
 * starts with U+0000 as "\u0000s<string>".
 */
import type { Surface } from "./sandbox-types.js";

export const REDACTED = "[redacted]";

/** An error the sandbox gives the snippet for a call it will not make; uncaught, the run's reason is "refused". */
export class SandboxRefusal extends Error {
  override name = "SandboxRefusal";
}

/** The secrets worth looking for: non-empty, longest first (a secret inside another is then replaced as part of it). */
export function secretList(secrets: readonly string[] | undefined): string[] {
  return [...new Set((secrets ?? []).filter((s) => typeof s === "string" && s !== ""))].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Whether `path` names a method of the surface (the host runs nothing else). */
export function isMethod(surface: Surface, path: readonly string[]): boolean {
  let node: Surface | "method" | undefined = surface;
  for (const name of path) {
    if (node === undefined || node === "method" || !Object.hasOwn(node, name)) return false;
    node = node[name];
  }
  return node === "method" && path.length > 0;
}

/**
 * A call's arguments as plain data. JSON.parse makes own data properties on ordinary objects, so nothing here
 * can reach a prototype; a `__proto__` key is still refused, because code further on (a merge, an
 * Object.assign) would give it its special meaning.
 */
export function parseArgs(text: string): unknown[] {
  const args: unknown = JSON.parse(text, (key, value: unknown) => {
    if (key === "__proto__") throw new SandboxRefusal('a client call\'s arguments may not have a "__proto__" key');
    return value;
  });
  if (!Array.isArray(args)) throw new SandboxRefusal("a client call's arguments must be a list");
  return args;
}

/** A value for the prelude: tagged strings, redacted secrets, redacted keys. */
function wireReplacer(secrets: readonly string[]) {
  return function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === "bigint") return `\u0000n${value}`;
    if (typeof value === "string") {
      const clean = redact(value, secrets);
      return clean.charCodeAt(0) === 0 ? `\u0000s${clean}` : clean;
    }
    if (secrets.length > 0 && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const names = Object.keys(value);
      if (names.some((name) => redact(name, secrets) !== name)) {
        const copy: Record<string, unknown> = {};
        for (const name of names) Object.defineProperty(copy, redact(name, secrets), { value: (value as Record<string, unknown>)[name], enumerable: true, writable: true, configurable: true });
        return copy;
      }
    }
    return value;
  };
}

/** A client's result as the reply text, or a refusal when it is bigger than the sandbox could hold. */
export function replyText(value: unknown, secrets: readonly string[], maxChars: number): string {
  let text: string | undefined;
  try {
    text = JSON.stringify({ v: value }, wireReplacer(secrets));
  } catch (error) {
    return errorText(new SandboxRefusal(`the client's result could not be passed to the snippet as JSON: ${messageOf(error)}`), secrets);
  }
  if (text === undefined) return '{"v":null}';
  if (text.length > maxChars) {
    return errorText(new SandboxRefusal(`the client's result is ${text.length} characters of JSON, more than the sandbox's memory allows: ask for fewer items (a smaller page) or fewer fields`), secrets);
  }
  return text;
}

/** A client's error as the reply text: its message and status or code, nothing else. */
export function errorText(error: unknown, secrets: readonly string[]): string {
  const e: Record<string, unknown> = { message: messageOf(error) };
  if (error !== null && typeof error === "object") {
    const fields = error as Record<string, unknown>;
    if (typeof fields.name === "string" && fields.name !== "Error") e.name = fields.name;
    for (const field of ["status", "statusCode", "code"]) {
      const value = fields[field];
      if (typeof value === "number" || typeof value === "string") e[field] = value;
    }
  }
  if (error instanceof SandboxRefusal) e.refused = true;
  return JSON.stringify({ e }, wireReplacer(secrets));
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  if (error !== null && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return "the client call failed";
}

/** The result for the agent, parsed from the sandbox's JSON, with any secret (in a value or a key) replaced. */
export function agentResult(json: string, bytes: number, secrets: readonly string[]): { result: unknown; bytes: number } {
  const parsed: unknown = JSON.parse(json);
  if (secrets.length === 0 || redact(json, secrets) === json) return { result: parsed, bytes };
  const clean = (value: unknown): unknown => {
    if (typeof value === "string") return redact(value, secrets);
    if (Array.isArray(value)) return value.map(clean);
    if (value !== null && typeof value === "object") {
      const copy: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(value)) Object.defineProperty(copy, redact(name, secrets), { value: clean(inner), enumerable: true, writable: true, configurable: true });
      return copy;
    }
    return value;
  };
  const result = clean(parsed);
  return { result, bytes: Buffer.byteLength(JSON.stringify(result), "utf8") };
}
